/* SPDX-License-Identifier: MIT */
/*
 * Segment selectors and the GDT's layout (<kernel/arch.h> includes them
 * through asm/ptrace.h: user frames and TLS slots name them).
 *
 * Every segment is flat (base 0, 4 GiB): paging (asm/paging.h) is what
 * keeps ring 3 out of the kernel. Entries 6 to 8 are the current process's
 * thread-local-storage segments, as on Linux i386.
 */
#ifndef ASM_SEGMENT_H
#define ASM_SEGMENT_H

#define KERNEL_CS 0x08
#define KERNEL_DS 0x10
#define USER_CS	  0x1b /* GDT entry 3, RPL 3 */
#define USER_DS	  0x23 /* GDT entry 4, RPL 3 */
#define TSS_SEL	  0x28 /* GDT entry 5 */

#define GDT_TLS_FIRST	6
#define GDT_TLS_ENTRIES 3
#define GDT_ENTRIES	9

#endif
