// SPDX-License-Identifier: MIT
/*
 * clocktest: the clocks and sleeps of issue 12 as a program sees them,
 * booted as init (tests/clocks/check.sh). Built with musl and with glibc.
 *
 *	clocktest sem	the semantics: one "clocktest: ok|FAIL name ..." line
 *			per check, "clocktest: getres id=N ns=R" for the script
 *			to compare with the boot's tick, then "clocktest: done
 *			failures=N"; exit status N
 *	clocktest lat	the lateness of relative clock_nanosleep(CLOCK_MONOTONIC)
 *			of 1 us, 100 us, 1 ms, 10 ms and 1 s: one line each with
 *			min/median/max beyond the request by CLOCK_MONOTONIC and
 *			by the TSC (rdtsc here, calibrated against the clock over
 *			the whole run); the script judges them
 *
 * Every check has its expectation from outside the call under test:
 * another clock (CLOCK_MONOTONIC across a settime, the TSC), a time
 * measured around the call, or Linux's documented answer (its man pages
 * and kernel/time/ntp.c's values after a boot without NTP).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#define NAME "clocktest"
#include "report.h"

#define NR_stime	   25
#define NR_settimeofday	   79
#define NR_adjtimex	   124
#define NR_newselect	   142
#define NR_nanosleep	   162
#define NR_clock_settime   264
#define NR_clock_gettime   265
#define NR_clock_getres	   266
#define NR_clock_nanosleep 267
#define NR_pselect6	   308
#define NR_ppoll	   309
#define NR_clock_adjtime   343
#define NR_clock_gettime64 403
#define NR_clock_settime64 404
#define NR_clock_adjtime64 405
#define NR_pselect6_time64 413

#define NS	   1000000000LL
#define BAD_ADDR   ((void *)0xfffff000UL)
#define SLACK_NS   50000LL /* Linux's default timer slack */
#define TIME_ERROR 5

/* Linux's encoded CPU clocks: ~pid << 3, 4 for a thread, 2 the scheduler's clock. */
#define PROCESS_CLOCK(pid) ((clockid_t)((~(unsigned)(pid) << 3) | 2))
#define THREAD_CLOCK(pid)  ((clockid_t)((~(unsigned)(pid) << 3) | 6))

/* Linux's struct old_timex32 (124, 343) and struct __kernel_timex (405), as the kernel reads them. */
struct timex32 {
	uint32_t modes;
	int32_t offset, freq, maxerror, esterror, status, constant, precision, tolerance;
	int32_t sec, usec;
	int32_t tick, ppsfreq, jitter, shift, stabil, jitcnt, calcnt, errcnt, stbcnt, tai;
	int32_t pad[11];
};

struct timex64 {
	uint32_t modes;
	int32_t pad0;
	int64_t offset, freq, maxerror, esterror;
	int32_t status, pad1;
	int64_t constant, precision, tolerance, sec, usec, tick, ppsfreq, jitter;
	int32_t shift, pad2;
	int64_t stabil, jitcnt, calcnt, errcnt, stbcnt;
	int32_t tai;
	int32_t pad[11];
} __attribute__((packed, aligned(4)));

struct ts32 {
	int32_t sec, nsec;
};

/* The kernel's timeval (musl's struct timeval has a 64-bit tv_sec). */
struct tv32 {
	int32_t sec, usec;
};

struct ts64 {
	int64_t sec, nsec;
} __attribute__((packed, aligned(4)));

/* A raw call's errno: 0 on success. */
static long err_of(long ret)
{
	return ret == -1 ? errno : 0;
}

static void expect_errno(const char *name, long ret, int want)
{
	int got = (int)err_of(ret);

	result(got == want, name, "errno=%d want=%d", got, want);
}

static long long clk(clockid_t id)
{
	struct ts32 t;

	if (syscall(NR_clock_gettime, id, &t))
		return -1;
	return t.sec * NS + t.nsec;
}

static long long mono(void)
{
	return clk(CLOCK_MONOTONIC);
}

static inline unsigned long long rdtsc(void)
{
	unsigned int lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (unsigned long long)hi << 32 | lo;
}

/* ---- the clocks ---- */

static void test_clock_ids(void)
{
	static const int good[] = { 0, 1, 2, 3, 4, 5, 6, 7, 11 };
	static const int bad[] = { 8, 9, 10, 12, 16, -5 /* a file's clock */ };
	struct ts32 t;
	char name[40];

	for (unsigned i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(name, sizeof(name), "gettime_id%d", good[i]);
		expect_errno(name, syscall(NR_clock_gettime, good[i], &t), 0);
	}
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(name, sizeof(name), "gettime_id%d", bad[i]);
		expect_errno(name, syscall(NR_clock_gettime, bad[i], &t), EINVAL);
		snprintf(name, sizeof(name), "getres_id%d", bad[i]);
		expect_errno(name, syscall(NR_clock_getres, bad[i], &t), EINVAL);
	}
	expect_errno("gettime_self_thread_-2", syscall(NR_clock_gettime, -2, &t), 0);
	expect_errno("gettime_self_process_-6", syscall(NR_clock_gettime, -6, &t), 0);
	expect_errno("gettime_own_pid_clock",
		     syscall(NR_clock_gettime, PROCESS_CLOCK(getpid()), &t), 0);
	expect_errno("gettime_no_such_pid", syscall(NR_clock_gettime, PROCESS_CLOCK(9999), &t),
		     EINVAL);
	expect_errno("gettime_bad_ptr", syscall(NR_clock_gettime, 0, BAD_ADDR), EFAULT);
	expect_errno("gettime64_bad_ptr", syscall(NR_clock_gettime64, 11, BAD_ADDR), EFAULT);
	expect_errno("getres_null", syscall(NR_clock_getres, 11, NULL), 0);
}

/* Another process's CPU clocks: its process clock readable and growing, its thread clock not ours. */
static void test_other_cpu_clock(void)
{
	struct ts32 t;
	long long a, b;
	pid_t pid = fork();

	if (pid == 0) {
		for (;;)
			__asm__ volatile("" ::: "memory");
	}
	usleep(50000);
	a = clk(PROCESS_CLOCK(pid));
	usleep(50000);
	b = clk(PROCESS_CLOCK(pid));
	result(a >= 0 && b > a, "cpu_clock_of_child", "first=%lld second=%lld", a, b);
	expect_errno("thread_clock_of_child", syscall(NR_clock_gettime, THREAD_CLOCK(pid), &t),
		     EINVAL);
	/* Sleep on the child's CPU clock: it ends when the child has run 30 ms more. */
	a = clk(PROCESS_CLOCK(pid));
	struct ts32 req = { 0, 30000000 };
	long r = syscall(NR_clock_nanosleep, PROCESS_CLOCK(pid), 0, &req, NULL);
	b = clk(PROCESS_CLOCK(pid));
	result(r == 0 && b - a >= 30000000, "sleep_on_child_cpu_clock", "ret=%ld ran=%lld", r,
	       b - a);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	expect_errno("cpu_clock_of_reaped", syscall(NR_clock_gettime, PROCESS_CLOCK(pid), &t),
		     EINVAL);
}

static void print_getres(void)
{
	static const int ids[] = { 0, 1, 2, 3, 4, 5, 6, 7, 11 };
	struct ts32 r;

	for (unsigned i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		if (syscall(NR_clock_getres, ids[i], &r))
			out("getres id=%d errno=%d", ids[i], errno);
		else
			out("getres id=%d ns=%lld", ids[i], r.sec * NS + r.nsec);
	}
}

/* clock_settime and friends, each against CLOCK_MONOTONIC's time across the set. */
static void test_settime(void)
{
	struct ts32 t = { 2000000000, 250000000 }; /* 2033-05-18 */
	struct ts64 t64;
	struct timeval tv;
	long long m0, m1, r, rt, tai;

	m0 = mono();
	expect_errno("settime_realtime", syscall(NR_clock_settime, CLOCK_REALTIME, &t), 0);
	r = clk(CLOCK_REALTIME);
	m1 = mono();
	result(r >= t.sec * NS + t.nsec && r <= t.sec * NS + t.nsec + (m1 - m0),
	       "settime_then_gettime", "realtime=%lld set=%lld within=%lld", r, t.sec * NS + t.nsec,
	       m1 - m0);
	tai = clk(CLOCK_TAI);
	rt = clk(CLOCK_REALTIME);
	result(tai <= rt && rt - tai < 1000000, "tai_is_realtime_at_boot", "tai=%lld realtime=%lld",
	       tai, rt);
	t64 = (struct ts64){ 2100000000, 5 };
	m0 = mono();
	expect_errno("settime64", syscall(NR_clock_settime64, CLOCK_REALTIME, &t64), 0);
	r = clk(CLOCK_REALTIME);
	m1 = mono();
	result(r >= 2100000000 * NS + 5 && r <= 2100000000 * NS + 5 + (m1 - m0),
	       "settime64_then_gettime", "realtime=%lld", r);
	long now_s = (long)time(NULL);
	r = clk(CLOCK_REALTIME) / NS;
	result(now_s == r || now_s == r - 1, "time_follows", "time=%ld realtime_s=%lld", now_s, r);
	m0 = mono();
	expect_errno("settimeofday",
		     syscall(NR_settimeofday, &(struct tv32){ 1900000000, 999999 }, NULL), 0);
	r = clk(CLOCK_REALTIME);
	m1 = mono();
	result(r >= 1900000000999999000LL && r <= 1900000000999999000LL + (m1 - m0),
	       "settimeofday_then_gettime", "realtime=%lld", r);
	int32_t when = 1800000000;
	m0 = mono();
	expect_errno("stime", syscall(NR_stime, &when), 0);
	gettimeofday(&tv, NULL);
	m1 = mono();
	result(tv.tv_sec == 1800000000 && tv.tv_usec * 1000LL <= m1 - m0, "stime_then_gettimeofday",
	       "sec=%ld usec=%ld", (long)tv.tv_sec, (long)tv.tv_usec);

	struct ts32 neg = { -1, 0 }, big = { 5, 1000000000 }, zero = { 0, 0 };
	expect_errno("settime_monotonic", syscall(NR_clock_settime, CLOCK_MONOTONIC, &t), EINVAL);
	expect_errno("settime_tai", syscall(NR_clock_settime, CLOCK_TAI, &t), EINVAL);
	expect_errno("settime_process_cputime", syscall(NR_clock_settime, 2, &t), EINVAL);
	expect_errno("settime_cpu_clock_-6", syscall(NR_clock_settime, -6, &t), EPERM);
	expect_errno("settime_negative", syscall(NR_clock_settime, CLOCK_REALTIME, &neg), EINVAL);
	expect_errno("settime_nsec_1e9", syscall(NR_clock_settime, CLOCK_REALTIME, &big), EINVAL);
	expect_errno("settime_before_boot", syscall(NR_clock_settime, CLOCK_REALTIME, &zero),
		     EINVAL);
	expect_errno("settime_bad_ptr", syscall(NR_clock_settime, CLOCK_REALTIME, BAD_ADDR),
		     EFAULT);
	expect_errno("settime_bad_clock_before_ptr", syscall(NR_clock_settime, 1, BAD_ADDR),
		     EINVAL);
	expect_errno("settimeofday_usec",
		     syscall(NR_settimeofday, &(struct tv32){ 1800000000, 1000001 }, NULL), EINVAL);
	expect_errno("settimeofday_neg_usec",
		     syscall(NR_settimeofday, &(struct tv32){ 1800000000, -1 }, NULL), EINVAL);

	int32_t tz[2] = { -90, 1 }, tzo[2] = { 0, 0 }, badtz[2] = { 15 * 60 + 1, 0 };
	expect_errno("settimeofday_tz_only", syscall(NR_settimeofday, NULL, tz), 0);
	syscall(78, NULL, tzo);
	result(tzo[0] == -90 && tzo[1] == 1, "gettimeofday_tz", "minuteswest=%d dsttime=%d", tzo[0],
	       tzo[1]);
	expect_errno("settimeofday_tz_15h", syscall(NR_settimeofday, NULL, badtz), EINVAL);
	expect_errno("settimeofday_bad_tz", syscall(NR_settimeofday, NULL, BAD_ADDR), EFAULT);
}

/* ---- adjtimex ---- */

static void test_adjtimex(void)
{
	struct timex32 x = { 0 };
	struct timex64 y = { 0 };
	long long rt0, rt1, m0, m1;
	long r;

	r = syscall(NR_adjtimex, &x);
	result(r == TIME_ERROR && (x.status & 0x40) && x.tick == 10000 && x.freq == 0 &&
		       x.maxerror == 16000000 && x.esterror == 16000000 && x.constant == 2 &&
		       x.precision == 1 && x.tolerance == 32768000 && x.tai == 0,
	       "adjtimex_read_after_boot",
	       "ret=%ld status=%#x tick=%d freq=%d maxerror=%d esterror=%d constant=%d tol=%d", r,
	       x.status, x.tick, x.freq, x.maxerror, x.esterror, x.constant, x.tolerance);
	result(x.sec >= 1800000000 && x.usec >= 0 && x.usec < 1000000, "adjtimex_time",
	       "sec=%d usec=%d", x.sec, x.usec);
	r = syscall(NR_clock_adjtime64, CLOCK_REALTIME, &y);
	result(r == TIME_ERROR && y.tick == 10000 && y.tolerance == 32768000 && y.constant == 2,
	       "clock_adjtime64_read", "ret=%ld tick=%lld tol=%lld", r, (long long)y.tick,
	       (long long)y.tolerance);

	/* ADJ_TAI: CLOCK_TAI = CLOCK_REALTIME + 37 s from then on. */
	x = (struct timex32){ .modes = 0x80, .constant = 37 };
	r = syscall(NR_clock_adjtime, CLOCK_REALTIME, &x);
	rt0 = clk(CLOCK_REALTIME);
	long long tai = clk(CLOCK_TAI);
	rt1 = clk(CLOCK_REALTIME);
	result(r >= 0 && x.tai == 37 && tai >= rt0 + 37 * NS && tai <= rt1 + 37 * NS, "adj_tai",
	       "ret=%ld tai=%d diff=%lld", r, x.tai, tai - rt0);
	x = (struct timex32){ .modes = 0x80, .constant = -1 };
	r = syscall(NR_adjtimex, &x);
	result(r >= 0 && x.tai == 37, "adj_tai_negative_ignored", "tai=%d", x.tai);

	/* ADJ_FREQUENCY: +10 ppm read back; +1000 ppm clamped to 500. */
	y = (struct timex64){ .modes = 0x2, .freq = 10 << 16 };
	syscall(NR_clock_adjtime64, CLOCK_REALTIME, &y);
	x = (struct timex32){ 0 };
	syscall(NR_adjtimex, &x);
	result(x.freq == 10 << 16, "adj_frequency_readback", "freq=%d", x.freq);
	x = (struct timex32){ .modes = 0x2, .freq = 1000 << 16 };
	syscall(NR_adjtimex, &x);
	result(x.freq == 500 << 16, "adj_frequency_clamped", "freq=%d", x.freq);
	x = (struct timex32){ .modes = 0x2, .freq = 0 };
	syscall(NR_adjtimex, &x);

	/* ADJ_MAXERROR, ADJ_ESTERROR, ADJ_TIMECONST (+4 in microseconds mode). */
	x = (struct timex32){
		.modes = 0x4 | 0x8 | 0x20, .maxerror = 1000, .esterror = 20, .constant = 3
	};
	syscall(NR_adjtimex, &x);
	result(x.maxerror >= 1000 && x.maxerror <= 1500 && x.esterror == 20 && x.constant == 7,
	       "adj_maxerror_esterror_timeconst", "maxerror=%d esterror=%d constant=%d", x.maxerror,
	       x.esterror, x.constant);

	/* ADJ_STATUS with STA_PLL, then ADJ_OFFSET; clearing STA_PLL: unsynchronized again. */
	x = (struct timex32){ .modes = 0x10, .status = 0x1 };
	r = syscall(NR_adjtimex, &x);
	result(r == 0 && x.status == 0x1, "adj_status_pll_synced", "ret=%ld status=%#x", r,
	       x.status);
	x = (struct timex32){ .modes = 0x1, .offset = 1000 };
	syscall(NR_adjtimex, &x);
	result(x.offset == 1000, "adj_offset_readback", "offset=%d", x.offset);
	x = (struct timex32){ .modes = 0x10, .status = 0 };
	r = syscall(NR_adjtimex, &x);
	/* As Linux: the state is reset to STA_UNSYNC, then replaced by the writable bits given. */
	result(r == 0 && x.status == 0 && x.offset == 1000, "adj_status_pll_off",
	       "ret=%ld status=%#x offset=%d", r, x.status, x.offset);

	/* adjtime(): the singleshot offset, read back by ADJ_OFFSET_SS_READ. */
	x = (struct timex32){ .modes = 0x8001, .offset = 123 };
	syscall(NR_adjtimex, &x);
	result(x.offset == 0, "adjtime_singleshot_old", "offset=%d", x.offset);
	x = (struct timex32){ .modes = 0xa001 };
	syscall(NR_adjtimex, &x);
	result(x.offset == 123, "adjtime_ss_read", "offset=%d", x.offset);

	/* ADJ_SETOFFSET: realtime steps by 5.5 s (against the monotonic clock). */
	m0 = mono();
	rt0 = clk(CLOCK_REALTIME);
	x = (struct timex32){ .modes = 0x100, .sec = 5, .usec = 500000 };
	r = syscall(NR_adjtimex, &x);
	rt1 = clk(CLOCK_REALTIME);
	m1 = mono();
	result(r >= 0 && rt1 - rt0 >= 5500000000LL && rt1 - rt0 <= 5500000000LL + (m1 - m0),
	       "adj_setoffset", "ret=%ld step=%lld", r, rt1 - rt0);
	x = (struct timex32){ .modes = 0x100 | 0x2000, .sec = -1, .usec = 0 };
	rt0 = clk(CLOCK_REALTIME);
	r = syscall(NR_adjtimex, &x);
	rt1 = clk(CLOCK_REALTIME);
	result(r >= 0 && rt0 - rt1 >= 0 && rt0 - rt1 <= NS, "adj_setoffset_nano_back",
	       "ret=%ld step=%lld", r, rt1 - rt0);

	x = (struct timex32){ .modes = 0x4000, .tick = 5000 };
	expect_errno("adj_tick_out_of_range", syscall(NR_adjtimex, &x), EINVAL);
	/*
	 * ADJ_ADJTIME alone is adjtime() too: Linux's check for it can never
	 * fail. The old offset is 0: ADJ_SETOFFSET above cleared adjtime()'s
	 * 123 (Linux's ntp_clear() on every clock set).
	 */
	x = (struct timex32){ .modes = 0x8000, .offset = 9 };
	r = syscall(NR_adjtimex, &x);
	result(r >= 0 && x.offset == 0, "adj_adjtime_bit_alone", "ret=%ld old=%d", r, x.offset);
	x = (struct timex32){ .modes = 0x100, .usec = -1 };
	expect_errno("adj_setoffset_neg_usec", syscall(NR_adjtimex, &x), EINVAL);
	x = (struct timex32){ .modes = 0x100, .usec = 1000000 };
	expect_errno("adj_setoffset_usec_1e6", syscall(NR_adjtimex, &x), EINVAL);
	x = (struct timex32){ .modes = 0x100, .sec = -2000000000 };
	expect_errno("adj_setoffset_before_boot", syscall(NR_adjtimex, &x), EINVAL);
	x = (struct timex32){ 0 };
	expect_errno("clock_adjtime_monotonic", syscall(NR_clock_adjtime, CLOCK_MONOTONIC, &x),
		     EOPNOTSUPP);
	expect_errno("clock_adjtime_id10", syscall(NR_clock_adjtime, 10, &x), EINVAL);
	expect_errno("adjtimex_bad_ptr", syscall(NR_adjtimex, BAD_ADDR), EFAULT);
	expect_errno("clock_adjtime64_bad_ptr", syscall(NR_clock_adjtime64, 0, BAD_ADDR), EFAULT);
}

/* ---- sleeps ---- */

static volatile int alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static void arm(long usec)
{
	struct itimerval it = { { 0, 0 }, { usec / 1000000, usec % 1000000 } };

	setitimer(ITIMER_REAL, &it, NULL);
}

/* A sleep a signal ends: EINTR and the time left, which is the request less what passed. */
static void test_eintr(void)
{
	struct sigaction sa = { 0 };
	struct ts32 req = { 1, 0 }, rem = { -1, -1 };
	long long m0, m1, left;
	long r;

	sa.sa_handler = on_alarm; /* no SA_RESTART */
	sigaction(SIGALRM, &sa, NULL);
	arm(100000);
	m0 = mono();
	r = syscall(NR_nanosleep, &req, &rem);
	m1 = mono();
	left = rem.sec * NS + rem.nsec;
	result(err_of(r) == EINTR && left <= NS - (m1 - m0) + SLACK_NS + 1000000 &&
		       left >= NS - (m1 - m0) - 1000000,
	       "nanosleep_eintr_remaining", "errno=%ld slept=%lld left=%lld", err_of(r), m1 - m0,
	       left);
	arm(100000);
	m0 = mono();
	r = syscall(NR_clock_nanosleep, CLOCK_TAI, 0, &req, &rem);
	m1 = mono();
	left = rem.sec * NS + rem.nsec;
	result(err_of(r) == EINTR && left <= NS - (m1 - m0) + SLACK_NS + 1000000 &&
		       left >= NS - (m1 - m0) - 1000000,
	       "clock_nanosleep_tai_eintr_remaining", "slept=%lld left=%lld", m1 - m0, left);
	/* As Linux: sleeps and waits are not made again under SA_RESTART (they end with EINTR). */
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	arm(20000);
	r = syscall(NR_nanosleep, &req, NULL);
	expect_errno("nanosleep_sa_restart_eintr", r, EINTR);
	arm(20000);
	r = poll(NULL, 0, 1000);
	expect_errno("poll_sa_restart_eintr", r, EINTR);
	arm(20000);
	r = syscall(NR_newselect, 0, NULL, NULL, NULL, NULL);
	expect_errno("select_sa_restart_eintr", r, EINTR);
	sa.sa_flags = 0;
	sigaction(SIGALRM, &sa, NULL);
	struct ts32 abs = { (int32_t)(clk(CLOCK_MONOTONIC) / NS + 5), 0 }, untouched = { 7, 7 };
	arm(50000);
	r = syscall(NR_clock_nanosleep, CLOCK_MONOTONIC, 1, &abs, &untouched);
	result(err_of(r) == EINTR && untouched.sec == 7 && untouched.nsec == 7,
	       "abs_sleep_eintr_no_remaining", "errno=%ld", err_of(r));
}

static void test_sleep_errors(void)
{
	struct ts32 ms = { 0, 1000000 }, big = { 0, 1000000000 };
	long long t0, t1;

	expect_errno("sleep_raw", syscall(NR_clock_nanosleep, CLOCK_MONOTONIC_RAW, 0, &ms, NULL),
		     EOPNOTSUPP);
	expect_errno("sleep_coarse",
		     syscall(NR_clock_nanosleep, CLOCK_REALTIME_COARSE, 0, &ms, NULL), EOPNOTSUPP);
	expect_errno("sleep_thread_cputime", syscall(NR_clock_nanosleep, 3, 0, BAD_ADDR, NULL),
		     EOPNOTSUPP);
	expect_errno("sleep_own_thread_-2", syscall(NR_clock_nanosleep, -2, 0, &ms, NULL), EINVAL);
	expect_errno("sleep_alarm", syscall(NR_clock_nanosleep, 8, 0, &ms, NULL), EOPNOTSUPP);
	expect_errno("sleep_id10", syscall(NR_clock_nanosleep, 10, 0, &ms, NULL), EINVAL);
	expect_errno("sleep_bad_req", syscall(NR_clock_nanosleep, 0, 0, BAD_ADDR, NULL), EFAULT);
	expect_errno("sleep_nsec_1e9", syscall(NR_clock_nanosleep, 0, 0, &big, NULL), EINVAL);
	/* Clocks Linux sleeps on: not early by that clock. */
	static const int ids[] = { CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_BOOTTIME, CLOCK_TAI };
	for (unsigned i = 0; i < 4; i++) {
		char name[40];
		struct ts32 to;
		long long end;

		t0 = clk(ids[i]);
		syscall(NR_clock_nanosleep, ids[i], 0, &ms, NULL);
		t1 = clk(ids[i]);
		snprintf(name, sizeof(name), "sleep_rel_id%d", ids[i]);
		result(t1 - t0 >= 1000000, name, "slept=%lld", t1 - t0);
		end = clk(ids[i]) + 2000000;
		to = (struct ts32){ (int32_t)(end / NS), (int32_t)(end % NS) };
		syscall(NR_clock_nanosleep, ids[i], 1, &to, NULL);
		t1 = clk(ids[i]);
		snprintf(name, sizeof(name), "sleep_abs_id%d", ids[i]);
		result(t1 >= end, name, "late=%lld", t1 - end);
	}
}

/* An absolute realtime sleep follows clock_settime: forward past it, it ends; back, it waits. */
static void test_abs_follows_set(void)
{
	struct ts32 to, now;
	int status;
	long long m0, m1;
	pid_t pid;

	m0 = mono();
	pid = fork();
	if (pid == 0) {
		long long end = clk(CLOCK_REALTIME) + 10 * NS;

		to = (struct ts32){ (int32_t)(end / NS), (int32_t)(end % NS) };
		_exit(syscall(NR_clock_nanosleep, CLOCK_REALTIME, 1, &to, NULL) ? 1 : 0);
	}
	usleep(50000);
	syscall(NR_clock_gettime, CLOCK_REALTIME, &now);
	now.sec += 20;
	syscall(NR_clock_settime, CLOCK_REALTIME, &now);
	waitpid(pid, &status, 0);
	m1 = mono();
	result(WIFEXITED(status) && WEXITSTATUS(status) == 0 && m1 - m0 < 1000000000,
	       "abs_realtime_sleep_ends_when_set_past", "took=%lld", m1 - m0);

	m0 = mono();
	pid = fork();
	if (pid == 0) {
		long long end = clk(CLOCK_REALTIME) + 200000000;

		to = (struct ts32){ (int32_t)(end / NS), (int32_t)(end % NS) };
		_exit(syscall(NR_clock_nanosleep, CLOCK_REALTIME, 1, &to, NULL) ? 1 : 0);
	}
	usleep(50000);
	syscall(NR_clock_gettime, CLOCK_REALTIME, &now);
	now.sec -= 1;
	syscall(NR_clock_settime, CLOCK_REALTIME, &now);
	waitpid(pid, &status, 0);
	m1 = mono();
	result(WIFEXITED(status) && WEXITSTATUS(status) == 0 && m1 - m0 >= 1200000000 &&
		       m1 - m0 < 1400000000,
	       "abs_realtime_sleep_waits_when_set_back", "took=%lld", m1 - m0);
}

/* PR_SET_TIMERSLACK: per thread, inherited by fork, 0 back to the default (the slack at fork). */
static void test_timerslack(void)
{
	long s0 = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0), s1, s2;
	int status;
	pid_t pid;

	prctl(PR_SET_TIMERSLACK, 2000000, 0, 0, 0);
	s1 = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	pid = fork();
	if (pid == 0) {
		long inherited = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);

		prctl(PR_SET_TIMERSLACK, 7, 0, 0, 0);
		prctl(PR_SET_TIMERSLACK, 0, 0, 0, 0);
		_exit(inherited == 2000000 && prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0) == 2000000 ? 0
											      : 1);
	}
	waitpid(pid, &status, 0);
	/* A 100 us sleep with 2 ms of slack: never early, never beyond the slack (and the wakeup). */
	struct ts32 req = { 0, 100000 };
	long long t0 = mono();
	syscall(NR_nanosleep, &req, NULL);
	long long late = mono() - t0 - 100000;
	prctl(PR_SET_TIMERSLACK, 0, 0, 0, 0);
	s2 = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	result(s0 == SLACK_NS && s1 == 2000000 && s2 == SLACK_NS && WIFEXITED(status) &&
		       WEXITSTATUS(status) == 0,
	       "timerslack", "default=%ld set=%ld reset=%ld child=%d", s0, s1, s2,
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	out("slack2ms_sleep100us late=%lld", late);
}

/* ---- select, pselect6, poll, ppoll ---- */

static void test_select(void)
{
	struct tv32 tv;
	struct ts32 ts;
	long long m0, m1, left;
	int p[2];
	fd_set rd;
	long r;

	/* A timeout: 0 ready, the time left 0, never early. */
	tv = (struct tv32){ 0, 30000 };
	m0 = mono();
	r = syscall(NR_newselect, 0, NULL, NULL, NULL, &tv);
	m1 = mono();
	result(r == 0 && tv.sec == 0 && tv.usec == 0 && m1 - m0 >= 30000000, "select_timeout",
	       "ret=%ld left=%d.%06d took=%lld", r, tv.sec, tv.usec, m1 - m0);
	/* A signal: EINTR, the time left is the request less what passed (Linux writes it back). */
	arm(100000);
	ts = (struct ts32){ 0, 300000000 };
	m0 = mono();
	r = syscall(NR_pselect6, 0, NULL, NULL, NULL, &ts, NULL);
	m1 = mono();
	left = ts.sec * NS + ts.nsec;
	result(err_of(r) == EINTR && left >= 300000000 - (m1 - m0) - 1000000 &&
		       left <= 300000000 - (m1 - m0) + 1000000,
	       "pselect6_eintr_remaining", "errno=%ld took=%lld left=%lld", err_of(r), m1 - m0,
	       left);
	/* pselect6's mask: SIGALRM blocked during the call, delivered after it. */
	sigset_t block;
	struct {
		sigset_t *set;
		size_t size;
	} sig = { &block, 8 };
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	/* Not ended by the alarm (blocked), delivered once the call is over (the mask back). */
	int before = alarms;
	arm(20000);
	ts = (struct ts32){ 0, 60000000 };
	m0 = mono();
	r = syscall(NR_pselect6, 0, NULL, NULL, NULL, &ts, &sig);
	m1 = mono();
	result(r == 0 && m1 - m0 >= 60000000 && alarms - before == 1, "pselect6_sigmask",
	       "ret=%ld took=%lld alarms=%d", r, m1 - m0, alarms - before);
	sig.size = 4;
	expect_errno("pselect6_bad_sigsetsize",
		     syscall(NR_pselect6, 0, NULL, NULL, NULL, &ts, &sig), EINVAL);
	/* A ready pipe: 1 at once, the time left nearly all of it. */
	pipe(p);
	write(p[1], "x", 1);
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	FD_SET(p[1], &rd);
	tv = (struct tv32){ 5, 0 };
	r = syscall(NR_newselect, p[1] + 1, &rd, NULL, NULL, &tv);
	result(r == 1 && FD_ISSET(p[0], &rd) && !FD_ISSET(p[1], &rd) && tv.sec == 4,
	       "select_pipe_ready", "ret=%ld left=%d.%06d", r, tv.sec, tv.usec);
	/* Emptied: the write end writable (a byte in keeps this kernel's one-page pipe from it). */
	char c;
	read(p[0], &c, 1);
	struct ts64 t64 = { 0, 1000 };
	fd_set wr;
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	FD_ZERO(&wr);
	FD_SET(p[1], &wr);
	r = syscall(NR_pselect6_time64, p[1] + 1, &rd, &wr, NULL, &t64, NULL);
	result(r == 1 && FD_ISSET(p[1], &wr) && !FD_ISSET(p[0], &rd), "pselect6_time64_writable",
	       "ret=%ld", r);
	FD_ZERO(&rd);
	FD_SET(40, &rd);
	expect_errno("select_closed_fd", syscall(NR_newselect, 41, &rd, NULL, NULL, NULL), EBADF);
	expect_errno("select_negative_n", syscall(NR_newselect, -1, NULL, NULL, NULL, NULL),
		     EINVAL);
	tv = (struct tv32){ 0, -1 };
	expect_errno("select_bad_timeout", syscall(NR_newselect, 0, NULL, NULL, NULL, &tv), EINVAL);
	expect_errno("select_bad_set", syscall(NR_newselect, 1, BAD_ADDR, NULL, NULL, NULL),
		     EFAULT);

	/* poll: a timeout in ms, never early; ppoll's time left. */
	m0 = mono();
	r = poll(NULL, 0, 25);
	m1 = mono();
	result(r == 0 && m1 - m0 >= 25000000, "poll_timeout", "ret=%ld took=%lld", r, m1 - m0);
	write(p[1], "y", 1);
	struct pollfd pf = { p[0], POLLIN, 0 };
	ts = (struct ts32){ 2, 0 };
	r = syscall(NR_ppoll, &pf, 1, &ts, NULL, 8);
	result(r == 1 && pf.revents == POLLIN && ts.sec == 1, "ppoll_ready_remaining",
	       "ret=%ld revents=%#x left=%d.%09d", r, pf.revents, ts.sec, ts.nsec);
	ts = (struct ts32){ 0, -1 };
	expect_errno("ppoll_bad_timeout", syscall(NR_ppoll, &pf, 1, &ts, NULL, 8), EINVAL);
	close(p[0]);
	close(p[1]);
}

/* ---- leap seconds ---- */

#ifndef ADJ_STATUS /* glibc's <sys/timex.h> has them */
#define ADJ_STATUS 0x10
#define STA_UNSYNC 0x40
#define STA_INS	   0x10
#define STA_DEL	   0x20
#endif
#define DAY 86400LL

static const char *const state_names[] = { "TIME_OK",  "TIME_INS",  "TIME_DEL",
					   "TIME_OOP", "TIME_WAIT", "TIME_ERROR" };

/* adjtimex's answer and the TAI offset it reports. */
static long ntp_read(int *tai)
{
	struct timex32 x = { 0 };
	long r = syscall(NR_adjtimex, &x);

	*tai = x.tai;
	return r;
}

static long ntp_status(int status)
{
	struct timex32 x = { .modes = ADJ_STATUS, .status = status };

	return syscall(NR_adjtimex, &x);
}

/*
 * As leap-a-day's clear_time_state(): synchronized, no bits (a clock set
 * makes it unsynchronized again, as Linux's ntp_clear()).
 */
static void clear_ntp(void)
{
	struct timex32 x = { .modes = 4, .maxerror = 0 };

	ntp_status(1);
	syscall(NR_adjtimex, &x);
	ntp_status(0);
}

static void sleep_mono_until(long long t)
{
	struct ts32 abs = { (int32_t)(t / NS), (int32_t)(t % NS) };

	while (syscall(NR_clock_nanosleep, CLOCK_MONOTONIC, 1, &abs, NULL))
		;
}

static void set_real(long long t)
{
	struct ts32 ts = { (int32_t)(t / NS), (int32_t)(t % NS) };

	syscall(NR_clock_settime, CLOCK_REALTIME, &ts);
}

/* One reading of clk between two of CLOCK_MONOTONIC: clk - mono lies in [v - b, v - a]. */
struct pair {
	long long a, v, b;
};

static struct pair read_pair(clockid_t id)
{
	struct pair p;

	p.a = mono();
	p.v = clk(id);
	p.b = mono();
	return p;
}

/* Is off (clk - mono) the offset of this reading? */
static int pair_has(struct pair p, long long off)
{
	return p.v - off >= p.a && p.v - off <= p.b;
}

static void check_state(const char *name, long want, int want_tai)
{
	int tai;
	long r = ntp_read(&tai);

	result(r == want && tai == want_tai, name, "ret=%s tai=%d, want %s tai=%d",
	       r >= 0 && r <= 5 ? state_names[r] : "?", tai, state_names[want], want_tai);
}

/*
 * Readings of REALTIME and TAI against MONOTONIC from 100 us before the
 * leap at monotonic m to late after it: realtime's offset is off before,
 * off + step * 1 s after (between m and late, either: the hrtimer's
 * wakeup), never anything else; TAI's offset never changes.
 */
static void check_step(const char *name, long long m, long long late, long long off, int step,
		       long long tai_off)
{
	long long after = off + step * NS, bad_at = 0, bad_off = 0;
	int before_n = 0, after_n = 0, tai_bad = 0;
	struct pair p;

	sleep_mono_until(m - 100000 - 2 * late); /* a sleep ends at a tick at tick resolution */
	do {
		p = read_pair(CLOCK_REALTIME);
		if (p.b < m	      ? !pair_has(p, off)
		    : p.a >= m + late ? !pair_has(p, after)
				      : !pair_has(p, off) && !pair_has(p, after))
			bad_at = bad_at ? bad_at : p.a - m, bad_off = p.v - p.a - off;
		before_n += p.b < m;
		after_n += p.a >= m + late;
		tai_bad += !pair_has(read_pair(CLOCK_TAI), tai_off);
	} while (p.a < m + late + 100000);
	result(!bad_at && before_n && after_n && !tai_bad, name,
	       "realtime off at %lld ns from the leap (by %lld ns), %d readings before, %d after, "
	       "%d TAI jumps",
	       bad_at, bad_off, before_n, after_n, tai_bad);
}

static void test_leap(void)
{
	long long res = 1, d, off, m, tai_off, woke;
	struct ts32 t = { 0, 0 }, abs;
	struct pair p;
	int tai;
	long r;

	syscall(NR_clock_getres, CLOCK_MONOTONIC, &t);
	res = t.sec * NS + t.nsec; /* the step waits for the hrtimer: a tick at tick resolution */
	ntp_read(&tai);
	d = (clk(CLOCK_REALTIME) / NS / DAY + 2) * DAY * NS; /* a midnight ahead */

	/* Insertion: 23:59:59 twice, TAI continuous, the TAI offset one more. */
	set_real(d - 2 * NS);
	clear_ntp();
	r = ntp_status(STA_INS);
	result(r == 0, "leap_ins_set", "ret=%ld, want TIME_OK until the next second", r);
	p = read_pair(CLOCK_REALTIME);
	off = p.v - p.a;
	m = d - off; /* midnight, in monotonic time */
	p = read_pair(CLOCK_TAI);
	tai_off = p.v - p.a;
	sleep_mono_until(m - NS / 2);
	check_state("leap_ins_before", 1, tai);
	check_step("leap_ins_step", m, res + 30000, off, -1, tai_off);
	check_state("leap_ins_oop", 3, tai + 1);
	/* An absolute realtime sleep to midnight: midnight's second occurrence. */
	abs = (struct ts32){ (int32_t)(d / NS), 0 };
	while (syscall(NR_clock_nanosleep, CLOCK_REALTIME, 1, &abs, NULL))
		;
	woke = mono();
	result(woke >= m + NS && woke < m + NS + res + 1000000, "leap_ins_abs_sleep",
	       "woke %lld ns after the first midnight, want 1 s", woke - m);
	check_state("leap_ins_wait", 4, tai + 1);
	r = ntp_status(0);
	result(r == 4, "leap_ins_wait_cleared", "ret=%ld, want TIME_WAIT until the next second", r);
	sleep_mono_until(mono() + 1100000000LL);
	check_state("leap_ins_ok", 0, tai + 1);

	/* Cancelled: STA_INS cleared before midnight, no leap. */
	d += DAY * NS;
	set_real(d - 2 * NS);
	clear_ntp();
	ntp_status(STA_INS);
	p = read_pair(CLOCK_REALTIME);
	off = p.v - p.a;
	m = d - off;
	sleep_mono_until(m - NS / 2);
	check_state("leap_cancel_ins", 1, tai + 1);
	ntp_status(0);
	sleep_mono_until(m + NS / 2);
	p = read_pair(CLOCK_REALTIME);
	result(pair_has(p, off), "leap_cancel_no_step", "realtime moved by %lld ns",
	       p.v - p.a - off);
	check_state("leap_cancel_ok", 0, tai + 1);

	/* Deletion while unsynchronized: TIME_ERROR returned, 23:59:59 skipped all the same. */
	d += DAY * NS;
	set_real(d - 3 * NS);
	r = ntp_status(STA_DEL | STA_UNSYNC);
	result(r == TIME_ERROR, "leap_del_unsync", "ret=%ld, want TIME_ERROR", r);
	p = read_pair(CLOCK_REALTIME);
	off = p.v - p.a;
	p = read_pair(CLOCK_TAI);
	tai_off = p.v - p.a;
	check_step("leap_del_step", d - NS - off, res + 30000, off, 1, tai_off);
	check_state("leap_del_error", TIME_ERROR, tai);
	ntp_status(STA_UNSYNC);
}

static int run_sem(void)
{
	test_clock_ids();
	print_getres();
	test_settime();
	test_adjtimex();
	test_eintr();
	test_sleep_errors();
	test_abs_follows_set();
	test_timerslack();
	test_select();
	test_other_cpu_clock();
	test_leap();
	out("done failures=%d", failures);
	return failures;
}

/* ---- lateness ---- */

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static int run_lat(void)
{
	static const struct {
		long long ns;
		int reps;
	} reqs[] = { { 1000, 40 }, { 100000, 40 }, { 1000000, 20 }, { 10000000, 10 }, { NS, 2 } };
	static long long mlat[5][40], tlat[5][40];
	unsigned long long c0 = rdtsc(), c[5][40][2];
	long long m[5][40][2], mstart = mono();
	double per_ns;

	for (int i = 0; i < 5; i++) {
		for (int k = 0; k < reqs[i].reps; k++) {
			struct ts32 req = { (int32_t)(reqs[i].ns / NS),
					    (int32_t)(reqs[i].ns % NS) };

			m[i][k][0] = mono();
			c[i][k][0] = rdtsc();
			syscall(NR_clock_nanosleep, CLOCK_MONOTONIC, 0, &req, NULL);
			c[i][k][1] = rdtsc();
			m[i][k][1] = mono();
		}
	}
	/* The TSC's rate against the clock over the whole run (seconds of it). */
	per_ns = (double)(rdtsc() - c0) / (double)(mono() - mstart);
	out("lat tsc_per_ns=%.6f", per_ns);
	for (int i = 0; i < 5; i++) {
		int n = reqs[i].reps;
		long long maxdiff = 0;

		for (int k = 0; k < n; k++) {
			long long d;

			mlat[i][k] = m[i][k][1] - m[i][k][0] - reqs[i].ns;
			tlat[i][k] = (long long)((double)(c[i][k][1] - c[i][k][0]) / per_ns) -
				     reqs[i].ns;
			d = tlat[i][k] - mlat[i][k];
			if ((d < 0 ? -d : d) > maxdiff)
				maxdiff = d < 0 ? -d : d;
		}
		qsort(mlat[i], (size_t)n, sizeof(long long), cmp_ll);
		qsort(tlat[i], (size_t)n, sizeof(long long), cmp_ll);
		out("lat req_ns=%lld n=%d min=%lld med=%lld max=%lld tsc_min=%lld tsc_med=%lld "
		    "tsc_max=%lld tsc_vs_mono=%lld",
		    reqs[i].ns, n, mlat[i][0], mlat[i][n / 2], mlat[i][n - 1], tlat[i][0],
		    tlat[i][n / 2], tlat[i][n - 1], maxdiff);
	}
	out("lat done");
	return 0;
}

int main(int argc, char **argv)
{
	const char *arg = argc > 1 ? argv[1] : "";

	if (!strcmp(arg, "sem"))
		return run_sem() ? 1 : 0;
	if (!strcmp(arg, "lat"))
		return run_lat();
	fprintf(stderr, "usage: %s sem | lat\n", argv[0]);
	return 2;
}
