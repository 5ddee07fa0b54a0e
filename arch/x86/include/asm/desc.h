/* SPDX-License-Identifier: MIT */
/*
 * Segment selectors and descriptor tables.
 *
 * Every segment is flat (base 0, 4 GiB): paging (asm/paging.h) is what
 * keeps ring 3 out of the kernel. Entries 6 to 8 are the current process's
 * thread-local-storage segments, as on Linux i386.
 */
#ifndef ASM_DESC_H
#define ASM_DESC_H

#define KERNEL_CS 0x08
#define KERNEL_DS 0x10
#define USER_CS	  0x1b /* GDT entry 3, RPL 3 */
#define USER_DS	  0x23 /* GDT entry 4, RPL 3 */
#define TSS_SEL	  0x28 /* GDT entry 5 */

#define GDT_TLS_FIRST	6
#define GDT_TLS_ENTRIES 3
#define GDT_ENTRIES	9

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

/* Loads the three TLS descriptors of the process about to run. */
void gdt_set_tls(const u64 *desc);

#endif /* __ASSEMBLY__ */

#endif
