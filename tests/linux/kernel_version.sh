#!/bin/sh
# Prints the version of the newest Debian kernel (linux-image-amd64) whose
# headers (linux-headers-amd64) are installed too, as in
# /usr/src/linux-headers-VERSION and /boot/vmlinuz-VERSION; exit 1 if none.
# The metapackages name no version: it is found here, at build time.
# usage: tests/linux/kernel_version.sh
for h in /usr/src/linux-headers-*-amd64; do
	v=${h#/usr/src/linux-headers-}
	[ -f "$h/Makefile" ] && [ -f "/boot/vmlinuz-$v" ] && echo "$v"
done | sort -V | tail -1 | grep . || {
	echo "kernel_version.sh: no /boot/vmlinuz-V with /usr/src/linux-headers-V (make deps installs both)" >&2
	exit 1
}
