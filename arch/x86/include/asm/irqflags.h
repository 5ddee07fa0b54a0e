/* SPDX-License-Identifier: MIT */
/*
 * The core's critical sections on x86 (through <dynhz/port.h>): on one CPU,
 * disabling interrupts is all the locking there is. Inline, so that a timer
 * operation costs a pushf and a cli, not two calls.
 */
#ifndef ASM_IRQFLAGS_H
#define ASM_IRQFLAGS_H

#include <asm/cpu.h>

static inline unsigned long dz_irq_save(void)
{
	unsigned long flags = read_eflags();

	local_irq_disable();
	return flags;
}

static inline void dz_irq_restore(unsigned long flags)
{
	if (flags & X86_EFLAGS_IF)
		local_irq_enable();
}

#endif
