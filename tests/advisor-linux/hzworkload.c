// SPDX-License-Identifier: MIT
/*
 * hzworkload: the shapes of real programs' timers, for validating
 * hzadvise on Linux itself (issue 30, item 3). Each shape is one process
 * with its own name (comm), run for the given number of seconds:
 *
 *   hzw-frame    a 60 Hz frame timer: clock_nanosleep(TIMER_ABSTIME) to
 *                each frame's deadline, 300 us of work per frame (an
 *                hrtimer: its wakeups do not depend on HZ)
 *   hzw-udp      a UDP service waiting in recv() with SO_RCVTIMEO 1 ms
 *                (a jiffies timer: schedule_timeout(), so the wait is
 *                1-2 ticks, whatever HZ); a datagram arrives every 25 to
 *                75 ms, 50 on average
 *   hzw-daemon1  a daemon ticking once a second (nanosleep, an hrtimer)
 *   hzw-daemon2  a daemon waiting 2 s in recv() with SO_RCVTIMEO (a jiffies
 *                timer far enough ahead for Linux's wheel level 1 or 2)
 *   hzw-daemon3  a daemon polling with a 5 s poll() timeout (an hrtimer)
 *   hzw-loop     an event loop: epoll_wait() with short timeouts of 1, 2,
 *                3, 5 and 8 ms in turn, as an asyncio loop's call_later
 *                makes them (hrtimers with the default 50 us slack)
 *   hzw-cpu      a CPU-bound job: 80 ms of work, then 20 ms of sleep, over
 *                and over (a busy CPU's tick runs at HZ; the sleeps let the
 *                tick stop and start again)
 *
 * The datagrams of hzw-udp come from the parent (comm hzworkload), which
 * sends one every 25 to 75 ms (clock_nanosleep to each) and otherwise
 * waits.
 *
 *	hzworkload [-t SECONDS] [SHAPE...]   (default 10 s, every shape)
 *
 * SHAPE is frame, udp, daemons, loop or cpu. Each process prints one line
 * when it ends: "hzworkload: NAME wakeups=N seconds=S" (N: the waits it
 * made); the parent then "hzworkload: done". Exit status 0, or 1 with one
 * line naming what failed. Static, for the Linux port's initramfs
 * (tests/advisor-linux/guest-record.sh runs it under ftrace).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NS_PER_SEC 1000000000LL

static long long deadline_ns;

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * NS_PER_SEC + t.tv_nsec;
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("hzworkload: FAILED: ", stdout);
	vprintf(fmt, ap);
	va_end(ap);
	fputs("\n", stdout);
	fflush(stdout);
	exit(1);
}

static volatile unsigned long spun;

static void spin_ns(long long ns)
{
	long long end = now_ns() + ns;

	while (now_ns() < end)
		for (int i = 0; i < 200; i++)
			spun += (unsigned long)i;
}

static void done(const char *name, long long waits, long long t0)
{
	printf("hzworkload: %s wakeups=%lld seconds=%.3f\n", name, waits,
	       (double)(now_ns() - t0) / NS_PER_SEC);
	fflush(stdout);
	exit(0);
}

static void to_ts(long long ns, struct timespec *t)
{
	t->tv_sec = (time_t)(ns / NS_PER_SEC);
	t->tv_nsec = (long)(ns % NS_PER_SEC);
}

static void frame(void)
{
	long long t0 = now_ns(), next = t0, n = 0;
	const long long period = NS_PER_SEC / 60;

	while (now_ns() < deadline_ns) {
		struct timespec t;

		next += period;
		to_ts(next, &t);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
			;
		n++;
		spin_ns(300000);
	}
	done("hzw-frame", n, t0);
}

static int udp_socket(unsigned short *port, long timeout_us)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	struct timeval tv = { .tv_sec = timeout_us / 1000000, .tv_usec = timeout_us % 1000000 };
	socklen_t len = sizeof(a);
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(s, (struct sockaddr *)&a, &len))
		die("a UDP socket on 127.0.0.1: %s (is lo up?)", strerror(errno));
	if (setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		die("SO_RCVTIMEO: %s", strerror(errno));
	*port = ntohs(a.sin_port);
	return s;
}

/* recv() with SO_RCVTIMEO until the deadline: timeouts and datagrams both count. */
static void udp_wait(int s, const char *name)
{
	long long t0 = now_ns(), n = 0;
	char buf[64];

	while (now_ns() < deadline_ns) {
		ssize_t r = recv(s, buf, sizeof(buf), 0);

		if (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			die("%s: recv: %s", name, strerror(errno));
		n++;
	}
	done(name, n, t0);
}

static void sleep_loop(const char *name, long long period)
{
	long long t0 = now_ns(), n = 0;

	while (now_ns() < deadline_ns) {
		struct timespec t;

		to_ts(period, &t);
		nanosleep(&t, NULL);
		n++;
		spin_ns(100000);
	}
	done(name, n, t0);
}

static void poll_loop(const char *name, int timeout_ms)
{
	long long t0 = now_ns(), n = 0;
	int fd = eventfd(0, 0);
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (fd < 0)
		die("eventfd: %s", strerror(errno));
	while (now_ns() < deadline_ns) {
		long long left_ms = (deadline_ns - now_ns()) / 1000000 + 1;

		/* The last wait ends with the run, not up to timeout_ms after it. */
		poll(&p, 1, left_ms < timeout_ms ? (int)left_ms : timeout_ms);
		n++;
		spin_ns(100000);
	}
	done(name, n, t0);
}

static void event_loop(void)
{
	static const int timeouts_ms[] = { 1, 2, 3, 5, 8 };
	long long t0 = now_ns(), n = 0;
	int ep = epoll_create1(0), fd = eventfd(0, 0);
	struct epoll_event ev = { .events = EPOLLIN }, out;

	if (ep < 0 || fd < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev))
		die("epoll: %s", strerror(errno));
	while (now_ns() < deadline_ns) {
		epoll_wait(ep, &out, 1, timeouts_ms[n % 5]);
		n++;
		spin_ns(50000);
	}
	done("hzw-loop", n, t0);
}

static void cpu_job(void)
{
	long long t0 = now_ns(), n = 0;

	while (now_ns() < deadline_ns) {
		struct timespec t = { 0, 20000000 };

		spin_ns(80000000);
		nanosleep(&t, NULL);
		n++;
	}
	done("hzw-cpu", n, t0);
}

static pid_t spawn(const char *name, void (*fn)(void))
{
	pid_t p = fork();

	if (p < 0)
		die("fork: %s", strerror(errno));
	if (!p) {
		prctl(PR_SET_NAME, name);
		fn();
		exit(0);
	}
	return p;
}

static unsigned short udp_port;
static int udp_fd;

static void udp(void)
{
	udp_wait(udp_fd, "hzw-udp");
}

static void daemon1(void)
{
	sleep_loop("hzw-daemon1", NS_PER_SEC);
}

static void daemon2(void)
{
	unsigned short port;

	udp_wait(udp_socket(&port, 2000000), "hzw-daemon2");
}

static void daemon3(void)
{
	poll_loop("hzw-daemon3", 5000);
}

/*
 * The gap before the parent's next datagram: 25 to 75 ms (50 on average),
 * the same sequence in every run, so two boots see the same datagrams.
 * Not a fixed 50 ms: a real sender keeps its own clock, but one that
 * sleeps whole milliseconds on the receiver's clock stays at one phase of
 * the receiver's tick for the whole run. Then either no datagram or every
 * one lands on the tick that also expires hzw-udp's timeout; the timeout
 * wakes the service first and the datagram leaves no trace of its own
 * (docs/ADVISOR.md, "What a trace cannot show").
 */
static long long udp_gap(void)
{
	static unsigned long long x = 0x9e3779b97f4a7c15ULL;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return NS_PER_SEC / 40 + (long long)(x % (NS_PER_SEC / 20));
}

/* The parent: a datagram to hzw-udp every 50 ms on average until the deadline. */
static void feed_udp(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(udp_port) };
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	long long next = now_ns();

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0)
		die("socket: %s", strerror(errno));
	for (;;) {
		struct timespec t;

		next += udp_gap();
		if (next >= deadline_ns)
			break;
		to_ts(next, &t);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
			;
		if (sendto(s, "x", 1, 0, (struct sockaddr *)&a, sizeof(a)) != 1)
			die("sendto: %s", strerror(errno));
	}
	close(s);
}

int main(int argc, char **argv)
{
	double secs = 10;
	int all = 1, want_frame = 0, want_udp = 0, want_daemons = 0, want_loop = 0, want_cpu = 0;
	pid_t kids[8];
	int nk = 0, bad = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-t") && i + 1 < argc) {
			char *end;

			secs = strtod(argv[++i], &end);
			if (*end || !(secs > 0 && secs <= 86400))
				die("-t %s: not a number of seconds (0 to 86400)", argv[i]);
		} else if (!strcmp(argv[i], "frame")) {
			want_frame = 1, all = 0;
		} else if (!strcmp(argv[i], "udp")) {
			want_udp = 1, all = 0;
		} else if (!strcmp(argv[i], "daemons")) {
			want_daemons = 1, all = 0;
		} else if (!strcmp(argv[i], "loop")) {
			want_loop = 1, all = 0;
		} else if (!strcmp(argv[i], "cpu")) {
			want_cpu = 1, all = 0;
		} else {
			die("usage: hzworkload [-t SECONDS] [frame|udp|daemons|loop|cpu]...");
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	deadline_ns = now_ns() + (long long)(secs * NS_PER_SEC);
	if (all || want_udp)
		udp_fd = udp_socket(&udp_port, 1000);
	if (all || want_frame)
		kids[nk++] = spawn("hzw-frame", frame);
	if (all || want_udp)
		kids[nk++] = spawn("hzw-udp", udp);
	if (all || want_daemons) {
		kids[nk++] = spawn("hzw-daemon1", daemon1);
		kids[nk++] = spawn("hzw-daemon2", daemon2);
		kids[nk++] = spawn("hzw-daemon3", daemon3);
	}
	if (all || want_loop)
		kids[nk++] = spawn("hzw-loop", event_loop);
	if (all || want_cpu)
		kids[nk++] = spawn("hzw-cpu", cpu_job);
	if (all || want_udp)
		feed_udp();
	for (int i = 0; i < nk; i++) {
		int st;

		while (waitpid(kids[i], &st, 0) < 0 && errno == EINTR)
			;
		bad |= !WIFEXITED(st) || WEXITSTATUS(st);
	}
	printf("hzworkload: %s\n", bad ? "FAILED: a shape failed" : "done");
	return bad;
}
