/* SPDX-License-Identifier: MIT */
/* Port I/O and memory-mapped register access. */
#ifndef ASM_IO_H
#define ASM_IO_H

#include <dynhz/types.h>

static inline void outb(u16 port, u8 v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline u8 inb(u16 port)
{
	u8 v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outw(u16 port, u16 v)
{
	__asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

/* Memory-mapped device registers: volatile, and a compiler barrier. */
static inline u32 mmio_read32(uintptr_t addr)
{
	return *(volatile u32 *)addr;
}

static inline void mmio_write32(uintptr_t addr, u32 v)
{
	*(volatile u32 *)addr = v;
}

#endif
