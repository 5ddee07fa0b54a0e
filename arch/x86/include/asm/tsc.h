/* SPDX-License-Identifier: MIT */
/* The time-stamp counter: the clocksource, calibrated against the PIT. */
#ifndef ASM_TSC_H
#define ASM_TSC_H

#include <dynhz/types.h>

/* Measures the TSC rate and registers it as the clocksource; returns the rate in Hz. */
u64 tsc_init(void);

/* The calibrated rate in Hz (0 before tsc_init). */
u64 tsc_hz(void);

/* TSC counts to nanoseconds, rounded down (for measurements). */
u64 tsc_to_ns(u64 cycles);

#endif
