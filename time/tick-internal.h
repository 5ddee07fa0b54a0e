/* SPDX-License-Identifier: MIT */
/*
 * What the periodic tick (tick-common.c) and tickless idle (tick-sched.c)
 * share. Nothing outside time/ includes this.
 */
#ifndef DYNHZ_TICK_INTERNAL_H
#define DYNHZ_TICK_INTERNAL_H

#include <dynhz/tick.h>
#include <dynhz/clockevent.h>

/*
 * The tick's mode. Only TICK_PERIODIC is handled inline by the periodic
 * handler; every other mode goes to dz_tick_sched_handle().
 */
enum dz_tick_mode {
	TICK_ANCHOR,   /* periodic, the first tick will anchor the grid */
	TICK_PERIODIC, /* periodic */
	TICK_STOPPED,  /* idle: one-shot at the next timer's jiffy */
	TICK_RESUMING, /* busy again: one-shot at resume_j, then periodic */
};
extern enum dz_tick_mode dz_tick_mode;

/* tick-common.c: one busy jiffy (jiffies, timekeeping, the wheel). */
void dz_tick_periodic(void);

/* tick-common.c: jiffies_64 and jiffies move n forward, checked in debug. */
void dz_tick_advance(u64 n);

/* tick-sched.c: reads nohz=on|off (reporting anything else; on is used). */
bool dz_tick_nohz_parse(const char *cmdline);

/*
 * tick-sched.c: sets tickless idle up for a boot on dev with this period;
 * returns NULL if it is on, or why the tick stays periodic.
 */
const char *dz_tick_sched_init(struct clock_event_device *dev, struct dz_tick_period period,
			       bool nohz);

/* tick-sched.c: the device's interrupt when the mode is not TICK_PERIODIC. */
void dz_tick_sched_handle(void);

#endif
