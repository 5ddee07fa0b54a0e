#!/bin/bash
# QEMU checks of CPU-time accounting (run by `make check`).
#
# The kernel's cputest=<s> runs the check program (user/usertest.c, from
# the initramfs) for a 1 s busy loop in ring 3 (user time), a kernel thread that busies 500 ms on the TSC and
# exits (system time that must outlive the thread), then idles s seconds,
# and prints one line
#	cputest: hz=.. nohz=.. user=U system=S idle=I elapsed=E busy_ms=.. busy_cpu=..
#		busy_exited=0|1 sleep_s=.. init=<status>
# with U, S, I the cpu line's fields and E the time since the accounting
# started, read apart from it on the TSC, all in USER_HZ ticks; then the
# shell's `cpu  U 0 S I` line. Each field is rounded down from exact
# nanoseconds, so U + S + I is E or at most 3 below (1 per field). A
# tick-sampled account fails here: tickless idle leaves idle far short of
# the sleep, and an exited thread's ticks leave the total.
#
# Every HZ from 24 to 10000, tickless and periodic, on the default device.
# Guest time from -icount as in tests/boot; at most two QEMUs at a time.
#
#	tests/cputime/check.sh [name-regex]
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

qemu_suite cputime "$1"
JOBS=2
SECS=3 # cputest=: idle seconds

build_kernels cputime "$out"
# The check program's 1 s of user time comes from the initramfs.
if ! make --no-print-directory initramfs >"$out/initramfs.log" 2>&1; then
	record fail "cputime: make initramfs"
	tail -20 "$out/initramfs.log" >&2
	exit 0
fi
export QEMU_ARGS="-initrd build/x86/initramfs.cpio -m 64"

# The slowest guests first (the periodic 10 kHz tick costs the most).
cases=()
for nohz in off on; do
	for hz in 10000 24 100 1000; do
		cases+=("hz$hz-$nohz|hz=$hz nohz=$nohz cputest=$SECS")
	done
done
checks=(line sum idle exited user thread cpuline)

field() { # field line name: the value of name= in line
	sed -n "s/.* $2=\([0-9]*\).*/\1/p" <<<"$1"
}

# judge log: one "<check> pass|fail <why>" line per check
judge() {
	local log=$1 rc=$2 line
	line=$(grep -m1 '^cputest: hz=' "$log")
	local u s i e busy cpu exited secs init
	u=$(field "$line" user)
	s=$(field "$line" system)
	i=$(field "$line" idle)
	e=$(field "$line" elapsed)
	busy=$(field "$line" busy_ms)
	cpu=$(field "$line" busy_cpu)
	exited=$(field "$line" busy_exited)
	secs=$(field "$line" sleep_s)
	init=$(field "$line" init)
	local v
	for v in "$u" "$s" "$i" "$e" "$busy" "$cpu" "$exited" "$secs" "$init"; do
		if [ -z "$v" ]; then
			for c in "${checks[@]}"; do echo "$c fail no complete cputest line"; done
			return
		fi
	done
	if [ "$rc" -eq 33 ]; then echo "line pass"; else echo "line fail exit status $rc, not 33"; fi
	local sum=$((u + s + i)) ms=$((busy / 10))
	if [ "$sum" -le "$e" ] && [ "$sum" -ge $((e - 3)) ]; then
		echo "sum pass"
	else
		echo "sum fail user+system+idle = $sum, elapsed $e (want $((e - 3))..$e)"
	fi
	if [ "$i" -gt 0 ] && [ "$i" -ge $((secs * 100 - 2)) ] && [ "$i" -gt $((u + s)) ]; then
		echo "idle pass"
	else
		echo "idle fail idle $i after $secs s idle (want >= $((secs * 100 - 2)) and > user+system $((u + s)))"
	fi
	# The thread's own time is in system once, not lost, not twice.
	if [ "$exited" = 1 ] && [ "$s" -ge $((ms - 1)) ] && [ "$s" -lt $((2 * ms - 1)) ]; then
		echo "exited pass"
	else
		echo "exited fail system $s, exited=$exited after a $busy ms thread (want $((ms - 1))..$((2 * ms - 2)))"
	fi
	# The check program's 1 s in ring 3, as tests/user asks of times().
	if [ "$init" = 0 ] && [ "$u" -ge 98 ] && [ "$u" -le 105 ]; then
		echo "user pass"
	else
		echo "user fail user $u, init status $init (want 98..105 and 0)"
	fi
	if [ "$cpu" -ge $((ms - 1)) ] && [ "$cpu" -le $((ms + 1)) ]; then
		echo "thread pass"
	else
		echo "thread fail the busy thread's own CPU time $cpu for $busy ms"
	fi
	# The shell's cpu line, read just after: the same account.
	local cl
	cl=$(grep -m1 -E '^cpu  [0-9]+ 0 [0-9]+ [0-9]+$' "$log")
	read -r _ cu _ cs ci <<<"$cl"
	if [ -n "$cl" ] && [ "$cu" -eq "$u" ] && [ "$cs" -ge "$s" ] && [ "$cs" -le $((s + 1)) ] &&
		[ "$ci" -ge "$i" ] && [ "$ci" -le $((i + 1)) ]; then
		echo "cpuline pass"
	else
		echo "cpuline fail cpu line '${cl:-missing}' against user=$u system=$s idle=$i"
	fi
}

run_case() {
	local name=$1 cmdline=$2 kernel=${elf[variable]}
	local log=$out/$name.log
	if [ -z "$kernel" ]; then
		for c in "${checks[@]}"; do echo "$c fail no kernel"; done >"$out/$name.res"
		return
	fi
	qemu_boot 60 "$kernel" "$cmdline" "$log"
	local rc=$?
	judge "$log" "$rc" >"$out/$name.res"
}

start=$SECONDS
running=0
for c in "${cases[@]}"; do
	IFS='|' read -r name cmdline <<<"$c"
	[[ $name =~ $filter ]] || continue
	run_case "$name" "$cmdline" &
	throttle
done
wait
for c in "${cases[@]}"; do
	IFS='|' read -r name _ <<<"$c"
	[[ $name =~ $filter ]] || continue
	case_results cputime "$name" "$out" cputest "${checks[@]}"
done
echo "cputime: took $((SECONDS - start)) s of wall time with $JOBS parallel boots"
