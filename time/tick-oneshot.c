// SPDX-License-Identifier: MIT
/*
 * High resolution: the tick device is one-shot for the whole boot, and one
 * place programs it, for the earlier of two events: the tick's next jiffy
 * on the grid (tick-sched.c) and the first hrtimer's latest expiry
 * (hrtimer.c), both as cycles of the clocksource. So the periodic tick is
 * a periodic timer on the device whose expiries are the exact jiffy grid:
 * jiffies, timekeeping and the wheel see the same jiffies as with a
 * periodic device, and tickless idle moves the tick's next event to the
 * jiffy of the next jiffies timer instead of stopping a periodic device.
 *
 * The tick is not an entry of the hrtimer queue but an event of its own
 * beside it: it is always there, it would cost the queue an update every
 * jiffy, and in cycles its expiry is exact (in ns it would be rounded).
 * At an event, the tick runs first (so every hrtimer callback sees jiffies
 * up to date), then the hrtimers due.
 */
#include <dynhz/tick.h>
#include <dynhz/clocksource.h>
#include <dynhz/jiffies.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>
#include "clockevent-internal.h"
#include "hrtimer-internal.h"
#include "tick-internal.h"
#include "timekeeping-internal.h"

#define NOT_PROGRAMMED U64_MAX

s64 dz_tick_hres_armed_ns = KTIME_MIN;

static struct {
	bool in_handler;  /* the device's interrupt runs: it programs at its end */
	bool stopped;	  /* idle: the tick's next event is the next timer's jiffy */
	bool armed_known; /* dz_tick_hres_armed_ns is the bound for programmed */
	u64 tick_cyc;	  /* the cycle of the tick's next event */
	u64 programmed;	  /* the cycle the device is programmed for */
} hs;

/* The monotonic time at cycle c, rounded down (what ktime_get_ns() reads then). */
static s64 cycles_to_ns(u64 c)
{
	u64 raw = dz_timekeeping_base_ns() + dz_clocksource_cyc2ns(dz_timekeeping_clocksource(), c);

	return ns_to_ktime(dz_timekeeping_raw_to_mono(raw));
}

/*
 * The device will come at cycle c. A key needs it earlier when it maps to
 * an earlier cycle (dz_tick_ns_to_cycles(key) < c): when it is before the
 * time one cycle earlier, rounded down, plus 1 ns. That bound costs a
 * conversion, so it is worked out when a start first needs it (below);
 * till then the bound is KTIME_MAX: every start asks. For an hrtimer's
 * event its own key is bound enough (a key before it may map to the same
 * cycle: a needless, harmless reprogramming).
 */
static void program(u64 c, s64 key)
{
	hs.programmed = c;
	hs.armed_known = key != KTIME_MAX;
	dz_tick_hres_armed_ns = key;
	dz_tick_program_cycles(c);
}

/* The earlier of the tick and the first hrtimer; the device is told if it changed. */
static void program_next(void)
{
	u64 next = hs.tick_cyc;
	s64 key = dz_hrtimer_next_key(), bound = KTIME_MAX;

	if (key != KTIME_MAX) {
		u64 c = dz_tick_ns_to_cycles(key);

		if (c < next) {
			next = c;
			bound = key;
		}
	}
	if (next != hs.programmed)
		program(next, bound);
}

void dz_tick_hres_retarget(void)
{
	if (dz_tick_mode == TICK_HRES && !hs.in_handler)
		program_next();
}

/*
 * NTP changed the rate: the cycle of the first hrtimer and the bound for
 * the next start were worked out at the old one. A slower clock would
 * find the timer not due (it waits, never runs early), a faster one would
 * run it late: the device is programmed afresh. The tick's own cycle is
 * on the raw grid and stays.
 */
void dz_tick_hres_rate_changed(void)
{
	if (dz_tick_mode != TICK_HRES || hs.in_handler)
		return;
	hs.programmed = NOT_PROGRAMMED;
	program_next();
}

void dz_tick_hres_earlier(s64 key)
{
	u64 c;

	if (dz_tick_mode != TICK_HRES || hs.in_handler)
		return;
	if (!hs.armed_known) {
		hs.armed_known = true;
		dz_tick_hres_armed_ns =
			hs.programmed ? cycles_to_ns(hs.programmed - 1) + 1 : KTIME_MIN;
		if (key >= dz_tick_hres_armed_ns)
			return;
	}
	c = dz_tick_ns_to_cycles(key);
	if (c < hs.programmed)
		program(c, key);
}

void dz_tick_hres_set_tick(u64 j, bool stopped)
{
	hs.stopped = stopped;
	hs.tick_cyc = dz_tick_grid_cycles(j);
	if (!hs.in_handler)
		program_next();
}

bool dz_tick_hres_stopped(void)
{
	return hs.stopped;
}

bool dz_tick_hres_skippable(void)
{
	return !hs.stopped && hs.programmed == hs.tick_cyc;
}

/* The tick's part of an event: jiffies up to the grid, the wheel, the next tick. */
static bool hres_tick(u64 now)
{
	u64 next;

	if (hs.stopped) {
		/* Idle: jiffies caught up for the callbacks, whatever woke the CPU. */
		dz_tick_grid_catch_up(now, true);
		if (now >= hs.tick_cyc)
			hs.tick_cyc = dz_tick_grid_cycles(jiffies_64 + dz_tick_nohz_next_delta());
		return true;
	}
	if (now < hs.tick_cyc)
		return false; /* an hrtimer's event */
	next = dz_tick_grid_cycles(jiffies_64 + 2);
	if (likely(now < next)) {
		/* The jiffy it was programmed for, and no later one: no conversion needed. */
		dz_tick_grid_next();
		hs.tick_cyc = next;
		return true;
	}
	dz_tick_grid_catch_up(now, false); /* the interrupt came late */
	hs.tick_cyc = dz_tick_grid_cycles(jiffies_64 + 1);
	return true;
}

/* The device's interrupt in high resolution. */
static void hres_interrupt(struct clock_event_device *dev)
{
	u64 now = dz_timekeeping_cycles();
	bool ticked;

	(void)dev;
	hs.in_handler = true;
	hs.programmed = NOT_PROGRAMMED; /* that event has come */
	dz_tick_hres_armed_ns = KTIME_MIN;
	dz_tick_count_interrupt();
	ticked = hres_tick(now);
	if (dz_hrtimer_queued)
		dz_hrtimer_run(cycles_to_ns(now));
	hs.in_handler = false;
	program_next();
	if (ticked)
		dz_tick_run_hook();
}

const char *dz_tick_oneshot_init(struct clock_event_device *dev, bool highres, u64 started)
{
	static char why[64];
	const char *missing = dz_tick_grid_missing();

	hs.in_handler = false;
	hs.stopped = false;
	hs.programmed = NOT_PROGRAMMED;
	dz_tick_hres_armed_ns = KTIME_MIN;
	if (!highres)
		return "tick resolution (highres=off)";
	if (missing) {
		if (!dz_clockevents_oneshot(dev))
			dz_snprintf(why, sizeof(why), "tick resolution (%s has no one-shot)",
				    dev->name);
		else if (!dz_timekeeping_clocksource())
			dz_snprintf(why, sizeof(why), "tick resolution (no clocksource)");
		else
			dz_snprintf(why, sizeof(why), "tick resolution (no exact jiffy grid)");
		return why;
	}
	/*
	 * The grid starts where the device did: jiffy jiffies_64 + n begins n
	 * periods on, as the device's own periodic ticks would, so that a port
	 * that counts its device's periods since its start finds jiffies.
	 */
	dz_hrtimers_set_resolution(true);
	dz_tick_grid_anchor(started & dz_timekeeping_clocksource()->mask, jiffies_64);
	dz_tick_mode = TICK_HRES;
	hs.tick_cyc = dz_tick_grid_cycles(jiffies_64 + 1);
	dev->event_handler = hres_interrupt;
	program_next();
	return NULL;
}

void dz_tick_oneshot_exit(void)
{
	hs.in_handler = false;
	hs.stopped = false;
	hs.programmed = NOT_PROGRAMMED;
	dz_tick_hres_armed_ns = KTIME_MIN;
}

/* Back to the periodic tick (the clocksource changed): hrtimers follow it. */
void dz_tick_oneshot_stop(void)
{
	struct clock_event_device *dev = dz_tick_device();
	struct dz_tick_period p, want = dz_hz_period();

	hs.stopped = false;
	hs.programmed = NOT_PROGRAMMED;
	dz_tick_hres_armed_ns = KTIME_MIN;
	dz_hrtimers_set_resolution(false);
	dz_tick_mode = TICK_PERIODIC;
	dev->event_handler = dz_tick_handle_periodic;
	dz_tick_hrtimers_queued(dz_hrtimer_queued != 0);
	if (dz_clockevents_set_periodic(dev, HZ, &p) || p.num != want.num || p.den != want.den)
		dz_panic("hrtimer: clockevent %s cannot resume its periodic tick", dev->name);
}

void dz_tick_hres_retune(void)
{
	/* The device was asked for the new period (periodic): one-shot again, on the new grid. */
	hs.stopped = false;
	hs.programmed = NOT_PROGRAMMED;
	dz_tick_hres_armed_ns = KTIME_MIN;
	hs.tick_cyc = dz_tick_grid_cycles(jiffies_64 + 1);
	if (!hs.in_handler)
		program_next();
}
