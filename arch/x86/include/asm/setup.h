/* SPDX-License-Identifier: MIT */
/*
 * The boot CPU's bring-up, as arch/x86/setup.c runs it (arch_setup() of
 * <kernel/arch.h>): each part's entry point.
 */
#ifndef ASM_SETUP_H
#define ASM_SETUP_H

#include <dynhz/types.h>

/* What the loader left in EAX and EBX, stored by boot.S before start_kernel(). */
extern u32 multiboot_magic, multiboot_info;

void gdt_init(void);
void idt_init(void);
/* Lets ring 3 raise `vector` with INT (a DPL-3 trap gate: interrupts stay on). */
void idt_allow_user(unsigned int vector);
/* Turns on the FPU and SSE (CR0, CR4); panics on a CPU without FXSR and SSE. */
void fpu_init(void);

#endif
