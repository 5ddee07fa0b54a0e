#!/bin/bash
# check-series.sh -- the Linux series, patch by patch, as upstream would
# take it: for every patch of linux/series, in order,
#   - it applies to the tree so far with patch -p1,
#   - scripts/checkpatch.pl finds no error and no warning in it,
#   - the tree builds with it (incrementally, O=, CONFIG_HZ_DYNAMIC=y),
# then, on the whole series, the constant-HZ build (CONFIG_HZ_DYNAMIC=n)
# is built and its kernel/time/*.o compared with a stock build's.
#
#   scripts/linux/check-series.sh [--arch x86_64|arm64] [--no-build]
#                                 [--no-stock] [--only-last]
#
# Linux comes from LINUX_TARBALL (default: /usr/src/linux-source-6.1.tar.xz,
# else Debian's linux-source-6.1 package through scripts/fetch-deb.sh).
# The configuration is tinyconfig plus linux/config/{base,ARCH,dynhz}.config
# (LINUX_CONFIG_DIR to take base and ARCH from elsewhere). Work and logs in
# build/linux/series-check-ARCH/. Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
top=$PWD
arch=x86_64 build=1 stock=1 only_last=0
while [ $# -gt 0 ]; do
	case $1 in
	--arch) arch=$2; shift ;;
	--no-build) build=0 ;;
	--no-stock) stock=0 ;;
	--only-last) only_last=1 ;;
	*) echo "usage: $0 [--arch x86_64|arm64] [--no-build] [--no-stock] [--only-last]" >&2; exit 2 ;;
	esac
	shift
done
work=$top/build/linux/series-check-$arch
cfgdir=${LINUX_CONFIG_DIR:-$top/linux/config}
passed=0 failed=0
ok() { echo "check-series: ok   $*"; passed=$((passed + 1)); }
bad() { echo "check-series: FAIL $*"; failed=$((failed + 1)); }

case $arch in
x86_64) mk=(ARCH=x86_64 CC="ccache gcc"); tiny=arch/x86/configs/tiny.config ;;
arm64) mk=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CC="ccache aarch64-linux-gnu-gcc"); tiny= ;;
*) echo "check-series: unknown arch $arch" >&2; exit 2 ;;
esac
command -v ccache >/dev/null || mk=("${mk[@]/ccache /}")

tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
if [ ! -f "$tarball" ]; then
	deb=$(bash scripts/fetch-deb.sh --deb linux-source-6.1:all) || exit 1
	mkdir -p build/linux/deb && dpkg-deb -x "$deb" build/linux/deb || exit 1
	tarball=$(ls build/linux/deb/usr/src/linux-source-6.1.tar.xz)
fi

# A pristine tree, unpacked once and copied for every run.
unpack() { # DIR
	rm -rf "$1" && mkdir -p "$1" &&
		tar -xf "$tarball" -C "$1" --strip-components=1 || exit 1
	mkdir -p "$1/dynhz/include"
	ln -sfn "$top/time/conv.c" "$1/dynhz/conv.c"
	ln -sfn "$top/include/dynhz" "$1/dynhz/include/dynhz"
}

# tinyconfig plus the fragments, then make; $1 tree, $2 output, $3... extra fragments
kbuild() {
	local src=$1 out=$2 frag
	shift 2
	mkdir -p "$out"
	cat "$src/kernel/configs/tiny.config" ${tiny:+"$src/$tiny"} "$cfgdir/base.config" \
		"$cfgdir/$arch.config" "$@" > "$out/all.config" || return 1
	nice -n 10 make -s -C "$src" O="$out" "${mk[@]}" KCONFIG_ALLCONFIG="$out/all.config" \
		allnoconfig >/dev/null || return 1
	for frag in "$cfgdir/base.config" "$cfgdir/$arch.config" "$@"; do
		grep '^CONFIG_.*=' "$frag" | while read -r l; do
			grep -qx "$l" "$out/.config" || echo "check-series: $l not in .config" >&2
		done
	done
	nice -n 10 make -s -C "$src" O="$out" "${mk[@]}" -j2 >"$out/build.log" 2>&1 || return 1
	! grep -q "warning:" "$out/build.log"
}

mkdir -p "$work"
src=$work/src
unpack "$src"
mapfile -t patches < <(grep -v '^[[:space:]]*#' linux/series | grep -v '^[[:space:]]*$')
n=${#patches[@]}
i=0
for p in "${patches[@]}"; do
	i=$((i + 1))
	f=linux/patches/$p
	if ! (cd "$src" && patch -p1 -s --no-backup-if-mismatch) < "$f" > "$work/patch-$i.log" 2>&1; then
		bad "$p: does not apply ($work/patch-$i.log)"
		break
	fi
	ok "$p: applies"
	cp "$f" "$work/cp-$i.patch"
	cp_out=$(cd "$src" && ./scripts/checkpatch.pl -q --no-summary "$work/cp-$i.patch" 2>&1)
	errs=$(grep -c '^ERROR:' <<<"$cp_out") warns=$(grep -c '^WARNING:' <<<"$cp_out")
	if [ "$errs" = 0 ] && [ "$warns" = 0 ]; then
		ok "$p: checkpatch 0 errors, 0 warnings"
	else
		bad "$p: checkpatch $errs errors, $warns warnings"
		echo "$cp_out" | sed 's/^/    /' | head -40
	fi
	[ $build = 1 ] || continue
	[ $only_last = 1 ] && [ $i -lt $n ] && continue
	if kbuild "$src" "$work/out-dynamic" "$cfgdir/dynhz.config"; then
		ok "$p: builds ($arch, CONFIG_HZ_DYNAMIC=y, no warning)"
	else
		bad "$p: build failed or warned ($work/out-dynamic/build.log)"
		tail -20 "$work/out-dynamic/build.log" | sed 's/^/    /'
	fi
done

# The constant build of the whole series against stock: kernel/time/*.o
# identical, or the text within 0.1 %.
if [ $build = 1 ] && [ $stock = 1 ] && [ $failed = 0 ]; then
	unpack "$work/stock"
	echo "CONFIG_HZ_DYNAMIC=n" > "$work/constant.config"
	if kbuild "$src" "$work/out-constant" "$work/constant.config" &&
		kbuild "$work/stock" "$work/out-stock"; then
		ok "constant and stock builds"
		same=0 differ=0
		for o in "$work"/out-stock/kernel/time/*.o; do
			b=$(basename "$o")
			case $b in built-in.o|*.mod.o) continue ;; esac
			if cmp -s <(objcopy -O binary -j .text "$o" /dev/stdout 2>/dev/null) \
				<(objcopy -O binary -j .text "$work/out-constant/kernel/time/$b" /dev/stdout 2>/dev/null); then
				same=$((same + 1))
			else
				differ=$((differ + 1)); echo "    kernel/time/$b: .text differs"
			fi
		done
		t_stock=$(size -A "$work/out-stock/vmlinux" | awk '$1==".text"{print $2}')
		t_const=$(size -A "$work/out-constant/vmlinux" | awk '$1==".text"{print $2}')
		echo "    kernel/time/*.o .text: $same identical, $differ different;" \
			"vmlinux .text: stock $t_stock, constant $t_const"
		if [ $differ = 0 ] || awk -v a="$t_stock" -v b="$t_const" \
			'BEGIN { d = (a > b ? a - b : b - a) / a; exit !(d <= 0.001) }'; then
			ok "CONFIG_HZ_DYNAMIC=n is stock"
		else
			bad "CONFIG_HZ_DYNAMIC=n differs from stock"
		fi
	else
		bad "constant or stock build failed"
	fi
fi
echo "$passed passed, $failed failed"
[ $failed = 0 ]
