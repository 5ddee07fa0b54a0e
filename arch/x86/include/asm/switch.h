/* SPDX-License-Identifier: MIT */
/* Thread stacks and the switch between them (switch.S). */
#ifndef ASM_SWITCH_H
#define ASM_SWITCH_H

#include <dynhz/types.h>

/* Saves the callee-saved registers on this stack, stores SP in *prev_sp, runs next_sp. */
void arch_switch_to(unsigned long *prev_sp, unsigned long next_sp);

void arch_thread_entry(void);

/*
 * Lays out a new stack as arch_switch_to() would have left it, returning
 * into arch_thread_entry, which calls sched_thread_start(). The stack is
 * 16-byte aligned at that call, as the i386 ABI wants.
 */
static inline unsigned long arch_thread_stack_init(void *top)
{
	u32 *sp = (u32 *)((uintptr_t)top & ~(uintptr_t)15);

	sp -= 4; /* padding: aligned once the entry address is popped */
	*--sp = (u32)(uintptr_t)arch_thread_entry;
	*--sp = 0; /* ebp: ends backtraces */
	*--sp = 0; /* ebx */
	*--sp = 0; /* esi */
	*--sp = 0; /* edi */
	return (unsigned long)(uintptr_t)sp;
}

#endif
