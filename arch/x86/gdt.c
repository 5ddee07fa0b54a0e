// SPDX-License-Identifier: MIT
/*
 * The GDT of our own (the loader's may be anywhere and is not ours to
 * keep): flat ring-0 code and data, flat ring-3 code and data (paging keeps
 * user space out of the kernel), the TSS, which the CPU reads for one thing
 * only: the kernel stack to use when an interrupt arrives in ring 3, and the
 * three thread-local-storage slots a process sets with set_thread_area,
 * reloaded at every switch (arch/x86/tls.c).
 */
#include <asm/desc.h>

/* The hardware task-state segment; only ss0 and esp0 are used. */
struct tss {
	u32 link, esp0, ss0, esp1, ss1, esp2, ss2, cr3, eip, eflags;
	u32 eax, ecx, edx, ebx, esp, ebp, esi, edi;
	u32 es, cs, ss, ds, fs, gs, ldt;
	u16 trap, iomap_base;
} __attribute__((packed));

#define SEG_4K_32 0xc  /* flags: limit in 4 KiB units, 32-bit */
#define ACC_KCODE 0x9a /* present, ring 0, code, readable */
#define ACC_KDATA 0x92 /* present, ring 0, data, writable */
#define ACC_UCODE 0xfa /* present, ring 3, code, readable */
#define ACC_UDATA 0xf2 /* present, ring 3, data, writable */
#define ACC_TSS32 0x89 /* present, ring 0, available 32-bit TSS */

static struct tss tss;
/* Not const: LTR writes the TSS descriptor's busy bit. */
static u64 gdt[GDT_ENTRIES] __attribute__((aligned(8)));

static u64 seg_desc(u32 base, u32 limit, u8 access, u8 flags)
{
	return (u64)(limit & 0xffff) | ((u64)(base & 0xffffff) << 16) | ((u64)access << 40) |
	       ((u64)((limit >> 16) & 0xf) << 48) | ((u64)flags << 52) | ((u64)(base >> 24) << 56);
}

void tss_set_esp0(u32 esp0)
{
	tss.esp0 = esp0;
}

static void gdt_fill(void)
{
	gdt[KERNEL_CS / 8] = seg_desc(0, 0xfffff, ACC_KCODE, SEG_4K_32);
	gdt[KERNEL_DS / 8] = seg_desc(0, 0xfffff, ACC_KDATA, SEG_4K_32);
	gdt[USER_CS / 8] = seg_desc(0, 0xfffff, ACC_UCODE, SEG_4K_32);
	gdt[USER_DS / 8] = seg_desc(0, 0xfffff, ACC_UDATA, SEG_4K_32);
	tss.ss0 = KERNEL_DS;
	/* An I/O bitmap offset past the limit: ring 3 may use no port at all. */
	tss.iomap_base = sizeof(tss);
	gdt[TSS_SEL / 8] = seg_desc((u32)(uintptr_t)&tss, sizeof(tss) - 1, ACC_TSS32, 0);
}

void gdt_set_tls(const u64 *desc)
{
	for (unsigned int i = 0; i < GDT_TLS_ENTRIES; i++)
		gdt[GDT_TLS_FIRST + i] = desc[i];
}

void gdt_init(void)
{
	struct desc_ptr p = { sizeof(gdt) - 1, (u32)(uintptr_t)gdt };

	gdt_fill();
	/* Loading the GDTR changes nothing until the segment registers are reloaded. */
	__asm__ volatile("lgdt %0\n\t"
			 "ljmp %1, $1f\n"
			 "1:\n\t"
			 "mov %2, %%ax\n\t"
			 "mov %%ax, %%ds\n\t"
			 "mov %%ax, %%es\n\t"
			 "mov %%ax, %%fs\n\t"
			 "mov %%ax, %%gs\n\t"
			 "mov %%ax, %%ss\n\t"
			 "mov %3, %%ax\n\t"
			 "ltr %%ax\n\t"
			 :
			 : "m"(p), "i"(KERNEL_CS), "i"(KERNEL_DS), "i"(TSS_SEL)
			 : "eax", "memory");
}
