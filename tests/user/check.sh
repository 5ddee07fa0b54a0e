#!/bin/bash
# User space sees USER_HZ: QEMU boots of the reference kernel with `usertest`
# (run by `make check`). The check program (user/usertest.c), built with
# musl and with glibc, runs from the initramfs in ring 3, checks the time
# system calls against the monotonic clock and prints "usertest-<libc>:
# name=value" lines; faulting programs must be killed; the self-test must
# pass afterwards. Then the values are compared across HZ and across the
# two C libraries and printed as a table.
#
#	tests/user/check.sh
#
# Each boot passes only with exit status 33 (the exit device) AND the text
# results, under timeout, with guest time from -icount as in tests/boot.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

read -ra icount <<<"${ICOUNT:--icount shift=2,sleep=off}"
MAKE="make --no-print-directory"
out=${USER_TEST_OUT:-build/user-tests}
mkdir -p "$out"
rm -f "$out"/*.log "$out"/*.res
QEMU=${QEMU_SYS:-qemu-system-i386}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-120}
JOBS=${JOBS:-$(nproc)}
HZS=(10000 24 100 250 333 1000 1200) # the slowest guest first
POLL=5                               # serial_poll=, in USER_HZ ticks
FAULTS=4                             # faulting programs usertest runs
LIBCS=(musl glibc)

if ! $MAKE initramfs >"$out/initramfs.log" 2>&1; then
	record fail "user: make initramfs (the check program with musl and glibc)"
	tail -20 "$out/initramfs.log" >&2
	exit 0
fi
export QEMU_ARGS="-initrd build/x86/initramfs.cpio -m 64"

build_kernels user "$out"

# The cases: name, build, command line. nowrap: the self-test's jiffies-wrap
# sleep is covered by tests/boot; here it would only cost time.
cases=()
for hz in "${HZS[@]}"; do
	cases+=("hz$hz variable hz=$hz usertest nowrap serial_poll=$POLL")
done
cases+=("constant-hz250 constant usertest nowrap serial_poll=$POLL")
cases+=("debug-hz1000 debug hz=1000 usertest nowrap serial_poll=$POLL")
cases+=("bad-serial-poll variable hz=100 usertest nowrap serial_poll=abc")

# The serial_poll= line: USER_HZ ticks to PIT jiffies, rounded up.
poll_jiffies() { # poll_jiffies hz
	local div=$(((1193182 + $1 / 2) / $1))
	echo $(((POLL * 1193182 + 100 * div - 1) / (100 * div)))
}

run_case() { # run_case name build cmdline...
	local name=$1 build=$2
	shift 2
	local cmdline="$*" log=$out/$1.log why=""
	log=$out/$name.log
	local kernel=${elf[$build]}
	if [ -z "$kernel" ]; then
		echo "fail no kernel ($build build failed)" >"$out/$name.res"
		return
	fi
	qemu_boot "$BOOT_TIMEOUT" "$kernel" "$cmdline" "$log"
	local rc=$?
	[ "$rc" -eq 33 ] || why="exit status $rc, not 33"
	local re
	for re in '^usertest-musl: done failures=0$' '^usertest-glibc: done failures=0$' \
		'^selftest: [0-9]+ passed, 0 failed$' \
		"^usertest: init ok, 0 of $FAULTS faulting programs not killed, selftest ok$" \
		'^cpu  [0-9]+ 0 [0-9]+ [0-9]+$'; do
		grep -Eq -- "$re" "$log" || why="${why:+$why; }missing /$re/"
	done
	local killed
	killed=$(grep -Ec '^user: pid [0-9]+ \(usertest\) killed by SIG[A-Z]+: exception [0-9]+ \(.*\), error code 0x[0-9a-f]+, at eip 0x[0-9a-f]+' "$log")
	[ "$killed" -eq "$FAULTS" ] || why="${why:+$why; }$killed kill messages, not $FAULTS"
	if [ -z "$why" ]; then echo pass >"$out/$name.res"; else echo "fail $why" >"$out/$name.res"; fi
}

start=$SECONDS
running=0
for c in "${cases[@]}"; do
	# shellcheck disable=SC2086
	run_case $c &
	throttle
done
wait

for c in "${cases[@]}"; do
	name=${c%% *}
	boot_result user "$name"
done

# One value from a log: field key= of the first line matching pattern.
val() { # val log pattern key
	grep -E -- "$2" "$1" | head -1 | tr ' ' '\n' | sed -n "s/^$3=//p"
}

# Across HZ and C libraries: the same program, the same answers, each
# within its own tick's rounding (the program checks each against the
# monotonic clock; here they are compared with each other).
ok_tck=1 ok_busy=1 ok_cpu=1 ok_sleep=1 ok_times=1 ok_up=1 ok_err=1 ok_poll=1 ok_child=1
ref_err=""
umin=999999 umax=-1
declare -A smin smax
printf '\n%-6s %-5s %4s %4s %5s %6s %6s %6s %12s %12s %12s %5s %5s %4s %6s %6s %6s %6s\n' HZ libc \
	TCK AUX utime clock rusage cputid "sleep1 ns" "sleep10 ns" "sleep250 ns" tslp talrm updf \
	errno poll_j cticks cwait
for hz in "${HZS[@]}"; do
	log=$out/hz$hz.log
	pj=$(sed -n 's/^serial: receive polled every [0-9]* USER_HZ ticks = \([0-9]*\) jiffies.*/\1/p' "$log")
	[ "$pj" = "$(poll_jiffies "$hz")" ] || ok_poll=0
	for libc in "${LIBCS[@]}"; do
		p="^usertest-$libc:"
		tck=$(val "$log" "$p pid=" clk_tck)
		aux=$(val "$log" "$p pid=" at_clktck)
		ut=$(val "$log" "$p busy " utime)
		mono=$(val "$log" "$p cpu " mono_ms)
		clk=$(val "$log" "$p cpu " clock_ms)
		ru=$(val "$log" "$p cpu " rusage_ms)
		pc=$(val "$log" "$p cpu " process_ms)
		ts=$(val "$log" "$p times_sleep " ticks)
		ta=$(val "$log" "$p times_alarm " ticks)
		up=$(val "$log" "$p uptime " diff)
		ct=$(val "$log" "$p child_times " cticks)
		cw=$(val "$log" "$p child_times " wait4_ms)
		cs=$(val "$log" "$p child_times " spin_ns)
		errs=$(grep -E "$p errno " "$log" | sed -e 's/ ret=[-0-9]*//' -e 's/^usertest-[a-z]*: //')
		nerr=$(grep -c 'want=' <<<"$errs")
		bad_err=$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } if (v["got"] != v["want"]) n++ } END { print n + 0 }' <<<"$errs")
		[ "$tck" = 100 ] && [ "$aux" = 100 ] || ok_tck=0
		# A 0.3 s child: its CPU time in the parent's cutime + cstime (each
		# field rounded down on its own) and in wait4's rusage.
		if [[ $ct =~ ^[0-9]+$ && $cw =~ ^[0-9]+$ && $cs =~ ^[0-9]+$ ]]; then
			[ "$ct" -ge $((cs / 10000000 - 1)) ] && [ "$ct" -le $((cs / 10000000 + 1)) ] &&
				[ "$cw" -ge $((cs / 1000000)) ] && [ "$cw" -le $((cs / 1000000 + 2)) ] ||
				ok_child=0
		else
			ok_child=0
		fi
		grep -Eq "$p child_killed status=0xf signaled=1 sig=15$" "$log" || ok_child=0
		grep -Eq "$p restart eintr_ret=-1 errno=4 restarted_ret=1 byte=x interrupts=1$" "$log" ||
			ok_child=0
		if [[ $ut =~ ^[0-9]+$ ]] && [ "$ut" -ge 98 ] && [ "$ut" -le 102 ]; then
			[ "$ut" -lt "$umin" ] && umin=$ut
			[ "$ut" -gt "$umax" ] && umax=$ut
		else
			ok_busy=0
		fi
		for v in "$clk" "$ru" "$pc"; do
			[[ $v =~ ^[0-9]+$ && $mono =~ ^[0-9]+$ ]] && [ $((v - mono)) -ge -1 ] &&
				[ $((v - mono)) -le 1 ] || ok_cpu=0
		done
		for v in "$ts" "$ta"; do
			[[ $v =~ ^[0-9]+$ ]] && [ "$v" -ge 100 ] || ok_times=0
		done
		[[ $up =~ ^-?[0-9]+$ ]] && [ "${up#-}" -le 1 ] || ok_up=0
		[ "$nerr" -ge 15 ] && [ "$bad_err" -eq 0 ] || ok_err=0
		[ -z "$ref_err" ] && ref_err=$errs
		[ "$errs" = "$ref_err" ] || ok_err=0
		sl=()
		for ms in 1 10 250; do
			ns=$(val "$log" "$p sleep ms=$ms " ns)
			sl+=("${ns:-?}")
			if ! [[ $ns =~ ^[0-9]+$ ]] || [ "$ns" -lt $((ms * 1000000)) ]; then
				ok_sleep=0
				continue
			fi
			over=$((ns - ms * 1000000))
			[ -z "${smin[$ms]}" ] || [ "$over" -lt "${smin[$ms]}" ] && smin[$ms]=$over
			[ -z "${smax[$ms]}" ] || [ "$over" -gt "${smax[$ms]}" ] && smax[$ms]=$over
		done
		printf '%-6s %-5s %4s %4s %5s %6s %6s %6s %12s %12s %12s %5s %5s %4s %6s %6s %6s %6s\n' \
			"$hz" "$libc" "${tck:-?}" "${aux:-?}" "${ut:-?}" "${clk:-?}" "${ru:-?}" \
			"${pc:-?}" "${sl[@]}" "${ts:-?}" "${ta:-?}" "${up:-?}" \
			"$((nerr - bad_err))/$nerr" "${pj:-?}" "${ct:-?}" "${cw:-?}"
	done
done
echo "spread: utime $umin..$umax ticks (apart by $((umax - umin)));" \
	"sleep overshoot 1 ms ${smin[1]}..${smax[1]} ns, 10 ms ${smin[10]}..${smax[10]} ns," \
	"250 ms ${smin[250]}..${smax[250]} ns (never early: $([ $ok_sleep = 1 ] && echo yes || echo NO))"

rec() { # rec ok name
	if [ "$1" = 1 ]; then record pass "user: $2"; else record fail "user: $2"; fi
	printf '%-50s %s\n' "user: $2" "$([ "$1" = 1 ] && echo ok || echo FAILED)"
}
rec $ok_tck "sysconf(_SC_CLK_TCK)=AT_CLKTCK=100, musl and glibc, every HZ"
rec $ok_busy "1 s busy loop: tms_utime 100+-2 at every HZ"
rec $ok_cpu "0.6 s CPU: clock, getrusage, CPUTIME_ID = monotonic +-1 ms"
rec $ok_times "times() across sleep(1) and alarm(1): >= 100 ticks"
rec $ok_sleep "nanosleep 1/10/250 ms never early at every HZ"
rec $ok_up "/proc/uptime within 1 USER_HZ tick of CLOCK_BOOTTIME"
rec $ok_err "bad arguments: the same error codes, every HZ and libc"
rec $ok_poll "serial_poll=$POLL converted to jiffies at every HZ"
rec $ok_child "a 0.3 s child in cutime+cstime and wait4; kill, SA_RESTART"
bad_msg=0
grep -Eq '^serial_poll=abc: not a number, using 0$' "$out/bad-serial-poll.log" && bad_msg=1
rec $bad_msg "serial_poll=abc: one line, polling off"
echo "user: took $((SECONDS - start)) s of wall time with $JOBS parallel boots"
