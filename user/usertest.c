// SPDX-License-Identifier: MIT
/*
 * usertest: what a real program sees of time on dynhz. Built twice, static
 * i386, against musl (which hard-codes sysconf(_SC_CLK_TCK) to 100) and
 * against glibc (which takes it from AT_CLKTCK), and put in the initramfs
 * as /sbin/usertest and /sbin/usertest-glibc.
 *
 *	usertest test		the checks: one "<name>: key=value ..." line per
 *				fact (name is usertest-musl or usertest-glibc), so
 *				that boots at different HZ can be compared; exit
 *				status: the number of checks that failed
 *	usertest busy		1 s of user-mode work, then exit 0 (cputest)
 *	usertest fault=KIND	commit a fault (segment, ud, privileged, div):
 *				the kernel must kill the program
 *
 * Every check compares against a second clock (CLOCK_MONOTONIC, the TSC)
 * or against what Linux documents, never against the value under test.
 * The checks of children (after the others, so their lines come last): a
 * forked child's CPU time in the parent's tms_cutime + tms_cstime, wait4
 * and RUSAGE_CHILDREN; a child killed by SIGTERM; a read a signal ends,
 * with EINTR and, under SA_RESTART, made again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef __GLIBC__
#define NAME "usertest-glibc"
#else
#define NAME "usertest-musl"
#endif

#include "report.h"

/*
 * Linux i386 system-call numbers, for the raw calls whose arguments the C
 * libraries would check or convert first (musl's time64 names differ).
 */
#define NR_times	 43
#define NR_getrusage	 77
#define NR_getitimer	 105
#define NR_sysinfo	 116
#define NR_nanosleep	 162
#define NR_clock_gettime 265

#define NSEC_PER_SEC  1000000000LL
#define NSEC_PER_TICK (NSEC_PER_SEC / 100)   /* one USER_HZ tick */
#define BAD_ADDR      ((void *)0xfffff000UL) /* above the user region */

static void check(int ok, const char *what)
{
	if (!ok) {
		failures++;
		out("FAIL %s", what);
	}
}

static long long clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts))
		return -1;
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static long long now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/* The tick's length as the coarse clock's resolution tells it: how late a jiffies timeout may be. */
static long long tick_ns(void)
{
	struct timespec res;

	if (clock_getres(CLOCK_MONOTONIC_COARSE, &res))
		return NSEC_PER_SEC;
	return res.tv_sec * NSEC_PER_SEC + res.tv_nsec;
}

/* USER_HZ ticks that a wait of real length ns may show in times(): its length, rounded up. */
static long ticks_up(long long ns)
{
	return (long)((ns + NSEC_PER_TICK - 1) / NSEC_PER_TICK);
}

/* User-mode work until the monotonic clock has moved ns; returns how far it moved. */
static long long spin_for(long long ns)
{
	long long t0 = now_ns(), t;
	volatile unsigned int x = 0;

	do
		for (int i = 0; i < 20000; i++)
			x += (unsigned int)i;
	while ((t = now_ns()) - t0 < ns);
	return t - t0;
}

static void test_clk_tck(void)
{
	long tck = sysconf(_SC_CLK_TCK);
	unsigned long aux = getauxval(AT_CLKTCK);

	out("pid=%d clk_tck=%ld at_clktck=%lu", getpid(), tck, aux);
	check(tck == 100, "sysconf(_SC_CLK_TCK)");
	check(aux == 100, "AT_CLKTCK");
}

/* One second in user mode: the CPU time must say 100 ticks. */
static void test_busy(void)
{
	struct tms a, b;
	long long t;

	times(&a);
	t = spin_for(NSEC_PER_SEC);
	times(&b);
	out("busy ns=%lld utime=%ld stime=%ld", t, (long)(b.tms_utime - a.tms_utime),
	    (long)(b.tms_stime - a.tms_stime));
	check(b.tms_utime - a.tms_utime >= 98 && b.tms_utime - a.tms_utime <= 102, "busy utime");
}

static long long tv_ns(struct timeval tv)
{
	return tv.tv_sec * NSEC_PER_SEC + tv.tv_usec * 1000LL;
}

/*
 * 0.6 s of CPU, read four ways at once: clock(), getrusage(),
 * CLOCK_PROCESS_CPUTIME_ID and times(). Nothing else runs, so each must
 * show the monotonic time that passed: the nanosecond clocks to within
 * 1 ms, the microsecond ones likewise, times() to within its tick.
 */
static void test_cpu(void)
{
	struct rusage ra, rb;
	struct tms ta, tb;
	clock_t ca, cb;
	long long pa, pb, th_a, th_b, t;
	long long ru, pc, th, cl, tt;

	getrusage(RUSAGE_SELF, &ra);
	times(&ta);
	ca = clock();
	pa = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	th_a = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	t = spin_for(600 * 1000000LL);
	th_b = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	pb = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	cb = clock();
	times(&tb);
	getrusage(RUSAGE_SELF, &rb);
	ru = tv_ns(rb.ru_utime) + tv_ns(rb.ru_stime) - tv_ns(ra.ru_utime) - tv_ns(ra.ru_stime);
	pc = pb - pa;
	th = th_b - th_a;
	cl = (long long)(cb - ca) * (NSEC_PER_SEC / CLOCKS_PER_SEC);
	tt = (long long)(tb.tms_utime + tb.tms_stime - ta.tms_utime - ta.tms_stime);
	out("cpu mono_ms=%lld clock_ms=%lld rusage_ms=%lld process_ms=%lld thread_ms=%lld "
	    "times_ticks=%lld",
	    (t + 500000) / 1000000, (cl + 500000) / 1000000, (ru + 500000) / 1000000,
	    (pc + 500000) / 1000000, (th + 500000) / 1000000, tt);
	check(llabs(cl - t) <= 1000000, "clock() over 0.6 s of CPU");
	check(llabs(ru - t) <= 1000000, "getrusage over 0.6 s of CPU");
	check(llabs(pc - t) <= 1000000, "CLOCK_PROCESS_CPUTIME_ID over 0.6 s of CPU");
	check(llabs(th - t) <= 1000000, "CLOCK_THREAD_CPUTIME_ID over 0.6 s of CPU");
	check(tt >= 59 && tt <= 61, "times() utime+stime over 0.6 s of CPU");
}

/* nanosleep never ends early, and leaves nothing remaining when it is not interrupted. */
static void test_sleep(long ms)
{
	struct timespec req = { ms / 1000, ms % 1000 * 1000000L }, rem = { 1, 1 };
	long long t0 = now_ns(), t;
	int r = nanosleep(&req, &rem);

	t = now_ns() - t0;
	out("sleep ms=%ld ns=%lld early=%d ret=%d", ms, t, t < ms * 1000000LL, r);
	check(r == 0 && t >= ms * 1000000LL, "nanosleep never early");
}

/* times() across a 1 s sleep: 100 ticks, or a few more where a jiffy is long. */
static void test_times_sleep(void)
{
	struct tms tm;
	long long t0, t;
	clock_t c0, c1;

	c0 = times(&tm);
	t0 = now_ns();
	sleep(1);
	t = now_ns() - t0;
	c1 = times(&tm);
	out("times_sleep ticks=%ld ns=%lld", (long)(c1 - c0), t);
	check(t >= NSEC_PER_SEC && c1 - c0 >= 100 && c1 - c0 <= ticks_up(t) + 1,
	      "times() across sleep(1)");
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* times() across alarm(1): the signal after at least a second. */
static void test_times_alarm(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct tms tm;
	long long t0, t;
	clock_t c0, c1;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	c0 = times(&tm);
	t0 = now_ns();
	alarm(1);
	while (!alarms)
		pause();
	t = now_ns() - t0;
	c1 = times(&tm);
	out("times_alarm ticks=%ld ns=%lld alarms=%d", (long)(c1 - c0), t, (int)alarms);
	check(alarms == 1 && t >= NSEC_PER_SEC && c1 - c0 >= 100 && c1 - c0 <= ticks_up(t) + 1 &&
		      t <= NSEC_PER_SEC + 2 * tick_ns() + NSEC_PER_TICK,
	      "times() across alarm(1)");
}

/* /proc/uptime as centiseconds; -1 if unreadable. */
static long proc_uptime_cs(void)
{
	FILE *f = fopen("/proc/uptime", "r");
	long s = -1, cs = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld.%2ld", &s, &cs) != 2)
		s = -1;
	fclose(f);
	return s < 0 ? -1 : s * 100 + cs;
}

/*
 * Uptime three ways, each at an instant between two monotonic reads:
 * /proc/uptime in centiseconds (floor), sysinfo().uptime in seconds
 * (Linux rounds the boot time up) and times() (ticks since boot here).
 */
static void test_uptime(void)
{
	struct sysinfo si;
	long long t0 = clock_ns(CLOCK_BOOTTIME);
	long up = proc_uptime_cs();
	clock_t tm = times(NULL);
	int r = sysinfo(&si);
	long long t1 = clock_ns(CLOCK_BOOTTIME);
	long lo = (long)(t0 / NSEC_PER_TICK), hi = (long)(t1 / NSEC_PER_TICK);
	long diff = up < lo ? up - lo : up > hi ? up - hi : 0;
	long slo = (long)(t0 / NSEC_PER_SEC), shi = (long)((t1 + NSEC_PER_SEC - 1) / NSEC_PER_SEC);

	out("uptime ticks=%ld times=%ld boot_ns=%lld diff=%ld sysinfo=%ld procs=%d", up, (long)tm,
	    t0, diff, (long)si.uptime, si.procs);
	check(up >= 0 && diff >= -1 && diff <= 1, "/proc/uptime against CLOCK_BOOTTIME");
	check(tm >= lo - 1 && tm <= hi + 1, "times() against CLOCK_BOOTTIME");
	check(r == 0 && (long)si.uptime >= slo && (long)si.uptime <= shi, "sysinfo().uptime");
	check(r == 0 && si.procs >= 1 && si.totalram > 0 && si.mem_unit > 0 &&
		      si.freeram <= si.totalram,
	      "sysinfo() memory and processes");
}

/* A call that must fail with errno want (the libc wrapper returns -1 and sets errno). */
static void expect_errno(const char *name, long r, int want)
{
	int got = r == -1 ? errno : 0;

	out("errno call=%s ret=%ld got=%d want=%d", name, r, got, want);
	check(r == -1 && got == want, name);
}

/* A page followed by an unmapped one: an object at its last bytes straddles the edge. */
static char *page_before_hole(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 2 * (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	munmap(p + pg, (size_t)pg);
	return p + pg;
}

static void test_errors(void)
{
	struct timespec ts = { 0, 0 }, neg_s = { -1, 0 }, neg_ns = { 0, -1 },
			big_ns = { 0, 1000000000 };
	char *hole = page_before_hole();
	void *edge = hole ? hole - 4 : BAD_ADDR; /* a timespec half in the hole */
	void *volatile null = NULL;		 /* hidden from the compiler's checks */

	expect_errno("write_bad_ptr", write(1, BAD_ADDR, 8), EFAULT);
	expect_errno("write_null", write(1, null, 1), EFAULT);
	expect_errno("write_bad_fd", write(77, "x", 1), EBADF);
	expect_errno("gettime_bad_clock", clock_gettime(99, &ts), EINVAL);
	expect_errno("gettime_bad_ptr", syscall(NR_clock_gettime, CLOCK_MONOTONIC, BAD_ADDR),
		     EFAULT);
	expect_errno("gettime_straddle", syscall(NR_clock_gettime, CLOCK_MONOTONIC, edge), EFAULT);
	expect_errno("getres_bad_clock", clock_getres(-100, &ts), EINVAL);
	expect_errno("nanosleep_neg_sec", nanosleep(&neg_s, NULL), EINVAL);
	expect_errno("nanosleep_neg_nsec", nanosleep(&neg_ns, NULL), EINVAL);
	expect_errno("nanosleep_big_nsec", nanosleep(&big_ns, NULL), EINVAL);
	expect_errno("nanosleep_bad_req", syscall(NR_nanosleep, BAD_ADDR, NULL), EFAULT);
	expect_errno("times_bad_ptr", syscall(NR_times, BAD_ADDR), EFAULT);
	expect_errno("sysinfo_bad_ptr", syscall(NR_sysinfo, BAD_ADDR), EFAULT);
	expect_errno("getrusage_bad_who", syscall(NR_getrusage, 5, &(struct rusage){ 0 }), EINVAL);
	expect_errno("getitimer_bad_which", syscall(NR_getitimer, 7, BAD_ADDR), EINVAL);
	expect_errno("sysconf_bad_name", sysconf(12345), EINVAL);
	expect_errno("unknown_call", syscall(999, 0, 0, 0), ENOSYS);
}

/* --- children: fork, wait, their CPU time, signals that end waits --- */

/*
 * A child spins 0.3 s of CPU and exits 7, telling the parent through a
 * pipe how long its spin took on the monotonic clock: nothing else runs,
 * so that is its CPU time. The parent's tms_cutime + tms_cstime grows by
 * it within a tick and its rounding; wait4's rusage and
 * getrusage(RUSAGE_CHILDREN) by it within 2 ms (the child's fork return
 * and exit are its own CPU time too).
 */
static void test_child_times(void)
{
	struct rusage wru, ca, cb;
	struct tms ta, tb;
	long long spun = -1, ru, ch;
	int fds[2], st = 0;
	pid_t pid, got;
	long ticks;

	if (pipe(fds)) {
		check(0, "pipe for the child");
		return;
	}
	getrusage(RUSAGE_CHILDREN, &ca);
	times(&ta);
	pid = fork();
	if (pid == 0) {
		long long t = spin_for(300 * 1000000LL);

		write(fds[1], &t, sizeof(t));
		_exit(7);
	}
	close(fds[1]);
	if (read(fds[0], &spun, sizeof(spun)) != sizeof(spun))
		spun = -1;
	close(fds[0]);
	got = wait4(pid, &st, 0, &wru);
	times(&tb);
	getrusage(RUSAGE_CHILDREN, &cb);
	ticks = (long)(tb.tms_cutime + tb.tms_cstime - ta.tms_cutime - ta.tms_cstime);
	ru = tv_ns(wru.ru_utime) + tv_ns(wru.ru_stime);
	ch = tv_ns(cb.ru_utime) + tv_ns(cb.ru_stime) - tv_ns(ca.ru_utime) - tv_ns(ca.ru_stime);
	out("child_times spin_ns=%lld cticks=%ld wait4_ms=%lld children_ms=%lld status=0x%x", spun,
	    ticks, (ru + 500000) / 1000000, (ch + 500000) / 1000000, st);
	check(got == pid && WIFEXITED(st) && WEXITSTATUS(st) == 7, "wait4: the child's exit 7");
	check(spun >= 300 * 1000000LL && ticks >= spun / NSEC_PER_TICK - 1 &&
		      ticks <= ticks_up(spun) + 1,
	      "times(): the child's CPU time in tms_cutime + tms_cstime");
	check(ru >= spun - 1000000 && ru <= spun + 2000000, "wait4's rusage: the child's CPU time");
	check(ch == ru, "getrusage(RUSAGE_CHILDREN): what wait4 reported");
}

/* A child killed by a signal: wait reports it, and nothing of the child is left to reap. */
static void test_child_killed(void)
{
	int st = 0;
	pid_t pid = fork(), got;

	if (pid == 0) {
		pause();
		_exit(0);
	}
	kill(pid, SIGTERM);
	got = waitpid(pid, &st, 0);
	out("child_killed status=0x%x signaled=%d sig=%d", st, WIFSIGNALED(st), WTERMSIG(st));
	check(got == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM && !WCOREDUMP(st),
	      "waitpid: a child killed by SIGTERM");
	check(waitpid(-1, &st, WNOHANG) == -1 && errno == ECHILD, "no child left to reap");
}

static volatile sig_atomic_t interrupts;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupts++;
}

/* A 30 ms one-shot SIGALRM with a handler of flags, and a read of a pipe that waits. */
static long read_interrupted(int flags, int fd, char *c)
{
	struct sigaction sa = { .sa_handler = on_interrupt, .sa_flags = flags };
	struct itimerval it = { { 0, 0 }, { 0, 30000 } };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	interrupts = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	return read(fd, c, 1);
}

/*
 * A read of an empty pipe ended by a signal: with a handler without
 * SA_RESTART it fails with EINTR; with SA_RESTART it is made again and
 * gets the byte a child writes later (100 ms), as Linux's.
 */
static void test_restart(void)
{
	int fds[2], st;
	long r1, r2;
	int e1;
	char c = 0;
	pid_t pid;

	if (pipe(fds)) {
		check(0, "pipe for the restart test");
		return;
	}
	r1 = read_interrupted(0, fds[0], &c);
	e1 = errno;
	check(r1 == -1 && e1 == EINTR && interrupts == 1, "read ended by a signal: EINTR");
	pid = fork();
	if (pid == 0) {
		struct timespec ts = { 0, 100 * 1000000L };

		nanosleep(&ts, NULL);
		write(fds[1], "x", 1);
		_exit(0);
	}
	r2 = read_interrupted(SA_RESTART, fds[0], &c);
	out("restart eintr_ret=%ld errno=%d restarted_ret=%ld byte=%c interrupts=%d", r1, e1, r2,
	    c ? c : '-', (int)interrupts);
	check(r2 == 1 && c == 'x' && interrupts == 1, "read under SA_RESTART: made again");
	waitpid(pid, &st, 0);
	signal(SIGALRM, SIG_DFL);
	close(fds[0]);
	close(fds[1]);
}

static int run_tests(void)
{
	test_clk_tck();
	test_busy();
	test_cpu();
	test_sleep(1);
	test_sleep(10);
	test_sleep(250);
	test_times_sleep();
	test_times_alarm();
	test_uptime();
	test_errors();
	test_child_times();
	test_child_killed();
	test_restart();
	out("done failures=%d", failures);
	return failures;
}

/* Faults the kernel must survive: each kills this program. */
static void fault(const char *kind)
{
	out("committing fault %s", kind);
	if (!strcmp(kind, "segment"))
		__asm__ volatile("mov %0, %%ds" : : "r"(0x10)); /* the kernel's data segment */
	else if (!strcmp(kind, "ud"))
		__asm__ volatile("ud2");
	else if (!strcmp(kind, "privileged"))
		__asm__ volatile("hlt");
	else if (!strcmp(kind, "div"))
		__asm__ volatile("divl %0" : : "r"(0), "a"(1), "d"(0));
}

int main(int argc, char **argv)
{
	const char *arg = argc > 1 ? argv[1] : "";

	if (!strncmp(arg, "fault=", 6)) {
		fault(arg + 6);
		out("still alive after fault %s", arg + 6);
		return 99;
	}
	if (!strcmp(arg, "test"))
		return run_tests();
	if (!strcmp(arg, "busy")) {
		spin_for(NSEC_PER_SEC);
		return 0;
	}
	fprintf(stderr, "usage: %s test | busy | fault=segment|ud|privileged|div\n", argv[0]);
	return 2;
}
