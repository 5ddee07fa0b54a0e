/* SPDX-License-Identifier: MIT */
/*
 * What the core needs from the platform it runs on: somewhere to print, a
 * way to stop, and a way to keep the tick interrupt out of a critical
 * section. The hosted port (host/) and the x86 kernel (arch/x86/) each
 * implement the first two; the interrupt flag is saved and restored inline,
 * by the port's header chosen at build time (the kernel's build defines
 * DYNHZ_ARCH_X86), so that the timer operations stay leaf functions.
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
#if defined(DYNHZ_ARCH_X86)
#include <asm/irqflags.h>
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
