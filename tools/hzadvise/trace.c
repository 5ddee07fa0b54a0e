// SPDX-License-Identifier: MIT
/*
 * hzadvise: the ftrace text reader (trace.h).
 *
 * A line is split at its fixed points rather than scanned with a format:
 * the CPU column "[NNN]" (the first bracketed number that the rest of the
 * line follows), the task column before it ("comm-PID", the pid after the
 * last '-'), then an optional irq-info token, the timestamp ending in ':',
 * the event name ending in ':', and key=value fields in any order. That one reading covers `trace`, `trace_pipe` and
 * `trace-cmd report` of kernels old and new, which differ in the optional
 * columns and in which fields the events print, not in this skeleton.
 *
 * The reader holds one buffer of at most HZ_BUF_SIZE bytes whatever the
 * input's size; compressed input comes through gzip -dc or xz -dc on a pipe.
 */
#define _GNU_SOURCE
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define HZ_LINE_MAX (64 * 1024)	 /* longer is not ftrace text */
#define HZ_BUF_MIN  (8 * 1024)	 /* a small input stays small */
#define HZ_BUF_SIZE (256 * 1024) /* > HZ_LINE_MAX + 1: a longest line always fits */
#define HZ_CPU_MAX  4095
#define HZ_IRQ_MAX  8 /* irq-info is 4 or 5 characters today; leave room */

/* ---- numbers ---- */

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* Words are read in the machine's order; the SWAR tricks below want little-endian. */
static const bool little_endian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

static uint64_t load8(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return w;
}

/*
 * Blanks: the columns are padded with many. Eight bytes at a time, to the
 * first that is not a space; a tab, rare, one at a time.
 */
static const char *skip_blanks(const char *p, const char *end)
{
	while (little_endian && end - p >= 8) {
		uint64_t x = load8(p) ^ 0x2020202020202020ULL;

		if (x) {
			p += __builtin_ctzll(x) >> 3;
			break;
		}
		p += 8;
	}
	while (p < end && is_space(*p))
		p++;
	return p;
}

/* Most fields are one space apart: that case inline, the others by the word. */
static inline const char *skip_spaces(const char *p, const char *end)
{
	if (end - p >= 2 && p[0] == ' ' && !is_space(p[1]))
		return p + 1;
	return skip_blanks(p, end);
}

/* Has the word x a byte equal to b (each byte of b the same)? The classic zero-byte test. */
static uint64_t has_byte(uint64_t x, uint64_t b)
{
	x ^= b;
	return (x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL;
}

/*
 * To the next space or tab, or end: eight bytes at a time while they have
 * neither (most of a line is long tokens: the reading's hottest loop).
 */
static const char *skip_token(const char *p, const char *end)
{
	while (end - p >= 8) {
		uint64_t w = load8(p);
		uint64_t b =
			has_byte(w, 0x2020202020202020ULL) | has_byte(w, 0x0909090909090909ULL);

		/* The lowest flag is exact (the test errs only above a true match): the blank. */
		if (b)
			return little_endian ? p + (__builtin_ctzll(b) >> 3) : p;
		p += 8;
	}
	while (p < end && !is_space(*p))
		p++;
	return p;
}

enum num { NUM_OK, NUM_BAD, NUM_BIG };

/* Are the eight bytes of w all decimal digits? */
static bool digits8(uint64_t w)
{
	return little_endian && (w & 0xf0f0f0f0f0f0f0f0ULL) == 0x3030303030303030ULL &&
	       ((w + 0x0606060606060606ULL) & 0xf0f0f0f0f0f0f0f0ULL) == 0x3030303030303030ULL;
}

/* The value of eight digits (digits8), the first the most significant, in three steps. */
static uint64_t value8(uint64_t w)
{
	w -= 0x3030303030303030ULL;
	w = w * 10 + (w >> 8); /* pairs, in every other byte */
	return (((w & 0x000000ff000000ffULL) * (100 + (1000000ULL << 32))) +
		(((w >> 16) & 0x000000ff000000ffULL) * (1 + (10000ULL << 32)))) >>
	       32;
}

/* Decimal digits only, the whole of [s, e): exact, overflow refused. */
static enum num dec_u64(const char *s, const char *e, uint64_t *out)
{
	uint64_t v = 0;

	if (s == e)
		return NUM_BAD;
	/* 19 digits always fit: no overflow test per digit (the common case) */
	if (e - s <= 19) {
		for (; e - s >= 8 && digits8(load8(s)); s += 8)
			v = v * 100000000 + value8(load8(s));
		for (; s < e; s++) {
			unsigned int d = (unsigned int)(*s - '0');

			if (d > 9)
				return NUM_BAD;
			v = v * 10 + d;
		}
		*out = v;
		return NUM_OK;
	}
	for (; s < e; s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (d > 9)
			return NUM_BAD;
		/* v·10 + d > UINT64_MAX, without a division per digit */
		if (v > UINT64_MAX / 10 || (v == UINT64_MAX / 10 && d > UINT64_MAX % 10))
			return NUM_BIG;
		v = v * 10 + d;
	}
	*out = v;
	return NUM_OK;
}

/* [timeout=%ld]: a sign, then what fits an int64_t. */
static enum num dec_s64(const char *s, const char *e, int64_t *out)
{
	bool neg = s < e && *s == '-';
	uint64_t v;
	enum num r = dec_u64(s + neg, e, &v);

	if (r != NUM_OK)
		return r;
	if (v > (uint64_t)INT64_MAX + neg)
		return NUM_BIG;
	/* -2^63 has no positive counterpart: negate in unsigned arithmetic. */
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return NUM_OK;
}

/* A hex digit's value plus one, 0 for any other byte: one load per digit. */
static const uint8_t hex_tab[256] = {
	['0'] = 1,  ['1'] = 2,	['2'] = 3,  ['3'] = 4,	['4'] = 5,  ['5'] = 6,
	['6'] = 7,  ['7'] = 8,	['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12,
	['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12,
	['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static int hex_digit(char c)
{
	return (int)hex_tab[(unsigned char)c] - 1;
}

/*
 * %p as the kernel hashes it (16 digits, no 0x), as old kernels and
 * trace-cmd print it (with or without 0x), and "(null)".
 */
static enum num hex_u64(const char *s, const char *e, uint64_t *out)
{
	uint64_t v = 0;

	if (e - s == 6 && !memcmp(s, "(null)", 6)) {
		*out = 0;
		return NUM_OK;
	}
	if (e - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (s == e)
		return NUM_BAD;
	for (; s < e; s++) {
		int d = hex_digit(*s);

		if (d < 0)
			return NUM_BAD;
		if (v >> 60)
			return NUM_BIG;
		v = v << 4 | (unsigned int)d;
	}
	*out = v;
	return NUM_OK;
}

/* A number as __print_flags/__print_symbolic fall back to: 0x hex, or decimal. */
static enum num any_u64(const char *s, const char *e, uint64_t *out)
{
	if (e - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return hex_u64(s, e, out);
	return dec_u64(s, e, out);
}

static const uint64_t pow10_tab[10] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
};

/* sec s and frac ns as ns, if that fits in 64 bits (no division: this runs a line). */
static bool sec_ns(uint64_t sec, uint64_t frac, uint64_t *ns)
{
	uint64_t v;

	if (__builtin_mul_overflow(sec, 1000000000U, &v) || __builtin_add_overflow(v, frac, &v))
		return false;
	*ns = v;
	return true;
}

/*
 * SECONDS.FRACTION with 0 to 9 decimals, to ns, exactly: the fraction is
 * scaled by a power of ten, never through floating point. Without a dot
 * it is a raw counter clock, taken as ns.
 */
static const char *parse_ts_slow(const char *s, const char *e, uint64_t *ns)
{
	const char *dot = memchr(s, '.', (size_t)(e - s));
	uint64_t sec, frac = 0;
	size_t nfrac;

	if (!dot)
		return dec_u64(s, e, ns) == NUM_OK ? NULL : "bad timestamp";
	nfrac = (size_t)(e - dot - 1);
	if (nfrac > 9)
		return "bad timestamp (more than 9 decimals)";
	/* "12." is not a number: a dot needs a decimal after it. */
	if (dec_u64(s, dot, &sec) != NUM_OK || dec_u64(dot + 1, e, &frac) != NUM_OK)
		return "bad timestamp";
	frac *= pow10_tab[9 - nfrac];
	return sec_ns(sec, frac, ns) ? NULL : "timestamp out of range";
}

/* The same in one scan, for SECONDS.FRACTION; anything else is left to parse_ts_slow(). */
static const char *parse_ts(const char *s, const char *e, uint64_t *ns)
{
	const char *p = s, *f;
	uint64_t sec = 0, frac = 0;

	while (p < e && is_digit(*p))
		sec = sec * 10 + (unsigned int)(*p++ - '0');
	if (p == s || p - s > 19 || p == e || *p != '.' || e - p - 1 < 1 || e - p - 1 > 9)
		return parse_ts_slow(s, e, ns);
	for (f = ++p; p < e && is_digit(*p); p++)
		frac = frac * 10 + (unsigned int)(*p - '0');
	if (p != e)
		return parse_ts_slow(s, e, ns);
	frac *= pow10_tab[9 - (e - f)];
	return sec_ns(sec, frac, ns) ? NULL : "timestamp out of range";
}

/* ---- comments and headers ---- */

enum comment { C_NONE, C_HASH, C_TRACER, C_BLANK, C_TRACE_CMD };

static bool starts(const char *s, const char *e, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(e - s) >= n && !memcmp(s, prefix, n);
}

static const char *skip_digits(const char *p, const char *end)
{
	while (p < end && is_digit(*p))
		p++;
	return p;
}

/* "PREFIX<digits>SUFFIX", the whole line; suffix "" means nothing more. */
static bool digits_between(const char *s, const char *e, const char *prefix, const char *suffix,
			   bool suffix_is_prefix)
{
	const char *d, *p;

	if (!starts(s, e, prefix))
		return false;
	d = s + strlen(prefix);
	p = skip_digits(d, e);
	if (p == d)
		return false;
	if (suffix_is_prefix)
		return starts(p, e, suffix);
	return (size_t)(e - p) == strlen(suffix) && !memcmp(p, suffix, strlen(suffix));
}

/*
 * What trace-cmd report prints before the events: "cpus=2", "version = 6",
 * "CPU 1 is empty", "CPU0 data recorded at offset=0x..." and the
 * "    4096 bytes in size" line under it.
 */
static bool trace_cmd_header(const char *s, const char *e)
{
	const char *p;

	if (*s == 'c')
		return digits_between(s, e, "cpus=", "", false);
	if (*s == 'v')
		return digits_between(s, e, "version = ", "", false) ||
		       digits_between(s, e, "version=", "", false);
	if (*s == 'C')
		return digits_between(s, e, "CPU ", " is empty", false) ||
		       digits_between(s, e, "CPU", " is empty", false) ||
		       digits_between(s, e, "CPU", " data recorded at offset=", true);
	p = skip_spaces(s, e);
	return p > s && digits_between(p, e, "", " bytes in size", true);
}

static enum comment comment_kind(const char *s, const char *e)
{
	if (s == e)
		return C_BLANK;
	if (*s == '#')
		return starts(s, e, "# tracer:") ? C_TRACER : C_HASH;
	if (is_space(*s)) {
		const char *p = skip_spaces(s, e);

		/* Only trace-cmd's "    4096 bytes in size" begins with blanks and a digit. */
		if (p == e)
			return C_BLANK;
		if (!is_digit(*p))
			return C_NONE;
	}
	return trace_cmd_header(s, e) ? C_TRACE_CMD : C_NONE;
}

/* ---- the columns before the fields ---- */

struct cols {
	const char *task, *task_end; /* comm-pid, the tgid column removed */
	const char *cpu, *cpu_end;   /* the digits between [ and ] */
	const char *irq, *irq_end;   /* irq-info, or NULL */
	const char *ts, *ts_end;     /* without its ':' */
	const char *name, *name_end; /* without its ':' */
	const char *fields;
	bool fast;	      /* found by fast_cols(): cpu_v, ts_v and type are read already */
	uint64_t cpu_v, ts_v; /* the CPU's number, the timestamp in ns */
	int type;	      /* enum hz_ev_type, -1 for a name the reader does not know */
};

static const char *trim_end(const char *s, const char *e)
{
	while (e > s && is_space(e[-1]))
		e--;
	return e;
}

/* The "(  123)" or "(-------)" column of record-tgid, if it ends [s, e). */
static const char *drop_tgid(const char *s, const char *e)
{
	const char *p;

	if (e == s || e[-1] != ')')
		return e;
	for (p = e - 1; p > s && p[-1] != '('; p--)
		if (!is_digit(p[-1]) && p[-1] != ' ' && p[-1] != '-')
			return e;
	return p > s ? trim_end(s, p - 1) : e;
}

/* Letters, digits and '_': one load per character of the event's name. */
static const bool name_tab[256] = {
	['0' ... '9'] = true,
	['A' ... 'Z'] = true,
	['a' ... 'z'] = true,
	['_'] = true,
};

static bool name_char(char c)
{
	return name_tab[(unsigned char)c];
}

/* A token ending in ':' at p: its end (the ':'), or NULL. */
static const char *colon_token(const char *p, const char *end)
{
	const char *q = skip_token(p, end);

	return q > p && q[-1] == ':' ? q - 1 : NULL;
}

/* After "[CPU]" at p: [irq-info] timestamp: name: fields. */
static bool after_cpu(const char *p, const char *end, struct cols *c)
{
	const char *q;

	p = skip_spaces(p, end);
	c->irq = c->irq_end = NULL;
	q = colon_token(p, end);
	if (!q) {
		c->irq = p;
		c->irq_end = skip_token(p, end);
		if (c->irq_end - c->irq > HZ_IRQ_MAX)
			return false;
		p = skip_spaces(c->irq_end, end);
		q = colon_token(p, end);
		if (!q)
			return false;
	}
	c->ts = p;
	c->ts_end = q;
	p = skip_spaces(q + 1, end);
	c->name = p;
	while (p < end && name_char(*p))
		p++;
	if (p == c->name || p == end || *p != ':' || (p + 1 < end && !is_space(p[1])))
		return false;
	c->name_end = p;
	c->fields = p + 1;
	return true;
}

/*
 * The CPU column is the first "[digits]" that has a space (or the line's
 * start) before it and a space after it, and that the rest of the line
 * follows. A comm with brackets of its own is passed over that way.
 */
static bool find_cols(const char *s, const char *end, struct cols *c)
{
	const char *p = s;

	while ((p = memchr(p, '[', (size_t)(end - p)))) {
		const char *d = p + 1, *q = skip_digits(d, end);

		if (q > d && q < end && *q == ']' && (p == s || is_space(p[-1])) &&
		    (q + 1 == end || is_space(q[1])) && after_cpu(q + 1, end, c)) {
			c->cpu = d;
			c->cpu_end = q;
			c->task = s;
			c->task_end = drop_tgid(s, trim_end(s, p));
			return true;
		}
		p++;
	}
	return false;
}

static const char *const ev_names[HZ_EV_TYPES] = {
	[HZ_EV_TIMER_START] = "timer_start",
	[HZ_EV_TIMER_CANCEL] = "timer_cancel",
	[HZ_EV_TIMER_EXPIRE] = "timer_expire_entry",
	[HZ_EV_HRTIMER_START] = "hrtimer_start",
	[HZ_EV_HRTIMER_CANCEL] = "hrtimer_cancel",
	[HZ_EV_HRTIMER_EXPIRE] = "hrtimer_expire_entry",
	[HZ_EV_TICK_STOP] = "tick_stop",
	[HZ_EV_SCHED_SWITCH] = "sched_switch",
	[HZ_EV_CPU_IDLE] = "cpu_idle",
	[HZ_EV_SCHED_WAKEUP] = "sched_wakeup",
	[HZ_EV_SCHED_WAKING] = "sched_waking",
};

/*
 * The length picks the name to compare; four share 12: the first letter,
 * then sched_'s seventh and tenth, decide.
 */
static int event_type(const char *s, const char *e)
{
	int t;

	switch (e - s) {
	case 11:
		t = HZ_EV_TIMER_START;
		break;
	case 12:
		if (*s != 's')
			t = HZ_EV_TIMER_CANCEL;
		else if (s[6] == 's')
			t = HZ_EV_SCHED_SWITCH;
		else
			t = s[9] == 'e' ? HZ_EV_SCHED_WAKEUP : HZ_EV_SCHED_WAKING;
		break;
	case 8:
		t = HZ_EV_CPU_IDLE;
		break;
	case 18:
		t = HZ_EV_TIMER_EXPIRE;
		break;
	case 13:
		t = HZ_EV_HRTIMER_START;
		break;
	case 14:
		t = HZ_EV_HRTIMER_CANCEL;
		break;
	case 20:
		t = HZ_EV_HRTIMER_EXPIRE;
		break;
	case 9:
		t = HZ_EV_TICK_STOP;
		break;
	default:
		return -1;
	}
	return memcmp(s, ev_names[t], (size_t)(e - s)) ? -1 : t;
}

/*
 * ---- the fast reading of the columns ----
 *
 * The usual line in one scan: the first '[' is the CPU's (at most four
 * digits), then an irq-info token or none, a SECONDS.FRACTION timestamp
 * and the event's name, each number read as it is passed. Anything else
 * returns false, and find_cols() reads the line: what this accepts,
 * find_cols() finds in the same places (fuzz_trace holds them to it).
 */

/* How many of the eight bytes of w, from the first, are decimal digits (0 to 8). */
static unsigned int digit_run(uint64_t w)
{
	/* Bytes above '9' carry into the next, which only comes after the run. */
	uint64_t bad =
		((w & 0xf0f0f0f0f0f0f0f0ULL) ^ 0x3030303030303030ULL) |
		(((w + 0x0606060606060606ULL) & 0xf0f0f0f0f0f0f0f0ULL) ^ 0x3030303030303030ULL);

	return bad ? (unsigned int)__builtin_ctzll(bad) >> 3 : 8;
}

/* The value of the first n (1 to 8) bytes of w, all digits: padded with '0' in front. */
static uint64_t value_n(uint64_t w, unsigned int n)
{
	if (n < 8)
		w = w << (8 * (8 - n)) | (0x3030303030303030ULL >> (8 * n));
	return value8(w);
}

/*
 * fast_ts() for the usual stamp, SECONDS and FRACTION of at most 7
 * digits each, eight bytes at a time: NULL for any other.
 */
static const char *fast_ts8(const char *p, const char *end, uint64_t *ns)
{
	uint64_t w, sec;
	unsigned int n, m;

	if (!little_endian || end - p < 17)
		return NULL;
	w = load8(p);
	n = digit_run(w);
	if (!n || n == 8 || p[n] != '.')
		return NULL;
	sec = value_n(w, n);
	p += n + 1;
	w = load8(p);
	m = digit_run(w);
	if (!m || m == 8 || p[m] != ':' || (p + m + 1 < end && !is_space(p[m + 1])))
		return NULL;
	*ns = sec * 1000000000U + value_n(w, m) * pow10_tab[9 - m];
	return p + m;
}

/* "SECONDS.FRACTION:" then a blank or the end, at p: the ':' and the ns, or NULL. */
static const char *fast_ts(const char *p, const char *end, uint64_t *ns)
{
	const char *s = p, *f;
	uint64_t sec = 0, frac = 0;

	if ((f = fast_ts8(p, end, ns)))
		return f;
	while (p < end && is_digit(*p))
		sec = sec * 10 + (unsigned int)(*p++ - '0');
	if (p == s || p - s > 19 || p == end || *p != '.')
		return NULL;
	for (f = ++p; p < end && is_digit(*p); p++)
		frac = frac * 10 + (unsigned int)(*p - '0');
	if (p == f || p - f > 9 || p == end || *p != ':' || (p + 1 < end && !is_space(p[1])))
		return NULL;
	frac *= pow10_tab[9 - (p - f)];
	return sec_ns(sec, frac, ns) ? p : NULL;
}

/*
 * The event's name at p and its ':', as after_cpu() reads them: the name
 * the first ':' ends, a known one (then all name characters) or else
 * tested character by character.
 */
static bool fast_name(const char *p, const char *end, struct cols *c)
{
	const char *q = p;

	while (little_endian && end - q >= 8) {
		uint64_t b = has_byte(load8(q), 0x3a3a3a3a3a3a3a3aULL);

		if (b) {
			q += __builtin_ctzll(b) >> 3;
			break;
		}
		q += 8;
	}
	while (q < end && *q != ':')
		q++;
	if (q == p || q == end || (q + 1 < end && !is_space(q[1])))
		return false;
	c->type = event_type(p, q);
	for (const char *n = p; c->type < 0 && n < q; n++)
		if (!name_char(*n))
			return false;
	c->name = p;
	c->name_end = q;
	c->fields = q + 1;
	return true;
}

/* After "[CPU]" at p, as after_cpu() reads it: [irq-info] timestamp: name: */
static bool fast_after_cpu(const char *p, const char *end, struct cols *c)
{
	const char *q;

	p = skip_spaces(p, end);
	c->irq = c->irq_end = NULL;
	if (p < end && !is_digit(*p)) {
		for (q = p; q < end && !is_space(*q) && q - p <= HZ_IRQ_MAX; q++)
			;
		/* Too long, or a token ending in ':' (after_cpu() takes it as the time). */
		if (q == p || q - p > HZ_IRQ_MAX || q[-1] == ':')
			return false;
		c->irq = p;
		c->irq_end = q;
		p = skip_spaces(q, end);
	}
	q = fast_ts(p, end, &c->ts_v);
	if (!q)
		return false;
	c->ts = p;
	c->ts_end = q;
	p = skip_spaces(q + 1, end);
	return fast_name(p, end, c);
}

static bool fast_cols(const char *s, const char *end, struct cols *c)
{
	const char *p = memchr(s, '[', (size_t)(end - s)), *d, *q;
	uint64_t cpu = 0;

	if (!p || (p > s && !is_space(p[-1])))
		return false;
	for (d = q = p + 1; q < end && is_digit(*q) && q - d < 5; q++)
		cpu = cpu * 10 + (unsigned int)(*q - '0');
	if (q == d || q - d > 4 || q == end || *q != ']' || (q + 1 < end && !is_space(q[1])) ||
	    !fast_after_cpu(q + 1, end, c))
		return false;
	c->cpu = d;
	c->cpu_end = q;
	c->cpu_v = cpu;
	c->task = s;
	c->task_end = drop_tgid(s, trim_end(s, p));
	c->fast = true;
	return true;
}

/* Context from irq-info: its third character is hardirq/softirq. */
static uint32_t irq_context(const char *s, const char *e)
{
	if (e - s < 3)
		return 0;
	switch (s[2]) {
	case 'h':
	case 'Z': /* NMI inside a hardirq */
		return HZ_CTX_HARDIRQ;
	case 'H':
		return HZ_CTX_HARDIRQ | HZ_CTX_SOFTIRQ;
	case 's':
		return HZ_CTX_SOFTIRQ;
	default:
		return 0;
	}
}

/* Shared with the reader: it says which number was out of range. */
static const char why_cpu_range[] = "cpu out of range 0..4095";

/* The name of the task column (before "-PID"), leading blanks dropped, truncated. */
static void set_comm(struct hz_event *ev, const char *s, const char *e)
{
	size_t n;

	s = skip_spaces(s, e);
	n = (size_t)(e - s);
	if (n > sizeof(ev->comm) - 1)
		n = sizeof(ev->comm) - 1;
	memcpy(ev->comm, s, n);
	ev->comm[n] = '\0';
}

/* The pid after the last '-' of the task column; none is not an error. */
static const char *parse_task(const struct cols *c, struct hz_event *ev)
{
	const char *d = c->task_end;
	uint64_t pid;

	while (d > c->task && is_digit(d[-1]))
		d--;
	if (d == c->task_end || d == c->task || d[-1] != '-') {
		set_comm(ev, c->task, c->task_end);
		return NULL;
	}
	set_comm(ev, c->task, d - 1);
	if (dec_u64(d, c->task_end, &pid) != NUM_OK || pid > INT32_MAX)
		return "pid out of range";
	ev->pid = (int32_t)pid;
	ev->has |= HZ_HAS_PID;
	return NULL;
}

static const char *parse_context(const struct cols *c, struct hz_event *ev)
{
	uint64_t cpu;
	enum num r;
	const char *why = parse_task(c, ev);

	if (why)
		return why;
	if (c->fast) {
		cpu = c->cpu_v;
		r = NUM_OK;
	} else {
		r = dec_u64(c->cpu, c->cpu_end, &cpu);
	}
	if (r != NUM_OK || cpu > HZ_CPU_MAX) {
		ev->cpu = r == NUM_OK && cpu < UINT32_MAX ? (uint32_t)cpu : UINT32_MAX;
		return why_cpu_range;
	}
	ev->cpu = ev->tcpu = (uint32_t)cpu;
	if (c->irq) {
		ev->has |= HZ_HAS_CONTEXT;
		ev->ctx = irq_context(c->irq, c->irq_end);
	}
	if (c->fast) {
		ev->ts_ns = c->ts_v;
		return NULL;
	}
	return parse_ts(c->ts, c->ts_end, &ev->ts_ns);
}

/* ---- fields ---- */

enum key {
	K_TIMER,
	K_HRTIMER,
	K_FUNCTION,
	K_EXPIRES,
	K_SOFTEXPIRES,
	K_TIMEOUT,
	K_BUCKET,
	K_CPU,
	K_FLAGS,
	K_NOW,
	K_BASECLK,
	K_MODE,
	K_SUCCESS,
	K_PREV_PID,
	K_NEXT_PID,
	K_STATE,
	K_PID,
	K_KEYS
};

struct key_info {
	const char *name;
	size_t len;
	const char *missing, *bad, *big;
};

#define KEY(n)                                                                                    \
	{                                                                                         \
		n, sizeof(n) - 1, "no " n "= value", "bad " n "= value", n "= value out of range" \
	}

static const struct key_info keys[K_KEYS] = {
	[K_TIMER] = KEY("timer"),
	[K_HRTIMER] = KEY("hrtimer"),
	[K_FUNCTION] = KEY("function"),
	[K_EXPIRES] = KEY("expires"),
	[K_SOFTEXPIRES] = KEY("softexpires"),
	[K_TIMEOUT] = KEY("timeout"),
	[K_BUCKET] = KEY("bucket_expiry"),
	[K_CPU] = KEY("cpu"),
	[K_FLAGS] = KEY("flags"),
	[K_NOW] = KEY("now"),
	[K_BASECLK] = KEY("baseclk"),
	[K_MODE] = KEY("mode"),
	[K_SUCCESS] = KEY("success"),
	[K_PREV_PID] = KEY("prev_pid"),
	[K_NEXT_PID] = KEY("next_pid"),
	[K_STATE] = KEY("state"),
	[K_PID] = KEY("pid"),
};

struct fields {
	uint32_t seen; /* 1 << enum key */
	const char *v[K_KEYS], *ve[K_KEYS];
};

/* The first letter and the length pick the one key to compare. */
static int key_of(const char *k, size_t n)
{
	int i;

	switch (*k) {
	case 't':
		i = n == 5 ? K_TIMER : K_TIMEOUT;
		break;
	case 'h':
		i = K_HRTIMER;
		break;
	case 'f':
		i = n == 8 ? K_FUNCTION : K_FLAGS;
		break;
	case 'e':
		i = K_EXPIRES;
		break;
	case 's':
		i = n == 11 ? K_SOFTEXPIRES : n == 7 ? K_SUCCESS : K_STATE;
		break;
	case 'b':
		i = n == 13 ? K_BUCKET : K_BASECLK;
		break;
	case 'c':
		i = K_CPU;
		break;
	case 'n':
		i = n == 3 ? K_NOW : K_NEXT_PID;
		break;
	case 'm':
		i = K_MODE;
		break;
	case 'p':
		i = n == 3 ? K_PID : K_PREV_PID;
		break;
	default:
		return -1;
	}
	return keys[i].len == n && !memcmp(k, keys[i].name, n) ? i : -1;
}

/*
 * Every "key=value" token; "[timeout=N]" loses its brackets. Tokens with
 * no '=' (the " [module]" %ps appends to a module's symbol) and keys we do
 * not use (idx=, was_armed=, dependency=, ...) are passed over. The first
 * of two equal keys counts.
 */
static void split_fields(const char *p, const char *end, struct fields *f)
{
	f->seen = 0;
	for (p = skip_spaces(p, end); p < end; p = skip_spaces(p, end)) {
		const char *t = p, *te = skip_token(p, end), *eq;
		int k;

		p = te;
		if (*t == '[' && te[-1] == ']' && te - t >= 2) {
			t++;
			te--;
		}
		eq = memchr(t, '=', (size_t)(te - t));
		if (!eq || (k = key_of(t, (size_t)(eq - t))) < 0 || (f->seen & 1U << k))
			continue;
		f->seen |= 1U << k;
		f->v[k] = eq + 1;
		f->ve[k] = te;
	}
}

static bool has(const struct fields *f, enum key k)
{
	return f->seen & 1U << k;
}

static const char *num_why(enum key k, enum num r)
{
	return r == NUM_OK ? NULL : r == NUM_BIG ? keys[k].big : keys[k].bad;
}

/* A required field: its value, or why not. */
static const char *need_dec(const struct fields *f, enum key k, uint64_t *out)
{
	if (!has(f, k))
		return keys[k].missing;
	return num_why(k, dec_u64(f->v[k], f->ve[k], out));
}

/* An optional field: *has_bits gets bit when it is there. */
static const char *opt_dec(const struct fields *f, enum key k, uint64_t *out, uint32_t *has_bits,
			   uint32_t bit)
{
	if (!has(f, k))
		return NULL;
	*has_bits |= bit;
	return num_why(k, dec_u64(f->v[k], f->ve[k], out));
}

static const char *need_id(const struct fields *f, enum key k, uint64_t *id)
{
	if (!has(f, k))
		return keys[k].missing;
	return num_why(k, hex_u64(f->v[k], f->ve[k], id));
}

/*
 * The tick's own hrtimer handler, under each name Linux gave it, in the n
 * bytes at func: a name, then the end, an offset ("+0x0/0x90"), a blank
 * or a NUL. The length known, each name is one compare of known size.
 */
static bool tick_handler_n(const char *func, size_t n)
{
#define TICK_NAME(s)             \
	{                        \
		s, sizeof(s) - 1 \
	}
	static const struct {
		const char *name;
		size_t len;
	} names[] = {
		TICK_NAME("tick_sched_timer"),		/* to 6.6 */
		TICK_NAME("tick_nohz_highres_handler"), /* 6.7, 6.8 */
		TICK_NAME("tick_nohz_handler"),		/* 6.9 on */
	};
#undef TICK_NAME

	/* Most functions are not the tick's: all its names begin "ti". */
	if (n < 2 || func[0] != 't' || func[1] != 'i')
		return false;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t len = names[i].len;

		if (n >= len && !memcmp(func, names[i].name, len) &&
		    (n == len || !func[len] || func[len] == '+' || func[len] == ' '))
			return true;
	}
	return false;
}

bool hz_is_tick_handler(const char *func)
{
	return tick_handler_n(func, strlen(func));
}

static const char *need_func(const struct fields *f, struct hz_event *ev)
{
	size_t n;

	if (!has(f, K_FUNCTION))
		return keys[K_FUNCTION].missing;
	n = (size_t)(f->ve[K_FUNCTION] - f->v[K_FUNCTION]);
	if (!n)
		return keys[K_FUNCTION].bad;
	if (n > sizeof(ev->func) - 1)
		n = sizeof(ev->func) - 1;
	memcpy(ev->func, f->v[K_FUNCTION], n);
	ev->func[n] = '\0';
	ev->tick = tick_handler_n(ev->func, n);
	return NULL;
}

/* "A|B|C": calls fn on each word. */
static void each_word(const char *s, const char *e, void (*fn)(const char *, size_t, uint32_t *),
		      uint32_t *bits)
{
	while (s < e) {
		const char *w = memchr(s, '|', (size_t)(e - s));

		if (!w)
			w = e;
		fn(s, (size_t)(w - s), bits);
		s = w + 1;
	}
}

/* Unknown words are ignored: a newer kernel's new flag must not stop the reading. */
static void tflag_word(const char *w, size_t n, uint32_t *bits)
{
	if (n != 1)
		return;
	if (*w == 'D')
		*bits |= HZ_TF_DEFERRABLE;
	else if (*w == 'P')
		*bits |= HZ_TF_PINNED;
	else if (*w == 'I')
		*bits |= HZ_TF_IRQSAFE;
}

/*
 * flags= is names (D|P|I, M for migrating) since 4.8. Before, 4.2 to 4.7
 * printed the raw word, whose layout then was the CPU in bits 0-18,
 * migrating 19, deferrable 20, irqsafe 21 (no pinned flag yet); raw
 * numbers next to a cpu= field (trace-cmd -R of a newer kernel) use the
 * layout of 4.8 on: deferrable 19, pinned 20, irqsafe 21.
 */
static const char *parse_tflags(const char *s, const char *e, struct hz_event *ev)
{
	uint64_t v;

	if (s == e || !is_digit(*s)) {
		each_word(s, e, tflag_word, &ev->tflags);
		return NULL;
	}
	if (any_u64(s, e, &v) != NUM_OK || v > UINT32_MAX)
		return keys[K_FLAGS].bad;
	if (ev->has & HZ_HAS_TCPU)
		ev->tflags = (v & 0x80000 ? HZ_TF_DEFERRABLE : 0) |
			     (v & 0x100000 ? HZ_TF_PINNED : 0) | (v & 0x200000 ? HZ_TF_IRQSAFE : 0);
	else
		ev->tflags =
			(v & 0x100000 ? HZ_TF_DEFERRABLE : 0) | (v & 0x200000 ? HZ_TF_IRQSAFE : 0);
	return NULL;
}

static const char *timer_start(const struct fields *f, struct hz_event *ev)
{
	const char *why;
	uint64_t tcpu;

	if ((why = need_id(f, K_TIMER, &ev->id)) || (why = need_func(f, ev)) ||
	    (why = need_dec(f, K_EXPIRES, &ev->expires)) ||
	    (why = opt_dec(f, K_BUCKET, &ev->bucket, &ev->has, HZ_HAS_BUCKET)))
		return why;
	if (has(f, K_TIMEOUT)) {
		ev->has |= HZ_HAS_TIMEOUT;
		if ((why = num_why(K_TIMEOUT,
				   dec_s64(f->v[K_TIMEOUT], f->ve[K_TIMEOUT], &ev->timeout))))
			return why;
	}
	if (has(f, K_CPU)) {
		ev->has |= HZ_HAS_TCPU;
		if ((why = num_why(K_CPU, dec_u64(f->v[K_CPU], f->ve[K_CPU], &tcpu))))
			return why;
		if (tcpu > HZ_CPU_MAX)
			return keys[K_CPU].big;
		ev->tcpu = (uint32_t)tcpu;
	}
	return has(f, K_FLAGS) ? parse_tflags(f->v[K_FLAGS], f->ve[K_FLAGS], ev) : NULL;
}

static void mode_word(const char *w, size_t n, uint32_t *bits)
{
	if (n == 3 && !memcmp(w, "REL", 3))
		*bits |= HZ_HM_REL;
	else if (n == 6 && !memcmp(w, "PINNED", 6))
		*bits |= HZ_HM_PINNED;
	else if (n == 4 && !memcmp(w, "SOFT", 4))
		*bits |= HZ_HM_SOFT;
	else if (n == 4 && !memcmp(w, "HARD", 4))
		*bits |= HZ_HM_HARD;
}

/*
 * mode= names (ABS|PINNED|HARD) or, unnamed, enum hrtimer_mode's bits; or
 * nothing, as Linux 6.1's own trace file prints the tick's (ABS|PINNED|HARD):
 * then the mode is not known, as before 4.16.
 */
static const char *parse_mode(const char *s, const char *e, struct hz_event *ev)
{
	uint64_t v;

	if (s == e)
		return NULL;
	ev->has |= HZ_HAS_MODE;
	if (!is_digit(*s)) {
		each_word(s, e, mode_word, &ev->hmode);
		return NULL;
	}
	if (any_u64(s, e, &v) != NUM_OK || v > 0xf)
		return keys[K_MODE].bad;
	ev->hmode = (uint32_t)v;
	return NULL;
}

static const char *hrtimer_start(const struct fields *f, struct hz_event *ev)
{
	const char *why;

	if ((why = need_id(f, K_HRTIMER, &ev->id)) || (why = need_func(f, ev)) ||
	    (why = need_dec(f, K_EXPIRES, &ev->expires)) ||
	    (why = opt_dec(f, K_SOFTEXPIRES, &ev->softexpires, &ev->has, HZ_HAS_SOFT)))
		return why;
	return has(f, K_MODE) ? parse_mode(f->v[K_MODE], f->ve[K_MODE], ev) : NULL;
}

/* success=1 today, success=yes on very old kernels. */
static const char *parse_success(const char *s, const char *e, struct hz_event *ev)
{
	uint64_t v;

	if (e - s == 3 && !memcmp(s, "yes", 3))
		ev->success = true;
	else if (e - s == 2 && !memcmp(s, "no", 2))
		ev->success = false;
	else if (dec_u64(s, e, &v) == NUM_OK)
		ev->success = v != 0;
	else
		return keys[K_SUCCESS].bad;
	return NULL;
}

static const char *tick_stop(const struct fields *f, struct hz_event *ev)
{
	if (!has(f, K_SUCCESS))
		return keys[K_SUCCESS].missing;
	return parse_success(f->v[K_SUCCESS], f->ve[K_SUCCESS], ev);
}

/* prev_pid= and next_pid=: who ran before and after; pid 0 is the idle task. */
static const char *sched_switch(const struct fields *f, struct hz_event *ev)
{
	uint64_t a, b;
	const char *why;

	if ((why = need_dec(f, K_PREV_PID, &a)) || (why = need_dec(f, K_NEXT_PID, &b)))
		return why;
	if (a > INT32_MAX)
		return keys[K_PREV_PID].big;
	if (b > INT32_MAX)
		return keys[K_NEXT_PID].big;
	ev->prev_pid = (int32_t)a;
	ev->next_pid = (int32_t)b;
	return NULL;
}

/* sched_wakeup, sched_waking: pid= is the task woken. */
static const char *sched_wakeup(const struct fields *f, struct hz_event *ev)
{
	uint64_t v;
	const char *why = need_dec(f, K_PID, &v);

	if (why)
		return why;
	if (v > INT32_MAX)
		return keys[K_PID].big;
	ev->woken_pid = (int32_t)v;
	return NULL;
}

/*
 * ---- the fast reading: fields by position ----
 *
 * Each kernel prints an event's fields in one order; a line in that order
 * (some fields absent, as older kernels leave them out) is read in one
 * scan, each value parsed where its key is found. Anything else, or any
 * value that does not parse cleanly, goes to split_fields() above, which
 * also says why a field is bad: the fast reading never decides a line
 * is bad, and what it accepts it reads as split_fields() would.
 */

enum fkind { FK_ID, FK_FUNC, FK_DEC, FK_TIMEOUT, FK_SPAN, FK_SKIP };

struct fkey {
	char pat[16]; /* "key=", or "[timeout=": at most 15 bytes, padded for word loads */
	uint8_t len;
	int8_t key;   /* enum key; -1 for one no event uses (idx=, was_armed=) */
	uint8_t kind; /* enum fkind */
	bool req;     /* a required field: without it, split_fields() says so */
};

#define FK(p, k, kind, req)                    \
	{                                      \
		p, sizeof(p) - 1, k, kind, req \
	}
#define FK_END                            \
	{                                 \
		"", 0, -1, FK_SKIP, false \
	}

/* Linux's order, from 4.2 to today: fields of later kernels are optional. */
static const struct fkey fk_timer_start[] = {
	FK("timer=", K_TIMER, FK_ID, true),
	FK("function=", K_FUNCTION, FK_FUNC, true),
	FK("expires=", K_EXPIRES, FK_DEC, true),
	FK("[timeout=", K_TIMEOUT, FK_TIMEOUT, false),
	FK("bucket_expiry=", K_BUCKET, FK_DEC, false),
	FK("cpu=", K_CPU, FK_DEC, false),
	FK("idx=", -1, FK_SKIP, false),
	FK("flags=", K_FLAGS, FK_SPAN, false),
	FK_END,
};
static const struct fkey fk_timer_cancel[] = { FK("timer=", K_TIMER, FK_ID, true), FK_END };
static const struct fkey fk_timer_expire[] = {
	FK("timer=", K_TIMER, FK_ID, true),
	FK("function=", K_FUNCTION, FK_FUNC, true),
	FK("now=", K_NOW, FK_DEC, true),
	FK("baseclk=", K_BASECLK, FK_DEC, false),
	FK_END,
};
static const struct fkey fk_hrtimer_start[] = {
	FK("hrtimer=", K_HRTIMER, FK_ID, true),
	FK("function=", K_FUNCTION, FK_FUNC, true),
	FK("expires=", K_EXPIRES, FK_DEC, true),
	FK("softexpires=", K_SOFTEXPIRES, FK_DEC, false),
	FK("mode=", K_MODE, FK_SPAN, false),
	FK("was_armed=", -1, FK_SKIP, false),
	FK_END,
};
static const struct fkey fk_hrtimer_cancel[] = { FK("hrtimer=", K_HRTIMER, FK_ID, true), FK_END };
static const struct fkey fk_hrtimer_expire[] = {
	FK("hrtimer=", K_HRTIMER, FK_ID, true),
	FK("function=", K_FUNCTION, FK_FUNC, true),
	FK("now=", K_NOW, FK_DEC, true),
	FK_END,
};
static const struct fkey fk_tick_stop[] = {
	FK("success=", K_SUCCESS, FK_SPAN, true),
	FK("dependency=", -1, FK_SKIP, false),
	FK_END,
};
/*
 * comm= first: a comm with a blank in it breaks the order, and
 * split_fields() reads the line. success= before 4.3 only.
 */
static const struct fkey fk_sched_wakeup[] = {
	FK("comm=", -1, FK_SKIP, false),       FK("pid=", K_PID, FK_DEC, true),
	FK("prio=", -1, FK_SKIP, false),       FK("success=", -1, FK_SKIP, false),
	FK("target_cpu=", -1, FK_SKIP, false), FK_END,
};
static const struct fkey fk_cpu_idle[] = {
	FK("state=", K_STATE, FK_DEC, true),
	FK("cpu_id=", -1, FK_SKIP, false),
	FK_END,
};

/* sched_switch's comms may hold spaces: split_fields() reads it. */
static const struct fkey *const fk_of[HZ_EV_TYPES] = {
	[HZ_EV_TIMER_START] = fk_timer_start,	    [HZ_EV_TIMER_CANCEL] = fk_timer_cancel,
	[HZ_EV_TIMER_EXPIRE] = fk_timer_expire,	    [HZ_EV_HRTIMER_START] = fk_hrtimer_start,
	[HZ_EV_HRTIMER_CANCEL] = fk_hrtimer_cancel, [HZ_EV_HRTIMER_EXPIRE] = fk_hrtimer_expire,
	[HZ_EV_TICK_STOP] = fk_tick_stop,	    [HZ_EV_CPU_IDLE] = fk_cpu_idle,
	[HZ_EV_SCHED_WAKEUP] = fk_sched_wakeup,	    [HZ_EV_SCHED_WAKING] = fk_sched_wakeup,
};

/* Sixteen hex digits (lowercase or capitals) at s, eight bytes at a time. */
static bool hex16(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!little_endian)
		return false;
	for (int half = 0; half < 2; half++) {
		uint64_t x, y, dig, let;

		memcpy(&x, s + 8 * half, 8);
		if (x & 0x8080808080808080ULL)
			return false;
		y = x | 0x2020202020202020ULL; /* capitals to lowercase */
		/* each byte's top bit: x in '0'..'9', y in 'a'..'f' (no carry: bytes < 0x80) */
		dig = (x + 0x5050505050505050ULL) & ~(x + 0x4646464646464646ULL);
		let = (y + 0x1f1f1f1f1f1f1f1fULL) & ~(y + 0x1919191919191919ULL);
		if (((dig | let) & 0x8080808080808080ULL) != 0x8080808080808080ULL)
			return false;
		y = (y & 0x0f0f0f0f0f0f0f0fULL) + ((let >> 7) & 0x0101010101010101ULL) * 9;
		/* the first byte is the most significant digit: pairs, quads, then the eight */
		y = ((y & 0x000f000f000f000fULL) << 4) | ((y & 0x0f000f000f000f00ULL) >> 8);
		y = ((y & 0x000000ff000000ffULL) << 8) | ((y & 0x00ff000000ff0000ULL) >> 16);
		y = ((y & 0x000000000000ffffULL) << 16) | ((y >> 32) & 0xffff);
		v = v << 32 | y;
	}
	*out = v;
	return true;
}

/* A decimal that ends at a blank, the line's end or stop: [s, *e), at most 19 digits. */
static bool fast_dec(const char *s, const char *end, char stop, const char **e, uint64_t *out)
{
	const char *p = s;
	uint64_t v = 0;

	for (; end - p >= 8 && p - s < 16 && digits8(load8(p)); p += 8)
		v = v * 100000000 + value8(load8(p));
	while (p < end && is_digit(*p))
		v = v * 10 + (unsigned int)(*p++ - '0');
	if (p == s || p - s > 19 || (p < end && !is_space(*p) && *p != stop))
		return false;
	*e = p;
	*out = v;
	return true;
}

static bool fast_id(const char *s, const char *end, const char **e, uint64_t *out)
{
	if (end - s >= 16 && (end - s == 16 || is_space(s[16])) && hex16(s, out)) {
		*e = s + 16;
		return true;
	}
	*e = skip_token(s, end);
	return hex_u64(s, *e, out) == NUM_OK;
}

static bool fast_func(const char *s, const char *end, const char **e, struct hz_event *ev)
{
	size_t n;

	*e = skip_token(s, end);
	n = (size_t)(*e - s);
	if (!n)
		return false;
	if (n > sizeof(ev->func) - 1)
		n = sizeof(ev->func) - 1;
	memcpy(ev->func, s, n);
	ev->func[n] = '\0';
	ev->tick = tick_handler_n(ev->func, n);
	return true;
}

/* A number's field: where it goes, in range as split_fields() wants it. */
static bool fast_store(int key, uint64_t v, struct hz_event *ev)
{
	switch (key) {
	case K_EXPIRES:
		ev->expires = v;
		return true;
	case K_NOW:
		ev->now = v;
		return true;
	case K_BUCKET:
		ev->bucket = v;
		ev->has |= HZ_HAS_BUCKET;
		return true;
	case K_BASECLK:
		ev->baseclk = v;
		ev->has |= HZ_HAS_BASECLK;
		return true;
	case K_SOFTEXPIRES:
		ev->softexpires = v;
		ev->has |= HZ_HAS_SOFT;
		return true;
	case K_CPU:
		ev->tcpu = (uint32_t)v;
		ev->has |= HZ_HAS_TCPU;
		return v <= HZ_CPU_MAX;
	case K_PID:
		ev->woken_pid = (int32_t)v;
		return v <= INT32_MAX;
	default: /* K_STATE */
		ev->state = (uint32_t)v;
		return v <= UINT32_MAX;
	}
}

/* "[timeout=N]": a sign, the digits, the bracket, then a blank or the end. */
static bool fast_timeout(const char *s, const char *end, const char **e, struct hz_event *ev)
{
	bool neg = s < end && *s == '-';
	uint64_t v;

	if (!fast_dec(s + neg, end, ']', e, &v) || *e == end || **e != ']' ||
	    v > (uint64_t)INT64_MAX + neg)
		return false;
	ev->timeout = neg ? (int64_t)(0 - v) : (int64_t)v;
	ev->has |= HZ_HAS_TIMEOUT;
	(*e)++;
	return *e == end || is_space(**e);
}

/* One value at s of the field k; *e: where it ends. */
static bool fast_value(const struct fkey *k, const char *s, const char *end, const char **e,
		       struct hz_event *ev, const char **span)
{
	uint64_t v;

	switch (k->kind) {
	case FK_ID:
		return fast_id(s, end, e, &ev->id);
	case FK_FUNC:
		return fast_func(s, end, e, ev);
	case FK_DEC:
		return fast_dec(s, end, ' ', e, &v) && fast_store(k->key, v, ev);
	case FK_TIMEOUT:
		return fast_timeout(s, end, e, ev);
	case FK_SPAN:
		*span = s;
		*e = skip_token(s, end);
		return true;
	default:
		*e = skip_token(s, end);
		return true;
	}
}

/* Does the line at p begin with k's pattern? Two masked words, away from the line's end. */
static bool key_at(const struct fkey *k, const char *p, const char *end)
{
	uint64_t m;

	if (end - p < 16 || !little_endian)
		return end - p >= k->len && !memcmp(p, k->pat, k->len);
	m = k->len >= 8 ? ~0ULL : (1ULL << (8 * k->len)) - 1;
	if ((load8(p) ^ load8(k->pat)) & m)
		return false;
	if (k->len <= 8)
		return true;
	m = (1ULL << (8 * (k->len - 8))) - 1;
	return !((load8(p + 8) ^ load8(k->pat + 8)) & m);
}

/* The field at p among k[0..]: the first that matches; required ones may not be passed. */
static const struct fkey *fast_key(const struct fkey *k, const char *p, const char *end)
{
	for (; k->len; k++) {
		if (key_at(k, p, end))
			return k;
		if (k->req)
			return NULL;
	}
	return NULL;
}

/* Flags, mode, success: read once the line is done (flags= depends on cpu=). */
static bool fast_spans(struct hz_event *ev, const char *const *v, const char *const *ve)
{
	if (v[0] && parse_tflags(v[0], ve[0], ev))
		return false;
	if (v[1] && parse_mode(v[1], ve[1], ev))
		return false;
	return !v[2] || !parse_success(v[2], ve[2], ev);
}

/* The fields in their kernel's order: true if read; false, and ev is to be read again. */
static bool fast_fields(const char *p, const char *end, struct hz_event *ev)
{
	const struct fkey *k = fk_of[ev->type];
	const char *v[3] = { NULL, NULL, NULL }, *ve[3] = { NULL, NULL, NULL };

	if (!k)
		return false;
	for (p = skip_spaces(p, end); p < end; p = skip_spaces(p, end)) {
		const char *s = NULL, *e;
		int slot;

		k = fast_key(k, p, end);
		if (!k || !fast_value(k, p + k->len, end, &e, ev, &s))
			return false;
		if (s) {
			slot = k->key == K_FLAGS ? 0 : k->key == K_MODE ? 1 : 2;
			v[slot] = s;
			ve[slot] = e;
		}
		p = e;
		k++;
	}
	/* A required field not seen: split_fields() names it. */
	for (; k->len; k++)
		if (k->req)
			return false;
	return fast_spans(ev, v, ve);
}

/* What fast_fields() may have set, cleared for split_fields(). */
static void clear_fields(struct hz_event *ev)
{
	ev->id = ev->expires = ev->softexpires = ev->now = ev->bucket = ev->baseclk = 0;
	ev->timeout = 0;
	ev->tcpu = ev->cpu;
	ev->has &= HZ_HAS_PID | HZ_HAS_CONTEXT;
	ev->tflags = ev->hmode = ev->state = 0;
	ev->woken_pid = 0;
	ev->tick = ev->success = false;
	memset(ev->func, 0, sizeof(ev->func));
}

/* The fields: by position if they are in their kernel's order, else one by one. */
static const char *parse_fields(const char *p, const char *end, struct hz_event *ev, bool fast)
{
	struct fields f;
	const char *why;
	uint64_t v = 0;

	if (fast) {
		if (fast_fields(p, end, ev))
			return NULL;
		clear_fields(ev);
	}
	split_fields(p, end, &f);
	switch (ev->type) {
	case HZ_EV_TIMER_START:
		return timer_start(&f, ev);
	case HZ_EV_TIMER_CANCEL:
		return need_id(&f, K_TIMER, &ev->id);
	case HZ_EV_TIMER_EXPIRE:
		if ((why = need_id(&f, K_TIMER, &ev->id)) || (why = need_func(&f, ev)) ||
		    (why = need_dec(&f, K_NOW, &ev->now)))
			return why;
		return opt_dec(&f, K_BASECLK, &ev->baseclk, &ev->has, HZ_HAS_BASECLK);
	case HZ_EV_HRTIMER_START:
		return hrtimer_start(&f, ev);
	case HZ_EV_HRTIMER_CANCEL:
		return need_id(&f, K_HRTIMER, &ev->id);
	case HZ_EV_HRTIMER_EXPIRE:
		if ((why = need_id(&f, K_HRTIMER, &ev->id)) || (why = need_func(&f, ev)))
			return why;
		return need_dec(&f, K_NOW, &ev->now);
	case HZ_EV_SCHED_SWITCH:
		return sched_switch(&f, ev);
	case HZ_EV_SCHED_WAKEUP:
	case HZ_EV_SCHED_WAKING:
		return sched_wakeup(&f, ev);
	case HZ_EV_CPU_IDLE:
		if ((why = need_dec(&f, K_STATE, &v)))
			return why;
		if (v > UINT32_MAX)
			return keys[K_STATE].big;
		ev->state = (uint32_t)v;
		return NULL;
	default:
		return tick_stop(&f, ev);
	}
}

/* The whole line's reading; *ckind says which comment it was. */
static enum hz_line_kind parse_line(const char *line, size_t len, struct hz_event *ev,
				    const char **why, enum comment *ckind, bool fast)
{
	const char *end = line + len;
	struct cols c;
	int type;

	*why = NULL;
	if (len && end[-1] == '\r')
		end--;
	*ckind = comment_kind(line, end);
	if (*ckind != C_NONE)
		return HZ_LINE_COMMENT;
	c.fast = false;
	c.cpu_v = c.ts_v = 0;
	c.type = -1;
	if (!(fast && fast_cols(line, end, &c)) && !find_cols(line, end, &c))
		return HZ_LINE_UNKNOWN;
	type = c.fast ? c.type : event_type(c.name, c.name_end);
	if (type < 0)
		return HZ_LINE_UNKNOWN;
	hz_zero(ev, sizeof(*ev));
	ev->pid = -1;
	ev->type = (uint8_t)type;
	if ((*why = parse_context(&c, ev)) || (*why = parse_fields(c.fields, end, ev, fast)))
		return HZ_LINE_BAD;
	return HZ_LINE_EVENT;
}

int hz_parse_line(const char *line, size_t len, struct hz_event *ev, enum hz_line_kind *kind,
		  const char **why)
{
	enum comment ck;

	*kind = parse_line(line, len, ev, why, &ck, true);
	return *kind == HZ_LINE_EVENT ? 1 : *kind == HZ_LINE_BAD ? -1 : 0;
}

int hz_parse_line_split(const char *line, size_t len, struct hz_event *ev, enum hz_line_kind *kind,
			const char **why)
{
	enum comment ck;

	*kind = parse_line(line, len, ev, why, &ck, false);
	return *kind == HZ_LINE_EVENT ? 1 : *kind == HZ_LINE_BAD ? -1 : 0;
}

/* ---- the reader ---- */

struct hz_reader {
	int fd;
	pid_t dec, feeder;   /* the decompressor and what feeds it stdin, or 0 */
	int dec_stderr;	     /* its stderr, read when it fails; -1 without one */
	const char *dec_cmd; /* "xz" or "gzip" */
	bool eof, failed, dec_failed;
	bool full_read;	 /* the last read filled the buffer: the input is large */
	size_t pos, len; /* unread bytes: buf[pos..len) */
	size_t nul;	 /* nul_ok: the first NUL at or after the last line looked at, else len */
	bool nul_ok;	 /* nul is good for the buffer as it is (a read moves it) */
	size_t cap;
	char *buf;
	struct hz_reader_stats st;
	char err[320];
	bool (*other)(void *arg, const char *line, size_t len); /* hz_on_other() */
	void *other_arg;
};

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static int fail(struct hz_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct hz_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	r->failed = true;
	return -1;
}

static ssize_t read_retry(int fd, void *buf, size_t n)
{
	ssize_t got;

	do
		got = read(fd, buf, n);
	while (got < 0 && errno == EINTR);
	return got;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* Which decompressor the first bytes (or else the name) ask for, or NULL. */
static const char *decompressor(const unsigned char *b, size_t n, const char *path)
{
	static const unsigned char xz_magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };

	if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
		return "gzip";
	if (n >= 6 && !memcmp(b, xz_magic, 6))
		return "xz";
	if (strcmp(path, "-") && has_suffix(path, ".gz"))
		return "gzip";
	if (strcmp(path, "-") && has_suffix(path, ".xz"))
		return "xz";
	return NULL;
}

/*
 * A child that writes the peeked bytes, then copies fd, into a pipe: the
 * decompressor's stdin when fd (a pipe) cannot be rewound. Returns the
 * pipe's read end, or -1.
 */
static int start_feeder(struct hz_reader *r, int fd, size_t peeked)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return -1;
	r->feeder = fork();
	if (r->feeder < 0) {
		r->feeder = 0;
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!r->feeder) {
		char buf[65536];
		ssize_t n;

		signal(SIGPIPE, SIG_DFL);
		close(p[0]);
		if (write(p[1], r->buf, peeked) != (ssize_t)peeked)
			_exit(1);
		while ((n = read_retry(fd, buf, sizeof(buf))) > 0)
			if (write(p[1], buf, (size_t)n) != n)
				_exit(1);
		_exit(n < 0);
	}
	close(p[1]);
	return p[0];
}

/* cmd -dc with stdin in; its stdout becomes r->fd. */
static int start_decompressor(struct hz_reader *r, int in, char *err, size_t errlen)
{
	char *argv[] = { (char *)r->dec_cmd, "-dc", NULL };
	posix_spawn_file_actions_t fa;
	int out[2], ep[2], rc;

	if (pipe2(out, O_CLOEXEC)) {
		set_err(err, errlen, "cannot run %s: %s", r->dec_cmd, strerror(errno));
		return -1;
	}
	/* Its messages are few; never let a full stderr pipe block it. */
	if (pipe2(ep, O_CLOEXEC | O_NONBLOCK))
		ep[0] = ep[1] = -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in, 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	if (ep[1] >= 0)
		posix_spawn_file_actions_adddup2(&fa, ep[1], 2);
	rc = posix_spawnp(&r->dec, r->dec_cmd, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(out[1]);
	if (ep[1] >= 0)
		close(ep[1]);
	if (rc) {
		r->dec = 0;
		close(out[0]);
		if (ep[0] >= 0)
			close(ep[0]);
		set_err(err, errlen, "cannot run %s: %s; install %s", r->dec_cmd, strerror(rc),
			strcmp(r->dec_cmd, "xz") ? "gzip" : "xz-utils");
		return -1;
	}
	r->fd = out[0];
	r->dec_stderr = ep[0];
	return 0;
}

static void reap(pid_t *pid, int *status)
{
	int st = 0;

	if (*pid <= 0)
		return;
	while (waitpid(*pid, &st, 0) < 0 && errno == EINTR)
		;
	*pid = 0;
	if (status)
		*status = st;
}

/* Hands the input, peeked bytes and all, to the decompressor. */
static int pipe_through(struct hz_reader *r, const char *path, off_t start, size_t peeked,
			char *err, size_t errlen)
{
	int in = r->fd, rc;

	/* A file can be rewound; a pipe's first bytes must be fed again. */
	if (start < 0 || lseek(in, start, SEEK_SET) != start) {
		in = start_feeder(r, r->fd, peeked);
		if (in < 0) {
			set_err(err, errlen, "cannot read %s: %s", path, strerror(errno));
			return -1;
		}
	}
	rc = start_decompressor(r, in, err, errlen);
	if (in != r->fd)
		close(in);
	if (rc && r->feeder) {
		kill(r->feeder, SIGTERM);
		reap(&r->feeder, NULL);
	}
	return rc;
}

static int open_input(const char *path, char *err, size_t errlen)
{
	int fd;

	if (!strcmp(path, "-"))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
	return fd;
}

struct hz_reader *hz_open(const char *path, char *err, size_t errlen)
{
	struct hz_reader *r = calloc(1, sizeof(*r));
	ssize_t n = 0;
	off_t start;
	int fd0;

	if (!r || !(r->buf = malloc(HZ_BUF_MIN))) {
		set_err(err, errlen, "out of memory");
		free(r);
		return NULL;
	}
	r->cap = HZ_BUF_MIN;
	r->st.cpuidle_states = -1;
	r->dec_stderr = -1;
	fd0 = r->fd = open_input(path, err, errlen);
	if (r->fd < 0)
		goto out;
	start = lseek(r->fd, 0, SEEK_CUR);
	while (r->len < 6 && (n = read_retry(r->fd, r->buf + r->len, 6 - r->len)) > 0)
		r->len += (size_t)n;
	if (n < 0) {
		set_err(err, errlen, "cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	r->eof = !n;
	r->dec_cmd = decompressor((const unsigned char *)r->buf, r->len, path);
	if (!r->dec_cmd)
		return r;
	if (pipe_through(r, path, start, r->len, err, errlen))
		goto out;
	if (fd0 > 0)
		close(fd0);
	r->pos = r->len = 0;
	r->eof = false;
	return r;
out:
	if (fd0 > 0)
		close(fd0);
	free(r->buf);
	free(r);
	return NULL;
}

/* The decompressor's first line on stderr, for the message. */
static void dec_message(struct hz_reader *r, char *msg, size_t size)
{
	ssize_t n = r->dec_stderr >= 0 ? read(r->dec_stderr, msg, size - 1) : -1;

	msg[n > 0 ? n : 0] = '\0';
	msg[strcspn(msg, "\n")] = '\0';
}

/* At the end of its output: did the decompressor succeed? */
static int check_decompressor(struct hz_reader *r)
{
	char msg[200], what[48];
	int st;

	if (!r->dec)
		return 0;
	reap(&r->dec, &st);
	reap(&r->feeder, NULL);
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	r->dec_failed = true;
	if (WIFEXITED(st))
		snprintf(what, sizeof(what), "exit status %d", WEXITSTATUS(st));
	else
		snprintf(what, sizeof(what), "killed by signal %d", WTERMSIG(st));
	dec_message(r, msg, sizeof(msg));
	return fail(r,
		    "line %llu: %s -dc failed (%s)%s%s: the compressed input is corrupt or "
		    "truncated",
		    (unsigned long long)r->st.lines + 1, r->dec_cmd, what, *msg ? ": " : "", msg);
}

/*
 * Doubles the buffer, up to HZ_BUF_SIZE, while reads fill it (fewer reads
 * of a large input) or a line does not fit in it.
 */
static int grow(struct hz_reader *r)
{
	char *b;

	if (r->cap >= HZ_BUF_SIZE || (!r->full_read && r->len < r->cap))
		return 0;
	b = realloc(r->buf, r->cap * 2);
	if (!b)
		return fail(r, "line %llu: out of memory", (unsigned long long)r->st.lines + 1);
	r->buf = b;
	r->cap *= 2;
	return 0;
}

static int fill(struct hz_reader *r)
{
	size_t avail = r->len - r->pos;
	ssize_t n;

	r->nul_ok = false;
	if (r->pos) {
		memmove(r->buf, r->buf + r->pos, avail);
		r->pos = 0;
		r->len = avail;
	}
	if (grow(r))
		return -1;
	n = read_retry(r->fd, r->buf + r->len, r->cap - r->len);
	if (n < 0)
		return fail(r, "line %llu: read error: %s", (unsigned long long)r->st.lines + 1,
			    strerror(errno));
	if (!n) {
		r->eof = true;
		return check_decompressor(r);
	}
	r->full_read = (size_t)n == r->cap - r->len;
	r->len += (size_t)n;
	return 0;
}

static void note_bad(struct hz_reader *r, const char *why, const char *line, size_t len);

/*
 * A line longer than HZ_LINE_MAX, not ftrace text: noted as bad, then
 * thrown away up to its newline, reading as much as that takes.
 */
static int drop_long_line(struct hz_reader *r)
{
	const char *s = r->buf + r->pos;

	r->st.lines++;
	note_bad(r, memchr(s, '\0', HZ_LINE_MAX) ? "binary data" : "longer than 65536 bytes", s,
		 HZ_LINE_MAX);
	for (;;) {
		const char *e = memchr(r->buf + r->pos, '\n', r->len - r->pos);

		if (e) {
			r->pos = (size_t)(e + 1 - r->buf);
			return 0;
		}
		r->pos = r->len;
		if (r->eof)
			return 0;
		if (fill(r))
			return -1;
	}
}

/* The next line: 1 (*nl: it had its newline), 0 at the end, -1 an error. */
static int next_line(struct hz_reader *r, const char **line, size_t *len, bool *nl)
{
	size_t scanned = 0;

	for (;;) {
		const char *s = r->buf + r->pos;
		size_t avail = r->len - r->pos;
		const char *e = memchr(s + scanned, '\n', avail - scanned);

		if ((e ? (size_t)(e - s) : avail) > HZ_LINE_MAX) {
			if (drop_long_line(r))
				return -1;
			scanned = 0;
			continue;
		}
		if (e) {
			*line = s;
			*len = (size_t)(e - s);
			*nl = true;
			r->pos += *len + 1;
			return 1;
		}
		if (r->eof) {
			*line = s;
			*len = avail;
			*nl = false;
			r->pos = r->len;
			return avail ? 1 : 0;
		}
		scanned = avail;
		if (fill(r))
			return -1;
	}
}

/* Control bytes other than tab and CR: not text. */
static bool has_control(const char *s, size_t n)
{
	for (; n; s++, n--)
		if (((unsigned char)*s < 0x20 && *s != '\t' && *s != '\r') || *s == 0x7f)
			return true;
	return false;
}

/*
 * The recorder's word on cpuidle: "cpuidle=DRIVER/N" in a line that begins
 * "# hzadvise record:" (record.sh, guest-record.sh). The first such word
 * counts; a value that does not parse is ignored (not said).
 */
static void note_cpuidle(struct hz_reader *r, const char *s, const char *e)
{
	static const char key[] = " cpuidle=";
	const char *p, *slash, *end;
	size_t n;
	int v = 0;

	if (r->st.cpuidle_states >= 0 || !starts(s, e, "# hzadvise record:"))
		return;
	p = memmem(s, (size_t)(e - s), key, sizeof(key) - 1);
	if (!p)
		return;
	p += sizeof(key) - 1;
	for (end = p; end < e && *end != ' ' && *end != '\t' && *end != '\r'; end++)
		;
	slash = memchr(p, '/', (size_t)(end - p));
	n = slash ? (size_t)(slash - p) : 0;
	if (!slash || !n || n >= sizeof(r->st.cpuidle_driver) || slash + 1 == end)
		return;
	for (const char *d = slash + 1; d < end; d++) {
		if (!is_digit(*d) || v > 9999)
			return;
		v = v * 10 + (*d - '0');
	}
	memcpy(r->st.cpuidle_driver, p, n);
	r->st.cpuidle_driver[n] = 0;
	r->st.cpuidle_states = v;
}

static void count_comment(struct hz_reader *r, enum comment ck)
{
	r->st.comments++;
	if (ck == C_TRACER)
		r->st.format = HZ_FMT_TRACE;
	else if (ck == C_TRACE_CMD && r->st.format != HZ_FMT_TRACE)
		r->st.format = HZ_FMT_TRACE_CMD;
}

static void count_event(struct hz_reader *r, const struct hz_event *ev)
{
	r->st.events++;
	r->st.by_type[ev->type]++;
	if (ev->cpu > r->st.max_cpu)
		r->st.max_cpu = ev->cpu;
	if (r->st.format == HZ_FMT_UNKNOWN)
		r->st.format = HZ_FMT_TRACE_PIPE;
}

/* A bad line: counted, and the first one kept as "line N: why: its start". */
static void note_bad(struct hz_reader *r, const char *why, const char *line, size_t len)
{
	char text[96];
	size_t n = len < sizeof(text) - 1 ? len : sizeof(text) - 1, i;

	if (r->st.bad++)
		return;
	for (i = 0; i < n; i++)
		text[i] = (unsigned char)line[i] < 0x20 || line[i] == 0x7f ? '?' : line[i];
	text[n] = '\0';
	snprintf(r->st.first_bad, sizeof(r->st.first_bad), "line %llu: %s: \"%s%s\"",
		 (unsigned long long)r->st.lines, why, text, len > n ? "..." : "");
}

/*
 * Does the line hold a NUL byte? One memchr to the end of what was read,
 * kept until a line passes it, rather than one a line (most inputs have
 * none at all).
 */
static bool has_nul(struct hz_reader *r, const char *line, size_t len)
{
	size_t at = (size_t)(line - r->buf);

	if (!r->nul_ok || r->nul < at) {
		const char *z = memchr(line, '\0', r->len - at);

		r->nul = z ? (size_t)(z - r->buf) : r->len;
		r->nul_ok = true;
	}
	return r->nul < at + len;
}

/* One line read: 1 an event, 0 skipped. */
static int take_line(struct hz_reader *r, const char *line, size_t len, bool nl,
		     struct hz_event *ev)
{
	const char *why;
	enum comment ck;
	enum hz_line_kind kind;
	char what[96];

	r->st.lines++;
	if (has_nul(r, line, len)) {
		note_bad(r, "binary data", line, len);
		return 0;
	}
	kind = parse_line(line, len, ev, &why, &ck, true);
	/* Only a whole event may lack its newline: anything else was cut. */
	if (!nl && kind != HZ_LINE_EVENT) {
		r->st.truncated = true;
		return 0;
	}
	if (kind == HZ_LINE_BAD) {
		if (why == why_cpu_range && ev->cpu != UINT32_MAX)
			snprintf(what, sizeof(what), "%s: cpu %u out of range 0..%u",
				 ev_names[ev->type], ev->cpu, HZ_CPU_MAX);
		else
			snprintf(what, sizeof(what), "%s: %s", ev_names[ev->type], why);
		note_bad(r, what, line, len);
		return 0;
	}
	if (kind == HZ_LINE_EVENT) {
		count_event(r, ev);
		return 1;
	}
	/* Checked here only: event lines keep any bytes a comm may hold. */
	if (has_control(line, len)) {
		note_bad(r, "control bytes", line, len);
		return 0;
	}
	if (kind == HZ_LINE_COMMENT) {
		count_comment(r, ck);
		if (ck == C_HASH)
			note_cpuidle(r, line, line + len);
	} else if (!r->other || !r->other(r->other_arg, line, len))
		r->st.unknown++;
	return 0;
}

void hz_on_other(struct hz_reader *r, bool (*fn)(void *arg, const char *line, size_t len),
		 void *arg)
{
	r->other = fn;
	r->other_arg = arg;
}

int hz_next(struct hz_reader *r, struct hz_event *ev)
{
	const char *line = NULL;
	size_t len = 0;
	bool nl = false;
	int rc;

	while (!r->failed) {
		rc = next_line(r, &line, &len, &nl);
		if (rc <= 0)
			return rc;
		rc = take_line(r, line, len, nl, ev);
		if (rc)
			return rc;
	}
	return -1;
}

const char *hz_error(const struct hz_reader *r)
{
	return r->err;
}

const struct hz_reader_stats *hz_stats(const struct hz_reader *r)
{
	return &r->st;
}

int hz_close(struct hz_reader *r)
{
	int failed;

	if (!r)
		return 0;
	if (r->fd > 0)
		close(r->fd);
	/* Stopped before the end: the children are told to go, not judged. */
	if (r->dec)
		kill(r->dec, SIGTERM);
	if (r->feeder)
		kill(r->feeder, SIGTERM);
	reap(&r->dec, NULL);
	reap(&r->feeder, NULL);
	if (r->dec_stderr >= 0)
		close(r->dec_stderr);
	failed = r->dec_failed;
	free(r->buf);
	free(r);
	return failed;
}
