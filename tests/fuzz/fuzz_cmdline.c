// SPDX-License-Identifier: MIT
/*
 * libFuzzer: any bytes as a kernel command line (up to the first NUL).
 * Booting must not crash, HZ must end in 19..10000, and what hz= decided
 * (return value, HZ, its source, the line printed) must agree with a
 * second reading of the command line done here, written for clarity
 * rather than speed: tokens are copied out and trimmed as strings, and
 * overflow is found by comparing decimal strings, not by arithmetic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dynhz/dynhz.h>
#include <dynhz/host.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SENTINEL "-- fuzz: nothing printed --"

struct model {
	bool found;   /* some hz= or HZ= token */
	char name[3]; /* "hz" or "HZ", as written */
	char *val;    /* its value, quotes removed; NULL for a bare flag */
	int ret;
	unsigned int hz;
	enum dz_hz_source src;
	const char *why; /* the reason in the message, or NULL */
};

static bool space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
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

/*
 * The reading the core must agree with. A token runs to the next space
 * outside double quotes; a quote at its start is dropped; the first '='
 * splits name from value; a value that starts with a quote loses it; and
 * a token or value so opened loses one closing quote at its end.
 */
static void model_parse(const char *cl, struct model *m)
{
	size_t i = 0, n = strlen(cl);

	memset(m, 0, sizeof(*m));
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

		if (!strcmp(name, "hz") || !strcmp(name, "HZ")) {
			free(m->val);
			m->found = true;
			strcpy(m->name, name);
			m->val = val ? strdup(val) : NULL;
			if (val && !m->val)
				abort();
		}
		free(tok);
	}

	m->ret = 0;
	m->hz = DZ_HZ_DEFAULT;
	m->src = DZ_HZ_SRC_DEFAULT;
	if (!m->found)
		return;

	const char *v = m->val ? m->val : "";
	size_t nd = strspn(v, "0123456789");

	m->ret = -DZ_EINVAL;
	if (!*v)
		m->why = "empty value";
	else if (*v == '-' || *v == '+')
		m->why = "a sign is not allowed";
	else if (!nd)
		m->why = "not a number";
	else if (digits_overflow(v, nd))
		m->why = "number too large";
	else if (v[nd])
		m->why = "trailing characters after the number";
	else {
		/* At most ULONG_MAX: strtoull reads it exactly. */
		unsigned long long x = strtoull(v, NULL, 10);

		if (x < DZ_HZ_MIN || x > DZ_HZ_MAX) {
			m->ret = -DZ_ERANGE;
			m->hz = x < DZ_HZ_MIN ? DZ_HZ_MIN : DZ_HZ_MAX;
			m->src = DZ_HZ_SRC_CLAMPED;
			m->why = "out of range 19..10000";
		} else {
			m->ret = 0;
			m->hz = (unsigned int)x;
			m->src = DZ_HZ_SRC_CMDLINE;
		}
	}
}

static void mismatch(const char *cl, const char *what, long long got, long long want)
{
	fprintf(stderr, "fuzz_cmdline: [%s]: %s %lld, expected %lld\n", cl, what, got, want);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *cl = malloc(size + 1);
	struct model m;
	int ret;

	if (!cl)
		abort();
	memcpy(cl, data, size);
	cl[size] = '\0';
	if (!ulong_max_dec[0])
		snprintf(ulong_max_dec, sizeof(ulong_max_dec), "%lu", ULONG_MAX);

	dynhz_host_set_quiet(true);
	dz_printk("%s\n", SENTINEL);
	ret = dynhz_boot_quiet(cl);

	if (!dz_hz_state_get().ready || HZ < DZ_HZ_MIN || HZ > DZ_HZ_MAX)
		mismatch(cl, "HZ out of range:", HZ, 0);

	model_parse(cl, &m);
	if (ret != m.ret)
		mismatch(cl, "returned", ret, m.ret);
	if (HZ != m.hz)
		mismatch(cl, "HZ", HZ, m.hz);
	if (dz_hz_state_get().source != m.src)
		mismatch(cl, "source", dz_hz_state_get().source, m.src);

	/*
	 * The message, when it fits on one console line: none for a good
	 * value, else "<name>=<value>: <why>, using <N>".
	 */
	const char *last = dynhz_host_last_line();

	if (!m.why) {
		if (strcmp(last, SENTINEL))
			mismatch(cl, "printed a line for a good value, length",
				 (long long)strlen(last), 0);
	} else if (!m.val || (!strchr(m.val, '\n') && strlen(m.val) < 160)) {
		char want[256];

		snprintf(want, sizeof(want), "%s=%s: %s, using %u", m.name, m.val ? m.val : "",
			 m.why, m.hz);
		if (strcmp(last, want)) {
			fprintf(stderr,
				"fuzz_cmdline: [%s]: printed\n  \"%s\"\nexpected\n  \"%s\"\n", cl,
				last, want);
			abort();
		}
	}
	/* The line a long value left unfinished must not run into the next. */
	dz_printk("\n");
	free(m.val);
	free(cl);
	return 0;
}
