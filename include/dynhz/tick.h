/* SPDX-License-Identifier: MIT */
/*
 * The tick: the one boot entry of time, the handler that makes jiffies
 * move (time/tick-common.c), and tickless idle (time/tick-sched.c).
 */
#ifndef DYNHZ_TICK_H
#define DYNHZ_TICK_H

#include <dynhz/types.h>
#include <dynhz/clockevent.h>

/*
 * Boots time on dev, for the host and the kernel alike: reads hz= from the
 * command line (dz_hz_parse), registers dev if it is not yet (a driver
 * that wants the result registers it first), asks dev for periodic ticks
 * at that rate and takes the exact period it reports, fixes HZ and every
 * derived constant (dz_hz_setup: jiffies = INITIAL_JIFFIES), starts the
 * timer wheel and the timekeeping epoch, makes the periodic tick dev's
 * event_handler, reads nohz=on|off (tickless idle, below) and prints the
 * setup report. Returns
 * dz_hz_parse()'s verdict: 0, -DZ_EINVAL or -DZ_ERANGE (the boot goes on
 * with the fallback either way). Panics if the device cannot tick
 * periodically: there is no kernel without a tick.
 * Pending timers of an earlier boot are forgotten (no longer pending).
 */
int dz_time_init(const char *cmdline, struct clock_event_device *dev);

/* The same, printing no report (only the command-line messages). */
int dz_time_init_quiet(const char *cmdline, struct clock_event_device *dev);

/**
 * dz_time_exit() - stop time for a boot afresh
 *
 * For a simulator between two boots: the tick device is shut down and let
 * go, queued hrtimers are forgotten; jiffies and the clocks stay as they
 * were until the next dz_time_init(), and a clocksource may change
 * meanwhile without the old tick noticing.
 */
void dz_time_exit(void);

/* The device that ticks, or NULL before dz_time_init(). */
struct clock_event_device *dz_tick_device(void);

/* Ticks since dz_time_init(): jiffies_64 - INITIAL_JIFFIES. */
u64 dz_tick_count(void);

/*
 * A hook the port's tick work hangs on (the kernel's scheduler accounting):
 * called on every interrupt of the tick device, after the core's own work
 * (jiffies, timekeeping, timers), with interrupts off. NULL: none. Once
 * per interrupt, not per jiffy: after tickless idle one interrupt may
 * account many jiffies, and dz_tick_skip() calls no hook.
 */
void dz_tick_set_hook(void (*hook)(void));

/*
 * Skipping idle ticks, for a port that simulates time (the hosted port's
 * fast-forward):
 * dz_tick_idle_max() is how many of the coming ticks could pass with nothing
 * to do (no timer expires or moves, no clocksource wrap to catch; U64_MAX if
 * nothing at all is pending); dz_tick_skip(n) accounts n <= that many ticks
 * at once, exactly as n calls of the handler would. Interrupts off.
 */
u64 dz_tick_idle_max(void);
void dz_tick_skip(u64 n);

/*
 * Tickless idle (nohz=on, the default; nohz=off keeps the tick periodic).
 *
 * The idle loop calls tick_nohz_idle_enter() with interrupts off just before
 * it halts, every time it halts: if no timer is due at the next tick, the
 * periodic tick stops and the device is programmed one-shot for the jiffy of
 * the next timer (or as far as the clocksource and the device can span).
 * Any interrupt of the device then brings jiffies up to date in one step,
 * from the clocksource, and runs the timers due. Before the idle loop runs a
 * thread it calls tick_nohz_idle_exit() (interrupts off): jiffies catch up,
 * and the periodic tick resumes at the next jiffy boundary.
 *
 * Jiffy n is the n-th period of the tick grid, anchored on the clocksource
 * at the first periodic tick, so a jiffy counted after an idle stretch is
 * the same one the periodic tick would have counted: none lost or doubled.
 * Without a one-shot device or a clocksource the tick stays periodic.
 */
void tick_nohz_idle_enter(void);
void tick_nohz_idle_exit(void);

/* nohz=on and the device and clocksource allow it. */
bool dz_tick_nohz_active(void);

/* Counters since dz_time_init(). */
struct dz_tick_stats {
	u64 interrupts;	  /* interrupts of the tick device: the CPU's timer wakeups */
	u64 idle_entries; /* calls of tick_nohz_idle_enter(): halts */
	u64 stops;	  /* times the periodic tick was stopped */
	u64 idle_jiffies; /* jiffies accounted by catching up, not by a tick */
};
void dz_tick_stats(struct dz_tick_stats *st);

#endif
