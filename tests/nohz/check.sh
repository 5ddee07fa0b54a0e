#!/bin/bash
# QEMU checks of tickless idle (run by `make check`).
#
# The kernel's idletest=<s> arms one 1 Hz timer, idles s guest seconds and
# prints one line:
#	idletest: hz=.. nohz=on|off seconds=.. timer_irqs=.. ... jiffies=.. tsc_jiffies=..
# and "idletest: ok" when jiffies equal the ticks the TSC counted (+-1) and
# the timer ran every second. Here we also bound the timer interrupts:
#  - nohz=on, on the local APIC timer or on the PIT (which stops while idle,
#    the LAPIC timer, one-shot up to seconds, waking the CPU): at most 12 in
#    10 s, whatever HZ;
#  - nohz=off: one per tick, within 1 % of seconds x the exact tick rate.
# The periodic hz=10000 case costs 100000 interrupts of emulation (about 15
# s of host time): it starts first. Two cases boot the debug build, which
# traps a timer run early or jiffies moving back. Guest time as in tests/boot.
#
#	tests/nohz/check.sh [name-regex]
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

qemu_suite nohz "$1"
JOBS=${JOBS:-$(nproc)}

build_kernels nohz "$out"

# name|cmdline|kind|max_irqs[|build] (kind on: at most max_irqs; off: 1 % of the rate)
# The slowest first, so that it does not run alone at the end.
cases=(
	"pit-hz10000-off|hz=10000 nohz=off idletest=10|off|"
	"lapic-hz100-on|hz=100 clockevent=lapic idletest=10|on|12"
	"lapic-hz1000-on|hz=1000 clockevent=lapic idletest=10|on|12"
	"lapic-hz10000-on|hz=10000 clockevent=lapic idletest=10|on|12"
	"pit-hz100-on|hz=100 idletest=10|on|12"
	"pit-hz1000-on|hz=1000 idletest=10|on|12"
	"pit-hz100-off|hz=100 nohz=off idletest=10|off|"
	"pit-hz1000-off|hz=1000 nohz=off idletest=10|off|"
	"lapic-hz1000-off|hz=1000 nohz=off clockevent=lapic idletest=10|off|"
	"pit-hz10000-on|hz=10000 idletest=10|on|12"
	"debug-lapic-hz1000-on|hz=1000 clockevent=lapic idletest=10|on|12|debug"
	"debug-pit-hz250-on|hz=250 idletest=10|on|12|debug"
	"bad-nohz|hz=100 nohz=maybe clockevent=lapic idletest=2|on|4"
)

field() { # field line name: the value of name= in line
	sed -n "s/.* $2=\([0-9.]*\).*/\1/p" <<<"$1"
}

run_case() {
	local name=$1 cmdline=$2 kind=$3 max=$4 kernel=${elf[${5:-variable}]}
	local log=$out/$name.log why="" t0=$SECONDS
	if [ -z "$kernel" ]; then
		echo "fail no kernel" >"$out/$name.res"
		return
	fi
	qemu_boot 120 "$kernel" "$cmdline" "$log"
	local rc=$?
	[ "$rc" -eq 33 ] || why="exit status $rc, not 33"
	grep -q '^idletest: ok$' "$log" || why="${why:+$why; }no 'idletest: ok'"
	local line irqs secs hz
	line=$(grep -m1 '^idletest: hz=' "$log")
	irqs=$(field "$line" timer_irqs)
	secs=$(field "$line" seconds)
	hz=$(field "$line" hz)
	if [ -z "$irqs" ]; then
		why="${why:+$why; }no idletest line"
	elif [ "$kind" = on ]; then
		grep -q "nohz=on" <<<"$line" || why="${why:+$why; }nohz is not on"
		[ "$irqs" -le "$max" ] || why="${why:+$why; }$irqs timer interrupts, more than $max"
	else
		# the exact rate: den/num of the period the hz: line reports
		local want
		want=$(awk -v s="$secs" -v l="$(grep -m1 '^hz: tick = ' "$log")" 'BEGIN {
			split(l, a, " "); split(a[4], f, "/"); printf "%d", s * f[2] / f[1] }')
		awk -v n="$irqs" -v w="$want" 'BEGIN { exit !(n >= w * 0.99 && n <= w * 1.01 + 2) }' ||
			why="${why:+$why; }$irqs timer interrupts, not about $want (HZ=$hz, $secs s)"
	fi
	if [ "$name" = bad-nohz ]; then
		grep -q '^nohz=maybe: not on or off, using on$' "$log" ||
			why="${why:+$why; }no 'nohz=maybe: not on or off, using on'"
	fi
	if [ -z "$why" ]; then
		echo "pass $((SECONDS - t0)) $irqs" >"$out/$name.res"
	else
		echo "fail $why" >"$out/$name.res"
	fi
}

start=$SECONDS
running=0
for c in "${cases[@]}"; do
	IFS='|' read -r name cmdline kind max build <<<"$c"
	[[ $name =~ $filter ]] || continue
	run_case "$name" "$cmdline" "$kind" "$max" "$build" &
	throttle
done
wait
for c in "${cases[@]}"; do
	IFS='|' read -r name _ <<<"$c"
	[[ $name =~ $filter ]] || continue
	res=$(cat "$out/$name.res" 2>/dev/null || echo "fail no result")
	if [[ $res == pass* ]]; then
		read -r _ secs irqs <<<"$res"
		record pass "nohz: $name"
		printf '%-50s ok (%s timer interrupts, %s s)\n' "nohz: $name" "$irqs" "$secs"
	else
		record fail "nohz: $name"
		printf '%-50s FAILED: %s\n' "nohz: $name" "${res#fail }"
		tail -15 "$out/$name.log" >&2
	fi
done
echo "nohz: took $((SECONDS - start)) s of wall time with $JOBS parallel boots"
