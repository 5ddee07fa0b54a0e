// SPDX-License-Identifier: MIT
/*
 * Interrupt dispatch: from the common entry stub to the handler that
 * claimed the vector, then the exit hook (where the scheduler preempts).
 * The interrupt-flag save/restore the core uses for its critical sections
 * is inline, in <asm/irqflags.h>.
 */
#include <asm/irq.h>
#include <asm/cpu.h>
#include <dynhz/printk.h>

static struct {
	vector_handler_t fn;
	void *data;
} vectors[NR_VECTORS];

static unsigned int depth;
static void (*exit_hook)(void);
static void (*syscall_fn)(struct irq_frame *f);
static void (*user_return_fn)(struct irq_frame *f);

void irq_set_user_return_hook(void (*fn)(struct irq_frame *f))
{
	user_return_fn = fn;
}

void irq_set_syscall_handler(void (*fn)(struct irq_frame *f))
{
	syscall_fn = fn;
}

void vector_register(unsigned int vector, vector_handler_t fn, void *data)
{
	unsigned long flags = dz_irq_save();

	DZ_BUG_ON(vector < FIRST_EXTERNAL_VECTOR || vector >= NR_VECTORS);
	vectors[vector].data = data;
	vectors[vector].fn = fn;
	dz_irq_restore(flags);
}

void irq_set_exit_hook(void (*fn)(void))
{
	exit_hook = fn;
}

unsigned int irq_depth(void)
{
	return depth;
}

static void dispatch(struct irq_frame *f)
{
	if (f->vector < FIRST_EXTERNAL_VECTOR) {
		x86_exception(f);
		return;
	}
	/* A system call is the calling thread's own work: it may sleep. */
	if (f->vector == SYSCALL_VECTOR && syscall_fn && frame_from_user(f)) {
		syscall_fn(f);
		local_irq_disable();
		return;
	}
	if (unlikely(!vectors[f->vector].fn))
		dz_panic("unexpected interrupt on vector %u at eip 0x%x", (unsigned int)f->vector,
			 (unsigned int)f->eip);
	depth++;
	vectors[f->vector].fn(f, vectors[f->vector].data);
	depth--;
	if (exit_hook)
		exit_hook();
}

void x86_interrupt(struct irq_frame *f)
{
	dispatch(f);
	/* Back to ring 3: the signals it has pending are delivered first. */
	if (frame_from_user(f) && user_return_fn)
		user_return_fn(f);
}
