// SPDX-License-Identifier: MIT
/*
 * The kernel command line and hz=: a table of good and bad command lines
 * booted through dynhz_boot_quiet(), the dz_cmdline_* walkers, and
 * dz_param_uint() for other parameters. Every expectation is written out
 * here: the return value, the HZ in force, where it came from, and every
 * line printed, word for word.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <dynhz/dynhz.h>
#include <dynhz/host.h>

#include "ref.h"

#define EXPECT(cond, ...)                        \
	do {                                     \
		if (!(cond))                     \
			fail_msg(__VA_ARGS__);   \
	} while (0)

/* ---- what the core prints ---- */

#define SENTINEL "-- nothing printed since here --"
#define MAX_LINES 8

struct output {
	char text[4096];
	const char *line[MAX_LINES];
	int lines;
};

static FILE *cap_file;
static int cap_fd = -1;

/*
 * Everything the core prints between capture_start() and capture_stop()
 * goes to a temporary file instead of stdout; the last line the host saw
 * is set to SENTINEL first, so "nothing printed" is visible there too.
 */
static void capture_start(void)
{
	dynhz_host_set_quiet(true);
	dz_printk("%s\n", SENTINEL);
	fflush(stdout);
	cap_file = tmpfile();
	assert_non_null(cap_file);
	cap_fd = dup(STDOUT_FILENO);
	assert_true(cap_fd >= 0);
	assert_true(dup2(fileno(cap_file), STDOUT_FILENO) >= 0);
	dynhz_host_set_quiet(false);
}

static void capture_stop(struct output *o)
{
	size_t n;
	char *s;

	dynhz_host_set_quiet(true);
	fflush(stdout);
	assert_true(dup2(cap_fd, STDOUT_FILENO) >= 0);
	close(cap_fd);
	cap_fd = -1;
	rewind(cap_file);
	n = fread(o->text, 1, sizeof(o->text) - 1, cap_file);
	fclose(cap_file);
	cap_file = NULL;
	o->text[n] = '\0';
	EXPECT(n == 0 || o->text[n - 1] == '\n', "output does not end in a newline: \"%s\"",
	       o->text);

	o->lines = 0;
	for (s = o->text; *s && o->lines < MAX_LINES; o->lines++) {
		char *nl = strchr(s, '\n');

		o->line[o->lines] = s;
		if (!nl)
			break;
		*nl = '\0';
		s = nl + 1;
	}
}

/* ---- independent expectations about a boot ---- */

#define PIT_HZ_IN 1193182ULL

/* The PIT divisor nearest to 1193182 / hz. */
static unsigned long pit_divisor_for(unsigned int hz)
{
	unsigned long q = PIT_HZ_IN / hz, r = PIT_HZ_IN % hz;

	return 2 * r >= hz ? q + 1 : q;
}

static const char *source_name(enum dz_hz_source s)
{
	switch (s) {
	case DZ_HZ_SRC_DEFAULT:
		return "default";
	case DZ_HZ_SRC_CMDLINE:
		return "cmdline";
	case DZ_HZ_SRC_CLAMPED:
		return "clamped";
	case DZ_HZ_SRC_CONSTANT:
		return "constant";
	}
	return "?";
}

/* The state any boot must leave, whatever the command line was. */
static void check_booted(const char *cmdline, unsigned int hz, enum dz_hz_source src)
{
	const struct dz_hz_state state = dz_hz_state_get(), *st = &state;
	unsigned long initial = (unsigned long)0 - 300UL * hz;

	EXPECT(st->ready, "[%s] not ready", cmdline);
	EXPECT(HZ == hz, "[%s] HZ %u, expected %u", cmdline, (unsigned int)HZ, hz);
	EXPECT(dz_hz_value == hz, "[%s] dz_hz_value %u, expected %u", cmdline, dz_hz_value, hz);
	EXPECT(st->hz == hz, "[%s] state.hz %u, expected %u", cmdline, st->hz, hz);
	EXPECT(st->source == src, "[%s] source %s, expected %s", cmdline, source_name(st->source),
	       source_name(src));
	EXPECT(st->device && !strcmp(st->device, "pit"), "[%s] device %s", cmdline,
	       st->device ? st->device : "(null)");
	EXPECT(st->period.num == pit_divisor_for(hz) && st->period.den == PIT_HZ_IN,
	       "[%s] period %llu/%llu s, expected %lu/%llu", cmdline,
	       (unsigned long long)st->period.num, (unsigned long long)st->period.den,
	       pit_divisor_for(hz), PIT_HZ_IN);
	EXPECT(INITIAL_JIFFIES == initial, "[%s] INITIAL_JIFFIES %lu, expected %lu", cmdline,
	       (unsigned long)INITIAL_JIFFIES, initial);
	EXPECT(jiffies == initial, "[%s] jiffies %lu, expected %lu", cmdline,
	       (unsigned long)jiffies, initial);
	EXPECT(jiffies_64 == (u64)initial, "[%s] jiffies_64 %llu, expected %llu", cmdline,
	       (unsigned long long)jiffies_64, (unsigned long long)initial);
}

static void check_lines(const char *cmdline, const struct output *o, const char *const *want,
			int nwant)
{
	const char *last = nwant ? want[nwant - 1] : SENTINEL;

	EXPECT(o->lines == nwant, "[%s] printed %d lines, expected %d:\n%s%s\n%s", cmdline,
	       o->lines, nwant, o->text, nwant ? "\nexpected:" : "", nwant ? want[0] : "");
	for (int i = 0; i < nwant; i++)
		EXPECT(!strcmp(o->line[i], want[i]), "[%s] line %d:\n  \"%s\"\nexpected\n  \"%s\"",
		       cmdline, i + 1, o->line[i], want[i]);
	EXPECT(!strcmp(dynhz_host_last_line(), last),
	       "[%s] last line \"%s\", expected \"%s\"", cmdline, dynhz_host_last_line(), last);
}

/* ---- the table ---- */

struct boot_case {
	const char *cmdline;
	int ret;		/* 0, -DZ_EINVAL or -DZ_ERANGE */
	unsigned int hz;	/* the HZ used (in the variable build) */
	enum dz_hz_source src;	/* (in the variable build) */
	const char *line;	/* the one line printed, or NULL */
	const char *hz_param;	/* the hz= that counts, unquoted, as the constant build names it */
};

#define OK(cl, h, param)       { cl, 0, h, DZ_HZ_SRC_CMDLINE, NULL, param }
#define NONE(cl)	       { cl, 0, 250, DZ_HZ_SRC_DEFAULT, NULL, NULL }
#define BAD(cl, param, why) \
	{ cl, -DZ_EINVAL, 250, DZ_HZ_SRC_DEFAULT, param ": " why ", using 250", param }
#define RANGE(cl, param, used) \
	{ cl, -DZ_ERANGE, used, DZ_HZ_SRC_CLAMPED, param ": out of range 19..10000, using " #used, param }

#define WHY_NAN   "not a number"
#define WHY_EMPTY "empty value"
#define WHY_TRAIL "trailing characters after the number"
#define WHY_SIGN  "a sign is not allowed"
#define WHY_BIG   "number too large"

static const struct boot_case cases[] = {
	/* nothing asked for */
	NONE(NULL),
	NONE(""),
	NONE("   \t  "),
	NONE("/boot/dynhz.elf"),
	NONE("/boot/dynhz.elf console=ttyS0,115200 root=/dev/sda1 quiet"),

	/* plain */
	OK("hz=300", 300, "hz=300"),
	OK("HZ=300", 300, "HZ=300"),
	OK("hz=250", 250, "hz=250"),
	OK("hz=100", 100, "hz=100"),
	OK("hz=333", 333, "hz=333"),
	OK("hz=1000", 1000, "hz=1000"),
	OK("hz=1200", 1200, "hz=1200"),
	OK("  hz=300  ", 300, "hz=300"),
	OK("\thz=300\n", 300, "hz=300"),
	OK("hz=0300", 300, "hz=0300"),
	OK("hz=00000000000000000000000000000000000000001000", 1000,
	   "hz=00000000000000000000000000000000000000001000"),

	/* the multiboot kernel path comes first */
	OK("/boot/dynhz.elf hz=300", 300, "hz=300"),
	OK("/boot/dynhz.elf console=ttyS0 hz=1000 quiet", 1000, "hz=1000"),

	/* quotes */
	OK("\"hz=300\"", 300, "hz=300"),
	OK("hz=\"300\"", 300, "hz=300"),
	OK("\"HZ=1000\"", 1000, "HZ=1000"),
	OK("foo=\"a b hz=5\" hz=300", 300, "hz=300"),
	OK("hz=300 foo=\"bar hz=5 baz\"", 300, "hz=300"),
	OK("hz=300 \"foo=x hz=5\" quiet", 300, "hz=300"),
	OK("\"hz=300\" \"quiet\"", 300, "hz=300"),
	BAD("hz=\"abc\"", "hz=abc", WHY_NAN),
	BAD("\"hz=abc\"", "hz=abc", WHY_NAN),
	BAD("hz=\"\"", "hz=", WHY_EMPTY),
	BAD("hz=\"3 00\"", "hz=3 00", WHY_TRAIL),
	BAD("hz=300\"", "hz=300\"", WHY_TRAIL), /* a quote closes only what one opened */
	BAD("hz=3\"00\"", "hz=3\"00\"", WHY_TRAIL),

	/* unknown names are nobody's business */
	NONE("hzz=300 h=300 hz_=300 xhz=300 timer_hz=300 =300"),
	NONE("Hz=300 hZ=300"),
	NONE("hz-x=5 foo=bar"),

	/* duplicates: the last wins, and only the last is read */
	OK("HZ=1000 hz=300", 300, "hz=300"),
	OK("hz=300 HZ=1000", 1000, "HZ=1000"),
	OK("hz=100 hz=200 hz=300", 300, "hz=300"),
	OK("hz=abc hz=300", 300, "hz=300"),
	OK("hz=5 HZ=300", 300, "HZ=300"),
	BAD("hz=300 hz=abc", "hz=abc", WHY_NAN),
	BAD("hz=300 HZ", "HZ=", WHY_EMPTY),
	RANGE("hz=300 HZ=5", "HZ=5", 19),

	/* not a number */
	BAD("hz=abc", "hz=abc", WHY_NAN),
	BAD("HZ=abc", "HZ=abc", WHY_NAN),
	BAD("hz=x300", "hz=x300", WHY_NAN),
	BAD("hz==300", "hz==300", WHY_NAN),
	BAD("hz=.5", "hz=.5", WHY_NAN),
	/* empty */
	BAD("hz=", "hz=", WHY_EMPTY),
	BAD("hz", "hz=", WHY_EMPTY),
	BAD("HZ", "HZ=", WHY_EMPTY),
	BAD("hz= 300", "hz=", WHY_EMPTY),
	BAD("/boot/dynhz.elf hz", "hz=", WHY_EMPTY),
	/* trailing garbage */
	BAD("hz=250x", "hz=250x", WHY_TRAIL),
	BAD("hz=3.5", "hz=3.5", WHY_TRAIL),
	BAD("hz=0x100", "hz=0x100", WHY_TRAIL),
	BAD("hz=1e3", "hz=1e3", WHY_TRAIL),
	BAD("hz=300hz", "hz=300hz", WHY_TRAIL),
	BAD("hz=300,", "hz=300,", WHY_TRAIL),
	/* a sign */
	BAD("hz=-5", "hz=-5", WHY_SIGN),
	BAD("hz=+5", "hz=+5", WHY_SIGN),
	BAD("hz=+300", "hz=+300", WHY_SIGN),
	BAD("hz=-0", "hz=-0", WHY_SIGN),
	/* overflow: too large for an unsigned long of either size */
	BAD("hz=99999999999999999999", "hz=99999999999999999999", WHY_BIG),
	BAD("hz=18446744073709551616", "hz=18446744073709551616", WHY_BIG),
	BAD("hz=123456789012345678901234567890", "hz=123456789012345678901234567890", WHY_BIG),
#if BITS_PER_LONG == 64
	RANGE("hz=4294967296", "hz=4294967296", 10000),
	RANGE("hz=18446744073709551615", "hz=18446744073709551615", 10000),
#else
	BAD("hz=4294967296", "hz=4294967296", WHY_BIG),
	BAD("hz=18446744073709551615", "hz=18446744073709551615", WHY_BIG),
#endif
	RANGE("hz=4294967295", "hz=4294967295", 10000),

	/* out of range: the nearest bound */
	RANGE("hz=0", "hz=0", 19),
	RANGE("hz=5", "hz=5", 19),
	RANGE("HZ=5", "HZ=5", 19),
	RANGE("hz=18", "hz=18", 19),
	OK("hz=19", 19, "hz=19"),
	OK("hz=20", 20, "hz=20"),
	OK("hz=9999", 9999, "hz=9999"),
	OK("hz=10000", 10000, "hz=10000"),
	RANGE("hz=10001", "hz=10001", 10000),
	RANGE("hz=20000", "hz=20000", 10000),
	RANGE("hz=\"5\"", "hz=5", 19),
	RANGE("hz=000", "hz=000", 19),
};

static void boot_one(const struct boot_case *c)
{
	const char *want[2];
	int nwant = 0, ret;
	unsigned int hz = c->hz;
	enum dz_hz_source src = c->src;
	char fixed[256];
	struct output o;
	const char *cl = c->cmdline ? c->cmdline : "(NULL)";

	if (c->line)
		want[nwant++] = c->line;
#ifdef CONFIG_HZ
	/*
	 * The constant build: one line for any hz= that is not CONFIG_HZ
	 * itself, a bad value included; nothing else.
	 */
	nwant = 0;
	if (c->hz_param && (c->line || c->hz != CONFIG_HZ)) {
		snprintf(fixed, sizeof(fixed), "%s: HZ is fixed at %u in this build, ignored",
			 c->hz_param, (unsigned int)CONFIG_HZ);
		want[nwant++] = fixed;
	}
	hz = CONFIG_HZ;
	src = DZ_HZ_SRC_CONSTANT;
#else
	(void)fixed;
#endif
	capture_start();
	ret = dynhz_boot_quiet(c->cmdline);
	capture_stop(&o);

	EXPECT(ret == c->ret, "[%s] returned %d, expected %d", cl, ret, c->ret);
	check_booted(cl, hz, src);
	check_lines(cl, &o, want, nwant);
}

static void test_boot_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		boot_one(&cases[i]);
}

/* The same table backwards: nothing of one boot may leak into the next. */
static void test_boot_table_reversed(void **state)
{
	(void)state;
	for (size_t i = ARRAY_SIZE(cases); i-- > 0;)
		boot_one(&cases[i]);
}

/* A value longer than any line the console keeps: still never fatal. */
static void test_boot_long_value(void **state)
{
	char cl[600];
	int n;

	(void)state;
	dynhz_host_set_quiet(true);
	n = snprintf(cl, sizeof(cl), "hz=");
	memset(cl + n, '0', 500);
	strcpy(cl + n + 500, "300");
	assert_int_equal(dynhz_boot_quiet(cl), 0);
#ifdef CONFIG_HZ
	check_booted("hz=000...300", CONFIG_HZ, DZ_HZ_SRC_CONSTANT);
#else
	check_booted("hz=000...300", 300, DZ_HZ_SRC_CMDLINE);
#endif

	memset(cl + n, '9', 500);
	cl[n + 500] = '\0';
	assert_int_equal(dynhz_boot_quiet(cl), -DZ_EINVAL);
#ifdef CONFIG_HZ
	check_booted("hz=999...", CONFIG_HZ, DZ_HZ_SRC_CONSTANT);
#else
	check_booted("hz=999...", 250, DZ_HZ_SRC_DEFAULT);
#endif
	dz_printk("\n"); /* end whatever the long line left unfinished */
}

/* dynhz_boot() prints the messages, then the report ending in a `time:` line. */
static void test_boot_report(void **state)
{
	static const struct {
		const char *cmdline;
		int ret;
		unsigned int hz;
		enum dz_hz_source src;
	} reports[] = {
		{ "hz=300", 0, 300, DZ_HZ_SRC_CMDLINE },
		{ "", 0, 250, DZ_HZ_SRC_DEFAULT },
		{ "hz=abc", -DZ_EINVAL, 250, DZ_HZ_SRC_DEFAULT },
		{ "hz=5", -DZ_ERANGE, 19, DZ_HZ_SRC_CLAMPED },
		{ "HZ=1000", 0, 1000, DZ_HZ_SRC_CMDLINE },
	};
	char want[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(reports); i++) {
		unsigned int hz = reports[i].hz;
		enum dz_hz_source src = reports[i].src;
		unsigned long long ps;
		struct output o;
		int ret;

#ifdef CONFIG_HZ
		hz = CONFIG_HZ;
		src = DZ_HZ_SRC_CONSTANT;
#endif
		/* the tick, divisor / 1193182 s, in picoseconds to nearest */
		ps = (pit_divisor_for(hz) * 1000000000000ULL + PIT_HZ_IN / 2) / PIT_HZ_IN;
		snprintf(want, sizeof(want),
			 "time: hz=%u source=%s clockevent=pit tick_ns=%llu.%03llu user_hz=%u", hz,
			 source_name(src), ps / 1000, ps % 1000, (unsigned int)USER_HZ);

		capture_start();
		ret = dynhz_boot(reports[i].cmdline);
		capture_stop(&o);

		EXPECT(ret == reports[i].ret, "[%s] returned %d, expected %d", reports[i].cmdline,
		       ret, reports[i].ret);
		check_booted(reports[i].cmdline, hz, src);
		EXPECT(o.lines >= 2 && !strcmp(o.line[o.lines - 1], want),
		       "[%s] report ends\n  \"%s\"\nexpected\n  \"%s\"", reports[i].cmdline,
		       o.lines ? o.line[o.lines - 1] : "", want);
		EXPECT(!strcmp(dynhz_host_last_line(), want), "[%s] last line \"%s\"",
		       reports[i].cmdline, dynhz_host_last_line());
	}
}

/* ---- the token walker ---- */

struct token {
	const char *name;
	const char *val; /* NULL: a bare flag */
};

static void check_tokens(const char *cmdline, const struct token *want, size_t n)
{
	struct dz_param p;
	size_t pos = 0, i = 0, last_pos = 0;

	while (dz_cmdline_next(cmdline, &pos, &p)) {
		EXPECT(pos > last_pos && pos <= strlen(cmdline), "[%s] pos %zu after %zu", cmdline,
		       pos, last_pos);
		last_pos = pos;
		EXPECT(i < n, "[%s] more than %zu tokens: \"%.*s\"", cmdline, n, (int)p.name_len,
		       p.name);
		EXPECT(p.name_len == strlen(want[i].name) &&
			       !memcmp(p.name, want[i].name, p.name_len),
		       "[%s] token %zu named \"%.*s\", expected \"%s\"", cmdline, i,
		       (int)p.name_len, p.name, want[i].name);
		if (want[i].val)
			EXPECT(p.val && p.val_len == strlen(want[i].val) &&
				       !memcmp(p.val, want[i].val, p.val_len),
			       "[%s] token %zu value \"%.*s\", expected \"%s\"", cmdline, i,
			       p.val ? (int)p.val_len : 4, p.val ? p.val : "NULL", want[i].val);
		else
			EXPECT(!p.val && !p.val_len, "[%s] token %zu has a value \"%.*s\"", cmdline,
			       i, (int)p.val_len, p.val);
		i++;
	}
	EXPECT(i == n, "[%s] %zu tokens, expected %zu", cmdline, i, n);
	/* and the end stays the end */
	EXPECT(!dz_cmdline_next(cmdline, &pos, &p), "[%s] a token after the end", cmdline);
}

static void test_cmdline_next(void **state)
{
	static const struct token multiboot[] = {
		{ "/boot/dynhz.elf", NULL }, { "root", "/dev/sda1" }, { "quiet", NULL },
		{ "foo", "a b  c" },	     { "hz", "300" },	      { "console", "ttyS0,115200" },
		{ "x", "" },		     { "init", "/bin/sh -c \"true\"" },
	};
	static const struct token quoted[] = {
		{ "hz", "300" }, { "HZ", "1000" }, { "a", "1 2" }, { "b", "" }, { "flag", NULL },
	};
	static const struct token odd[] = {
		{ "", "300" }, { "hz", "=5" }, { "", NULL }, { "a", "b=c" },
	};

	(void)state;
	check_tokens("/boot/dynhz.elf root=/dev/sda1  quiet foo=\"a b  c\"\thz=300 "
		     "console=ttyS0,115200 x= init=\"/bin/sh -c \"true\"\"",
		     multiboot, ARRAY_SIZE(multiboot));
	check_tokens(" \"hz=300\" HZ=\"1000\" \"a=1 2\" b=\"\" \"flag\" ", quoted,
		     ARRAY_SIZE(quoted));
	check_tokens("=300 hz==5 \"\" a=b=c", odd, ARRAY_SIZE(odd));
	check_tokens("", NULL, 0);
	check_tokens(" \t\n ", NULL, 0);
}

static void test_cmdline_find(void **state)
{
	static const char *const ts_under[] = { "time_slice", NULL };
	static const char *const ts_dash[] = { "time-slice", NULL };
	static const char *const ts_plain[] = { "timeslice", NULL };
	static const char *const hz_names[] = { "hz", "HZ", NULL };
	static const struct {
		const char *cmdline;
		const char *const *names;
		const char *val; /* NULL: not found */
	} finds[] = {
		{ "time_slice=5", ts_under, "5" },
		{ "time-slice=5", ts_under, "5" },
		{ "time_slice=5", ts_dash, "5" },
		{ "time-slice=5", ts_dash, "5" },
		{ "time-slice=5 time_slice=7", ts_under, "7" },
		{ "time_slice=7 time-slice=5", ts_dash, "5" },
		{ "time_slice=5", ts_plain, NULL },
		{ "timeslice=5", ts_under, NULL },
		{ "time__slice=5 time_slice_=5 _time_slice=5 time_slic=5 TIME_SLICE=5", ts_under,
		  NULL },
		{ "\"time-slice=1 2\"", ts_under, "1 2" },
		{ "hz=1 HZ=2 hz=3 quiet", hz_names, "3" },
		{ "HZ=1 hz=2 HZ=3", hz_names, "3" },
		{ "/boot/dynhz.elf", hz_names, NULL },
		{ "", hz_names, NULL },
		{ NULL, hz_names, NULL },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(finds); i++) {
		const char *cl = finds[i].cmdline ? finds[i].cmdline : "(NULL)";
		struct dz_param p = { 0 };
		bool found = dz_cmdline_find(finds[i].cmdline, finds[i].names, &p);

		EXPECT(found == !!finds[i].val, "[%s] found %d, expected %d", cl, found,
		       !!finds[i].val);
		if (found)
			EXPECT(p.val && p.val_len == strlen(finds[i].val) &&
				       !memcmp(p.val, finds[i].val, p.val_len),
			       "[%s] value \"%.*s\", expected \"%s\"", cl,
			       p.val ? (int)p.val_len : 4, p.val ? p.val : "NULL", finds[i].val);
	}
}

static void test_param_is(void **state)
{
	struct dz_param p = { "time-slice", 10, NULL, 0 };
	struct dz_param prefix = { "time-slice=5", 4, "5", 1 }; /* "time" */

	(void)state;
	assert_true(dz_param_is(&p, "time-slice"));
	assert_true(dz_param_is(&p, "time_slice"));
	assert_false(dz_param_is(&p, "timeslice"));
	assert_false(dz_param_is(&p, "time-slic"));
	assert_false(dz_param_is(&p, "time-slices"));
	assert_false(dz_param_is(&p, "Time-slice"));
	assert_false(dz_param_is(&p, ""));
	assert_true(dz_param_is(&prefix, "time"));
	assert_false(dz_param_is(&prefix, "time-slice"));
	assert_false(dz_param_is(&prefix, "tim"));
}

/* ---- another parameter: a scheduler timeslice= in USER_HZ ticks ---- */

struct uint_case {
	const char *cmdline; /* one token */
	unsigned long min, max, dflt;
	int ret;
	unsigned long out;
	const char *line;
};

static void test_param_uint(void **state)
{
	static const struct uint_case ucases[] = {
		{ "timeslice=10", 1, 1000, 10, 0, 10, NULL },
		{ "timeslice=1", 1, 1000, 10, 0, 1, NULL },
		{ "timeslice=1000", 1, 1000, 10, 0, 1000, NULL },
		{ "timeslice=\"7\"", 1, 1000, 10, 0, 7, NULL },
		{ "time-slice=0", 1, 1000, 10, -DZ_ERANGE, 1,
		  "time-slice=0: out of range 1..1000, using 1" },
		{ "timeslice=1001", 1, 1000, 10, -DZ_ERANGE, 1000,
		  "timeslice=1001: out of range 1..1000, using 1000" },
		{ "timeslice=soon", 1, 1000, 10, -DZ_EINVAL, 10,
		  "timeslice=soon: not a number, using 10" },
		{ "timeslice=", 1, 1000, 10, -DZ_EINVAL, 10, "timeslice=: empty value, using 10" },
		{ "timeslice", 1, 1000, 10, -DZ_EINVAL, 10, "timeslice=: empty value, using 10" },
		{ "timeslice=5ms", 1, 1000, 10, -DZ_EINVAL, 10,
		  "timeslice=5ms: trailing characters after the number, using 10" },
		{ "timeslice=-1", 1, 1000, 10, -DZ_EINVAL, 10,
		  "timeslice=-1: a sign is not allowed, using 10" },
		{ "timeslice=+1", 1, 1000, 10, -DZ_EINVAL, 10,
		  "timeslice=+1: a sign is not allowed, using 10" },
		{ "timeslice=0", 0, 5, 3, 0, 0, NULL },
		{ "poll=7", 7, 7, 7, 0, 7, NULL },
		{ "poll=8", 7, 7, 7, -DZ_ERANGE, 7, "poll=8: out of range 7..7, using 7" },
		{ "poll=4294967295", 0, ULONG_MAX, 0, 0, 4294967295UL, NULL },
#if BITS_PER_LONG == 64
		{ "poll=18446744073709551615", 0, ULONG_MAX, 0, 0, ULONG_MAX, NULL },
		{ "poll=18446744073709551616", 0, ULONG_MAX, 5, -DZ_EINVAL, 5,
		  "poll=18446744073709551616: number too large, using 5" },
		{ "poll=184467440737095516150", 0, ULONG_MAX, 5, -DZ_EINVAL, 5,
		  "poll=184467440737095516150: number too large, using 5" },
#else
		{ "poll=4294967296", 0, ULONG_MAX, 5, -DZ_EINVAL, 5,
		  "poll=4294967296: number too large, using 5" },
		{ "poll=42949672950", 0, ULONG_MAX, 5, -DZ_EINVAL, 5,
		  "poll=42949672950: number too large, using 5" },
#endif
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ucases); i++) {
		const struct uint_case *c = &ucases[i];
		struct dz_param p;
		size_t pos = 0;
		unsigned long out = 0xdeadUL;
		struct output o;
		int ret;

		assert_true(dz_cmdline_next(c->cmdline, &pos, &p));
		capture_start();
		ret = dz_param_uint(&p, c->min, c->max, c->dflt, &out);
		capture_stop(&o);
		EXPECT(ret == c->ret, "[%s] returned %d, expected %d", c->cmdline, ret, c->ret);
		EXPECT(out == c->out, "[%s] stored %lu, expected %lu", c->cmdline, out, c->out);
		check_lines(c->cmdline, &o, &c->line, c->line ? 1 : 0);
	}
}

/* The value is a slice: dz_param_uint reads val_len characters, no more. */
static void test_param_uint_slice(void **state)
{
	static const char text[] = "300xyz";
	static const char *const want_x = "timeslice=300x: trailing characters after the number, "
					  "using 10";
	static const char *const want_e = "timeslice=: empty value, using 10";
	struct dz_param p = { "timeslice", 9, text, 3 };
	struct dz_param x = { "timeslice", 9, text, 4 };
	struct dz_param e = { "timeslice", 9, text, 0 };
	unsigned long out;
	struct output o;

	(void)state;
	capture_start();
	assert_int_equal(dz_param_uint(&p, 1, 1000, 10, &out), 0);
	capture_stop(&o);
	assert_int_equal(out, 300);
	check_lines("300", &o, NULL, 0);

	capture_start();
	assert_int_equal(dz_param_uint(&x, 1, 1000, 10, &out), -DZ_EINVAL);
	capture_stop(&o);
	assert_int_equal(out, 10);
	check_lines("300x", &o, &want_x, 1);

	capture_start();
	assert_int_equal(dz_param_uint(&e, 1, 1000, 10, &out), -DZ_EINVAL);
	capture_stop(&o);
	assert_int_equal(out, 10);
	check_lines("empty slice", &o, &want_e, 1);
}

/*
 * A tick-valued parameter is in USER_HZ and becomes jiffies once, at boot,
 * through user_to_kernel_hz(): rounded up against the real tick.
 */
static void test_param_timeslice_to_jiffies(void **state)
{
	static const char *const plain[] = { "timeslice", NULL };
	static const char *const under[] = { "time_slice", NULL };
	static const unsigned int hzs[] = { 19, 100, 250, 300, 1000, 10000 };
	static const unsigned long slices[] = { 1, 7, 10, 100, 1000 };
	char cl[80];

	(void)state;
	dynhz_host_set_quiet(true);
	for (size_t i = 0; i < ARRAY_SIZE(hzs); i++) {
		for (size_t k = 0; k < ARRAY_SIZE(slices); k++) {
			struct dz_tick_period t;
			struct dz_param p;
			unsigned long ticks, j;
			unsigned int hz = hzs[i];

#ifdef CONFIG_HZ
			hz = CONFIG_HZ;
#endif
			snprintf(cl, sizeof(cl), "/boot/dynhz.elf hz=%u time-slice=%lu quiet",
				 hzs[i], slices[k]);
			dynhz_boot_quiet(cl);
			assert_int_equal(HZ, hz);
			assert_false(dz_cmdline_find(cl, plain, &p));
			assert_true(dz_cmdline_find(cl, under, &p));
			assert_int_equal(dz_param_uint(&p, 1, 1000, 10, &ticks), 0);
			assert_int_equal(ticks, slices[k]);

			t.num = pit_divisor_for(hz);
			t.den = PIT_HZ_IN;
			j = user_to_kernel_hz(DZ_UCLOCK(ticks));
			EXPECT(j == ref_clock_to_j(ticks, t, USER_HZ),
			       "hz=%u: %lu USER_HZ ticks -> %lu jiffies, expected %llu", hz, ticks, j,
			       (unsigned long long)ref_clock_to_j(ticks, t, USER_HZ));
			EXPECT(j >= 1, "hz=%u: a timeslice of %lu ticks is no jiffy at all", hz, ticks);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boot_table),
		cmocka_unit_test(test_boot_table_reversed),
		cmocka_unit_test(test_boot_long_value),
		cmocka_unit_test(test_boot_report),
		cmocka_unit_test(test_cmdline_next),
		cmocka_unit_test(test_cmdline_find),
		cmocka_unit_test(test_param_is),
		cmocka_unit_test(test_param_uint),
		cmocka_unit_test(test_param_uint_slice),
		cmocka_unit_test(test_param_timeslice_to_jiffies),
	};

	dynhz_host_set_quiet(true);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
