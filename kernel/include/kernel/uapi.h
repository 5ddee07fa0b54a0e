/* SPDX-License-Identifier: MIT */
/*
 * The system-call interface, shared by the kernel and user programs: no
 * kernel types here, only what both sides agree on.
 *
 * A user program raises `int $0x80` with the call number in EAX and up to
 * three arguments in EBX, ECX, EDX; the result comes back in EAX, a
 * negative errno on failure. Numbers are those of Linux on i386 where
 * Linux has the call; sysconf and uptime are this kernel's own.
 *
 * Every tick value crossing this interface is in USER_HZ ticks (100 per
 * second), whatever HZ the kernel was booted with.
 */
#ifndef KERNEL_UAPI_H
#define KERNEL_UAPI_H

#define SYS_exit	  1
#define SYS_write	  4
#define SYS_getpid	  20
#define SYS_times	  43
#define SYS_nanosleep	  162
#define SYS_clock_gettime 265
#define SYS_sysconf	  400 /* (name): only _SC_CLK_TCK */
#define SYS_uptime	  401 /* (): USER_HZ ticks since boot */

#define UAPI_EBADF  9
#define UAPI_EFAULT 14
#define UAPI_EINVAL 22
#define UAPI_ENOSYS 38

#define UAPI_CLOCK_MONOTONIC 1
#define UAPI_CLOCK_BOOTTIME  7 /* the same clock: this kernel never suspends */
#define UAPI_SC_CLK_TCK	     2

/* Where a user program lives in its segment: the first page stays unused, so NULL is -EFAULT. */
#define UAPI_USER_LOAD 0x1000

/* As on Linux i386: 32-bit long everywhere. */
struct uapi_timespec {
	long tv_sec;
	long tv_nsec;
};

struct uapi_tms {
	long tms_utime;
	long tms_stime;
	long tms_cutime;
	long tms_cstime;
};

#endif
