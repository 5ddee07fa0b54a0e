// SPDX-License-Identifier: MIT
/*
 * bench/hzadvise: a long timer trace from a short real one, for the
 * replay's speed and memory at lengths no recording has.
 *
 *	stretch [-x] [-a JIFFIES] [-z HZ] K TRACE >OUT
 *	stretch [-x] [-a JIFFIES] [-z HZ] -d SECONDS TRACE >OUT
 *
 * Writes TRACE (ftrace text as trace_pipe prints it, - for stdin) K times
 * end to end, or as many times as it takes to span SECONDS. Copy k is
 * shifted by k·D, where D is the shortest time longer than the trace's
 * span that is
 *   - a whole number of the trace's ticks, 1/HZ s (HZ from -z or from the
 *     "# hzadvise record: ... config_hz=N" header): jiffies and time move
 *     together, exactly;
 *   - a whole number of µs, the timestamps' resolution;
 *   - a multiple of the granularity of the deepest level of Linux's timer
 *     wheel the trace's timer_start lines use (idx=: level idx / 64, 8^level
 *     jiffies; 512 at level 3), or of -a JIFFIES: the wheel rounds a
 *     timer's expiry up to its level's granularity, so only such a shift
 *     keeps each bucket_expiry= the one the wheel would give the shifted
 *     expiry. -a 1 asks for the shortest whole-tick shift instead.
 * In copy k:
 *   - the timestamp column (SECONDS.FRACTION:) gains k·D;
 *   - jiffies values gain k·D·HZ: timer_start expires= and bucket_expiry=,
 *     timer_expire_entry now= and baseclk= ([timeout=N] is relative: kept);
 *   - hrtimer ns values gain k·D in ns: hrtimer_start expires= and
 *     softexpires=, hrtimer_expire_entry now=.
 * Timer and hrtimer addresses are kept by default: the copies are one
 * machine running on, its timers re-armed at the addresses they had (a
 * timer pending at a copy's end fires, or is cancelled or re-armed, in the
 * next one). -x gives each copy its own addresses instead (copy k xors k
 * into the top 16 bits of the field): then the timers pending at a copy's
 * end are never seen again. '#' lines are written once, in copy 0.
 * Prints "stretch: K copies, shift S ns = J jiffies at HZ H" on stderr.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

struct line {
	const char *s;
	size_t len; /* without the newline */
};

static bool xor_addr;
static u64 shift_ns, shift_jiffies, copy;

static void die(const char *what, const char *why)
{
	fprintf(stderr, "stretch: %s: %s\n", what, why);
	exit(1);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	size_t cap = 1 << 20, n = 0, got;
	char *buf = malloc(cap);

	if (!f)
		die(path, strerror(errno));
	if (!buf)
		die("memory", strerror(errno));
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				die("memory", strerror(errno));
		}
	}
	if (ferror(f))
		die(path, strerror(errno));
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The timestamp column of an event line: digits '.' digits ':' after the
 * "[CPU]" column. Its start, end (the ':'), and value in ns.
 */
static bool find_ts(const struct line *l, size_t *from, size_t *to, unsigned int *frac, u64 *ns)
{
	const char *s = l->s, *cpu = memchr(s, ']', l->len);
	size_t i = cpu ? (size_t)(cpu - s) + 1 : 0;

	for (; i < l->len; i++) {
		size_t a = i, b;
		u64 sec = 0, f = 0;
		unsigned int nf = 0;

		if (!is_digit(s[i]) || (i && is_digit(s[i - 1])))
			continue;
		for (b = a; b < l->len && is_digit(s[b]); b++)
			sec = sec * 10 + (u64)(s[b] - '0');
		if (b >= l->len || s[b] != '.')
			continue;
		for (b++; b < l->len && is_digit(s[b]); b++, nf++)
			f = f * 10 + (u64)(s[b] - '0');
		if (b >= l->len || s[b] != ':' || nf == 0 || nf > 9)
			continue;
		*from = a;
		*to = b;
		*frac = nf;
		for (*ns = f; nf < 9; nf++)
			*ns *= 10;
		*ns += sec * 1000000000ULL;
		return true;
	}
	return false;
}

/* Output, through one large buffer. */
static char obuf[1 << 20];
static size_t on;

static void out_flush(void)
{
	if (on && fwrite(obuf, 1, on, stdout) != on)
		die("output", strerror(errno));
	on = 0;
}

static void out(const char *s, size_t n)
{
	if (on + n > sizeof(obuf))
		out_flush();
	if (n > sizeof(obuf)) {
		if (fwrite(s, 1, n, stdout) != n)
			die("output", strerror(errno));
		return;
	}
	memcpy(obuf + on, s, n);
	on += n;
}

static void out_dec(u64 v, unsigned int width)
{
	char d[24];
	unsigned int n = 0;

	do {
		d[sizeof(d) - 1 - n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n < width && n < sizeof(d))
		d[sizeof(d) - 1 - n++] = '0';
	out(d + sizeof(d) - n, n);
}

static void out_hex(u64 v, unsigned int width)
{
	char d[16];

	for (unsigned int i = 0; i < width; i++, v >>= 4)
		d[width - 1 - i] = "0123456789abcdef"[v & 15];
	out(d, width);
}

static bool key_is(const char *s, size_t n, const char *key)
{
	size_t k = strlen(key);

	return n > k && !memcmp(s, key, k) && s[k] == '=';
}

/* One field of an event: key=value, rewritten for this copy. */
static void field(const char *s, size_t n, bool hr)
{
	static const char *const jiffies_keys[] = { "expires", "bucket_expiry", "now", "baseclk",
						    NULL };
	static const char *const ns_keys[] = { "expires", "softexpires", "now", NULL };
	const char *const *keys = hr ? ns_keys : jiffies_keys;
	const char *eq = memchr(s, '=', n), *v;
	size_t vlen;

	if (!eq || eq + 1 == s + n) {
		out(s, n);
		return;
	}
	v = eq + 1;
	vlen = n - (size_t)(v - s);
	if (key_is(s, n, hr ? "hrtimer" : "timer")) {
		u64 a = 0;

		if (!xor_addr || vlen > 16 || vlen < 5) {
			out(s, n);
			return;
		}
		for (size_t i = 0; i < vlen; i++) {
			char c = v[i];
			unsigned int d = is_digit(c)		? (unsigned int)(c - '0')
					 : c >= 'a' && c <= 'f' ? (unsigned int)(c - 'a' + 10)
					 : c >= 'A' && c <= 'F' ? (unsigned int)(c - 'A' + 10)
								: 16;

			if (d == 16) {
				out(s, n);
				return;
			}
			a = a << 4 | d;
		}
		a ^= copy << (4 * vlen - 16);
		out(s, (size_t)(v - s));
		out_hex(a, (unsigned int)vlen);
		return;
	}
	for (unsigned int i = 0; keys[i]; i++) {
		u64 x = 0;
		size_t j;

		if (!key_is(s, n, keys[i]))
			continue;
		for (j = 0; j < vlen && is_digit(v[j]); j++)
			x = x * 10 + (u64)(v[j] - '0');
		if (j < vlen || vlen > 19)
			break; /* not a plain number: as it is */
		out(s, (size_t)(v - s));
		out_dec(x + copy * (hr ? shift_ns : shift_jiffies), 0);
		return;
	}
	out(s, n);
}

static void rewrite(const struct line *l)
{
	const char *s = l->s, *end = s + l->len, *ev, *p;
	size_t from, to;
	unsigned int frac;
	u64 ns, unit = 1, t;
	bool hr;

	if (!copy || !find_ts(l, &from, &to, &frac, &ns)) {
		out(s, l->len);
		out("\n", 1);
		return;
	}
	for (unsigned int i = frac; i < 9; i++)
		unit *= 10;
	if (shift_ns % unit)
		die("timestamps", "too few digits for a shift of whole µs");
	t = (ns + copy * shift_ns) / unit;
	out(s, from);
	out_dec(t / (1000000000ULL / unit), 0);
	out(".", 1);
	out_dec(t % (1000000000ULL / unit), frac);
	/* ": event: fields" */
	ev = s + to + 1;
	while (ev < end && *ev == ' ')
		ev++;
	hr = end - ev > 8 && !memcmp(ev, "hrtimer_", 8);
	if (!hr && !(end - ev > 6 && !memcmp(ev, "timer_", 6))) {
		out(s + to, (size_t)(end - (s + to)));
		out("\n", 1);
		return;
	}
	p = memchr(ev, ':', (size_t)(end - ev));
	p = p ? p + 1 : end;
	out(s + to, (size_t)(p - (s + to)));
	while (p < end) {
		const char *q = p;

		while (q < end && *q == ' ')
			q++;
		out(p, (size_t)(q - p));
		p = q;
		while (q < end && *q != ' ')
			q++;
		field(p, (size_t)(q - p), hr);
		p = q;
	}
	out("\n", 1);
}

static bool contains(const char *s, size_t n, const char *what)
{
	size_t k = strlen(what);

	for (size_t i = 0; i + k <= n; i++)
		if (!memcmp(s + i, what, k))
			return true;
	return false;
}

/* The granularity of the wheel level of a timer_start line (idx=), in jiffies. */
static u64 granularity(const struct line *l)
{
	const char *s = l->s, *end = s + l->len, *p;
	unsigned long idx = 0;

	for (p = s; p + 5 < end; p++)
		if (!memcmp(p, " idx=", 5) && is_digit(p[5]))
			break;
	if (p + 5 >= end || !contains(s, l->len, " timer_start: "))
		return 1;
	for (p += 5; p < end && is_digit(*p) && idx < 1000; p++)
		idx = idx * 10 + (unsigned long)(*p - '0');
	return idx / 64 < 20 ? 1ULL << (3 * (idx / 64)) : 1;
}

static unsigned int header_hz(const struct line *l, size_t n)
{
	for (size_t i = 0; i < n && l[i].len && l[i].s[0] == '#'; i++) {
		const char *h = l[i].s, *k;
		char tmp[512];
		size_t len = l[i].len < sizeof(tmp) - 1 ? l[i].len : sizeof(tmp) - 1;

		memcpy(tmp, h, len);
		tmp[len] = '\0';
		if (strncmp(tmp, "# hzadvise record:", 18) || !(k = strstr(tmp, " config_hz=")))
			continue;
		return (unsigned int)strtoul(k + 11, NULL, 10);
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: stretch [-x] [-a JIFFIES] [-z HZ] K|-d SECONDS TRACE >OUT\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned int hz = 0;
	u64 copies = 0, first = UINT64_MAX, last = 0, jiffies, align = 0, g, seconds = 0;
	struct line *lines;
	size_t len, n = 0, cap = 1024;
	u64 wheel = 1;
	bool align_given;
	char *buf, *s, *end;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "-x"))
			xor_addr = true;
		else if (!strcmp(argv[i], "-z") && i + 1 < argc)
			hz = (unsigned int)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "-a") && i + 1 < argc)
			align = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "-d") && i + 1 < argc)
			seconds = strtoull(argv[++i], NULL, 10);
		else
			usage();
	}
	align_given = align != 0;
	if (argc - i != (seconds ? 1 : 2))
		usage();
	if (!seconds) {
		copies = strtoull(argv[i], &s, 10);
		if (*s || !copies || copies > 65535)
			die(argv[i], "K is a number of copies from 1 to 65535");
		i++;
	}
	buf = slurp(argv[i], &len);
	lines = malloc(cap * sizeof(*lines));
	if (!lines)
		die("memory", strerror(errno));
	for (s = buf, end = buf + len; s < end;) {
		char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t from, to;
		unsigned int frac;
		u64 ns;

		if (n == cap) {
			cap *= 2;
			lines = realloc(lines, cap * sizeof(*lines));
			if (!lines)
				die("memory", strerror(errno));
		}
		lines[n].s = s;
		lines[n].len = nl ? (size_t)(nl - s) : (size_t)(end - s);
		if (lines[n].len && s[0] != '#' && find_ts(&lines[n], &from, &to, &frac, &ns)) {
			first = ns < first ? ns : first;
			last = ns > last ? ns : last;
			g = granularity(&lines[n]);
			if (!align_given && g > wheel)
				wheel = g;
		}
		n++;
		s = nl ? nl + 1 : end;
	}
	if (!hz)
		hz = header_hz(lines, n);
	if (hz < 1 || hz > 100000)
		die(argv[i], "no HZ: give -z HZ (the header has no config_hz=)");
	if (first > last)
		die(argv[i], "no timestamped lines");
	if (!align)
		align = wheel;
	/* Just longer than the span, in whole µs and whole granules of the wheel. */
	jiffies = ((last - first) * hz / 1000000000ULL / align + 1) * align;
	while (jiffies * 1000000ULL % hz)
		jiffies += align;
	shift_jiffies = jiffies;
	shift_ns = jiffies * 1000000000ULL / hz;
	if (seconds)
		copies = (seconds * 1000000000ULL + shift_ns - 1) / shift_ns;
	if (!copies || copies > 65535)
		die(argv[i], "from 1 to 65535 copies");
	for (copy = 0; copy < copies; copy++)
		for (size_t k = 0; k < n; k++)
			if (!copy || !lines[k].len || lines[k].s[0] != '#')
				rewrite(&lines[k]);
	out_flush();
	if (fflush(stdout))
		die("output", strerror(errno));
	fprintf(stderr,
		"stretch: %llu copies, shift %llu ns = %llu jiffies at HZ %u (granule %llu)\n",
		(unsigned long long)copies, (unsigned long long)shift_ns,
		(unsigned long long)shift_jiffies, hz, (unsigned long long)align);
	free(lines);
	free(buf);
	return 0;
}
