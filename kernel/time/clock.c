// SPDX-License-Identifier: MIT
/*
 * Bringing up time: the arch measures its clocksource and picks the
 * clock-event device (arch_clock_init(): the TSC, and clockevent=pit, the
 * default, or clockevent=lapic); the kernel hands the device to the core,
 * which reads hz= and starts the tick. The scheduler's accounting then
 * rides on every tick, after the core's.
 */
#include <kernel/clock.h>
#include <kernel/sched.h>
#include <kernel/arch.h>
#include <dynhz/tick.h>
#include <dynhz/printk.h>
#include <dynhz/port.h>

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

	dev = arch_clock_init(cmdline);
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
