/* SPDX-License-Identifier: MIT */
/*
 * hzadvise: the default cost of a timer tick, measured, not guessed.
 *
 * Where the numbers come from: bench/tickcost (`make bench`, or
 * `bash bench/tickcost/run.sh`), run on 2026-12-03 with gcc 12.2 -O2 and
 * QEMU 7.2. The reference kernel measures itself (ticktest=200,
 * kernel/test/ticktest.c) under `qemu-system-i386 -icount shift=0,sleep=off`,
 * where guest time is instructions, so the counts are exact and the same
 * on every run and every host:
 *   - a tick with nothing due, on the PIT, interrupting a busy CPU: 193
 *     instructions, the whole software path (entry stub, dispatch, the
 *     PIT's handler, jiffies, timekeeping, the timer wheel, the scheduler's
 *     tick, exit hook, iret); the same at HZ 100, 250, 1000 and 10000,
 *     periodic or nohz=on (a busy CPU keeps its tick). With the LAPIC
 *     timer as the tick device it is 260;
 *   - a tick that runs timers: 137 more once, then 20 per due timer
 *     (1, 10 and 100 timers due in one tick; the slope from 1 to 100).
 * The loop the tick interrupts loses what these predict: 0.019 % of its
 * throughput at HZ=1000 on a guest of 1 instruction per ns.
 *
 * The tool turns instructions into time at 1 instruction per ns (a 1 GHz
 * CPU retiring one instruction a cycle, the rate of the measurement above)
 * unless the user gives the tick's cost in time with --tick-cost-ns. These
 * are instructions only: on hardware the interrupt's own entry and exit
 * and the cache lines it disturbs come on top, which --tick-cost-ns can
 * account for.
 *
 * bench/tickcost says on every run how far these are from what it just
 * measured ("tickcost.h defaults: within X % of this run").
 */
#ifndef HZADVISE_TICKCOST_H
#define HZADVISE_TICKCOST_H

/* Instructions of one tick interrupt with no timer due. */
#define HZ_TICK_COST_EMPTY_INSNS 193

/* Instructions each due timer adds to its tick (a callback that does nothing). */
#define HZ_TICK_COST_TIMER_INSNS 20

/* Instructions a tick that runs any timer adds once, besides the per-timer cost. */
#define HZ_TICK_COST_RUN_TIMERS_INSNS 137

/* The default rate from instructions to time; --tick-cost-ns replaces the result. */
#define HZ_TICK_COST_NS_PER_INSN 1

#endif
