/* SPDX-License-Identifier: MIT */
/* Segment selectors and descriptor-table pointers. */
#ifndef ASM_DESC_H
#define ASM_DESC_H

#include <dynhz/types.h>
#include <asm/irq.h>

#define KERNEL_CS 0x08
#define KERNEL_DS 0x10

/* The operand of LGDT and LIDT. */
struct desc_ptr {
	u16 limit;
	u32 base;
} __attribute__((packed));

#endif
