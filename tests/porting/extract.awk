# Extracts the toy port from docs/PORTING.md (tests/porting/check.sh):
#
#	awk -v c=TOY.c -v mk=TOY.mk -v doc=NAME -f extract.awk PORTING.md
#
# The fenced blocks whose info string is "c toy" go to c, in order, each
# after a #line directive naming doc and its first line (so that compiler
# messages point into the document); the "make toy" blocks go to mk. On
# stdout, one line per place where C is written but not checked: a fenced
# block with another info string that is C by name (c, h, cpp, ...) or
# looks like C, or an indented code line outside the fences that looks
# like C.
function looks_like_c(s)
{
	return s ~ /;[ \t]*$/ || s ~ /^[ \t]*#[ \t]*(include|define|if|ifdef|ifndef|endif)([ \t]|$)/ ||
	       s ~ /^[ \t]*(static|struct|void|int|unsigned|u64|return|typedef|enum)[ \t]/ ||
	       s ~ /[{}][ \t]*$/
}

BEGIN {
	inb = 0
}

/^```/ && !inb {
	inb = 1
	info = substr($0, 4)
	sub(/[ \t]+$/, "", info)
	kind = info == "c toy" ? "c" : info == "make toy" ? "make" : "other"
	start = NR
	seen = 0
	if (kind == "c")
		printf "#line %d \"%s\"\n", NR + 1, doc >c
	next
}

/^```[ \t]*$/ && inb {
	inb = 0
	if (kind == "other" && (seen || info ~ /^(c|C|h|cc|cpp|c\+\+)([ \t]|$)/))
		printf "line %d: a block (```%s) that is C but not marked `c toy`\n", start, info
	next
}

inb && kind == "c" {
	print >c
	next
}

inb && kind == "make" {
	print >mk
	next
}

inb {
	if (looks_like_c($0))
		seen = 1
	next
}

/^(    |\t)/ && looks_like_c($0) {
	printf "line %d: indented code that looks like C\n", NR
}

END {
	if (inb)
		printf "line %d: a block that is never closed\n", start
}
