#!/bin/bash
# constant.sh [ARCH] -- CONFIG_HZ_DYNAMIC=n is stock, byte for byte
# (make check-long; issue 40, item 4).
#
# The series opens with independent fixes (linux/series, before its line
# "#@ feature"): each changes stock's behaviour on its own and can be
# taken alone. After them, the series with CONFIG_HZ_DYNAMIC=n must build
# the very kernel the tree with those fixes alone builds. For CONFIG_HZ
# 100, 250, 300 and 1000 (LINUX_CONSTANT_HZ), same fragments, no build
# date (build.sh's constant kinds):
#
#   build.sh ARCH fixes N   the pristine tree plus the fixes
#   build.sh ARCH nodyn N   the whole series, HZ_DYNAMIC and its KUnit
#                           suite off
#
# and the two vmlinux compared: .text as a whole (objcopy), then every
# function symbol (nm) by its bytes, so that a difference names the
# functions it is in. One result per HZ: every function identical, the
# same set of functions, the same .text size. A second result: every
# section the kernel loads (SHF_ALLOC with contents: code, rodata, data,
# init, per-CPU...) identical byte for byte, so that what differs in the
# file at all is only in what is not loaded (the symbol table's names:
# initcalls carry their source line). Logs in
# build/linux-long/constant-ARCH/.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
source scripts/linux/lib.sh
export LC_ALL=C
arch=${1:-x86_64}
out=build/linux-long/constant-$arch
mkdir -p "$out"
bash scripts/deps.sh linux >/dev/null || exit 1
lx_arch_vars "$arch"
case $arch in arm64) objcopy=llvm-objcopy nm=llvm-nm ;; *) objcopy=objcopy nm=nm ;; esac
[ -n "$(lx_fixes)" ] || { report "linux constant $arch" "linux/series has no '#@ feature' line: no fixes to compare with"; exit 0; }

# vmlinux KIND HZ: builds, prints vmlinux (nothing when the build failed).
vmlinux() {
	if bash scripts/linux/build.sh "$arch" "$1" "$2" >"$out/build-$1-$2.log" 2>&1; then
		echo "$(dirname "$(dirname "$(dirname "$(dirname "$(bash scripts/linux/build.sh --print "$arch" "$1" "$2")")")")")/vmlinux"
	else
		report "linux constant $arch: build $1 HZ $2" "$(tail -1 "$out/build-$1-$2.log")"
	fi
}

# funcs VMLINUX TEXTBIN: "name size hash" for every function symbol in
# .text, sorted; TEXTBIN gets .text itself.
funcs() {
	"$objcopy" -O binary --only-section=.text "$1" "$2"
	$nm -S --defined-only "$1" | python3 -c '
import sys, hashlib
text = open(sys.argv[1], "rb").read()
start = int(sys.argv[2], 16)
out = []
for line in sys.stdin:
	f = line.split()
	if len(f) != 4 or f[2] not in "tT":
		continue
	off, size = int(f[0], 16) - start, int(f[1], 16)
	if off < 0 or off + size > len(text):
		continue
	out.append("%s %d %s" % (f[3], size, hashlib.sha1(text[off:off + size]).hexdigest()[:12]))
print("\n".join(sorted(out)))
' "$2" "$(readelf -SW "$1" | sed 's/\[ */[/' | awk '$2 == ".text" { print $4 }')"
}

# loaded VMLINUX: the names of its sections with SHF_ALLOC and contents.
loaded() {
	readelf -SW "$1" | sed 's/\[ */[/' | awk '$1 ~ /^\[[0-9]+\]$/ && $3 != "NOBITS" && $8 ~ /A/ { print $2 }'
}

# sections A B N: every loaded section of A against B's.
sections() {
	local sec same=0 bad=()
	if [ "$(loaded "$1")" != "$(loaded "$2")" ]; then
		report "linux constant $arch: HZ $3: every loaded section identical" \
			"not the same sections: $(diff <(loaded "$1") <(loaded "$2") | grep '^[<>]' | head -4 | tr '\n' ' ')"
		return
	fi
	for sec in $(loaded "$1"); do
		"$objcopy" -O binary --only-section="$sec" "$1" "$out/a.sec" &&
			"$objcopy" -O binary --only-section="$sec" "$2" "$out/b.sec" || { bad+=("$sec(objcopy)"); continue; }
		if cmp -s "$out/a.sec" "$out/b.sec"; then
			same=$((same + 1))
		else
			bad+=("$sec")
		fi
	done
	rm -f "$out/a.sec" "$out/b.sec"
	if [ ${#bad[@]} = 0 ]; then
		report "linux constant $arch: HZ $3: every loaded section identical ($same sections)"
	else
		report "linux constant $arch: HZ $3: every loaded section identical" "${#bad[@]} differ: ${bad[*]:0:8}"
	fi
}

for n in ${LINUX_CONSTANT_HZ:-100 250 300 1000}; do
	a=$(vmlinux fixes "$n") b=$(vmlinux nodyn "$n")
	[ -n "$a" ] && [ -n "$b" ] || continue
	funcs "$a" "$out/fixes-$n.text" >"$out/fixes-$n.funcs"
	funcs "$b" "$out/nodyn-$n.text" >"$out/nodyn-$n.funcs"
	total=$(wc -l <"$out/fixes-$n.funcs")
	diff "$out/fixes-$n.funcs" "$out/nodyn-$n.funcs" >"$out/diff-$n.txt"
	differ=$(grep -c '^>' "$out/diff-$n.txt")
	if cmp -s "$out/fixes-$n.text" "$out/nodyn-$n.text" && [ "$differ" = 0 ]; then
		report "linux constant $arch: HZ $n: vmlinux code identical ($total functions, .text $(stat -c %s "$out/fixes-$n.text") bytes)"
	else
		report "linux constant $arch: HZ $n: vmlinux code identical" \
			"$differ of $total functions differ, .text $(stat -c %s "$out/fixes-$n.text") vs $(stat -c %s "$out/nodyn-$n.text") bytes ($out/diff-$n.txt):" \
			"$(grep '^>' "$out/diff-$n.txt" | head -8 | awk '{ print $2 }' | tr '\n' ' ')"
	fi
	sections "$a" "$b" "$n"
done
