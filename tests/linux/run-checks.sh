#!/bin/sh
# shellcheck shell=dash
# run-checks: the user-space checks of the Linux port, inside its guest
# (issue 29, item 6). BusyBox sh; installed as /sbin/run-checks by
# tests/linux/payload.sh.
#
# THE CONTRACT (docs/LINUX.md, "User-space checks"):
#
# Payload. tests/linux/payload.sh ARCH makes build/linux-payload/ARCH/,
# a tree laid out as the initramfs's root, to be given to
# scripts/linux/initramfs.sh as an EXTRA_DIR:
#     sbin/run-checks            this script
#     sbin/hzcheck               tests/linux/hzcheck.c, static
#     sbin/timerload             tests/linux/timerload.c, static
#     kselftest/timers/PROG      tools/testing/selftests/timers, static
#
# Start. Either /init runs `/sbin/run-checks` when the kernel command line
# has a check= word (it mounts what is missing and returns; /init then
# powers off), or the harness boots with rdinit=/sbin/run-checks and this
# script is pid 1: it mounts /proc, /sys, /dev (devtmpfs), /dev/pts and
# powers the machine off itself when done.
#
# Command line words read:
#     check=ITEM[,ITEM...]   what to run, in order. ITEM is
#                              hzcheck             /sbin/hzcheck --hz N
#                              kernelhz            /proc/sys/kernel/hz equal to
#                                                  the HZ expected (skipped
#                                                  when the kernel has no
#                                                  such file: stock Linux, or
#                                                  the series with a constant
#                                                  HZ): the quick boots
#                              timerload           /sbin/timerload: the cost
#                                                  benchmark's workload
#                                                  (bench/linux), its lines
#                              kselftest:PROG      a selftest (its arguments
#                                                  and time limit from the
#                                                  table below)
#                              kselftest:check     the ones for make check
#                              kselftest:long      the ones for make check-long
#                              kselftest:all       both
#                            a bare PROG after a kselftest: item is a
#                            selftest too: check=hzcheck,kselftest:nanosleep,posix_timers
#     hz=N (or HZ=N)         the HZ hzcheck expects (the last one wins, as
#                            the kernel's own parameter); stock Linux ignores
#                            hz=, so the harness passes its CONFIG_HZ the same way
#     checkhz=N              overrides hz= for hzcheck (a stock kernel booted
#                            without hz=)
#     checkscale=K           multiply every time limit by K (a slow host)
#
# Output (the console): each program's own lines as they come, framed by
#     linuxcheck: run NAME CMDLINE
#     linuxcheck: result NAME pass|fail|skip SECONDS s[: why]
# (SECONDS of the guest's uptime), then
#     linuxcheck: summary N passed, M failed, K skipped
#     linuxcheck: done
# The last line is the harness's proof that the run finished: a boot
# without it crashed, hung or was cut by the harness's timeout.
#
# A selftest passes when it exited 0 and printed no failure: no TAP
# "not ok" or "Bail out!", no "[FAILED]" or "[FAIL]" (posix_timers prints
# [FAIL] and still exits 0), no "Planned tests != run tests"; exit status
# 4 (KSFT_SKIP) is a skip; its time limit (guest seconds, timeout -s KILL)
# passed is a failure. hzcheck passes when it exited 0 with its
# "hzcheck: N ok, 0 failed" line; each check it skipped ("hzcheck: skip
# NAME why") is a result of its own, "hzcheck:NAME skip", so that every
# skip is counted.

PATH=/sbin:/bin:/usr/sbin:/usr/bin
export PATH
bb=/bin/busybox
# For a try on a host: LINUXCHECK_ROOT is where sbin/ and kselftest/ are
# (a payload directory), LINUXCHECK_CMDLINE stands for /proc/cmdline.
root=${LINUXCHECK_ROOT:-}
ks=$root/kselftest/timers
hzcheck=$root/sbin/hzcheck
[ -x $bb ] || bb=busybox

say() { echo "linuxcheck: $*"; }

if [ "$$" = 1 ]; then
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev
fi
[ -e /proc/self ] || mount -t proc proc /proc
[ -d /sys/kernel ] || mount -t sysfs sysfs /sys 2>/dev/null
# Ptys for hzcheck's VTIME check (/dev/ptmx needs devpts on /dev/pts).
if ! grep -q ' /dev/pts ' /proc/mounts; then
	mkdir -p /dev/pts
	mount -t devpts devpts /dev/pts 2>/dev/null
fi
mkdir -p /tmp
# The loopback interface, down after boot: hzcheck's UDP and TCP checks.
$bb ip link set lo up 2>/dev/null || $bb ifconfig lo 127.0.0.1 up 2>/dev/null

# The clocksource the checks are to see: on x86_64 Linux starts on
# tsc-early and switches to tsc after the refined calibration, a few
# seconds after boot (3.9 s under -icount), which would land in the middle
# of the checks (the coarse clock's step at the switch is no whole tick).
# Wait for it, 10 s of guest time at most, in a guest only.
cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
if [ -z "$root" ] && [ "$(cat $cs 2>/dev/null)" = tsc-early ]; then
	i=0
	while [ "$(cat $cs 2>/dev/null)" = tsc-early ] && [ $i -lt 100 ]; do
		$bb sleep 0.1
		i=$((i + 1))
	done
	say "clocksource $(cat $cs 2>/dev/null) after $i waits of 0.1 s"
fi

# The table: name, time limit in guest seconds, arguments. Limits are
# about three times what the program takes under QEMU (idle time costs no
# wall time under -icount sleep=off, and is real time without it).
#   check: fast enough for every boot of make check (raw_skew's 120 s
#          are asleep: it guards the wall clock's rate at every HZ booted)
#   long:  make check-long (minutes of guest time each)
ks_table() {
	cat <<'EOF'
check posix_timers 90
check nanosleep 120
check nsleep-lat 360
check set-timer-lat 300
check inconsistency-check 150 -t 2
check mqueue-lat 60
check valid-adjtimex 120
check set-tai 60
check set-tz 60
check leap-a-day 180 -i 1
check threadtest 90 -t 5 -n 2
check adjtick 400
check rtcpie 120
check raw_skew 400
long freq-step 900
long change_skew 2400
long skew_consistency 1800
long clocksource-switch 1200 -t 10
long set-2038 900
long leapcrash 300
EOF
}

words=${LINUXCHECK_CMDLINE:-$(cat /proc/cmdline)}
check='' hz='' checkhz='' scale=1
for w in $words; do
	case $w in
	check=*) check=${w#check=} ;;
	hz=* | HZ=*) hz=${w#*=} ;;
	checkhz=*) checkhz=${w#checkhz=} ;;
	checkscale=*) scale=${w#checkscale=} ;;
	esac
done
[ -n "$checkhz" ] && hz=$checkhz

say "start check=$check hz=${hz:-?} kernel $(uname -r) $(uname -m), $(grep -c '^processor' /proc/cpuinfo) CPUs"
passed=0 failed=0 skipped=0

uptime_s() { cut -d' ' -f1 /proc/uptime; }
secs() { echo "$1 $2" | awk '{ printf "%.1f", $2 - $1 }'; }

result() { # NAME pass|fail|skip SECONDS [WHY]
	case $2 in
	pass) passed=$((passed + 1)) ;;
	fail) failed=$((failed + 1)) ;;
	skip) skipped=$((skipped + 1)) ;;
	esac
	say "result $1 $2 $3 s${4:+: $4}"
}

run_hzcheck() {
	local t0 rc last
	if [ ! -x "$hzcheck" ]; then
		result hzcheck fail 0 "no $hzcheck in the initramfs"
		return
	fi
	if [ -z "$hz" ]; then
		[ -r /proc/sys/kernel/hz ] && hz=$(cat /proc/sys/kernel/hz)
	fi
	if [ -z "$hz" ]; then
		result hzcheck fail 0 "no hz= or checkhz= on the command line, no /proc/sys/kernel/hz"
		return
	fi
	say "run hzcheck $hzcheck --hz $hz"
	t0=$(uptime_s)
	{
		"$hzcheck" --hz "$hz"
		echo $? >/tmp/hzcheck.rc
	} 2>&1 | $bb tee /tmp/hzcheck.log
	rc=$(cat /tmp/hzcheck.rc 2>/dev/null)
	last=$(grep '^hzcheck: [0-9]* ok, [0-9]* failed' /tmp/hzcheck.log | tail -1)
	if [ "$rc" = 0 ] && [ -n "$last" ] && echo "$last" | grep -q ' 0 failed'; then
		result hzcheck pass "$(secs "$t0" "$(uptime_s)")" "${last#hzcheck: }"
	else
		result hzcheck fail "$(secs "$t0" "$(uptime_s)")" \
			"exit status ${rc:-none}; ${last:-no summary line}; $(grep -c '^hzcheck: FAIL' /tmp/hzcheck.log) FAIL lines"
	fi
	# Each check hzcheck skipped (the kernel has no such thing) is a skip
	# of its own, counted in the summary and by the host (lc_results):
	# "hzcheck:NAME". The loop reads a file, not a pipe, so that result's
	# counts stay in this shell.
	grep '^hzcheck: skip ' /tmp/hzcheck.log >/tmp/hzcheck.skips
	while read -r _ _ name why; do
		result "hzcheck:$name" skip 0 "$why"
	done </tmp/hzcheck.skips
}

run_kernelhz() {
	local got
	if [ ! -r /proc/sys/kernel/hz ]; then
		result kernelhz skip 0 "no /proc/sys/kernel/hz (stock Linux or a constant HZ)"
		return
	fi
	got=$(cat /proc/sys/kernel/hz)
	case $hz in
	'' | *[!0-9]*) result kernelhz fail 0 "kernel.hz is $got; no number to expect (hz=${hz}; checkhz=N)" ;;
	*)
		if [ "$got" = "$hz" ]; then
			result kernelhz pass 0 "kernel.hz $got"
		else
			result kernelhz fail 0 "kernel.hz is $got, expected $hz"
		fi
		;;
	esac
}

run_timerload() {
	local t0 rc
	t0=$(uptime_s)
	"$root/sbin/timerload" 2000
	rc=$?
	if [ "$rc" = 0 ]; then
		result timerload pass "$(secs "$t0" "$(uptime_s)")"
	else
		result timerload fail "$(secs "$t0" "$(uptime_s)")" "exit status $rc"
	fi
}

run_kselftest() { # PROG
	local prog=$1 line limit args t0 t1 rc el bad
	line=$(ks_table | awk -v p="$prog" '$2 == p')
	if [ -z "$line" ]; then
		result "kselftest:$prog" fail 0 "not in run-checks' table"
		return
	fi
	limit=$(echo "$line" | awk -v k="$scale" '{ printf "%d", $3 * k }')
	args=$(echo "$line" | cut -d' ' -f4-)
	if [ ! -x "$ks/$prog" ]; then
		result "kselftest:$prog" fail 0 "no $ks/$prog in the initramfs"
		return
	fi
	# On a host (LINUXCHECK_ROOT) never the ones that set the clock, the
	# time zone (the first settimeofday with a zone after boot warps the
	# realtime clock by it: set-tz moves it 15 hours), the TAI offset,
	# leap seconds or the clocksource: they are for a throwaway guest.
	if [ -n "$root" ]; then
		case $prog in
		posix_timers | nanosleep | nsleep-lat | set-timer-lat | inconsistency-check | mqueue-lat | threadtest | raw_skew | rtcpie) ;;
		*)
			result "kselftest:$prog" skip 0 "changes the clock: only in a guest, not with LINUXCHECK_ROOT"
			return
			;;
		esac
	fi
	say "run kselftest:$prog ./$prog $args (limit $limit s)"
	t0=$(uptime_s)
	# Some run ./raw_skew, ./inconsistency-check or ./nanosleep through
	# system(): their directory is the working one.
	# shellcheck disable=SC2086 # the arguments are words
	{
		cd "$ks" && timeout -s KILL "$limit" "./$prog" $args
		echo $? >/tmp/ks.rc
	} 2>&1 | $bb tee /tmp/ks.log
	t1=$(uptime_s)
	rc=$(cat /tmp/ks.rc 2>/dev/null)
	el=$(secs "$t0" "$t1")
	bad=$(grep -m1 -e '^not ok ' -e '^Bail out!' -e '\[FAILED\]' -e '\[FAIL\]' \
		-e 'Planned tests != run tests' /tmp/ks.log | cut -c1-120)
	if [ "$rc" = 137 ] || [ "$rc" = 124 ] || [ "$rc" = 143 ]; then
		if awk -v e="$el" -v l="$limit" 'BEGIN { exit !(e >= l - 1) }'; then
			result "kselftest:$prog" fail "$el" "timed out after $limit s"
			return
		fi
	fi
	if [ "$rc" = 4 ]; then
		result "kselftest:$prog" skip "$el" "exit status 4 (KSFT_SKIP): $(grep -v '^#* *$' /tmp/ks.log | tail -1 | cut -c1-100)"
	elif [ "$rc" != 0 ]; then
		result "kselftest:$prog" fail "$el" "exit status ${rc:-none}${bad:+; $bad}"
	elif [ -n "$bad" ]; then
		result "kselftest:$prog" fail "$el" "$bad"
	else
		result "kselftest:$prog" pass "$el"
	fi
}

mode=
for item in $(echo "$check" | tr ',' ' '); do
	case $item in
	hzcheck) mode= && run_hzcheck ;;
	kernelhz) mode= && run_kernelhz ;;
	timerload) mode= && run_timerload ;;
	kselftest:*)
		mode=kselftest
		name=${item#kselftest:}
		case $name in
		check | long) for p in $(ks_table | awk -v s="$name" '$1 == s { print $2 }'); do run_kselftest "$p"; done ;;
		all) for p in $(ks_table | awk '{ print $2 }'); do run_kselftest "$p"; done ;;
		*) run_kselftest "$name" ;;
		esac
		;;
	*)
		if [ "$mode" = kselftest ]; then
			run_kselftest "$item"
		else
			result "$item" fail 0 "unknown check (hzcheck, kernelhz, timerload, kselftest:PROG)"
		fi
		;;
	esac
done
[ -n "$check" ] || say "no check= on the command line: nothing to run"
say "summary $passed passed, $failed failed, $skipped skipped"
say "done"
if [ "$$" = 1 ]; then
	sync
	poweroff -f
fi
