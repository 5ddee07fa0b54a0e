/* SPDX-License-Identifier: MIT */
/* The time-stamp counter: the clocksource, calibrated against the PIT. */
#ifndef ASM_TSC_H
#define ASM_TSC_H

#include <dynhz/types.h>

/*
 * Measures the TSC rate and registers it as the clocksource; returns the
 * rate in Hz (arch_clock_init()). tsc_hz() and tsc_to_ns() are
 * <kernel/arch.h>'s.
 */
u64 tsc_init(void);

#endif
