#!/bin/bash
# QEMU checks of the kernel's tick-cost measurement, ticktest=<ticks>
# (kernel/test/ticktest.c; the figures themselves are bench/tickcost's), run by
# `make check` so that the measurement cannot rot. A few short boots:
#   - hz=100 nohz=on and hz=10000 nohz=off, 20 ticks each: the lines are
#     there and sane against bounds of their own: under -icount, cycles per
#     instruction is 2^shift; an empty tick is more than 0 and fewer than
#     100000 instructions, and its cycles are its instructions times that;
#     100 due timers cost more than 10, 10 more than 1, 1 more than none;
#     the loop's loss agrees with the one predicted from the gaps (two
#     different measurements: throughput, and the TSC around each tick);
#     and the loss at HZ 10000 is above the loss at HZ 100;
#   - bad values: ticktest=abc is "not a number, using 100", ticktest=0
#     "out of range 1..10000, using 1", one line each, and the measurement
#     still runs to its end with that many ticks.
# Guest time from -icount as in tests/boot (ICOUNT replaces it); at most
# two QEMUs at a time.
#
#	tests/tickcost/check.sh [name-regex]
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

qemu_suite tickcost "$1"
JOBS=2

# The variable build only: the measurement is the same code in the others.
kernel=""
if make --no-print-directory kernel >"$out/build.log" 2>&1; then
	kernel=$(make --no-print-directory print-kernel)
else
	record fail "tickcost: build kernel"
	tail -20 "$out/build.log" >&2
fi

# name|cmdline|ticks the kernel must use|the bad-value line, if any
cases=(
	"hz10000-periodic|hz=10000 nohz=off ticktest=20|20|"
	"hz100-nohz|hz=100 nohz=on ticktest=20|20|"
	"bad-abc|hz=1000 ticktest=abc|100|ticktest=abc: not a number, using 100"
	"bad-zero|hz=1000 ticktest=0|1|ticktest=0: out of range 1..10000, using 1"
)
checks=(ended calibration empty due loop message)

# The cycles per instruction -icount makes, when its shift is a number.
want_cpi=""
for a in "${icount[@]}"; do
	[[ $a =~ shift=([0-9]+) ]] && want_cpi=$((1 << BASH_REMATCH[1]))
done

field() { # field line name: the value of name= in line
	sed -n "s/.* $2=\([0-9.]*\).*/\1/p" <<<"$1"
}

# judge log rc ticks message: one "<check> pass|fail <why>" line per check
judge() {
	local log=$1 rc=$2 ticks=$3 msg=$4
	local cal empty due1 due10 due100 loop sum
	cal=$(grep -m1 '^ticktest: calibration ' "$log")
	empty=$(grep -m1 '^ticktest: empty ' "$log")
	due1=$(grep -m1 '^ticktest: due .* timers=1 ' "$log")
	due10=$(grep -m1 '^ticktest: due .* timers=10 ' "$log")
	due100=$(grep -m1 '^ticktest: due .* timers=100 ' "$log")
	loop=$(grep -m1 '^ticktest: loop ' "$log")
	sum=$(grep -m1 '^ticktest: hz=' "$log")

	if [ "$rc" -eq 33 ] && grep -q '^ticktest: ok$' "$log" && [ -n "$sum" ]; then
		echo "ended pass"
	else
		echo "ended fail exit status $rc, $(grep -c '^ticktest: ok$' "$log") ok lines, summary '${sum:-missing}'"
	fi

	local cpi exact
	cpi=$(field "$cal" cycles_per_insn)
	exact=$(sed -n 's/.* icount=\([a-z]*\).*/\1/p' <<<"$cal")
	if [ "$exact" = exact ] && [ -n "$cpi" ] &&
		{ [ -z "$want_cpi" ] || [ "$cpi" = "$want_cpi.000" ]; }; then
		echo "calibration pass"
	else
		echo "calibration fail '${cal:-missing}' (want icount=exact, cycles_per_insn=${want_cpi:-any}.000)"
	fi

	local ei ec n c1 c10 c100
	ei=$(field "$empty" insns)
	ec=$(field "$empty" cycles)
	n=$(field "$empty" ticks)
	local cpi_int=${cpi%.*}
	if [ -n "$ei" ] && [ "$ei" -gt 0 ] && [ "$ei" -lt 100000 ] && [ "$n" = "$ticks" ] &&
		[ "$ec" -ge $((ei * cpi_int - cpi_int)) ] && [ "$ec" -le $((ei * cpi_int + cpi_int)) ]; then
		echo "empty pass"
	else
		echo "empty fail '${empty:-missing}' (want 0 < insns < 100000, cycles = insns x $cpi, ticks=$ticks)"
	fi

	c1=$(field "$due1" insns)
	c10=$(field "$due10" insns)
	c100=$(field "$due100" insns)
	if [ -n "$c1" ] && [ -n "$c10" ] && [ -n "$c100" ] && [ "$c1" -gt "$ei" ] &&
		[ "$c10" -gt "$c1" ] && [ "$c100" -gt "$c10" ]; then
		echo "due pass"
	else
		echo "due fail empty $ei, 1 timer ${c1:-?}, 10 ${c10:-?}, 100 ${c100:-?} (want increasing)"
	fi

	# The loop's lost instructions per tick against the empty tick's mean,
	# within 10 % (20 % for a single tick: the run's own start and stop
	# are in its loss).
	local lost mean tol=10
	lost=$(field "$loop" lost_insns_per_tick)
	mean=$(field "$empty" mean_insns)
	[ "$ticks" -lt 10 ] && tol=20
	if [ -n "$lost" ] && [ -n "$mean" ] && [ "$(field "$loop" loss_ppb)" -gt 0 ] &&
		awk -v l="$lost" -v m="$mean" -v t="$tol" 'BEGIN { exit !(m > 0 && l >= m * (1 - t / 100) && l <= m * (1 + t / 100)) }'; then
		echo "loop pass"
	else
		echo "loop fail '${loop:-missing}' against an empty tick of ${mean:-?} insns (want within $tol %)"
	fi

	if [ -z "$msg" ]; then
		if grep -q '^ticktest=' "$log"; then
			echo "message fail unexpected: $(grep -m1 '^ticktest=' "$log")"
		else
			echo "message pass"
		fi
	elif [ "$(grep -c '^ticktest=' "$log")" = 1 ] && grep -qxF "$msg" "$log"; then
		echo "message pass"
	else
		echo "message fail want the one line '$msg', got '$(grep '^ticktest=' "$log" | head -3)'"
	fi
}

run_case() {
	local name=$1 cmdline=$2 ticks=$3 msg=$4
	local log=$out/$name.log
	if [ -z "$kernel" ]; then
		for c in "${checks[@]}"; do echo "$c fail no kernel"; done >"$out/$name.res"
		return
	fi
	qemu_boot 60 "$kernel" "$cmdline" "$log"
	local rc=$?
	judge "$log" "$rc" "$ticks" "$msg" >"$out/$name.res"
}

start=$SECONDS
running=0
for c in "${cases[@]}"; do
	IFS='|' read -r name cmdline ticks msg <<<"$c"
	[[ $name =~ $filter ]] || continue
	run_case "$name" "$cmdline" "$ticks" "$msg" &
	throttle
done
wait
for c in "${cases[@]}"; do
	IFS='|' read -r name _ <<<"$c"
	[[ $name =~ $filter ]] || continue
	case_results tickcost "$name" "$out" ticktest "${checks[@]}"
done

# Across boots: more ticks a second cost more of the loop.
if [[ hz100-nohz =~ $filter ]] && [[ hz10000-periodic =~ $filter ]]; then
	lo=$(sed -n 's/^ticktest: loop .* loss_ppb=\([0-9]*\).*/\1/p' "$out/hz100-nohz.log" 2>/dev/null)
	hi=$(sed -n 's/^ticktest: loop .* loss_ppb=\([0-9]*\).*/\1/p' "$out/hz10000-periodic.log" 2>/dev/null)
	if [ -n "$lo" ] && [ -n "$hi" ] && [ "$hi" -gt "$lo" ]; then
		report "tickcost: loss at HZ 10000 above HZ 100"
	else
		report "tickcost: loss at HZ 10000 above HZ 100" \
			"loss_ppb at HZ 10000 '${hi:-missing}', at HZ 100 '${lo:-missing}'"
	fi
fi
echo "tickcost: took $((SECONDS - start)) s of wall time with $JOBS parallel boots"
