// SPDX-License-Identifier: MIT
/*
 * Signals and time as an unmodified static glibc program sees them on the
 * reference kernel (tests/signal/check.sh boots it as init). One line
 * "sigtest: <name> ok" or "sigtest: <name> FAIL ..." per check, then
 * "sigtest: N failed"; exit status 0 when none failed.
 *	sigtest			every check
 *	sigtest die <sig>	raises an unhandled signal (the default action)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

static int failed;
static volatile sig_atomic_t hits, last_sig;
static volatile int info_pid, info_code;

static void check(const char *name, int ok, const char *fmt, long a, long b)
{
	if (ok) {
		printf("sigtest: %s ok\n", name);
		return;
	}
	failed++;
	printf("sigtest: %s FAIL ", name);
	printf(fmt, a, b);
	printf("\n");
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void on_sig(int sig)
{
	volatile double x = 1.0;

	/* The FPU is the handler's own: this must not disturb the interrupted code's. */
	for (int i = 0; i < 100; i++)
		x = x * 1.5 + 0.25;
	hits++;
	last_sig = sig;
}

static void on_info(int sig, siginfo_t *si, void *uc)
{
	hits++;
	last_sig = sig;
	info_pid = si->si_pid;
	info_code = uc ? si->si_code : -999;
}

/* Forges the frame: kernel code segment and IOPL 3 must not survive sigreturn. */
static void on_forge(int sig, siginfo_t *si, void *vuc)
{
	ucontext_t *uc = vuc;

	(void)sig;
	(void)si;
	uc->uc_mcontext.gregs[REG_CS] = 0x08;
	uc->uc_mcontext.gregs[REG_SS] = 0x10;
	uc->uc_mcontext.gregs[REG_EFL] |= 0x3000 | 0x20000;
	hits++;
}

static void handle(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

static void handle_info(int sig, void (*fn)(int, siginfo_t *, void *))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO;
	sigaction(sig, &sa, NULL);
}

static void test_alarm_pause(void)
{
	double t0 = mono(), dt;
	int r;

	hits = 0;
	handle(SIGALRM, on_sig, 0);
	alarm(1);
	r = pause();
	dt = mono() - t0;
	check("alarm-pause", r == -1 && errno == EINTR && hits == 1 && last_sig == SIGALRM,
	      "pause %ld hits %ld", r, hits);
	check("alarm-not-early", dt >= 1.0 && dt < 1.2, "took %ld ms (x%ld)", (long)(dt * 1000), 1);
	check("alarm-remaining", alarm(5) == 0 && alarm(0) == 5, "%ld %ld", 0, 0);
}

static void test_fpu_kept(void)
{
	volatile double a = 0;
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };

	hits = 0;
	handle(SIGALRM, on_sig, SA_RESTART);
	setitimer(ITIMER_REAL, &it, NULL);
	for (int i = 0; i < 3000000; i++)
		a += 0.5;
	it = (struct itimerval){ { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &it, NULL);
	check("fpu-kept", a == 1500000.0 && hits > 0, "hits %ld, sum*2 %ld", hits, (long)(a * 2));
}

static void test_itimer(void)
{
	struct itimerval it = { { 0, 100000 }, { 0, 100000 } }, got;
	double t0 = mono(), dt;

	hits = 0;
	handle(SIGALRM, on_sig, 0);
	setitimer(ITIMER_REAL, &it, NULL);
	getitimer(ITIMER_REAL, &got);
	check("getitimer-armed",
	      got.it_value.tv_usec > 0 && got.it_value.tv_usec <= 100000 &&
		      got.it_interval.tv_usec == 100000,
	      "value %ld us, interval %ld us", got.it_value.tv_usec, got.it_interval.tv_usec);
	while (hits < 5)
		pause();
	dt = mono() - t0;
	it = (struct itimerval){ { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &it, &got);
	check("itimer-interval", dt >= 0.5 && dt < 0.6, "5 periods took %ld ms (%ld)",
	      (long)(dt * 1000), 0);
	getitimer(ITIMER_REAL, &got);
	check("itimer-off", got.it_value.tv_sec == 0 && got.it_value.tv_usec == 0, "%ld %ld",
	      got.it_value.tv_sec, got.it_value.tv_usec);
	check("setitimer-einval",
	      setitimer(ITIMER_REAL, &(struct itimerval){ { 0, 0 }, { 0, 1000000 } }, NULL) == -1 &&
		      errno == EINVAL,
	      "errno %ld %ld", errno, 0);
}

static void test_kill_info(void)
{
	hits = 0;
	handle_info(SIGUSR1, on_info);
	kill(getpid(), SIGUSR1);
	check("kill-siginfo", hits == 1 && info_pid == getpid() && info_code == SI_USER,
	      "pid %ld code %ld", info_pid, info_code);
	check("kill-probe", kill(getpid(), 0) == 0 && kill(12345, 0) == -1 && errno == ESRCH,
	      "errno %ld %ld", errno, 0);
	check("kill-einval", kill(getpid(), 65) == -1 && errno == EINVAL, "errno %ld %ld", errno,
	      0);
	check("sigaction-kill",
	      sigaction(SIGKILL, &(struct sigaction){ 0 }, NULL) == -1 && errno == EINVAL,
	      "errno %ld %ld", errno, 0);
	check("sigaction-size",
	      syscall(SYS_rt_sigaction, SIGUSR1, NULL, NULL, 4) == -1 && errno == EINVAL,
	      "errno %ld %ld", errno, 0);
}

static void test_mask(void)
{
	sigset_t set, pend, old;

	hits = 0;
	handle(SIGUSR2, on_sig, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, &old);
	raise(SIGUSR2);
	sigpending(&pend);
	check("blocked-pending", hits == 0 && sigismember(&pend, SIGUSR2), "hits %ld %ld", hits, 0);
	sigprocmask(SIG_SETMASK, &old, NULL);
	check("unblocked-delivered", hits == 1, "hits %ld %ld", hits, 0);
	/* sigsuspend: waits with USR2 unblocked, and gives the old mask back */
	sigprocmask(SIG_BLOCK, &set, NULL);
	handle(SIGALRM, on_sig, 0);
	raise(SIGUSR2);
	sigemptyset(&pend);
	hits = 0;
	sigsuspend(&pend);
	sigprocmask(SIG_SETMASK, NULL, &pend);
	check("sigsuspend", hits == 1 && last_sig == SIGUSR2 && sigismember(&pend, SIGUSR2),
	      "hits %ld %ld", hits, 0);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void test_nanosleep_eintr(void)
{
	struct timespec req = { 2, 0 }, rem = { 0, 0 };
	int r;

	handle(SIGALRM, on_sig, 0);
	alarm(1);
	r = nanosleep(&req, &rem);
	/*
	 * About 1 s left: as Linux, to the sleep's latest end (its time plus
	 * the 50 us timer slack), so a punctual alarm leaves a little over 1 s.
	 */
	check("nanosleep-eintr",
	      r == -1 && errno == EINTR &&
		      ((rem.tv_sec == 0 && rem.tv_nsec > 900000000) ||
		       (rem.tv_sec == 1 && rem.tv_nsec <= 50000)),
	      "r %ld rem ns %ld", r, rem.tv_sec * 1000000000L + rem.tv_nsec);
	req.tv_nsec = 1000000000;
	check("nanosleep-einval", nanosleep(&req, NULL) == -1 && errno == EINVAL, "%ld %ld", errno,
	      0);
	check("nanosleep-efault", syscall(SYS_nanosleep, (void *)16, NULL) == -1 && errno == EFAULT,
	      "%ld %ld", errno, 0);
}

static void test_clocks(void)
{
	struct timespec rt, res;
	time_t t = time(NULL);
	struct timeval tv;
	struct tms tm;
	clock_t c0, c1;

	clock_gettime(CLOCK_REALTIME, &rt);
	gettimeofday(&tv, NULL);
	check("realtime", rt.tv_sec - t <= 1 && tv.tv_sec - t <= 1 && t > 1700000000, "%ld %ld",
	      (long)t, (long)rt.tv_sec);
	check("getres",
	      clock_getres(CLOCK_MONOTONIC, &res) == 0 && res.tv_nsec == 1 &&
		      clock_getres(CLOCK_MONOTONIC_COARSE, &res) == 0 && res.tv_nsec > 90000 &&
		      res.tv_nsec < 60000000,
	      "coarse res %ld ns %ld", res.tv_nsec, 0);
	/* -6 is Linux's own process CPU clock (valid); -5 a posix clock file's, fd 0: not one. */
	check("bad-clock",
	      clock_gettime(99, &rt) == -1 && errno == EINVAL && clock_gettime(-5, &rt) == -1 &&
		      errno == EINVAL,
	      "%ld %ld", errno, 0);
	check("clock-efault",
	      syscall(SYS_clock_gettime, CLOCK_MONOTONIC, (void *)0xc0000000) == -1 &&
		      errno == EFAULT,
	      "%ld %ld", errno, 0);
	c0 = times(&tm);
	sleep(1);
	c1 = times(&tm);
	/* A sleep ends at the first tick at or after its time: up to a tick (the coarse clock's resolution) more. */
	clock_getres(CLOCK_MONOTONIC_COARSE, &res);
	check("times-sleep", c1 - c0 >= 100 && c1 - c0 <= 101 + (res.tv_nsec + 9999999) / 10000000,
	      "%ld ticks, tick %ld ns", (long)(c1 - c0), res.tv_nsec);
	check("abstime",
	      clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &(struct timespec){ 0, 0 }, NULL) ==
			      0 &&
		      clock_nanosleep(CLOCK_MONOTONIC_RAW, 0, &(struct timespec){ 0, 1 }, NULL) ==
			      EOPNOTSUPP,
	      "%ld %ld", 0, 0);
}

static void test_forge(void)
{
	unsigned int cs, fl;

	hits = 0;
	handle_info(SIGUSR1, on_forge);
	raise(SIGUSR1);
	__asm__ volatile("mov %%cs, %0; pushf; pop %1" : "=r"(cs), "=r"(fl));
	check("forged-frame", hits == 1 && (cs & 3) == 3 && !(fl & 0x3000) && (fl & 0x200),
	      "cs 0x%lx eflags 0x%lx", cs, fl);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "die")) {
		raise(atoi(argv[2]));
		printf("sigtest: survived signal %s\n", argv[2]);
		return 1;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	test_alarm_pause();
	test_itimer();
	test_fpu_kept();
	test_kill_info();
	test_mask();
	test_nanosleep_eintr();
	test_clocks();
	test_forge();
	printf("sigtest: %d failed\n", failed);
	return failed != 0;
}
