/* SPDX-License-Identifier: MIT */
/*
 * What the core needs from the platform it runs on: somewhere to print, a
 * way to stop, and a way to keep the tick interrupt out of a critical
 * section (docs/PORTING.md). A port implements the first two as functions.
 * The interrupt flag is saved and restored inline, so that the timer
 * operations stay leaf functions: a port with interrupts names its own
 * header in DYNHZ_PORT_IRQFLAGS_H when it builds the core (the x86 kernel:
 * -DDYNHZ_PORT_IRQFLAGS_H='<asm/irqflags.h>'), which defines both as static
 * inline functions. Without it they are no-ops, as on the hosted port,
 * where ticks are function calls.
 */
#ifndef DYNHZ_PORT_H
#define DYNHZ_PORT_H

#include <dynhz/types.h>

void dz_port_console_write(const char *s, size_t len);
_Noreturn void dz_port_panic_exit(void);

/*
 * unsigned long dz_irq_save(void);
 * void dz_irq_restore(unsigned long flags);
 *
 * Disables interrupts and returns the previous state, for dz_irq_restore().
 * Timer operations and timekeeping reads use them, as the tick interrupt
 * changes the same data. Nest freely. No-ops on the host, where ticks are
 * function calls.
 */
#ifdef DYNHZ_PORT_IRQFLAGS_H
#include DYNHZ_PORT_IRQFLAGS_H
#else
static inline unsigned long dz_irq_save(void)
{
	return 0;
}

static inline void dz_irq_restore(unsigned long flags)
{
	(void)flags;
}
#endif

#endif
