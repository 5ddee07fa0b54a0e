/* SPDX-License-Identifier: MIT */
/* Dropping to ring 3 (see asm/desc.h for the user region). */
#ifndef ASM_USERMODE_H
#define ASM_USERMODE_H

#include <dynhz/types.h>

/*
 * Loads the user segments and IRETs to eip with the stack at esp (both
 * offsets in the user region), interrupts on. The caller's kernel stack is
 * abandoned: set the TSS's esp0 first, interrupts from ring 3 land there.
 */
_Noreturn void arch_enter_user(u32 eip, u32 esp);

/* The image of the user program, linked into the kernel (user_image.S). */
extern const char user_image_start[], user_image_end[];

#endif
