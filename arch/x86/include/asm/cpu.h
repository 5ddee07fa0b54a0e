/* SPDX-License-Identifier: MIT */
/* The few privileged instructions the kernel needs, as inline functions. */
#ifndef ASM_CPU_H
#define ASM_CPU_H

#include <dynhz/types.h>

#define X86_EFLAGS_IF (1U << 9)

static inline u64 rdtsc(void)
{
	u32 lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)));
}

static inline void cpuid(u32 leaf, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(0));
}

static inline unsigned long read_eflags(void)
{
	unsigned long f;

	__asm__ volatile("pushfl; popl %0" : "=r"(f) : : "memory");
	return f;
}

static inline void local_irq_disable(void)
{
	__asm__ volatile("cli" : : : "memory");
}

static inline void local_irq_enable(void)
{
	__asm__ volatile("sti" : : : "memory");
}

static inline bool irqs_disabled(void)
{
	return !(read_eflags() & X86_EFLAGS_IF);
}

/*
 * Enables interrupts and halts in one step: STI takes effect only after the
 * next instruction, so an interrupt that is already pending wakes the HLT
 * instead of slipping in between and being missed.
 */
static inline void safe_halt(void)
{
	__asm__ volatile("sti; hlt" : : : "memory");
}

static inline void cpu_relax(void)
{
	__asm__ volatile("pause" : : : "memory");
}

static inline u32 read_cr2(void)
{
	u32 v;

	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

#endif
