/* SPDX-License-Identifier: MIT */
/*
 * The address-space layout the kernel (kernel/mm/) and the arch's page
 * tables (arch/x86/paging.c, through <kernel/arch.h>) agree on.
 *
 * The kernel sees the first KERNEL_MAP_TOP bytes of physical memory at the
 * same addresses, in every address space, supervisor-only; pages above
 * that are for user space only, and the kernel reaches one through kmap().
 * A process owns USER_START to USER_TOP.
 */
#ifndef KERNEL_LAYOUT_H
#define KERNEL_LAYOUT_H

#define PAGE_SIZE     4096U
#define PAGE_MASK     (~(PAGE_SIZE - 1))
#define PAGE_ALIGN(x) (((x) + PAGE_SIZE - 1) & PAGE_MASK)

#define KERNEL_MAP_TOP 0x07c00000U /* 124 MiB: the kernel's direct view of memory */
#define KMAP_BASE      0x07c00000U /* 4 MiB of temporary mappings (kmap) */
#define USER_START     0x08000000U /* below: the kernel's; a user pointer there is -EFAULT */
#define USER_TOP       0xc0000000U /* the stack's top; above: the kernel's (the local APIC) */
#define USER_STACK_MAX 0x00800000U /* 8 MiB reserved for the stack */
#define USER_MMAP_TOP  (USER_TOP - USER_STACK_MAX - PAGE_SIZE) /* mmap grows down from here */
#define USER_PIE_BASE  0x56555000U /* where a static-pie is placed, as Linux does */

#endif
