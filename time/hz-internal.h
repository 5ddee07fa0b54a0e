/* SPDX-License-Identifier: MIT */
/* What the core's own files (and its unit tests) share about HZ setup. */
#ifndef DYNHZ_HZ_INTERNAL_H
#define DYNHZ_HZ_INTERNAL_H

#include <dynhz/hz.h>

/* Forgets hz setup, as before boot: the debug build's HZ then traps. */
void dz_hz_forget(void);

#ifndef CONFIG_HZ
/*
 * The conversion constants' next generation: built into the block that
 * dz_timeconst_next() returns (not the one in force), then made the one in
 * force, atomically, by dz_timeconst_publish().
 */
struct dz_timeconst *dz_timeconst_next(void);
void dz_timeconst_publish(struct dz_timeconst *tc);
#endif

/*
 * HZ changed at runtime (time/retune.c): the new rate and exact period in
 * force from now on, reported with source "runtime"; the constants are
 * already published.
 */
void dz_hz_set_runtime(unsigned int hz, struct dz_tick_period period);

/* retune.c: a boot starts the count of changes again (hooks stay registered). */
void dz_hz_retune_boot(void);

/* The report's last line alone (the machine-readable `time:` line). */
void dz_hz_report_time_line(void);

#endif
