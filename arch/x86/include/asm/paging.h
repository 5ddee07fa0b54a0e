/* SPDX-License-Identifier: MIT */
/*
 * i386 paging, two levels of 4 KiB pages (arch/x86/paging.c). Every page
 * directory shares the kernel's tables: the low KERNEL_MAP_TOP bytes of
 * physical memory at their own addresses, the kmap window above them and
 * the local APIC's page at the top, all supervisor-only. The rest below
 * USER_TOP is the process's.
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

/* Builds the kernel's tables and turns paging on (CR0.PG, CR0.WP). */
void paging_init(void);
/* The kernel's own page directory (physical). */
u32 paging_kernel_pgdir(void);
/* A new directory: a zeroed low page with the kernel's entries; 0 if none left. */
u32 paging_new_pgdir(void);

/*
 * The entry for va in the directory pgdir, making its table (a low page)
 * when create is set; NULL when there is none (or none could be made).
 */
u32 *paging_pte(u32 pgdir, u32 va, bool create);

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
