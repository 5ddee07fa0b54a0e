// SPDX-License-Identifier: MIT
/*
 * init: the first user program. With the argument "test" it checks what
 * user space can see of time and prints it, one "usertest:" line of
 * name=value pairs per fact, so that the boots at different HZ can be
 * compared; its exit status is the number of checks that failed. With
 * "fault=<kind>" it commits that fault, and the kernel must kill it.
 */
#include "libc.h"

#define NSEC_PER_SEC  1000000000LL
#define NSEC_PER_TICK (NSEC_PER_SEC / 100) /* one USER_HZ tick */
#define SPIN	      200000		   /* about a millisecond of user-mode work */
#define BAD_ADDR      0xfffffff0L	   /* far outside the user region */

static int failures;

static void check(bool ok, const char *what)
{
	if (!ok) {
		failures++;
		printf("usertest: FAIL %s\n", what);
	}
}

static long long now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return -1;
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void spin(void)
{
	for (volatile int i = 0; i < SPIN; i++)
		;
}

/* One second of guest time spent in user mode: the CPU time must say 100 ticks. */
static void test_busy(void)
{
	struct tms a, b;
	long long t0, t;

	times(&a);
	t0 = now_ns();
	do
		spin();
	while ((t = now_ns()) - t0 < NSEC_PER_SEC);
	times(&b);
	printf("usertest: busy ns=%lld utime=%ld stime=%ld\n", t - t0, b.tms_utime - a.tms_utime,
	       b.tms_stime - a.tms_stime);
	check(b.tms_utime - a.tms_utime >= 98 && b.tms_utime - a.tms_utime <= 102, "busy utime");
}

static void test_sleep(long ms)
{
	struct timespec req = { ms / 1000, ms % 1000 * 1000000L }, rem = { 1, 1 };
	long long t0 = now_ns(), t;
	int r = nanosleep(&req, &rem);

	t = now_ns() - t0;
	printf("usertest: sleep ms=%ld ns=%lld early=%d ret=%d\n", ms, t, t < ms * 1000000LL, r);
	check(r == 0 && t >= ms * 1000000LL && rem.tv_sec == 0 && rem.tv_nsec == 0, "nanosleep");
}

/* uptime() is floor(monotonic / 10 ms) at some instant between two clock reads. */
static void test_uptime(void)
{
	long long t0 = now_ns();
	clock_t up = uptime();
	clock_t tm = times(NULL);
	long long t1 = now_ns();
	long lo = (long)(t0 / NSEC_PER_TICK), hi = (long)(t1 / NSEC_PER_TICK);
	long diff = up < lo ? up - lo : up > hi ? up - hi : 0;

	printf("usertest: uptime ticks=%ld times=%ld mono_ns=%lld diff=%ld\n", up, tm, t0, diff);
	check(diff >= -1 && diff <= 1 && tm >= up && tm - up <= 1, "uptime");
}

/* A call that must fail with errno `want`. */
static void expect_errno(const char *name, long r, int want)
{
	int got = r == -1 ? errno : 0;

	printf("usertest: errno call=%s ret=%ld got=%d want=%d\n", name, r, got, want);
	check(r == -1 && got == want, name);
}

static void test_errors(void)
{
	struct timespec ts = { 0, 0 }, neg_s = { -1, 0 }, neg_ns = { 0, -1 },
			big_ns = { 0, 1000000000 };
	const char *end = (const char *)0x100000 - 4; /* the region's last bytes */

	expect_errno("write_bad_ptr", write(1, (void *)BAD_ADDR, 8), EFAULT);
	expect_errno("write_past_end", write(1, end, 8), EFAULT);
	expect_errno("write_null", write(1, NULL, 1), EFAULT);
	expect_errno("write_bad_fd", write(7, "x", 1), EBADF);
	expect_errno("gettime_bad_clock", clock_gettime(99, &ts), EINVAL);
	expect_errno("gettime_realtime", clock_gettime(0, &ts), EINVAL);
	expect_errno("gettime_bad_ptr", clock_gettime(CLOCK_MONOTONIC, (void *)BAD_ADDR), EFAULT);
	expect_errno("nanosleep_neg_sec", nanosleep(&neg_s, NULL), EINVAL);
	expect_errno("nanosleep_neg_nsec", nanosleep(&neg_ns, NULL), EINVAL);
	expect_errno("nanosleep_big_nsec", nanosleep(&big_ns, NULL), EINVAL);
	expect_errno("nanosleep_bad_req", nanosleep((void *)BAD_ADDR, NULL), EFAULT);
	expect_errno("nanosleep_bad_rem", nanosleep(&ts, (void *)BAD_ADDR), EFAULT);
	expect_errno("times_bad_ptr", times((void *)BAD_ADDR), EFAULT);
	expect_errno("sysconf_bad_name", sysconf(12345), EINVAL);
	expect_errno("unknown_call", syscall(999, 0, 0, 0), ENOSYS);
}

static int run_tests(void)
{
	long tck = sysconf(_SC_CLK_TCK);

	printf("usertest: pid=%d clk_tck=%ld\n", getpid(), tck);
	check(tck == 100, "sysconf(_SC_CLK_TCK)");
	test_busy();
	test_sleep(1);
	test_sleep(10);
	test_sleep(250);
	test_uptime();
	test_errors();
	printf("usertest: done failures=%d\n", failures);
	return failures;
}

/* Faults the kernel must survive: each kills this program. */
static void fault(const char *kind)
{
	printf("init: committing fault %s\n", kind);
	if (!strncmp(kind, "segment", 8))
		__asm__ volatile("mov %0, %%ds" : : "r"(0x10)); /* the kernel's data segment */
	else if (!strncmp(kind, "ud", 3))
		__asm__ volatile("ud2");
	else if (!strncmp(kind, "privileged", 11))
		__asm__ volatile("hlt");
	else if (!strncmp(kind, "div", 4))
		__asm__ volatile("divl %0" : : "r"(0), "a"(1), "d"(0));
}

int main(const char *arg);
int main(const char *arg)
{
	if (!strncmp(arg, "fault=", 6)) {
		fault(arg + 6);
		printf("init: still alive after fault %s\n", arg + 6);
		return 99;
	}
	if (!strncmp(arg, "test", 5))
		return run_tests();
	printf("init: pid %d, USER_HZ %ld, up %ld ticks\n", getpid(), sysconf(_SC_CLK_TCK),
	       uptime());
	return 0;
}
