/* SPDX-License-Identifier: MIT */
/* Time bring-up for the kernel: clocksource, clock-event device, HZ. */
#ifndef KERNEL_CLOCK_H
#define KERNEL_CLOCK_H

#include <dynhz/clockevent.h>

/* Needs interrupts enabled (the PIT calibrates the other clocks). */
struct clock_event_device *clock_init(const char *cmdline);

#endif
