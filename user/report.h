/* SPDX-License-Identifier: MIT */
/*
 * What the project's test programs print, one line each, for the check
 * scripts to read: "NAME: text", and the result lines "NAME: ok what
 * detail" or "NAME: FAIL what detail" (counted in failures). Each
 * program defines NAME before including it.
 */
#ifndef USER_REPORT_H
#define USER_REPORT_H

#include <stdarg.h>
#include <stdio.h>

static int failures;

static inline void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void out(const char *fmt, ...)
{
	va_list ap;

	fputs(NAME ": ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout); /* the console may be all that is left when the program dies */
}

static inline void result(int ok, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline void result(int ok, const char *what, const char *fmt, ...)
{
	char detail[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	failures += !ok;
	out("%s %s %s", ok ? "ok" : "FAIL", what, detail);
}

#endif
