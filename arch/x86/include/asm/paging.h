/* SPDX-License-Identifier: MIT */
/*
 * i386 paging, two levels of 4 KiB pages (arch/x86/paging.c; its calls are
 * declared in <kernel/arch.h>, which includes this for the entry bits and
 * the inline primitives). Every page directory shares the kernel's
 * tables: the low KERNEL_MAP_TOP bytes of physical memory at their own
 * addresses, the kmap window above them and the local APIC's page at the
 * top, all supervisor-only. The rest below USER_TOP is the process's.
 */
#ifndef ASM_PAGING_H
#define ASM_PAGING_H

#include <dynhz/types.h>

#define PTE_P	 0x001U /* present */
#define PTE_W	 0x002U /* writable */
#define PTE_U	 0x004U /* user-accessible */
#define PTE_PWT	 0x008U
#define PTE_PCD	 0x010U /* uncached: device memory */
#define PTE_ADDR 0xfffff000U

static inline void load_cr3(u32 pgdir)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(pgdir) : "memory");
}

static inline u32 read_cr3(void)
{
	u32 v;

	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline void invlpg(u32 va)
{
	__asm__ volatile("invlpg (%0)" : : "r"(va) : "memory");
}

#endif
