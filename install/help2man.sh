#!/bin/sh
# Writes the man page of a command from its --help text, so that the page
# cannot drift from what the command says of itself: the usage line is the
# synopsis, its first sentence the NAME line, every line of the form
# "heading:" at the left margin a section, and the rest kept as the help
# prints it.
# usage: install/help2man.sh NAME SECTION VERSION < HELP-TEXT > PAGE
set -eu
NAME=$1 SECTION=$2 VERSION=$3
awk -v name="$NAME" -v section="$SECTION" -v version="$VERSION" '
function esc(s) {
	gsub(/\\/, "\\e", s)
	if (s ~ /^[.\047]/)
		s = "\\&" s
	return s
}
function open_block() { if (!inblock) { print ".nf"; inblock = 1 } }
function close_block() { if (inblock) { print ".fi"; inblock = 0 } }
NR == 1 {
	if ($0 !~ /^usage: /) { print "help2man.sh: the help does not start with usage:" > "/dev/stderr"; exit 2 }
	synopsis = $0
	sub(/^usage: [^ ]*/, name, synopsis)
	next
}
!described && NF == 0 { next }
!described {
	summary = $0
	sub(/(\. |\.$|:).*/, "", summary)
	printf ".TH %s %s \"\" \"uarchcopy %s\" \"uarchcopy\"\n", toupper(name), section, version
	print ".SH NAME"
	print esc(name) " \\- " esc(tolower(substr(summary, 1, 1)) substr(summary, 2))
	print ".SH SYNOPSIS"
	print ".nf"
	print esc(synopsis)
	print ".fi"
	print ".SH DESCRIPTION"
	described = 1
}
/^[a-z][a-z ]*:( |$)/ {
	close_block()
	heading = $0
	sub(/:.*/, "", heading)
	rest = substr($0, length(heading) + 2)
	sub(/^ /, "", rest)
	print ".SH " toupper(heading)
	if (rest != "") { open_block(); print esc(rest) }
	next
}
{ open_block(); print esc($0) }
END { close_block() }
'
