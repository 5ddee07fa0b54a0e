// SPDX-License-Identifier: MIT
/*
 * timerload: a timer-heavy workload for the Linux port's cost benchmark
 * (issue 29, item 7; bench/linux/run.sh boots it on stock Linux at
 * CONFIG_HZ=N and on the patched kernel at hz=N, under QEMU -icount
 * shift=0, where a nanosecond of guest time is one instruction).
 *
 * Two processes on one CPU take turns: one waits on something with a
 * timeout long enough never to expire (1 s), the other wakes it, then
 * waits in turn. So every wait arms a kernel timer and cancels it, and
 * the CPU never idles: the guest time the whole takes is the instructions
 * it executes, kernel and user. The waits: poll, select, epoll_wait,
 * ppoll on pipes; a futex wait woken by FUTEX_WAKE; a recv on a Unix
 * socket with SO_RCVTIMEO (a jiffies timeout: schedule_timeout); a read
 * of a pty with VMIN 1 and VTIME 10 (n_tty's jiffies timeout);
 * sigtimedwait ended by the signal; and, alone, timerfd armed and
 * disarmed and nanosleep for 0 ns (the hrtimer path, no wait: a sleep
 * that a signal ends cannot be told apart from one it ends too early);
 * then two workloads that are not about timers but run through code
 * that reads HZ on every call: a TCP ping-pong over the loopback (one
 * byte each way, TCP_NODELAY: the delayed-ACK and RTO timers, tcp_ack)
 * and fork (a child that exits at once, reaped with waitpid: copy,
 * exit and the scheduler's accounting). One line per kind,
 * "timerload: KIND N ROUNDS NS ns", then
 * "timerload: total NS ns" and "timerload: boot NS ns" (CLOCK_BOOTTIME
 * when it started: the boot to here, in guest instructions but for the
 * idle gaps QEMU skips).
 *
 * Before each kind and after the last, timerload executes a mark: an
 * instruction that does nothing (x86_64: nopl with the displacement
 * bytes 68 7a 6e 68, "hznh"; arm64: hint #0x6d, unallocated), which
 * bench/linux/divcount.c, a QEMU plugin, takes as the boundary between
 * two kinds.
 *
 *	timerload [rounds]	(default 2000)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("timerload: FAILED: ", stdout);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" (%s)\n", strerror(errno));
	exit(1);
}

/* A pipe each way: p[0] parent -> child, p[1] child -> parent. */
static int p[2][2];

static void put(int fd)
{
	if (write(fd, "x", 1) != 1)
		die("write");
}

static void take(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		die("read");
}

enum kind { K_POLL, K_SELECT, K_EPOLL, K_PPOLL, K_FUTEX, K_RCVTIMEO, K_TTY, K_SIGWAIT };

static const char *const kind_name[] = { "poll",  "select",   "epoll", "ppoll",
					 "futex", "rcvtimeo", "tty",   "sigwait" };

static int *futex_word; /* shared: whose turn it is */
static int sock[2], pty_master, pty_slave;

/* Waits for the other side with a 1 s timeout that never expires. */
static void wait_for(enum kind k, int self)
{
	int in = p[!self][0];
	struct timespec one = { 1, 0 };
	char c;

	switch (k) {
	case K_POLL: {
		struct pollfd f = { .fd = in, .events = POLLIN };

		if (poll(&f, 1, 1000) != 1)
			die("poll");
		take(in);
		break;
	}
	case K_SELECT: {
		fd_set r;
		struct timeval tv = { 1, 0 };

		FD_ZERO(&r);
		FD_SET(in, &r);
		if (select(in + 1, &r, NULL, NULL, &tv) != 1)
			die("select");
		take(in);
		break;
	}
	case K_EPOLL: {
		static int ep[2] = { -1, -1 };
		struct epoll_event ev = { .events = EPOLLIN };

		if (ep[self] < 0) {
			ep[self] = epoll_create1(0);
			if (ep[self] < 0 || epoll_ctl(ep[self], EPOLL_CTL_ADD, in, &ev))
				die("epoll");
		}
		if (epoll_wait(ep[self], &ev, 1, 1000) != 1)
			die("epoll_wait");
		take(in);
		break;
	}
	case K_PPOLL: {
		struct pollfd f = { .fd = in, .events = POLLIN };

		if (ppoll(&f, 1, &one, NULL) != 1)
			die("ppoll");
		take(in);
		break;
	}
	case K_FUTEX:
		while (__atomic_load_n(futex_word, __ATOMIC_ACQUIRE) != self)
			if (syscall(SYS_futex, futex_word, FUTEX_WAIT, !self, &one, NULL, 0) &&
			    errno != EAGAIN && errno != EINTR)
				die("futex wait");
		break;
	case K_RCVTIMEO:
		if (recv(sock[self], &c, 1, 0) != 1)
			die("recv");
		break;
	case K_TTY:
		if (read(self ? pty_slave : pty_master, &c, 1) != 1)
			die("pty read");
		break;
	case K_SIGWAIT: {
		sigset_t s;

		sigemptyset(&s);
		sigaddset(&s, SIGUSR2);
		if (sigtimedwait(&s, NULL, &one) != SIGUSR2)
			die("sigtimedwait");
		break;
	}
	}
}

/* Wakes the other side. */
static void wake(enum kind k, int self, pid_t other)
{
	switch (k) {
	case K_FUTEX:
		__atomic_store_n(futex_word, !self, __ATOMIC_RELEASE);
		syscall(SYS_futex, futex_word, FUTEX_WAKE, 1, NULL, NULL, 0);
		break;
	case K_RCVTIMEO:
		if (send(sock[self], "x", 1, 0) != 1)
			die("send");
		break;
	case K_TTY:
		if (write(self ? pty_slave : pty_master, "x", 1) != 1)
			die("pty write");
		break;
	case K_SIGWAIT:
		kill(other, SIGUSR2);
		break;
	default:
		put(p[self][1]);
	}
}

/* Rounds of one kind: the parent (self 0) starts. Returns the parent's ns. */
static long long ping_pong(enum kind k, int rounds)
{
	pid_t child;
	long long t0;
	int st;

	*futex_word = 0;
	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		for (int i = 0; i < rounds; i++) {
			wait_for(k, 1);
			wake(k, 1, getppid());
		}
		_exit(0);
	}
	t0 = now_ns(CLOCK_MONOTONIC);
	for (int i = 0; i < rounds; i++) {
		wake(k, 0, child);
		wait_for(k, 0);
	}
	t0 = now_ns(CLOCK_MONOTONIC) - t0;
	if (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st))
		die("the %s child failed", kind_name[k]);
	return t0;
}

static long long timerfd_rounds(int rounds)
{
	struct itimerspec on = { .it_value = { 1, 0 } }, off = { 0 };
	int fd = timerfd_create(CLOCK_MONOTONIC, 0);
	long long t0 = now_ns(CLOCK_MONOTONIC);

	if (fd < 0)
		die("timerfd_create");
	for (int i = 0; i < rounds; i++)
		if (timerfd_settime(fd, 0, &on, NULL) || timerfd_settime(fd, 0, &off, NULL))
			die("timerfd_settime");
	close(fd);
	return now_ns(CLOCK_MONOTONIC) - t0;
}

/* nanosleep of 0 ns: the hrtimer armed, found expired, no wait. */
static long long sleep_rounds(int rounds)
{
	struct timespec zero = { 0, 0 };
	long long t0 = now_ns(CLOCK_MONOTONIC);

	for (int i = 0; i < rounds; i++)
		if (nanosleep(&zero, NULL))
			die("nanosleep");
	return now_ns(CLOCK_MONOTONIC) - t0;
}

/* A TCP ping-pong of one byte over 127.0.0.1: the parent's ns. */
static long long tcp_rounds(int rounds)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM, 0), c, s, one = 1, st;
	long long t0;
	pid_t child;
	char b = 0;

	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&a, &len))
		die("tcp: listen on the loopback");
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a)))
		die("tcp: connect");
	s = accept(l, NULL, NULL);
	if (s < 0 || setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) ||
	    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		die("tcp: accept");
	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		for (int i = 0; i < rounds; i++)
			if (read(s, &b, 1) != 1 || write(s, &b, 1) != 1)
				_exit(1);
		_exit(0);
	}
	t0 = now_ns(CLOCK_MONOTONIC);
	for (int i = 0; i < rounds; i++)
		if (write(c, &b, 1) != 1 || read(c, &b, 1) != 1)
			die("tcp: round %d", i);
	t0 = now_ns(CLOCK_MONOTONIC) - t0;
	if (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st))
		die("the tcp child failed");
	close(c);
	close(s);
	close(l);
	return t0;
}

/* fork, the child exits at once, waitpid reaps it. */
static long long fork_rounds(int rounds)
{
	long long t0 = now_ns(CLOCK_MONOTONIC);
	int st;

	for (int i = 0; i < rounds; i++) {
		pid_t child = fork();

		if (child < 0)
			die("fork");
		if (!child)
			_exit(0);
		if (waitpid(child, &st, 0) != child || !WIFEXITED(st))
			die("fork: the child failed");
	}
	return now_ns(CLOCK_MONOTONIC) - t0;
}

/* The boundary between two kinds, for bench/linux/divcount.c. */
static void mark(void)
{
#if defined(__x86_64__)
	__asm__ volatile(".byte 0x0f, 0x1f, 0x80, 0x68, 0x7a, 0x6e, 0x68" ::: "memory");
#elif defined(__aarch64__)
	__asm__ volatile("hint #0x6d" ::: "memory");
#endif
}

/* The loopback interface up: the initramfs's init does not do it. */
static void loopback_up(void)
{
	struct ifreq r = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0 || ioctl(fd, SIOCGIFFLAGS, &r))
		die("lo: SIOCGIFFLAGS");
	r.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &r))
		die("lo: SIOCSIFFLAGS");
	close(fd);
}

static void setup(void)
{
	struct timeval tv = { 1, 0 };
	struct termios t;
	sigset_t s;

	for (int i = 0; i < 2; i++)
		if (pipe(p[i]))
			die("pipe");
	futex_word = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (futex_word == MAP_FAILED)
		die("mmap");
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sock))
		die("socketpair");
	for (int i = 0; i < 2; i++)
		if (setsockopt(sock[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
			die("SO_RCVTIMEO");
	pty_master = posix_openpt(O_RDWR | O_NOCTTY);
	if (pty_master < 0 || grantpt(pty_master) || unlockpt(pty_master))
		die("posix_openpt");
	pty_slave = open(ptsname(pty_master), O_RDWR | O_NOCTTY);
	if (pty_slave < 0 || tcgetattr(pty_slave, &t))
		die("pty slave");
	cfmakeraw(&t);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 10; /* 1 s between bytes: n_tty's jiffies timeout */
	if (tcsetattr(pty_slave, TCSANOW, &t))
		die("tcsetattr");
	/* SIGUSR2 is waited for, not delivered: sent early, it waits pending. */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	sigprocmask(SIG_BLOCK, &s, NULL);
}

/* The kinds that need no partner process, in the order they run. */
static const struct {
	const char *name;
	long long (*run)(int rounds);
} alone[] = {
	{ "timerfd", timerfd_rounds },
	{ "nanosleep0", sleep_rounds },
	{ "tcp", tcp_rounds },
	{ "fork", fork_rounds },
};

/* One kind's line; returns its ns. */
static long long report(const char *name, int rounds, long long ns)
{
	printf("timerload: %s %d rounds %lld ns\n", name, rounds, ns);
	return ns;
}

int main(int argc, char **argv)
{
	long long boot = now_ns(CLOCK_BOOTTIME), total = 0;
	int rounds = argc > 1 ? atoi(argv[1]) : 2000;

	if (rounds < 1) {
		fprintf(stderr, "usage: timerload [rounds >= 1]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("timerload: boot %lld ns\n", boot);
	setup();
	loopback_up();
	/* A mark before each kind and after the last: divcount's spans. */
	for (unsigned int k = 0; k < sizeof(kind_name) / sizeof(kind_name[0]); k++) {
		mark();
		total += report(kind_name[k], rounds, ping_pong((enum kind)k, rounds));
	}
	for (unsigned int k = 0; k < sizeof(alone) / sizeof(alone[0]); k++) {
		mark();
		total += report(alone[k].name, rounds, alone[k].run(rounds));
	}
	mark();
	printf("timerload: total %lld ns\n", total);
	return 0;
}
