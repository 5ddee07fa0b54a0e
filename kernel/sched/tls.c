// SPDX-License-Identifier: MIT
/*
 * set_thread_area and get_thread_area: the i386 thread pointer. glibc and
 * musl ask for a free slot (entry_number -1), get one of GDT entries 6-8
 * back, and load %gs with it; the slots are the process's and are put in
 * the GDT whenever it runs (arch_set_tls()). What a struct user_desc is
 * as a descriptor is the arch's (arch_tls_valid(), _encode(), _decode(),
 * arch/x86/gdt.c); which slot, and what the process sees, is here.
 */
#include <kernel/proc.h>
#include <kernel/arch.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/errno.h>

/*
 * As Linux's do_set_thread_area(): the descriptor is judged before any
 * slot is chosen. f, the frame that returns to ring 3 with the new
 * descriptors, or NULL (a child's, which clone fills in itself).
 */
long tls_set(struct proc *p, u32 uinfo, bool can_allocate, struct irq_frame *f)
{
	struct user_desc u;
	u32 slot;

	if (copy_from_user(&u, uinfo, sizeof(u)))
		return -EFAULT;
	if (!arch_tls_valid(&u))
		return -EINVAL;
	if (u.entry_number == 0xffffffffU) {
		if (!can_allocate)
			return -EINVAL;
		for (slot = 0; slot < PROC_TLS_ENTRIES && p->tls[slot]; slot++)
			;
		if (slot == PROC_TLS_ENTRIES)
			return -ESRCH;
		u.entry_number = PROC_TLS_FIRST + slot;
		if (copy_to_user(uinfo, &u.entry_number, sizeof(u.entry_number)))
			return -EFAULT;
	} else if (u.entry_number < PROC_TLS_FIRST ||
		   u.entry_number >= PROC_TLS_FIRST + PROC_TLS_ENTRIES) {
		return -EINVAL;
	}
	slot = u.entry_number - PROC_TLS_FIRST;
	p->tls[slot] = arch_tls_encode(&u);
	if (f && !p->tls[slot])
		arch_tls_forget(f, u.entry_number);
	return 0;
}

/* The caller's frame is needed: the 0-argument form gives it, the argument is in a[0]. */
SYSCALL_DEFINE0(set_thread_area)
{
	struct proc *p = proc_current();
	long err = tls_set(p, args->a[0], true, args->frame);

	if (!err)
		arch_set_tls(p->tls);
	return err;
}

SYSCALL_DEFINE1(get_thread_area, u32, uinfo)
{
	struct proc *p = proc_current();
	struct user_desc u;

	if (copy_from_user(&u.entry_number, uinfo, sizeof(u.entry_number)))
		return -EFAULT;
	if (u.entry_number < PROC_TLS_FIRST || u.entry_number >= PROC_TLS_FIRST + PROC_TLS_ENTRIES)
		return -EINVAL;
	arch_tls_decode(p->tls[u.entry_number - PROC_TLS_FIRST], &u);
	return copy_to_user(uinfo, &u, sizeof(u));
}
