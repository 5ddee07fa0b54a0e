// SPDX-License-Identifier: MIT
/* The system-call wrappers and a small printf (see libc.h). */
#include "libc.h"

int errno;

static long ret(long r)
{
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

long syscall(long nr, long a, long b, long c)
{
	return ret(__syscall(nr, a, b, c));
}

ssize_t write(int fd, const void *buf, size_t len)
{
	return syscall(SYS_write, fd, (long)buf, (long)len);
}

_Noreturn void _exit(int status)
{
	__syscall(SYS_exit, status, 0, 0);
	for (;;)
		__asm__ volatile("ud2"); /* exit does not return; if it did, fault */
}

pid_t getpid(void)
{
	return (pid_t)syscall(SYS_getpid, 0, 0, 0);
}

clock_t times(struct tms *buf)
{
	return syscall(SYS_times, (long)buf, 0, 0);
}

long sysconf(int name)
{
	return syscall(SYS_sysconf, name, 0, 0);
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	return (int)syscall(SYS_clock_gettime, id, (long)ts, 0);
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	return (int)syscall(SYS_nanosleep, (long)req, (long)rem, 0);
}

clock_t uptime(void)
{
	return syscall(SYS_uptime, 0, 0, 0);
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++)
		if (*a != *b || !*a)
			return (unsigned char)*a - (unsigned char)*b;
	return 0;
}

/* Output is gathered in a buffer and written once: one system call a line. */
struct out {
	char buf[256];
	size_t n;
};

static void put(struct out *o, char c)
{
	if (o->n == sizeof(o->buf)) {
		write(1, o->buf, o->n);
		o->n = 0;
	}
	o->buf[o->n++] = c;
}

static void put_num(struct out *o, unsigned long long v, unsigned int base, bool neg)
{
	char d[24];
	int i = 0;

	do {
		d[i++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (neg)
		put(o, '-');
	while (i)
		put(o, d[--i]);
}

static void put_arg(struct out *o, char conv, int longs, va_list *ap)
{
	long long s;
	unsigned long long u;

	if (conv == 'd') {
		s = longs == 2 ? va_arg(*ap, long long)
		    : longs    ? va_arg(*ap, long)
			       : va_arg(*ap, int);
		put_num(o, s < 0 ? 0ULL - (unsigned long long)s : (unsigned long long)s, 10, s < 0);
	} else if (conv == 'u' || conv == 'x') {
		u = longs == 2 ? va_arg(*ap, unsigned long long)
		    : longs    ? va_arg(*ap, unsigned long)
			       : va_arg(*ap, unsigned int);
		put_num(o, u, conv == 'x' ? 16 : 10, false);
	} else if (conv == 's') {
		for (const char *p = va_arg(*ap, const char *); *p; p++)
			put(o, *p);
	} else if (conv == 'c') {
		put(o, (char)va_arg(*ap, int));
	} else {
		put(o, '%');
		put(o, conv);
	}
}

int vprintf(const char *fmt, va_list ap)
{
	struct out o = { .n = 0 };
	va_list aq;
	int total;

	va_copy(aq, ap);
	for (; *fmt; fmt++) {
		int longs = 0;

		if (*fmt != '%' || !fmt[1]) {
			put(&o, *fmt);
			continue;
		}
		while (*++fmt == 'l')
			longs++;
		if (!*fmt)
			break;
		put_arg(&o, *fmt, longs, &aq);
	}
	va_end(aq);
	total = (int)o.n;
	write(1, o.buf, o.n);
	return total;
}

int printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintf(fmt, ap);
	va_end(ap);
	return n;
}
