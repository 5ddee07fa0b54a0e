/* SPDX-License-Identifier: MIT */
/*
 * Segment selectors and descriptor tables.
 *
 * There is no paging: the kernel's segments are flat (base 0, 4 GiB), and
 * the user's segments cover only the user region, USER_BASE to USER_BASE +
 * USER_SIZE. A user address is an offset in that region, and the kernel
 * checks every user pointer against USER_SIZE. On hardware the segment
 * limit also stops a user access beyond the region (#GP in ring 3); QEMU's
 * TCG does not check data-segment limits, so there only the kernel's own
 * checks hold: real isolation would need paging.
 */
#ifndef ASM_DESC_H
#define ASM_DESC_H

#define KERNEL_CS 0x08
#define KERNEL_DS 0x10
#define USER_CS	  0x1b /* GDT entry 3, RPL 3 */
#define USER_DS	  0x23 /* GDT entry 4, RPL 3 */
#define TSS_SEL	  0x28 /* GDT entry 5 */

#define USER_BASE 0x400000 /* 4 MiB: above the kernel image */
#define USER_SIZE 0x100000 /* 1 MiB, a whole number of 4 KiB pages */

#ifndef __ASSEMBLY__
#include <dynhz/types.h>
#include <asm/irq.h>

/* The operand of LGDT and LIDT. */
struct desc_ptr {
	u16 limit;
	u32 base;
} __attribute__((packed));

/* The kernel stack the CPU switches to on an interrupt from ring 3. */
void tss_set_esp0(u32 esp0);

#endif /* __ASSEMBLY__ */

#endif
