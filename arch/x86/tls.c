// SPDX-License-Identifier: MIT
/*
 * set_thread_area and get_thread_area: the i386 thread pointer. glibc and
 * musl ask for a free slot (entry_number -1), get one of GDT entries 6-8
 * back, and load %gs with it; the slots are the process's and are put in
 * the GDT whenever it runs (gdt_set_tls).
 */
#include <kernel/proc.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/errno.h>
#include <asm/desc.h>
#include <asm/tls.h>
#include <asm/irq.h>

/* struct user_desc, as <asm/ldt.h> has it: three words and a word of bit fields. */
struct user_desc {
	u32 entry_number;
	u32 base_addr;
	u32 limit;
	u32 flags;
};
#define UD_SEG_32BIT	   (1U << 0)
#define UD_CONTENTS_SHIFT  1 /* 2 bits: 0 data, 1 expand-down data, 2/3 code */
#define UD_READ_EXEC_ONLY  (1U << 3)
#define UD_LIMIT_IN_PAGES  (1U << 4)
#define UD_SEG_NOT_PRESENT (1U << 5)
#define UD_USEABLE	   (1U << 6)

_Static_assert(sizeof(struct user_desc) == 16, "user_desc is 16 bytes on i386");

#define DESC_TYPE_SHIFT 40
#define DESC_S		(1ULL << 44) /* code or data, not system */
#define DESC_DPL3	(3ULL << 45)
#define DESC_P		(1ULL << 47)
#define DESC_AVL	(1ULL << 52)
#define DESC_DB		(1ULL << 54)
#define DESC_G		(1ULL << 55)

#define UD_BITS 0x7fU /* the flags i386 has; Linux ignores the word's other bits */

/*
 * The two ways to ask for "no segment" (Linux's LDT_empty and LDT_zero):
 * read-only and not present, or every field zero.
 */
static bool ud_empty(const struct user_desc *u)
{
	u32 f = u->flags & UD_BITS;

	return !u->base_addr && !u->limit &&
	       (f == (UD_READ_EXEC_ONLY | UD_SEG_NOT_PRESENT) || f == 0);
}

/*
 * Linux's tls_desc_okay(): anything else must be a present 32-bit data
 * segment. %gs or %fs may hold the slot, and the kernel reloads them on
 * every return to ring 3: a segment that cannot be loaded would fault
 * there, in the kernel.
 */
static bool ud_okay(const struct user_desc *u)
{
	if (ud_empty(u))
		return true;
	return (u->flags & UD_SEG_32BIT) && ((u->flags >> UD_CONTENTS_SHIFT) & 3) <= 1 &&
	       !(u->flags & UD_SEG_NOT_PRESENT);
}

static u64 ud_to_desc(const struct user_desc *u)
{
	u32 contents = (u->flags >> UD_CONTENTS_SHIFT) & 3;
	/* accessed, writable unless read-only, expand-down if asked */
	u64 type = 1 | (!(u->flags & UD_READ_EXEC_ONLY) << 1) | (contents << 2);
	u64 d = (u->limit & 0xffff) | ((u64)(u->base_addr & 0xffffff) << 16) |
		((u64)((u->limit >> 16) & 0xf) << 48) | ((u64)(u->base_addr >> 24) << 56);

	d |= type << DESC_TYPE_SHIFT | DESC_S | DESC_DPL3;
	if (!(u->flags & UD_SEG_NOT_PRESENT))
		d |= DESC_P;
	if (u->flags & UD_SEG_32BIT)
		d |= DESC_DB;
	if (u->flags & UD_LIMIT_IN_PAGES)
		d |= DESC_G;
	if (u->flags & UD_USEABLE)
		d |= DESC_AVL;
	return d;
}

static void desc_to_ud(u64 d, struct user_desc *u)
{
	u32 type = (u32)(d >> DESC_TYPE_SHIFT) & 0xf;

	u->base_addr = (u32)((d >> 16) & 0xffffff) | (u32)((d >> 56) << 24);
	u->limit = (u32)(d & 0xffff) | (u32)(((d >> 48) & 0xf) << 16);
	u->flags = ((d & DESC_DB) ? UD_SEG_32BIT : 0) | (((type >> 2) & 3) << UD_CONTENTS_SHIFT) |
		   ((type & 2) ? 0 : UD_READ_EXEC_ONLY) | ((d & DESC_G) ? UD_LIMIT_IN_PAGES : 0) |
		   ((d & DESC_P) ? 0 : UD_SEG_NOT_PRESENT) | ((d & DESC_AVL) ? UD_USEABLE : 0);
	if (!d)
		u->flags = UD_READ_EXEC_ONLY | UD_SEG_NOT_PRESENT;
}

/*
 * A slot just emptied may still be named by a data segment register the
 * return to ring 3 reloads: it becomes the null selector, as Linux's
 * fixup of that reload makes it.
 */
static void drop_selectors(struct irq_frame *f, u32 entry)
{
	u32 *regs[] = { &f->gs, &f->fs, &f->es, &f->ds };

	for (unsigned int i = 0; i < 4; i++)
		if ((*regs[i] & 0xffff) >> 3 == entry && !(*regs[i] & 4))
			*regs[i] = 0;
}

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
	if (!ud_okay(&u))
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
	p->tls[slot] = ud_empty(&u) ? 0 : ud_to_desc(&u);
	if (f && !p->tls[slot])
		drop_selectors(f, u.entry_number);
	return 0;
}

/* The caller's frame is needed: the 0-argument form gives it, the argument is in a[0]. */
SYSCALL_DEFINE0(set_thread_area)
{
	struct proc *p = proc_current();
	long err = tls_set(p, args->a[0], true, args->frame);

	if (!err)
		gdt_set_tls(p->tls);
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
	desc_to_ud(p->tls[u.entry_number - PROC_TLS_FIRST], &u);
	return copy_to_user(uinfo, &u, sizeof(u));
}
