// SPDX-License-Identifier: MIT
/*
 * hzwatch: what a program sees while HZ changes under it (issue 14). Built
 * static i386 against musl and glibc, in the initramfs as /sbin/hzwatch
 * and /sbin/hzwatch-glibc; tests/retune runs it beside the kernel's
 * retunetest, which changes HZ 1000 -> 100 -> 333 -> 10000 -> 24.
 *
 *	hzwatch [seconds]	(default 7)
 *	hzwatch constant	the constant build: every change refused with
 *				EPERM, bad values still EINVAL and ERANGE
 *
 * 1. Bad values, at once: written to /proc/sys/kernel/hz ("abc", "5",
 *    "20000", "1e3", "-100" and a 100-byte number) and given to the
 *    dynhz_hz call (5, 20000, a flag): the errno Linux's integer sysctls
 *    give (EINVAL), the call's (ERANGE, EINVAL), and HZ unchanged after
 *    each, read back both ways.
 * 2. Every 100 ms for the seconds given: times(), CLOCK_MONOTONIC,
 *    /proc/uptime and the sum of /proc/stat's cpu line, one line each,
 *    checked against the previous sample: none goes back, and each
 *    advances as CLOCK_MONOTONIC did (within a USER_HZ tick and the
 *    rounding of each), so nothing jumps at a change; and
 *    CLOCK_MONOTONIC_COARSE never back, never ahead of CLOCK_MONOTONIC nor
 *    behind it by more than the slowest tick.
 * 3. Good values: 250 written to /proc/sys/kernel/hz, 1000 by the call,
 *    each read back both ways.
 *
 * Ends with "hzwatch: ok" or "hzwatch: FAILED: n checks", exit status 0 or 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#define NR_DYNHZ_HZ 1014 /* dynhz's own call: long dynhz_hz(unsigned int hz, unsigned int flags) */
#define HZ_FILE	    "/proc/sys/kernel/hz"
#define NS_PER_SEC  1000000000LL
#define NS_PER_TICK (NS_PER_SEC / 100) /* one USER_HZ tick */
#define PERIOD_NS   (100 * 1000000LL)
/* The slowest tick (hz=24, 41.7 ms) and the wake-up: how late a 100 ms sleep may end. */
#define LATE_NS (50 * 1000000LL)

static int failures;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	va_list ap;

	failures++;
	printf("hzwatch: FAIL ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static long dynhz_hz(unsigned int hz, unsigned int flags)
{
	return syscall(NR_DYNHZ_HZ, hz, flags);
}

static long read_hz_file(void)
{
	char buf[32];
	int fd = open(HZ_FILE, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/* The errno of one write of s to the file (0 when it was taken whole). */
static int write_hz_file(const char *s, size_t len)
{
	int fd = open(HZ_FILE, O_WRONLY);
	ssize_t n;
	int e;

	if (fd < 0)
		return errno;
	errno = 0;
	n = write(fd, s, len);
	e = n < 0 ? errno : (size_t)n == len ? 0 : -1;
	close(fd);
	return e;
}

static void expect_hz(const char *after, long want)
{
	long f = read_hz_file(), c = dynhz_hz(0, 0);

	if (f != want)
		fail("after %s: " HZ_FILE " says %ld, not %ld", after, f, want);
	if (c != want)
		fail("after %s: dynhz_hz(0) says %ld, not %ld", after, c, want);
}

static void bad_write(const char *s, size_t len, long hz)
{
	int e = write_hz_file(s, len);

	if (e != EINVAL)
		fail("write '%.20s' to " HZ_FILE ": errno %d, not EINVAL", s, e);
	expect_hz("a bad write", hz);
}

static void bad_call(unsigned int v, unsigned int flags, int want, long hz)
{
	long r = dynhz_hz(v, flags);
	int e = errno;

	if (r != -1 || e != want)
		fail("dynhz_hz(%u, %u): %ld, errno %d, not %d", v, flags, r, e, want);
	expect_hz("a bad call", hz);
}

static void bad_values(void)
{
	long hz = dynhz_hz(0, 0);
	char longnum[101];

	printf("hzwatch: HZ is %ld, %s says %ld\n", hz, HZ_FILE, read_hz_file());
	if (hz < 19 || hz > 10000)
		fail("dynhz_hz(0) = %ld, not a HZ", hz);
	bad_write("abc", 3, hz);
	bad_write("5\n", 2, hz);
	bad_write("20000", 5, hz);
	bad_write("1e3", 3, hz);
	bad_write("-100", 4, hz);
	memset(longnum, '0', sizeof(longnum) - 4);
	memcpy(longnum + sizeof(longnum) - 4, "100", 4);
	bad_write(longnum, sizeof(longnum) - 1, hz);
	bad_call(5, 0, ERANGE, hz);
	bad_call(20000, 0, ERANGE, hz);
	bad_call(100, 1, EINVAL, hz);
	printf("hzwatch: bad values done, %d failures\n", failures);
}

struct sample {
	long long mono, coarse, times, uptime_cs, stat;
};

static long long clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * NS_PER_SEC + ts.tv_nsec;
}

/* /proc/uptime's first field in hundredths, /proc/stat's cpu line summed (USER_HZ ticks). */
static void read_proc(struct sample *s)
{
	char buf[512];
	FILE *f = fopen("/proc/uptime", "r");
	long a = 0, b = 0;
	long long v[8] = { 0 };

	if (f && fscanf(f, "%ld.%ld", &a, &b) == 2)
		s->uptime_cs = a * 100LL + b;
	if (f)
		fclose(f);
	f = fopen("/proc/stat", "r");
	if (f && fgets(buf, sizeof(buf), f))
		sscanf(buf, "cpu %lld %lld %lld %lld %lld %lld %lld %lld", &v[0], &v[1], &v[2],
		       &v[3], &v[4], &v[5], &v[6], &v[7]);
	if (f)
		fclose(f);
	s->stat = 0;
	for (int i = 0; i < 8; i++)
		s->stat += v[i];
}

static void take(struct sample *s)
{
	struct tms t;

	s->coarse = clock_ns(CLOCK_MONOTONIC_COARSE);
	s->mono = clock_ns(CLOCK_MONOTONIC);
	s->times = (long long)times(&t);
	read_proc(s);
}

/* A counter in USER_HZ ticks advanced as CLOCK_MONOTONIC did, within slack ticks. */
static void check_ticks(const char *what, long long d, long long dmono, long long slack)
{
	long long want = dmono / NS_PER_TICK;

	if (d < 0 || d < want - slack || d > want + slack + 1)
		fail("%s advanced %lld ticks while CLOCK_MONOTONIC advanced %lld ns", what, d,
		     dmono);
}

static void compare(const struct sample *a, const struct sample *b)
{
	long long dm = b->mono - a->mono;

	if (dm < PERIOD_NS || dm > PERIOD_NS + LATE_NS)
		fail("CLOCK_MONOTONIC advanced %lld ns over a 100 ms sleep", dm);
	/* The coarse clock: the start of the jiffy, so behind by at most the slowest tick. */
	if (b->coarse < a->coarse || b->coarse > b->mono || b->mono - b->coarse > LATE_NS)
		fail("CLOCK_MONOTONIC_COARSE went from %lld to %lld, CLOCK_MONOTONIC at %lld",
		     a->coarse, b->coarse, b->mono);
	check_ticks("times()", b->times - a->times, dm, 1);
	check_ticks("/proc/uptime", b->uptime_cs - a->uptime_cs, dm, 2);
	check_ticks("/proc/stat cpu", b->stat - a->stat, dm, 2);
}

static void watch(int seconds)
{
	struct timespec period = { 0, PERIOD_NS };
	struct sample prev, cur;
	long long t0;

	take(&prev);
	t0 = prev.mono;
	for (int i = 1; i <= seconds * 10; i++) {
		nanosleep(&period, NULL);
		take(&cur);
		printf("hzwatch: t=%lld.%03lld hz=%ld times=%lld mono_ns=%lld coarse_ns=%lld "
		       "uptime=%lld.%02lld stat=%lld\n",
		       (cur.mono - t0) / NS_PER_SEC, (cur.mono - t0) % NS_PER_SEC / 1000000,
		       dynhz_hz(0, 0), cur.times, cur.mono, cur.coarse, cur.uptime_cs / 100,
		       cur.uptime_cs % 100, cur.stat);
		compare(&prev, &cur);
		prev = cur;
	}
}

static void good_values(void)
{
	int e = write_hz_file(" 250\n", 5);

	if (e)
		fail("write ' 250\\n' to " HZ_FILE ": errno %d", e);
	expect_hz("writing 250", 250);
	if (dynhz_hz(1000, 0) != 0)
		fail("dynhz_hz(1000, 0): errno %d", errno);
	expect_hz("dynhz_hz(1000)", 1000);
}

/* The constant build: HZ stays, a good value is refused (EPERM) by both doors. */
static void constant_build(void)
{
	long hz = dynhz_hz(0, 0);
	int e = write_hz_file(hz == 100 ? "250\n" : "100\n", 4);

	if (e != EPERM)
		fail("constant build: write to " HZ_FILE ": errno %d, not EPERM", e);
	expect_hz("a refused write", hz);
	if (dynhz_hz(hz == 100 ? 250 : 100, 0) != -1 || errno != EPERM)
		fail("constant build: dynhz_hz(): errno %d, not EPERM", errno);
	expect_hz("a refused call", hz);
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 7;

	setvbuf(stdout, NULL, _IOLBF, 0);
	bad_values();
	if (argc > 1 && !strcmp(argv[1], "constant"))
		constant_build();
	else
		watch(seconds > 0 ? seconds : 7);
	if (argc == 1 || strcmp(argv[1], "constant"))
		good_values();
	if (failures) {
		printf("hzwatch: FAILED: %d checks\n", failures);
		return 1;
	}
	printf("hzwatch: ok\n");
	return 0;
}
