#!/bin/bash
# bench/retune-kernel: the interrupt-off window a change of HZ costs the
# reference kernel (issue 14), measured by the kernel itself (retunebench,
# kernel/test/retunebench.c) under QEMU -icount shift=0, where the TSC counts
# guest nanoseconds and each instruction is one: from the start of the PIT
# interrupt that applies the change to the end of the last retune hook,
# with 1, 1000, 100000 and 1000000 jiffies timers pending, HZ 1000 <-> 250,
# eight changes each (min, median, max); and the longest batch of timers
# moved after each change, interrupts off (the timers are not moved at
# the boundary: issue 23). The hosted instruction counts of the
# same change are the core's (bench/retune, if present).
#
# Writes build/bench/retune-kernel/retunebench.log.
set -eo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
export LC_ALL=C

out=build/bench/retune-kernel
# shellcheck disable=SC2034 # qemu_boot (scripts/lib.sh) runs it
QEMU=${QEMU_SYS:-qemu-system-i386}
# shellcheck disable=SC2034
icount=(-icount shift=0,sleep=off)
mkdir -p "$out"
if ! make --no-print-directory kernel >"$out/make.log" 2>&1; then
	tail -30 "$out/make.log" >&2
	echo "retune-kernel: kernel build failed (log: $out/make.log)" >&2
	exit 1
fi
kernel=$(make --no-print-directory print-kernel)
log=$out/retunebench.log
export QEMU_ARGS="-m 128" # a million timers: 24 MB of them
rc=0
qemu_boot 300 "$kernel" "hz=1000 nohz=off highres=off retunebench" "$log" || rc=$?
if [ "$rc" -ne 33 ] || ! grep -q '^retunebench: done$' "$log"; then
	tail -20 "$log" >&2
	echo "retune-kernel: the boot failed (exit status $rc)" >&2
	exit 1
fi
echo "interrupt-off windows of a change of HZ (1000 <-> 250, PIT periodic, -icount shift=0):"
sed -n 's/^retunebench: timers=/  timers=/p' "$log"
