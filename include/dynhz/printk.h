/* SPDX-License-Identifier: MIT */
/* Console output and panics for the freestanding core. */
#ifndef DYNHZ_PRINTK_H
#define DYNHZ_PRINTK_H

#include <stdarg.h>
#include <dynhz/types.h>

#define DZ_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* A small vsnprintf: %d %i %u %x %X %s %c %p %% with l/ll/z, width, 0 and -. */
int dz_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int dz_snprintf(char *buf, size_t size, const char *fmt, ...) DZ_PRINTF(3, 4);

/* Formats and writes to the port's console; returns the length written. */
int dz_printk(const char *fmt, ...) DZ_PRINTF(1, 2);

/* Prints "panic: <file>:<line>: <message>" and stops through the port. */
_Noreturn void dz_panic_at(const char *file, int line, const char *fmt, ...) DZ_PRINTF(3, 4);
#define dz_panic(...) dz_panic_at(__FILE__, __LINE__, __VA_ARGS__)

#define DZ_BUG_ON(cond)                                                    \
	do {                                                               \
		if (unlikely(cond))                                        \
			dz_panic_at(__FILE__, __LINE__, "BUG: %s", #cond); \
	} while (0)

#endif
