#!/bin/bash
# POSIX timers, interval timers and timerfd from user space (issue 12, run
# by `make check`): QEMU boots with user/timertest.c as init, built with
# musl and with glibc, under -icount. The program judges every expiry by
# CLOCK_MONOTONIC and by the TSC (never early; at most LATE_US late by
# CLOCK_MONOTONIC), exact overrun counts with the signal blocked, SIGEV_NONE
# counting down, CPU-time timers (ITIMER_VIRTUAL, ITIMER_PROF, the CPU
# clocks) by getrusage and CLOCK_PROCESS_CPUTIME_ID, timerfd counts and
# readiness, the errnos Linux gives, ids per process through fork and exec.
#
# Cases: HZ 24, 100, 1000 and 10000 on the local APIC timer
# (clockevent=lapic) and HZ 100 on the default device (the PIT), each
# with both C libraries; LATE_US is 60 (10 us plus Linux's 50 us slack)
# everywhere. One result per boot: exit status 33, "done failures=0", no
# FAIL line, init's status 0. Then a table of the lateness (max over each
# kind of timer) per case.
#
#	tests/ptimers/check.sh [name-regex]
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

LATE_US=60
qemu_suite ptimers "$1"
rm -f "$out"/*.rc
if ! make --no-print-directory initramfs kernel >"$out/build.log" 2>&1; then
	record fail "ptimers: build the kernel and the initramfs"
	tail -20 "$out/build.log" >&2
	exit 0
fi
kernel=$(make --no-print-directory print-kernel)
export QEMU_ARGS="-initrd build/x86/initramfs.cpio -m 64"

cases=()
for hz in 24 100 1000 10000; do
	cases+=("lapic-hz$hz hz=$hz clockevent=lapic")
done
cases+=("pit-hz100 hz=100")

running=0
for c in "${cases[@]}"; do
	read -r cname cmd <<<"$c"
	for prog in timertest timertest-glibc; do
		name=$cname-$prog
		[[ $name =~ $filter ]] || continue
		(
			qemu_boot "${PTIMERS_TIMEOUT:-120}" "$kernel" \
				"$cmd init=/sbin/$prog -- test $LATE_US" "$out/$name.log"
			echo $? >"$out/$name.rc"
		) &
		throttle
	done
done
wait

for c in "${cases[@]}"; do
	read -r cname cmd <<<"$c"
	for prog in timertest timertest-glibc; do
		name=$cname-$prog
		[[ $name =~ $filter ]] || continue
		log=$out/$name.log
		rc=$(cat "$out/$name.rc" 2>/dev/null || echo none)
		problems=()
		[ "$rc" = 33 ] || problems+=("QEMU exit status $rc")
		mapfile -t found < <(grep -a ": FAIL " "$log" | cut -c1-200)
		problems+=("${found[@]}")
		grep -aq ": done failures=0\$" "$log" || problems+=("no \"done failures=0\" line")
		grep -aq "^init: exited with status 0\$" "$log" || problems+=("init did not exit with status 0")
		max=$(sed -n 's/.*: latency .* max=\([0-9]*\) ns/\1/p' "$log" | sort -n | tail -1)
		if [ ${#problems[@]} -eq 0 ]; then
			record pass "ptimers: $name"
			printf '%-50s ok (max late %s ns)\n' "ptimers: $name" "$max"
		else
			record fail "ptimers: $name"
			printf '%-50s FAILED\n' "ptimers: $name"
			printf '  %s\n' "${problems[@]}" >&2
		fi
	done
done

# The lateness table: max ns late per kind of timer, by CLOCK_MONOTONIC.
echo "ptimers: max lateness in ns (musl | glibc), limit $((LATE_US * 1000)):"
kinds=$(sed -n 's/.*: latency \([^ ]*\) .*/\1/p' "$out"/*-timertest.log 2>/dev/null | sort -u)
printf '  %-14s' case
for k in $kinds; do printf ' %22s' "$k"; done
echo
for c in "${cases[@]}"; do
	read -r cname cmd <<<"$c"
	printf '  %-14s' "$cname"
	for k in $kinds; do
		m=$(sed -n "s/.*: latency $k .* max=\([0-9]*\) ns/\1/p" "$out/$cname-timertest.log" 2>/dev/null)
		g=$(sed -n "s/.*: latency $k .* max=\([0-9]*\) ns/\1/p" "$out/$cname-timertest-glibc.log" 2>/dev/null)
		printf ' %22s' "${m:--} | ${g:--}"
	done
	echo
done
