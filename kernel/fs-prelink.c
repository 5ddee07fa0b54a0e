// SPDX-License-Identifier: MIT
/*
 * TEMPORARY, for wip-fs only: weak stand-ins for the core's processes,
 * memory and user access (kernel/proc.c, mm.c, uaccess.c, being written on
 * main), so that the file layer links into the kernel before they land.
 * Each answers as if no process existed and no user memory were mapped.
 * The core's real definitions override these; this file goes when main's
 * core is merged into wip-fs.
 */
#include <kernel/proc.h>
#include <kernel/mm.h>
#include <kernel/uaccess.h>
#include <kernel/errno.h>

#define WEAK __attribute__((weak))

WEAK struct proc *proc_current(void)
{
	return NULL;
}

WEAK struct proc *proc_find(int pid)
{
	(void)pid;
	return NULL;
}

WEAK unsigned int proc_list(struct proc **out, unsigned int max)
{
	(void)out;
	(void)max;
	return 0;
}

WEAK void proc_cputime_ns(struct proc *p, u64 *utime, u64 *stime)
{
	*utime = p->utime_ns;
	*stime = p->stime_ns;
}

WEAK void page_stats_read(struct page_stats *st)
{
	st->total = st->free = st->kernel = 0;
}

WEAK long copy_from_user(void *dst, u32 usrc, u32 len)
{
	(void)dst, (void)usrc, (void)len;
	return -EFAULT;
}

WEAK long copy_to_user(u32 udst, const void *src, u32 len)
{
	(void)udst, (void)src, (void)len;
	return -EFAULT;
}

WEAK long strncpy_from_user(char *dst, u32 usrc, u32 max)
{
	(void)dst, (void)usrc, (void)max;
	return -EFAULT;
}

WEAK bool user_access_ok(u32 uaddr, u32 len, bool write)
{
	(void)uaddr, (void)len, (void)write;
	return false;
}
