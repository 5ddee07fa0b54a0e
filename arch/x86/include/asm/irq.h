/* SPDX-License-Identifier: MIT */
/*
 * Interrupt entry and dispatch. Every one of the 256 vectors has a gate
 * (entry.S) that saves the registers and calls x86_interrupt() with the
 * frame below: exceptions (0-31) are fatal and reported, the legacy PIC's
 * lines arrive on vectors 32-47, the local APIC uses vectors at the top.
 */
#ifndef ASM_IRQ_H
#define ASM_IRQ_H

#define FIRST_EXTERNAL_VECTOR 32
#define PIC_IRQ_BASE	      32 /* IRQ 0-15 -> vectors 32-47 */
#define NR_PIC_IRQS	      16
#define LAPIC_TIMER_VECTOR    0xf0
#define LAPIC_SPURIOUS_VECTOR 0xff
#define NR_VECTORS	      256

#ifndef __ASSEMBLY__
#include <dynhz/types.h>

/* What entry.S pushes, lowest address first. */
struct irq_frame {
	u32 edi, esi, ebp, esp_unused, ebx, edx, ecx, eax; /* PUSHAL */
	u32 gs, fs, es, ds;    /* the interrupted segments (user ones from ring 3) */
	u32 vector, error;     /* error is 0 for vectors without one */
	u32 eip, cs, eflags;   /* pushed by the CPU */
	u32 user_esp, user_ss; /* pushed by the CPU only when it came from ring 3 */
};

/* Did the interrupt or exception come from user mode (ring 3)? */
static inline bool frame_from_user(const struct irq_frame *f)
{
	return (f->cs & 3) != 0;
}

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

/* Saved flags around a critical section: dz_irq_save(), dz_irq_restore(). */
#include <dynhz/port.h>

void idt_init(void);
void gdt_init(void);

/* Lets ring 3 raise `vector` with INT (a DPL-3 trap gate: interrupts stay on). */
void idt_allow_user(unsigned int vector);

/*
 * The system-call vector: x86_interrupt() hands it to the handler set here,
 * in thread context (no interrupt nesting counted), so a system call may sleep.
 */
#define SYSCALL_VECTOR 0x80
void irq_set_syscall_handler(void (*fn)(struct irq_frame *f));

/*
 * An exception. From ring 3 it goes to the user fault hook, which may
 * handle it (a page filled on first touch) and return; anything else is
 * fatal: the exception and the kernel's state are printed and the machine
 * exits with failure.
 */
void x86_exception(struct irq_frame *f);

/* Runs, interrupts off, before every return to ring 3 (signal delivery). */
void irq_set_user_return_hook(void (*fn)(struct irq_frame *f));

/*
 * Prints what the kernel was doing (current thread, activity) when it
 * stopped; the kernel installs it, the exception and panic paths call it.
 */
void trap_set_describe_hook(void (*fn)(void));
void trap_describe(void);

/*
 * An exception from ring 3 is the user program's, not the kernel's: the
 * hook set here returns true when it was handled (the program goes on),
 * or reports it and ends the program; false: not a user task after all.
 */
void trap_set_user_fault_hook(bool (*fn)(struct irq_frame *f, const char *name));

#endif /* __ASSEMBLY__ */

#endif
