/* SPDX-License-Identifier: MIT */
/* A process's TLS descriptors, GDT entries 6-8 (arch/x86/tls.c). */
#ifndef ASM_TLS_H
#define ASM_TLS_H

#include <dynhz/types.h>

struct proc;

/*
 * Sets one of p's TLS descriptors from the struct user_desc at uinfo in
 * the current process's memory, as set_thread_area does (the GDT itself
 * is not touched: the caller loads it when p runs). can_allocate lets
 * entry_number -1 pick a free slot, written back to uinfo; clone's
 * CLONE_SETTLS may not. f: the frame that returns p to ring 3, whose
 * segment registers naming a slot just emptied become null (Linux's
 * fixup), or NULL. 0, -EFAULT, -EINVAL or -ESRCH (no free slot).
 */
struct irq_frame;
long tls_set(struct proc *p, u32 uinfo, bool can_allocate, struct irq_frame *f);

#endif
