/* SPDX-License-Identifier: MIT */
/* Time bring-up for the kernel: clocksource, clock-event device, HZ. */
#ifndef KERNEL_CLOCK_H
#define KERNEL_CLOCK_H

#include <dynhz/clockevent.h>

/*
 * Needs interrupts enabled (the PIT calibrates the other clocks). The tick
 * calls sched_tick(), so the scheduler must be set up before the first
 * thread runs, and sched_init() needs HZ: clock_init() comes first.
 */
struct clock_event_device *clock_init(const char *cmdline);

/*
 * The first tick the kernel saw: its TSC and dz_tick_count(). Ticks that came
 * before time was set up (interrupts were off) are not counted; from this
 * one on, every period of the device must be one tick.
 */
struct clock_tick_ref {
	u64 tsc;
	u64 ticks;
};
struct clock_tick_ref clock_first_tick(void);

/* One line: timer interrupts and idle entries since boot, wakeups per second. */
void clock_report_wakeups(const char *who);

#endif
