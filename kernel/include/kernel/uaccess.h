/* SPDX-License-Identifier: MIT */
/*
 * The only way the kernel touches user memory. Every address is checked
 * against the current process's areas, page by page, and filled in if not
 * yet touched, before a byte moves: a pointer into the kernel, into no
 * area, or (for writes) into a read-only one gives -EFAULT, never a kernel
 * fault. The user's pointer is a u32 so it cannot be dereferenced by
 * mistake.
 */
#ifndef KERNEL_UACCESS_H
#define KERNEL_UACCESS_H

#include <dynhz/types.h>

/* 0, or -EFAULT (nothing copied past the first bad page). */
long copy_from_user(void *dst, u32 usrc, u32 len);
long copy_to_user(u32 udst, const void *src, u32 len);
long clear_user(u32 udst, u32 len);

/*
 * Copies a NUL-terminated string of at most max - 1 bytes; returns its
 * length, -EFAULT, or -ENAMETOOLONG when no NUL comes within max bytes.
 */
long strncpy_from_user(char *dst, u32 usrc, u32 max);

/* Whether [uaddr, uaddr+len) may be read (or written): the check alone. */
bool user_access_ok(u32 uaddr, u32 len, bool write);

#endif
