/* SPDX-License-Identifier: MIT */
/* Facts about the periodic tick that only the driver knows. */
#ifndef ASM_TICK_H
#define ASM_TICK_H

#include <dynhz/types.h>

/*
 * The TSC when the periodic tick device started its first period: tick n
 * comes n periods later. The self-test checks against it that no tick was
 * ever lost.
 */
extern u64 x86_tick_start_tsc;

/*
 * The TSC at the start of the PIT's last periodic tick interrupt (read
 * there anyway, for lost ticks): where the interrupt-off window of a
 * change of HZ, applied in that tick, begins (kernel/test/retunebench.c).
 */
extern u64 x86_tick_irq_tsc;

#endif
