// SPDX-License-Identifier: MIT
/*
 * Copies between the kernel and the current process (kernel/uaccess.h).
 * The process's directory is the one loaded while it runs, so once a page
 * is known to be there, with the access allowed, the kernel reads or
 * writes it at the user's own address. Nothing faults: the check comes
 * first, page by page, and a page not yet touched is filled as a fault
 * from user space would fill it.
 */
#include <kernel/uaccess.h>
#include <kernel/mm.h>
#include <kernel/errno.h>
#include <kernel/string.h>

/* Makes the page holding uaddr ready for the access; 0 or -EFAULT. */
static long page_ready(struct mm *mm, u32 uaddr, bool write)
{
	bool writable = false;

	if (uaddr < USER_START || uaddr >= USER_TOP)
		return -EFAULT;
	if (mm_lookup(mm, uaddr, &writable) && (writable || !write))
		return 0;
	return mm_fault_in(mm, uaddr, write) ? -EFAULT : 0;
}

/* Calls fn on each piece of [uaddr, uaddr+len) that lies in one ready page. */
static long for_each_page(u32 uaddr, u32 len, bool write, void (*fn)(u32 uaddr, u32 n, void *ctx),
			  void *ctx)
{
	struct mm *mm = mm_current();

	if (!mm || len > USER_TOP || uaddr > USER_TOP - len)
		return -EFAULT;
	while (len) {
		u32 n = PAGE_SIZE - (uaddr & ~PAGE_MASK);

		if (n > len)
			n = len;
		if (page_ready(mm, uaddr, write))
			return -EFAULT;
		fn(uaddr, n, ctx);
		uaddr += n;
		len -= n;
	}
	return 0;
}

static void noop(u32 uaddr, u32 n, void *ctx)
{
	(void)uaddr;
	(void)n;
	(void)ctx;
}

bool user_access_ok(u32 uaddr, u32 len, bool write)
{
	return for_each_page(uaddr, len, write, noop, NULL) == 0;
}

static void copy_in(u32 uaddr, u32 n, void *ctx)
{
	char **dst = ctx;

	memcpy(*dst, (const void *)(uintptr_t)uaddr, n);
	*dst += n;
}

long copy_from_user(void *dst, u32 usrc, u32 len)
{
	char *d = dst;

	return for_each_page(usrc, len, false, copy_in, &d);
}

static void copy_out(u32 uaddr, u32 n, void *ctx)
{
	const char **src = ctx;

	memcpy((void *)(uintptr_t)uaddr, *src, n);
	*src += n;
}

long copy_to_user(u32 udst, const void *src, u32 len)
{
	const char *s = src;

	return for_each_page(udst, len, true, copy_out, &s);
}

static void zero_out(u32 uaddr, u32 n, void *ctx)
{
	(void)ctx;
	memset((void *)(uintptr_t)uaddr, 0, n);
}

long clear_user(u32 udst, u32 len)
{
	return for_each_page(udst, len, true, zero_out, NULL);
}

long strncpy_from_user(char *dst, u32 usrc, u32 max)
{
	struct mm *mm = mm_current();

	if (!mm || !max)
		return -EFAULT;
	for (u32 i = 0; i < max; i++, usrc++) {
		if ((i == 0 || !(usrc & ~PAGE_MASK)) && page_ready(mm, usrc, false))
			return -EFAULT;
		dst[i] = *(const char *)(uintptr_t)usrc;
		if (!dst[i])
			return (long)i;
	}
	return -ENAMETOOLONG;
}
