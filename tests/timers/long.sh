#!/bin/bash
# make check-long, timers and timekeeping: the long settings of their unit
# suites (DYNHZ_LONG=1: 10M timer operations per HZ, every HZ from ticks
# as well) in the 32-bit build, where jiffies is the kernel's 32 bits, and
# in the 32-bit debug build. (The 64-bit build's long run is in the
# generic unit loop of scripts/check-long.sh.)
cd "$(dirname "$0")/../.."
source scripts/lib.sh
export DYNHZ_LONG=1
MAKE="make --no-print-directory"
for v in "M32=1" "M32=1 DEBUG=1"; do
	# shellcheck disable=SC2086
	dir=$($MAKE $v print-builddir)
	# shellcheck disable=SC2086
	runner=$($MAKE $v print-runner)
	# shellcheck disable=SC2086
	if ! $MAKE $v unit-bins >/dev/null 2>&1; then
		record fail "build [$v]"
		continue
	fi
	for t in test_timer test_timekeeping; do
		run_cmocka "$t [long $v]" "$dir/logs/$t-long.log" $runner "$dir/tests/$t"
	done
done
