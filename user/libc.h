/* SPDX-License-Identifier: MIT */
/*
 * A very small C library for user programs, with the usual names and
 * semantics: on failure a call returns -1 and sets errno. Every tick count
 * (times(), sysconf(_SC_CLK_TCK), uptime()) is in USER_HZ ticks, 100 per
 * second, whatever HZ the kernel runs at.
 */
#ifndef USER_LIBC_H
#define USER_LIBC_H

#include <stddef.h>
#include <stdarg.h>
#include <stdbool.h>
#include <kernel/uapi.h>

typedef long clock_t;
typedef int pid_t;
typedef int clockid_t;
typedef long ssize_t;
typedef long time_t;

struct timespec {
	time_t tv_sec;
	long tv_nsec;
};

struct tms {
	clock_t tms_utime;  /* CPU time in user mode */
	clock_t tms_stime;  /* CPU time in the kernel on our behalf */
	clock_t tms_cutime; /* of waited-for children: always 0 here */
	clock_t tms_cstime;
};

_Static_assert(sizeof(struct timespec) == sizeof(struct uapi_timespec), "timespec ABI");
_Static_assert(sizeof(struct tms) == sizeof(struct uapi_tms), "tms ABI");

#define CLOCK_MONOTONIC UAPI_CLOCK_MONOTONIC
#define CLOCK_BOOTTIME	UAPI_CLOCK_BOOTTIME
#define _SC_CLK_TCK	UAPI_SC_CLK_TCK

#define EBADF  UAPI_EBADF
#define EFAULT UAPI_EFAULT
#define EINVAL UAPI_EINVAL
#define ENOSYS UAPI_ENOSYS

extern int errno;

/* The raw call: a result in -4095..-1 is -errno, as on Linux. */
static inline long __syscall(long nr, long a, long b, long c)
{
	long r;

	__asm__ volatile("int $0x80" : "=a"(r) : "a"(nr), "b"(a), "c"(b), "d"(c) : "memory");
	return r;
}

long syscall(long nr, long a, long b, long c);
ssize_t write(int fd, const void *buf, size_t len);
_Noreturn void _exit(int status);
pid_t getpid(void);
clock_t times(struct tms *buf);
long sysconf(int name);
int clock_gettime(clockid_t id, struct timespec *ts);
int nanosleep(const struct timespec *req, struct timespec *rem);
/* USER_HZ ticks since boot (this kernel's own call; Linux has sysinfo()). */
clock_t uptime(void);

/* Formatting: %d %u %x %s %c with l and ll, to fd 1. */
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap);
size_t strlen(const char *s);
int strncmp(const char *a, const char *b, size_t n);

#endif
