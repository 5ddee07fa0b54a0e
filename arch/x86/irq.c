// SPDX-License-Identifier: MIT
/*
 * Interrupt dispatch: from the common entry stub to the handler that
 * claimed the vector, then the kernel's sched_irq_exit() (where the
 * scheduler preempts); a system call to the kernel's syscall_handle(), in
 * the calling thread; and before a return to ring 3 the kernel's
 * user_return(). The interrupt-flag save/restore the core uses for its
 * critical sections is inline, in <asm/irqflags.h>.
 */
#include <kernel/arch.h>
#include <asm/irq.h>
#include <dynhz/printk.h>

static struct {
	vector_handler_t fn;
	void *data;
} vectors[NR_VECTORS];

static unsigned int depth;

void vector_register(unsigned int vector, vector_handler_t fn, void *data)
{
	unsigned long flags = dz_irq_save();

	DZ_BUG_ON(vector < FIRST_EXTERNAL_VECTOR || vector >= NR_VECTORS);
	vectors[vector].data = data;
	vectors[vector].fn = fn;
	dz_irq_restore(flags);
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
	if (f->vector == SYSCALL_VECTOR && frame_from_user(f)) {
		syscall_handle(f);
		local_irq_disable();
		return;
	}
	if (unlikely(!vectors[f->vector].fn))
		dz_panic("unexpected interrupt on vector %u at eip 0x%x", (unsigned int)f->vector,
			 (unsigned int)f->eip);
	depth++;
	vectors[f->vector].fn(f, vectors[f->vector].data);
	depth--;
	sched_irq_exit();
}

void x86_interrupt(struct irq_frame *f)
{
	dispatch(f);
	/* Back to ring 3: the signals it has pending are delivered first. */
	if (frame_from_user(f))
		user_return(f);
}
