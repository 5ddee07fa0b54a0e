/* SPDX-License-Identifier: MIT */
/*
 * Interrupt entry and dispatch. Every one of the 256 vectors has a gate
 * (entry.S) that saves the registers (struct irq_frame, asm/ptrace.h) and
 * calls x86_interrupt(): exceptions (0-31) go to x86_exception(), the
 * legacy PIC's lines arrive on vectors 32-47, the local APIC uses vectors
 * at the top, the system call is the kernel's (syscall_handle() of
 * <kernel/arch.h>).
 */
#ifndef ASM_IRQ_H
#define ASM_IRQ_H

#define FIRST_EXTERNAL_VECTOR 32
#define PIC_IRQ_BASE	      32 /* IRQ 0-15 -> vectors 32-47 */
#define NR_PIC_IRQS	      16
#define LAPIC_TIMER_VECTOR    0xf0
#define LAPIC_SPURIOUS_VECTOR 0xff
#define NR_VECTORS	      256

#include <asm/ptrace.h>

#ifndef __ASSEMBLY__
#include <dynhz/types.h>

typedef void (*vector_handler_t)(struct irq_frame *f, void *data);

/* Claims a vector for a handler, which must acknowledge its own interrupt. */
void vector_register(unsigned int vector, vector_handler_t fn, void *data);

/*
 * Called from entry.S with interrupts disabled. After a handler (not an
 * exception, not the system call) the kernel's sched_irq_exit(); before a
 * return to ring 3 its user_return().
 */
void x86_interrupt(struct irq_frame *f);

/* Saved flags around a critical section: dz_irq_save(), dz_irq_restore(). */
#include <dynhz/port.h>

/*
 * An exception. From ring 3 it goes to the kernel's user_fault(), which
 * may handle it (a page filled on first touch) and return; anything else
 * is fatal: the exception and the kernel's state are printed and the
 * machine exits with failure.
 */
void x86_exception(struct irq_frame *f);

/*
 * Prints what the kernel was doing (its sched_describe(): the current
 * thread, its activity) when it stopped, once: the exception and panic
 * paths call it.
 */
void trap_describe(void);

#endif /* __ASSEMBLY__ */

#endif
