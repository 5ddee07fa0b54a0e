#!/bin/bash
# bench/tickcost: what the timer tick costs in the reference kernel, measured
# by the kernel itself (ticktest=, kernel/test/ticktest.c) under QEMU -icount,
# where guest time is instructions: at shift=S each instruction is 2^S ns
# and the TSC counts ns (1 GHz). Per HZ (100, 250, 1000, 10000) and mode
# (periodic: nohz=off; tickless: nohz=on), on the PIT:
#   - instructions and guest cycles of one tick interrupt with nothing due
#     (entry, handler, exit: the whole software path);
#   - instructions per due timer (1, 10 and 100 timers due in one tick);
#   - the throughput a CPU-bound loop loses to the tick, against the same
#     loop with interrupts off, next to the loss predicted from the tick's
#     instructions x ticks per second / the guest's instructions per second.
# Then more rows at HZ 1000: the LAPIC timer as the tick, the periodic
# tick of highres=off (on the PIT and on the LAPIC timer: the tick as it
# was before high-resolution timers, when the device ticked periodically),
# and shift=2 (a guest 4 times slower: same instructions, 4 times the
# cycles and loss).
# The main rows run at shift=0, one instruction per ns: the rate at which
# tools/hzadvise turns instructions into time by default.
#
# Writes build/bench/tickcost.txt (the kernel's ticktest: lines, each case
# after a "# case" line), says whether "HZ=1000 costs less than 1 %"
# (Con Kolivas) holds here, and how far the defaults committed in
# tools/hzadvise/tickcost.h are from this run.
#
# TICKCOST_TICKS=N changes the ticks per measurement (default 200).
set -eo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
export LC_ALL=C

out=build/bench/tickcost
ticks=${TICKCOST_TICKS:-200}
header=tools/hzadvise/tickcost.h
# shellcheck disable=SC2034 # qemu_boot (scripts/lib.sh) runs it
QEMU=${QEMU_SYS:-qemu-system-i386}
JOBS=2
mkdir -p "$out"
rm -f "$out"/*.log "$out"/*.qemu "$out"/*.rc

if ! make --no-print-directory kernel >"$out/make.log" 2>&1; then
	tail -30 "$out/make.log" >&2
	echo "tickcost: kernel build failed (log: $out/make.log)" >&2
	exit 1
fi
kernel=$(make --no-print-directory print-kernel)

# name|shift|cmdline; the slowest guests first (HZ 100: 2 x 200 ticks = 4 s).
cases=()
for hz in 100 250 1000 10000; do
	cases+=("hz$hz-periodic|0|hz=$hz nohz=off" "hz$hz-nohz|0|hz=$hz nohz=on")
done
cases+=("hz1000-periodic-lapic|0|hz=1000 nohz=off clockevent=lapic")
# The periodic tick of tick resolution, as the default was before high resolution.
cases+=("hz1000-periodic-highres-off|0|hz=1000 nohz=off highres=off")
cases+=("hz1000-periodic-lapic-highres-off|0|hz=1000 nohz=off clockevent=lapic highres=off")
cases+=("hz1000-periodic-shift2|2|hz=1000 nohz=off")

run_case() { # run_case name shift cmdline
	# shellcheck disable=SC2034 # qemu_boot's guest time, per case
	local icount=(-icount "shift=$2,sleep=off")
	local rc=0
	qemu_boot 120 "$kernel" "$3 ticktest=$ticks" "$out/$1.log" || rc=$?
	echo "$rc" >"$out/$1.rc"
}

start=$SECONDS
running=0
for c in "${cases[@]}"; do
	IFS='|' read -r name shift cmdline <<<"$c"
	run_case "$name" "$shift" "$cmdline" &
	throttle
done
wait
wall=$((SECONDS - start))

# The machine-readable lines, and the cases that did not end well.
failed=()
: >build/bench/tickcost.txt
for c in "${cases[@]}"; do
	IFS='|' read -r name shift cmdline <<<"$c"
	echo "# case=$name icount_shift=$shift cmdline=$cmdline ticktest=$ticks" >>build/bench/tickcost.txt
	grep -a '^ticktest: ' "$out/$name.log" >>build/bench/tickcost.txt || true
	if [ "$(cat "$out/$name.rc")" != 33 ] || ! grep -q '^ticktest: ok$' "$out/$name.log"; then
		failed+=("$name")
	fi
done

def_empty=$(sed -n 's/^#define HZ_TICK_COST_EMPTY_INSNS[[:space:]]*\([0-9]*\).*/\1/p' "$header")
def_timer=$(sed -n 's/^#define HZ_TICK_COST_TIMER_INSNS[[:space:]]*\([0-9]*\).*/\1/p' "$header")

echo "The timer tick in the reference kernel, measured by the kernel under QEMU -icount"
echo "($ticks ticks per measurement; a tick interrupts a CPU-bound loop on the PIT unless"
echo "said; guest TSC 1 GHz; shift=0: 1 instruction per ns, 1 cycle per instruction)."
echo
awk -v def_empty="$def_empty" -v def_timer="$def_timer" -f bench/tickcost/report.awk \
	build/bench/tickcost.txt
echo "Raw lines: build/bench/tickcost.txt ($wall s of wall time for ${#cases[@]} boots," \
	"$JOBS at a time)"
if [ ${#failed[@]} -ne 0 ]; then
	for f in "${failed[@]}"; do
		echo "tickcost: $f did not finish (exit $(cat "$out/$f.rc")); log: $out/$f.log" >&2
		tail -5 "$out/$f.log" >&2
	done
	exit 1
fi
