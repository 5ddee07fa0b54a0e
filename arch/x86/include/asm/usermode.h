/* SPDX-License-Identifier: MIT */
/* Dropping to ring 3. */
#ifndef ASM_USERMODE_H
#define ASM_USERMODE_H

#include <dynhz/types.h>

/*
 * Loads the user segments and IRETs to eip with the stack at esp,
 * interrupts on, every general register zero (the i386 ABI: EDX is the
 * function a C library registers with atexit, 0 for none). The caller's
 * kernel stack is abandoned: set the TSS's esp0 first, interrupts from
 * ring 3 land there.
 */
_Noreturn void arch_enter_user(u32 eip, u32 esp);

struct irq_frame;
/*
 * Returns to ring 3 through f, a whole frame from ring 3 (a forked child's
 * copy of its parent's system-call frame), as an interrupt's end does:
 * every register, segment and flag from f. Interrupts off; f should be at
 * the top of the thread's stack (the TSS's esp0), which it becomes.
 */
_Noreturn void arch_enter_user_frame(struct irq_frame *f);

#endif
