#!/bin/bash
# boot-hz.sh ARCH IMAGE "EXTRA CMDLINE" [LOG]
# Boots a Linux image of the series under QEMU with a BusyBox initramfs
# whose init runs hzcheck (scripts/linux/guest/), and prints the lines that
# judge the boot: the hz line, KUnit's results, hzcheck's, the warnings.
# Exit status 0 only if the guest reached the end, KUnit and hzcheck passed
# and the log holds no warning.
set -u
cd "$(dirname "$0")/../.." || exit 1
arch=$1 image=$2 extra=${3:-} log=${4:-build/linux/boot-$arch.log}
top=$PWD
work=build/linux/initramfs-$arch
case $arch in
x86_64)
	cc=gcc deb=amd64 console=ttyS0
	qemu=(qemu-system-x86_64 -M pc -m 512 -smp 2 -nographic -no-reboot) ;;
arm64)
	cc=aarch64-linux-gnu-gcc deb=arm64 console=ttyAMA0
	command -v $cc >/dev/null || cc=aarch64-linux-gnu-gcc-12
	qemu=(qemu-system-aarch64 -M virt -cpu cortex-a57 -m 512 -smp 2 -nographic -no-reboot) ;;
*) echo "boot-hz: unknown arch $arch" >&2; exit 2 ;;
esac
mkdir -p "$work/root/bin" "$(dirname "$log")"
if [ ! -f "$work.cpio.gz" ] || [ scripts/linux/guest/hzcheck.c -nt "$work.cpio.gz" ] ||
	[ scripts/linux/guest/init -nt "$work.cpio.gz" ]; then
	bb=$(bash scripts/fetch-deb.sh busybox-static:$deb) || exit 2
	cp "$bb/bin/busybox" "$work/root/bin/busybox"
	ln -sf busybox "$work/root/bin/sh"
	cp scripts/linux/guest/init "$work/root/init"
	$cc -O2 -Wall -static -o "$work/root/hzcheck" scripts/linux/guest/hzcheck.c || exit 2
	(cd "$work/root" && find . | cpio -o -H newc --quiet | gzip -9) > "$work.cpio.gz"
fi
# rcu_cpu_stall_timeout: emulated, the stock time64_to_tm KUnit test
# loops for tens of seconds without scheduling (at any HZ).
# Guest time from the instruction count (as dynhz's own boot tests): a busy
# host then slows the guest down but cannot make its CPU-time figures lag
# its clocks. BOOT_ICOUNT=0 boots as the issue's plain command line does.
[ "${BOOT_ICOUNT:-1}" = 1 ] && qemu+=(-icount shift=auto,sleep=off)
timeout ${BOOT_TIMEOUT:-240} "${qemu[@]}" -kernel "$image" -initrd "$work.cpio.gz" \
	-append "console=$console panic=-1 kunit.enable=1 rcupdate.rcu_cpu_stall_timeout=300 $extra" > "$log" 2>&1 </dev/null
tr -d '\r' < "$log" > "$log.txt" && mv "$log.txt" "$log"
grep -E "dynhz|hz=|HZ|# hz|ok [0-9]+ - |^ *# .*: pass:|hzcheck: .*(FAIL|passed)|guest: |WARNING:|BUG:" "$log" |
	grep -v "^ *ok [0-9]* - [a-z_0-9]*$" | head -60
ok=1
grep -q "guest: done" "$log" || { echo "boot-hz: guest did not finish"; ok=0; }
grep -q "not ok" "$log" && { echo "boot-hz: a KUnit test failed"; ok=0; }
grep -q "hzcheck: .* 0 failed" "$log" || grep -q "hzcheck=0" <<<"$extra" ||
	{ echo "boot-hz: hzcheck failed"; ok=0; }
grep -q -E "WARNING:|BUG:|Call Trace:" "$log" && { echo "boot-hz: warnings in the log"; ok=0; }
[ $ok = 1 ] && echo "boot-hz: $arch $extra: ok" || echo "boot-hz: $arch $extra: FAIL (log $log)"
[ $ok = 1 ]
