/* SPDX-License-Identifier: MIT */
/*
 * The FPU and SSE for user space (arch/x86/fpu.c). The kernel itself is
 * built without them (-mgeneral-regs-only), so a process's registers only
 * change in ring 3: they are saved when its thread is switched out and
 * restored when it comes back, whole, with FXSAVE/FXRSTOR.
 */
#ifndef ASM_FPU_H
#define ASM_FPU_H

#include <dynhz/types.h>

#define FPU_STATE_SIZE 512

/* Turns on the FPU and SSE (CR0, CR4); panics on a CPU without FXSR and SSE. */
void fpu_init(void);
/* The state a new program starts with (FNINIT, MXCSR 0x1f80). */
void fpu_init_state(u8 *state);

static inline void fpu_save(u8 *state)
{
	__asm__ volatile("fxsave (%0)" : : "r"(state) : "memory");
}

static inline void fpu_restore(const u8 *state)
{
	__asm__ volatile("fxrstor (%0)" : : "r"(state) : "memory");
}

#endif
