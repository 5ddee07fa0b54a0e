// SPDX-License-Identifier: MIT
/*
 * Page tables (asm/paging.h). The kernel's part is built once, in the BSS,
 * and every process's directory points at the same tables, so a kmap or a
 * kernel mapping made once is seen everywhere.
 *
 * Page 0 stays unmapped, so that a NULL dereference in the kernel faults
 * instead of reading the real-mode vectors.
 */
#include <kernel/arch.h>
#include <dynhz/printk.h>

#define PDE_SHIFT      22
#define KERNEL_PDES    (KERNEL_MAP_TOP >> PDE_SHIFT) /* 31 */
#define KMAP_PDE       (KMAP_BASE >> PDE_SHIFT)
#define APIC_REGION    0xfec00000U /* I/O APIC and local APIC: one 4 MiB slot */
#define APIC_PDE       (APIC_REGION >> PDE_SHIFT)
#define USER_PDE_FIRST (USER_START >> PDE_SHIFT)
#define USER_PDE_END   (USER_TOP >> PDE_SHIFT)
#define KMAP_SLOTS     4

static u32 kernel_pd[1024] __attribute__((aligned(4096)));
static u32 kernel_pt[KERNEL_PDES][1024] __attribute__((aligned(4096)));
static u32 kmap_pt[1024] __attribute__((aligned(4096)));
static u32 apic_pt[1024] __attribute__((aligned(4096)));

static u32 pa_of(const void *p)
{
	return (u32)(uintptr_t)p; /* the kernel's memory is identity-mapped */
}

void paging_init(void)
{
	for (u32 t = 0; t < KERNEL_PDES; t++) {
		for (u32 i = 0; i < 1024; i++)
			kernel_pt[t][i] = ((t << PDE_SHIFT) + i * PAGE_SIZE) | PTE_P | PTE_W;
		kernel_pd[t] = pa_of(kernel_pt[t]) | PTE_P | PTE_W;
	}
	kernel_pt[0][0] = 0;
	kernel_pd[KMAP_PDE] = pa_of(kmap_pt) | PTE_P | PTE_W;
	for (u32 i = 0; i < 1024; i++)
		apic_pt[i] = (APIC_REGION + i * PAGE_SIZE) | PTE_P | PTE_W | PTE_PCD | PTE_PWT;
	kernel_pd[APIC_PDE] = pa_of(apic_pt) | PTE_P | PTE_W;
	load_cr3(pa_of(kernel_pd));
	/* PG on; WP so that the kernel too is stopped by a read-only page. */
	__asm__ volatile("mov %%cr0, %%eax\n\t"
			 "or $0x80010000, %%eax\n\t"
			 "mov %%eax, %%cr0"
			 :
			 :
			 : "eax", "memory");
}

u32 paging_kernel_pgdir(void)
{
	return pa_of(kernel_pd);
}

u32 paging_new_pgdir(void)
{
	u32 pd = page_alloc(true);

	if (pd)
		memcpy((void *)(uintptr_t)pd, kernel_pd, sizeof(kernel_pd));
	return pd;
}

u32 *paging_pte(u32 pgdir, u32 va, bool create)
{
	u32 *pd = (u32 *)(uintptr_t)pgdir, *pt;
	u32 i = va >> PDE_SHIFT;

	if (!(pd[i] & PTE_P)) {
		u32 t;

		if (!create || i < USER_PDE_FIRST || i >= USER_PDE_END || !(t = page_alloc(true)))
			return NULL;
		pd[i] = t | PTE_P | PTE_W | PTE_U;
	}
	pt = (u32 *)(uintptr_t)(pd[i] & PTE_ADDR);
	return &pt[(va >> 12) & 1023];
}

void *kmap(u32 pa, unsigned int slot)
{
	u32 va = KMAP_BASE + slot * PAGE_SIZE;

	if (pa < KERNEL_MAP_TOP)
		return (void *)(uintptr_t)pa;
	if (slot >= KMAP_SLOTS)
		dz_panic("kmap: no slot %u", slot);
	kmap_pt[slot] = (pa & PTE_ADDR) | PTE_P | PTE_W;
	invlpg(va);
	return (void *)(uintptr_t)va;
}

void kunmap(unsigned int slot)
{
	if (slot < KMAP_SLOTS && kmap_pt[slot]) {
		kmap_pt[slot] = 0;
		invlpg(KMAP_BASE + slot * PAGE_SIZE);
	}
}
