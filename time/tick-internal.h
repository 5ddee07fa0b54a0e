/* SPDX-License-Identifier: MIT */
/*
 * What the periodic tick (tick-common.c), tickless idle and the jiffy grid
 * (tick-sched.c) and high resolution (tick-oneshot.c) share. Nothing
 * outside time/ includes this.
 */
#ifndef DYNHZ_TICK_INTERNAL_H
#define DYNHZ_TICK_INTERNAL_H

#include <dynhz/tick.h>
#include <dynhz/clockevent.h>

/*
 * The tick's mode. Only TICK_PERIODIC is handled inline by the periodic
 * handler; ANCHOR, STOPPED and RESUMING go to dz_tick_sched_handle();
 * with TICK_HRES the device's handler is tick-oneshot.c's own.
 */
enum dz_tick_mode {
	TICK_ANCHOR,   /* periodic, the first tick will anchor the grid */
	TICK_PERIODIC, /* periodic */
	TICK_STOPPED,  /* idle: one-shot at the next timer's jiffy */
	TICK_RESUMING, /* busy again: one-shot at resume_j, then periodic */
	TICK_HRES,     /* one-shot for ever: the tick is a timer on the grid */
};
extern enum dz_tick_mode dz_tick_mode;

/* tick-common.c: one busy jiffy (jiffies, timekeeping, the wheel, hrtimers). */
void dz_tick_periodic(void);

/* tick-common.c: jiffies_64 and jiffies move n forward, checked in debug. */
void dz_tick_advance(u64 n);

/* tick-common.c: the device's handler in the periodic modes. */
void dz_tick_handle_periodic(struct clock_event_device *dev);

/*
 * tick-common.c: hrtimers are queued (or no longer) at tick resolution: the
 * periodic handler that checks them at every tick (or the one that does not).
 */
void dz_tick_hrtimers_queued(bool queued);

/* tick-common.c: the port's hook, if any, once per interrupt that ticked. */
void dz_tick_run_hook(void);

/* tick-sched.c: reads nohz=on|off and highres=on|off (reporting anything else; on is used). */
bool dz_tick_nohz_parse(const char *cmdline);
bool dz_tick_highres_parse(const char *cmdline);

/*
 * tick-sched.c: lays the jiffy grid on the clocksource for a boot on dev
 * with this period, if it can, and sets tickless idle up; returns NULL if
 * tickless idle is on, or why the tick stays periodic.
 */
const char *dz_tick_sched_init(struct clock_event_device *dev, struct dz_tick_period period,
			       bool nohz);

/* tick-sched.c: NULL if there is a jiffy grid, or why not (for the hrtimer report). */
const char *dz_tick_grid_missing(void);

/* tick-sched.c: the grid's jiffy j begins now, at cycle cyc of the clocksource. */
void dz_tick_grid_anchor(u64 cyc, u64 j);

/* tick-sched.c: the running tick's jiffy, one on from jiffies: jiffies, timekeeping, the wheel. */
void dz_tick_grid_next(void);

/* tick-sched.c: the clocksource cycle at which jiffy j begins. */
u64 dz_tick_grid_cycles(u64 j);

/*
 * tick-sched.c: accounts every jiffy begun by cycle now on the grid, in one
 * step, and runs the wheel's timers due; counted as caught up after idle
 * or as ticks of the running tick. Returns how many.
 */
u64 dz_tick_grid_catch_up(u64 now, bool idle);

/*
 * tick-sched.c: jiffies from now to the next jiffies timer (at least 1),
 * bounded by what the clocksource can span.
 */
u64 dz_tick_nohz_next_delta(void);

/*
 * tick-sched.c: the first clocksource cycle at which ktime_get_ns() >= ns,
 * at the current rate (0 if passed).
 */
u64 dz_tick_ns_to_cycles(s64 ns);

/* tick-sched.c: one interrupt of the device at cycle c (at once if passed). */
void dz_tick_program_cycles(u64 c);

/* tick-sched.c: counts an interrupt of the device in dz_tick_stats(). */
void dz_tick_count_interrupt(void);

/* tick-sched.c: the device's interrupt in the modes ANCHOR, STOPPED and RESUMING. */
void dz_tick_sched_handle(void);

/* tick-sched.c: timekeeping changed clocksources: the grid is gone. */
void dz_tick_clocksource_changed(void);

/*
 * tick-oneshot.c: high resolution for a boot on dev: NULL when it is on
 * (the device is one-shot from now on, TICK_HRES), or why hrtimers stay
 * at tick resolution. The device was started periodic at most started
 * cycles (of the clocksource, masked) into the epoch: the grid's origin.
 */
const char *dz_tick_oneshot_init(struct clock_event_device *dev, bool highres, u64 started);

/* tick-oneshot.c: forgets high resolution (the tick device is let go). */
void dz_tick_oneshot_exit(void);

/* tick-oneshot.c: leaves high resolution for the periodic tick. */
void dz_tick_oneshot_stop(void);

/* tick-oneshot.c: the tick's next event is the start of jiffy j (stopped: for idle). */
void dz_tick_hres_set_tick(u64 j, bool stopped);
bool dz_tick_hres_stopped(void);

/*
 * tick-oneshot.c: the tick runs and the device's next event is its own
 * (not an hrtimer's, nor one left for a timer cancelled since): ticks can
 * be skipped, the time then being the last skipped tick's.
 */
bool dz_tick_hres_skippable(void);

/*
 * tick-oneshot.c: the first hrtimer may have changed: programs the device
 * for the earlier of it and the tick (outside the device's interrupt, which
 * does it when it ends).
 */
void dz_tick_hres_retarget(void);

/*
 * tick-oneshot.c: monotonic time changed its rate (NTP): the device is
 * programmed afresh for the first hrtimer (outside the device's interrupt,
 * which does it when it ends).
 */
void dz_tick_hres_rate_changed(void);

/*
 * tick-oneshot.c: an hrtimer queued with a key (monotonic ns) before this
 * needs the device earlier than it is programmed for: dz_tick_hres_earlier()
 * programs it. KTIME_MIN while nothing is to be done (no high resolution,
 * or inside the device's interrupt, which programs it when it ends).
 */
extern s64 dz_tick_hres_armed_ns;
void dz_tick_hres_earlier(s64 key);

/*
 * HZ changes at this tick (time/retune.c). tick-sched.c: prepare builds the
 * grid's conversions for the new period (0, or -DZ_ERANGE and nothing
 * changes); retune lays the grid anew: jiffy anchor_j begins at cycle
 * anchor_cyc, each later one a new period on. tick-oneshot.c: the tick's
 * next event is the next jiffy of the new grid.
 */
int dz_tick_sched_retune_prepare(struct dz_tick_period period);
void dz_tick_sched_retune(u64 anchor_cyc, u64 anchor_j);
void dz_tick_hres_retune(void);

/* tick-common.c: the next tick of the device ends in dz_hz_retune_boundary(). */
void dz_tick_retune_arm(void);

/* retune.c: at a tick that ran (interrupts off): applies a requested change. */
void dz_hz_retune_boundary(void);

#endif
