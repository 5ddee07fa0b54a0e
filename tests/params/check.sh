#!/bin/bash
# Boot parameters under abuse: QEMU boots of the reference kernel (run by
# `make check`).
#
#  - hostile command lines (escape sequences, quoted newlines, control
#    bytes and bytes above 0x7e, overlong values, an unterminated quote,
#    4000 bytes of garbage) in hz=, nohz=, clockevent=, timeslice=,
#    idletest= and crash=: each boot must run to its end and exit through
#    the exit device; the console must hold no control character at all;
#    the cmdline: line must be one bounded line; and each parameter named
#    must have exactly one line, "name=value: why, using X";
#  - the kernel's own parameters read at boot: idletest=abc is reported
#    when the idle test does not run, crash=<unknown> is reported and does
#    not panic, and a mode that overrides others says so;
#  - console input typed before the shell starts (the first byte used to
#    be lost);
#  - idletest=3600 at hz=1000 on the PIT, whose 1 Hz timer runs every 1001
#    jiffies: 3596 beats in the hour, and the check must know it. Without a
#    local APIC (-cpu qemu32,-apic) the PIT sleeps in mode 0, so an hour of
#    tickless idle is about 70000 wakeups, seconds of emulation.
#
#	tests/params/check.sh [name-regex]
#
# At most two QEMUs at a time (JOBS), each under timeout; guest time from
# -icount as in tests/boot.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

qemu_suite params "$1"
BOOT_TIMEOUT=${BOOT_TIMEOUT:-60}
JOBS=${JOBS:-2}
[ "$JOBS" -le 2 ] || JOBS=2

build_kernels params "$out"

# ---- the command lines ----

ESC=$'\033'
BEL=$'\a'
NL=$'\n'
NOAPIC="-cpu qemu32,-apic" # the idle test's PIT sleeps in mode 0: seconds pass at once
# n copies of a string
rep() { # rep n string
	local s="" i
	for ((i = 0; i < $1; i++)); do s+=$2; done
	printf '%s' "$s"
}
# Every byte from 0x01 to 0xff but the quote, for one quoted value: the
# spaces inside stay the value's.
all_bytes() {
	local i ch s=""
	for ((i = 1; i < 256; i++)); do
		[ "$i" -eq 34 ] && continue
		printf -v ch "\\x$(printf %02x "$i")"
		s+=$ch
	done
	printf '%s' "$s"
}
# 4000 bytes of fixed garbage: any byte but NUL, with parameter names, '='
# and quotes more often than chance would give them.
garbage() {
	awk 'BEGIN {
		srand(7)
		nw = split("hz= nohz= clockevent= timeslice= idletest= crash= \" = \\", w, " ")
		while (n < 4000) {
			if (rand() < 0.1)
				s = w[int(rand() * nw) + 1]
			else
				s = sprintf("%c", int(rand() * 255) + 1)
			printf "%s", s
			n += length(s)
		}
	}'
}

# A case: name, build, extra QEMU arguments, command line, the exit status
# it must end with, the line it must reach (a regex), the parameters that
# must each get exactly one message line, then further regexes that must
# match a whole line. The fields are kept in parallel arrays.
names=()
declare -A c_build c_qemu c_cl c_rc c_end c_params c_want
add() { # add name build qemu-args cmdline rc end-regex params [regex...]
	local n=$1
	names+=("$n")
	c_build[$n]=$2
	c_qemu[$n]=$3
	c_cl[$n]=$4
	c_rc[$n]=$5
	c_end[$n]=$6
	c_params[$n]=$7
	shift 7
	local IFS=$'\x1f'
	c_want[$n]="$*"
}
SELFTEST_END='^selftest: [0-9]+ passed, 0 failed$'
POWEROFF_END='^dynhz: powering off$'
IDLE_END='^idletest: ok$' # a bad idletest= value still runs it, for 10 s

add hostile-escapes variable "$NOAPIC" \
	"hz=${ESC}[2J${ESC}[H nohz=${ESC}]0;owned${BEL} clockevent=${ESC}[31mred timeslice=${ESC}c idletest=${ESC}[5n crash=${ESC}[?1049h noshell" \
	33 "$IDLE_END" "hz nohz clockevent timeslice idletest crash" \
	'^hz=\\x1b\[2J\\x1b\[H: not a number, using 250$' \
	'^nohz=\\x1b\]0;owned\\x07: not on or off, using on$' \
	'^clockevent=\\x1b\[31mred: not a clock-event device \(pit, lapic\), using pit$' \
	'^idletest=\\x1b\[5n: not a number, using 10$' \
	'^crash=\\x1b\[\?1049h: not ud, div, gp or panic, using none$'
add hostile-newlines variable "" \
	"hz=\"3${NL}00\" nohz=\"o${NL}n\" clockevent=\"pit${NL}\" timeslice=\"1${NL}0\" idletest=\"1${NL}\" crash=\"ud${NL}\" selftest nowrap" \
	33 "$SELFTEST_END" "hz nohz clockevent timeslice idletest crash" \
	'^hz=3\\x0a00: trailing characters after the number, using 250$' \
	'^nohz=o\\x0an: not on or off, using on$' \
	'^crash=ud\\x0a: not ud, div, gp or panic, using none$' \
	'^selftest: overrides idletest$'
add hostile-bytes variable "$NOAPIC" \
	"hz=\"$(all_bytes)\" nohz=\"$(all_bytes)\" clockevent=\"$(all_bytes)\" timeslice=\"$(all_bytes)\" idletest=\"$(all_bytes)\" noshell" \
	33 "$IDLE_END" "hz nohz clockevent timeslice idletest" \
	'^hz=\\x01\\x02\\x03.*\.\.\.: not a number, using 250$'
add hostile-overlong variable "$NOAPIC" \
	"hz=$(rep 300 x) nohz=$(rep 300 o) clockevent=$(rep 300 p) timeslice=$(rep 300 9) idletest=$(rep 300 1) crash=$(rep 300 u) noshell" \
	33 "$IDLE_END" "hz nohz clockevent timeslice idletest crash" \
	"^hz=$(rep 61 x)\.\.\.: not a number, using 250$" \
	"^timeslice=$(rep 61 9)\.\.\.: number too large, using 10$" \
	"^idletest=$(rep 61 1)\.\.\.: number too large, using 10$" \
	'^cmdline: .{200,}\.\.\.$'
# The quote never closes: the rest of the line is timeslice='s value.
add hostile-unterminated variable "" \
	"noshell timeslice=\"7 idletest=${ESC}[2J hz=300 nohz=off" \
	33 "$POWEROFF_END" "timeslice" \
	'^timeslice=7 idletest=\\x1b\[2J hz=300 nohz=off: trailing characters after the number, using 10$' \
	'^time: hz=250 source=default '
add hostile-garbage variable "" "noshell $(garbage)" 33 "$POWEROFF_END" "" \
	'^cmdline: .{200,}\.\.\.$'
add hostile-constant constant "" \
	"hz=${ESC}[2J$(rep 100 0) nohz=\"${NL}\" noshell" \
	33 "$POWEROFF_END" "hz nohz" \
	"^hz=\\\\x1b\\[2J$(rep 54 0)\\.\\.\\.: HZ is fixed at 250 in this build, ignored$" \
	'^nohz=\\x0a: not on or off, using on$'
# The kernel's parameters are read at boot, whatever runs; crash= is a
# test hook, and an unknown value does not panic.
add boot-time-checks variable "" "crash=boom selftest=1 usertest init idletest=abc selftest nowrap" \
	33 "$SELFTEST_END" "crash idletest" \
	'^crash=boom: not ud, div, gp or panic, using none$' \
	'^idletest=abc: not a number, using 10$' \
	'^selftest: overrides usertest, idletest, init$'
add crash-overrides debug "" "crash=panic selftest" 35 \
	'^panic: kernel/main\.c:[0-9]+: crash=panic requested$' "" \
	'^crash: overrides selftest$'
add flag-value variable "" "noshell=yes" 33 "$POWEROFF_END" "noshell" \
	'^noshell=yes: a flag takes no value, using noshell$'
# Console input before the shell: fed at once, read after the demonstration.
add console-early-input variable "" "hz=250" 33 "$POWEROFF_END" "" \
	'^dynhz> hz$' '^clocks: tsc [0-9]+ Hz' '^dynhz> poweroff$'
# The hour of idle at hz=1000 on the PIT.
add idletest-3600 variable "$NOAPIC" "hz=1000 idletest=3600" 33 "$IDLE_END" "" \
	'^idletest: hz=1000 nohz=on seconds=3600 .* beats=3596 beats_due=3596 period=1001 '

# ---- one boot ----

# check_log name log rc: why it failed, or nothing.
check_log() {
	local n=$1 log=$2 rc=$3 why="" p re line
	[ "$rc" -eq "${c_rc[$n]}" ] || why="exit status $rc, not ${c_rc[$n]}"
	# The end, and nothing after it but the exit.
	grep -Eq -- "${c_end[$n]}" "$log" || why="${why:+$why; }did not reach /${c_end[$n]}/"
	# Not one control character or byte above 0x7e anywhere.
	line=$(grep -n '[^[:print:]]' "$log" | head -1)
	[ -z "$line" ] || why="${why:+$why; }raw byte on line ${line%%:*}"
	# The cmdline: line, one line, bounded, and the boot goes on after it.
	[ "$(grep -c '^cmdline: ' "$log")" -eq 1 ] || why="${why:+$why; }not one cmdline: line"
	line=$(grep '^cmdline: ' "$log")
	[ "${#line}" -le 249 ] || why="${why:+$why; }cmdline: line of ${#line} characters"
	grep -A1 '^cmdline: ' "$log" | tail -1 | grep -q '^tsc: ' ||
		why="${why:+$why; }the cmdline: line does not end where it should"
	# Each parameter named: one line, whole, saying what is used.
	for p in ${c_params[$n]}; do
		local lines
		lines=$(grep -c "^$p=" "$log")
		if [ "$lines" -ne 1 ]; then
			why="${why:+$why; }$lines lines for $p="
		elif ! grep "^$p=" "$log" |
			grep -Eq '(: [a-z].*, using [^ ]+|: HZ is fixed at [0-9]+ in this build, ignored)$'; then
			why="${why:+$why; }$p= line is not 'name=value: why, using X'"
		fi
	done
	# Any line about a parameter ends in what is used (or is the constant build's).
	if grep -E '^(hz|HZ|nohz|clockevent|timeslice|serial_poll|idletest|crash|selftest|usertest|init|noshell|nowrap)=' "$log" |
		grep -Ev ', using [^ ]+$|: HZ is fixed at [0-9]+ in this build, ignored$' | grep -q .; then
		why="${why:+$why; }a parameter line that does not say what is used"
	fi
	local IFS=$'\x1f'
	for re in ${c_want[$n]}; do
		grep -Eq -- "$re" "$log" || why="${why:+$why; }missing /$re/"
	done
	echo "$why"
}

run_case() { # run_case name
	local n=$1 log=$out/$1.log kernel=${elf[${c_build[$1]}]} t0=$SECONDS rc why
	if [ -z "$kernel" ]; then
		echo "fail no kernel" >"$out/$n.res"
		return
	fi
	local qemu_args
	read -ra qemu_args <<<"${c_qemu[$n]}"
	local cmd=(timeout "$BOOT_TIMEOUT" "$QEMU" -kernel "$kernel" -append "${c_cl[$n]}"
		"${icount[@]}" -rtc clock=vm -m 32 -display none -no-reboot
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 "${qemu_args[@]}")
	if [ "$n" = console-early-input ]; then
		# on QEMU's stdin from the start: the kernel has not even booted
		printf 'hz\npoweroff\n' | "${cmd[@]}" -serial stdio >"$log" 2>"$log.qemu"
	else
		"${cmd[@]}" -serial "file:$log" </dev/null >"$log.qemu" 2>&1
	fi
	rc=$?
	sed -i 's/\r$//' "$log"
	why=$(check_log "$n" "$log" "$rc")
	if [ -z "$why" ]; then
		echo "pass ($((SECONDS - t0)) s)" >"$out/$n.res"
	else
		echo "fail $why" >"$out/$n.res"
	fi
}

# The hour first: it is the longest.
order=(idletest-3600)
for n in "${names[@]}"; do
	[ "$n" = idletest-3600 ] || order+=("$n")
done
start=$SECONDS
running=0
for n in "${order[@]}"; do
	[[ $n =~ $filter ]] || continue
	run_case "$n" &
	throttle
done
wait

for n in "${names[@]}"; do
	[[ $n =~ $filter ]] && boot_result params "$n" 12
done
echo "params: took $((SECONDS - start)) s of wall time with $JOBS parallel boots"
