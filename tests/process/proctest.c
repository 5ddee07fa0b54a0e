// SPDX-License-Identifier: MIT
/*
 * Processes as an unmodified static glibc program sees them on the
 * reference kernel (tests/process/check.sh boots it as init, pid 1): fork,
 * vfork, clone's flags, execve, wait4/waitpid, SIGCHLD, orphans, pipes,
 * the children's CPU time, and no page lost to 200 forks. One line
 * "proctest: <name> ok" or "proctest: <name> FAIL ..." per check, then
 * "proctest: N failed"; exit status 0 when none failed. Every expectation
 * is a fact from outside the kernel's accounting: an exit code the child
 * chose, what the child saw and reported, the clock.
 *
 *	proctest			every check (as init)
 *	proctest exit N			exits with N (an exec target)
 *	proctest sleepexit MS N		sleeps MS ms, then exits with N
 *	proctest names COMM EXE ARG1	exits 0 when /proc/self says so, else the failed part
 *	proctest sigs			exits 0 when exec reset the caught signals only
 *	proctest fds			exits 0 when descriptor 5 is closed and 6 open
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <fenv.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int failed;

static void check(const char *name, int ok, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("proctest: %s ok\n", name);
		return;
	}
	failed++;
	printf("proctest: %s FAIL ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Waits for pid; its status, or -1000 - errno when wait failed. */
static int reap(pid_t pid)
{
	int st;
	pid_t r = waitpid(pid, &st, 0);

	return r == pid ? st : -1000 - errno;
}

/* ---- fork ---- */

static void test_fork_returns(void)
{
	pid_t me = getpid(), pid = fork();

	if (pid == 0)
		_exit(getppid() == me && getpid() != me ? 0 : 1);
	check("fork-returns", pid > 0 && pid != me && reap(pid) == 0, "pid %d (parent %d)",
	      (int)pid, (int)me);
}

static int global = 1;

static void test_memory_private(void)
{
	volatile int local = 1;
	int *heap = malloc(4096);
	int *anon = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pid_t pid;
	int st;

	*heap = 1;
	anon[1024] = 1;
	pid = fork();
	if (pid == 0) {
		/* The parent writes 3 at once; the child must still see 1, then writes 2. */
		int seen;

		sleep_ms(50);
		seen = global == 1 && local == 1 && *heap == 1 && anon[1024] == 1;
		global = local = *heap = anon[1024] = 2;
		_exit(seen ? 0 : 1);
	}
	global = local = 3;
	*heap = anon[1024] = 3;
	st = reap(pid);
	check("memory-private-child", st == 0, "the child saw the parent's writes (status %#x)",
	      st);
	check("memory-private-parent", global == 3 && local == 3 && *heap == 3 && anon[1024] == 3,
	      "the parent saw the child's writes: %d %d %d %d", global, local, *heap, anon[1024]);
	munmap(anon, 8192);
	free(heap);
}

/* Pages shared copy-on-write: the kernel's writes, mprotect, madvise and three owners. */
static void test_cow(void)
{
	char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pid_t a, b, c;
	int sa, sb, sc;

	memset(m, 'p', 8192);
	a = fork();
	if (a == 0) {
		int fd = open("/bin/notelf", O_RDONLY), ok;

		/* read() writes into the shared page from the kernel */
		ok = read(fd, m, 3) == 3 && !memcmp(m, "not", 3) && m[3] == 'p';
		mprotect(m + 4096, 4096, PROT_READ);
		mprotect(m + 4096, 4096, PROT_READ | PROT_WRITE);
		m[4096] = 'a';
		_exit(ok && m[4096] == 'a' ? 0 : 1);
	}
	b = fork();
	if (b == 0) {
		sleep_ms(50);
		_exit(m[0] == 'p' && m[4096] == 'p' ? 0 : 1);
	}
	c = fork();
	if (c == 0) {
		madvise(m, 4096, MADV_DONTNEED); /* the child's copy goes: zeros */
		_exit(m[0] == 0 && m[4096] == 'p' ? 0 : 1);
	}
	sa = reap(a);
	sb = reap(b);
	sc = reap(c);
	check("cow-private", sa == 0 && sb == 0 && sc == 0 && m[0] == 'p' && m[4096] == 'p',
	      "children %#x %#x %#x, parent sees '%c' '%c'", sa, sb, sc, m[0], m[4096]);
	m[0] = 'q'; /* the last owner writes in place */
	check("cow-last-owner", m[0] == 'q', "wrote 'q', reads '%c'", m[0]);
	munmap(m, 8192);
}

static void test_shared_offset(void)
{
	char buf[100];
	int fd = open("/bin/proctest", O_RDONLY);
	pid_t pid;
	off_t at;

	pid = fork();
	if (pid == 0)
		_exit(read(fd, buf, sizeof(buf)) == sizeof(buf) && close(fd) == 0 ? 0 : 1);
	reap(pid);
	at = lseek(fd, 0, SEEK_CUR);
	check("fork-shared-offset", at == 100 && read(fd, buf, 4) == 4,
	      "offset %ld after the child read 100 bytes and closed its copy", (long)at);
	close(fd);
}

static __thread int tls_var = 5;

/* The child exits with a bit set for each thing it did not inherit. */
static void test_inherited(void)
{
	sigset_t set, pend;
	struct sigaction sa = { 0 }, got;
	char cwd[64];
	void *brk0;
	pid_t pid;
	int st;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	raise(SIGUSR1); /* pending in the parent: not the child's */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGUSR2, &sa, NULL);
	fesetround(FE_UPWARD);
	tls_var = 7;
	chdir("/proc");
	brk0 = sbrk(0);
	pid = fork();
	if (pid == 0) {
		int bad = 0;

		sigpending(&pend);
		sigprocmask(SIG_BLOCK, NULL, &set);
		sigaction(SIGUSR2, NULL, &got);
		bad |= sigismember(&pend, SIGUSR1) ? 1 : 0;
		bad |= !sigismember(&set, SIGUSR1) ? 2 : 0;
		bad |= got.sa_handler != SIG_IGN ? 4 : 0;
		bad |= fegetround() != FE_UPWARD ? 8 : 0;
		bad |= tls_var != 7 ? 16 : 0;
		bad |= !getcwd(cwd, sizeof(cwd)) || strcmp(cwd, "/proc") ? 32 : 0;
		bad |= sbrk(0) != brk0 ? 64 : 0;
		_exit(bad);
	}
	st = reap(pid);
	check("fork-inherits", WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "missing in the child (bits: 1 pending kept, 2 mask, 4 action, 8 FPU, 16 TLS, "
	      "32 cwd, 64 brk): %#x",
	      WEXITSTATUS(st));
	sigpending(&pend);
	check("fork-parent-pending-kept", sigismember(&pend, SIGUSR1), "SIGUSR1 no longer pending");
	sa.sa_handler = SIG_IGN;
	sigaction(SIGUSR1, &sa, NULL); /* drops it */
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	fesetround(FE_TONEAREST);
	chdir("/");
}

/* ---- vfork ---- */

static volatile int vfork_flag;

static void test_vfork(void)
{
	double t0 = mono(), dt;
	pid_t pid;
	int st;

	vfork_flag = 0;
	pid = vfork();
	if (pid == 0) {
		sleep_ms(200);
		vfork_flag = 1; /* the parent's memory: shared until exec or exit */
		_exit(7);
	}
	dt = mono() - t0;
	st = reap(pid);
	check("vfork-waits-for-exit", dt >= 0.2 && vfork_flag == 1,
	      "the parent went on after %ld ms, flag %d", (long)(dt * 1000), vfork_flag);
	check("vfork-exit-status", WIFEXITED(st) && WEXITSTATUS(st) == 7, "status %#x", st);

	/* Until exec: the parent returns once the child has exec'd, not when it ends. */
	t0 = mono();
	pid = vfork();
	if (pid == 0) {
		char *argv[] = { "proctest", "sleepexit", "400", "9", NULL };

		sleep_ms(100);
		execve("/bin/proctest", argv, environ);
		_exit(127);
	}
	dt = mono() - t0;
	st = reap(pid);
	check("vfork-waits-for-exec", dt >= 0.1 && dt < 0.4,
	      "the parent went on after %ld ms (exec at 100, exit at 500)", (long)(dt * 1000));
	check("vfork-exec-status", WIFEXITED(st) && WEXITSTATUS(st) == 9, "status %#x", st);
}

static void test_posix_spawn(void)
{
	char *ok_argv[] = { "true", NULL }, *no_argv[] = { "nothing", NULL };
	pid_t pid = 0;
	int r = posix_spawn(&pid, "/bin/busybox", NULL, NULL, ok_argv, environ), st;

	st = r == 0 ? reap(pid) : -1;
	check("posix-spawn", r == 0 && pid > 0 && st == 0, "spawn %d, status %#x", r, st);
	r = posix_spawn(&pid, "/no/such/program", NULL, NULL, no_argv, environ);
	check("posix-spawn-enoent", r == ENOENT, "returned %d", r);
}

/* ---- clone's flags ---- */

static long raw_clone(unsigned long flags)
{
	long r = syscall(SYS_clone, flags, 0, 0, 0, 0);

	if (r == 0)
		_exit(99); /* must never run: none of these may make a process */
	return r;
}

static void test_clone_flags(void)
{
	long r;
	int e;

	r = raw_clone(CLONE_THREAD | SIGCHLD);
	check("clone-thread-without-sighand", r == -1 && errno == EINVAL, "%ld errno %d", r, errno);
	r = raw_clone(CLONE_SIGHAND | SIGCHLD);
	check("clone-sighand-without-vm", r == -1 && errno == EINVAL, "%ld errno %d", r, errno);
	r = raw_clone(CLONE_VM | SIGCHLD);
	e = errno;
	check("clone-vm-refused", r == -1 && (e == ENOSYS || e == EINVAL), "%ld errno %d", r, e);
	r = raw_clone(CLONE_VM | CLONE_SIGHAND | CLONE_THREAD);
	e = errno;
	check("clone-thread-refused", r == -1 && (e == ENOSYS || e == EINVAL), "%ld errno %d", r,
	      e);
	/* A plain clone with SIGCHLD is a fork; the parent's tid goes where it asks. */
	{
		pid_t ptid = 0;
		long pid = syscall(SYS_clone, CLONE_PARENT_SETTID | SIGCHLD, 0, &ptid, 0, 0);

		if (pid == 0)
			_exit(3);
		check("clone-as-fork", pid > 0 && ptid == pid && reap(pid) == (3 << 8),
		      "pid %ld ptid %d", pid, (int)ptid);
	}
}

/* ---- execve ---- */

static void test_execve_errors(void)
{
	char *argv[] = { "x", NULL };
	char *big;
	int r;

	r = execve("/no/such/file", argv, environ);
	check("execve-enoent", r == -1 && errno == ENOENT, "%d errno %d", r, errno);
	r = execve("/bin/notelf", argv, environ);
	check("execve-enoexec", r == -1 && errno == ENOEXEC, "%d errno %d", r, errno);
	r = execve("/bin", argv, environ);
	check("execve-eacces-dir", r == -1 && errno == EACCES, "%d errno %d", r, errno);
	/* Bad pointers through the raw call: the C library's checks would not let them by. */
	r = syscall(SYS_execve, "/bin/proctest", 1, environ);
	check("execve-efault-argv", r == -1 && errno == EFAULT, "%d errno %d", r, errno);
	r = syscall(SYS_execve, 1, argv, environ);
	check("execve-efault-path", r == -1 && errno == EFAULT, "%d errno %d", r, errno);
	/* One string past Linux's MAX_ARG_STRLEN (32 pages): E2BIG there too. */
	big = malloc(200 * 1024);
	memset(big, 'a', 200 * 1024 - 1);
	big[200 * 1024 - 1] = '\0';
	{
		char *bargv[] = { "x", big, NULL };

		r = execve("/bin/proctest", bargv, environ);
		check("execve-e2big", r == -1 && errno == E2BIG, "%d errno %d", r, errno);
	}
	free(big);
	check("execve-caller-alive", global == 3, "the caller's memory changed: %d", global);
}

static void test_execve_runs(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		char *argv[] = { "proctest", "exit", "42", NULL };

		execve("/bin/proctest", argv, environ);
		_exit(127);
	}
	st = reap(pid);
	check("execve-status", WIFEXITED(st) && WEXITSTATUS(st) == 42, "status %#x", st);

	/* Through a link: comm is the name given, exe the file, cmdline the new argv. */
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "pt", "names", "pt", "/bin/proctest", "names", NULL };

		execve("/bin/pt", argv, environ);
		_exit(127);
	}
	st = reap(pid);
	check("execve-names", WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "/proc/self of the new program: status %#x (1 comm, 2 exe, 4 cmdline)", st);

	/* Caught signals go back to the default, ignored stay ignored, the mask stays. */
	pid = fork();
	if (pid == 0) {
		struct sigaction sa = { 0 };
		sigset_t set;
		char *argv[] = { "proctest", "sigs", NULL };

		sa.sa_handler = (void (*)(int))test_execve_runs; /* any address: caught */
		sigaction(SIGUSR1, &sa, NULL);
		sa.sa_handler = SIG_IGN;
		sigaction(SIGUSR2, &sa, NULL);
		sigemptyset(&set);
		sigaddset(&set, SIGINT);
		sigprocmask(SIG_BLOCK, &set, NULL);
		execve("/bin/proctest", argv, environ);
		_exit(127);
	}
	st = reap(pid);
	check("execve-signals", WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "status %#x (1 caught kept, 2 ignored lost, 4 mask lost)", st);

	/* Close-on-exec: the new program finds descriptor 5 closed, 6 open. */
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "proctest", "fds", NULL };

		dup3(open("/bin/proctest", O_RDONLY), 5, O_CLOEXEC);
		dup2(open("/bin/proctest", O_RDONLY), 6);
		execve("/bin/proctest", argv, environ);
		_exit(127);
	}
	st = reap(pid);
	check("execve-cloexec", WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
}

/* ---- wait ---- */

static void test_wait_status(void)
{
	static const int codes[] = { 0, 1, 255 };
	pid_t pid;
	int st;

	for (unsigned int i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		char name[32];

		pid = fork();
		if (pid == 0)
			exit(codes[i]);
		st = reap(pid);
		snprintf(name, sizeof(name), "wait-exit-%d", codes[i]);
		check(name, WIFEXITED(st) && WEXITSTATUS(st) == codes[i], "status %#x", st);
	}
	pid = fork();
	if (pid == 0) {
		kill(getpid(), SIGKILL);
		_exit(0);
	}
	st = reap(pid);
	check("wait-killed-sigkill", WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "status %#x", st);
	pid = fork();
	if (pid == 0) {
		*(volatile int *)16 = 1;
		_exit(0);
	}
	st = reap(pid);
	check("wait-killed-sigsegv", WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "status %#x", st);
	/* Killed before it ever ran: a child that only spins in ring 3 still gets it. */
	pid = fork();
	if (pid == 0)
		for (;;)
			;
	kill(pid, SIGTERM);
	st = reap(pid);
	check("wait-killed-at-once", WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "status %#x", st);
}

static void test_wnohang_echild(void)
{
	pid_t pid = fork(), r;
	int st;

	if (pid == 0) {
		sleep_ms(200);
		_exit(4);
	}
	r = waitpid(pid, &st, WNOHANG);
	check("wnohang-running", r == 0, "returned %d", (int)r);
	r = waitpid(-1, &st, 0);
	check("wait-any", r == pid && WEXITSTATUS(st) == 4, "returned %d status %#x", (int)r, st);
	r = waitpid(-1, &st, WNOHANG);
	check("echild-none-left", r == -1 && errno == ECHILD, "returned %d errno %d", (int)r,
	      errno);
	r = waitpid(12345, &st, 0);
	check("echild-not-a-child", r == -1 && errno == ECHILD, "returned %d errno %d", (int)r,
	      errno);
	r = waitpid(-1, &st, 0x1000);
	check("wait-einval-options", r == -1 && errno == EINVAL, "returned %d errno %d", (int)r,
	      errno);
	pid = fork();
	if (pid == 0)
		_exit(0);
	sleep_ms(50);
	r = wait4(pid, (int *)1, 0, NULL);
	check("wait-efault", r == -1 && errno == EFAULT, "returned %d errno %d", (int)r, errno);
	r = waitpid(pid, &st, WNOHANG);
	check("wait-efault-reaped", r == -1 && errno == ECHILD, "returned %d errno %d", (int)r,
	      errno);
}

/* pid 0: the caller's group; pid < -1: group -pid. */
static void test_wait_groups(void)
{
	pid_t a, b, r;
	int st;

	a = fork();
	if (a == 0) {
		setpgid(0, 0);
		sleep_ms(100);
		_exit(11);
	}
	setpgid(a, a); /* either may come first: the group exists once */
	b = fork();
	if (b == 0) {
		sleep_ms(100);
		_exit(12);
	}
	check("setpgid-child", getpgid(a) == a && getpgid(b) == getpgrp(), "groups %d %d",
	      (int)getpgid(a), (int)getpgid(b));
	r = waitpid(-a, &st, 0);
	check("wait-group", r == a && WEXITSTATUS(st) == 11, "returned %d status %#x", (int)r, st);
	r = waitpid(0, &st, 0);
	check("wait-own-group", r == b && WEXITSTATUS(st) == 12, "returned %d status %#x", (int)r,
	      st);
}

/* ---- SIGCHLD, orphans ---- */

static volatile sig_atomic_t chld_hits;
static volatile int chld_pid, chld_code, chld_status;

static void on_chld(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	chld_hits++;
	chld_pid = si->si_pid;
	chld_code = si->si_code;
	chld_status = si->si_status;
}

static void test_sigchld(void)
{
	struct sigaction sa = { 0 };
	sigset_t set, old;
	pid_t pid, r;
	int st;

	sa.sa_sigaction = on_chld;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);
	pid = fork();
	if (pid == 0)
		_exit(3);
	sigsuspend(&old); /* until the handler ran */
	sigprocmask(SIG_SETMASK, &old, NULL);
	check("sigchld-delivered",
	      chld_hits == 1 && chld_pid == pid && chld_code == CLD_EXITED && chld_status == 3,
	      "hits %d pid %d/%d code %d status %d", chld_hits, chld_pid, (int)pid, chld_code,
	      chld_status);
	reap(pid);
	pid = fork();
	if (pid == 0) {
		kill(getpid(), SIGTERM);
		_exit(0);
	}
	reap(pid);
	check("sigchld-killed", chld_hits == 2 && chld_code == CLD_KILLED && chld_status == SIGTERM,
	      "hits %d code %d status %d", chld_hits, chld_code, chld_status);

	/* SIG_IGN: the children are reaped at their end, wait finds none. */
	sa.sa_handler = SIG_IGN;
	sa.sa_flags = 0;
	sigaction(SIGCHLD, &sa, NULL);
	pid = fork();
	if (pid == 0)
		_exit(0);
	r = waitpid(-1, &st, 0);
	check("sigchld-ignored-autoreap", r == -1 && errno == ECHILD, "returned %d errno %d",
	      (int)r, errno);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &sa, NULL);
}

/* A grandchild whose parent has ended is init's (ours: we are pid 1) to reap. */
static void test_orphan(void)
{
	pid_t child = fork(), r;
	int st;

	if (child == 0) {
		pid_t g = fork();

		if (g == 0) {
			sleep_ms(100);
			_exit(getppid() == 1 ? 21 : 22);
		}
		_exit(g > 0 ? 0 : 1);
	}
	st = reap(child);
	r = waitpid(-1, &st, 0);
	check("orphan-reparented", getpid() != 1 || (r > child && WEXITSTATUS(st) == 21),
	      "returned %d status %#x (21: its parent was 1)", (int)r, st);
}

/* Past the kernel's room for processes, fork fails with EAGAIN and nothing breaks. */
static void test_fork_limit(void)
{
	pid_t kids[128];
	int n = 0, err = 0, reaped = 0;

	while (n < 128) {
		pid_t pid = fork();

		if (pid == 0) {
			pause(); /* until killed */
			_exit(0);
		}
		if (pid < 0) {
			err = errno;
			break;
		}
		kids[n++] = pid;
	}
	for (int i = 0; i < n; i++)
		kill(kids[i], SIGKILL);
	for (int i = 0; i < n; i++)
		reaped += WIFSIGNALED(reap(kids[i]));
	check("fork-eagain", n >= 8 && n < 128 && err == EAGAIN && reaped == n,
	      "%d children, then errno %d; %d reaped killed", n, err, reaped);
	n = fork();
	if (n == 0)
		_exit(5);
	check("fork-after-eagain", n > 0 && reap(n) == (5 << 8), "fork returned %d", n);
}

/* ---- pipes ---- */

static long mem_free_kb(void);

static void test_pipes(void)
{
	struct sigaction sa = { 0 };
	struct pollfd pfd;
	struct stat st;
	char buf[64];
	int fds[2], r, sum = 0, dummy;
	pid_t pid;
	long before, after;

	r = pipe(fds);
	check("pipe-fifo",
	      r == 0 && fstat(fds[0], &st) == 0 && S_ISFIFO(st.st_mode) &&
		      lseek(fds[0], 0, SEEK_CUR) == -1 && errno == ESPIPE,
	      "pipe %d mode %#o", r, st.st_mode);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		_exit(write(fds[1], "hello", 5) == 5 ? 0 : 1);
	}
	close(fds[1]);
	r = read(fds[0], buf, sizeof(buf));
	check("pipe-read", r == 5 && !memcmp(buf, "hello", 5), "read %d", r);
	r = read(fds[0], buf, sizeof(buf));
	check("pipe-eof", r == 0 && reap(pid) == 0, "read %d after the writer ended", r);
	close(fds[0]);

	/* 64 KiB through a 4 KiB ring: the writer waits for the reader. */
	pipe(fds);
	pid = fork();
	if (pid == 0) {
		static unsigned char big[65536];
		int got = 0, n;

		close(fds[1]);
		while ((n = read(fds[0], big + got, sizeof(big) - got)) > 0)
			got += n;
		for (int i = 0; i < got; i++)
			sum += big[i] != (unsigned char)(i * 7);
		_exit(got == sizeof(big) && !sum ? 0 : 1);
	}
	close(fds[0]);
	{
		static unsigned char big[65536];

		for (int i = 0; i < (int)sizeof(big); i++)
			big[i] = (unsigned char)(i * 7);
		r = write(fds[1], big, sizeof(big));
	}
	close(fds[1]);
	check("pipe-64k", r == 65536 && reap(pid) == 0, "write %d", r);

	/* No reader: EPIPE, and SIGPIPE (ignored here). */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	pipe(fds);
	close(fds[0]);
	r = write(fds[1], "x", 1);
	check("pipe-epipe", r == -1 && errno == EPIPE, "write %d errno %d", r, errno);
	close(fds[1]);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGPIPE, &sa, NULL);

	pipe2(fds, O_NONBLOCK | O_CLOEXEC);
	r = read(fds[0], buf, 1);
	check("pipe-eagain", r == -1 && errno == EAGAIN && fcntl(fds[0], F_GETFD) == FD_CLOEXEC,
	      "read %d errno %d", r, errno);
	pfd = (struct pollfd){ fds[0], POLLIN, 0 };
	r = poll(&pfd, 1, 0);
	check("pipe-poll-empty", r == 0, "poll %d revents %#x", r, pfd.revents);
	write(fds[1], "y", 1);
	r = poll(&pfd, 1, 1000);
	check("pipe-poll-data", r == 1 && (pfd.revents & POLLIN), "poll %d revents %#x", r,
	      pfd.revents);
	read(fds[0], buf, 1);
	close(fds[1]);
	r = poll(&pfd, 1, 1000);
	check("pipe-poll-hup", r == 1 && (pfd.revents & POLLHUP), "poll %d revents %#x", r,
	      pfd.revents);
	close(fds[0]);
	check("pipe2-einval", pipe2(fds, O_APPEND) == -1 && errno == EINVAL, "errno %d", errno);
	r = syscall(SYS_pipe2, 1, 0);
	dummy = open("/bin/proctest", O_RDONLY);
	check("pipe2-efault", r == -1 && errno == EFAULT && dummy == 3,
	      "pipe2 %d, then open gave descriptor %d", r, dummy);
	close(dummy);

	/* Pipes give their pages back (the first reading of /proc/meminfo has grown the heap). */
	mem_free_kb();
	before = mem_free_kb();
	for (int i = 0; i < 100; i++) {
		pipe(fds);
		write(fds[1], "z", 1);
		close(fds[0]);
		close(fds[1]);
	}
	after = mem_free_kb();
	check("pipe-100-no-leak", before > 0 && after == before, "MemFree %ld kB, then %ld kB",
	      before, after);
}

/* ---- CPU time of children ---- */

static void test_child_times(void)
{
	struct tms t0, t1, tc;
	struct rusage ru;
	long hz = sysconf(_SC_CLK_TCK), got, reported;
	pid_t pid;
	int st;

	times(&t0);
	pid = fork();
	if (pid == 0) {
		struct rusage self;
		volatile double x = 0;

		/* 0.4 s of user time: its system calls' time is not tms_utime's. */
		do {
			for (int i = 0; i < 100000; i++)
				x += 1.0;
			getrusage(RUSAGE_SELF, &self);
		} while (self.ru_utime.tv_sec == 0 && self.ru_utime.tv_usec < 400000);
		times(&tc);
		/* What the child itself counts, told through the exit code. */
		_exit(tc.tms_utime > 255 ? 255 : (int)tc.tms_utime);
	}
	if (wait4(pid, &st, 0, &ru) != pid) {
		check("child-times", 0, "wait4 failed: errno %d", errno);
		return;
	}
	times(&t1);
	got = t1.tms_cutime - t0.tms_cutime;
	reported = WEXITSTATUS(st);
	check("child-cutime-40", hz == 100 && got >= 40, "tms_cutime grew by %ld (hz %ld)", got,
	      hz);
	check("child-cutime-as-reported", got >= reported - 1 && got <= reported + 1,
	      "cutime grew by %ld, the child counted %ld", got, reported);
	check("wait4-rusage", ru.ru_utime.tv_sec * 100 + ru.ru_utime.tv_usec / 10000 >= reported,
	      "ru_utime %ld.%06ld s, the child counted %ld ticks", (long)ru.ru_utime.tv_sec,
	      (long)ru.ru_utime.tv_usec, reported);
	getrusage(RUSAGE_CHILDREN, &ru);
	check("getrusage-children", ru.ru_utime.tv_sec * 100 + ru.ru_utime.tv_usec / 10000 >= got,
	      "ru_utime %ld.%06ld s", (long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec);
	{
		/* /proc/self/stat fields 16 and 17: the same counts as times(). */
		char buf[1024], *p;
		long cut = -1, cst = -1;
		FILE *f = fopen("/proc/self/stat", "r");

		if (f && fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
			sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %ld %ld",
			       &cut, &cst);
		if (f)
			fclose(f);
		times(&t1);
		check("proc-stat-cutime", cut == t1.tms_cutime && cst == t1.tms_cstime,
		      "fields 16-17: %ld %ld, times(): %ld %ld", cut, cst, (long)t1.tms_cutime,
		      (long)t1.tms_cstime);
	}
}

/* ---- no leak, and the rate ---- */

static long mem_free_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static void test_no_leak(void)
{
	long before, after;
	double t0, dt;
	int bad = 0;

	for (int i = 0; i < 3; i++) /* first touches of the parent's own pages */
		if (fork() == 0)
			_exit(0);
	while (wait(NULL) > 0)
		;
	before = mem_free_kb();
	t0 = mono();
	for (int i = 0; i < 200; i++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		bad += pid < 0 || reap(pid) != 0;
	}
	dt = mono() - t0;
	after = mem_free_kb();
	check("fork-200-no-leak", bad == 0 && before > 0 && after == before,
	      "MemFree %ld kB before, %ld kB after, %d failed", before, after, bad);
	printf("proctest: rate: 200 fork+exit+wait in %.3f s of guest time: %.0f per second\n", dt,
	       200 / dt);
}

/* ---- the exec targets ---- */

/* /proc/self/<name> as a string (cmdline: its NULs made spaces). */
static void self_file(const char *name, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/%s", name);
	if (!strcmp(name, "exe")) {
		n = readlink(path, buf, size - 1);
	} else {
		fd = open(path, O_RDONLY);
		n = fd < 0 ? -1 : read(fd, buf, size - 1);
		close(fd);
	}
	buf[n < 0 ? 0 : n] = '\0';
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0' && i < n - 1)
			buf[i] = ' ';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
}

static int names_main(char **argv)
{
	char comm[64], exe[256], cmdline[256], want[256];
	int bad = 0;

	self_file("comm", comm, sizeof(comm));
	self_file("exe", exe, sizeof(exe));
	self_file("cmdline", cmdline, sizeof(cmdline));
	snprintf(want, sizeof(want), "%s names %s %s %s", argv[0], argv[2], argv[3], argv[4]);
	bad |= strcmp(comm, argv[2]) ? 1 : 0;
	bad |= strcmp(exe, argv[3]) ? 2 : 0;
	bad |= strcmp(cmdline, want) ? 4 : 0;
	if (bad)
		printf("proctest: names: comm '%s' exe '%s' cmdline '%s'\n", comm, exe, cmdline);
	return bad;
}

static int sigs_main(void)
{
	struct sigaction a, b;
	sigset_t set;
	int bad = 0;

	sigaction(SIGUSR1, NULL, &a);
	sigaction(SIGUSR2, NULL, &b);
	sigprocmask(SIG_BLOCK, NULL, &set);
	bad |= a.sa_handler != SIG_DFL ? 1 : 0;
	bad |= b.sa_handler != SIG_IGN ? 2 : 0;
	bad |= !sigismember(&set, SIGINT) ? 4 : 0;
	return bad;
}

static int fds_main(void)
{
	int bad = 0;

	bad |= fcntl(5, F_GETFD) != -1 || errno != EBADF ? 1 : 0;
	bad |= fcntl(6, F_GETFD) != 0 ? 2 : 0;
	return bad;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "exit"))
		return atoi(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "sleepexit")) {
		sleep_ms(atol(argv[2]));
		return atoi(argv[3]);
	}
	if (argc == 5 && !strcmp(argv[1], "names"))
		return names_main(argv);
	if (argc == 2 && !strcmp(argv[1], "sigs"))
		return sigs_main();
	if (argc == 2 && !strcmp(argv[1], "fds"))
		return fds_main();
	setvbuf(stdout, NULL, _IONBF, 0);
	test_fork_returns();
	test_memory_private();
	test_cow();
	test_shared_offset();
	test_inherited();
	test_vfork();
	test_posix_spawn();
	test_clone_flags();
	test_execve_errors();
	test_execve_runs();
	test_wait_status();
	test_wnohang_echild();
	test_wait_groups();
	test_sigchld();
	test_orphan();
	test_fork_limit();
	test_pipes();
	test_child_times();
	test_no_leak();
	printf("proctest: %d failed\n", failed);
	return failed != 0;
}
