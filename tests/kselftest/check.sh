#!/bin/bash
# Linux's own timer selftests on the reference kernel (run by `make check`):
# issue 12, item 4, and NTP's (issue 23, item 3).
#
# tools/testing/selftests/timers from Debian's linux-source-6.1, fetched
# and built at test time (tests/kselftest/fetch.sh and lib.sh; nothing of it
# is committed), each program static for i386 with glibc, in the initramfs
# under /kselftest/, booted as init (init=/kselftest/PROG -- ARGS) under
# -icount at HZ 24, 100, 250, 1000 and 10000 (the NTP programs at HZ 97
# and 4321: a tick that is no whole number of ms, and a short one), two
# QEMUs at a time (JOBS),
# each under a timeout of KSELFTEST_TIMEOUT seconds of wall time (150; the
# longest, posix_timers, needs about 10 s of busy guest time, and a program
# that waits for a signal that never comes, as posix_timers does on a CPU
# timer that does not fire, must not hold the suite for long). One result
# per program and HZ, from what the program printed, not only its exit
# status (posix_timers prints [FAIL] and still exits 0):
#
#   posix_timers         five lines "Check ...  [OK]": ITIMER_VIRTUAL,
#                        ITIMER_PROF, ITIMER_REAL, timer_create() on the
#                        thread's and the process's CPU clock, each 2 s
#                        +-0.5 s of wall time
#   nanosleep            TAP: no "not ok", the plan complete, and "ok" (not
#                        "# SKIP") for CLOCK_REALTIME, MONOTONIC, BOOTTIME and
#                        TAI, the clocks Linux sleeps on (it skips the CPU,
#                        raw, coarse and alarm clocks as Linux does)
#   nsleep-lat           "[OK]" for REALTIME, MONOTONIC, BOOTTIME and TAI
#                        (mean latency under 40 ms), no "[FAILED]"
#   set-timer-lat        "[OK]" on each of the 10 lines of REALTIME,
#                        MONOTONIC, BOOTTIME and TAI (never early, latency
#                        under 40 ms, one expiry for a one-shot; absolute and
#                        relative, periodic and one-shot), nothing failed (the
#                        alarm clocks may be [UNSUPPORTED], as on Linux
#                        without an RTC wakeup)
#   inconsistency-check  TAP: no "not ok", and "ok" (not skipped) for every
#                        clock Linux reads: 0-7 and CLOCK_TAI; run with
#                        "-t 2" (2 s a clock: up to 1 s less, since it stops
#                        when the clock's seconds have grown by 2) instead of
#                        its default 10 s, which is 5x the emulated CPU time
#   raw_skew             "[OK]" (CLOCK_MONOTONIC against CLOCK_MONOTONIC_RAW
#                        over its fixed sleep(120), and adjtimex's frequency);
#                        it has no option, but the 120 s are idle and cost
#                        nearly nothing under -icount sleep=off
#   adjtick              "[OK]" for each of its 8 ticks (9000 to 10750 us:
#                        CLOCK_MONOTONIC against CLOCK_MONOTONIC_RAW over
#                        15 s, within 100 ppm of the tick's rate), no
#                        "[FAILED]" or "[ERROR]"; its 8 x 16 s are idle
#   valid-adjtimex       "Testing ADJ_FREQ... [OK]" and "Testing
#                        ADJ_SETOFFSET... [OK]", and no "Warning:" (a
#                        frequency read back other than set: Linux reads
#                        every one it sets back as it was)
#
# and, only with KSELFTEST_LONG=1 (tests/kselftest/long.sh, `make
# check-long`) or when a filter is given, since each takes 9 to 16
# minutes of wall time on 2 busy cores (most of it busy guest time of
# inconsistency-check),
# booted under BusyBox sh in /kselftest (they run ./raw_skew and the like
# through system()), the program's exit status read from the shell:
#
#   change_skew          exit 0; at 0, 250, 500, -250 and -500 ppm,
#                        raw_skew "[OK]" (5 times), inconsistency-check
#                        (10 s a clock) and nanosleep without a "not ok",
#                        every "# Totals:" without a failure
#   skew_consistency     exit 0; "ok 1 CLOCK_MONOTONIC" from
#                        inconsistency-check -c 1 -t 600 while the frequency
#                        swings between +-500 ppm every 0.5 s, and "[OK]"
#
# and every boot must end "init: exited with status 0" (QEMU status 33).
# What each program needs from the kernel, and what fails today, is in
# tests/kselftest/NEEDS.md; tests/kselftest/trace.sh lists the system calls
# a program makes on dynhz.
#
# THE SWITCH. Until the kernel's time system calls move onto hrtimers
# (timer_create and friends, clock_adjtime, pselect6, the TAI clock,
# ITIMER_VIRTUAL/PROF), these programs fail, and `make check` must not go
# red for that on main. So the suite runs only when
#   KSELFTEST=1                 always (its failures are recorded), or
#   KSELFTEST unset or empty    and the time work is detected: every system
#                               call the six need is in the kernel's table
#                               (kernel/*/syscalls.h: 259
#                               timer_create, 260 or 409 timer_settime, 263
#                               timer_delete, 308 pselect6, 343 or 405
#                               clock_adjtime);
# otherwise (KSELFTEST=0, or unset with the calls missing) it prints one
# line saying why and records nothing. The lead removes the switch when the
# time work lands.
#
# Wall time on 2 cores: about 3 s of download and 11 s of xz the first time
# (cached in build/debs and build/kselftest after), about 10 s to build the
# programs, then the 34 boots (see the figure the last line prints).
#
#	tests/kselftest/check.sh [name-regex]   (matched against "PROG hzN")
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
source tests/kselftest/lib.sh
export LC_ALL=C

# The system calls whose absence means the time work has not landed: each
# word is one call, "a|b" when either number will do (glibc tries the
# time64 call first and falls back on ENOSYS).
probe_calls="259 260|409 263 308 343|405"
missing=()
for want in $probe_calls; do
	found=0
	for nr in ${want//|/ }; do
		grep -q "^SYSCALL($nr," kernel/syscalls.h kernel/*/syscalls.h && found=1
	done
	[ $found = 1 ] || missing+=("$want")
done
case "${KSELFTEST:-}" in
1) ;;
0)
	echo "kselftest: skipped (KSELFTEST=0)"
	exit 0
	;;
"")
	if [ ${#missing[@]} -gt 0 ]; then
		echo "kselftest: skipped: the kernel's time system calls have not landed" \
			"(no ${missing[*]} in kernel/*/syscalls.h); KSELFTEST=1 runs it anyway"
		exit 0
	fi
	;;
*)
	echo "kselftest: KSELFTEST=$KSELFTEST: not 0 or 1, skipped" >&2
	exit 0
	;;
esac

start=$SECONDS
qemu_suite kselftest "$1"
rm -f "$out"/*.rc "$out"/*.time
if ! ks_build "$out"; then
	record fail "kselftest: fetch and build the selftests"
	exit 0
fi
built=$((SECONDS - start))
if ! make --no-print-directory kernel >"$out/kernel.log" 2>&1; then
	record fail "kselftest: build the kernel"
	tail -20 "$out/kernel.log" >&2
	exit 0
fi
kernel=$(make --no-print-directory print-kernel)

# What runs, longest first (two QEMUs at a time), one entry a program:
# "PROG;HZ...;HOW;LIMIT;ARGS". HOW "sh": booted under BusyBox sh, in
# /kselftest, for the programs that run ./raw_skew and the like through
# system() (the shell's "@exit N" says how the program ended); LIMIT: the
# wall-time timeout, KSELFTEST_TIMEOUT (150 s) if empty. The six at HZ 24
# to 10000; the NTP ones (issue 23) at HZ 97 and 4321, the two that take
# minutes of busy guest time each (change_skew: raw_skew, inconsistency-check
# at 10 s a clock and nanosleep at five frequencies, 10 to 13 minutes of
# wall time; skew_consistency: inconsistency-check -c 1 -t 600 while the
# frequency swings, 9 to 16) only with KSELFTEST_LONG=1
# (tests/kselftest/long.sh, make check-long) or when a filter is given.
six="24 100 250 1000 10000"
ntp="97 4321"
entries=()
if [ "${KSELFTEST_LONG:-0}" = 1 ] || [ -n "$1" ]; then
	entries+=("skew_consistency;$ntp;sh;${KSELFTEST_LONG_TIMEOUT:-2400};"
		"change_skew;$ntp;sh;${KSELFTEST_LONG_TIMEOUT:-2400};")
fi
entries+=("posix_timers;$six;;;" "inconsistency-check;$six;;;-t 2" "set-timer-lat;$six;;;"
	"adjtick;$ntp;;;" "nsleep-lat;$six;;;" "nanosleep;$six;;;" "raw_skew;$six;;;"
	"valid-adjtimex;$ntp;;;")

running=0
for entry in "${entries[@]}"; do
	IFS=';' read -r prog hzlist how limit args <<<"$entry"
	for hz in $hzlist; do
		name=$prog-hz$hz
		[[ "$prog hz$hz" =~ $filter ]] || continue
		if [ -z "${ks_built[$prog]}" ]; then
			echo "the program did not build: $(tail -3 "build/kselftest/bin/$prog.log")" >"$out/$name.build"
			continue
		fi
		if [ "$how" = sh ]; then
			cmdline="hz=$hz init=/bin/busybox -- sh -c \"cd /kselftest && ./$prog${args:+ $args}; echo @exit \$?\""
		else
			cmdline="hz=$hz init=/kselftest/$prog"
			[ -n "$args" ] && cmdline+=" -- $args"
		fi
		(
			t0=$SECONDS
			QEMU_ARGS="-initrd $out/initramfs.cpio -m 64" qemu_boot "${limit:-${KSELFTEST_TIMEOUT:-150}}" \
				"$kernel" "$cmdline" "$out/$name.log"
			echo $? >"$out/$name.rc"
			echo $((SECONDS - t0)) >"$out/$name.time"
		) &
		throttle
	done
done
wait

# The checks print one line per problem, nothing when the program passed.
# The console has the kernel's lines too; the programs' own lines are
# matched by their text.

tap_check() { # log required-clock...: a kselftest.h TAP stream
	local log=$1 plan ran c
	shift
	grep -a '^not ok \|^Bail out!\|^# Planned tests != run tests' "$log"
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log" | head -1)
	ran=$(grep -ac '^ok \|^not ok ' "$log")
	[ -n "$plan" ] || echo "no TAP plan (1..N)"
	[ -n "$plan" ] && [ "$ran" != "$plan" ] && echo "$ran of the $plan planned results"
	for c in "$@"; do
		if grep -aq "^ok [0-9]* # SKIP $c *\$" "$log"; then
			echo "$c skipped (Linux runs it)"
		elif ! grep -aq "^ok [0-9]* $c *\$" "$log"; then
			grep -aq "^not ok [0-9]* $c *\$" "$log" || echo "no result for $c"
		fi
	done
}

check_nanosleep() {
	tap_check "$1" CLOCK_REALTIME CLOCK_MONOTONIC CLOCK_BOOTTIME CLOCK_TAI
}

check_inconsistency-check() {
	tap_check "$1" CLOCK_REALTIME CLOCK_MONOTONIC CLOCK_PROCESS_CPUTIME_ID \
		CLOCK_THREAD_CPUTIME_ID CLOCK_MONOTONIC_RAW CLOCK_REALTIME_COARSE \
		CLOCK_MONOTONIC_COARSE CLOCK_BOOTTIME CLOCK_TAI
	# Its diagnostics when a clock went backwards: the Delta line says by how much.
	grep -a '^# Delta: ' "$1"
}

check_posix_timers() {
	local log=$1 what
	for what in "itimer virtual" "itimer prof" "itimer real" \
		"timer_create() per thread" "timer_create() per process"; do
		# "[OK]" or "Diff too high: N..[FAIL]" ends the line; a failed call's
		# perror() text (stderr, same console) comes on the next one.
		awk -v what="$what" '
			BEGIN { w = "Check " what "... " }
			!found && index($0, w) == 1 { found = 1; line = $0; if (line ~ /\[(OK|FAIL)\]/) exit; next }
			found { line = line " " $0; exit }
			END {
				if (!found) print "Check " what ": not reached"
				else if (line !~ /\[OK\] *$/) print line
			}' "$log"
	done
}

check_nsleep-lat() {
	local log=$1 c line
	grep -a -F '[FAILED]' "$log"
	for c in CLOCK_REALTIME CLOCK_MONOTONIC CLOCK_BOOTTIME CLOCK_TAI; do
		line=$(grep -a "^nsleep latency $c " "$log")
		[[ $line == *"[OK]" ]] || [[ $line == *"[FAILED]" ]] ||
			echo "${line:-nsleep latency $c: not reached}"
	done
}

check_set-timer-lat() {
	local log=$1 c mode n
	# The same failure four times for a clock (one per mode) is one line.
	grep -a -F -e '[FAILED]' -e 'failed' "$log" | uniq -c |
		awk '{ n = $1; sub(/^ *[0-9]+ /, ""); print $0 (n > 1 ? " (x" n ")" : "") }'
	for c in CLOCK_REALTIME CLOCK_MONOTONIC CLOCK_BOOTTIME CLOCK_TAI; do
		grep -aq "^$c - timer_" "$log" && continue
		for mode in "ABSTIME PERIODIC" "RELTIME PERIODIC" "ABSTIME ONE-SHOT" "RELTIME ONE-SHOT"; do
			n=$(grep -a "^$c *$mode " "$log" | grep -c -F '[OK]')
			[ "$n" -eq "$([[ $mode == *ONE-SHOT ]] && echo 3 || echo 2)" ] ||
				grep -aq "^$c *$mode .*FAILED" "$log" ||
				echo "$c $mode: $n [OK] lines"
		done
	done
}

check_raw_skew() {
	local line
	line=$(grep -a '^Estimating clock drift: \|^ERR: ' "$1")
	[[ $line == *"[OK]" ]] || echo "${line:-no \"Estimating clock drift\" line}"
}

# The exit status a program run under sh reported ("@exit N", maybe after
# its last line's text: change_skew ends "[OK]" without a newline).
sh_exit() { # log
	local st
	st=$(grep -ao '@exit [0-9]*' "$1" | tail -1)
	[ "$st" = "@exit 0" ] || echo "the program's exit: ${st:-none}"
}

# Every kselftest.h summary line: nothing failed, nothing in error.
totals_clean() { # log
	grep -a '^# Totals: ' "$1" | grep -av ' fail:0 .* error:0$'
}

check_adjtick() {
	local log=$1 n
	grep -a -F -e '[FAILED]' -e '[ERROR]' "$log"
	n=$(grep -ac '^Estimating tick (act: .*\[OK\]' "$log")
	[ "$n" -eq 8 ] || echo "$n of the 8 tick steps [OK]"
}

check_valid-adjtimex() {
	local log=$1 t
	# A frequency not read back as set is only a warning to it; Linux reads them all back.
	grep -a -e '\[FAIL\]' -e '^Warning: ' -e '^Error' -e '^ERROR' "$log"
	for t in ADJ_FREQ ADJ_SETOFFSET; do
		grep -aq "^Testing $t\.\.\. \[OK\]" "$log" || echo "Testing $t: no [OK]"
	done
}

check_change_skew() {
	local log=$1 ppm n
	sh_exit "$log"
	# raw_skew's [SKIP]: the frequency it read changed under it, as if ntpd ran.
	grep -a -F -e '[FAILED]' -e '[FAIL]' -e '[SKIP]' "$log"
	grep -a '^not ok \|^Bail out!\|^# Delta: ' "$log"
	totals_clean "$log"
	for ppm in 0 250 500 -250 -500; do
		grep -aq "^Using $ppm ppm adjustment" "$log" || echo "no run at $ppm ppm"
	done
	n=$(grep -ac '^Estimating clock drift: .*\[OK\]' "$log")
	[ "$n" -eq 5 ] || echo "raw_skew [OK] $n times of 5"
	n=$(grep -ac '^# Totals: ' "$log")
	[ "$n" -ge 15 ] || echo "$n of the 15 programs' summaries (3 at each frequency)"
}

check_skew_consistency() {
	local log=$1
	sh_exit "$log"
	grep -a -F '[FAILED]' "$log"
	grep -a '^not ok \|^Bail out!\|^# Delta: ' "$log"
	grep -aq '^ok 1 CLOCK_MONOTONIC *$' "$log" || echo "no \"ok 1 CLOCK_MONOTONIC\" from inconsistency-check"
	grep -aq '^\[OK\]' "$log" || echo "no [OK]"
}

# A short figure for a passed program, to see the trend across HZ.
detail() { # prog log
	case $1 in
	set-timer-lat)
		sed -n 's/.* max latency: *\([0-9]*\) ns .*/\1/p' "$2" |
			sort -n | tail -1 | awk '{ printf "max timer latency %.3f ms", $1 / 1e6 }'
		;;
	raw_skew) sed -n 's/^Estimating clock drift: \(.*\)\t.*/\1 ppm/p' "$2" ;;
	adjtick)
		# The worst step: its measured ppm against the tick's.
		sed -n 's/^Estimating tick (act: [0-9]* usec, \(-*[0-9]*\) ppm): [0-9]* usec, \(-*[0-9]*\) ppm.*/\1 \2/p' "$2" |
			awk '{ d = $2 - $1; if (d < 0) d = -d; if (d > m) m = d } END { printf "tick steps within %d ppm", m }'
		;;
	change_skew)
		sed -n 's/^Estimating clock drift: \([^\t]*\)\t.*/\1/p' "$2" | paste -sd ' ' | sed 's/^/raw_skew: /'
		;;
	nanosleep | inconsistency-check) grep -a -m1 '^# Totals: ' "$2" | sed 's/^# Totals: //' ;;
	esac
}

for entry in "${entries[@]}"; do
	IFS=';' read -r prog hzlist how limit args <<<"$entry"
	for hz in $hzlist; do
		name=$prog-hz$hz
		[[ "$prog hz$hz" =~ $filter ]] || continue
		label="kselftest: $prog [hz$hz]"
		if [ -f "$out/$name.build" ]; then
			report "$label" "$(cat "$out/$name.build")"
			continue
		fi
		log=$out/$name.log
		if [ ! -f "$log" ]; then
			report "$label" "no console log: QEMU did not run"
			continue
		fi
		rc=$(cat "$out/$name.rc" 2>/dev/null || echo none)
		problems=()
		case $rc in
		33) ;;
		124) problems+=("timed out after ${limit:-${KSELFTEST_TIMEOUT:-150}} s of wall time") ;;
		*) problems+=("QEMU exit status $rc: $(grep -a -m1 '^init: \|^exec: .*: ' "$log" 2>/dev/null)") ;;
		esac
		mapfile -t found < <("check_$prog" "$log" | cut -c1-160)
		problems+=("${found[@]}")
		if [ ${#problems[@]} -eq 0 ]; then
			record pass "$label"
			printf '%-50s ok (%s s) %s\n' "$label" "$(cat "$out/$name.time")" "$(detail "$prog" "$log")"
		else
			record fail "$label"
			printf '%-50s FAILED (%s s)\n' "$label" "$(cat "$out/$name.time" 2>/dev/null)"
			printf '  %s\n' "${problems[@]}" >&2
		fi
	done
done
echo "kselftest: $((SECONDS - start)) s of wall time ($built s to fetch and build the programs)"
