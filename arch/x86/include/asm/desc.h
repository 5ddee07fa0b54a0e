/* SPDX-License-Identifier: MIT */
/*
 * Descriptor tables (arch/x86/gdt.c, idt.c): the selectors and the GDT's
 * layout are asm/segment.h's. The TSS's kernel stack and the TLS slots
 * are set through <kernel/arch.h> (arch_set_kernel_stack(), arch_set_tls()).
 */
#ifndef ASM_DESC_H
#define ASM_DESC_H

#include <asm/segment.h>

#ifndef __ASSEMBLY__
#include <dynhz/types.h>
#include <asm/irq.h>

/* The operand of LGDT and LIDT. */
struct desc_ptr {
	u16 limit;
	u32 base;
} __attribute__((packed));

#endif /* __ASSEMBLY__ */

#endif
