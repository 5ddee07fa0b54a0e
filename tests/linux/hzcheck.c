// SPDX-License-Identifier: MIT
/*
 * hzcheck: what user space sees of the tick rate on a Linux kernel (issue
 * 29, item 6). Linux with boot-time HZ (hz=N) must show user space exactly
 * what stock Linux built with CONFIG_HZ=N shows: every tick count in
 * USER_HZ (100), every value kept in jiffies shown in its documented unit,
 * the coarse clocks stepping by the tick really made, and no timeout that
 * user space can see shorter than asked. Stock Linux is the independent
 * judge: the program passes there (the boots of tests/linux/ and this
 * machine's own kernel), and each check fails when its expectation is
 * wrong (run it with the wrong --hz, --user-hz or --demand-ns).
 *
 *	hzcheck --hz N [--user-hz U] [--demand-ns NS] [--late-ms MS]
 *		[--no-write] [--only WORD[,WORD...]]
 *
 *   --hz N        the HZ the kernel was booted with (hz=N) or built for
 *                 (CONFIG_HZ=N); the tick is TICK_NSEC = round(1e9 / N) ns,
 *                 as Linux's <vdso/jiffies.h> makes it
 *   --user-hz U   the USER_HZ expected (100, Linux's on every architecture
 *                 we build for); another value shows the USER_HZ checks fail
 *   --demand-ns   judge every timeout as if NS more had been asked: a
 *                 self-test of the never-short judges (1000000 fails them)
 *   --late-ms MS  how much later than its bound a timeout may come (0;
 *                 only for a run outside -icount, a host or plain TCG,
 *                 where the host's load delays the guest)
 *   --no-write    leave the sysctls alone (no write/read-back checks)
 *   --only        run only the checks whose name starts with one of the
 *                 words (e.g. --only timeout-,sysctl)
 *
 * One line per check, from user/report.h: "hzcheck: ok NAME values" or
 * "hzcheck: FAIL NAME what was seen, what was expected"; "hzcheck: skip
 * NAME why" when the kernel has no such thing (a small configuration may
 * lack INET, ptys or the POSIX message queues); then "hzcheck: N ok, M
 * failed, K skipped". Exit status 0 when nothing failed, 1 otherwise, 2 on
 * a usage error.
 *
 * Bounds. The judge runs in QEMU under -icount (scripts/linux/boot.sh,
 * mode icount: shift=1, one CPU): guest time is the guest's instruction
 * count, 2 ns an instruction, whatever the host's load, and idle time is
 * skipped. No bound below has room for host load; each says what it is
 * made of: stock Linux's own formula at the HZ given (exact: hz=N must be
 * CONFIG_HZ=N), a truncation to a unit, the tick, or EXEC_NS, the guest's
 * own instructions between a timer's expiry and this program's clock
 * read. A run outside -icount (a host, plain TCG) can add --late-ms.
 *
 * Timeouts. Linux has two kinds. Those on an hrtimer (nanosleep, timerfd,
 * ITIMER_REAL and alarm, select, poll, ppoll, epoll_wait, futex and so
 * pthread_cond_timedwait, sigtimedwait, mq_timedreceive) expire at T plus
 * their slack (the task's timer slack, 50 us; select's, poll's and
 * epoll's T / 1000 when more; none for timerfd, itimers and message
 * queues): T .. T + slack + EXEC_NS. With high-resolution timers (the
 * fine clock's resolution 1 ns) that involves no tick, and these checks
 * are HZ-independent; without, they expire at a tick, one more allowed.
 * Those kept in jiffies (SO_RCVTIMEO, SO_SNDTIMEO, a tty's VTIME) are j
 * jiffies by stock's own conversion (sock_set_timeout: tv_usec rounded up
 * in units of USEC_PER_SEC / HZ, an integer; n_tty: (HZ / 10) * VTIME),
 * and the timer wheel fires such a timer at the first tick after its
 * jiffy (calc_index rounds up so that no timer fires early), later by up
 * to its level's granularity less one (levels from a delay of 63, 504,
 * 4032 jiffies: 8, 64, 512 jiffies). Each jiffies wait starts a moment
 * before a tick (found by CLOCK_MONOTONIC_COARSE's step, then up to
 * GUARD = min(tick / 2, 0.5 ms) before the next): it takes j ticks and
 * that moment, so the bounds are j * TICK_NSEC .. (j + granularity - 1) *
 * TICK_NSEC + GUARD + EXEC_NS. Every line gives the lateness (ms,
 * negative when early) of each wait.
 *
 * A wrong --hz fails every check whose expectation depends on HZ; a check
 * that cannot (its value is HZ-independent by design: USER_HZ, seconds,
 * CLOCK_BOOTTIME, CPU time scaled to the CPU clock) prints "hzcheck:
 * hz-free NAME why" after its result, and tests/linux/wrong-hz.sh fails
 * when a check passes with a wrong --hz without that line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <mqueue.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/times.h>
#include <sys/timex.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define NAME "hzcheck"
#include "../../user/report.h"

#define NSEC_PER_SEC  1000000000LL
#define NSEC_PER_MSEC 1000000LL
#define NSEC_PER_USEC 1000LL

static long hz;
static long user_hz = 100;
static long long tick_ns;   /* TICK_NSEC: the length of a jiffy */
static long long demand_ns; /* --demand-ns */
static long long late_ns;   /* --late-ms: 0 under -icount */
static int no_write;
static int hres; /* CLOCK_MONOTONIC's resolution is 1 ns: high-resolution timers */

/*
 * The guest's own instructions between a timer's expiry and this
 * program's clock read after the wait, and from its clock read before the
 * wait to the timer's arming: the tick interrupt, the timer softirq, the
 * wakeup, a context switch, two system call paths, and whatever else the
 * kernel runs at that tick on the one CPU (a kworker, vmstat, RCU). Under
 * -icount shift=1 an instruction is 2 ns of guest time whatever the host
 * does, so this is the same on every run of the same boot. Measured on
 * Linux 6.12 x86_64 at hz=24, 97, 250, 333, 1000, 4321 and 10000: hrtimer
 * waits 6 to 60 us past their expiry and slack (alarm's signal 43 us),
 * jiffies waits 5 to 20 us past their tick but one, 141 us (a VTIME of
 * 200 ms at hz=250, the same on two boots: other kernel work at that
 * tick). 300 us: twice that, none of it for the host.
 */
#define EXEC_NS (300 * NSEC_PER_USEC)

/*
 * An hrtimer wait may also find the one CPU busy with other kernel work
 * when it expires: once, at hz=333, a 1 ms futex wait ended 461 us late
 * where every other hrtimer wait of that boot was 6 to 106 us late.
 * hrtimer waits are HZ-free checks (they never tell a wrong --hz), so
 * this allowance cannot hide a wrong HZ; jiffies waits do not get it.
 */
#define HR_OTHER_NS (1000 * NSEC_PER_USEC)
static const char *only;
static int oks, skips;

/* The timeouts asked of each mechanism: short ones (a few ticks at
 * HZ 1000, less than one at HZ 24) to long ones, and 37 ms, a multiple of
 * no tick. */
static const long timeouts_ms[] = { 1, 3, 10, 37, 100 };
#define NTIMEOUTS (sizeof(timeouts_ms) / sizeof(timeouts_ms[0]))

/* ---- results ---- */

static int wanted(const char *name)
{
	const char *p = only;
	size_t n;

	if (!p)
		return 1;
	while (*p) {
		n = strcspn(p, ",");
		if (n && !strncmp(name, p, n))
			return 1;
		p += n + (p[n] == ',');
	}
	return 0;
}

static void vcheck(int ok, const char *name, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
static void vcheck(int ok, const char *name, const char *fmt, va_list ap)
{
	char detail[400];

	vsnprintf(detail, sizeof(detail), fmt, ap);
	result(ok, name, "%s", detail);
	oks += !!ok;
}

static void check(int ok, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void check(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vcheck(ok, name, fmt, ap);
	va_end(ap);
}

/* A check whose expectation does not depend on HZ, so that a wrong --hz
 * cannot fail it: its result, then "hz-free NAME why" (read by
 * tests/linux/wrong-hz.sh). */
static void check_free(int ok, const char *name, const char *why, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void check_free(int ok, const char *name, const char *why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vcheck(ok, name, fmt, ap);
	va_end(ap);
	out("hz-free %s %s", name, why);
}

static void skip(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void skip(const char *name, const char *fmt, ...)
{
	char detail[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	out("skip %s %s", name, detail);
	skips++;
}

/* ---- clocks and files ---- */

static long long ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

static struct timespec ns_ts(long long ns)
{
	struct timespec ts = { (time_t)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC) };

	return ts;
}

static long long clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts)) {
		out("clock_gettime(%d): %s", (int)id, strerror(errno));
		exit(1);
	}
	return ts_ns(&ts);
}

static long long mono(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static void sleep_ns(long long ns)
{
	struct timespec ts = ns_ts(mono() + ns);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static double ms(long long ns)
{
	return (double)ns / NSEC_PER_MSEC;
}

/* The whole of a (small) file, NUL-terminated; its length, -1 when it
 * cannot be read. */
static long read_text(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = 0;
	return (long)len;
}

static int read_long(const char *path, long *v)
{
	char buf[64], *end;

	if (read_text(path, buf, sizeof(buf)) <= 0)
		return -1;
	errno = 0;
	*v = strtol(buf, &end, 10);
	return errno || end == buf ? -1 : 0;
}

static int write_long(const char *path, long v)
{
	char buf[32];
	int fd = open(path, O_WRONLY), n, ok;

	if (fd < 0)
		return -1;
	n = snprintf(buf, sizeof(buf), "%ld\n", v);
	ok = write(fd, buf, (size_t)n) == n;
	close(fd);
	return ok ? 0 : -1;
}

/* Whole ticks of USER_HZ or ms in one kernel tick, rounded up. */
static long tick_in(long per_sec)
{
	return (long)((tick_ns * per_sec + NSEC_PER_SEC - 1) / NSEC_PER_SEC);
}

/* ---- rates: sampled at the start and at the end of the run ---- */

struct cpuline {
	long long sum, busy; /* all fields; user + nice + system + irq + softirq */
	int nonzero;	     /* fields not 0: each one's truncation costs up to 1 */
};

struct sample {
	long long mono, boot;
	clock_t times;
	long long tl_now, tl_jiffies, tl_read_ns; /* /proc/timer_list */
};

/* The line "cpu" (cpu < 0) or "cpuN" of /proc/stat; 0 when found. */
static int stat_cpu(int cpu, struct cpuline *c, int *ncpu)
{
	static char buf[65536];
	char want[16], *line;
	int found = -1, n = 0;

	if (read_text("/proc/stat", buf, sizeof(buf)) <= 0)
		return -1;
	if (cpu < 0)
		snprintf(want, sizeof(want), "cpu ");
	else
		snprintf(want, sizeof(want), "cpu%d ", cpu);
	for (line = buf; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (!strncmp(line, "cpu", 3) && line[3] >= '0' && line[3] <= '9')
			n++;
		if (!strncmp(line, want, strlen(want))) {
			long long v[10] = { 0 };
			char *p = line + strlen(want);
			int i;

			for (i = 0; i < 10; i++)
				v[i] = strtoll(p, &p, 10);
			c->sum = c->busy = 0;
			c->nonzero = 0;
			/* user nice system idle iowait irq softirq steal guest
			 * guest_nice: guest and guest_nice are inside user and nice
			 * already, so they are not added twice. */
			for (i = 0; i < 8; i++) {
				c->sum += v[i];
				c->nonzero += v[i] != 0;
			}
			c->busy = v[0] + v[1] + v[2] + v[5] + v[6];
			found = 0;
		}
	}
	if (ncpu)
		*ncpu = n;
	return found;
}

/* /proc/timer_list's "now at X nsecs" (ktime_get() when the read began)
 * and its first "jiffies: N" (printed a little later, in the first CPU's
 * section); 0 when both were found. */
static int timer_list(struct sample *s)
{
	static char buf[1 << 20];
	long long t0 = mono();
	char *p;

	if (read_text("/proc/timer_list", buf, sizeof(buf)) <= 0)
		return -1;
	s->tl_read_ns = mono() - t0;
	p = strstr(buf, "now at ");
	if (!p || sscanf(p, "now at %lld nsecs", &s->tl_now) != 1)
		return -1;
	p = strstr(buf, "\njiffies: ");
	if (!p || sscanf(p, "\njiffies: %lld", &s->tl_jiffies) != 1)
		return -1;
	return 0;
}

static int take_sample(struct sample *s)
{
	struct tms t;
	int tl = timer_list(s);

	s->mono = mono();
	s->times = times(&t);
	s->boot = clock_ns(CLOCK_BOOTTIME);
	return tl;
}

/* ---- checks that read a value once ---- */

#define USERHZ_FREE   "(USER_HZ, 100 whatever HZ)"
#define BOOTTIME_FREE "(CLOCK_BOOTTIME in 1/100 s or s: no jiffies in it)"
#define CPUTIME_FREE  "(ticks of TICK_NSEC each in USER_HZ: the time whatever HZ)"

static void check_clktck(void)
{
	unsigned long at = getauxval(AT_CLKTCK);
	long sc = sysconf(_SC_CLK_TCK);
	long khz;

	if (wanted("clktck")) {
		check_free(at == (unsigned long)user_hz, "clktck-auxv", USERHZ_FREE,
			   at == (unsigned long)user_hz ? "AT_CLKTCK %lu"
							: "AT_CLKTCK %lu, want USER_HZ %ld",
			   at, user_hz);
		check_free(sc == user_hz, "clktck-sysconf", USERHZ_FREE,
			   sc == user_hz ? "sysconf(_SC_CLK_TCK) %ld"
					 : "sysconf(_SC_CLK_TCK) %ld, want USER_HZ %ld",
			   sc, user_hz);
	}
	if (!wanted("kernel-hz"))
		return;
	/* Only the patched kernel has it: the HZ it booted with. */
	if (read_long("/proc/sys/kernel/hz", &khz))
		skip("kernel-hz", "no /proc/sys/kernel/hz (stock Linux: HZ is CONFIG_HZ)");
	else
		check(khz == hz, "kernel-hz",
		      khz == hz ? "/proc/sys/kernel/hz %ld"
				: "/proc/sys/kernel/hz %ld, want %ld (--hz)",
		      khz, hz);
}

static void check_getres(void)
{
	static const struct {
		clockid_t id;
		const char *name;
	} coarse[] = { { CLOCK_MONOTONIC_COARSE, "MONOTONIC_COARSE" },
		       { CLOCK_REALTIME_COARSE, "REALTIME_COARSE" } };
	struct timespec ts;
	long long lib, sys;
	unsigned i;

	if (!wanted("coarse-res") && !wanted("hres-res"))
		return;
	/* The coarse clocks' resolution is the tick (KTIME_LOW_RES, TICK_NSEC),
	 * asked through the C library (the vDSO answers it on x86_64 and arm64,
	 * from a constant compiled into the vDSO) and by the system call. */
	for (i = 0; i < 2; i++) {
		char name[64];

		lib = clock_getres(coarse[i].id, &ts) ? -1 : ts_ns(&ts);
		sys = syscall(SYS_clock_getres, coarse[i].id, &ts) ? -1 : ts_ns(&ts);
		snprintf(name, sizeof(name), "coarse-res-%s", coarse[i].name);
		check(lib == tick_ns && sys == tick_ns, name,
		      lib == tick_ns && sys == tick_ns
			      ? "%lld ns (vDSO and system call)"
			      : "vDSO %lld ns, system call %lld ns, want TICK_NSEC %lld",
		      lib, sys, tick_ns);
	}
	/* The fine clocks: 1 ns with high-resolution timers (then HZ is not
	 * in it), else the tick. */
	lib = clock_getres(CLOCK_MONOTONIC, &ts) ? -1 : ts_ns(&ts);
	if (lib == 1)
		check_free(1, "hres-res", "(high-resolution timers: 1 ns whatever HZ)",
			   "CLOCK_MONOTONIC resolution 1 ns");
	else
		check(lib == tick_ns, "hres-res", "CLOCK_MONOTONIC resolution %lld ns%s", lib,
		      lib == tick_ns ? " (TICK_NSEC)" : ", want 1 or TICK_NSEC");
}

/* adjtimex's tick is the length of a USER_HZ tick in us (tick_usec,
 * USER_TICK_USEC), whatever HZ is. */
static void check_adjtimex(void)
{
	struct timex tx = { .modes = 0 };
	long want = (1000000 + user_hz / 2) / user_hz;

	if (!wanted("adjtimex"))
		return;
	if (adjtimex(&tx) < 0) {
		check(0, "adjtimex-tick", "adjtimex: %s", strerror(errno));
		return;
	}
	check_free(tx.tick == want, "adjtimex-tick", "(1/USER_HZ in us, whatever HZ)",
		   tx.tick == want ? "tick %ld us" : "tick %ld us, want %ld (1/USER_HZ)", tx.tick,
		   want);
}

static void check_uptime_sysinfo(void)
{
	char buf[128];
	long long b0, b1, up_c, idle_c;
	long s0, s1;
	unsigned long upi, upf, idi, idf;
	struct sysinfo si;

	if (!wanted("uptime"))
		return;
	/* /proc/uptime is CLOCK_BOOTTIME truncated to 1/100 s. */
	b0 = clock_ns(CLOCK_BOOTTIME);
	if (read_text("/proc/uptime", buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%lu.%lu %lu.%lu", &upi, &upf, &idi, &idf) != 4) {
		check(0, "uptime", "/proc/uptime unreadable: '%s'", buf);
		return;
	}
	b1 = clock_ns(CLOCK_BOOTTIME);
	up_c = (long long)upi * 100 + (long long)upf;
	check_free(up_c >= b0 / 10000000 && up_c <= b1 / 10000000, "uptime", BOOTTIME_FREE,
		   "/proc/uptime %lu.%02lu, CLOCK_BOOTTIME %.3f..%.3f s", upi, upf, b0 / 1e9,
		   b1 / 1e9);
	/* Its idle time is the sum of every CPU's, as /proc/stat's idle field,
	 * read right after; the two differ by the idle time between the
	 * reads and one truncation each. */
	idle_c = (long long)idi * 100 + (long long)idf;
	{
		static char sbuf[4096];
		long long stat_idle = -1;

		if (read_text("/proc/stat", sbuf, sizeof(sbuf)) > 0)
			sscanf(sbuf, "cpu %*d %*d %*d %lld", &stat_idle);
		/* The idle field is in USER_HZ; /proc/uptime's in 1/100 s. Both
		 * are the nohz idle clock's ns, not ticks: they differ by the
		 * idle time between the two reads (the program does not sleep
		 * there), one truncation each, and a tick's worth when one read
		 * comes while the idle period is still open (4 + a tick, not
		 * host load: the same bound on a host). */
		stat_idle = stat_idle * 100 / user_hz;
		check_free(stat_idle - idle_c >= -1 && stat_idle - idle_c <= 4 + tick_in(100),
			   "uptime-idle", "(the idle clock's ns in 1/100 s: no jiffies in it)",
			   "/proc/uptime idle %lu.%02lu s, /proc/stat idle %lld/100 s", idi, idf,
			   stat_idle);
	}
	/* sysinfo's uptime: CLOCK_BOOTTIME's seconds, rounded up. */
	s0 = (long)((clock_ns(CLOCK_BOOTTIME) + NSEC_PER_SEC - 1) / NSEC_PER_SEC);
	if (sysinfo(&si)) {
		check(0, "sysinfo-uptime", "sysinfo: %s", strerror(errno));
		return;
	}
	s1 = (long)((clock_ns(CLOCK_BOOTTIME) + NSEC_PER_SEC - 1) / NSEC_PER_SEC);
	check_free(si.uptime >= s0 && si.uptime <= s1, "sysinfo-uptime", BOOTTIME_FREE,
		   "%ld s, CLOCK_BOOTTIME rounded up %ld..%ld s", si.uptime, s0, s1);
}

/* btime: the time of boot in seconds, CLOCK_REALTIME - CLOCK_BOOTTIME. */
static void check_btime(void)
{
	static char buf[65536];
	char *p;
	long long btime, want;

	if (!wanted("btime"))
		return;
	want = (clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_BOOTTIME)) / NSEC_PER_SEC;
	if (read_text("/proc/stat", buf, sizeof(buf)) <= 0 || !(p = strstr(buf, "\nbtime ")) ||
	    sscanf(p, "\nbtime %lld", &btime) != 1) {
		check(0, "btime", "no btime line in /proc/stat");
		return;
	}
	check_free(btime >= want - 1 && btime <= want + 1, "btime",
		   "(CLOCK_REALTIME - CLOCK_BOOTTIME in s: no jiffies in it)",
		   "btime %lld, realtime - boottime %lld s", btime, want);
}

/* ---- sysctls kept in jiffies ---- */

enum unit {
	SECS,	 /* proc_dointvec_jiffies: jiffies / HZ */
	USERHZ,	 /* proc_dointvec_userhz_jiffies: jiffies_to_clock_t */
	MSECS,	 /* proc_dointvec_ms_jiffies: jiffies_to_msecs */
	RAW,	 /* proc_dointvec on a jiffies value: shown in jiffies, HZ-dependent */
	MSSLICE, /* sched_rr_timeslice_ms: (MSEC_PER_SEC * RR_TIMESLICE) / HZ */
	USECS	 /* proc_dointvec of jiffies_to_usecs(a jiffies default) */
};

struct sysctl {
	const char *path;
	enum unit unit;
	long long jiffies_num,
		jiffies_den; /* the default is num * HZ / den jiffies (integer division) */
	long write;	     /* a value to write and read back (0: none) */
};

/* Linux's defaults (6.1 and 6.12), from the sources named. The values
 * written in USER_HZ and ms read back differently at HZ 250 and 333 (10
 * USER_HZ: 10 and 9; 7 ms: 8 and 10; 10 ms: 12 and 13), so that a wrong
 * --hz fails their write checks; seconds come back as written at every
 * HZ. */
static const struct sysctl sysctls[] = {
	{ "/proc/sys/kernel/printk_ratelimit", SECS, 5, 1, 7 }, /* kernel/printk: 5 * HZ */
	{ "/proc/sys/vm/stat_interval", SECS, 1, 1, 3 },	/* mm/vmstat.c: HZ */
	{ "/proc/sys/kernel/sched_rr_timeslice_ms", MSSLICE, 1, 10,
	  0 },						      /* RR_TIMESLICE = 100 * HZ / 1000 */
	{ "/proc/sys/net/core/message_cost", SECS, 5, 1, 7 }, /* net/core/utils.c: 5 * HZ */
	{ "/proc/sys/net/ipv4/ipfrag_time", SECS, 30, 1, 0 }, /* IP_FRAG_TIME */
	{ "/proc/sys/net/ipv4/inet_peer_minttl", SECS, 120, 1, 0 },
	{ "/proc/sys/net/ipv4/inet_peer_maxttl", SECS, 600, 1, 0 },
	{ "/proc/sys/net/ipv4/tcp_keepalive_time", SECS, 7200, 1, 0 },
	{ "/proc/sys/net/ipv4/tcp_keepalive_intvl", SECS, 75, 1, 0 },
	{ "/proc/sys/net/ipv4/tcp_fin_timeout", SECS, 60, 1, 0 },
	{ "/proc/sys/net/ipv4/icmp_ratelimit", MSECS, 1, 1, 7 },	/* 1 * HZ */
	{ "/proc/sys/net/ipv4/tcp_invalid_ratelimit", MSECS, 1, 2, 0 }, /* HZ / 2 */
	{ "/proc/sys/net/ipv4/tcp_rto_min_us", USECS, 1, 5, 0 },    /* 6.12: TCP_RTO_MIN, HZ / 5 */
	{ "/proc/sys/net/ipv4/route/gc_timeout", SECS, 300, 1, 0 }, /* RT_GC_TIMEOUT */
	{ "/proc/sys/net/ipv4/route/gc_interval", SECS, 60, 1, 0 },
	{ "/proc/sys/net/ipv4/route/gc_min_interval", SECS, 1, 2, 0 }, /* HZ / 2: shows 0 */
	{ "/proc/sys/net/ipv4/route/gc_min_interval_ms", MSECS, 1, 2, 0 },
	{ "/proc/sys/net/ipv4/route/mtu_expires", SECS, 600, 1, 0 },
	{ "/proc/sys/net/ipv4/route/error_cost", RAW, 1, 1, 0 },	       /* HZ, shown as is */
	{ "/proc/sys/net/ipv4/route/error_burst", RAW, 5, 1, 0 },	       /* 5 * HZ */
	{ "/proc/sys/net/ipv4/route/redirect_load", RAW, 1, 50, 0 },	       /* HZ / 50 */
	{ "/proc/sys/net/ipv4/neigh/default/retrans_time", USERHZ, 1, 1, 10 }, /* net/ipv4/arp.c */
	{ "/proc/sys/net/ipv4/neigh/default/retrans_time_ms", MSECS, 1, 1, 10 },
	{ "/proc/sys/net/ipv4/neigh/default/base_reachable_time", SECS, 30, 1, 7 },
	{ "/proc/sys/net/ipv4/neigh/default/base_reachable_time_ms", MSECS, 30, 1, 0 },
	{ "/proc/sys/net/ipv4/neigh/default/delay_first_probe_time", SECS, 5, 1, 0 },
	{ "/proc/sys/net/ipv4/neigh/default/interval_probe_time_ms", MSECS, 5, 1, 0 },
	{ "/proc/sys/net/ipv4/neigh/default/gc_stale_time", SECS, 60, 1, 0 },
	{ "/proc/sys/net/ipv4/neigh/default/anycast_delay", USERHZ, 1, 1, 0 },
	{ "/proc/sys/net/ipv4/neigh/default/proxy_delay", USERHZ, 8, 10, 0 },
	{ "/proc/sys/net/ipv4/neigh/default/locktime", USERHZ, 1, 1, 0 },
	{ "/proc/sys/net/ipv4/neigh/default/gc_interval", SECS, 30, 1, 0 },
};

/* Stock Linux's conversions (64-bit), at the HZ given: hz=N is CONFIG_HZ=N,
 * so each is exact, no tolerance. */
static long long j_to_clock_t(long long j) /* jiffies_to_clock_t, by TICK_NSEC */
{
	return j * tick_ns / (NSEC_PER_SEC / user_hz);
}

static long long clock_t_to_j(long long c) /* clock_t_to_jiffies: truncated */
{
	return c * hz / user_hz;
}

static long long j_to_ms(long long j) /* jiffies_to_msecs: rounded up */
{
	return (j * 1000 + hz - 1) / hz;
}

static long long ms_to_j(long long m) /* msecs_to_jiffies: rounded up */
{
	return (m * hz + 999) / 1000;
}

static long long j_to_us(long long j) /* jiffies_to_usecs: truncated */
{
	return j * 1000000 / hz;
}

static long long us_to_j(long long u) /* usecs_to_jiffies: rounded up */
{
	return (u * hz + 999999) / 1000000;
}

/* What stock Linux shows for j jiffies in the unit. Whole seconds
 * (j / HZ of a multiple of HZ) and ms of whole seconds are the same at
 * every HZ: those checks are HZ-independent. */
static long long shown(enum unit u, long long j)
{
	switch (u) {
	case SECS:
		return j / hz;
	case RAW:
		return j;
	case USERHZ:
		return j_to_clock_t(j);
	case MSECS:
		return j_to_ms(j);
	case MSSLICE:
		/* kernel/sched/rt.c: (MSEC_PER_SEC * RR_TIMESLICE) / HZ with
		 * RR_TIMESLICE = 100 * HZ / 1000: 100 at HZ 100, 250, 300 and
		 * 1000; 99 at 333, 83 at 24. */
		return 1000 * (100 * hz / 1000) / hz;
	case USECS:
		return j_to_us(j);
	}
	return -1;
}

/* net/core/sock.c: sock_set_timeout's jiffies for a timeval (tv_usec
 * rounded up in units of USEC_PER_SEC / HZ, an integer: at HZ 333, 3003
 * us), and sock_get_timeout's us for them. */
static long long sock_j(long long us)
{
	long long unit = 1000000 / hz;

	return us / 1000000 * hz + (us % 1000000 + unit - 1) / unit;
}

static long long sock_us(long long j)
{
	return j / hz * 1000000 + j % hz * 1000000 / hz;
}

/* Whether a sysctl's default shows the same at every HZ: seconds of
 * num * HZ / den jiffies are num / den (truncated) whatever HZ; ms of a
 * whole number of seconds are exact. */
static int sysctl_hz_free(const struct sysctl *s)
{
	return s->unit == SECS || (s->unit == MSECS && s->jiffies_den == 1);
}

/*
 * Every default is read before anything is written: a value restored
 * through a coarser file changes what a finer one shows (retrans_time's
 * 1000 ms at HZ 333 read in USER_HZ is 99, written back 329 jiffies, then
 * 988 ms in retrans_time_ms). The writes come after, each restored; the
 * ms file of a pair comes after the USER_HZ one, so its restore is exact.
 */
static void check_sysctls(void)
{
	enum { N = sizeof(sysctls) / sizeof(sysctls[0]) };
	long v[N];
	int have[N];
	unsigned i;

	if (!wanted("sysctl"))
		return;
	for (i = 0; i < N; i++) {
		const struct sysctl *s = &sysctls[i];
		const char *base = strstr(s->path, "/sys/") + 5;
		long long j = s->jiffies_num * hz / s->jiffies_den, want;
		char name[128];

		snprintf(name, sizeof(name), "sysctl:%s", base);
		have[i] = !read_long(s->path, &v[i]);
		if (!have[i]) {
			skip(name, "absent (%s)", strerror(errno));
			continue;
		}
		want = shown(s->unit, j);
		if (sysctl_hz_free(s))
			check_free(v[i] == want, name, "(seconds, or ms of whole seconds)",
				   "%ld, want %lld", v[i], want);
		else
			check(v[i] == want, name, "%ld, want %lld (%lld jiffies)", v[i], want, j);
	}
	for (i = 0; i < N && !no_write; i++) {
		const struct sysctl *s = &sysctls[i];
		const char *base = strstr(s->path, "/sys/") + 5;
		char name[128];
		long back;

		if (!s->write || !have[i])
			continue;
		/* A write converts to jiffies, a read back converts again, by
		 * stock's formulas: whole seconds come back as written (at every
		 * HZ); USER_HZ ticks through clock_t_to_jiffies (truncating)
		 * and jiffies_to_clock_t; ms through msecs_to_jiffies and
		 * jiffies_to_msecs (both rounding up). */
		snprintf(name, sizeof(name), "sysctl-write:%s", base);
		if (write_long(s->path, s->write) || read_long(s->path, &back)) {
			check(0, name, "write %ld: %s", s->write, strerror(errno));
			continue;
		}
		switch (s->unit) {
		case USERHZ: {
			long long want = j_to_clock_t(clock_t_to_j(s->write));

			check(back == want, name, "wrote %ld, read %ld (want %lld)", s->write, back,
			      want);
			break;
		}
		case MSECS: {
			long long want = j_to_ms(ms_to_j(s->write));

			check(back == want, name, "wrote %ld, read %ld (want %lld)", s->write, back,
			      want);
			break;
		}
		default:
			check_free(back == s->write, name, "(whole seconds)", "wrote %ld, read %ld",
				   s->write, back);
		}
		if (write_long(s->path, v[i]))
			out("could not restore %s to %ld: %s", s->path, v[i], strerror(errno));
	}
}

/* ---- socket options kept in jiffies or HZ multiples ---- */

static void check_sockopts(void)
{
	int u, t, v;
	unsigned i;
	socklen_t len;

	if (!wanted("sockopt"))
		return;
	u = socket(AF_INET, SOCK_DGRAM, 0);
	if (u < 0) {
		skip("sockopt", "no UDP socket: %s", strerror(errno));
		return;
	}
	/* SO_RCVTIMEO and SO_SNDTIMEO are stored in jiffies and read back
	 * from them, by stock's formulas (sock_j, sock_us): exact. */
	for (int opt = 0; opt < 2; opt++) {
		int o = opt ? SO_SNDTIMEO : SO_RCVTIMEO;
		char vals[200] = "", want[80] = "", *p = vals;
		int bad = 0;

		for (i = 0; i < NTIMEOUTS; i++) {
			struct timeval tv = { 0, timeouts_ms[i] * 1000 }, back = { 0, 0 };
			long long set = timeouts_ms[i] * 1000, got;

			len = sizeof(back);
			if (setsockopt(u, SOL_SOCKET, o, &tv, sizeof(tv)) ||
			    getsockopt(u, SOL_SOCKET, o, &back, &len)) {
				check(0, opt ? "sockopt-sndtimeo" : "sockopt-rcvtimeo", "%s",
				      strerror(errno));
				bad = -1;
				break;
			}
			got = back.tv_sec * 1000000LL + back.tv_usec;
			p += snprintf(p, (size_t)(vals + sizeof(vals) - p), " %ld:%lld",
				      timeouts_ms[i] * 1000, got);
			if (got != sock_us(sock_j(set)) && !bad)
				snprintf(want, sizeof(want), "; %lld us: want %lld", set,
					 sock_us(sock_j(set)));
			bad |= got != sock_us(sock_j(set));
		}
		if (bad >= 0)
			check(!bad, opt ? "sockopt-sndtimeo" : "sockopt-rcvtimeo",
			      "set:read us%s%s", vals, want);
	}
	close(u);

	/* TCP and SO_LINGER options given in seconds, kept as jiffies
	 * (seconds * HZ) and read back / HZ: the same at every HZ. */
	t = socket(AF_INET, SOCK_STREAM, 0);
	if (t < 0) {
		skip("sockopt-tcp", "no TCP socket: %s", strerror(errno));
		return;
	}
	{
		static const struct {
			int level, opt;
			const char *name;
		} secs[] = { { IPPROTO_TCP, TCP_KEEPIDLE, "TCP_KEEPIDLE" },
			     { IPPROTO_TCP, TCP_KEEPINTVL, "TCP_KEEPINTVL" },
			     { IPPROTO_TCP, TCP_LINGER2, "TCP_LINGER2" } };
		struct linger l = { 1, 7 }, lb;
		char vals[200] = "", *p = vals;
		int bad = 0;

		for (i = 0; i < 3; i++) {
			int seven = 7;

			v = -1;
			len = sizeof(v);
			if (setsockopt(t, secs[i].level, secs[i].opt, &seven, sizeof(seven)) ||
			    getsockopt(t, secs[i].level, secs[i].opt, &v, &len))
				v = -errno;
			p += snprintf(p, (size_t)(vals + sizeof(vals) - p), " %s %d", secs[i].name,
				      v);
			bad |= v != 7;
		}
		len = sizeof(lb);
		if (setsockopt(t, SOL_SOCKET, SO_LINGER, &l, sizeof(l)) ||
		    getsockopt(t, SOL_SOCKET, SO_LINGER, &lb, &len))
			lb.l_linger = -errno;
		p += snprintf(p, (size_t)(vals + sizeof(vals) - p), " SO_LINGER %d", lb.l_linger);
		bad |= lb.l_linger != 7;
		check_free(!bad, "sockopt-tcp-secs", "(seconds * HZ / HZ)", "set 7 s, read%s",
			   vals);
	}
	/* A new socket's retransmission timeout, TCP_TIMEOUT_INIT (1 * HZ), in
	 * us through jiffies_to_usecs: HZ * 1000000 / HZ, exactly 1 s at
	 * every HZ. */
	{
		struct tcp_info ti;

		len = sizeof(ti);
		memset(&ti, 0, sizeof(ti));
		if (getsockopt(t, IPPROTO_TCP, TCP_INFO, &ti, &len))
			check(0, "sockopt-tcp-rto", "TCP_INFO: %s", strerror(errno));
		else
			check_free(ti.tcpi_rto == j_to_us(hz), "sockopt-tcp-rto",
				   "(jiffies_to_usecs(HZ) is 1 s)",
				   "tcpi_rto of a new socket %u us, want %lld", ti.tcpi_rto,
				   j_to_us(hz));
	}
	close(t);
}

/* A connected loopback TCP pair; -1 when the kernel has no INET. */
static int tcp_pair(int *a, int *b)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	int l = socket(AF_INET, SOCK_STREAM, 0);

	*a = *b = -1;
	if (l < 0 || bind(l, (struct sockaddr *)&sa, sizeof(sa)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&sa, &len))
		goto fail;
	*a = socket(AF_INET, SOCK_STREAM, 0);
	if (*a < 0 || connect(*a, (struct sockaddr *)&sa, sizeof(sa)))
		goto fail;
	*b = accept(l, NULL, NULL);
	if (*b < 0)
		goto fail;
	close(l);
	return 0;
fail:
	if (l >= 0)
		close(l);
	if (*a >= 0)
		close(*a);
	*a = -1;
	return -1;
}

/* A connection's RTO (at least TCP_RTO_MIN, HZ / 5 jiffies) and its
 * keepalive timer as /proc/net/tcp shows it (in USER_HZ ticks to expiry,
 * jiffies_delta_to_clock_t). */
static void check_tcp_timers(void)
{
	int a, b;
	struct tcp_info ti;
	socklen_t len = sizeof(ti);
	/* TCP_RTO_MIN, HZ / 5 jiffies, in us (tcp_rto_min_us) */
	long long rmin = j_to_us(hz / 5);

	if (!wanted("tcp"))
		return;
	if (tcp_pair(&a, &b)) {
		skip("tcp", "no loopback TCP connection: %s", strerror(errno));
		return;
	}
	if (write(a, "x", 1) != 1 || read(b, &ti, 1) != 1 ||
	    getsockopt(a, IPPROTO_TCP, TCP_INFO, &ti, &len))
		check(0, "tcp-rto", "write, read or TCP_INFO: %s", strerror(errno));
	else {
		/* __tcp_set_rto: usecs_to_jiffies(srtt + rttvar) with rttvar at
		 * least tcp_rto_min_us; the RTT on loopback is under a tick
		 * (guest instructions: tens of us), so the RTO is
		 * usecs_to_jiffies(rmin + srtt) jiffies, one of two values,
		 * shown through jiffies_to_usecs: exact. */
		long long j0 = us_to_j(rmin), j1 = us_to_j(rmin + tick_ns / 1000);

		check(ti.tcpi_rto == j_to_us(j0) || ti.tcpi_rto == j_to_us(j1), "tcp-rto",
		      "tcpi_rto %u us, want %lld or %lld (%lld or %lld jiffies)", ti.tcpi_rto,
		      j_to_us(j0), j_to_us(j1), j0, j1);
	}
	{
		int on = 1, idle = 7;
		struct sockaddr_in sa;
		socklen_t sl = sizeof(sa);
		static char buf[65536];
		char port[16], *p;
		long long t0, t1;
		unsigned tr = 0;
		unsigned long when = 0;
		int found = 0;

		getsockname(a, (struct sockaddr *)&sa, &sl);
		t0 = mono();
		if (setsockopt(a, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle)) ||
		    setsockopt(a, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on))) {
			check(0, "tcp-keepalive-timer", "SO_KEEPALIVE: %s", strerror(errno));
			goto done;
		}
		if (read_text("/proc/net/tcp", buf, sizeof(buf)) <= 0) {
			skip("tcp-keepalive-timer", "no /proc/net/tcp");
			goto done;
		}
		t1 = mono();
		/* "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when ..." */
		snprintf(port, sizeof(port), ":%04X ", ntohs(sa.sin_port));
		for (p = strchr(buf, '\n'); p; p = strchr(p + 1, '\n')) {
			char *loc = strchr(p, ':');

			if (!loc || strncmp(loc + 2 + 8, port, strlen(port)))
				continue;
			if (sscanf(loc + 2, "%*s %*s %*x %*x:%*x %x:%lx", &tr, &when) == 2) {
				found = 1;
				break;
			}
		}
		if (!found) {
			check(0, "tcp-keepalive-timer",
			      "no line for local port %d in /proc/net/tcp", ntohs(sa.sin_port));
		} else {
			/* jiffies_delta_to_clock_t of 7 * HZ jiffies less those
			 * passed between setting the option and reading the file
			 * (at most (t1 - t0) / TICK_NSEC rounded up, and one for
			 * a tick between the option and t0): 7 s in USER_HZ
			 * whatever HZ, but for the last tick's rounding, which
			 * cannot tell HZ 250 from 333 (700 and 699). */
			long long e = (t1 - t0 + tick_ns - 1) / tick_ns + 1,
				  want = j_to_clock_t((long long)idle * hz),
				  lo = j_to_clock_t((long long)idle * hz - e);

			check_free(tr == 2 && (long long)when <= want && (long long)when >= lo,
				   "tcp-keepalive-timer", "(7 s in USER_HZ; HZ only in a rounding)",
				   "/proc/net/tcp tr %u tm->when %lu, want 2 and %lld..%lld", tr,
				   when, lo, want);
		}
	}
done:
	close(a);
	close(b);
}

/* ---- CPU time in USER_HZ: a busy child ---- */

static volatile sig_atomic_t chld_seen;
static volatile long chld_utime, chld_stime;

static void on_chld(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	chld_utime = si->si_utime;
	chld_stime = si->si_stime;
	chld_seen = 1;
}

static void check_cputime(void)
{
	int up[2], down[2], cpu = sched_getcpu(), nc;
	long long boot0, boot1, cpu_ns = 0, m0, m1, busy_ns = 400 * NSEC_PER_MSEC;
	struct cpuline c0, c1;
	struct sigaction sa = { 0 }, old;
	struct tms t;
	struct rusage ru = { 0 };
	cpu_set_t set, saved;
	pid_t pid;
	char path[64];
	static char buf[4096];

	buf[0] = 0;
	if (!wanted("cputime") && !wanted("proc-pid-stat") && !wanted("proc-stat-busy") &&
	    !wanted("times-cutime"))
		return;
	if (pipe(up) || pipe(down)) {
		check(0, "cputime", "pipe: %s", strerror(errno));
		return;
	}
	/* The child runs on this CPU alone, so that CPU's /proc/stat line sees
	 * it busy while this process waits. */
	sched_getaffinity(0, sizeof(saved), &saved);
	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	sa.sa_sigaction = on_chld;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGCHLD, &sa, &old);
	chld_seen = 0;
	if (stat_cpu(cpu, &c0, &nc))
		cpu = -1;
	m0 = mono();
	boot0 = clock_ns(CLOCK_BOOTTIME);
	pid = fork();
	if (pid == 0) {
		long long c;
		char x;

		/* Busy in user mode until its own CPU clock has 0.4 s, then
		 * report that clock and wait, not running, to be read. */
		while ((c = clock_ns(CLOCK_PROCESS_CPUTIME_ID)) < busy_ns)
			;
		if (write(up[1], &c, sizeof(c)) != sizeof(c))
			_exit(1);
		if (read(down[0], &x, 1) < 0)
			_exit(1);
		_exit(0);
	}
	boot1 = clock_ns(CLOCK_BOOTTIME);
	if (pid < 0 || read(up[0], &cpu_ns, sizeof(cpu_ns)) != sizeof(cpu_ns)) {
		check(0, "cputime", "fork or the child's report: %s", strerror(errno));
		goto out;
	}
	m1 = mono();
	if (cpu >= 0 && stat_cpu(cpu, &c1, NULL) == 0 && wanted("proc-stat-busy")) {
		/* Over the child's run this CPU's line advances by the time
		 * passed, and its busy fields by at least the child's CPU time
		 * (more when this program or a kernel thread ran there too),
		 * counted in whole ticks: one at each end, one truncation per
		 * field. Each tick adds TICK_NSEC, shown in USER_HZ: the time
		 * whatever HZ (a kernel whose ticks come at another rate than
		 * 1e9 / TICK_NSEC fails it). */
		long long el = (m1 - m0) * user_hz / NSEC_PER_SEC,
			  busy = cpu_ns * user_hz / NSEC_PER_SEC;
		long long tol = c1.nonzero + 2 * tick_in(user_hz) + 1;

		check_free(
			llabs(c1.sum - c0.sum - el) <= tol && c1.busy - c0.busy >= busy - tol &&
				c1.busy - c0.busy <= el + tol,
			"proc-stat-busy", CPUTIME_FREE,
			"cpu%d line +%lld ticks in %.3f s, busy +%lld for %.3f s of CPU (want %lld "
			"+-%lld and %lld..%lld)",
			cpu, c1.sum - c0.sum, (m1 - m0) / 1e9, c1.busy - c0.busy, cpu_ns / 1e9, el,
			tol, busy - tol, el + tol);
	}
	/* The child's CPU time from here on is read with its own CPU clock
	 * once it sleeps in its read: what it reported may be short of what
	 * the kernel counts by then (with two vCPUs under -icount, a mode
	 * the tests no longer use, the vCPUs took turns on one host thread
	 * and stock 6.1 on arm64 charged the child 20 ms more by the time
	 * /proc was read, 70 ms more by its exit). The reference is a choice
	 * of clock, not a tolerance. */
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (int i = 0; i < 2000; i++) {
		char *st;

		if (read_text(path, buf, sizeof(buf)) <= 0)
			break;
		st = strrchr(buf, ')');
		if (st && st[1] == ' ' && st[2] == 'S')
			break;
		sleep_ns(NSEC_PER_MSEC);
	}
	{
		clockid_t cid;
		struct timespec ts;

		if (clock_getcpuclockid(pid, &cid) == 0 && clock_gettime(cid, &ts) == 0)
			cpu_ns = ts_ns(&ts);
	}
	if (buf[0]) {
		/* Fields 14 utime, 15 stime (each truncated to a tick) and 22
		 * starttime (CLOCK_BOOTTIME at fork, truncated); counted after
		 * the ")" ending field 2, the command, which may hold spaces. */
		char *p = strrchr(buf, ')');
		long long f[52] = { 0 };
		int n = 3;

		for (p = p ? p + 2 : buf; n < 52 && *p; n++) {
			char *q;

			f[n] = strtoll(p, &q, 10);
			if (q == p)
				f[n] = 0, q = strchr(p, ' ');
			if (!q)
				break;
			p = q + (*q == ' ');
		}
		if (wanted("proc-pid-stat")) {
			long long got = f[14] + f[15], want = cpu_ns * user_hz / NSEC_PER_SEC;

			check_free(got >= want - 2 && got <= want + 1, "proc-pid-stat-cputime",
				   "(CPU time scaled to the CPU clock: no jiffies in it)",
				   "utime %lld + stime %lld, CPU clock %.3f s: want %lld -2..+1",
				   f[14], f[15], cpu_ns / 1e9, want);
			check_free(f[22] >= boot0 * user_hz / NSEC_PER_SEC &&
					   f[22] <= boot1 * user_hz / NSEC_PER_SEC,
				   "proc-pid-stat-starttime", BOOTTIME_FREE,
				   "starttime %lld, forked at CLOCK_BOOTTIME %.3f..%.3f s", f[22],
				   boot0 / 1e9, boot1 / 1e9);
		}
	} else {
		check(0, "proc-pid-stat", "cannot read %s", path);
	}
	if (write(down[1], "x", 1) != 1)
		check(0, "cputime", "cannot tell the child to end");
	wait4(pid, NULL, 0, &ru);
	times(&t);
	if (wanted("times-cutime")) {
		/* The child's whole CPU time, its exit included, as wait4's
		 * rusage gives it in us: the same count (each of user and system
		 * truncated), so within two ticks, and never less than the child
		 * had when it slept. Judged by rusage, not by the clock read
		 * before the exit, which leaves the exit path out (with two
		 * vCPUs under -icount shift=auto, no longer used, it cost the
		 * arm64 guest 100 ms). */
		long long got = (long long)t.tms_cutime + t.tms_cstime,
			  ru_ns = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * NSEC_PER_SEC +
				  (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * NSEC_PER_USEC,
			  want = ru_ns * user_hz / NSEC_PER_SEC;

		check_free(
			got >= want - 2 && got <= want + 2 && ru_ns >= cpu_ns - 1000,
			"times-cutime", "(CPU time scaled to the CPU clock: no jiffies in it)",
			"tms_cutime %ld + tms_cstime %ld, rusage %.3f s (asleep %.3f s): want %lld "
			"+-2",
			(long)t.tms_cutime, (long)t.tms_cstime, ru_ns / 1e9, cpu_ns / 1e9, want);
		/* SIGCHLD's si_utime and si_stime, in clock_t too, but from the
		 * raw tick samples (task_cputime, not scaled to the CPU clock as
		 * times() and /proc are): each tick that finds the child running
		 * charges it TICK_NSEC. On the one CPU of -icount nothing else
		 * runs while the child spins (this program sleeps in read), so
		 * the ticks that sample it are its run time over TICK_NSEC, one
		 * more or less for where the run starts and ends: the rusage
		 * time within one tick (in USER_HZ, rounded up), and one
		 * truncation for each of si_utime, si_stime and the rusage
		 * time. Ticks at another rate than 1e9 / TICK_NSEC fail it (at
		 * 250 a second with the TICK_NSEC of 333: 3/4 of the time). */
		for (int i = 0; i < 100 && !chld_seen; i++)
			sleep_ns(NSEC_PER_MSEC);
		got = chld_utime + chld_stime;
		{
			long long tol = tick_in(user_hz) + 2;

			check_free(chld_seen && llabs(got - want) <= tol, "sigchld-cputime",
				   CPUTIME_FREE,
				   "%ssi_utime %ld + si_stime %ld, want %lld +-%lld (tick samples)",
				   chld_seen ? "" : "no SIGCHLD; ", (long)chld_utime,
				   (long)chld_stime, want, tol);
		}
	}
out:
	sigaction(SIGCHLD, &old, NULL);
	sched_setaffinity(0, sizeof(saved), &saved);
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
}

/* /proc/stat over a quiet sleep: every online CPU's line, and the "cpu"
 * line, advance by USER_HZ a second each. */
static void check_stat_sleep(void)
{
	struct cpuline a0, a1;
	int ncpu = 0;
	long long m0, m1, el, tol;

	if (!wanted("proc-stat-sleep"))
		return;
	if (stat_cpu(-1, &a0, &ncpu)) {
		check(0, "proc-stat-sleep", "no cpu line in /proc/stat");
		return;
	}
	m0 = mono();
	sleep_ns(2 * NSEC_PER_SEC);
	stat_cpu(-1, &a1, NULL);
	m1 = mono();
	el = (m1 - m0) * user_hz / NSEC_PER_SEC * ncpu;
	/* Idle time is exact (nohz's idle clock); busy time comes in whole
	 * ticks, the reading CPU's at each end and a few kernel threads'
	 * wakeups on the others: two ticks a CPU, and one truncation per
	 * field. */
	tol = a1.nonzero + (long long)ncpu * (2 * tick_in(user_hz) + 1);
	check_free(llabs(a1.sum - a0.sum - el) <= tol, "proc-stat-sleep", CPUTIME_FREE,
		   "cpu line +%lld ticks in %.3f s on %d CPUs, want %lld +-%lld", a1.sum - a0.sum,
		   (m1 - m0) / 1e9, ncpu, el, tol);
}

/* ---- the coarse clock steps by the tick ---- */

static void check_coarse_steps(void)
{
	long long last = clock_ns(CLOCK_MONOTONIC_COARSE), end = mono() + 300 * NSEC_PER_MSEC,
		  worst = 0, now;
	int steps = 0, bad = 0, ones = 0;
	long long bad_step = 0;

	if (!wanted("coarse-steps"))
		return;
	/* Spin (so the tick runs) until 40 steps or 0.3 s. Each step is a
	 * whole number k >= 1 of the timekeeper's interval, TICK_NSEC of
	 * clocksource cycles rounded to a cycle and kept right by the NTP
	 * error feedback: within 100 ppm and 20 ns a tick of k * TICK_NSEC.
	 * The smallest step must be one tick (k = 1), or a tick of 4 ms
	 * would pass as four of 1 ms. Not most steps: a spinning task sees
	 * every tick, but the timekeeper advances only by whole intervals,
	 * and when the tick comes a hair before an interval of the
	 * clocksource has passed it waits for the next (Debian's stock
	 * 6.12.118 cloud kernel under -icount at HZ 250: 37 steps of two
	 * ticks or more, one of one; the project's kernels: every step one tick). */
	while (steps < 40 && (now = mono()) < end) {
		long long c = clock_ns(CLOCK_MONOTONIC_COARSE), d, k, off;

		if (c == last)
			continue;
		d = c - last;
		last = c;
		k = (d + tick_ns / 2) / tick_ns;
		off = d - k * tick_ns;
		if (k < 1 || llabs(off) > k * (tick_ns / 10000 + 20)) {
			bad++;
			bad_step = d;
		}
		if (llabs(off) > llabs(worst))
			worst = off;
		ones += k == 1;
		steps++;
	}
	if (bad)
		check(0, "coarse-steps",
		      "%d of %d steps not a multiple of TICK_NSEC %lld (e.g. %lld ns)", bad, steps,
		      tick_ns, bad_step);
	else
		check(steps >= 2 && ones > 0, "coarse-steps",
		      "%d steps, %d of one TICK_NSEC %lld, each a multiple within %lld ns%s", steps,
		      ones, tick_ns, worst, ones > 0 ? "" : " (want the smallest of one)");
}

/* ---- timeouts ---- */

/* How a timeout expires: on an hrtimer with the task's timer slack, with
 * select's (the task's, or T / 1000 when more: select_estimate_accuracy
 * at nice 0), with none; or in jiffies, by one of stock's conversions. */
enum kind { SLACK_TASK, SLACK_SELECT, SLACK_NONE, JIFFIES_SOCK, JIFFIES_VTIME };

/* Set a wait up (a socket option, the tty's VTIME) before the clock starts;
 * 0 when done. */
typedef int (*prep_fn)(long long ns, void *ctx);
/* Wait ns with the mechanism: 0 when it timed out as it should, 1 when it
 * ended for another reason that is no fault (a send found room: fill
 * again and wait again), -1 on an error (errno). */
typedef int (*wait_fn)(long long ns, void *ctx);

static long long guard_ns(void)
{
	return tick_ns / 2 < 500 * NSEC_PER_USEC ? tick_ns / 2 : 500 * NSEC_PER_USEC;
}

/* Spin to just before a tick: the coarse clock steps at a tick, so wait
 * for a step, then until GUARD before the next one. The step is seen a
 * moment after the tick (the tick's own interrupt), so the wait starts
 * less than GUARD before the next tick, and its arming, some system call
 * instructions later, still comes before it (GUARD is 50 us at HZ
 * 10000: thousands of instructions under -icount). */
static void before_tick(void)
{
	long long c = clock_ns(CLOCK_MONOTONIC_COARSE), edge;

	while (clock_ns(CLOCK_MONOTONIC_COARSE) == c)
		;
	edge = mono();
	while (mono() < edge + tick_ns - guard_ns())
		;
}

/* The timer wheel's granularity, in jiffies, for a timer d jiffies ahead
 * (kernel/time/timer.c: LVL_START(n) = 63 << 3 (n - 1), LVL_GRAN(n) =
 * 8^n). */
static long long wheel_gran(long long d)
{
	long long start = 63, gran = 1;

	while (d >= start && gran < 512) {
		start <<= 3;
		gran <<= 3;
	}
	return gran;
}

/* The jiffies a timeout of ns becomes, by stock's conversion. */
static long long timeout_jiffies(enum kind kind, long long ns)
{
	if (kind == JIFFIES_VTIME) /* n_tty: (HZ / 10) * VTIME */
		return hz / 10 * (ns / (100 * NSEC_PER_MSEC));
	return sock_j(ns / NSEC_PER_USEC);
}

static void judge(const char *name, enum kind kind, prep_fn prep, wait_fn fn, void *ctx,
		  const long *list_ms, unsigned n)
{
	char vals[300] = "", why[200] = "", *p = vals;
	long long task_slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	int bad = 0;
	unsigned i;

	if (!wanted(name))
		return;
	for (i = 0; i < n; i++) {
		long long t = list_ms[i] * NSEC_PER_MSEC, t0 = 0, el = 0, lo, hi, slack = 0;
		int tries, rc = 1;

		if (kind == JIFFIES_SOCK || kind == JIFFIES_VTIME) {
			/* j ticks and GUARD at most of the one running when
			 * it starts, later by the wheel's granularity less one;
			 * then EXEC_NS. */
			long long j = timeout_jiffies(kind, t);

			lo = j * tick_ns;
			hi = (j + wheel_gran(j + 1) - 1) * tick_ns + guard_ns() + EXEC_NS;
		} else {
			/* T, then the slack, then EXEC_NS; a tick more when
			 * hrtimers expire at the tick (no high-resolution
			 * mode). */
			if (kind == SLACK_TASK)
				slack = task_slack;
			else if (kind == SLACK_SELECT)
				slack = t / 1000 > task_slack ? t / 1000 : task_slack;
			lo = t;
			hi = t + slack + EXEC_NS + HR_OTHER_NS + (hres ? 0 : tick_ns);
		}
		lo += demand_ns;
		hi += late_ns;
		for (tries = 0; tries < 5 && rc == 1; tries++) {
			if (prep && prep(t, ctx)) {
				rc = -1;
				break;
			}
			if (kind == JIFFIES_SOCK || kind == JIFFIES_VTIME)
				before_tick();
			t0 = mono();
			rc = fn(t, ctx);
			el = mono() - t0;
		}
		if (rc) {
			check(0, name, "%ld ms: %s", list_ms[i],
			      rc < 0 ? strerror(errno) : "never waited its time out");
			return;
		}
		p += snprintf(p, (size_t)(vals + sizeof(vals) - p), " %ld:%+.3f%s", list_ms[i],
			      ms(el - t), tries > 1 ? "(again)" : "");
		if ((el < lo || el > hi) && !bad) {
			snprintf(why, sizeof(why), "; %ld ms took %.3f ms, want %.3f..%.3f",
				 list_ms[i], ms(el), ms(lo), ms(hi));
			bad = 1;
		}
	}
	if (kind == JIFFIES_SOCK || kind == JIFFIES_VTIME || !hres)
		check(!bad, name, "late ms%s%s", vals, why);
	else
		check_free(!bad, name, "(an hrtimer in high-resolution mode: no tick in it)",
			   "late ms%s%s", vals, why);
}

static int w_nanosleep(long long ns, void *ctx)
{
	struct timespec ts = ns_ts(ns);

	(void)ctx;
	return nanosleep(&ts, NULL);
}

static int w_select(long long ns, void *ctx)
{
	struct timeval tv = { (time_t)(ns / NSEC_PER_SEC),
			      (suseconds_t)(ns % NSEC_PER_SEC / 1000) };

	(void)ctx;
	return select(0, NULL, NULL, NULL, &tv);
}

static int w_poll(long long ns, void *ctx)
{
	(void)ctx;
	return poll(NULL, 0, (int)(ns / NSEC_PER_MSEC));
}

static int w_ppoll(long long ns, void *ctx)
{
	struct timespec ts = ns_ts(ns);

	(void)ctx;
	return ppoll(NULL, 0, &ts, NULL);
}

static int w_epoll(long long ns, void *ctx)
{
	struct epoll_event ev;

	return epoll_wait(*(int *)ctx, &ev, 1, (int)(ns / NSEC_PER_MSEC));
}

static int w_futex(long long ns, void *ctx)
{
	struct timespec ts = ns_ts(ns);
	uint32_t *word = ctx;

	if (syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, *word, &ts, NULL, 0) == 0)
		return errno = EINTR, -1; /* woken: not a timeout */
	return errno == ETIMEDOUT ? 0 : -1;
}

static int w_timerfd(long long ns, void *ctx)
{
	struct itimerspec its = { { 0, 0 }, ns_ts(ns) };
	uint64_t n;
	int fd = *(int *)ctx;

	if (timerfd_settime(fd, 0, &its, NULL))
		return -1;
	return read(fd, &n, sizeof(n)) == sizeof(n) ? 0 : -1;
}

static int w_itimer(long long ns, void *ctx)
{
	struct itimerval it = {
		{ 0, 0 }, { (time_t)(ns / NSEC_PER_SEC), (suseconds_t)(ns % NSEC_PER_SEC / 1000) }
	};
	sigset_t set;

	(void)ctx;
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	if (setitimer(ITIMER_REAL, &it, NULL))
		return -1;
	return sigwaitinfo(&set, NULL) == SIGALRM ? 0 : -1;
}

static int w_alarm(long long ns, void *ctx)
{
	sigset_t set;

	(void)ctx;
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	alarm((unsigned)(ns / NSEC_PER_SEC));
	return sigwaitinfo(&set, NULL) == SIGALRM ? 0 : -1;
}

static int w_sigtimedwait(long long ns, void *ctx)
{
	struct timespec ts = ns_ts(ns);
	sigset_t set;

	(void)ctx;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	return sigtimedwait(&set, NULL, &ts) < 0 && errno == EAGAIN ? 0 : -1;
}

static int w_cond(long long ns, void *ctx)
{
	static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	struct timespec ts = ns_ts(clock_ns(CLOCK_REALTIME) + ns);
	int rc;

	(void)ctx;
	pthread_mutex_lock(&m);
	do
		rc = pthread_cond_timedwait(&c, &m, &ts);
	while (rc == 0);
	pthread_mutex_unlock(&m);
	return rc == ETIMEDOUT ? 0 : (errno = rc, -1);
}

static int w_mq(long long ns, void *ctx)
{
	struct timespec ts = ns_ts(clock_ns(CLOCK_REALTIME) + ns);
	char msg[64];

	return mq_timedreceive(*(mqd_t *)ctx, msg, sizeof(msg), NULL, &ts) < 0 && errno == ETIMEDOUT
		       ? 0
		       : -1;
}

static int set_timeo(int fd, int opt, long long ns)
{
	struct timeval tv = { (time_t)(ns / NSEC_PER_SEC),
			      (suseconds_t)(ns % NSEC_PER_SEC / 1000) };

	return setsockopt(fd, SOL_SOCKET, opt, &tv, sizeof(tv));
}

static int p_rcvtimeo(long long ns, void *ctx)
{
	return set_timeo(*(int *)ctx, SO_RCVTIMEO, ns);
}

static int w_rcvtimeo(long long ns, void *ctx)
{
	char b;

	(void)ns;
	return recv(*(int *)ctx, &b, 1, 0) < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? 0
											    : -1;
}

/* Fill a stream socket's send buffer (the peer reads nothing). */
static void fill(int fd)
{
	static char chunk[4096];

	while (send(fd, chunk, sizeof(chunk), MSG_DONTWAIT) > 0)
		;
	while (send(fd, chunk, 1, MSG_DONTWAIT) > 0)
		;
}

static int p_sndtimeo(long long ns, void *ctx)
{
	int fd = *(int *)ctx;

	if (set_timeo(fd, SO_SNDTIMEO, ns))
		return -1;
	fill(fd);
	return 0;
}

/* Space may open while TCP moves data to the peer's receive queue: a send
 * that sent is no timeout, and the judge fills again and waits again. */
static int w_sndtimeo(long long ns, void *ctx)
{
	(void)ns;
	if (send(*(int *)ctx, "x", 1, 0) < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
	return 1;
}

/* A tty read with VMIN 0 and VTIME n: n tenths of a second, kept in
 * jiffies by n_tty. */
static int p_vtime(long long ns, void *ctx)
{
	struct termios tio;
	int fd = *(int *)ctx;

	if (tcgetattr(fd, &tio))
		return -1;
	cfmakeraw(&tio);
	tio.c_cc[VMIN] = 0;
	tio.c_cc[VTIME] = (cc_t)(ns / (100 * NSEC_PER_MSEC));
	return tcsetattr(fd, TCSANOW, &tio);
}

static int w_vtime(long long ns, void *ctx)
{
	char b;

	(void)ns;
	errno = 0;
	return read(*(int *)ctx, &b, 1) == 0 ? 0 : (errno = errno ? errno : EIO, -1);
}

static void check_timeouts(void)
{
	static const long vtimes_ms[] = { 100, 200 };
	static const long alarm_ms[] = { 1000 };
	uint32_t word = 0;
	int fd, a, b, sv[2];
	sigset_t set;

	judge("timeout-nanosleep", SLACK_TASK, NULL, w_nanosleep, NULL, timeouts_ms, NTIMEOUTS);
	judge("timeout-select", SLACK_SELECT, NULL, w_select, NULL, timeouts_ms, NTIMEOUTS);
	judge("timeout-poll", SLACK_SELECT, NULL, w_poll, NULL, timeouts_ms, NTIMEOUTS);
	judge("timeout-ppoll", SLACK_SELECT, NULL, w_ppoll, NULL, timeouts_ms, NTIMEOUTS);
	if ((fd = epoll_create1(0)) >= 0) {
		judge("timeout-epoll", SLACK_SELECT, NULL, w_epoll, &fd, timeouts_ms, NTIMEOUTS);
		close(fd);
	} else if (wanted("timeout-epoll")) {
		skip("timeout-epoll", "epoll_create1: %s", strerror(errno));
	}
	judge("timeout-futex", SLACK_TASK, NULL, w_futex, &word, timeouts_ms, NTIMEOUTS);
	judge("timeout-cond", SLACK_TASK, NULL, w_cond, NULL, timeouts_ms, NTIMEOUTS);
	if ((fd = timerfd_create(CLOCK_MONOTONIC, 0)) >= 0) {
		judge("timeout-timerfd", SLACK_NONE, NULL, w_timerfd, &fd, timeouts_ms, NTIMEOUTS);
		close(fd);
	} else if (wanted("timeout-timerfd")) {
		skip("timeout-timerfd", "timerfd_create: %s", strerror(errno));
	}
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	judge("timeout-itimer", SLACK_NONE, NULL, w_itimer, NULL, timeouts_ms, NTIMEOUTS);
	judge("timeout-alarm", SLACK_NONE, NULL, w_alarm, NULL, alarm_ms, 1);
	judge("timeout-sigtimedwait", SLACK_TASK, NULL, w_sigtimedwait, NULL, timeouts_ms,
	      NTIMEOUTS);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	{
		struct mq_attr attr = { .mq_maxmsg = 1, .mq_msgsize = 64 };
		mqd_t q;

		mq_unlink("/hzcheck");
		q = mq_open("/hzcheck", O_RDWR | O_CREAT | O_EXCL, 0600, &attr);
		if (q != (mqd_t)-1) {
			judge("timeout-mq", SLACK_NONE, NULL, w_mq, &q, timeouts_ms, NTIMEOUTS);
			mq_close(q);
			mq_unlink("/hzcheck");
		} else if (wanted("timeout-mq")) {
			skip("timeout-mq", "mq_open: %s (no POSIX message queues)",
			     strerror(errno));
		}
	}

	/* The jiffies ones. */
	if ((fd = socket(AF_INET, SOCK_DGRAM, 0)) >= 0) {
		struct sockaddr_in sa = { .sin_family = AF_INET,
					  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };

		if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			judge("timeout-rcvtimeo-udp", JIFFIES_SOCK, p_rcvtimeo, w_rcvtimeo, &fd,
			      timeouts_ms, NTIMEOUTS);
		else
			check(0, "timeout-rcvtimeo-udp", "bind 127.0.0.1: %s", strerror(errno));
		close(fd);
	} else if (wanted("timeout-rcvtimeo-udp")) {
		skip("timeout-rcvtimeo-udp", "no UDP socket: %s", strerror(errno));
	}
	/* A UDP send on loopback never waits (the loopback device releases the
	 * socket's send buffer at once), so SO_SNDTIMEO is judged on stream
	 * sockets whose peer reads nothing: AF_UNIX, and TCP. */
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0) {
		int small = 4096;

		setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof(small));
		judge("timeout-sndtimeo-unix", JIFFIES_SOCK, p_sndtimeo, w_sndtimeo, &sv[0],
		      timeouts_ms, NTIMEOUTS);
		judge("timeout-rcvtimeo-unix", JIFFIES_SOCK, p_rcvtimeo, w_rcvtimeo, &sv[0],
		      timeouts_ms, NTIMEOUTS);
		close(sv[0]);
		close(sv[1]);
	} else if (wanted("timeout-sndtimeo-unix")) {
		skip("timeout-sndtimeo-unix", "socketpair(AF_UNIX): %s", strerror(errno));
	}
	if (tcp_pair(&a, &b) == 0) {
		int small = 4096;

		setsockopt(a, SOL_SOCKET, SO_SNDBUF, &small, sizeof(small));
		setsockopt(b, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
		judge("timeout-sndtimeo-tcp", JIFFIES_SOCK, p_sndtimeo, w_sndtimeo, &a, timeouts_ms,
		      NTIMEOUTS);
		close(a);
		close(b);
	} else if (wanted("timeout-sndtimeo-tcp")) {
		skip("timeout-sndtimeo-tcp", "no loopback TCP connection: %s", strerror(errno));
	}
	if (wanted("timeout-vtime")) {
		int m = posix_openpt(O_RDWR | O_NOCTTY), s = -1;

		if (m >= 0 && grantpt(m) == 0 && unlockpt(m) == 0 && ptsname(m))
			s = open(ptsname(m), O_RDWR | O_NOCTTY);
		if (s >= 0)
			judge("timeout-vtime", JIFFIES_VTIME, p_vtime, w_vtime, &s, vtimes_ms, 2);
		else
			skip("timeout-vtime", "no pty (/dev/ptmx and /dev/pts: %s)",
			     strerror(errno));
		if (s >= 0)
			close(s);
		if (m >= 0)
			close(m);
	}
}

/* ---- the rates over the whole run ---- */

static void check_rates(const struct sample *s0, const struct sample *s1, int tl)
{
	long long el = s1->mono - s0->mono;

	if (wanted("times-rate")) {
		/* times() returns jiffies in USER_HZ (jiffies_to_clock_t, by
		 * TICK_NSEC): 100 a second whatever HZ, as long as the ticks
		 * come 1e9 / TICK_NSEC a second; each end is up to a jiffy
		 * behind (jiffies move at the tick) and truncated once. */
		long long got = (long long)(s1->times - s0->times),
			  want = el * user_hz / NSEC_PER_SEC;
		long long tol = tick_in(user_hz) + 2;

		check_free(llabs(got - want) <= tol, "times-rate", CPUTIME_FREE,
			   "times() +%lld in %.3f s: %.2f/s, want %lld +-%lld (%ld/s)", got,
			   el / 1e9, (double)got * NSEC_PER_SEC / el, want, tol, user_hz);
	}
	if (!wanted("jiffies-rate"))
		return;
	if (tl) {
		skip("jiffies-rate", "no 'now at' and 'jiffies:' in /proc/timer_list");
		return;
	}
	{
		/* jiffies = (ktime - base) / TICK_NSEC when current; a reading
		 * may be a jiffy behind (before the tick's update) and the
		 * jiffies line is printed up to tl_read_ns after "now". */
		long long dn = s1->tl_now - s0->tl_now, dj = s1->tl_jiffies - s0->tl_jiffies;
		long long lo = (dn - s0->tl_read_ns) / tick_ns - 2,
			  hi = (dn + s1->tl_read_ns) / tick_ns + 2;
		double rate = (double)dj * NSEC_PER_SEC / dn;

		check(dj >= lo && dj <= hi, "jiffies-rate",
		      "+%lld jiffies in %.3f s: %.4f/s, want 1e9/TICK_NSEC = %.4f/s (%lld..%lld "
		      "jiffies, +-%.0f ppm)",
		      dj, dn / 1e9, rate, (double)NSEC_PER_SEC / tick_ns, lo, hi,
		      (hi - lo) / 2.0 / (dj ? dj : 1) * 1e6);
	}
}

static void usage(void)
{
	fprintf(stderr,
		"usage: hzcheck --hz N [--user-hz U] [--demand-ns NS] [--late-ms MS] [--no-write] "
		"[--only WORD[,WORD...]]\n");
	exit(2);
}

static long num_arg(const char *opt, const char *v, long lo, long hi)
{
	char *end;
	long n;

	if (!v)
		usage();
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || *end || end == v || n < lo || n > hi) {
		fprintf(stderr, "hzcheck: %s %s: not a number in %ld..%ld\n", opt, v, lo, hi);
		exit(2);
	}
	return n;
}

int main(int argc, char **argv)
{
	struct sample s0, s1;
	int tl, i;
	long long min_run = 4 * NSEC_PER_SEC;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--hz"))
			hz = num_arg(a, v, 1, 100000), i++;
		else if (!strcmp(a, "--user-hz"))
			user_hz = num_arg(a, v, 1, 100000), i++;
		else if (!strcmp(a, "--demand-ns"))
			demand_ns = num_arg(a, v, 0, 10 * NSEC_PER_SEC), i++;
		else if (!strcmp(a, "--late-ms"))
			late_ns = num_arg(a, v, 0, 100000) * NSEC_PER_MSEC, i++;
		else if (!strcmp(a, "--no-write"))
			no_write = 1;
		else if (!strcmp(a, "--only") && v)
			only = v, i++;
		else
			usage();
	}
	if (!hz) {
		fprintf(stderr, "hzcheck: --hz N is required (the HZ the kernel booted with)\n");
		exit(2);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* Linux's TICK_NSEC: (NSEC_PER_SEC + HZ / 2) / HZ. */
	tick_ns = (NSEC_PER_SEC + hz / 2) / hz;
	{
		struct timespec ts;

		hres = clock_getres(CLOCK_MONOTONIC, &ts) == 0 && ts_ns(&ts) == 1;
	}
	out("hz %ld, TICK_NSEC %lld, USER_HZ %ld, %s timers, EXEC_NS %lld, late %lld ns", hz,
	    tick_ns, user_hz, hres ? "high-resolution" : "tick-resolution", EXEC_NS, late_ns);

	tl = take_sample(&s0);
	check_clktck();
	check_getres();
	check_adjtimex();
	check_uptime_sysinfo();
	check_btime();
	check_sysctls();
	check_sockopts();
	check_tcp_timers();
	check_coarse_steps();
	check_cputime();
	check_timeouts();
	check_stat_sleep();
	/* The rates want a few seconds: the checks above take that much at
	 * HZ 1000; sleep the rest when they took less. */
	if ((wanted("times-rate") || wanted("jiffies-rate")) && mono() - s0.mono < min_run)
		sleep_ns(min_run - (mono() - s0.mono));
	tl |= take_sample(&s1);
	check_rates(&s0, &s1, tl);

	out("%d ok, %d failed, %d skipped", oks, failures, skips);
	return failures ? 1 : 0;
}
