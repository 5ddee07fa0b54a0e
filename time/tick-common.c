// SPDX-License-Identifier: MIT
/*
 * The periodic tick and the boot of time.
 *
 * While the CPU is busy, each interrupt of the tick device is one jiffy:
 * jiffies_64 and jiffies move by one, timekeeping notes the tick, the timer
 * wheel runs what is due, then the port's tick hook runs (the kernel's
 * scheduler accounting). Tickless idle (tick-sched.c) takes the interrupts
 * over while the tick is stopped.
 */
#include <dynhz/tick.h>
#include <dynhz/timer.h>
#include <dynhz/jiffies.h>
#include <dynhz/hz.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>
#include "clockevent-internal.h"
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
}

/*
 * The tick device's interrupt, with interrupts off. Busy, it is one jiffy,
 * and no more than one test is added for tickless idle: the interrupts are
 * counted as the jiffies they made (dz_tick_stats), not one by one.
 */
static void tick_handle_periodic(struct clock_event_device *dev)
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
	const char *why = "off";
	bool nohz;
	int err, ret;

	DZ_BUG_ON(!dev);
	err = dz_hz_parse(cmdline ? cmdline : "", &hz, &src);
	nohz = dz_tick_nohz_parse(cmdline ? cmdline : "");
	clockevents_register_device(dev);
	if (tick_dev) {
		/* Booting again: the old tick stops first. */
		tick_dev->event_handler = clockevents_handle_noop;
		if (tick_dev != dev)
			clockevents_shutdown(tick_dev);
		tick_dev = NULL;
	}
	ret = dz_clockevents_set_periodic(dev, hz, &period);
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
	why = dz_tick_sched_init(dev, period, nohz);
	tick_dev = dev;
	dev->event_handler = tick_handle_periodic;
	dz_irq_restore(flags);

	if (report) {
		/* Before the report: its time: line comes last. */
		dz_printk("nohz: %s\n", why ? why : "on, no tick while idle");
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

struct clock_event_device *dz_tick_device(void)
{
	return tick_dev;
}

u64 dz_tick_count(void)
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
	dz_tick_advance(n);
	dz_timekeeping_skip(n);
	dz_timer_skip(n);
	dz_irq_restore(flags);
}
