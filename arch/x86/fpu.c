// SPDX-License-Identifier: MIT
/* The FPU and SSE, on for ring 3 (asm/fpu.h). */
#include <kernel/arch.h>
#include <asm/setup.h>
#include <dynhz/printk.h>

#define CR0_MP	       (1U << 1)
#define CR0_EM	       (1U << 2)
#define CR0_TS	       (1U << 3)
#define CR0_NE	       (1U << 5)
#define CR4_OSFXSR     (1U << 9)
#define CR4_OSXMMEXCPT (1U << 10)
#define CPUID_FXSR     (1U << 24)
#define CPUID_SSE      (1U << 25)
#define MXCSR_DEFAULT  0x1f80 /* every exception masked, round to nearest */

static u8 initial[FPU_STATE_SIZE] __attribute__((aligned(16)));

void fpu_init(void)
{
	u32 a, b, c, d, cr;

	cpuid(1, &a, &b, &c, &d);
	if ((d & (CPUID_FXSR | CPUID_SSE)) != (CPUID_FXSR | CPUID_SSE))
		dz_panic("fpu: this CPU has no FXSR and SSE (cpuid 1 edx 0x%x)", (unsigned int)d);
	__asm__ volatile("mov %%cr0, %0" : "=r"(cr));
	cr = (cr & ~(CR0_EM | CR0_TS)) | CR0_MP | CR0_NE;
	__asm__ volatile("mov %0, %%cr0" : : "r"(cr));
	__asm__ volatile("mov %%cr4, %0" : "=r"(cr));
	cr |= CR4_OSFXSR | CR4_OSXMMEXCPT;
	__asm__ volatile("mov %0, %%cr4" : : "r"(cr));
	__asm__ volatile("fninit");
	fpu_save(initial);
	/* MXCSR is at byte 24 of the FXSAVE area. */
	*(u32 *)(initial + 24) = MXCSR_DEFAULT;
	fpu_restore(initial);
}

void fpu_init_state(u8 *state)
{
	memcpy(state, initial, FPU_STATE_SIZE);
}
