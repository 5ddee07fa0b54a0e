/* SPDX-License-Identifier: MIT */
/*
 * Interrupt entry and dispatch. Every one of the 256 vectors has a gate
 * (entry.S) that saves the registers and calls x86_interrupt() with the
 * frame below: exceptions (0-31) are fatal and reported, the legacy PIC's
 * lines arrive on vectors 32-47, the local APIC uses vectors at the top.
 */
#ifndef ASM_IRQ_H
#define ASM_IRQ_H

#define FIRST_EXTERNAL_VECTOR	32
#define PIC_IRQ_BASE		32	/* IRQ 0-15 -> vectors 32-47 */
#define NR_PIC_IRQS		16
#define LAPIC_TIMER_VECTOR	0xf0
#define LAPIC_SPURIOUS_VECTOR	0xff
#define NR_VECTORS		256

#ifndef __ASSEMBLY__
#include <dynhz/types.h>

/* What entry.S pushes, lowest address first. */
struct irq_frame {
	u32 edi, esi, ebp, esp_unused, ebx, edx, ecx, eax; /* PUSHAL */
	u32 vector, error;	/* error is 0 for vectors without one */
	u32 eip, cs, eflags;	/* pushed by the CPU (no privilege change) */
};

typedef void (*vector_handler_t)(struct irq_frame *f, void *data);

/* Claims a vector for a handler, which must acknowledge its own interrupt. */
void vector_register(unsigned int vector, vector_handler_t fn, void *data);

/* Called from entry.S with interrupts disabled. */
void x86_interrupt(struct irq_frame *f);

/* Nesting depth of interrupt handlers: 0 in thread context. */
unsigned int irq_depth(void);

/*
 * Runs after every interrupt handler, with interrupts still disabled, once
 * the interrupt is acknowledged: the scheduler preempts from here.
 */
void irq_set_exit_hook(void (*fn)(void));

/* Saved flags around a critical section (the port hooks of the core). */
unsigned long dz_irq_save(void);
void dz_irq_restore(unsigned long flags);

void idt_init(void);
void gdt_init(void);

/* Fatal: prints the exception and the kernel's state, exits with failure. */
_Noreturn void x86_exception(struct irq_frame *f);

/*
 * Prints what the kernel was doing (current thread, activity) when it
 * stopped; the kernel installs it, the exception and panic paths call it.
 */
void trap_set_describe_hook(void (*fn)(void));
void trap_describe(void);

#endif /* __ASSEMBLY__ */

#endif
