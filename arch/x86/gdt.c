// SPDX-License-Identifier: MIT
/*
 * The GDT of our own (the loader's may be anywhere and is not ours to
 * keep): flat ring-0 code and data, flat ring-3 code and data (paging keeps
 * user space out of the kernel), the TSS, which the CPU reads for one thing
 * only: the kernel stack to use when an interrupt arrives in ring 3, and the
 * three thread-local-storage slots a process sets with set_thread_area,
 * reloaded at every switch (arch_set_tls(); set_thread_area is the
 * kernel's, kernel/sched/tls.c).
 */
#include <kernel/arch.h>
#include <asm/desc.h>
#include <asm/setup.h>

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

void arch_set_kernel_stack(void *top)
{
	tss.esp0 = (u32)(uintptr_t)top;
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

void arch_set_tls(const u64 *desc)
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

/* ---- set_thread_area's descriptors (kernel/sched/tls.c keeps the slots) ---- */

/* struct user_desc (<kernel/arch.h>): its flags word, as <asm/ldt.h> has its bit fields. */
_Static_assert(sizeof(struct user_desc) == 16, "user_desc is 16 bytes on i386");

#define UD_SEG_32BIT	   (1U << 0)
#define UD_CONTENTS_SHIFT  1 /* 2 bits: 0 data, 1 expand-down data, 2/3 code */
#define UD_READ_EXEC_ONLY  (1U << 3)
#define UD_LIMIT_IN_PAGES  (1U << 4)
#define UD_SEG_NOT_PRESENT (1U << 5)
#define UD_USEABLE	   (1U << 6)

#define DESC_TYPE_SHIFT 40
#define DESC_S		(1ULL << 44) /* code or data, not system */
#define DESC_DPL3	(3ULL << 45)
#define DESC_P		(1ULL << 47)
#define DESC_AVL	(1ULL << 52)
#define DESC_DB		(1ULL << 54)
#define DESC_G		(1ULL << 55)

#define UD_BITS 0x7fU /* the flags i386 has; Linux ignores the word's other bits */

/*
 * The two ways to ask for "no segment" (Linux's LDT_empty and LDT_zero):
 * read-only and not present, or every field zero.
 */
static bool ud_empty(const struct user_desc *u)
{
	u32 f = u->flags & UD_BITS;

	return !u->base_addr && !u->limit &&
	       (f == (UD_READ_EXEC_ONLY | UD_SEG_NOT_PRESENT) || f == 0);
}

/*
 * Linux's tls_desc_okay(): anything else must be a present 32-bit data
 * segment. %gs or %fs may hold the slot, and the kernel reloads them on
 * every return to ring 3: a segment that cannot be loaded would fault
 * there, in the kernel.
 */
bool arch_tls_valid(const struct user_desc *u)
{
	if (ud_empty(u))
		return true;
	return (u->flags & UD_SEG_32BIT) && ((u->flags >> UD_CONTENTS_SHIFT) & 3) <= 1 &&
	       !(u->flags & UD_SEG_NOT_PRESENT);
}

u64 arch_tls_encode(const struct user_desc *u)
{
	u32 contents = (u->flags >> UD_CONTENTS_SHIFT) & 3;
	/* accessed, writable unless read-only, expand-down if asked */
	u64 type = 1 | (!(u->flags & UD_READ_EXEC_ONLY) << 1) | (contents << 2);
	u64 d = (u->limit & 0xffff) | ((u64)(u->base_addr & 0xffffff) << 16) |
		((u64)((u->limit >> 16) & 0xf) << 48) | ((u64)(u->base_addr >> 24) << 56);

	if (ud_empty(u)) /* "no segment": an empty slot */
		return 0;
	d |= type << DESC_TYPE_SHIFT | DESC_S | DESC_DPL3;
	if (!(u->flags & UD_SEG_NOT_PRESENT))
		d |= DESC_P;
	if (u->flags & UD_SEG_32BIT)
		d |= DESC_DB;
	if (u->flags & UD_LIMIT_IN_PAGES)
		d |= DESC_G;
	if (u->flags & UD_USEABLE)
		d |= DESC_AVL;
	return d;
}

void arch_tls_decode(u64 d, struct user_desc *u)
{
	u32 type = (u32)(d >> DESC_TYPE_SHIFT) & 0xf;

	u->base_addr = (u32)((d >> 16) & 0xffffff) | (u32)((d >> 56) << 24);
	u->limit = (u32)(d & 0xffff) | (u32)(((d >> 48) & 0xf) << 16);
	u->flags = ((d & DESC_DB) ? UD_SEG_32BIT : 0) | (((type >> 2) & 3) << UD_CONTENTS_SHIFT) |
		   ((type & 2) ? 0 : UD_READ_EXEC_ONLY) | ((d & DESC_G) ? UD_LIMIT_IN_PAGES : 0) |
		   ((d & DESC_P) ? 0 : UD_SEG_NOT_PRESENT) | ((d & DESC_AVL) ? UD_USEABLE : 0);
	if (!d)
		u->flags = UD_READ_EXEC_ONLY | UD_SEG_NOT_PRESENT;
}

/*
 * A slot just emptied may still be named by a data segment register the
 * return to ring 3 reloads: it becomes the null selector, as Linux's
 * fixup of that reload makes it.
 */
void arch_tls_forget(struct irq_frame *f, u32 entry)
{
	u32 *regs[] = { &f->gs, &f->fs, &f->es, &f->ds };

	for (unsigned int i = 0; i < 4; i++)
		if ((*regs[i] & 0xffff) >> 3 == entry && !(*regs[i] & 4))
			*regs[i] = 0;
}
