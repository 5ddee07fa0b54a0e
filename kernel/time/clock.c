// SPDX-License-Identifier: MIT
/*
 * Bringing up time: measure the TSC and make it the clocksource, pick the
 * clock-event device (clockevent=pit, the default, or clockevent=lapic),
 * and hand it to the core, which reads hz= and starts the tick. The
 * scheduler's accounting then rides on every tick, after the core's.
 */
#include <kernel/clock.h>
#include <kernel/string.h>
#include <kernel/sched.h>
#include <asm/i8254.h>
#include <asm/lapic.h>
#include <asm/tsc.h>
#include <asm/cpu.h>
#include <dynhz/bootparam.h>
#include <dynhz/tick.h>
#include <dynhz/printk.h>
#include <dynhz/port.h>

static bool param_value_is(const struct dz_param *p, const char *v)
{
	return p->val && p->val_len == strlen(v) && !memcmp(p->val, v, p->val_len);
}

/* The PIT ticks; while idle, the local APIC timer (if any) is its one-shot. */
static struct clock_event_device *pit_with_lapic_idle(void)
{
	if (lapic_init())
		pit_idle_use_lapic();
	return &pit_clockevent;
}

/* clockevent=pit|lapic; anything else is reported and the PIT is used. */
static struct clock_event_device *choose_clockevent(const char *cmdline)
{
	static const char *const names[] = { "clockevent", NULL };
	struct dz_param p;

	if (!dz_cmdline_find(cmdline, names, &p) || param_value_is(&p, "pit"))
		return pit_with_lapic_idle();
	if (param_value_is(&p, "lapic")) {
		if (lapic_init())
			return &lapic_clockevent;
		dz_printk("clockevent=lapic: no local APIC, using pit\n");
		return &pit_clockevent;
	}
	/* The value is the user's: shown escaped and bounded, on one line. */
	dz_param_report(&p, p.val_len ? "not a clock-event device (pit, lapic)" : "empty value",
			"pit");
	return pit_with_lapic_idle();
}

static struct clock_tick_ref first_tick;

/* After the core's tick (jiffies, timekeeping, timers): the scheduler's accounting. */
static void kernel_tick(void)
{
	if (unlikely(!first_tick.tsc)) {
		first_tick.tsc = rdtsc();
		first_tick.ticks = dz_tick_count();
	}
	sched_tick();
}

struct clock_tick_ref clock_first_tick(void)
{
	return first_tick;
}

struct clock_event_device *clock_init(const char *cmdline)
{
	struct clock_event_device *dev;

	tsc_init();
	dev = choose_clockevent(cmdline);
	if (clockevents_register_device(dev))
		dz_printk("clockevent %s: bad one-shot limits, no tickless idle\n", dev->name);
	dz_time_init(cmdline, dev);
	/*
	 * After the boot report: the first tick the hook sees is the
	 * reference of the tick-count checks, and the ticks merged while the
	 * report was printed are counted by then.
	 */
	dz_tick_set_hook(kernel_tick);
	return dev;
}
