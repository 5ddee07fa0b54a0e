// SPDX-License-Identifier: MIT
/*
 * The periodic tick and the boot of time.
 *
 * While the CPU is busy, each interrupt of a periodic tick device is one
 * jiffy: jiffies_64 and jiffies move by one, timekeeping notes the tick,
 * the timer wheel runs what is due, then the hrtimers due (without high
 * resolution, they run from the tick), then the port's tick hook runs (the
 * kernel's scheduler accounting). Tickless idle (tick-sched.c) takes the
 * interrupts over while the tick is stopped; in high resolution
 * (tick-oneshot.c) the device is one-shot and its own handler ticks.
 */
#include <dynhz/tick.h>
#include <dynhz/timer.h>
#include <dynhz/jiffies.h>
#include <dynhz/hz.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>
#include <dynhz/time64.h>
#include <dynhz/timekeeping.h>
#include "clockevent-internal.h"
#include "hrtimer-internal.h"
#include "ntp-internal.h"
#include "tick-internal.h"
#include "timer-internal.h"
#include "timekeeping-internal.h"

static struct clock_event_device *tick_dev;
static u64 tick_epoch; /* jiffies_64 at dz_time_init(): INITIAL_JIFFIES */
static void (*tick_hook)(void);
#ifdef DYNHZ_DEBUG
static u64 tick_last; /* jiffies_64 as the tick last left it */
#endif

enum dz_tick_mode dz_tick_mode;

/* Only the tick moves jiffies, and only forward. */
static void tick_check_owner(void)
{
#ifdef DYNHZ_DEBUG
	if (unlikely(jiffies_64 != tick_last || jiffies != (unsigned long)tick_last))
		dz_panic("jiffies moved outside the tick: jiffies_64 %llu, jiffies %lu, expected "
			 "%llu",
			 (unsigned long long)jiffies_64, (unsigned long)jiffies,
			 (unsigned long long)tick_last);
#endif
}

void dz_tick_advance(u64 n)
{
	u64 j = jiffies_64 + n;

	tick_check_owner();
	jiffies_64 = j;
	jiffies = (unsigned long)j;
#ifdef DYNHZ_DEBUG
	tick_last = j;
#endif
}

void dz_tick_periodic(void)
{
	dz_tick_advance(1);
	dz_timekeeping_tick();
	dz_timer_tick();
	dz_hrtimer_tick();
}

/*
 * The tick device's interrupt in the periodic modes, with interrupts off.
 * Busy, it is one jiffy, and no more than one test is added for tickless
 * idle: the interrupts are counted as the jiffies they made
 * (dz_tick_stats), not one by one. No test for hrtimers either: while some
 * are queued (at tick resolution) the device's handler is the one below.
 */
void dz_tick_handle_periodic(struct clock_event_device *dev)
{
	void (*hook)(void) = tick_hook;

	(void)dev;
	if (likely(dz_tick_mode == TICK_PERIODIC)) {
		dz_tick_advance(1);
		dz_timekeeping_tick();
		/* Without a hook the wheel's tick is a tail call: no frame to set up. */
		if (!hook) {
			dz_timer_tick();
			return;
		}
		dz_timer_tick();
	} else {
		dz_tick_sched_handle();
		if (!hook)
			return;
	}
	hook();
}

/* The same while hrtimers are queued at tick resolution: they are checked at every tick. */
static void tick_handle_periodic_hrtimers(struct clock_event_device *dev)
{
	(void)dev;
	if (likely(dz_tick_mode == TICK_PERIODIC))
		dz_tick_periodic();
	else
		dz_tick_sched_handle();
	dz_tick_run_hook();
}

/* The device's handler while a change of HZ waits for a tick: the one it replaced. */
static void (*tick_retune_saved)(struct clock_event_device *dev);

/*
 * A change of HZ waits for the next tick, wrapped around the handler in
 * force (so the common tick pays nothing for it): once a tick ran and the
 * tick is running (not stopped for idle), the change is applied at that
 * boundary and the handler it wrapped is back.
 */
static void tick_handle_retune(struct clock_event_device *dev)
{
	u64 before = jiffies_64;
	bool running;

	tick_retune_saved(dev);
	if (dev->event_handler != tick_handle_retune) {
		/* The handler changed meanwhile (high resolution ended): keep the new one. */
		tick_retune_saved = dev->event_handler;
		dev->event_handler = tick_handle_retune;
	}
	running = dz_tick_mode == TICK_PERIODIC ||
		  (dz_tick_mode == TICK_HRES && !dz_tick_hres_stopped());
	if (jiffies_64 == before || !running)
		return;
	dev->event_handler = tick_retune_saved;
	dz_hz_retune_boundary();
}

void dz_tick_retune_arm(void)
{
	if (tick_dev && tick_dev->event_handler != tick_handle_retune) {
		tick_retune_saved = tick_dev->event_handler;
		tick_dev->event_handler = tick_handle_retune;
	}
}

void dz_tick_hrtimers_queued(bool queued)
{
	void (*h)(struct clock_event_device *) =
		queued ? tick_handle_periodic_hrtimers : dz_tick_handle_periodic;
	void (**slot)(struct clock_event_device *);

	if (!tick_dev)
		return;
	slot = tick_dev->event_handler == tick_handle_retune ? &tick_retune_saved
							     : &tick_dev->event_handler;
	if (*slot == dz_tick_handle_periodic || *slot == tick_handle_periodic_hrtimers)
		*slot = h;
}

void dz_tick_run_hook(void)
{
	void (*hook)(void) = tick_hook;

	if (hook)
		hook();
}

void dz_tick_set_hook(void (*hook)(void))
{
	unsigned long flags = dz_irq_save();

	tick_hook = hook;
	dz_irq_restore(flags);
}

static int time_init(const char *cmdline, struct clock_event_device *dev, bool report)
{
	struct dz_tick_period period;
	enum dz_hz_source src;
	unsigned long flags;
	unsigned int hz;
	u64 start, started;
	const char *why = "off", *hres_why;
	bool nohz, highres;
	int err, ret;

	DZ_BUG_ON(!dev);
	err = dz_hz_parse(cmdline ? cmdline : "", &hz, &src);
	nohz = dz_tick_nohz_parse(cmdline ? cmdline : "");
	highres = dz_tick_highres_parse(cmdline ? cmdline : "");
	clockevents_register_device(dev);
	if (tick_dev) {
		/* Booting again: the old tick stops first. */
		tick_dev->event_handler = clockevents_handle_noop;
		if (tick_dev != dev)
			clockevents_shutdown(tick_dev);
		tick_dev = NULL;
	}
	/*
	 * The device starts between these two readings: time begins at the
	 * first, and in high resolution the jiffy grid at the second (never
	 * ahead of the device's own ticks, behind by a driver call at most).
	 */
	start = dz_timekeeping_read();
	ret = dz_clockevents_set_periodic(dev, hz, &period);
	started = dz_timekeeping_read();
	if (ret)
		dz_panic("clockevent %s: no periodic tick at HZ %u (error %d)", dev->name, hz, ret);

	/* The device may tick already: its handler stays a no-op until all is set. */
	flags = dz_irq_save();
	dz_hz_setup(hz, src, period, dev->name);
	tick_epoch = jiffies_64;
#ifdef DYNHZ_DEBUG
	tick_last = jiffies_64;
#endif
	dz_timekeeping_init(period, start);
	dz_timers_init();
	dz_hrtimers_init();
	dz_ntp_init();
	why = dz_tick_sched_init(dev, period, nohz);
	tick_dev = dev;
	dev->event_handler = dz_tick_handle_periodic;
	/* With a one-shot device and a grid, the device goes one-shot now. */
	hres_why = dz_tick_oneshot_init(dev, highres, started - start);
	dz_irq_restore(flags);

	if (report) {
		/* Before the report: its time: line comes last. */
		dz_printk("nohz: %s\n", why ? why : "on, no tick while idle");
		if (hres_why)
			dz_printk("hrtimer: %s\n", hres_why);
		else
			dz_printk("hrtimer: high resolution on %s\n", dev->name);
		dz_hz_report();
	}
	return err;
}

void dz_time_exit(void)
{
	unsigned long flags = dz_irq_save();

	if (tick_dev) {
		tick_dev->event_handler = clockevents_handle_noop;
		clockevents_shutdown(tick_dev);
		tick_dev = NULL;
	}
	dz_tick_oneshot_exit();
	dz_tick_mode = TICK_ANCHOR;
	dz_hrtimers_init();
	dz_irq_restore(flags);
}

int dz_time_init(const char *cmdline, struct clock_event_device *dev)
{
	return time_init(cmdline, dev, true);
}

int dz_time_init_quiet(const char *cmdline, struct clock_event_device *dev)
{
	return time_init(cmdline, dev, false);
}

struct clock_event_device *dz_tick_device(void)
{
	return tick_dev;
}

u64 dz_tick_count(void)
{
	return get_jiffies_64() - tick_epoch;
}

/*
 * Ticks that surely come before the first hrtimer is due: the n-th coming
 * tick is at most n periods from now, so n * the period rounded up to ns
 * must stay below the time to go, in raw ns (the ticks' time; NTP steers
 * only the ns of the timer's clock).
 */
static u64 hrtimer_idle_ticks(void)
{
	s64 key = dz_hrtimer_next_key();
	struct dz_tick_period p = dz_hz_period();
	u64 now = ktime_get_raw_ns(), at, tick_ns;

	if (key == KTIME_MAX)
		return U64_MAX;
	at = key > 0 ? dz_timekeeping_mono_to_raw((u64)key) : 0;
	if (at <= now + 1)
		return 0;
	tick_ns = dz_tick_ns(p, true);
	return (at - now - 1) / tick_ns;
}

u64 dz_tick_idle_max(void)
{
	unsigned long flags = dz_irq_save();
	u64 n = dz_timekeeping_max_skip(), hr = hrtimer_idle_ticks();
	unsigned long idle = dz_timer_idle_ticks();

	/* Only a running tick can be skipped, and only when the device's next event is its own. */
	if (dz_tick_mode == TICK_STOPPED || dz_tick_mode == TICK_RESUMING ||
	    (dz_tick_mode == TICK_HRES && !dz_tick_hres_skippable()))
		n = 0;
	dz_irq_restore(flags);
	if (idle != ULONG_MAX && idle < n)
		n = idle;
	return hr < n ? hr : n;
}

void dz_tick_skip(u64 n)
{
	unsigned long flags;

	if (!n)
		return;
	flags = dz_irq_save();
	/* Each part checks that nothing of its own happens in the gap. */
	dz_tick_advance(n);
	dz_timekeeping_skip(n);
	dz_timer_skip(n);
	/* One-shot: the tick's next event is the jiffy after those. */
	if (dz_tick_mode == TICK_HRES)
		dz_tick_hres_set_tick(jiffies_64 + 1, false);
	dz_irq_restore(flags);
}
