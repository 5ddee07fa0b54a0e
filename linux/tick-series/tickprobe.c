// SPDX-License-Identifier: MIT
/*
 * tickprobe: what the tick's rate does, seen from user space (issue 41).
 * Runs in the guest, one CPU; every figure against CLOCK_MONOTONIC.
 *
 *   busy   a CPU-bound loop of 2 s: timer interrupts/s (/proc/interrupts
 *          LOC, the local APIC timer), jiffies/s (/proc/timer_list), the
 *          CPU time /proc/stat charged over the time that passed, and the
 *          loop's own rate (under -icount, what the kernel leaves it)
 *   idle   a 2 s nanosleep: the same counts on an idle CPU
 *   wait   a timeout of T ms, N times, by SO_RCVTIMEO (a jiffies timer),
 *          nanosleep and poll (hrtimers), with the CPU otherwise idle or
 *          with a CPU-bound child running: min/p50/p99/max of what it
 *          really lasted, and how many ended before T
 *   timers eight processes each waiting in a loop on SO_RCVTIMEO (jiffies
 *          timers of 3, 7, 11, 17, 23, 31, 50 and 97 ms), the CPU
 *          otherwise idle, 4 s: the timeouts that expired a second and the
 *          timer interrupts (LOC) a second, i.e. the CPU's wakeups; fewer
 *          interrupts than timeouts is the wheel coalescing them
 *
 *   rr     two SCHED_RR processes spinning on the one CPU, 2 s: how long
 *          each runs before the other takes the CPU (the slice, which
 *          sched_rr_get_interval() says is 100 ms at every HZ)
 *   rttime a SCHED_FIFO process spinning under RLIMIT_RTTIME's soft limit
 *          of 200 ms: the CPU time it had used when SIGXCPU came
 *
 * "tickprobe spin MS" only spins MS ms (for a trace of a busy CPU);
 * "tickprobe rt" the rr and rttime phases alone;
 * "tickprobe timers" runs the timers phase alone; "tickprobe wait KIND MS
 * BUSY N" one waits phase, each wait marked in the trace (trace_marker).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The first number after a line's label that begins with key */
static long long read_key(const char *path, const char *key, int col_sum)
{
	char line[4096];
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;

		while (*p == ' ')
			p++;
		if (strncmp(p, key, strlen(key)))
			continue;
		p += strlen(key);
		v = 0;
		for (;;) {
			long long x = strtoll(p, &end, 10);

			if (end == p)
				break;
			v += x;
			p = end;
			if (!col_sum)
				break;
		}
		break;
	}
	fclose(f);
	return v;
}

/* /proc/stat's cpu line: busy (user nice system irq softirq) and idle */
static void read_stat(long long *busy, long long *idle)
{
	long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");

	*busy = *idle = -1;
	if (!f)
		return;
	if (fscanf(f, "cpu %lld %lld %lld %lld %lld %lld %lld %lld", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]) == 8) {
		*busy = v[0] + v[1] + v[2] + v[5] + v[6];
		*idle = v[3] + v[4];
	}
	fclose(f);
}

struct sample {
	long long t, loc, jif, busy, idle, cpu;
};

static void sample(struct sample *s)
{
	s->loc = read_key("/proc/interrupts", "LOC:", 1);
	s->jif = read_key("/proc/timer_list", "jiffies:", 0);
	read_stat(&s->busy, &s->idle);
	s->cpu = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	s->t = now_ns(CLOCK_MONOTONIC);
}

static void report(const char *what, struct sample *a, struct sample *b)
{
	double s = (b->t - a->t) / 1e9;
	long hz = sysconf(_SC_CLK_TCK);

	printf("tickprobe: %s elapsed %.3f s: LOC %.1f/s, jiffies %.1f/s, /proc/stat busy %.3f s "
	       "idle %.3f s (busy+idle %.3f of elapsed), own CPU time %.3f s\n",
	       what, s, (b->loc - a->loc) / s, (b->jif - a->jif) / s,
	       (double)(b->busy - a->busy) / hz, (double)(b->idle - a->idle) / hz,
	       (double)(b->busy - a->busy + b->idle - a->idle) / hz / s, (b->cpu - a->cpu) / 1e9);
}

static volatile unsigned long sink;

static void spin_ns(long long ns)
{
	long long end = now_ns(CLOCK_MONOTONIC) + ns;

	while (now_ns(CLOCK_MONOTONIC) < end)
		sink++;
}

static void busy_idle(void)
{
	struct sample a, b;
	struct timespec two = { 2, 0 };

	long long end, loops = 0;
	int i;

	sample(&a);
	/* The CPU-bound loop: what the ticks leave it, in loops a second */
	end = a.t + 2000000000LL;
	do {
		for (i = 0; i < 4096; i++)
			sink++;
		loops += 4096;
	} while (now_ns(CLOCK_MONOTONIC) < end);
	sample(&b);
	report("busy", &a, &b);
	printf("tickprobe: busy loop %.4f M/s\n", loops / ((b.t - a.t) / 1e9) / 1e6);
	sample(&a);
	nanosleep(&two, NULL);
	sample(&b);
	report("idle", &a, &b);
}

static int cmp(const void *x, const void *y)
{
	long long a = *(const long long *)x, b = *(const long long *)y;

	return a < b ? -1 : a > b;
}

/* One wait of ms by kind; its length in ns */
static long long wait_once(const char *kind, int ms, int fd)
{
	long long t0 = now_ns(CLOCK_MONOTONIC);
	char c;

	if (!strcmp(kind, "rcvtimeo")) {
		if (recv(fd, &c, 1, 0) >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
			perror("recv");
	} else if (!strcmp(kind, "nanosleep")) {
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

		nanosleep(&ts, NULL);
	} else {
		poll(NULL, 0, ms);
	}
	return now_ns(CLOCK_MONOTONIC) - t0;
}

/* With a trace on (ticktrace): marks in it around each wait */
static int mark_fd = -1;

static void mark(const char *what, long long ns)
{
	char buf[64];
	int len;

	if (mark_fd < 0)
		return;
	len = snprintf(buf, sizeof(buf), "tickprobe %s %lld\n", what, ns);
	if (write(mark_fd, buf, len) != len)
		mark_fd = -1;
}

static void waits(const char *kind, int ms, int n, int busy)
{
	long long *d = calloc(n, sizeof(*d));
	int sv[2], i, early = 0;
	pid_t child = -1;

	if (!d || socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		exit(1);
	if (!strcmp(kind, "rcvtimeo")) {
		struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

		setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	if (busy) {
		child = fork();
		if (child == 0)
			for (;;)
				sink++;
	}
	srand(41 + ms);
	for (i = 0; i < n; i++) {
		/* A random phase against the tick: up to 10 ms of running */
		spin_ns(rand() % 10000000);
		mark("wait", ms);
		d[i] = wait_once(kind, ms, sv[0]);
		mark("waited", d[i]);
		if (d[i] < ms * 1000000LL)
			early++;
	}
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	qsort(d, n, sizeof(*d), cmp);
	printf("tickprobe: wait %s %d ms %s n %d: min %.3f p50 %.3f p99 %.3f max %.3f ms, early "
	       "%d\n",
	       kind, ms, busy ? "busy" : "idle", n, d[0] / 1e6, d[n / 2] / 1e6,
	       d[(n * 99) / 100] / 1e6, d[n - 1] / 1e6, early);
	close(sv[0]);
	close(sv[1]);
	free(d);
}

/* The timers phase: eight waiting processes, the parent asleep */
static void timers(void)
{
	static const int period[] = { 3, 7, 11, 17, 23, 31, 50, 97 };
	const int n = sizeof(period) / sizeof(period[0]);
	struct timespec four = { 4, 0 };
	struct sample a, b;
	int pipefd[2], i;
	pid_t pid[8];
	long long total = 0, c;

	if (pipe(pipefd))
		exit(1);
	for (i = 0; i < n; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			struct timeval tv = { 0, period[i] * 1000 };
			long long count = 0, end;
			int sv[2];
			char ch;

			if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
				_exit(1);
			setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
			/* Settle, then count for as long as the parent sleeps */
			end = now_ns(CLOCK_MONOTONIC) + 4500000000LL;
			while (now_ns(CLOCK_MONOTONIC) < end) {
				if (recv(sv[0], &ch, 1, 0) < 0)
					count++;
			}
			if (write(pipefd[1], &count, sizeof(count)) != sizeof(count))
				_exit(1);
			_exit(0);
		}
	}
	nanosleep(&(struct timespec){ 0, 200000000 }, NULL);
	sample(&a);
	nanosleep(&four, NULL);
	sample(&b);
	for (i = 0; i < n; i++) {
		if (read(pipefd[0], &c, sizeof(c)) == sizeof(c))
			total += c;
		waitpid(pid[i], NULL, 0);
	}
	close(pipefd[0]);
	close(pipefd[1]);
	/* The children counted 4.5 s (0.2 s before the sample, 0.3 after) */
	printf("tickprobe: timers 8 waiting (3..97 ms): timeouts %.1f/s, LOC %.1f/s, jiffies "
	       "%.1f/s\n",
	       total / 4.5, (b.loc - a.loc) / ((b.t - a.t) / 1e9),
	       (b.jif - a.jif) / ((b.t - a.t) / 1e9));
}

/*
 * One of rr()'s spinners: runs until end, a gap of more than 1 ms between
 * two reads of the clock ending a run (the other spinner had the CPU);
 * writes the median of its whole runs (the first and the last are cut
 * by the start and the end) and their count to fd.
 */
static void rr_spinner(long long end, int fd)
{
	long long runs[256], start, last, t, out[2] = { 0, 0 };
	int n = 0;

	if (sched_setscheduler(0, SCHED_RR, &(struct sched_param){ .sched_priority = 1 }))
		_exit(1);
	start = last = now_ns(CLOCK_MONOTONIC);
	while ((t = now_ns(CLOCK_MONOTONIC)) < end) {
		if (t - last > 1000000) {
			if (n < 256)
				runs[n++] = last - start;
			start = t;
		}
		last = t;
	}
	if (n > 1) {
		qsort(runs + 1, n - 1, sizeof(runs[0]), cmp);
		out[0] = runs[1 + (n - 1) / 2];
		out[1] = n - 1;
	}
	if (write(fd, out, sizeof(out)) != sizeof(out))
		_exit(1);
	_exit(0);
}

/*
 * The rr phase. The parent runs at SCHED_RR priority 2 while it forks, so
 * that neither spinner runs before both exist; each then drops to
 * priority 1 and they take turns, a slice each.
 */
static void rr(void)
{
	struct sched_param hi = { .sched_priority = 2 };
	long long end = now_ns(CLOCK_MONOTONIC) + 2000000000LL, r[2][2] = { { 0 } };
	struct timespec iv = { 0, 0 };
	cpu_set_t all, one;
	int pipefd[2], i;
	pid_t pid[2];

	/* Both on one CPU, whatever the machine has */
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	if (pipe(pipefd) || sched_getaffinity(0, sizeof(all), &all) ||
	    sched_setaffinity(0, sizeof(one), &one) || sched_setscheduler(0, SCHED_RR, &hi)) {
		printf("tickprobe: rr: cannot run SCHED_RR\n");
		return;
	}
	sched_rr_get_interval(0, &iv);
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		if (pid[i] == 0)
			rr_spinner(end, pipefd[1]);
	}
	for (i = 0; i < 2; i++) {
		if (read(pipefd[0], r[i], sizeof(r[i])) != sizeof(r[i]))
			r[i][1] = 0;
		waitpid(pid[i], NULL, 0);
	}
	sched_setscheduler(0, SCHED_OTHER, &(struct sched_param){ .sched_priority = 0 });
	sched_setaffinity(0, sizeof(all), &all);
	close(pipefd[0]);
	close(pipefd[1]);
	printf("tickprobe: rr slice p50 %.1f and %.1f ms (%lld and %lld runs), "
	       "sched_rr_get_interval %.1f ms\n",
	       r[0][0] / 1e6, r[1][0] / 1e6, r[0][1], r[1][1], iv.tv_nsec / 1e6 + iv.tv_sec * 1e3);
}

static int rttime_fd = -1;

static void on_sigxcpu(int sig)
{
	long long cpu = now_ns(CLOCK_THREAD_CPUTIME_ID);

	(void)sig;
	if (write(rttime_fd, &cpu, sizeof(cpu)) != sizeof(cpu))
		_exit(1);
	_exit(0);
}

/*
 * The rttime phase: RLIMIT_RTTIME counts the CPU time a real-time task
 * uses without sleeping; at the soft limit (200 ms) it gets SIGXCPU.
 * The child gives up after 5 s of CPU time (the hard limit would kill it
 * at 6 s).
 */
static void rttime(void)
{
	struct rlimit rl = { 200000, 6000000 };
	int pipefd[2];
	long long cpu = -1;
	pid_t pid;

	if (pipe(pipefd))
		exit(1);
	pid = fork();
	if (pid == 0) {
		rttime_fd = pipefd[1];
		signal(SIGXCPU, on_sigxcpu);
		if (setrlimit(RLIMIT_RTTIME, &rl) ||
		    sched_setscheduler(0, SCHED_FIFO, &(struct sched_param){ .sched_priority = 1 }))
			_exit(1);
		while (now_ns(CLOCK_THREAD_CPUTIME_ID) < 5000000000LL)
			sink++;
		_exit(0);
	}
	close(pipefd[1]);
	if (read(pipefd[0], &cpu, sizeof(cpu)) != sizeof(cpu))
		cpu = -1;
	waitpid(pid, NULL, 0);
	close(pipefd[0]);
	if (cpu < 0)
		printf("tickprobe: rttime soft 200 ms: no SIGXCPU in 5 s of CPU time\n");
	else
		printf("tickprobe: rttime soft 200 ms: SIGXCPU after %.1f ms of CPU time\n",
		       cpu / 1e6);
}

int main(int argc, char **argv)
{
	static const char *const kinds[] = { "rcvtimeo", "nanosleep", "poll" };
	int n = argc > 1 ? atoi(argv[1]) : 100;
	unsigned int k;
	int busy;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 2 && !strcmp(argv[1], "spin")) {
		spin_ns(atoll(argv[2]) * 1000000LL);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "timers")) {
		timers();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "rt")) {
		rr();
		rttime();
		return 0;
	}
	/* tickprobe wait KIND MS BUSY N: one waits phase, marked in a trace */
	if (argc > 5 && !strcmp(argv[1], "wait")) {
		mark_fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
		waits(argv[2], atoi(argv[3]), atoi(argv[5]), atoi(argv[4]));
		return 0;
	}
	busy_idle();
	timers();
	rr();
	rttime();
	for (busy = 0; busy < 2; busy++)
		for (k = 0; k < 3; k++)
			waits(kinds[k], 50, n, busy);
	for (busy = 0; busy < 2; busy++)
		waits("rcvtimeo", 3, n, busy);
	printf("tickprobe: done\n");
	return 0;
}
