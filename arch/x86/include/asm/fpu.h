/* SPDX-License-Identifier: MIT */
/*
 * The FPU and SSE for user space (arch/x86/fpu.c). The kernel itself is
 * built without them (-mgeneral-regs-only), so a process's registers only
 * change in ring 3: they are saved when its thread is switched out and
 * restored when it comes back, whole, with FXSAVE/FXRSTOR. Turned on at
 * boot (fpu_init(), asm/setup.h); a new program's state is fpu_init_state()
 * of <kernel/arch.h>.
 */
#ifndef ASM_FPU_H
#define ASM_FPU_H

#include <dynhz/types.h>

#define FPU_STATE_SIZE 512

static inline void fpu_save(u8 *state)
{
	__asm__ volatile("fxsave (%0)" : : "r"(state) : "memory");
}

static inline void fpu_restore(const u8 *state)
{
	__asm__ volatile("fxrstor (%0)" : : "r"(state) : "memory");
}

#endif
