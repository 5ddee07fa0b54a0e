// SPDX-License-Identifier: MIT
/*
 * The interrupt descriptor table: a gate for each of the 256 vectors,
 * pointing at its stub in entry.S. All are interrupt gates (the CPU clears
 * IF on entry), so interrupt and exception handlers run with interrupts
 * off and do not nest; the one exception is the system-call vector, a trap
 * gate user code may raise (idt_allow_user()), whose handler runs with
 * interrupts on, so a tick can come in the middle of a system call.
 */
#include <asm/desc.h>
#include <asm/setup.h>

#define STUB_SIZE	 16   /* entry.S aligns each stub to 16 bytes */
#define GATE_INTR32	 0x8e /* present, ring 0, 32-bit interrupt gate */
#define GATE_TRAP32_USER 0xef /* present, ring 3 may INT, 32-bit trap gate */

struct idt_gate {
	u16 offset_lo;
	u16 selector;
	u8 zero;
	u8 type_attr;
	u16 offset_hi;
} __attribute__((packed));

extern const char isr_stubs[];
static struct idt_gate idt[NR_VECTORS] __attribute__((aligned(8)));

void idt_init(void)
{
	struct desc_ptr p = { sizeof(idt) - 1, (u32)(uintptr_t)idt };

	for (unsigned int v = 0; v < NR_VECTORS; v++) {
		u32 addr = (u32)(uintptr_t)(isr_stubs + v * STUB_SIZE);

		idt[v] = (struct idt_gate){ .offset_lo = (u16)addr,
					    .selector = KERNEL_CS,
					    .type_attr = GATE_INTR32,
					    .offset_hi = (u16)(addr >> 16) };
	}
	__asm__ volatile("lidt %0" : : "m"(p) : "memory");
}

void idt_allow_user(unsigned int vector)
{
	idt[vector].type_attr = GATE_TRAP32_USER;
}
