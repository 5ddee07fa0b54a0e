// SPDX-License-Identifier: MIT
/*
 * A minimal vsnprintf for the freestanding core and the kernel: enough for
 * boot reports and panics, nothing more (no floating point; fixed-point
 * values are printed by their callers as integer parts).
 */
#include <dynhz/printk.h>

struct out {
	char *buf;
	size_t size;
	size_t len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_num(struct out *o, unsigned long long v, bool neg, unsigned int base, bool upper,
		    int width, bool zero, bool left)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, len;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	len = n + neg;
	if (neg && zero)
		put(o, '-');
	if (!left)
		for (; width > len; width--)
			put(o, zero ? '0' : ' ');
	if (neg && !zero)
		put(o, '-');
	while (n)
		put(o, tmp[--n]);
	for (; left && width > len; width--)
		put(o, ' ');
}

static void put_str(struct out *o, const char *s, int width, int prec, bool left)
{
	int len = 0;

	if (!s)
		s = "(null)";
	while ((prec < 0 || len < prec) && s[len])
		len++;
	if (!left)
		for (; width > len; width--)
			put(o, ' ');
	for (int i = 0; i < len; i++)
		put(o, s[i]);
	for (; left && width > len; width--)
		put(o, ' ');
}

int dz_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };

	for (; *fmt; fmt++) {
		bool zero = false, left = false;
		int width = 0, prec = -1, lng = 0;
		unsigned long long u;
		long long s;

		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		for (fmt++; *fmt == '0' || *fmt == '-'; fmt++)
			*fmt == '0' ? (zero = true) : (left = true);
		if (*fmt == '*') {
			width = va_arg(ap, int);
			fmt++;
		}
		for (; *fmt >= '0' && *fmt <= '9'; fmt++)
			width = width * 10 + (*fmt - '0');
		if (*fmt == '.') {
			fmt++;
			prec = 0;
			if (*fmt == '*') {
				prec = va_arg(ap, int);
				fmt++;
			}
			for (; *fmt >= '0' && *fmt <= '9'; fmt++)
				prec = prec * 10 + (*fmt - '0');
		}
		for (; *fmt == 'l' || *fmt == 'z'; fmt++)
			lng += *fmt == 'z' ? (sizeof(size_t) == sizeof(long long) ? 2 : 1) : 1;
		if (left)
			zero = false;
		switch (*fmt) {
		case 'd':
		case 'i':
			s = lng >= 2 ? va_arg(ap, long long)
			    : lng    ? va_arg(ap, long)
				     : va_arg(ap, int);
			u = s < 0 ? 0ULL - (unsigned long long)s : (unsigned long long)s;
			put_num(&o, u, s < 0, 10, false, width, zero, left);
			break;
		case 'u':
		case 'x':
		case 'X':
			u = lng >= 2 ? va_arg(ap, unsigned long long)
			    : lng    ? va_arg(ap, unsigned long)
				     : va_arg(ap, unsigned int);
			put_num(&o, u, false, *fmt == 'u' ? 10 : 16, *fmt == 'X', width, zero,
				left);
			break;
		case 'p':
			put(&o, '0');
			put(&o, 'x');
			put_num(&o, (uintptr_t)va_arg(ap, void *), false, 16, false, width, zero,
				left);
			break;
		case 's':
			put_str(&o, va_arg(ap, const char *), width, prec, left);
			break;
		case 'c':
			put(&o, (char)va_arg(ap, int));
			break;
		case '%':
			put(&o, '%');
			break;
		case '\0':
			fmt--;
			break;
		default:
			put(&o, '%');
			put(&o, *fmt);
		}
	}
	if (o.size)
		o.buf[o.len < o.size ? o.len : o.size - 1] = '\0';
	return (int)o.len;
}

int dz_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = dz_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
