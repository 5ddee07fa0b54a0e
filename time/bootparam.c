// SPDX-License-Identifier: MIT
/*
 * Command-line parsing (see include/dynhz/bootparam.h). It never writes to
 * the command line and never allocates: tokens are slices of the string.
 */
#include <dynhz/bootparam.h>
#include <dynhz/errno.h>
#include <dynhz/printk.h>

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool dz_cmdline_next(const char *cmdline, size_t *pos, struct dz_param *out)
{
	const char *s = cmdline + *pos, *eq = NULL, *end;
	bool in_quote = false, token_quoted = false;

	while (is_space(*s))
		s++;
	if (!*s)
		return false;
	if (*s == '"') {
		token_quoted = true; /* "name=value with spaces" */
		in_quote = true;
		s++;
	}
	for (end = s; *end && (in_quote || !is_space(*end)); end++) {
		if (!eq && *end == '=')
			eq = end;
		if (*end == '"')
			in_quote = !in_quote;
	}
	*pos = (size_t)(end - cmdline);

	out->name = s;
	out->name_len = (size_t)((eq ? eq : end) - s);
	if (!eq) {
		if (token_quoted && out->name_len && s[out->name_len - 1] == '"')
			out->name_len--;
		out->val = NULL;
		out->val_len = 0;
		return true;
	}
	out->val = eq + 1;
	out->val_len = (size_t)(end - out->val);
	if (out->val_len && *out->val == '"') { /* name="value with spaces" */
		out->val++;
		out->val_len--;
		token_quoted = true;
	}
	if (token_quoted && out->val_len && out->val[out->val_len - 1] == '"')
		out->val_len--;
	return true;
}

bool dz_cmdline_is_end(const struct dz_param *p)
{
	return !p->val && p->name_len == 2 && p->name[0] == '-' && p->name[1] == '-';
}

static char fold(char c)
{
	return c == '-' ? '_' : c;
}

bool dz_param_is(const struct dz_param *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->name_len; i++)
		if (!name[i] || fold(name[i]) != fold(p->name[i]))
			return false;
	return !name[i];
}

bool dz_cmdline_find(const char *cmdline, const char *const *names, struct dz_param *out)
{
	struct dz_param p;
	size_t pos = 0;
	bool found = false;

	if (!cmdline)
		return false;
	while (dz_cmdline_next(cmdline, &pos, &p) && !dz_cmdline_is_end(&p))
		for (const char *const *n = names; *n; n++)
			if (dz_param_is(&p, *n)) {
				*out = p;
				found = true;
				break;
			}
	return found;
}

static bool plain(char c)
{
	return c >= ' ' && c <= '~' && c != '\\';
}

static size_t escaped_width(char c)
{
	return plain(c) ? 1 : 4;
}

char *dz_escape(char *out, size_t size, const char *s, size_t len, size_t max_chars)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0, total = 0, room, i;

	if (!size)
		return out;
	if (max_chars > size - 1)
		max_chars = size - 1;
	for (i = 0; i < len; i++)
		total += escaped_width(s[i]);
	/* All of it, or as much as leaves room for "..." (when there is any). */
	room = total <= max_chars ? max_chars : max_chars >= 3 ? max_chars - 3 : 0;
	for (i = 0; i < len && n + escaped_width(s[i]) <= room; i++) {
		unsigned char c = (unsigned char)s[i];

		if (plain((char)c)) {
			out[n++] = (char)c;
			continue;
		}
		out[n++] = '\\';
		out[n++] = 'x';
		out[n++] = hex[c >> 4];
		out[n++] = hex[c & 15];
	}
	if (i < len)
		for (size_t d = 0; d < 3 && n < max_chars; d++)
			out[n++] = '.';
	out[n] = '\0';
	return out;
}

void dz_param_report(const struct dz_param *p, const char *why, const char *used)
{
	char name[40], val[84];

	dz_escape(name, sizeof(name), p->name, p->name_len, 32);
	dz_escape(val, sizeof(val), p->val ? p->val : "", p->val_len, 64);
	if (used)
		dz_printk("%s=%s: %s, using %s\n", name, val, why, used);
	else
		dz_printk("%s=%s: %s\n", name, val, why);
}

static int bad(const struct dz_param *p, const char *why, unsigned long used, int err)
{
	char u[24];

	dz_snprintf(u, sizeof(u), "%lu", used);
	dz_param_report(p, why, u);
	return err;
}

int dz_param_uint_check(const struct dz_param *p, unsigned long min, unsigned long max,
			unsigned long dflt, unsigned long *out, char *why, size_t why_size)
{
	unsigned long v = 0;
	size_t i;

	*out = dflt;
	if (!p->val || !p->val_len)
		return dz_snprintf(why, why_size, "empty value"), -DZ_EINVAL;
	if (p->val[0] == '-' || p->val[0] == '+')
		return dz_snprintf(why, why_size, "a sign is not allowed"), -DZ_EINVAL;
	if (p->val[0] < '0' || p->val[0] > '9')
		return dz_snprintf(why, why_size, "not a number"), -DZ_EINVAL;
	for (i = 0; i < p->val_len && p->val[i] >= '0' && p->val[i] <= '9'; i++) {
		unsigned long d = (unsigned long)(p->val[i] - '0');

		if (v > (ULONG_MAX - d) / 10)
			return dz_snprintf(why, why_size, "number too large"), -DZ_EINVAL;
		v = v * 10 + d;
	}
	if (i < p->val_len)
		return dz_snprintf(why, why_size, "trailing characters after the number"),
		       -DZ_EINVAL;
	if (v < min || v > max) {
		*out = v < min ? min : max;
		dz_snprintf(why, why_size, "out of range %lu..%lu", min, max);
		return -DZ_ERANGE;
	}
	*out = v;
	return 0;
}

int dz_param_uint(const struct dz_param *p, unsigned long min, unsigned long max,
		  unsigned long dflt, unsigned long *out)
{
	char why[64];
	int err = dz_param_uint_check(p, min, max, dflt, out, why, sizeof(why));

	return err ? bad(p, why, *out, err) : 0;
}
