// SPDX-License-Identifier: MIT
/*
 * Tickless idle (nohz=on, the default; nohz=off keeps the tick running),
 * and the jiffy grid it and high resolution stand on.
 *
 * While the CPU idles, the tick stops and the device fires one-shot at the
 * next timer's jiffy; jiffies then catch up from the clocksource in one
 * step. See include/dynhz/tick.h for the contract.
 *
 * The grid: jiffy anchor_j + n begins anchor_cyc + n * period cycles into
 * the clocksource's total (rounded up to a whole cycle). It must be the
 * device's own grid, never ahead of it (a jiffy counted early would run
 * timers early) and as little behind as can be (a jiffy counted late runs
 * them late). With a periodic device, a periodic tick counted at a time
 * tells that its jiffy had begun by then: the first tick gives the anchor,
 * and each idle entry while the tick is periodic moves it earlier if it
 * shows that the jiffy began earlier. So a first tick that came late (its
 * interrupt held off while the boot report was printed) does not make every
 * later catch-up short by as many jiffies. In high resolution
 * (tick-oneshot.c) the device makes no grid of its own: the grid is
 * anchored at boot and the tick is a timer on it.
 */
#include <dynhz/tick.h>
#include <dynhz/timer.h>
#include <dynhz/clocksource.h>
#include <dynhz/bootparam.h>
#include <dynhz/jiffies.h>
#include <dynhz/time64.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>
#include <dynhz/errno.h>
#include "clockevent-internal.h"
#include "hrtimer-internal.h"
#include "tick-internal.h"
#include "timer-internal.h"
#include "timekeeping-internal.h"

static struct {
	bool nohz;	 /* nohz=on, and the hardware allows it */
	const char *why; /* NULL: there is a grid; else why not */
	bool round_up;	 /* the device's counter is not the clocksource's */
	u64 anchor_cyc, anchor_j;
	u64 resume_j;
	struct dz_conv cyc2tick; /* cycles -> whole jiffies, down */
	struct dz_conv tick2cyc; /* jiffies -> cycles, up */
	struct dz_conv ns2cyc;	 /* ns -> cycles, up */
	struct dz_conv cyc2ns;	 /* cycles -> ns, up (cs->cyc2ns rounds down) */
	struct dz_conv short_ns; /* cycles below 2^32 -> ns, rounded as the device needs */
	bool have_short;
	struct clocksource *cs; /* the grid's clocksource */
	struct dz_tick_stats stats;
	u64 tick_jiffies; /* jiffies made by the running tick in high resolution */
	struct dz_conv next_cyc2tick, next_tick2cyc; /* a new period's, until HZ changes */
} ts;

static bool value_is(const struct dz_param *p, const char *v)
{
	size_t i = 0;

	for (; i < p->val_len && v[i]; i++)
		if (p->val[i] != v[i])
			return false;
	return i == p->val_len && !v[i];
}

/* name=on|off; anything else is reported and on is used. */
static bool on_off_parse(const char *cmdline, const char *name)
{
	const char *const names[] = { name, NULL };
	struct dz_param p;

	if (!dz_cmdline_find(cmdline, names, &p) || (p.val && value_is(&p, "on")))
		return true;
	if (p.val && value_is(&p, "off"))
		return false;
	dz_param_report(&p, p.val && p.val_len ? "not on or off" : "empty value", "on");
	return true;
}

bool dz_tick_nohz_parse(const char *cmdline)
{
	return on_off_parse(cmdline, "nohz");
}

bool dz_tick_highres_parse(const char *cmdline)
{
	return on_off_parse(cmdline, "highres");
}

/*
 * What the grid needs: a one-shot device, a clocksource, exact
 * conversions. Returns NULL when all is there, or why there is none (as
 * the nohz: line says it).
 */
static const char *grid_setup(struct clock_event_device *dev, struct dz_tick_period period)
{
	const struct dz_rate ns = { NSEC_PER_SEC, 1 };
	struct clocksource *cs = dz_timekeeping_clocksource();
	struct dz_rate cyc, ticks = { period.den, period.num };

	if (!dz_clockevents_oneshot(dev))
		return "off, the clockevent has no one-shot mode";
	if (!cs)
		return "off, no clocksource to measure idle time";
	cyc = (struct dz_rate){ cs->freq_hz, 1 };
	if (dz_conv_make(&ts.cyc2tick, cyc, ticks, DZ_ROUND_DOWN, U64_MAX, U64_MAX) ||
	    dz_conv_make(&ts.tick2cyc, ticks, cyc, DZ_ROUND_UP, U64_MAX, U64_MAX) ||
	    dz_conv_make(&ts.ns2cyc, ns, cyc, DZ_ROUND_UP, U64_MAX, U64_MAX) ||
	    dz_conv_make(&ts.cyc2ns, cyc, ns, DZ_ROUND_UP, U64_MAX, U64_MAX))
		return "off, no exact jiffy grid on the clocksource";
	ts.cs = cs;
	/*
	 * A delay asked in ns rounded down comes back as the very cycle from a
	 * device that counts the clocksource's own clock (at most 1 GHz) and
	 * rounds up; any other device gets it rounded up, never early.
	 */
	ts.round_up = dev->freq_hz != cs->freq_hz || cs->freq_hz > NSEC_PER_SEC;
	/* The delays of the tick and of near timers: one multiply, not two. */
	ts.have_short =
		!dz_conv_make(&ts.short_ns, cyc, ns, ts.round_up ? DZ_ROUND_UP : DZ_ROUND_DOWN,
			      U32_MAX, U64_MAX) &&
		ts.short_ns.shape == DZ_SHAPE_NARROW && ts.short_ns.fast_max == U32_MAX;
	return NULL;
}

const char *dz_tick_sched_init(struct clock_event_device *dev, struct dz_tick_period period,
			       bool nohz)
{
	ts.cs = NULL;
	ts.why = grid_setup(dev, period);
	dz_tick_mode = TICK_ANCHOR;
	ts.stats = (struct dz_tick_stats){ 0 };
	ts.tick_jiffies = 0;
	ts.nohz = nohz && !ts.why;
	return nohz ? ts.why : "off";
}

const char *dz_tick_grid_missing(void)
{
	return ts.why;
}

bool dz_tick_nohz_active(void)
{
	return ts.nohz;
}

void dz_tick_count_interrupt(void)
{
	ts.stats.interrupts++;
}

void dz_tick_stats(struct dz_tick_stats *st)
{
	unsigned long flags = dz_irq_save();

	*st = ts.stats;
	/*
	 * A periodic interrupt (or a tick skipped by dz_tick_skip()) is a
	 * jiffy neither caught up nor made by the one-shot tick; the others
	 * are counted one by one.
	 */
	st->interrupts += dz_tick_count() - ts.stats.idle_jiffies - ts.tick_jiffies;
	dz_irq_restore(flags);
}

void dz_tick_grid_anchor(u64 cyc, u64 j)
{
	ts.anchor_cyc = cyc;
	ts.anchor_j = j;
}

u64 dz_tick_grid_cycles(u64 j)
{
	return ts.anchor_cyc + dz_conv(&ts.tick2cyc, j - ts.anchor_j);
}

/* The first raw ns at which the steered clock reaches ns, then its first cycle. */
u64 dz_tick_ns_to_cycles(s64 ns)
{
	u64 base = dz_timekeeping_base_ns(), raw;

	if (ns <= 0)
		return 0;
	raw = dz_timekeeping_mono_to_raw((u64)ns);
	if (raw <= base)
		return 0;
	return dz_conv(&ts.ns2cyc, raw - base);
}

/* The jiffy the grid says it is at cycle now: jiffies_64 must reach it. */
static u64 grid_jiffy(u64 now)
{
	return ts.anchor_j + dz_conv(&ts.cyc2tick, now - ts.anchor_cyc);
}

void dz_tick_grid_next(void)
{
	dz_tick_advance(1);
	dz_timekeeping_tick();
	ts.tick_jiffies++;
	dz_timer_tick();
}

/*
 * Never backwards: a jiffy a periodic interrupt already counted stays
 * counted. The wheel leaps over the empty jiffies.
 */
u64 dz_tick_grid_catch_up(u64 now, bool idle)
{
	/* jiffies_64 may wrap (a 64-bit jiffies starts near it): compare differences. */
	u64 n = grid_jiffy(now) - jiffies_64;

	if ((s64)n <= 0)
		return 0;
	dz_tick_advance(n);
	if (idle) {
		dz_timekeeping_skip(n);
		ts.stats.idle_jiffies += n;
	} else {
		/* The running tick: one jiffy, unless its interrupt came late. */
		if (likely(n == 1))
			dz_timekeeping_tick();
		else
			dz_timekeeping_skip(n);
		ts.tick_jiffies += n;
	}
	dz_timer_tick();
	return n;
}

/*
 * One interrupt at cycle c of the clocksource, or as far as the device
 * reaches (then it comes early, finds nothing due and is armed again).
 */
void dz_tick_program_cycles(u64 c)
{
	struct clock_event_device *dev = dz_tick_device();
	u64 now = dz_timekeeping_cycles(), d = c > now ? c - now : 0, ns;

	if (likely(d <= U32_MAX && ts.have_short))
		ns = dz_conv_narrow_fixed(&ts.short_ns, d, ts.short_ns.k, ts.short_ns.shift, false,
					  true);
	else
		ns = ts.round_up ? dz_conv(&ts.cyc2ns, d) : dz_clocksource_cyc2ns(ts.cs, d);

	if (dz_clockevents_program_ns(dev, ns))
		dz_panic("nohz: clockevent %s refused a one-shot event", dev->name);
}

/* One interrupt at the start of jiffy j, or as far as the device reaches. */
static void nohz_program(u64 j)
{
	dz_tick_program_cycles(dz_tick_grid_cycles(j));
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
	u64 ago = dz_conv(&ts.tick2cyc, jiffies_64 - ts.anchor_j);
	u64 origin = dz_timekeeping_cycles() - ago;

	if ((s64)(origin - ts.anchor_cyc) < 0)
		ts.anchor_cyc = origin;
}

/* Catching up after a periodic device's idle wakeup, then the hrtimers due. */
static void nohz_catch_up(void)
{
	dz_tick_grid_catch_up(dz_timekeeping_cycles(), true);
	dz_hrtimer_tick();
}

void dz_tick_sched_handle(void)
{
	switch (dz_tick_mode) {
	case TICK_ANCHOR:
		dz_tick_periodic();
		if (ts.cs) {
			ts.anchor_cyc = dz_timekeeping_cycles();
			ts.anchor_j = jiffies_64;
		}
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
	case TICK_HRES:
		dz_tick_periodic();
		break;
	}
}

u64 dz_tick_nohz_next_delta(void)
{
	unsigned long next = dz_timer_next_expiry() - jiffies;
	u64 max = dz_timekeeping_max_skip();

	if (next > MAX_JIFFY_OFFSET)
		next = MAX_JIFFY_OFFSET;
	if (next < 1)
		next = 1;
	return next < max ? next : max;
}

/*
 * Without high resolution an hrtimer runs at the first tick at or after
 * its expiry: the jiffy whose start on the grid is the first at or after
 * the cycle at which the clock reaches it.
 */
static u64 hrtimer_next_delta(void)
{
	s64 key = dz_hrtimer_next_key();
	u64 c, j;

	if (key == KTIME_MAX)
		return U64_MAX;
	c = dz_tick_ns_to_cycles(key);
	if (c <= ts.anchor_cyc)
		return 1;
	/* The least n with anchor_cyc + ceil(n * period) >= c. */
	j = ts.anchor_j + dz_conv(&ts.cyc2tick, c - ts.anchor_cyc - 1) + 1;
	return (s64)(j - jiffies_64) > 1 ? j - jiffies_64 : 1;
}

/* Jiffies to the next timer of either kind (at least 1), within the clocksource's span. */
static u64 nohz_next_delta(void)
{
	u64 next = dz_tick_nohz_next_delta(), hr = hrtimer_next_delta();

	return hr < next ? hr : next;
}

static void hres_idle_enter(void)
{
	bool stopped = dz_tick_hres_stopped();
	u64 next;

	/* Woken by another interrupt: the time may have moved on. */
	if (stopped)
		dz_tick_grid_catch_up(dz_timekeeping_cycles(), true);
	next = dz_tick_nohz_next_delta();
	/* The next tick has work: stopping would save nothing. */
	if (!stopped && next <= 1)
		return;
	if (!stopped)
		ts.stats.stops++;
	dz_tick_hres_set_tick(jiffies_64 + next, true);
}

void tick_nohz_idle_enter(void)
{
	u64 next;

	ts.stats.idle_entries++;
	if (!ts.nohz || dz_tick_mode == TICK_ANCHOR)
		return;
	if (dz_tick_mode == TICK_HRES) {
		hres_idle_enter();
		return;
	}
	/* The grid is counted on one clocksource: after a switch, stay periodic. */
	if (dz_tick_mode == TICK_PERIODIC && (!ts.cs || dz_timekeeping_clocksource() != ts.cs))
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
	if (dz_tick_mode == TICK_HRES) {
		if (dz_tick_hres_stopped()) {
			dz_tick_grid_catch_up(dz_timekeeping_cycles(), true);
			dz_tick_hres_set_tick(jiffies_64 + 1, false);
		}
		return;
	}
	if (dz_tick_mode != TICK_STOPPED)
		return;
	nohz_catch_up();
	ts.resume_j = jiffies_64 + 1;
	dz_tick_mode = TICK_RESUMING;
	nohz_program(ts.resume_j);
}

/*
 * The grid was counted on the old clocksource, whose cycles are gone: the
 * tick goes back to periodic, without tickless idle or high resolution,
 * for the rest of the boot.
 */
void dz_tick_clocksource_changed(void)
{
	ts.cs = NULL; /* idle entries see another clocksource than the grid's */
	if (!dz_tick_device())
		return; /* no tick: dz_time_exit() */
	if (dz_tick_mode == TICK_HRES)
		dz_tick_oneshot_stop();
	else if (dz_tick_mode == TICK_STOPPED || dz_tick_mode == TICK_RESUMING)
		tick_restart_periodic();
}

int dz_tick_sched_retune_prepare(struct dz_tick_period period)
{
	struct dz_rate cyc, ticks = { period.den, period.num };

	if (!ts.cs)
		return 0;
	cyc = (struct dz_rate){ ts.cs->freq_hz, 1 };
	if (dz_conv_make(&ts.next_cyc2tick, cyc, ticks, DZ_ROUND_DOWN, U64_MAX, U64_MAX) ||
	    dz_conv_make(&ts.next_tick2cyc, ticks, cyc, DZ_ROUND_UP, U64_MAX, U64_MAX))
		return -DZ_ERANGE;
	return 0;
}

void dz_tick_sched_retune(u64 anchor_cyc, u64 anchor_j)
{
	if (!ts.cs)
		return;
	ts.cyc2tick = ts.next_cyc2tick;
	ts.tick2cyc = ts.next_tick2cyc;
	ts.anchor_cyc = anchor_cyc;
	ts.anchor_j = anchor_j;
}
