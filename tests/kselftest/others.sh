#!/bin/bash
# The other programs of tools/testing/selftests/timers, each tried once on
# dynhz (not part of `make check`: most need what the kernel does not have,
# and docs/USERSPACE.md's "Linux's timer selftests" table records what happened).
#
#	tests/kselftest/others.sh [-z HZ] [name-regex]
#
# Each boots alone with BusyBox sh as init, from /kselftest (four of them
# run ./raw_skew, ./inconsistency-check or ./nanosleep through system()):
#   init=/bin/busybox -- sh -c "cd /kselftest && ./PROG ARGS; echo @exit $?"
# two QEMUs at a time, under a timeout of OTHERS_TIMEOUT seconds (600;
# skew_consistency runs ./inconsistency-check -t 600 and has no option:
# 1800 s for it). Prints one line per program: the exit status the shell
# saw (or QEMU's when the shell never said), then the program's last lines.
# The arguments shorten the long ones: leap-a-day -i 1 (one leap second,
# not 10), threadtest -t 5 -n 2, clocksource-switch -t 10.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
source tests/kselftest/lib.sh
export LC_ALL=C
DZ_RESULTS=/dev/null

hz=250
if [ "$1" = -z ]; then
	hz=$2
	shift 2
fi
qemu_suite kselftest-others "$1"
rm -f "$out"/*.rc
ks_build "$out" || exit 1
make --no-print-directory kernel >"$out/kernel.log" 2>&1 || {
	echo "others: the kernel does not build (see $out/kernel.log)" >&2
	exit 1
}
kernel=$(make --no-print-directory print-kernel)

progs=("adjtick" "alarmtimer-suspend" "change_skew" "clocksource-switch -t 10" "freq-step"
	"leap-a-day -i 1" "leapcrash" "mqueue-lat" "rtcpie" "set-2038" "set-tai" "set-tz"
	"skew_consistency" "threadtest -t 5 -n 2" "valid-adjtimex")
running=0
for entry in "${progs[@]}"; do
	read -r prog args <<<"$entry"
	[[ $prog =~ $filter ]] || continue
	if [ -z "${ks_built[$prog]}" ]; then
		echo "does not build: $(tail -1 "build/kselftest/bin/$prog.log")" >"$out/$prog.rc"
		continue
	fi
	limit=${OTHERS_TIMEOUT:-600}
	[ "$prog" = skew_consistency ] && limit=$((limit * 3))
	(
		QEMU_ARGS="-initrd $out/initramfs.cpio -m 64" qemu_boot "$limit" "$kernel" \
			"hz=$hz init=/bin/busybox -- sh -c \"cd /kselftest && ./$prog $args; echo @exit \$?\"" \
			"$out/$prog.log"
		echo "qemu $?" >"$out/$prog.rc"
	) &
	throttle
done
wait

for entry in "${progs[@]}"; do
	read -r prog args <<<"$entry"
	[[ $prog =~ $filter ]] || continue
	rc=$(cat "$out/$prog.rc" 2>/dev/null)
	status=$(sed -n 's/^@exit //p' "$out/$prog.log" 2>/dev/null)
	[ -n "$status" ] && rc="exit status $status"
	printf '%-20s %s\n' "$prog" "$rc"
	[ -f "$out/$prog.log" ] || continue
	# The program's own lines: after the shell's exec, before "@exit".
	sed -n '/^exec: pid 1 (\/bin\/busybox)/,/^@exit /p' "$out/$prog.log" |
		grep -av '^exec: \|^@exit ' | tail -"${OTHERS_LINES:-6}" | cut -c1-150 | sed 's/^/    /'
done
