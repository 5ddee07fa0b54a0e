// SPDX-License-Identifier: MIT
/*
 * A flat GDT of our own: the loader's may be anywhere and is not ours to
 * keep. Code and data both span the 4 GiB address space at ring 0, so
 * segmentation does nothing and addresses are physical (no paging either).
 */
#include <asm/desc.h>

/* base 0, limit 0xfffff in 4 KiB units, 32-bit; access byte as given */
#define FLAT_DESC(access) (0x00cf000000000000ULL | ((u64)(access) << 40) | 0xffffULL)

static const u64 gdt[] __attribute__((aligned(8))) = {
	0,
	[KERNEL_CS / 8] = FLAT_DESC(0x9a), /* present, ring 0, code, readable */
	[KERNEL_DS / 8] = FLAT_DESC(0x92), /* present, ring 0, data, writable */
};

void gdt_init(void)
{
	struct desc_ptr p = { sizeof(gdt) - 1, (u32)(uintptr_t)gdt };

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
			 :
			 : "m"(p), "i"(KERNEL_CS), "i"(KERNEL_DS)
			 : "eax", "memory");
}
