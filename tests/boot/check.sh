#!/bin/bash
# QEMU boot tests of the reference kernel (run by `make check`).
#
# Each case boots build/x86*/dynhz.elf under deterministic virtual time
# (-icount, guest time decoupled from the host) with QEMU's exit device, and
# passes only with exit status 33 (the guest wrote 0x10 to port 0xf4) AND
# the text it must print: a triple fault or a reset exits 0, a hang is cut
# by timeout. One result per case; boots run in parallel, one per CPU.
#
#	tests/boot/check.sh [-k] [name-regex]	(-k keeps going when the build fails)
#
# Guest time: -icount with a fixed shift (2: each instruction is 4 ns of
# guest time) and sleep=off (idle time is skipped). shift=auto ties the
# guest's instruction rate to the host's speed: on a busy host it slows the
# guest until a 10 kHz tick no longer fits between two interrupts, and the
# results depend on the host. A fixed shift makes every run the same.
read -ra icount <<<"${ICOUNT:--icount shift=2,sleep=off}"
#
# The self-test's jiffies-wrap test sleeps through the first 300 s of guest
# time, one timer interrupt per tick: cheap at low HZ, minutes of host time
# at HZ 2000 and above, so those boots skip it (nowrap).
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

filter=${1:-.}
MAKE="make --no-print-directory"
out=build/boot-tests
mkdir -p "$out"
rm -f "$out"/*.log "$out"/*.res
QEMU=${QEMU_SYS:-qemu-system-i386}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-240}
JOBS=${JOBS:-$(nproc)}

# The three kernels.
build_kernels boot "$out"
if grep -q 'warning:' "$out"/build-*.log; then
	record fail "boot: kernel builds without warnings"
	grep -h 'warning:' "$out"/build-*.log | sort -u >&2
else
	record pass "boot: kernel builds without warnings"
fi

# A case: name, kernel, command line, then the lines the console must show
# (extended regexes, each matched against whole lines), after "--".
# Exit status 33 and "selftest: N passed, 0 failed" are always required,
# except for cases whose name starts with "crash-" (they must fail cleanly).
cases=()
add() { # add name build cmdline [regex...]
	local IFS=$'\x1f'
	cases+=("$*")
}

time_line() { # time_line hz source clockevent
	echo "^time: hz=$1 source=$2 clockevent=$3 tick_ns=[0-9]+\.[0-9]{3} user_hz=100$"
}

# hz= on the PIT: the whole supported range, odd rates included.
for hz in 19 24 100 250 300 333 1000 1024 1200 2000 10000; do
	wrap=$([ "$hz" -ge 2000 ] && echo " nowrap")
	add "pit-hz$hz" variable "hz=$hz selftest$wrap" "$(time_line "$hz" cmdline pit)"
done
# The local APIC timer, emulating exactly 1/HZ.
for hz in 24 333 1200 10000; do
	wrap=$([ "$hz" -ge 2000 ] && echo " nowrap")
	add "lapic-hz$hz" variable "hz=$hz clockevent=lapic selftest$wrap" \
		"$(time_line "$hz" cmdline lapic)" "^hz: tick = 1/$hz s = "
done
# Bad command lines: one line naming the parameter, value and fallback.
bad() { # bad name value message hz source [extra]
	add "bad-$1" variable "hz=$2 selftest $6" "^hz=$2: $3, using $4$" "$(time_line "$4" "$5" pit)"
}
bad abc abc "not a number" 250 default
bad empty "" "empty value" 250 default
bad zero 0 "out of range 19\.\.10000" 19 clamped
bad minus5 -5 "a sign is not allowed" 250 default
bad 250x 250x "trailing characters after the number" 250 default
bad huge 99999999999999999999 "number too large" 250 default
bad five 5 "out of range 19\.\.10000" 19 clamped
bad 20000 20000 "out of range 19\.\.10000" 10000 clamped nowrap
add "bad-HZ1000-hz300" variable "HZ=1000 hz=300 selftest" "$(time_line 300 cmdline pit)"
add "bad-timeslice" variable "timeslice=0 selftest nowrap" \
	"^timeslice=0: out of range 1\.\.6000, using 1$" "^sched: timeslice 1 USER_HZ ticks = 3 jiffies"
add "bad-clockevent" variable "clockevent=hpet selftest nowrap" \
	"^clockevent=hpet: not a clock-event device \(pit, lapic\), using pit$" "$(time_line 250 default pit)"
# The constant and debug builds.
add "constant-hz250" constant "selftest" "$(time_line 250 constant pit)"
add "constant-hz250-ignores-hz" constant "hz=1000 selftest nowrap" \
	"^hz=1000: HZ is fixed at 250 in this build, ignored$" "$(time_line 250 constant pit)"
add "constant-hz250-lapic" constant "clockevent=lapic selftest nowrap" "$(time_line 250 constant lapic)"
add "debug" debug "selftest" "$(time_line 250 default pit)"
add "debug-lapic-hz1000" debug "hz=1000 clockevent=lapic selftest nowrap" "$(time_line 1000 cmdline lapic)"
# The demonstration powers off by itself without a terminal.
add "demo-noshell" variable "hz=250 noshell" "^demo: " "^dynhz: powering off$"
# Failures are reported and end QEMU with status 35, never a hang or a reset.
add "crash-ud" variable "crash=ud" "^exception: vector 6 \(#UD invalid opcode\), error code 0x0, at eip 0x[0-9a-f]+$" \
	"^  in thread 1 'init', doing: crashing on purpose \(crash=\); jiffies [0-9]+$"
add "crash-div" variable "crash=div" "^exception: vector 0 \(#DE divide error\)"
add "crash-gp" variable "crash=gp" "^exception: vector 13 \(#GP general protection\), error code 0x[0-9a-f]+, at eip"
add "crash-panic" debug "crash=panic" "^panic: kernel/main\.c:[0-9]+: crash=panic requested$"

# run_case "fields": boots one case, writes $out/<name>.res.
run_case() {
	local IFS=$'\x1f'
	# shellcheck disable=SC2206
	local f=($1)
	local name=${f[0]} build=${f[1]} cmdline=${f[2]}
	local log=$out/$name.log res=$out/$name.res why=""
	local kernel=${elf[$build]}
	if [ -z "$kernel" ]; then
		echo "fail no kernel ($build build failed)" >"$res"
		return
	fi
	local t0=$SECONDS
	qemu_boot "$BOOT_TIMEOUT" "$kernel" "$cmdline" "$log"
	local rc=$?
	local want_rc=33
	[[ $name == crash-* ]] && want_rc=35
	[ "$rc" -eq "$want_rc" ] || why="exit status $rc, not $want_rc"
	if [[ $name != crash-* && $cmdline == *selftest* ]] &&
		! grep -Eq '^selftest: [0-9]+ passed, 0 failed$' "$log"; then
		why="${why:+$why; }no 'selftest: N passed, 0 failed'"
	fi
	for re in "${f[@]:3}"; do
		grep -Eq -- "$re" "$log" || why="${why:+$why; }missing /$re/"
	done
	# One line per bad parameter, not two.
	if [[ $name == bad-* ]]; then
		local n
		n=$(grep -Ec '^(hz|HZ|timeslice|clockevent)=' "$log")
		[ "$n" -le 1 ] || why="${why:+$why; }$n parameter messages, not one"
	fi
	if [ -z "$why" ]; then
		echo "pass ($((SECONDS - t0)) s)" >"$res"
	else
		echo "fail $why" >"$res"
	fi
}

# The busiest guests (a 10 kHz PIT) run last, alone.
alone='^(pit-hz10000|bad-20000)$'
start=$SECONDS
running=0
for c in "${cases[@]}"; do
	name=${c%%$'\x1f'*}
	[[ $name =~ $filter ]] || continue
	[[ $name =~ $alone ]] && continue
	run_case "$c" &
	throttle
done
wait
for c in "${cases[@]}"; do
	name=${c%%$'\x1f'*}
	[[ $name =~ $filter && $name =~ $alone ]] && run_case "$c"
done

for c in "${cases[@]}"; do
	name=${c%%$'\x1f'*}
	[[ $name =~ $filter ]] && boot_result boot "$name"
done
echo "boot: matrix took $((SECONDS - start)) s of wall time with $JOBS parallel boots"
