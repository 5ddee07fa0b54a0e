#!/bin/bash
# divfuncs.sh DIVCOUNT_OUT SYSTEM_MAP -- the per-instruction counts of
# bench/linux/divcount.c summed per kernel function: "FUNCTION DIV MUL
# INSTRUCTIONS", one a line, most divides first (instructions: of the
# blocks that start in the function). An address belongs to the last text
# symbol at or below it (System.map's t/T/w/W lines; addresses compared
# as 16-digit hex strings, which sort as numbers).
set -e -o pipefail
out=${1:?usage: divfuncs.sh DIVCOUNT_OUT SYSTEM_MAP} map=${2:?usage: divfuncs.sh DIVCOUNT_OUT SYSTEM_MAP}
export LC_ALL=C
{
	awk '$2 ~ /^[tTwW]$/ && length($1) == 16 { print $1, "0sym", $3 }' "$map"
	awk '$1 == "insn" { print $2, "1" $3, $4 }' "$out"
} | sort -k1,1 -k2,2 | awk '
	$2 == "0sym" { f = $3; next }
	{ if ($2 == "1div") d[f] += $3; else if ($2 == "1mul") m[f] += $3; else i[f] += $3; seen[f] = 1 }
	END { for (f in seen) print f, d[f] + 0, m[f] + 0, i[f] + 0 }' | sort -k2,2nr -k1,1
