#!/bin/sh
# Prints the entry of uarch.db whose CPUID range holds this CPU (what
# uc_rule_init would select), or nothing where no entry holds it.
# usage: bench/this_entry.sh UARCHGEN   (CPUINFO=FILE reads FILE, not /proc/cpuinfo)
set -eu
gen=${1:?usage: bench/this_entry.sh UARCHGEN}
info=${CPUINFO:-/proc/cpuinfo}
field() { sed -n "s/^$1[[:space:]]*: *//p" "$info" | head -n 1; }
vendor=$(field vendor_id)
family=$(field 'cpu family')
model=$(field model)
if [ -z "$vendor" ] || [ -z "$family" ] || [ -z "$model" ]; then
	echo "this_entry.sh: $info names no vendor, family and model" >&2
	exit 1
fi
"$gen" lookup "$vendor" "$family" "$model" --flavor kernel |
	sed -n 's/^flavor=[^ ]* entry=\([^ ]*\) .*/\1/p' | grep -v '^-$' || true
