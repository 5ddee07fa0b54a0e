// SPDX-License-Identifier: MIT
/*
 * The kernel command line and hz=: a table of good and bad command lines
 * booted through dynhz_boot_quiet(), the dz_cmdline_* walkers, and
 * dz_param_uint() for other parameters, and dz_escape() and
 * dz_param_report(), which show a bad value bounded and escaped. Every
 * expectation is written out here: the return value, the HZ in force,
 * where it came from, and every line printed, word for word.
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

#define EXPECT(cond, ...)                      \
	do {                                   \
		if (!(cond))                   \
			fail_msg(__VA_ARGS__); \
	} while (0)

/* ---- what the core prints ---- */

#define SENTINEL  "-- nothing printed since here --"
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
	case DZ_HZ_SRC_RUNTIME:
		return "runtime";
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
	EXPECT(!strcmp(dynhz_host_last_line(), last), "[%s] last line \"%s\", expected \"%s\"",
	       cmdline, dynhz_host_last_line(), last);
}

/* ---- the table ---- */

struct boot_case {
	const char *cmdline;
	int ret;	       /* 0, -DZ_EINVAL or -DZ_ERANGE */
	unsigned int hz;       /* the HZ used (in the variable build) */
	enum dz_hz_source src; /* (in the variable build) */
	const char *line;      /* the one line printed, or NULL */
	const char *hz_param;  /* the hz= that counts, unquoted, as the constant build names it */
};

#define OK(cl, h, param)                                 \
	{                                                \
		cl, 0, h, DZ_HZ_SRC_CMDLINE, NULL, param \
	}
#define NONE(cl)                                          \
	{                                                 \
		cl, 0, 250, DZ_HZ_SRC_DEFAULT, NULL, NULL \
	}
#define BAD(cl, param, why)                                                                 \
	{                                                                                   \
		cl, -DZ_EINVAL, 250, DZ_HZ_SRC_DEFAULT, param ": " why ", using 250", param \
	}
#define RANGE(cl, param, used)                                                \
	{                                                                     \
		cl, -DZ_ERANGE, used, DZ_HZ_SRC_CLAMPED,                      \
			param ": out of range 19..10000, using " #used, param \
	}

#define WHY_NAN	  "not a number"
#define WHY_EMPTY "empty value"
#define WHY_TRAIL "trailing characters after the number"
#define WHY_SIGN  "a sign is not allowed"
#define WHY_BIG	  "number too large"

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

	/* shown escaped: one line whatever the value holds */
	BAD("hz=\"3\n00\"", "hz=3\\x0a00", WHY_TRAIL),
	BAD("hz=\"\r\n\"", "hz=\\x0d\\x0a", WHY_NAN),
	BAD("hz=\033[2J\033[H", "hz=\\x1b[2J\\x1b[H", WHY_NAN),
	BAD("hz=300\033[0m", "hz=300\\x1b[0m", WHY_TRAIL),
	BAD("hz=\\300", "hz=\\x5c300", WHY_NAN),
	BAD("hz=caf\303\251", "hz=caf\\xc3\\xa9", WHY_NAN),
	BAD("hz=\001\177\377", "hz=\\x01\\x7f\\xff", WHY_NAN),
	BAD("hz=\"\t\"", "hz=\\x09", WHY_NAN),
	/* an unterminated quote runs to the end */
	BAD("hz=\"300 nohz=off", "hz=300 nohz=off", WHY_TRAIL),
	OK("hz=\"300", 300, "hz=300"),
	BAD("HZ=\"\"\"5\"", "HZ=\"\"5", WHY_NAN),
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

/* n copies of c, then tail, into buf (terminated). */
static char *repeat(char *buf, const char *head, char c, size_t n, const char *tail)
{
	size_t h = strlen(head);

	memcpy(buf, head, h);
	memset(buf + h, c, n);
	strcpy(buf + h + n, tail);
	return buf;
}

/*
 * A value longer than any console line: never fatal, and its line stays
 * one line that still says what is used, the value cut to 64 characters.
 */
static void test_boot_long_value(void **state)
{
	char cl[1100], want[256], shown[80];
	const char *w = want;
	struct output o;

	(void)state;
	repeat(cl, "hz=", '0', 500, "300");
	capture_start();
	assert_int_equal(dynhz_boot_quiet(cl), 0);
	capture_stop(&o);
	repeat(shown, "hz=", '0', 61, "...");
#if defined(CONFIG_HZ) && CONFIG_HZ != 300
	snprintf(want, sizeof(want), "%s: HZ is fixed at %u in this build, ignored", shown,
		 (unsigned int)CONFIG_HZ);
	check_lines("hz=000...300", &o, &w, 1);
#else
	check_lines("hz=000...300", &o, &w, 0);
#endif
#ifdef CONFIG_HZ
	check_booted("hz=000...300", CONFIG_HZ, DZ_HZ_SRC_CONSTANT);
#else
	check_booted("hz=000...300", 300, DZ_HZ_SRC_CMDLINE);
#endif

	repeat(cl, "hz=", '9', 1000, "");
	capture_start();
	assert_int_equal(dynhz_boot_quiet(cl), -DZ_EINVAL);
	capture_stop(&o);
	repeat(shown, "hz=", '9', 61, "...");
#ifdef CONFIG_HZ
	snprintf(want, sizeof(want), "%s: HZ is fixed at %u in this build, ignored", shown,
		 (unsigned int)CONFIG_HZ);
	check_booted("hz=999...", CONFIG_HZ, DZ_HZ_SRC_CONSTANT);
#else
	snprintf(want, sizeof(want), "%s: number too large, using 250", shown);
	check_booted("hz=999...", 250, DZ_HZ_SRC_DEFAULT);
#endif
	check_lines("hz=999...", &o, &w, 1);
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

/*
 * Both parameters of the core at once: the hz= line, then the nohz= line,
 * each escaped. hz_shown and hz_tail make the hz= line of either build:
 * "<hz_shown>: <hz_tail>" here, "<hz_shown>: HZ is fixed at N in this
 * build, ignored" in the constant one.
 */
static void test_boot_messages(void **state)
{
	static const struct {
		const char *cmdline;
		const char *hz_shown; /* NULL: no hz= line */
		const char *hz_tail;
		const char *nohz_line; /* NULL: none */
	} msgs[] = {
		{ "hz=abc nohz=maybe", "hz=abc", "not a number, using 250",
		  "nohz=maybe: not on or off, using on" },
		{ "nohz", NULL, NULL, "nohz=: empty value, using on" },
		{ "nohz=\"o\nn\"", NULL, NULL, "nohz=o\\x0an: not on or off, using on" },
		{ "nohz=\033[2J", NULL, NULL, "nohz=\\x1b[2J: not on or off, using on" },
		{ "nohz=on\033", NULL, NULL, "nohz=on\\x1b: not on or off, using on" },
		{ "nohz=\\off", NULL, NULL, "nohz=\\x5coff: not on or off, using on" },
		{ "hz=\"1\n2\" nohz=\"\n\"", "hz=1\\x0a2",
		  "trailing characters after the number, using 250",
		  "nohz=\\x0a: not on or off, using on" },
		{ "HZ=5\033 nohz=\377", "HZ=5\\x1b",
		  "trailing characters after the number, using 250",
		  "nohz=\\xff: not on or off, using on" },
		{ "hz=\"300 nohz=maybe\"", "hz=300 nohz=maybe",
		  "trailing characters after the number, using 250", NULL },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(msgs); i++) {
		char hz_line[256];
		const char *want[2];
		int nwant = 0;
		struct output o;

		if (msgs[i].hz_shown) {
#ifdef CONFIG_HZ
			snprintf(hz_line, sizeof(hz_line),
				 "%s: HZ is fixed at %u in this build, ignored", msgs[i].hz_shown,
				 (unsigned int)CONFIG_HZ);
#else
			snprintf(hz_line, sizeof(hz_line), "%s: %s", msgs[i].hz_shown,
				 msgs[i].hz_tail);
#endif
			want[nwant++] = hz_line;
		}
		if (msgs[i].nohz_line)
			want[nwant++] = msgs[i].nohz_line;
		capture_start();
		dynhz_boot_quiet(msgs[i].cmdline);
		capture_stop(&o);
		check_lines(msgs[i].cmdline, &o, want, nwant);
	}
}

/* ---- showing a value: dz_escape() ---- */

/* The 40-character string the boundary cases are cut from. */
#define A40 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

struct escape_case {
	const char *in;
	size_t len;  /* of in; 0 with in "" */
	size_t size; /* of the output buffer, at most 128 */
	size_t max_chars;
	const char *want;
};

#define ESC(in, size, max, want)                    \
	{                                           \
		in, sizeof(in) - 1, size, max, want \
	}

static const struct escape_case escapes[] = {
	/* what stays and what is escaped */
	ESC("", 128, 64, ""),
	ESC("300", 128, 64, "300"),
	ESC(" !\"#~", 128, 64, " !\"#~"),
	ESC("\x01\x08\x1f", 128, 64, "\\x01\\x08\\x1f"),
	ESC("\t\n\v\f\r", 128, 64, "\\x09\\x0a\\x0b\\x0c\\x0d"),
	ESC("3\n00", 128, 64, "3\\x0a00"),			/* a quoted newline */
	ESC("\033[2J\033[H", 128, 64, "\\x1b[2J\\x1b[H"),	/* clear the screen */
	ESC("\033]0;title\007", 128, 64, "\\x1b]0;title\\x07"), /* set the title */
	ESC("a\\b", 128, 64, "a\\x5cb"),			/* a backslash is escaped too */
	ESC("\\x41", 128, 64, "\\x5cx41"), /* so an escape is never ambiguous */
	ESC("\x7f\x80\xff", 128, 64, "\\x7f\\x80\\xff"),
	ESC("caf\xc3\xa9", 128, 64, "caf\\xc3\\xa9"),
	ESC("a\0b", 128, 64, "a\\x00b"), /* a slice may hold a NUL */
	/* the length is the slice's, not the string's */
	{ "300xyz", 3, 128, 64, "300" },
	{ "300xyz", 0, 128, 64, "" },
	/* exact boundaries: max_chars whole characters, or the most that leave room for "..." */
	ESC(A40, 128, 40, A40),
	ESC(A40, 128, 39, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa..."),
	ESC(A40, 128, 41, A40),
	ESC("aaaaaa\033", 128, 10, "aaaaaa\\x1b"),  /* 10: fits */
	ESC("aaaaaaa\033", 128, 10, "aaaaaaa..."),  /* 11: the escape goes whole */
	ESC("aaaa\033\033", 128, 10, "aaaa..."),    /* no half escape before the dots */
	ESC("aaa\033\033", 128, 10, "aaa\\x1b..."), /* 11: the second goes */
	ESC("\033\033\033", 128, 12, "\\x1b\\x1b\\x1b"),
	ESC("\033\033\033", 128, 11, "\\x1b\\x1b..."),
	ESC("\033\033\033", 128, 6, "..."),
	/* a tiny budget: only dots, as many as fit */
	ESC("abcdef", 128, 3, "..."),
	ESC("abcdef", 128, 2, ".."),
	ESC("abcdef", 128, 0, ""),
	ESC("abc", 128, 3, "abc"),
	/* the buffer bounds it too */
	ESC("abcdefghij", 8, 64, "abcd..."),
	ESC("abcdefg", 8, 64, "abcdefg"),
	ESC("abcdefgh", 8, 64, "abcd..."),
	ESC("abc", 1, 64, ""),
	ESC("\033", 4, 64, "..."),
	ESC("\033", 5, 64, "\\x1b"),
};

static void test_escape(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(escapes); i++) {
		const struct escape_case *c = &escapes[i];
		char out[128 + 16];
		char *r;

		memset(out, '#', sizeof(out));
		r = dz_escape(out, c->size, c->in, c->len, c->max_chars);
		EXPECT(r == out, "case %zu: returned another buffer", i);
		EXPECT(memchr(out, '\0', c->size), "case %zu: not terminated", i);
		EXPECT(!strcmp(out, c->want),
		       "case %zu (size %zu, max %zu): \"%s\", expected \"%s\"", i, c->size,
		       c->max_chars, out, c->want);
		EXPECT(strlen(out) <= c->max_chars, "case %zu: %zu characters, max %zu", i,
		       strlen(out), c->max_chars);
		for (size_t k = c->size; k < sizeof(out); k++)
			EXPECT(out[k] == '#', "case %zu: wrote byte %zu of a %zu-byte buffer", i, k,
			       c->size);
		for (const char *p = out; *p; p++)
			EXPECT(*p >= ' ' && *p <= '~', "case %zu: byte 0x%02x shown", i,
			       (unsigned char)*p);
	}
}

/* No buffer at all: nothing written. */
static void test_escape_size0(void **state)
{
	char out[4] = "###";

	(void)state;
	assert_ptr_equal(dz_escape(out, 0, "abc", 3, 64), out);
	assert_string_equal(out, "###");
}

/* Every byte value, alone: printable ASCII but the backslash as itself, the rest \xNN. */
static void test_escape_every_byte(void **state)
{
	(void)state;
	for (unsigned int b = 0; b < 256; b++) {
		char in = (char)b, out[8], want[8];

		if (b >= 0x20 && b <= 0x7e && b != '\\')
			snprintf(want, sizeof(want), "%c", (int)b);
		else
			snprintf(want, sizeof(want), "\\x%02x", b);
		dz_escape(out, sizeof(out), &in, 1, 64);
		EXPECT(!strcmp(out, want), "byte 0x%02x: \"%s\", expected \"%s\"", b, out, want);
	}
}

/* ---- the one line for a bad value: dz_param_report() ---- */

/* 61 characters of a value cut to 64: then "..." */
#define A61 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define A64 A61 "aaa"

struct report_case {
	const char *cmdline; /* one token, read by dz_cmdline_next */
	const char *why, *used;
	const char *want;
};

static void test_param_report(void **state)
{
	static const struct report_case reports[] = {
		{ "hz=abc", "not a number", "250", "hz=abc: not a number, using 250" },
		{ "nohz", "empty value", "on", "nohz=: empty value, using on" },
		{ "nohz=", "empty value", "on", "nohz=: empty value, using on" },
		{ "clockevent=\"hp\net\"", "not a clock-event device (pit, lapic)", "pit",
		  "clockevent=hp\\x0aet: not a clock-event device (pit, lapic), using pit" },
		{ "timeslice=\033[2J\033[H", "not a number", "10",
		  "timeslice=\\x1b[2J\\x1b[H: not a number, using 10" },
		{ "idletest=\\\\", "not a number", "10",
		  "idletest=\\x5c\\x5c: not a number, using 10" },
		{ "crash=\xe2\x98\x83", "not ud, div, gp or panic", "none",
		  "crash=\\xe2\\x98\\x83: not ud, div, gp or panic, using none" },
		{ "\"hz=\r\"", "not a number", "250", "hz=\\x0d: not a number, using 250" },
		/* the value's bound, exactly */
		{ "hz=" A64, "not a number", "250", "hz=" A64 ": not a number, using 250" },
		{ "hz=" A64 "a", "not a number", "250", "hz=" A61 "...: not a number, using 250" },
		/* and the name's: 32 characters */
		{ "abcdefghijklmnopqrstuvwxyz012345=1", "x", "y",
		  "abcdefghijklmnopqrstuvwxyz012345=1: x, using y" },
		{ "abcdefghijklmnopqrstuvwxyz0123456=1", "x", "y",
		  "abcdefghijklmnopqrstuvwxyz012...=1: x, using y" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(reports); i++) {
		const struct report_case *c = &reports[i];
		struct dz_param p;
		size_t pos = 0;
		struct output o;

		assert_true(dz_cmdline_next(c->cmdline, &pos, &p));
		capture_start();
		dz_param_report(&p, c->why, c->used);
		capture_stop(&o);
		check_lines(c->cmdline, &o, &c->want, 1);
	}
}

/*
 * Whatever the value, the report is one printable line, of bounded
 * length, naming the parameter and ending in what is used: values of
 * 1000 characters of each kind, and one of every byte.
 */
static void test_param_report_bounded(void **state)
{
	static const char fills[] = { 'x', '\n', '\033', '\\', '\x80', '"', ' ', '\0' };
	/* "name=" + 64 + ": " + why + ", using " + used */
	const size_t bound = 5 + 64 + 2 + strlen("not a number") + 8 + 3;
	const char *tail = "...: not a number, using 250";
	char val[1000];

	(void)state;
	for (size_t f = 0; f <= ARRAY_SIZE(fills); f++) {
		struct dz_param p = { "name", 4, val, sizeof(val) };
		struct output o;
		size_t len;

		if (f < ARRAY_SIZE(fills))
			memset(val, fills[f], sizeof(val));
		else
			for (size_t i = 0; i < sizeof(val); i++)
				val[i] = (char)i;
		capture_start();
		dz_param_report(&p, "not a number", "250");
		capture_stop(&o);
		EXPECT(o.lines == 1, "fill %zu: %d lines", f, o.lines);
		len = strlen(o.line[0]);
		EXPECT(len <= bound, "fill %zu: %zu characters, more than %zu", f, len, bound);
		EXPECT(!strncmp(o.line[0], "name=", 5), "fill %zu: \"%s\"", f, o.line[0]);
		EXPECT(len >= strlen(tail) && !strcmp(o.line[0] + len - strlen(tail), tail),
		       "fill %zu: ends \"%s\"", f, o.line[0]);
		for (const char *s = o.line[0]; *s; s++)
			EXPECT(*s >= ' ' && *s <= '~', "fill %zu: byte 0x%02x in \"%s\"", f,
			       (unsigned char)*s, o.line[0]);
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
		{ "/boot/dynhz.elf", NULL },
		{ "root", "/dev/sda1" },
		{ "quiet", NULL },
		{ "foo", "a b  c" },
		{ "hz", "300" },
		{ "console", "ttyS0,115200" },
		{ "x", "" },
		{ "init", "/bin/sh -c \"true\"" },
	};
	static const struct token quoted[] = {
		{ "hz", "300" }, { "HZ", "1000" }, { "a", "1 2" }, { "b", "" }, { "flag", NULL },
	};
	static const struct token odd[] = {
		{ "", "300" },
		{ "hz", "=5" },
		{ "", NULL },
		{ "a", "b=c" },
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
		/* "--" ends the kernel's parameters: what follows is init's (as Linux) */
		{ "hz=1 -- hz=2", hz_names, "1" },
		{ "-- hz=2", hz_names, NULL },
		{ "hz=1 \"--\" hz=2", hz_names, "1" },
		{ "hz=1 --- hz=2 -x hz=3", hz_names, "3" },
		{ "hz=1 --=x hz=2", hz_names, "2" },
		{ "hz=1 a--b hz=2", hz_names, "2" },
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
			       "hz=%u: %lu USER_HZ ticks -> %lu jiffies, expected %llu", hz, ticks,
			       j, (unsigned long long)ref_clock_to_j(ticks, t, USER_HZ));
			EXPECT(j >= 1, "hz=%u: a timeslice of %lu ticks is no jiffy at all", hz,
			       ticks);
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
		cmocka_unit_test(test_boot_messages),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_escape_size0),
		cmocka_unit_test(test_escape_every_byte),
		cmocka_unit_test(test_param_report),
		cmocka_unit_test(test_param_report_bounded),
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
