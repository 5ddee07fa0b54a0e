#!/bin/bash
# constant.sh [ARCH] -- the series with CONFIG_HZ_DYNAMIC=n is stock Linux
# (make check-long; issue 29, item 8). Two judges, both independent of
# the series' own code:
#
#   1. The code is stock's. The series built with CONFIG_HZ_DYNAMIC=n
#      (make linux CONFIG_HZ_DYNAMIC=n CONFIG_HZ=N) against stock 6.1 (make
#      linux-stock CONFIG_HZ=N), same fragments, N = 250 and 1000: every
#      kernel/time/*.o stock has must have the same .text, byte for byte
#      (objcopy -j .text), and the whole vmlinux's code (its functions'
#      sizes summed, nm -S) must be within 0.1 % of stock's once the one
#      object stock has not is taken out: the KUnit suite
#      (kernel/time/hz_kunit.o: HZ_KUNIT_TEST comes with the series).
#      Shown with and without it, and .text's size beside (x86_64 pads
#      .text to 2 MB, so there it does not move with a few KB).
#   2. The conversions are exact. The KUnit suite hz (kernel/time/hz_kunit.c,
#      patch 26) checks every jiffies conversion against its definition
#      in 128-bit integers; built with a constant HZ it runs on stock's
#      conversions (the code of 1.). The constant builds at N = 100, 250
#      and 1000 are booted (-icount, one CPU) with only that suite: it
#      must pass with no test skipped. So stock's conversions and the
#      CONFIG_HZ_DYNAMIC build's, which pass the same suite at every HZ,
#      give the exact values on every input tried.
#
# One result per comparison and boot. Logs and boots in build/linux-long/.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
source scripts/linux/lib.sh
source scripts/linux/boot.sh
source tests/linux/checks-lib.sh
export LC_ALL=C
arch=${1:-x86_64}
out=build/linux-long/constant-$arch
mkdir -p "$out"
rm -f "$out"/*.log "$out"/*.rc "$out"/*.err "$out"/*.kernel
bash scripts/deps.sh linux >/dev/null || exit 1

# kernel KIND HZ: builds, prints the image (nothing when the build failed).
kernel() {
	if bash scripts/linux/build.sh "$arch" "$1" "$2" >"$out/build-$1-$2.log" 2>&1; then
		bash scripts/linux/build.sh --print "$arch" "$1" "$2"
	else
		report "linux constant $arch: build $1 HZ $2" "$(tail -1 "$out/build-$1-$2.log")"
	fi
}

specs=()
for n in 100 250 1000; do
	k=$(kernel nodyn "$n")
	[ -n "$k" ] && specs+=("hz$n|$arch|$k|$out/initramfs.cpio|checkhz=$n kunit.filter_glob=hz check=kernelhz|icount|600")
done
if bash tests/linux/payload.sh "$arch" >"$out/payload.log" 2>&1 &&
	bash scripts/linux/initramfs.sh "$arch" "$out/initramfs.cpio" "build/linux-payload/$arch" >>"$out/payload.log" 2>&1; then
	lx_boot_list "$out" "${specs[@]}"
	for s in "${specs[@]}"; do
		n=${s%%|*}
		lc_judge "linux constant $arch HZ=${n#hz}" "$out/$n" "$arch" kunit=hz checks
	done
else
	report "linux constant $arch: payload" "$(tail -1 "$out/payload.log")"
fi

# text FILE: the size of .text (size -A), 0 when there is none.
text() { size -A "$1" 2>/dev/null | awk '$1 == ".text" { print $2; f = 1 } END { if (!f) print 0 }'; }

for n in 250 1000; do
	c=$(kernel nodyn "$n") s=$(kernel stock "$n")
	[ -n "$c" ] && [ -n "$s" ] || continue
	c=${c%/arch/*} s=${s%/arch/*}
	same=0 differ=() missing=()
	for o in "$s"/kernel/time/*.o; do
		b=$(basename "$o")
		case $b in built-in.a | *.mod.o) continue ;; esac
		if [ ! -f "$c/kernel/time/$b" ]; then
			missing+=("$b")
		elif cmp -s <(objcopy -O binary -j .text "$o" /dev/stdout) \
			<(objcopy -O binary -j .text "$c/kernel/time/$b" /dev/stdout); then
			same=$((same + 1))
		else
			differ+=("$b")
		fi
	done
	if [ ${#differ[@]} -eq 0 ] && [ ${#missing[@]} -eq 0 ] && [ "$same" -gt 0 ]; then
		report "linux constant $arch HZ=$n: kernel/time/*.o .text as stock's"
		echo "  $same objects, .text identical: $(for o in "$s"/kernel/time/*.o; do text "$o"; done | awk '{ t += $1 } END { print t }') bytes each side"
	else
		report "linux constant $arch HZ=$n: kernel/time/*.o .text as stock's" \
			"$same identical; different: ${differ[*]:-none}; not built: ${missing[*]:-none}"
	fi
	# The code's size, not .text's (see lx_code_size).
	ts=$(lx_code_size "$s/vmlinux") tc=$(lx_code_size "$c/vmlinux")
	tk=$(lx_code_size "$c/kernel/time/hz_kunit.o")
	line=$(awk -v s="$ts" -v c="$tc" -v k="$tk" -v p="$(text "$s/vmlinux")" -v q="$(text "$c/vmlinux")" 'BEGIN {
		printf "functions (nm -S): stock %d, constant %d (%+.4f %%), less the KUnit suite'\''s %d: %d (%+.4f %%); .text %d and %d",
			s, c, (c - s) * 100 / s, k, c - k, (c - k - s) * 100 / s, p, q }')
	if awk -v s="$ts" -v c="$tc" -v k="$tk" 'BEGIN { d = (c - k - s) / s; exit !(s > 0 && d <= 0.001 && d >= -0.001) }'; then
		report "linux constant $arch HZ=$n: vmlinux code within 0.1 %"
		echo "  $line"
	else
		report "linux constant $arch HZ=$n: vmlinux code within 0.1 %" "$line"
	fi
	echo "$arch HZ=$n: $same of kernel/time/*.o identical; $line" >>"$out/summary.txt"
done
