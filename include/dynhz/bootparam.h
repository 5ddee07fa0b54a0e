/* SPDX-License-Identifier: MIT */
/*
 * The kernel command line, read the Linux way: space-separated name=value
 * tokens, double quotes around a value (or the whole token) allowed, '-' and
 * '_' equal in names, unknown names ignored, and of two equal names the
 * last wins. A multiboot command line starts with the kernel's path; as a
 * token without '=' it is just one more flag nobody asks for.
 */
#ifndef DYNHZ_BOOTPARAM_H
#define DYNHZ_BOOTPARAM_H

#include <dynhz/types.h>

/* One name=value token: pointers into the command line, quotes removed. */
struct dz_param {
	const char *name;
	size_t name_len;
	const char *val; /* NULL for a bare flag */
	size_t val_len;
};

/*
 * Walks the tokens: returns the next one after *pos (start with *pos = 0),
 * or false at the end.
 */
bool dz_cmdline_next(const char *cmdline, size_t *pos, struct dz_param *out);

/*
 * Is p the bare "--" that ends the kernel's parameters? As on Linux, what
 * follows it is for init, and dz_cmdline_find() does not look there.
 */
bool dz_cmdline_is_end(const struct dz_param *p);

/* The last token before "--" named by any of names (NULL-terminated); false if none. */
bool dz_cmdline_find(const char *cmdline, const char *const *names, struct dz_param *out);

/* Does a parameter name match `name`, with '-' and '_' equal? */
bool dz_param_is(const struct dz_param *p, const char *name);

/*
 * Reads p's value as a decimal unsigned integer in min..max. On bad input
 * prints one line naming the parameter, the value and what is used instead,
 * and stores that: dflt for a value that is not a number (-DZ_EINVAL), the
 * nearest bound for one out of range (-DZ_ERANGE), for example
 * "hz=5: out of range 19..10000, using 19".
 */
int dz_param_uint(const struct dz_param *p, unsigned long min, unsigned long max,
		  unsigned long dflt, unsigned long *out);

/*
 * Prints the one line for a bad value: "name=value: why, using used", or
 * "name=value: why" when used is NULL. The name and value are shown
 * escaped (a control character, a backslash or a byte above 0x7e as \xNN)
 * and bounded (a longer one ends in "..."), so the message stays one line
 * whatever the command line held.
 */
void dz_param_report(const struct dz_param *p, const char *why, const char *used);

/*
 * Writes s[0..len) escaped as above into out (always terminated), at most
 * max_chars characters of it, "..." included when cut. Returns out.
 */
char *dz_escape(char *out, size_t size, const char *s, size_t len, size_t max_chars);

/* The same without printing: the reason for a bad value goes to why. */
int dz_param_uint_check(const struct dz_param *p, unsigned long min, unsigned long max,
			unsigned long dflt, unsigned long *out, char *why, size_t why_size);

#endif
