// SPDX-License-Identifier: MIT
/*
 * Tickless idle (nohz=on, the default; nohz=off keeps the tick periodic).
 *
 * While the CPU idles, the periodic tick stops and the device fires
 * one-shot at the next timer's jiffy; jiffies then catch up from the
 * clocksource in one step. See include/dynhz/tick.h for the contract.
 *
 * The grid: jiffy anchor_j + n begins anchor_cyc + n * period cycles into
 * the clocksource's total (rounded up to a whole cycle). It must be the
 * device's own grid, never ahead of it (a jiffy counted early would run
 * timers early) and as little behind as can be (a jiffy counted late runs
 * them late). A periodic tick counted at a time tells that its jiffy had
 * begun by then: the first tick gives the anchor, and each idle entry while
 * the tick is periodic moves it earlier if it shows that the jiffy began
 * earlier. So a first tick that came late (its interrupt held off while the
 * boot report was printed) does not make every later catch-up short by as
 * many jiffies.
 */
#include <dynhz/tick.h>
#include <dynhz/timer.h>
#include <dynhz/clocksource.h>
#include <dynhz/bootparam.h>
#include <dynhz/jiffies.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>
#include "clockevent-internal.h"
#include "tick-internal.h"
#include "timer-internal.h"
#include "timekeeping-internal.h"

static struct {
	bool nohz; /* nohz=on, and the hardware allows it */
	u64 anchor_cyc, anchor_j;
	u64 resume_j;
	struct dz_conv cyc2tick; /* cycles -> whole jiffies, down */
	struct dz_conv tick2cyc; /* jiffies -> cycles, up */
	struct clocksource *cs;	 /* the grid's clocksource */
	struct dz_tick_stats stats;
} ts;

static bool value_is(const struct dz_param *p, const char *v)
{
	size_t i = 0;

	for (; i < p->val_len && v[i]; i++)
		if (p->val[i] != v[i])
			return false;
	return i == p->val_len && !v[i];
}

bool dz_tick_nohz_parse(const char *cmdline)
{
	static const char *const names[] = { "nohz", NULL };
	struct dz_param p;

	if (!dz_cmdline_find(cmdline, names, &p) || (p.val && value_is(&p, "on")))
		return true;
	if (p.val && value_is(&p, "off"))
		return false;
	dz_param_report(&p, p.val && p.val_len ? "not on or off" : "empty value", "on");
	return true;
}

/*
 * What tickless idle needs: a one-shot device, a clocksource, an exact grid.
 * Returns NULL when all is there, or why the tick stays periodic.
 */
static const char *grid_setup(struct clock_event_device *dev, struct dz_tick_period period)
{
	struct clocksource *cs = dz_timekeeping_clocksource();
	struct dz_rate cyc, ticks = { period.den, period.num };

	if (!dz_clockevents_oneshot(dev))
		return "off, the clockevent has no one-shot mode";
	if (!cs)
		return "off, no clocksource to measure idle time";
	cyc = (struct dz_rate){ cs->freq_hz, 1 };
	if (dz_conv_init(&ts.cyc2tick, cyc, ticks, DZ_ROUND_DOWN, U64_MAX, U64_MAX, DZ_SHAPE_WIDE,
			 0) ||
	    dz_conv_init(&ts.tick2cyc, ticks, cyc, DZ_ROUND_UP, U64_MAX, U64_MAX, DZ_SHAPE_WIDE, 0))
		return "off, no exact jiffy grid on the clocksource";
	ts.cs = cs;
	return NULL;
}

const char *dz_tick_sched_init(struct clock_event_device *dev, struct dz_tick_period period,
			       bool nohz)
{
	const char *why = nohz ? grid_setup(dev, period) : "off";

	dz_tick_mode = TICK_ANCHOR;
	ts.stats = (struct dz_tick_stats){ 0 };
	ts.nohz = !why;
	return why;
}

bool dz_tick_nohz_active(void)
{
	return ts.nohz;
}

void dz_tick_stats(struct dz_tick_stats *st)
{
	unsigned long flags = dz_irq_save();

	*st = ts.stats;
	/* A periodic interrupt is a jiffy not caught up; the others are counted. */
	st->interrupts += dz_tick_count() - ts.stats.idle_jiffies;
	dz_irq_restore(flags);
}

/* The jiffy the grid says it is now: jiffies_64 must reach it. */
static u64 grid_jiffy(void)
{
	return ts.anchor_j + dz_conv_wide(&ts.cyc2tick, dz_timekeeping_cycles() - ts.anchor_cyc);
}

/*
 * Accounts every jiffy that began while the tick was stopped, in one step,
 * and runs the timers due (the wheel leaps over the empty jiffies). Never
 * backwards: a jiffy a periodic interrupt already counted stays counted.
 */
static void nohz_catch_up(void)
{
	/* jiffies_64 may wrap (a 64-bit jiffies starts near it): compare differences. */
	u64 n = grid_jiffy() - jiffies_64;

	if ((s64)n <= 0)
		return;
	dz_tick_advance(n);
	dz_timekeeping_skip(n);
	ts.stats.idle_jiffies += n;
	dz_timer_tick();
}

/*
 * One interrupt at the start of jiffy j, or as far as the device reaches.
 * The delay is asked in ns rounded down: a device that counts the
 * clocksource's own clock rounds it up to the very cycle (rounding up
 * twice would make it a cycle late, and a periodic tick resumed there late
 * by as much). A device that comes a fraction early finds no new jiffy and
 * is armed again, by the idle loop or by the resuming tick.
 */
static void nohz_program(u64 j)
{
	u64 at = ts.anchor_cyc + dz_conv_wide(&ts.tick2cyc, j - ts.anchor_j);
	u64 now = dz_timekeeping_cycles();
	u64 ns = at > now ? dz_clocksource_cyc2ns(ts.cs, at - now) : 0;
	struct clock_event_device *dev = dz_tick_device();

	if (dz_clockevents_program_ns(dev, ns))
		dz_panic("nohz: clockevent %s refused a one-shot event", dev->name);
}

/* Periodic again from this jiffy boundary on. */
static void tick_restart_periodic(void)
{
	struct clock_event_device *dev = dz_tick_device();
	struct dz_tick_period p, want = dz_hz_period();

	/* The same period as at boot, or every jiffy counted since would be wrong. */
	if (dz_clockevents_set_periodic(dev, HZ, &p) || p.num != want.num || p.den != want.den)
		dz_panic("nohz: clockevent %s cannot resume its periodic tick", dev->name);
	dz_tick_mode = TICK_PERIODIC;
}

/*
 * Now, jiffies_64 jiffies have begun: the grid's origin is at most this
 * far back. The earliest such bound is the best anchor.
 */
static void nohz_refine_anchor(void)
{
	u64 ago = dz_conv_wide(&ts.tick2cyc, jiffies_64 - ts.anchor_j);
	u64 origin = dz_timekeeping_cycles() - ago;

	if ((s64)(origin - ts.anchor_cyc) < 0)
		ts.anchor_cyc = origin;
}

void dz_tick_sched_handle(void)
{
	switch (dz_tick_mode) {
	case TICK_ANCHOR:
		dz_tick_periodic();
		ts.anchor_cyc = dz_timekeeping_cycles();
		ts.anchor_j = jiffies_64;
		dz_tick_mode = TICK_PERIODIC;
		break;
	case TICK_STOPPED:
		ts.stats.interrupts++;
		/* Catching up is all: the idle loop programs the next event. */
		nohz_catch_up();
		break;
	case TICK_RESUMING:
		ts.stats.interrupts++;
		nohz_catch_up();
		if ((s64)(jiffies_64 - ts.resume_j) < 0)
			nohz_program(ts.resume_j); /* the device came early */
		else
			tick_restart_periodic();
		break;
	case TICK_PERIODIC:
		dz_tick_periodic();
		break;
	}
}

/* Jiffies to the next timer (at least 1), bounded by what the clocksource can span. */
static u64 nohz_next_delta(void)
{
	unsigned long next = dz_timer_next_expiry() - jiffies;
	u64 max = dz_timekeeping_max_skip();

	if (next > MAX_JIFFY_OFFSET)
		next = MAX_JIFFY_OFFSET;
	if (next < 1)
		next = 1;
	return next < max ? next : max;
}

void tick_nohz_idle_enter(void)
{
	u64 next;

	ts.stats.idle_entries++;
	if (!ts.nohz || dz_tick_mode == TICK_ANCHOR)
		return;
	/* The grid is counted on one clocksource: after a switch, stay periodic. */
	if (dz_tick_mode == TICK_PERIODIC && dz_timekeeping_clocksource() != ts.cs)
		return;
	/* Woken by another interrupt: the time may have moved on. */
	if (dz_tick_mode != TICK_PERIODIC)
		nohz_catch_up();
	if (dz_tick_mode == TICK_PERIODIC)
		nohz_refine_anchor();
	next = nohz_next_delta();
	/* The next tick has work: stopping would save nothing. */
	if (dz_tick_mode == TICK_PERIODIC && next <= 1)
		return;
	if (dz_tick_mode != TICK_STOPPED)
		ts.stats.stops++;
	dz_tick_mode = TICK_STOPPED;
	nohz_program(jiffies_64 + next);
}

void tick_nohz_idle_exit(void)
{
	if (dz_tick_mode != TICK_STOPPED)
		return;
	nohz_catch_up();
	ts.resume_j = jiffies_64 + 1;
	dz_tick_mode = TICK_RESUMING;
	nohz_program(ts.resume_j);
}
