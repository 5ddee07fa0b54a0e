#!/bin/bash
# QEMU checks of HZ changed at runtime (issue 14; run by `make check`).
#
# The kernel's retunetest boot mode (kernel/test/retunetest.c) changes HZ
# 1000 -> 100 -> 333 -> 10000 -> 24 through the shell's `hz N`, under
# threads sleeping in schedule_timeout(), msleep() and wait_event_timeout()
# (each sleep bounded on the TSC) and /sbin/hzwatch (user/hzwatch.c:
# times(), CLOCK_MONOTONIC, /proc/uptime and /proc/stat every 100 ms, bad
# and good values through /proc/sys/kernel/hz and dynhz_hz()); at each
# rate it counts the tick device's interrupts and jiffies per second of
# TSC time. Here we read its lines and the core's: one "hz: A -> B at
# jiffies J, N timers re-expressed" per change, in order, and the hz=
# messages of the bad values. The constant build must refuse in one line,
# by every door (hzwatch constant: EPERM from /proc and from the call).
#
#	tests/retune/check.sh [name-regex]
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

qemu_suite retune "$1"
JOBS=${JOBS:-$(nproc)}

if ! make --no-print-directory initramfs >"$out/initramfs.log" 2>&1; then
	record fail "retune: make initramfs (hzwatch with musl)"
	tail -20 "$out/initramfs.log" >&2
	exit 0
fi
export QEMU_ARGS="-initrd build/x86/initramfs.cpio -m 64"
build_kernels retune "$out"

# BusyBox's sh, ls and cat on /proc/sys/kernel/hz, as on Linux: the file
# (mode 0644, size 0), HZ read, written, refused with EINVAL ("write
# error: Invalid argument", status 1), read again from its directory.
BB_SCRIPT='ls -l /proc/sys/kernel; ls /proc/sys; cat /proc/sys/kernel/hz; echo 100 > /proc/sys/kernel/hz; echo rc=$?; cat /proc/sys/kernel/hz; cd /proc/sys/kernel && pwd; echo abc > hz; echo rc=$?; echo 20000 > hz; echo rc=$?; cat hz'
BB_WANT='-rw-r--r-- 1 root root 0 hz,kernel,1000,rc=0,100,/proc/sys/kernel,rc=1,rc=1,100'

# name|cmdline|build
cases=(
	"pit-periodic|hz=1000 nohz=off highres=off retunetest|variable"
	"lapic-periodic|hz=1000 clockevent=lapic nohz=off highres=off retunetest|variable"
	"pit-periodic-200ms|hz=1000 nohz=off highres=off retunetest=200|variable"
	"lapic-nohz-highres-200ms|hz=1000 clockevent=lapic retunetest=200|variable"
	"pit-nohz-highres|hz=1000 retunetest|variable"
	"pit-nohz-tickres|hz=1000 highres=off retunetest|variable"
	"lapic-nohz-highres|hz=1000 clockevent=lapic retunetest|variable"
	"lapic-nohz-tickres|hz=1000 clockevent=lapic highres=off retunetest|variable"
	"debug-pit-periodic|hz=1000 nohz=off highres=off retunetest|debug"
	"constant|hz=1000 retunetest|constant"
	"busybox-proc|hz=1000 init=/bin/busybox -- sh -c \"$BB_SCRIPT\"|variable"
)

# The changes the log must show, in order: the kernel's own, then hzwatch's.
CHANGES=("1000 -> 100" "100 -> 333" "333 -> 10000" "10000 -> 24" "24 -> 250" "250 -> 1000")

run_case() {
	local name=$1 cmdline=$2 kernel=${elf[$3]} build=$3
	local log=$out/$name.log why=() t0=$SECONDS
	if [ -z "$kernel" ]; then
		echo "fail no kernel" >"$out/$name.res"
		return
	fi
	qemu_boot 150 "$kernel" "$cmdline" "$log"
	local rc=$?
	[ "$rc" -eq 33 ] || why+=("exit status $rc, not 33")
	if [ "$name" = busybox-proc ]; then
		local got
		got=$(sed -n '/^exec: pid 1/,/^init: exited/p' "$log" |
			grep -E '^(-rw|kernel$|[0-9]+$|rc=|/proc/sys/kernel$)' |
			sed -E 's/^(-\S+)\s+1\s+root\s+root\s+0\s.* hz$/\1 1 root root 0 hz/' | paste -sd,)
		[ "$got" = "$BB_WANT" ] || why+=("busybox saw '$got', not '$BB_WANT'")
		grep -q '^hz=abc: not a number, HZ stays 100$' "$log" || why+=("no message for abc")
	elif [ "$build" = constant ]; then
		grep -q '^retunetest: constant build: ok$' "$log" || why+=("no 'constant build: ok'")
		grep -q '^hz: constant build, HZ is 250$' "$log" ||
			why+=("no 'hz: constant build, HZ is 250'")
		grep -q '^hzwatch: ok$' "$log" || why+=("no 'hzwatch: ok' (the refusals from user space)")
	else
		grep -q '^retunetest: ok$' "$log" || why+=("no 'retunetest: ok'")
		grep -q '^hzwatch: ok$' "$log" || why+=("no 'hzwatch: ok'")
		local got want
		got=$(sed -n 's/^hz: \([0-9]* -> [0-9]*\) at jiffies [0-9]*, [0-9]* timers re-expressed$/\1/p' "$log" |
			paste -sd,)
		want=$(IFS=,; echo "${CHANGES[*]}")
		[ "$got" = "$want" ] || why+=("changes logged: '$got', not '$want'")
		# each change prints the time: line again: one at boot and one per change
		local n
		n=$(grep -c '^time: hz=' "$log")
		[ "$n" -eq $((${#CHANGES[@]} + 1)) ] || why+=("$n time: lines, not $((${#CHANGES[@]} + 1))")
		grep -q '^hz=abc: not a number' "$log" || why+=("no message for 'hz abc'")
		grep -q '^hz=5: out of range 19..10000' "$log" || why+=("no message for 'hz 5'")
	fi
	grep -q 'FAIL' "$log" && why+=("$(grep -m1 'FAIL' "$log")")
	if [ ${#why[@]} -eq 0 ]; then
		echo "pass ($((SECONDS - t0)) s)" >"$out/$name.res"
	else
		local IFS=';'
		echo "fail ${why[*]}" >"$out/$name.res"
	fi
}

start=$SECONDS
running=0
for c in "${cases[@]}"; do
	IFS='|' read -r name cmdline build <<<"$c"
	[[ $name =~ $filter ]] || continue
	run_case "$name" "$cmdline" "$build" &
	throttle
done
wait
for c in "${cases[@]}"; do
	IFS='|' read -r name _ <<<"$c"
	[[ $name =~ $filter ]] || continue
	boot_result retune "$name" 25
done
echo "retune: took $((SECONDS - start)) s of wall time with $JOBS parallel boots"
