// SPDX-License-Identifier: MIT
/*
 * libFuzzer: any bytes as a kernel command line (up to the first NUL).
 * Booting must not crash, HZ must end in 19..10000, and what hz= and nohz=
 * decided (return values, HZ, its source, tickless idle, every line
 * printed) must agree with a second reading of the command line done
 * here, written for clarity rather than speed: tokens are copied out and
 * trimmed as strings, overflow is found by comparing decimal strings, not
 * by arithmetic, and a message is built by escaping the whole value first
 * and cutting it afterwards.
 *
 * The core prints at most one line for hz= (or HZ=) and one for nohz=, in
 * that order. The boot shows only its last line, so each parser is also
 * run alone to see its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dynhz/dynhz.h>
#include <dynhz/host.h>
#include <dynhz/tick.h>

#include "tick-internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SENTINEL "-- fuzz: nothing printed --"

/* The core's bounds on an echoed name and value (time/bootparam.c). */
#define NAME_SHOWN 32
#define VAL_SHOWN  64

/* The last token of one parameter, as written. */
struct found {
	bool found;
	char *name; /* as written ("hz" or "HZ") */
	char *val;  /* quotes removed; NULL for a bare flag */
};

struct model {
	struct found hz, nohz;
	int ret;
	unsigned int hz_used;
	enum dz_hz_source src;
	char hz_line[512]; /* the line for hz=, or "" */
	bool nohz_on;
	char nohz_line[512]; /* the line for nohz=, or "" */
};

static bool space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static char *dup_or_die(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	return d;
}

/* ULONG_MAX in decimal, made once. */
static char ulong_max_dec[32];

static bool digits_overflow(const char *d, size_t n)
{
	size_t mlen = strlen(ulong_max_dec);

	while (n > 1 && *d == '0') {
		d++;
		n--;
	}
	if (n != mlen)
		return n > mlen;
	return strncmp(d, ulong_max_dec, n) > 0;
}

static void keep(struct found *f, const char *name, const char *val)
{
	free(f->name);
	free(f->val);
	f->found = true;
	f->name = dup_or_die(name);
	f->val = val ? dup_or_die(val) : NULL;
}

/*
 * The reading the core must agree with. A token runs to the next space
 * outside double quotes; a quote at its start is dropped; the first '='
 * splits name from value; a value that starts with a quote loses it; and
 * a token or value so opened loses one closing quote at its end. A bare
 * "--" (no '=', its quotes dropped) ends the kernel's parameters, as on
 * Linux: what follows is init's. Of the tokens with a name we look for,
 * the last counts.
 */
static void model_tokens(const char *cl, struct model *m)
{
	size_t i = 0, n = strlen(cl);

	while (i < n) {
		size_t start, len;
		bool inq = false, opened = false;
		char *tok, *eq, *name, *val;

		while (i < n && space((unsigned char)cl[i]))
			i++;
		if (i == n)
			break;
		start = i;
		while (i < n && (inq || !space((unsigned char)cl[i]))) {
			if (cl[i] == '"')
				inq = !inq;
			i++;
		}
		len = i - start;
		tok = malloc(len + 1);
		if (!tok)
			abort();
		memcpy(tok, cl + start, len);
		tok[len] = '\0';

		name = tok;
		if (name[0] == '"') {
			name++;
			opened = true;
		}
		eq = strchr(name, '=');
		val = NULL;
		if (eq) {
			*eq = '\0';
			val = eq + 1;
			if (val[0] == '"') {
				val++;
				opened = true;
			}
			if (opened && *val && val[strlen(val) - 1] == '"')
				val[strlen(val) - 1] = '\0';
		} else if (opened && *name && name[strlen(name) - 1] == '"') {
			name[strlen(name) - 1] = '\0';
		}

		if (!eq && !strcmp(name, "--")) {
			free(tok);
			break;
		}
		if (!strcmp(name, "hz") || !strcmp(name, "HZ"))
			keep(&m->hz, name, val);
		if (!strcmp(name, "nohz"))
			keep(&m->nohz, name, val);
		free(tok);
	}
}

/*
 * A string as the console must show it: printable ASCII stays, anything
 * else (and the backslash) becomes \xNN. Longer than max characters, it is
 * cut after the last whole escape that leaves room for "...".
 */
static void model_escape(char *out, size_t size, const char *s, size_t max)
{
	size_t n = strlen(s), len = 0, cut = 0;
	char *full = malloc(4 * n + 1);
	size_t *ends = malloc((n + 1) * sizeof(*ends));

	if (!full || !ends)
		abort();
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c <= 0x7e && c != '\\')
			full[len++] = (char)c;
		else
			len += (size_t)sprintf(full + len, "\\x%02x", c);
		ends[i] = len;
	}
	full[len] = '\0';
	if (len > max) {
		for (size_t i = 0; i < n && ends[i] + 3 <= max; i++)
			cut = ends[i];
		strcpy(full + cut, "...");
	}
	snprintf(out, size, "%s", full);
	free(ends);
	free(full);
}

static void model_line(char *out, size_t size, const struct found *f, const char *why,
		       const char *used)
{
	char name[256], val[256];

	model_escape(name, sizeof(name), f->name, NAME_SHOWN);
	model_escape(val, sizeof(val), f->val ? f->val : "", VAL_SHOWN);
	snprintf(out, size, "%s=%s: %s, using %s", name, val, why, used);
}

static void model_hz(struct model *m)
{
	const char *v = m->hz.val ? m->hz.val : "", *why;
	size_t nd = strspn(v, "0123456789");
	char used[16];

	m->ret = 0;
	m->hz_used = DZ_HZ_DEFAULT;
	m->src = DZ_HZ_SRC_DEFAULT;
	if (!m->hz.found)
		return;

	m->ret = -DZ_EINVAL;
	if (!*v)
		why = "empty value";
	else if (*v == '-' || *v == '+')
		why = "a sign is not allowed";
	else if (!nd)
		why = "not a number";
	else if (digits_overflow(v, nd))
		why = "number too large";
	else if (v[nd])
		why = "trailing characters after the number";
	else {
		/* At most ULONG_MAX: strtoull reads it exactly. */
		unsigned long long x = strtoull(v, NULL, 10);

		if (x >= DZ_HZ_MIN && x <= DZ_HZ_MAX) {
			m->ret = 0;
			m->hz_used = (unsigned int)x;
			m->src = DZ_HZ_SRC_CMDLINE;
			return;
		}
		m->ret = -DZ_ERANGE;
		m->hz_used = x < DZ_HZ_MIN ? DZ_HZ_MIN : DZ_HZ_MAX;
		m->src = DZ_HZ_SRC_CLAMPED;
		why = "out of range 19..10000";
	}
	snprintf(used, sizeof(used), "%u", m->hz_used);
	model_line(m->hz_line, sizeof(m->hz_line), &m->hz, why, used);
}

/* nohz=on or nohz=off exactly; anything else (a bare nohz too) is on, with a line. */
static void model_nohz(struct model *m)
{
	const char *v = m->nohz.val;

	m->nohz_on = true;
	if (!m->nohz.found || (v && !strcmp(v, "on")))
		return;
	if (v && !strcmp(v, "off")) {
		m->nohz_on = false;
		return;
	}
	model_line(m->nohz_line, sizeof(m->nohz_line), &m->nohz,
		   v && *v ? "not on or off" : "empty value", "on");
}

static void model_parse(const char *cl, struct model *m)
{
	memset(m, 0, sizeof(*m));
	model_tokens(cl, m);
	model_hz(m);
	model_nohz(m);
}

static void model_free(struct model *m)
{
	free(m->hz.name);
	free(m->hz.val);
	free(m->nohz.name);
	free(m->nohz.val);
}

static void mismatch(const char *cl, const char *what, long long got, long long want)
{
	fprintf(stderr, "fuzz_cmdline: [%s]: %s %lld, expected %lld\n", cl, what, got, want);
	abort();
}

/* Sets the host's last line to the sentinel: what follows is new. */
static void mark(void)
{
	dz_printk("%s\n", SENTINEL);
}

/*
 * The last line printed since mark(): want, or nothing when want is "".
 * Whatever the model says, it is one line of printable characters.
 */
static void expect_line(const char *cl, const char *who, const char *want)
{
	const char *last = dynhz_host_last_line();

	if (!*want)
		want = SENTINEL;
	for (const char *s = last; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e) {
			fprintf(stderr, "fuzz_cmdline: [%s]: %s printed byte 0x%02x in \"%s\"\n",
				cl, who, (unsigned char)*s, last);
			abort();
		}
	if (strcmp(last, want)) {
		fprintf(stderr, "fuzz_cmdline: [%s]: %s printed\n  \"%s\"\nexpected\n  \"%s\"\n",
			cl, who, last, want);
		abort();
	}
}

/* The whole boot: the state it leaves and the last line it printed. */
static void check_boot(const char *cl, const struct model *m)
{
	int ret;

	mark();
	ret = dynhz_boot_quiet(cl);
	if (!dz_hz_state_get().ready || HZ < DZ_HZ_MIN || HZ > DZ_HZ_MAX)
		mismatch(cl, "HZ out of range:", HZ, 0);
	if (ret != m->ret)
		mismatch(cl, "returned", ret, m->ret);
	if (HZ != m->hz_used)
		mismatch(cl, "HZ", HZ, m->hz_used);
	if (dz_hz_state_get().source != m->src)
		mismatch(cl, "source", dz_hz_state_get().source, m->src);
	/* The simulated PIT has a one-shot mode and a clocksource: nohz= decides alone. */
	if (dz_tick_nohz_active() != m->nohz_on)
		mismatch(cl, "tickless idle", dz_tick_nohz_active(), m->nohz_on);
	expect_line(cl, "the boot", m->nohz_line[0] ? m->nohz_line : m->hz_line);
}

/* Each parser alone: its own line, and its verdict. */
static void check_parsers(const char *cl, const struct model *m)
{
	enum dz_hz_source src;
	unsigned int hz;
	int ret;
	bool on;

	mark();
	ret = dz_hz_parse(cl, &hz, &src);
	if (ret != m->ret || hz != m->hz_used || src != m->src)
		mismatch(cl, "dz_hz_parse gave HZ", hz, m->hz_used);
	expect_line(cl, "hz=", m->hz_line);

	mark();
	on = dz_tick_nohz_parse(cl);
	if (on != m->nohz_on)
		mismatch(cl, "dz_tick_nohz_parse gave", on, m->nohz_on);
	expect_line(cl, "nohz=", m->nohz_line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *cl = malloc(size + 1);
	struct model m;

	if (!cl)
		abort();
	memcpy(cl, data, size);
	cl[size] = '\0';
	if (!ulong_max_dec[0])
		snprintf(ulong_max_dec, sizeof(ulong_max_dec), "%lu", ULONG_MAX);

	dynhz_host_set_quiet(true);
	model_parse(cl, &m);
	check_boot(cl, &m);
	check_parsers(cl, &m);
	/* Should a line ever be left unfinished, it must not run into the next input's. */
	dz_printk("\n");
	model_free(&m);
	free(cl);
	return 0;
}
