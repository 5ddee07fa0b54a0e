#!/bin/bash
# divides.sh A_VMLINUX B_VMLINUX [ARCH] -- integer divide instructions in
# two kernels (issue 40, item 7): in all, and per function where B has
# more than A. A divide costs tens of cycles on hardware where -icount
# charges it one instruction, so a series that turns `x / HZ` into a
# division by a variable must be seen here, statically. x86_64: div and
# idiv; arm64: udiv and sdiv. Prints the totals, then the functions with
# added divides, most first.
set -e -o pipefail
a=${1:?usage: divides.sh A_VMLINUX B_VMLINUX [ARCH]} b=${2:?usage: divides.sh A_VMLINUX B_VMLINUX [ARCH]}
arch=${3:-x86_64}
case $arch in
x86_64) objdump=objdump re='^[ \t]*[0-9a-f]+:[ \t]+i?div[bwlq]?[ \t]' ;;
arm64) objdump=llvm-objdump re='^[ \t]*[0-9a-f]+:[ \t]+[us]div[ \t]' ;;
*) echo "divides.sh: unknown ARCH $arch" >&2 && exit 1 ;;
esac
count() { # VMLINUX: "function divides" for each function with one
	"$objdump" -d --no-show-raw-insn "$1" | awk -v re="$re" '
		/^[0-9a-f]+ <.*>:$/ { f = $2; gsub(/[<>:]/, "", f); next }
		$0 ~ re { n[f]++ }
		END { for (f in n) print f, n[f] }' | sort
}
count "$a" >/tmp/divides.a.$$
count "$b" >/tmp/divides.b.$$
ta=$(awk '{ s += $2 } END { print s + 0 }' /tmp/divides.a.$$)
tb=$(awk '{ s += $2 } END { print s + 0 }' /tmp/divides.b.$$)
echo "divides: $ta in $(basename "$(dirname "$a")")/vmlinux, $tb in $(basename "$(dirname "$b")")/vmlinux ($((tb - ta)) more)"
join -a2 -e0 -o 0,1.2,2.2 /tmp/divides.a.$$ /tmp/divides.b.$$ |
	awk '$3 > $2 { print $3 - $2, $1 }' | sort -rn >/tmp/divides.d.$$
echo "functions with more divides: $(wc -l </tmp/divides.d.$$)"
cat /tmp/divides.d.$$
rm -f /tmp/divides.[abd].$$
