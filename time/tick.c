// SPDX-License-Identifier: MIT
/*
 * The tick and the boot of time.
 *
 * While the CPU is busy, each interrupt of the tick device is one jiffy:
 * jiffies_64 and jiffies move by one, timekeeping notes the tick, the timer
 * wheel runs what is due. While it is idle (nohz=on), the tick stops and
 * the device fires one-shot at the next timer's jiffy; jiffies then catch
 * up from the clocksource. The scheduler's accounting is the kernel's,
 * after the handler.
 */
#include <dynhz/tick.h>
#include <dynhz/timer.h>
#include <dynhz/timekeeping.h>
#include <dynhz/clocksource.h>
#include <dynhz/bootparam.h>
#include <dynhz/jiffies.h>
#include <dynhz/hz.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>

static struct clock_event_device *tick_dev;
static u64 tick_epoch; /* jiffies_64 at dz_time_init(): INITIAL_JIFFIES */
#ifdef DYNHZ_DEBUG
static u64 tick_last; /* jiffies_64 as the tick last left it */
#endif

/*
 * Tickless idle. The grid: jiffy anchor_j + n begins anchor_cyc +
 * n * period cycles into the clocksource's total (rounded up to a whole
 * cycle). It must be the device's own grid, never ahead of it (a jiffy
 * counted early would run timers early) and as little behind as can be (a
 * jiffy counted late runs them late). A periodic tick counted at a time
 * tells that its jiffy had begun by then: the first tick gives the anchor,
 * and each idle entry while the tick is periodic moves it earlier if it
 * shows that the jiffy began earlier. So a first tick that came late (its
 * interrupt held off while the boot report was printed) does not make every
 * later catch-up short by as many jiffies.
 */
enum tick_mode {
	TICK_ANCHOR,   /* periodic, the first tick will anchor the grid */
	TICK_PERIODIC, /* periodic */
	TICK_STOPPED,  /* idle: one-shot at the next timer's jiffy */
	TICK_RESUMING, /* busy again: one-shot at resume_j, then periodic */
};

static struct {
	bool nohz; /* nohz=on, and the hardware allows it */
	enum tick_mode mode;
	u64 anchor_cyc, anchor_j;
	u64 resume_j;
	struct dz_conv cyc2tick;  /* cycles -> whole jiffies, down */
	struct dz_conv tick2cyc;  /* jiffies -> cycles, up */
	struct clocksource *cs;	  /* the grid's clocksource */
	struct dz_tick_period period;
	unsigned int hz;
	struct dz_tick_stats stats;
} ts;

/* Only the tick moves jiffies, and only forward. */
static void check_jiffies(void)
{
#ifdef DYNHZ_DEBUG
	if (unlikely(jiffies_64 != tick_last || jiffies != (unsigned long)tick_last))
		dz_panic("jiffies moved outside the tick: jiffies_64 %llu, jiffies %lu, expected %llu",
			 (unsigned long long)jiffies_64, (unsigned long)jiffies,
			 (unsigned long long)tick_last);
#endif
}

static void advance_jiffies(u64 n)
{
	u64 j = jiffies_64 + n;

	check_jiffies();
	jiffies_64 = j;
	jiffies = (unsigned long)j;
#ifdef DYNHZ_DEBUG
	tick_last = j;
#endif
}

static void tick_periodic(void)
{
	advance_jiffies(1);
	dz_timekeeping_tick();
	dz_timer_tick();
}

static void tick_handle_nohz(void);

/*
 * The tick device's interrupt, with interrupts off. Busy, it is one jiffy,
 * and no more than one test is added for tickless idle: the interrupts are
 * counted as the jiffies they made (dz_tick_stats), not one by one.
 */
static void tick_handle_periodic(struct clock_event_device *dev)
{
	(void)dev;
	if (likely(ts.mode == TICK_PERIODIC)) {
		tick_periodic();
		return;
	}
	tick_handle_nohz();
}

static bool value_is(const struct dz_param *p, const char *v)
{
	size_t i = 0;

	for (; i < p->val_len && v[i]; i++)
		if (p->val[i] != v[i])
			return false;
	return i == p->val_len && !v[i];
}

/* nohz=on|off; anything else is reported, and on is used. */
static bool parse_nohz(const char *cmdline)
{
	static const char *const names[] = { "nohz", NULL };
	struct dz_param p;

	if (!dz_cmdline_find(cmdline, names, &p) || (p.val && value_is(&p, "on")))
		return true;
	if (p.val && value_is(&p, "off"))
		return false;
	dz_printk("%.*s=%.*s: %s, using on\n", (int)p.name_len, p.name, (int)p.val_len,
		  p.val ? p.val : "", p.val && p.val_len ? "not on or off" : "empty value");
	return true;
}

/*
 * What tickless idle needs: a one-shot device, a clocksource, an exact grid.
 * Returns NULL when all is there, or why the tick stays periodic.
 */
static const char *nohz_setup(struct clock_event_device *dev, struct dz_tick_period period)
{
	struct clocksource *cs = dz_timekeeping_clocksource();
	struct dz_rate cyc, ticks = { period.den, period.num };

	if (!(dev->features & CLOCK_EVT_FEAT_ONESHOT) || !dev->set_next_event_ns)
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

static int time_init(const char *cmdline, struct clock_event_device *dev, bool report)
{
	struct dz_tick_period period;
	enum dz_hz_source src;
	unsigned long flags;
	unsigned int hz;
	const char *why = "off";
	bool nohz;
	int err, ret;

	DZ_BUG_ON(!dev);
	err = dz_hz_parse(cmdline ? cmdline : "", &hz, &src);
	nohz = parse_nohz(cmdline ? cmdline : "");
	clockevents_register_device(dev);
	if (tick_dev) {
		/* Booting again: the old tick stops first. */
		tick_dev->event_handler = clockevents_handle_noop;
		if (tick_dev != dev)
			clockevents_shutdown(tick_dev);
		tick_dev = NULL;
	}
	ret = clockevents_set_periodic(dev, hz, &period);
	if (ret)
		dz_panic("clockevent %s: no periodic tick at HZ %u (error %d)", dev->name, hz, ret);

	/* The device may tick already: its handler stays a no-op until all is set. */
	flags = dz_irq_save();
	dz_hz_setup(hz, src, period, dev->name);
	tick_epoch = jiffies_64;
#ifdef DYNHZ_DEBUG
	tick_last = jiffies_64;
#endif
	dz_timekeeping_init(period);
	dz_timers_init();
	ts.mode = TICK_ANCHOR;
	ts.hz = hz;
	ts.period = period;
	ts.stats = (struct dz_tick_stats){ 0 };
	if (nohz)
		why = nohz_setup(dev, period);
	ts.nohz = !why;
	tick_dev = dev;
	dev->event_handler = tick_handle_periodic;
	dz_irq_restore(flags);

	if (report) {
		/* Before the report: its time: line comes last. */
		dz_printk("nohz: %s\n", ts.nohz ? "on, no tick while idle" : why);
		dz_hz_report();
	}
	return err;
}

int dz_time_init(const char *cmdline, struct clock_event_device *dev)
{
	return time_init(cmdline, dev, true);
}

int dz_time_init_quiet(const char *cmdline, struct clock_event_device *dev)
{
	return time_init(cmdline, dev, false);
}

struct clock_event_device *tick_device(void)
{
	return tick_dev;
}

u64 tick_count(void)
{
	return get_jiffies_64() - tick_epoch;
}

u64 dz_tick_idle_max(void)
{
	unsigned long flags = dz_irq_save();
	u64 n = dz_timekeeping_max_skip();
	unsigned long idle = dz_timer_idle_ticks();

	dz_irq_restore(flags);
	if (idle != ULONG_MAX && idle < n)
		n = idle;
	return n;
}

void dz_tick_skip(u64 n)
{
	unsigned long flags;

	if (!n)
		return;
	flags = dz_irq_save();
	/* Each part checks that nothing of its own happens in the gap. */
	advance_jiffies(n);
	dz_timekeeping_skip(n);
	dz_timer_skip(n);
	dz_irq_restore(flags);
}

bool tick_nohz_active(void)
{
	return ts.nohz;
}

void dz_tick_stats(struct dz_tick_stats *st)
{
	unsigned long flags = dz_irq_save();

	*st = ts.stats;
	/* A periodic interrupt is a jiffy not caught up; the others are counted. */
	st->interrupts += tick_count() - ts.stats.idle_jiffies;
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
	advance_jiffies(n);
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
	u64 ns = at > now ? clocksource_cyc2ns(ts.cs, at - now) : 0;

	if (clockevents_program_next_ns(tick_dev, ns))
		dz_panic("nohz: clockevent %s refused a one-shot event", tick_dev->name);
}

/* Periodic again from this jiffy boundary on. */
static void tick_restart_periodic(void)
{
	struct dz_tick_period p;

	if (clockevents_set_periodic(tick_dev, ts.hz, &p) || p.num != ts.period.num ||
	    p.den != ts.period.den)
		dz_panic("nohz: clockevent %s cannot resume its periodic tick", tick_dev->name);
	ts.mode = TICK_PERIODIC;
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

/* The device's interrupt when the tick is not plainly periodic. */
static void tick_handle_nohz(void)
{
	switch (ts.mode) {
	case TICK_ANCHOR:
		tick_periodic();
		ts.anchor_cyc = dz_timekeeping_cycles();
		ts.anchor_j = jiffies_64;
		ts.mode = TICK_PERIODIC;
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
		tick_periodic();
		break;
	}
}

/* Jiffies to the next timer (at least 1), bounded by what the clocksource can span. */
static u64 nohz_next_delta(void)
{
	unsigned long next = timer_next_expiry() - jiffies;
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
	if (!ts.nohz || ts.mode == TICK_ANCHOR)
		return;
	/* The grid is counted on one clocksource: after a switch, stay periodic. */
	if (ts.mode == TICK_PERIODIC && dz_timekeeping_clocksource() != ts.cs)
		return;
	/* Woken by another interrupt: the time may have moved on. */
	if (ts.mode != TICK_PERIODIC)
		nohz_catch_up();
	if (ts.mode == TICK_PERIODIC)
		nohz_refine_anchor();
	next = nohz_next_delta();
	/* The next tick has work: stopping would save nothing. */
	if (ts.mode == TICK_PERIODIC && next <= 1)
		return;
	if (ts.mode != TICK_STOPPED)
		ts.stats.stops++;
	ts.mode = TICK_STOPPED;
	nohz_program(jiffies_64 + next);
}

void tick_nohz_idle_exit(void)
{
	if (ts.mode != TICK_STOPPED)
		return;
	nohz_catch_up();
	ts.resume_j = jiffies_64 + 1;
	ts.mode = TICK_RESUMING;
	nohz_program(ts.resume_j);
}
