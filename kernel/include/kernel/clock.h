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

#endif
