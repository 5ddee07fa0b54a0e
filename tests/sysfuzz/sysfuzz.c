// SPDX-License-Identifier: MIT
/*
 * sysfuzz: the kernel under abuse from user space (issue 11, "Bad input").
 * A static glibc program (tests/sysfuzz/check.sh boots it as init) that
 * makes a million random system calls: numbers mostly from the kernel's
 * tables (kernel/<room>/syscalls.h, included below), some outside
 * them, negative or huge; arguments that point into the kernel, into
 * nothing, across the end of a page into a hole, into read-only pages,
 * misaligned, with huge lengths, bad descriptors and random flags.
 *
 *	sysfuzz [-s SEED] [-n CALLS] [-t N] [-v] [-x HOW]
 *
 * (-t N prints each call from the Nth on, before it is made; -v the errnos
 * each call gave, at the end; -x HOW dies as die() says, for check.sh.)
 * One call in 200 is preceded by an instruction ring 3 may not complete
 * (traps[]). Halfway, memory is exhausted for a few thousand calls
 * (oom_phase()); at the end, timers, a pending signal and descriptors are
 * left for the kernel to clean up.
 *
 * The calls come from the seed alone (never from what earlier calls
 * returned), so a seed replays the same calls. What is checked:
 *  - every result is success or -errno with an errno Linux can return for
 *    that call (the tables below, from Linux's man pages and sources, not
 *    from this kernel); a number the kernel does not implement must be
 *    ENOSYS. A value outside is a failure line with the call and its
 *    arguments;
 *  - the kernel writes only where it may: guard pages filled with a
 *    pattern lie behind holes and read-only pages and no argument ever
 *    points into them; the input region (paths, structures) is only ever
 *    passed where the kernel reads; the read-only pages keep their
 *    pattern. All are verified every VERIFY_EVERY calls and at the end;
 *  - the program survives: the kernel side (no exception line, the
 *    kernel's own checksum line) is check.sh's part.
 * Fixed cases that once broke the kernel run first (regressions[]).
 * Ends with "sysfuzz: N calls, M distinct numbers, K errors outside
 * Linux's set, ..." and "sysfuzz: F failed"; exit status 0 when F is 0.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef uint32_t u32;
typedef int32_t s32;
typedef uint64_t u64;

#define PAGE	     4096u
#define NR_MAX	     450	 /* the kernel's table; numbers beyond are tried too */
#define USER_LO	     0x08000000u /* below: the kernel's, on this kernel */
#define TASK_SIZE    0xc0000000u /* Linux i386's user limit, and this kernel's */
#define VERIFY_EVERY 1024
#define FAIL_LINES   60 /* failure lines printed; the rest are counted */
#define PRIV_FD	     63 /* the program's own console: no fuzzed call names it */

/* --- the memory the arguments point into, at fixed places --- */

#define BASE	      0x40000000u
#define PG(n)	      (BASE + (n)*PAGE)
#define ARENA	      PG(0) /* 16 pages, read-write: where the kernel may write */
#define ARENA_PAGES   16
#define RO1	      PG(16) /* read-only, right after the arena */
#define GUARD1	      PG(17) /* guard: behind RO1 */
#define HOLE1	      PG(18)
#define ARENA2	      PG(19) /* 2 pages, then a hole */
#define HOLE2	      PG(21)
#define GUARD2	      PG(22) /* guard: behind HOLE2 */
#define INP	      PG(23) /* 16 pages: only where the kernel reads */
#define IN_PAGES      16
#define RO2	      PG(39) /* read-only, its last bytes no NUL: a string into the hole */
#define HOLE3	      PG(40)
#define SCRATCH	      PG(41) /* 4 pages: requests made per call, signal frames */
#define LAND_STACK    PG(45) /* the top of a stack for forged sigreturn frames */
#define HOLE4	      PG(45)
#define GUARD3	      PG(46)
#define LAYOUT_PAGES  47
#define PLAY	      0x48000000u /* mmap, munmap, mprotect, madvise play here */
#define PLAY_SIZE     0x01000000u
#define UNMAPPED      0x30000000u /* nothing is ever mapped from here to BASE */
#define UNMAPPED_SIZE 0x10000000u

/* The input region's parts (offsets into INP). */
#define IN_PATHS   0	      /* NUL-terminated paths, paths[] says where */
#define IN_LONG	   (4 * PAGE) /* a 5000-byte path, no NUL within 4096 */
#define IN_IOVS	   (7 * PAGE) /* iovec arrays */
#define IN_WORDS   (8 * PAGE) /* words of typical values: structures read by the kernel */
#define WORDS_SIZE (7 * PAGE) /* up to the console's text */
#define IN_CONSOLE (IN_PAGES * PAGE - 64) /* text for writes to the console */

static const char *const path_list[] = {
	"/",
	".",
	"..",
	"",
	"/bin/busybox",
	"/bin/sh",
	"/bin/sysfuzz",
	"/bin/",
	"/bin/busybox/",
	"/bin/busybox/x",
	"/proc",
	"/proc/self",
	"/proc/self/stat",
	"/proc/self/status",
	"/proc/self/exe",
	"/proc/self/cwd",
	"/proc/self/cwd/",
	"/proc/self/cmdline",
	"/proc/1/statm",
	"/proc/2/stat",
	"/proc/meminfo",
	"/proc/uptime",
	"/proc/loadavg",
	"/proc/stat",
	"/proc/version",
	"/proc/mounts",
	"/proc/self/fd/0",
	"/dev",
	"/dev/console",
	"/tmp",
	"/tmp/new",
	"/etc/passwd",
	"//proc///self//stat",
	"/proc/../bin/./sh",
	"../../..",
	"bin/sh",
	"proc/self/exe/",
	"/nonexistent/x",
	"\x01\x7f\xff",
};
#define NPATHS (sizeof(path_list) / sizeof(path_list[0]))
/*
 * After the list: names of 255 and 256 bytes, the second under /proc; paths
 * of 4095 and 4096 bytes; 20 and 41 links in a row (/proc/self/cwd is one).
 */
#define NLONGNAMES 7
static u32 paths[NPATHS + NLONGNAMES];

#define NIOVS 24
static u32 iovs[NIOVS]; /* iovec arrays in IN */
static u32 iov_cnt[NIOVS];

static unsigned char in_copy[IN_PAGES * PAGE]; /* what IN must still hold */

/* --- the generator: splitmix64, the only source of the calls --- */

static u64 rng;
static int in_child; /* a child of the fork phase (fork_child()) */

static u64 rnd64(void)
{
	u64 z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static u32 rnd(void)
{
	return (u32)(rnd64() >> 32);
}

static u32 below(u32 n)
{
	return (u32)(((u64)rnd() * n) >> 32);
}

static int chance(u32 percent)
{
	return below(100) < percent;
}

/* --- output, on the program's own descriptor --- */

static char outbuf[512];

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(outbuf, sizeof(outbuf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(outbuf) - 1)
		n = sizeof(outbuf) - 1;
	if (write(PRIV_FD, outbuf, (size_t)n) < 0)
		_exit(3);
}

static const char *ename(long e)
{
	const char *s = e > 0 && e < 4096 ? strerrorname_np((int)e) : NULL;

	return s ? s : "?";
}

/* --- the raw gate: no errno, no TLS, nothing but int $0x80 --- */

long raw_syscall(long nr, long a, long b, long c, long d, long e, long f);
__asm__(".text\n"
	".globl raw_syscall\n"
	".type raw_syscall, @function\n"
	"raw_syscall:\n"
	"	push %ebp\n"
	"	push %edi\n"
	"	push %esi\n"
	"	push %ebx\n"
	"	mov 20(%esp), %eax\n"
	"	mov 24(%esp), %ebx\n"
	"	mov 28(%esp), %ecx\n"
	"	mov 32(%esp), %edx\n"
	"	mov 36(%esp), %esi\n"
	"	mov 40(%esp), %edi\n"
	"	mov 44(%esp), %ebp\n"
	"	int $0x80\n"
	"	pop %ebx\n"
	"	pop %esi\n"
	"	pop %edi\n"
	"	pop %ebp\n"
	"	ret\n");

#define SYS0(nr)	     raw_syscall(nr, 0, 0, 0, 0, 0, 0)
#define SYS1(nr, a)	     raw_syscall(nr, (long)(a), 0, 0, 0, 0, 0)
#define SYS2(nr, a, b)	     raw_syscall(nr, (long)(a), (long)(b), 0, 0, 0, 0)
#define SYS3(nr, a, b, c)    raw_syscall(nr, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define SYS4(nr, a, b, c, d) raw_syscall(nr, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)

/* --- the program's own state, saved at start and put back after risky calls --- */

u32 saved_gs, saved_fs, saved_ds, saved_es, saved_mxcsr = 0x1f80;
static u32 tls_desc[4]; /* struct user_desc of glibc's %gs slot */
static u32 orig_brk;
static volatile int armed; /* a fault now is a fuzzed call's doing */
static jmp_buf jb;
static u64 all_async; /* every signal but the synchronous ones */

#define SYNC_SIGS                                                                     \
	((1ULL << (SIGSEGV - 1)) | (1ULL << (SIGBUS - 1)) | (1ULL << (SIGILL - 1)) |  \
	 (1ULL << (SIGFPE - 1)) | (1ULL << (SIGTRAP - 1)) | (1ULL << (SIGKILL - 1)) | \
	 (1ULL << (SIGSTOP - 1)))

static u32 sig_caught[65];
static u32 jumps, landings;

static void load_segments(void)
{
	__asm__ volatile("mov %0, %%ds\n\t"
			 "mov %0, %%es\n\t"
			 "mov %1, %%fs\n\t"
			 "mov %2, %%gs"
			 :
			 : "r"(saved_ds), "r"(saved_fs), "r"(saved_gs));
}

/* glibc's thread pointer back: its GDT slot, then %gs reloaded from it. */
static void restore_tls(void)
{
	u32 d[4];

	memcpy(d, tls_desc, sizeof(d));
	SYS1(SYS_set_thread_area, d);
	load_segments();
}

static void set_mask(u64 mask)
{
	SYS4(SYS_rt_sigprocmask, SIG_SETMASK, &mask, 0, 8);
}

/*
 * Every signal comes here first (sig_entry, below): %gs and %fs may hold
 * what a fuzzed call left, and glibc's TLS needs its own back before any C.
 */
void sig_entry(int sig, siginfo_t *si, void *uc);
__asm__(".text\n"
	".globl sig_entry\n"
	"sig_entry:\n"
	"	pushf\n" /* AC off first: Linux leaves it set in a handler */
	"	andl $0xfffbffff, (%esp)\n"
	"	popf\n"
	"	mov saved_gs, %eax\n"
	"	mov %ax, %gs\n"
	"	mov saved_fs, %eax\n"
	"	mov %ax, %fs\n"
	"	jmp on_signal\n");

static void fatal_signal(int sig, const siginfo_t *si, const ucontext_t *uc);

void on_signal(int sig, siginfo_t *si, void *uc);
void on_signal(int sig, siginfo_t *si, void *uc)
{
	if (sig > 0 && sig <= 64)
		sig_caught[sig]++;
	if (!((1ULL << (sig - 1)) & SYNC_SIGS))
		return;
	if (!armed)
		fatal_signal(sig, si, uc);
	jumps++;
	_longjmp(jb, sig);
}

/*
 * Where a forged sigreturn frame sends the program: the segments, flags
 * and FPU it may have changed are put back before any C runs, reading
 * through %cs as %ds may be null.
 */
void landing_pad(void);
void landing_c(void);
__asm__(".text\n"
	".globl landing_pad\n"
	"landing_pad:\n"
	"	cld\n"
	"	mov %cs:saved_ds, %eax\n"
	"	mov %ax, %ds\n"
	"	mov %ax, %es\n"
	"	mov %cs:saved_gs, %eax\n"
	"	mov %ax, %gs\n"
	"	mov %cs:saved_fs, %eax\n"
	"	mov %ax, %fs\n"
	"	pushl $0x202\n"
	"	popfl\n"
	"	fninit\n"
	"	ldmxcsr %cs:saved_mxcsr\n"
	"	and $-16, %esp\n"
	"	call landing_c\n");

void landing_c(void)
{
	landings++;
	_longjmp(jb, 100);
}

/* Sends the program through sigreturn (nr) with its stack at esp: never returns. */
void forge_sigreturn(long nr, u32 esp);
__asm__(".text\n"
	".globl forge_sigreturn\n"
	"forge_sigreturn:\n"
	"	mov 4(%esp), %eax\n"
	"	mov 8(%esp), %esp\n"
	"	int $0x80\n"
	"	jmp landing_pad\n");

/* The kernel's struct sigaction on i386, and the restorer it returns through. */
struct ksigaction {
	void (*handler)(int, siginfo_t *, void *);
	u32 flags;
	void (*restorer)(void);
	u32 mask[2];
};
#define KSA_RESTORER 0x04000000

void restore_rt(void);
__asm__(".text\n"
	".globl restore_rt\n"
	"restore_rt:\n"
	"	mov $173, %eax\n"
	"	int $0x80\n");

/* Through the raw call: glibc keeps 32 and 33 to itself, and their default would end the program. */
static void install_handler(int sig)
{
	struct ksigaction ka = { sig_entry, SA_SIGINFO | KSA_RESTORER, restore_rt, { 0, 0 } };

	if (sig != SIGKILL && sig != SIGSTOP)
		SYS4(SYS_rt_sigaction, sig, &ka, 0, 8);
}

static void install_handlers(void)
{
	for (int sig = 1; sig < 65; sig++)
		install_handler(sig);
}

/* --- failures --- */

static u32 failures, fail_lines;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	va_list ap;
	int n;

	failures++;
	if (++fail_lines > FAIL_LINES)
		return;
	memcpy(outbuf, "sysfuzz: FAIL ", 14);
	va_start(ap, fmt);
	n = 14 + vsnprintf(outbuf + 14, sizeof(outbuf) - 15, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(outbuf) - 2)
		n = sizeof(outbuf) - 2;
	outbuf[n++] = '\n';
	if (write(PRIV_FD, outbuf, (size_t)n) < 0)
		_exit(3);
}

static u64 call_index;

static void fatal_signal(int sig, const siginfo_t *si, const ucontext_t *uc)
{
	fail("signal %d (%s) in the program itself at eip 0x%x, address 0x%x, after call %llu", sig,
	     sigabbrev_np(sig) ? sigabbrev_np(sig) : "?",
	     uc ? (u32)uc->uc_mcontext.gregs[REG_EIP] : 0, si ? (u32)(uintptr_t)si->si_addr : 0,
	     (unsigned long long)call_index);
	say("sysfuzz: %u failed\n", failures);
	_exit(2);
}

/* --- arguments --- */

enum arg {
	X,	 /* ignored by the call, or unknown: anything but a valid pointer */
	FD,	 /* a descriptor */
	DFD,	 /* a directory descriptor, or AT_FDCWD */
	PATH,	 /* a path the kernel reads */
	IN,	 /* a structure the kernel reads */
	OUT,	 /* a structure the kernel writes */
	INOUT,	 /* read, then written */
	INN,	 /* IN, often NULL */
	OUTN,	 /* OUT, often NULL */
	BUF,	 /* a buffer the kernel writes, its length next */
	WBUF,	 /* a buffer the kernel reads, its length next */
	LEN,	 /* a length */
	INT,	 /* a small integer: a command, which, who, whence, resource */
	FLAGS,	 /* bits */
	MODE,	 /* access bits */
	SIG,	 /* a signal number */
	PID,	 /* a process id */
	CLK,	 /* a clock id */
	IOV,	 /* an iovec array the kernel reads, its count next */
	CNT,	 /* an iovec count */
	SSZ,	 /* a sigset size */
	TSREQ,	 /* a sleep request (struct timespec), made per call: never long */
	TS64REQ, /* the same, struct __kernel_timespec */
	IOCMD,	 /* an ioctl request */
	IOARG,	 /* an ioctl argument: a pointer or a number */
	OFF,	 /* a file offset */
	NARGS
};

/* Calls that need more than their arguments made (see tame()). */
enum tame {
	T_NONE,
	T_READ,	   /* read, readv: the console must not block */
	T_WRITE,   /* write: the console gets a newline, not the arena */
	T_WRITEV,  /* writev: the same */
	T_SIGACT,  /* the synchronous signals keep the program's handler */
	T_SIGMASK, /* the mask is the program's again after */
	T_SETTLS,  /* glibc's thread pointer is put back after */
	T_GETTLS,
	T_KILL,	      /* never SIGKILL or SIGSTOP: they would end or stop the program */
	T_BRK,	      /* never below the program's own break */
	T_MMAP,	      /* MAP_FIXED only in the playground */
	T_MEM,	      /* munmap, mprotect: only the playground, or what Linux refuses outright */
	T_MADVISE,    /* the same for the advice that drops pages */
	T_SIGSUSPEND, /* only the calls that fail before waiting */
	T_SIGRETURN,  /* a forged frame, on a stack of its own */
	T_RLIMIT,     /* no new limit that would kill or starve the program */
	T_CPUSLEEP,   /* no relative sleep on its own CPU clock, nor a child's on CLOCK_TAI */
	T_ITIMER,     /* no ITIMER_REAL period under 1 ms */
};

/* What a successful result must look like. */
/*
 * R_TIME: time(), whose seconds (the clock may be set anywhere) can look
 * like -errno to a 32-bit caller, as on Linux i386: any value goes.
 */
enum res { R_ANY, R_ZERO, R_LEN, R_FD, R_TIME };

struct spec {
	u32 nr;
	const char *name;
	unsigned char arg[6];
	unsigned char tame, res, lenarg; /* R_LEN: the result is at most argument lenarg */
	const short *errs;		 /* Linux's errnos for the call, 0-terminated */
};

#define E(...) ((const short[]){ __VA_ARGS__, 0 })
#define NONE   ((const short[]){ 0 })

/* The errno sets: Linux's man pages (ERRORS) and the paths of its sources (6.1). */
#define E_PATH EACCES, EFAULT, EIO, ELOOP, ENAMETOOLONG, ENOENT, ENOMEM, ENOTDIR
#define E_OPEN                                                                               \
	E_PATH, EAGAIN, EBUSY, EDQUOT, EEXIST, EFBIG, EINTR, EINVAL, EISDIR, EMFILE, ENFILE, \
		ENODEV, ENOSPC, ENXIO, EOPNOTSUPP, EOVERFLOW, EPERM, EROFS, ETXTBSY
#define E_READ EAGAIN, EBADF, EFAULT, EINTR, EINVAL, EIO, EISDIR, ENOMEM, EOVERFLOW
#define E_WRITE                                                                                 \
	EAGAIN, EBADF, EDQUOT, EFAULT, EFBIG, EINTR, EINVAL, EIO, ENOSPC, EPERM, EPIPE, ENOMEM, \
		EACCES
#define E_STAT	 E_PATH, EBADF, EOVERFLOW
#define E_ACCESS E_PATH, EINVAL, EPERM, EROFS, ETXTBSY
#define E_SLEEP	 EFAULT, EINTR, EINVAL
#define E_CLOCK	 EFAULT, EINVAL
#define E_SIGNAL EAGAIN, EINVAL, EPERM, ESRCH
#define E_MMAP \
	EACCES, EAGAIN, EBADF, EEXIST, EINVAL, ENFILE, ENODEV, ENOMEM, EOVERFLOW, EPERM, ETXTBSY
#define E_IOCTL                                                                                 \
	EBADF, EFAULT, EINVAL, ENOTTY, EPERM, EIO, ESRCH, EINTR, ENOMEM, EAGAIN, ENODEV, ENXIO, \
		EOPNOTSUPP
#define E_FCNTL                                                                                \
	EACCES, EAGAIN, EBADF, EBUSY, EDEADLK, EFAULT, EINTR, EINVAL, EMFILE, ENOLCK, ENOTDIR, \
		EPERM, ESRCH, ENOMEM
#define E_DENTS EBADF, EFAULT, EINVAL, ENOENT, ENOTDIR, EOVERFLOW, ENOMEM

#define A0                       \
	{                        \
		X, X, X, X, X, X \
	}
#define A(...)              \
	{                   \
		__VA_ARGS__ \
	}
#define CALL(nr, name, args, tame, res, lenarg, errs)    \
	{                                                \
		nr, #name, args, tame, res, lenarg, errs \
	}

/*
 * The calls: those of the kernel's table, and a few it may gain (the
 * wait and process-group calls) so that their arrival is fuzzed too.
 * Any other number must answer ENOSYS.
 */
static const struct spec specs[] = {
	CALL(3, read, A(FD, BUF, LEN), T_READ, R_LEN, 2, E(E_READ)),
	CALL(4, write, A(FD, WBUF, LEN), T_WRITE, R_LEN, 2, E(E_WRITE)),
	CALL(5, open, A(PATH, FLAGS, MODE), T_NONE, R_FD, 0, E(E_OPEN)),
	CALL(6, close, A(FD), T_NONE, R_ZERO, 0, E(EBADF, EINTR, EIO, ENOSPC, EDQUOT)),
	/* ESRCH: Linux's kernel_wait4() for pid INT_MIN, whose negation is undefined */
	CALL(7, waitpid, A(PID, OUTN, FLAGS), T_NONE, R_ANY, 0,
	     E(ECHILD, EINTR, EINVAL, EFAULT, ESRCH)),
	CALL(12, chdir, A(PATH), T_NONE, R_ZERO, 0, E(E_PATH)),
	CALL(13, time, A(OUTN), T_NONE, R_TIME, 0, E(EFAULT)),
	CALL(19, lseek, A(FD, OFF, INT), T_NONE, R_ANY, 0,
	     E(EBADF, EINVAL, ENXIO, EOVERFLOW, ESPIPE)),
	CALL(20, getpid, A0, T_NONE, R_ANY, 0, NONE),
	CALL(24, getuid, A0, T_NONE, R_ANY, 0, NONE),
	CALL(25, stime, A(INN), T_NONE, R_ZERO, 0, E(EFAULT, EINVAL)),
	CALL(27, alarm, A(INT), T_NONE, R_ANY, 0, NONE),
	CALL(33, access, A(PATH, MODE), T_NONE, R_ZERO, 0, E(E_ACCESS)),
	CALL(36, sync, A0, T_NONE, R_ZERO, 0, NONE),
	CALL(37, kill, A(PID, SIG), T_KILL, R_ZERO, 0, E(E_SIGNAL)),
	CALL(41, dup, A(FD), T_NONE, R_FD, 0, E(EBADF, EMFILE)),
	CALL(43, times, A(OUTN), T_NONE, R_ANY, 0, E(EFAULT)),
	CALL(45, brk, A(X), T_BRK, R_ANY, 0, NONE),
	CALL(47, getgid, A0, T_NONE, R_ANY, 0, NONE),
	CALL(49, geteuid, A0, T_NONE, R_ANY, 0, NONE),
	CALL(50, getegid, A0, T_NONE, R_ANY, 0, NONE),
	CALL(54, ioctl, A(FD, IOCMD, IOARG), T_NONE, R_ANY, 0, E(E_IOCTL)),
	CALL(57, setpgid, A(PID, PID), T_NONE, R_ZERO, 0, E(EACCES, EINVAL, EPERM, ESRCH)),
	CALL(60, umask, A(MODE), T_NONE, R_ANY, 0, NONE),
	CALL(63, dup2, A(FD, FD), T_NONE, R_FD, 0, E(EBADF, EBUSY, EINTR, EMFILE)),
	CALL(64, getppid, A0, T_NONE, R_ANY, 0, NONE),
	CALL(65, getpgrp, A0, T_NONE, R_ANY, 0, NONE),
	CALL(66, setsid, A0, T_NONE, R_ANY, 0, E(EPERM)),
	CALL(75, setrlimit, A(INT, INN), T_RLIMIT, R_ZERO, 0, E(EFAULT, EINVAL, EPERM)),
	CALL(76, getrlimit, A(INT, OUT), T_NONE, R_ZERO, 0, E(EFAULT, EINVAL)),
	CALL(77, getrusage, A(INT, OUT), T_NONE, R_ZERO, 0, E(EFAULT, EINVAL)),
	CALL(78, gettimeofday, A(OUTN, OUTN), T_NONE, R_ZERO, 0, E(EFAULT, EINVAL)),
	CALL(79, settimeofday, A(INN, INN), T_NONE, R_ZERO, 0, E(EFAULT, EINVAL)),
	CALL(85, readlink, A(PATH, BUF, LEN), T_NONE, R_LEN, 2, E(E_PATH, EINVAL)),
	CALL(91, munmap, A(X, X), T_MEM, R_ZERO, 0, E(EINVAL, ENOMEM)),
	CALL(104, setitimer, A(INT, INN, OUTN), T_ITIMER, R_ZERO, 0, E(EFAULT, EINVAL)),
	CALL(105, getitimer, A(INT, OUT), T_NONE, R_ZERO, 0, E(EFAULT, EINVAL)),
	CALL(114, wait4, A(PID, OUTN, FLAGS, OUTN), T_NONE, R_ANY, 0,
	     E(ECHILD, EINTR, EINVAL, EFAULT, ESRCH)),
	CALL(116, sysinfo, A(OUT), T_NONE, R_ZERO, 0, E(EFAULT)),
	CALL(119, sigreturn, A0, T_SIGRETURN, R_ANY, 0, NONE),
	CALL(122, uname, A(OUT), T_NONE, R_ZERO, 0, E(EFAULT)),
	CALL(124, adjtimex, A(INOUT), T_NONE, R_ANY, 0, E(EFAULT, EINVAL)),
	CALL(125, mprotect, A(X, X, FLAGS), T_MEM, R_ZERO, 0, E(EACCES, EINVAL, ENOMEM)),
	CALL(132, getpgid, A(PID), T_NONE, R_ANY, 0, E(ESRCH)),
	CALL(140, _llseek, A(FD, OFF, OFF, OUT, INT), T_NONE, R_ZERO, 0,
	     E(EBADF, EFAULT, EINVAL, ENXIO, EOVERFLOW, ESPIPE)),
	CALL(141, getdents, A(FD, BUF, LEN), T_NONE, R_LEN, 2, E(E_DENTS)),
	CALL(145, readv, A(FD, IOV, CNT), T_READ, R_ANY, 0, E(E_READ, EOPNOTSUPP)),
	CALL(146, writev, A(FD, IOV, CNT), T_WRITEV, R_ANY, 0, E(E_WRITE)),
	CALL(147, getsid, A(PID), T_NONE, R_ANY, 0, E(ESRCH, EPERM)),
	CALL(158, sched_yield, A0, T_NONE, R_ZERO, 0, NONE),
	CALL(162, nanosleep, A(TSREQ, OUTN), T_NONE, R_ZERO, 0, E(E_SLEEP)),
	CALL(173, rt_sigreturn, A0, T_SIGRETURN, R_ANY, 0, NONE),
	CALL(174, rt_sigaction, A(SIG, INN, OUTN, SSZ), T_SIGACT, R_ZERO, 0, E(EFAULT, EINVAL)),
	CALL(175, rt_sigprocmask, A(INT, INN, OUTN, SSZ), T_SIGMASK, R_ZERO, 0, E(EFAULT, EINVAL)),
	CALL(176, rt_sigpending, A(OUT, SSZ), T_NONE, R_ZERO, 0, E(EFAULT, EINVAL)),
	CALL(179, rt_sigsuspend, A(INN, SSZ), T_SIGSUSPEND, R_ANY, 0, E(EFAULT, EINTR, EINVAL)),
	CALL(183, getcwd, A(BUF, LEN), T_NONE, R_LEN, 1,
	     E(EACCES, EFAULT, EINVAL, ENAMETOOLONG, ENOENT, ERANGE, ENOMEM)),
	CALL(191, ugetrlimit, A(INT, OUT), T_NONE, R_ZERO, 0, E(EFAULT, EINVAL)),
	CALL(192, mmap2, A(X, LEN, FLAGS, X, FD, X), T_MMAP, R_ANY, 0, E(E_MMAP)),
	CALL(195, stat64, A(PATH, OUT), T_NONE, R_ZERO, 0, E(E_STAT)),
	CALL(196, lstat64, A(PATH, OUT), T_NONE, R_ZERO, 0, E(E_STAT)),
	CALL(197, fstat64, A(FD, OUT), T_NONE, R_ZERO, 0, E(EBADF, EFAULT, ENOMEM, EOVERFLOW)),
	CALL(199, getuid32, A0, T_NONE, R_ANY, 0, NONE),
	CALL(200, getgid32, A0, T_NONE, R_ANY, 0, NONE),
	CALL(201, geteuid32, A0, T_NONE, R_ANY, 0, NONE),
	CALL(202, getegid32, A0, T_NONE, R_ANY, 0, NONE),
	CALL(219, madvise, A(X, X, INT), T_MADVISE, R_ZERO, 0,
	     E(EACCES, EAGAIN, EBADF, EFAULT, EINVAL, EIO, ENOMEM, EPERM, EHWPOISON)),
	CALL(220, getdents64, A(FD, BUF, LEN), T_NONE, R_LEN, 2, E(E_DENTS)),
	CALL(221, fcntl64, A(FD, INT, INT), T_NONE, R_ANY, 0, E(E_FCNTL)),
	CALL(224, gettid, A0, T_NONE, R_ANY, 0, NONE),
	CALL(238, tkill, A(PID, SIG), T_KILL, R_ZERO, 0, E(E_SIGNAL)),
	CALL(243, set_thread_area, A(INOUT), T_SETTLS, R_ZERO, 0, E(EFAULT, EINVAL, ESRCH)),
	CALL(244, get_thread_area, A(INOUT), T_GETTLS, R_ZERO, 0, E(EFAULT, EINVAL)),
	CALL(258, set_tid_address, A(OUTN), T_NONE, R_ANY, 0, NONE),
	/* timer_create is never made: the ids are rarely valid ones, EINVAL */
	CALL(260, timer_settime, A(INT, FLAGS, INN, OUTN), T_NONE, R_ZERO, 0, E(EFAULT, EINVAL)),
	CALL(261, timer_gettime, A(INT, OUT), T_NONE, R_ZERO, 0, E(EFAULT, EINVAL)),
	CALL(262, timer_getoverrun, A(INT), T_NONE, R_ANY, 0, E(EINVAL)),
	CALL(263, timer_delete, A(INT), T_NONE, R_ZERO, 0, E(EINVAL)),
	CALL(264, clock_settime, A(CLK, IN), T_NONE, R_ZERO, 0, E(EFAULT, EINVAL, EPERM)),
	CALL(265, clock_gettime, A(CLK, OUT), T_NONE, R_ZERO, 0, E(E_CLOCK)),
	CALL(266, clock_getres, A(CLK, OUTN), T_NONE, R_ZERO, 0, E(E_CLOCK)),
	CALL(267, clock_nanosleep, A(CLK, INT, TSREQ, OUTN), T_CPUSLEEP, R_ANY, 0,
	     E(E_SLEEP, EOPNOTSUPP)),
	CALL(270, tgkill, A(PID, PID, SIG), T_KILL, R_ZERO, 0, E(E_SIGNAL)),
	CALL(295, openat, A(DFD, PATH, FLAGS, MODE), T_NONE, R_FD, 0, E(E_OPEN, EBADF)),
	CALL(300, fstatat64, A(DFD, PATH, OUT, FLAGS), T_NONE, R_ZERO, 0, E(E_STAT, EINVAL)),
	CALL(305, readlinkat, A(DFD, PATH, BUF, LEN), T_NONE, R_LEN, 3, E(E_PATH, EINVAL, EBADF)),
	CALL(307, faccessat, A(DFD, PATH, MODE), T_NONE, R_ZERO, 0, E(E_ACCESS, EBADF)),
	CALL(311, set_robust_list, A(INN, LEN), T_NONE, R_ZERO, 0, E(EINVAL)),
	CALL(322, timerfd_create, A(CLK, FLAGS), T_NONE, R_FD, 0,
	     E(EINVAL, EMFILE, ENFILE, ENODEV, ENOMEM, EPERM)),
	CALL(325, timerfd_settime, A(FD, FLAGS, IN, OUTN), T_NONE, R_ZERO, 0,
	     E(EBADF, ECANCELED, EFAULT, EINVAL)),
	CALL(326, timerfd_gettime, A(FD, OUT), T_NONE, R_ZERO, 0, E(EBADF, EFAULT, EINVAL)),
	CALL(330, dup3, A(FD, FD, FLAGS), T_NONE, R_FD, 0, E(EBADF, EBUSY, EINTR, EINVAL, EMFILE)),
	CALL(331, pipe2, A(OUT, FLAGS), T_NONE, R_ZERO, 0, E(EFAULT, EINVAL, EMFILE, ENFILE)),
	CALL(340, prlimit64, A(PID, INT, INN, OUTN), T_RLIMIT, R_ZERO, 0,
	     E(EFAULT, EINVAL, EPERM, ESRCH)),
	CALL(343, clock_adjtime, A(CLK, INOUT), T_NONE, R_ANY, 0, E(EFAULT, EINVAL, EOPNOTSUPP)),
	CALL(355, getrandom, A(BUF, LEN, FLAGS), T_NONE, R_LEN, 1,
	     E(EAGAIN, EFAULT, EINTR, EINVAL)),
	CALL(383, statx, A(DFD, PATH, FLAGS, FLAGS, OUT), T_NONE, R_ZERO, 0, E(E_STAT, EINVAL)),
	CALL(403, clock_gettime64, A(CLK, OUT), T_NONE, R_ZERO, 0, E(E_CLOCK)),
	CALL(404, clock_settime64, A(CLK, IN), T_NONE, R_ZERO, 0, E(EFAULT, EINVAL, EPERM)),
	CALL(405, clock_adjtime64, A(CLK, INOUT), T_NONE, R_ANY, 0, E(EFAULT, EINVAL, EOPNOTSUPP)),
	CALL(406, clock_getres_time64, A(CLK, OUTN), T_NONE, R_ZERO, 0, E(E_CLOCK)),
	CALL(407, clock_nanosleep_time64, A(CLK, INT, TS64REQ, OUTN), T_CPUSLEEP, R_ANY, 0,
	     E(E_SLEEP, EOPNOTSUPP)),
	CALL(408, timer_gettime64, A(INT, OUT), T_NONE, R_ZERO, 0, E(EFAULT, EINVAL)),
	CALL(409, timer_settime64, A(INT, FLAGS, INN, OUTN), T_NONE, R_ZERO, 0, E(EFAULT, EINVAL)),
	CALL(410, timerfd_gettime64, A(FD, OUT), T_NONE, R_ZERO, 0, E(EBADF, EFAULT, EINVAL)),
	CALL(411, timerfd_settime64, A(FD, FLAGS, IN, OUTN), T_NONE, R_ZERO, 0,
	     E(EBADF, ECANCELED, EFAULT, EINVAL)),
	CALL(439, faccessat2, A(DFD, PATH, MODE, FLAGS), T_NONE, R_ZERO, 0, E(E_ACCESS, EBADF)),
	CALL(42, pipe, A(OUT), T_NONE, R_ZERO, 0, E(EFAULT, EMFILE, ENFILE)),
};

/*
 * Never made: they end the program (exit, exec, a fork that would run it
 * twice), wait for what never comes (pause, sigsuspend, futex, poll,
 * select, sigtimedwait), or, once implemented, would map over it, kill it
 * or confine it whatever their arguments (reboot, the old mmap, mremap,
 * remap_file_pages, ptrace, prctl, seccomp, sigaltstack, signals queued to
 * itself, timers that could send SIGKILL, mlockall with huge mappings).
 */
static const u32 never[] = {
	1,   /* exit */
	2,   /* fork */
	11,  /* execve */
	26,  /* ptrace */
	29,  /* pause */
	72,  /* sigsuspend */
	82,  /* select */
	88,  /* reboot */
	90,  /* old mmap: a structure of arguments, MAP_FIXED anywhere */
	117, /* ipc: semop, msgrcv wait */
	120, /* clone */
	142, /* _newselect */
	152, /* mlockall */
	163, /* mremap */
	168, /* poll */
	172, /* prctl: PR_SET_SECCOMP, PR_SET_PDEATHSIG */
	177, /* rt_sigtimedwait */
	178, /* rt_sigqueueinfo */
	186, /* sigaltstack: frames into the input region */
	190, /* vfork */
	240, /* futex */
	252, /* exit_group */
	256, /* epoll_wait */
	257, /* remap_file_pages */
	259, /* timer_create: SIGEV_SIGNAL may name SIGKILL */
	308, /* pselect6 */
	309, /* ppoll */
	319, /* epoll_pwait */
	335, /* rt_tgsigqueueinfo */
	354, /* seccomp */
	358, /* execveat */
	413, /* pselect6_time64 */
	414, /* ppoll_time64 */
	421, /* rt_sigtimedwait_time64 */
	422, /* futex_time64 */
	424, /* pidfd_send_signal */
	435, /* clone3 */
	441, /* epoll_pwait2 */
};

/* The kernel's own tables, each room's: what it implements. */
#define SYSCALL(nr, name) [nr] = #name,
static const char *const kernel_calls[NR_MAX] = {
#include "../../kernel/syscalls.h"
#include "../../kernel/mm/syscalls.h"
#include "../../kernel/sched/syscalls.h"
#include "../../kernel/time/syscalls.h"
#include "../../kernel/fs/syscalls.h"
#include "../../kernel/proc/syscalls.h"
};
#undef SYSCALL

static const struct spec *spec_of[NR_MAX];
static unsigned char is_never[NR_MAX];
static u32 implemented[NR_MAX], n_implemented;

/* --- values --- */

static u32 pick(const u32 *v, u32 n)
{
	return v[below(n)];
}
#define PICK(...) pick((const u32[]){ __VA_ARGS__ }, sizeof((const u32[]){ __VA_ARGS__ }) / 4)

/* Never a valid pointer: the kernel's memory, nothing, or just out of reach. */
static u32 ptr_bad(void)
{
	switch (below(8)) {
	case 0:
		return 0;
	case 1:
		return below(USER_LO);
	case 2:
		return TASK_SIZE + below(0x40000000u);
	case 3:
		return UNMAPPED + below(UNMAPPED_SIZE);
	case 4:
		return PICK(HOLE1, HOLE2, HOLE3, HOLE4) + below(PAGE);
	case 5:
		return 0xffffffffu - below(64);
	case 6:
		return USER_LO - 1 - below(64);
	default:
		return PICK(1, 4, 0x1000, 0xb8000, 0x100000, 0x101000, 0xfee00000u, 0x7c00000);
	}
}

/* Where nothing can ever be mapped, whatever a fuzzed mmap did: NULL and the kernel's. */
static u32 ptr_kernel(void)
{
	return PICK(0, below(USER_LO), TASK_SIZE + below(0x40000000u), 0xfffffffcu);
}

/* An offset into n bytes: mostly aligned to 4 or 8, sometimes not at all. */
static u32 offset_in(u32 n)
{
	u32 off = below(n);

	if (chance(75))
		off &= chance(50) ? ~3u : ~7u;
	return off;
}

/* Pointers that cross from a page that is there into one that is not (or is read-only). */
static u32 ptr_straddle(int write)
{
	u32 back = 1 + below(chance(50) ? 16 : 512);

	switch (below(write ? 3 : 4)) {
	case 0:
		return RO1 - back; /* arena, then read-only */
	case 1:
		return HOLE2 - back; /* arena2, then a hole */
	case 2:
		return USER_LO - back; /* the kernel's, then user space */
	default:
		return HOLE3 - back; /* read-only, then a hole */
	}
}

/* Is [p, p + len) in the pages the layout maps readable (not a guard or a hole)? */
static int readable(u32 p, u32 len)
{
	static const u32 maps[][2] = {
		{ ARENA, GUARD1 }, { ARENA2, HOLE2 }, { INP, HOLE3 }, { SCRATCH, HOLE4 }
	};

	for (u32 i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		if (p >= maps[i][0] && p <= maps[i][1] - len)
			return 1;
	return 0;
}

/* setitimer's request, copied when its period is too short (T_ITIMER). */
static u32 itimer_copy[4];

static u32 ptr_out(void)
{
	u32 r = below(100);

	if (r < 40)
		return ARENA + offset_in(ARENA_PAGES * PAGE);
	if (r < 50)
		return ARENA2 + offset_in(2 * PAGE);
	if (r < 62)
		return ptr_straddle(1);
	if (r < 72)
		return PICK(RO1, RO2) + offset_in(PAGE);
	return ptr_bad();
}

/* Structures the kernel reads come from the input region's words, or anywhere an out pointer goes. */
static u32 ptr_in(void)
{
	u32 r = below(100);

	if (r < 45)
		return INP + IN_WORDS + offset_in(WORDS_SIZE - 128);
	if (r < 50)
		return INP + IN_PAGES * PAGE - 1 - below(64); /* into the read-only page */
	if (r < 55)
		return ptr_straddle(0);
	return ptr_out();
}

static u32 ptr_path(void)
{
	u32 r = below(100);

	if (r < 60)
		return paths[below(NPATHS + NLONGNAMES)];
	if (r < 65)
		return INP + IN_LONG + below(8); /* no NUL for 4096 bytes */
	if (r < 70)
		return RO2 + below(PAGE); /* no NUL until the hole */
	if (r < 78)
		return ARENA + below(ARENA_PAGES * PAGE);
	if (r < 82)
		return INP + IN_WORDS + below(WORDS_SIZE);
	return ptr_bad();
}

static u32 gen_len(void)
{
	switch (below(10)) {
	case 0:
		return 0;
	case 1:
	case 2:
		return 1 + below(64);
	case 3:
		return PICK(4, 8, 12, 16, 24, 32, 36, 64, 88, 96, 128, 256, 512);
	case 4:
		return PICK(4095, 4096, 4097, 8192, 8193, 65536, 1 << 20);
	case 5:
		return below(ARENA_PAGES * PAGE);
	case 6:
		return PICK(0x7ffff000u, 0x7fffffffu, 0x80000000u, 0xfffff000u, 0xffffffffu,
			    0xfffffffeu, 0x40000000u, 0xc0000000u, 0x3fffffffu);
	case 7:
		return rnd();
	default:
		return below(4096);
	}
}

static u32 gen_int(void)
{
	switch (below(10)) {
	case 0:
	case 1:
	case 2:
	case 3:
		return below(8);
	case 4:
		return below(64);
	case 5:
		return below(1200);
	case 6:
		return (u32)-1 - below(8);
	case 7:
		return PICK(0x7fffffffu, 0x80000000u, 0xffffffffu, 1030, 1024, 1025, 0x10000);
	default:
		return rnd();
	}
}

static u32 gen_flags(void)
{
	switch (below(8)) {
	case 0:
		return 0;
	case 1:
		return 1u << below(32);
	case 2:
		return rnd() & rnd() & 0xfffff;
	case 3:
		return rnd() & 0xff;
	case 4:
		return (1u << below(32)) | (1u << below(32));
	case 5:
		return rnd();
	default:
		return rnd() & rnd() & rnd();
	}
}

/* Descriptors: mostly the low ones that exist, never the program's own. */
static u32 gen_fd(void)
{
	u32 r = below(100);

	if (r < 55)
		return below(10);
	if (r < 65)
		return 10 + below(PRIV_FD - 10);
	if (r < 73)
		return (u32)-1;
	if (r < 78)
		return (u32)-100; /* AT_FDCWD */
	if (r < 88)
		return (u32) - (s32)(2 + below(0x7ffffff0));
	return PICK(64, 65, 128, 1023, 1024, 0x7fffffffu, 0x80000000u, 0xffff);
}

static u32 gen_sig(void)
{
	u32 r = below(100);

	if (r < 85)
		return below(65);
	return PICK(65, 128, (u32)-1, 0x80000000u, 0x100 + SIGUSR1, 0x7fffffffu);
}

static u32 gen_pid(void)
{
	return PICK(0, 1, 1, 1, (u32)-1, 2, 3, 100, 32768, 0x7fffffffu, 0x80000000u, (u32)-2,
		    (u32)-100, rnd());
}

static u32 gen_clock(void)
{
	if (chance(85))
		return (u32)((s32)below(24) - 8); /* the CPU clocks are negative */
	return PICK(0x7fffffffu, 0x80000000u, 16, 100, rnd());
}

static u32 gen_ioctl(void)
{
	if (chance(70))
		return PICK(0x5401, 0x5402, 0x5403, 0x5404, 0x5409, 0x540a, 0x540b, 0x540e, 0x540f,
			    0x5410, 0x5412, 0x5413, 0x5414, 0x541b, 0x5421, 0x5422, 0x5429, 0x5450,
			    0x5451, 0x80045430, 0x40045431, 0x5441);
	return chance(50) ? 0x5400 + below(0x80) : rnd();
}

static u32 gen_iov(void)
{
	u32 r = below(100);

	if (r < 65)
		return iovs[below(NIOVS)];
	if (r < 75)
		return PICK(RO1, RO2) + offset_in(PAGE); /* its words are all kernel addresses */
	if (r < 80)
		return HOLE3 - 8 * (1 + below(4)) + (chance(20) ? below(8) : 0);
	return ptr_bad();
}

/* A sleep request, made in the scratch page: never longer than 2 ms, relative or absolute. */
static u32 gen_tsreq(int is64)
{
	u32 at = SCRATCH + 8 * below(64) + (chance(10) ? below(8) : 0);
	s32 *w = (s32 *)(uintptr_t)at;
	s32 sec = 0, nsec = (s32)below(2000000);

	if (chance(25))
		return chance(50) ? ptr_bad() : HOLE4 - 4 * (1 + below(3));
	switch (below(8)) {
	case 0:
		nsec = 1000000000;
		break;
	case 1:
		nsec = -1 - (s32)below(1000);
		break;
	case 2:
		sec = -1 - (s32)below(100);
		break;
	case 3:
		nsec = (s32)below(1000);
		break;
	default:
		break;
	}
	if (is64) {
		w[0] = sec;
		w[1] = sec < 0 ? -1 : 0;
		w[2] = nsec;
		w[3] = (s32)rnd(); /* the padding a 32-bit kernel ignores */
	} else {
		w[0] = sec;
		w[1] = nsec;
	}
	return at;
}

static u32 gen_arg(enum arg kind)
{
	switch (kind) {
	case FD:
		return gen_fd();
	case DFD:
		return chance(45) ? (u32)-100 : gen_fd();
	case PATH:
		return ptr_path();
	case IN:
	case WBUF:
		return ptr_in();
	case INN:
		return chance(20) ? 0 : ptr_in();
	case OUT:
	case BUF:
	case INOUT:
		return ptr_out();
	case OUTN:
		return chance(30) ? 0 : ptr_out();
	case LEN:
		return gen_len();
	case INT:
		return gen_int();
	case FLAGS:
		return gen_flags();
	case MODE:
		return chance(80) ? below(8) : gen_flags();
	case SIG:
		return gen_sig();
	case PID:
		return gen_pid();
	case CLK:
		return gen_clock();
	case IOV:
		return gen_iov();
	case CNT:
		return chance(80) ? below(20) : PICK(1024, 1025, 0xffffffffu, 0x80000000u, rnd());
	case SSZ:
		return chance(85) ? 8 : PICK(0, 4, 7, 9, 16, 128, 0xffffffffu);
	case TSREQ:
		return gen_tsreq(0);
	case TS64REQ:
		return gen_tsreq(1);
	case IOCMD:
		return gen_ioctl();
	case IOARG:
		return chance(65) ? ptr_out() : gen_int();
	case OFF:
		return chance(60) ? gen_int() : gen_len();
	default:
		/* unknown: numbers, or pointers that are never valid */
		return chance(50) ? gen_int() : chance(50) ? ptr_bad() : rnd();
	}
}

/* --- the layout: made once, checked every VERIFY_EVERY calls --- */

/* The guard and read-only pages' bytes: never 0, and any word of them is a kernel address. */
static unsigned char pattern(u32 addr)
{
	return (unsigned char)(0xc1 + ((addr * 2654435761u) >> 24) % 63);
}

static void fill_pattern(u32 page)
{
	unsigned char *p = (unsigned char *)(uintptr_t)page;

	for (u32 i = 0; i < PAGE; i++)
		p[i] = pattern(page + i);
}

static u32 typical_word(void)
{
	switch (below(10)) {
	case 0:
	case 1:
	case 2:
		return below(17);
	case 3:
		return 0;
	case 4:
		return (u32)-1 - below(4);
	case 5:
		return PICK(999999, 1000000, 999999999, 1000000000, 0x7fffffffu, 0x80000000u, 8,
			    12);
	case 6:
		return ptr_out(); /* never into this region */
	case 7:
		return 1u << below(32);
	default:
		return rnd();
	}
}

/* Appends the string of n bytes made of unit (repeated, then cut) and tail; returns its address. */
static u32 put_path(char *in, u32 *off, const char *unit, u32 n, const char *tail)
{
	u32 at = *off, ulen = (u32)strlen(unit), tlen = (u32)strlen(tail);

	for (u32 i = 0; i + tlen < n; i++)
		in[at + i] = unit[i % ulen];
	memcpy(in + at + n - tlen, tail, tlen + 1);
	*off += n + 1;
	return INP + at;
}

/* The paths at the limits (NLONGNAMES of them). */
static u32 long_paths(char *in, u32 off, u32 *out)
{
	char chain[41 * 15 + 16] = "/";

	out[0] = put_path(in, &off, "n", 255, "");     /* NAME_MAX: fine, just not there */
	out[1] = put_path(in, &off, "p", 6 + 256, ""); /* one past it, under /proc */
	memcpy(in + (out[1] - INP), "/proc/", 6);
	out[2] = put_path(in, &off, "/.", 4095, "/"); /* PATH_MAX with its NUL: the root */
	out[3] = put_path(in, &off, "/.", 4096, "/"); /* one past it */
	for (int i = 0; i < 20; i++)		      /* /proc/self and its cwd: two links each */
		strcat(chain, "proc/self/cwd/");
	strcat(chain, "bin/sh");
	out[4] = put_path(in, &off, chain, (u32)strlen(chain), "");
	chain[1] = '\0';
	for (int i = 0; i < 41; i++)
		strcat(chain, "proc/self/cwd/");
	out[5] = put_path(in, &off, chain, (u32)strlen(chain), "");
	out[6] = put_path(in, &off, "/proc/self/exe/", 15, "");
	return off;
}

static void fill_input(void)
{
	char *in = (char *)(uintptr_t)INP;
	u32 off = IN_PATHS, *w;

	for (u32 i = 0; i < NPATHS; i++) {
		strcpy(in + off, path_list[i]);
		paths[i] = INP + off;
		off += (u32)strlen(path_list[i]) + 1 + below(3);
	}
	off = long_paths(in, off, &paths[NPATHS]);
	for (u32 i = 0; i < 5000; i++) /* a path of 5000 bytes: a/a/a/... */
		in[IN_LONG + i] = i % 2 ? '/' : 'a';
	in[IN_LONG + 5000] = '\0';
	off = IN_IOVS;
	for (u32 i = 0; i < NIOVS; i++) {
		iovs[i] = INP + off;
		iov_cnt[i] = below(16);
		for (u32 k = 0; k < iov_cnt[i]; k++) {
			w = (u32 *)(uintptr_t)(INP + off);
			w[0] = ptr_out();
			w[1] = chance(80) ? below(200) : gen_len();
			off += 8;
		}
	}
	w = (u32 *)(uintptr_t)(INP + IN_WORDS);
	for (u32 i = 0; i < WORDS_SIZE / 4; i++)
		w[i] = typical_word();
	in[IN_CONSOLE] = '\n';
	w = (u32 *)(uintptr_t)(INP + IN_CONSOLE + 16);
	w[0] = INP + IN_CONSOLE; /* the one iovec a console writev is given */
	w[1] = 1;
	memcpy(in_copy, in, sizeof(in_copy));
}

static void map_layout(void)
{
	void *p = mmap((void *)(uintptr_t)BASE, LAYOUT_PAGES * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p != (void *)(uintptr_t)BASE) {
		say("sysfuzz: cannot map the layout at 0x%x: %s\n", BASE, ename(errno));
		_exit(2);
	}
	munmap((void *)(uintptr_t)HOLE1, PAGE);
	munmap((void *)(uintptr_t)HOLE2, PAGE);
	munmap((void *)(uintptr_t)HOLE3, PAGE);
	munmap((void *)(uintptr_t)HOLE4, PAGE);
	memset((void *)(uintptr_t)ARENA, 0, ARENA_PAGES * PAGE);
	memset((void *)(uintptr_t)ARENA2, 0, 2 * PAGE);
	memset((void *)(uintptr_t)SCRATCH, 0, 4 * PAGE);
	fill_pattern(GUARD1);
	fill_pattern(GUARD2);
	fill_pattern(GUARD3);
	fill_pattern(RO1);
	fill_pattern(RO2);
	mprotect((void *)(uintptr_t)SCRATCH, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC);
	mprotect((void *)(uintptr_t)RO1, PAGE, PROT_READ);
	mprotect((void *)(uintptr_t)RO2, PAGE, PROT_READ);
	fill_input();
}

static u64 verified_at;
static u32 damaged; /* pages found changed: reported once each */

static void verify_page(u32 page, const char *what, u32 bit)
{
	const unsigned char *p = (const unsigned char *)(uintptr_t)page;

	if (damaged & bit)
		return;
	for (u32 i = 0; i < PAGE; i++)
		if (p[i] != pattern(page + i)) {
			damaged |= bit;
			fail("the kernel wrote into the %s page at 0x%x (0x%02x, was 0x%02x), "
			     "between "
			     "calls %llu and %llu",
			     what, page + i, p[i], pattern(page + i),
			     (unsigned long long)verified_at, (unsigned long long)call_index);
			return;
		}
}

static void verify(void)
{
	const unsigned char *in = (const unsigned char *)(uintptr_t)INP;

	verify_page(GUARD1, "guard", 1);
	verify_page(GUARD2, "guard", 2);
	verify_page(GUARD3, "guard", 4);
	verify_page(RO1, "read-only", 8);
	verify_page(RO2, "read-only", 16);
	if (!(damaged & 32) && memcmp(in, in_copy, sizeof(in_copy))) {
		u32 i = 0;

		while (in[i] == in_copy[i])
			i++;
		damaged |= 32;
		fail("the kernel wrote into the input region at 0x%x (0x%02x, was 0x%02x), between "
		     "calls %llu and %llu",
		     INP + i, in[i], in_copy[i], (unsigned long long)verified_at,
		     (unsigned long long)call_index);
	}
	verified_at = call_index;
}

/* --- one call --- */

struct call {
	u32 nr;
	u32 a[6];
	const struct spec *s;
};

static u64 calls_made, enosys_seen, efault_seen;
static u32 outside, bad_results, no_table;
static unsigned char nr_seen[NR_MAX];
static u32 errno_seen[NR_MAX][5]; /* bit e: the call answered -e */
static struct call cur;

#define PLAY_END (PLAY + PLAY_SIZE)

/* Mostly the playground's first 64 pages: areas there meet, split and merge. */
static u32 play_page(void)
{
	return PLAY + below(chance(70) ? 64 : PLAY_SIZE / PAGE) * PAGE;
}

/* A length from addr that stays inside the playground. */
static u32 play_len(u32 addr)
{
	u32 room = PLAY_END - addr;

	switch (below(5)) {
	case 0:
		return below(PAGE * 4) + (chance(50) ? 0 : 1);
	case 4:
		return PAGE * (1 + below(3));
	case 1:
		return room;
	case 2:
		return 0;
	default:
		return below(room + 1);
	}
}

/*
 * A range for munmap, mprotect and madvise: in the playground, or one
 * Linux refuses before it looks at any mapping (misaligned, wrapping past
 * 4 GiB, wholly above TASK_SIZE or below the program). Never one that
 * Linux would apply to the program's own pages.
 */
static int mem_range(u32 *addr, u32 *len)
{
	switch (below(10)) {
	case 0:
		*addr = play_page() + 1 + below(PAGE - 1);
		*len = gen_len();
		return 0;
	case 1:
		*addr = play_page();
		*len = 0u - *addr + PAGE * (1 + below(4)) - below(PAGE); /* wraps */
		return 0;
	case 2:
		*addr = TASK_SIZE + below(0x3ffff) * PAGE;
		*len = gen_len();
		return 0;
	case 3:
		*addr = below(USER_LO / PAGE) * PAGE;
		*len = below(USER_LO - *addr + 1);
		return 0;
	default:
		*addr = play_page();
		*len = play_len(*addr);
		return 1;
	}
}

/* Advice that keeps every page's content (or that Linux refuses). */
static u32 gentle_advice(void)
{
	return PICK(0, 1, 2, 3, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 26, 99,
		    102, (u32)-1, 0x80000000u);
}

static void gen_mmap(struct call *c)
{
	u32 type = PICK(0x02, 0x02, 0x02, 0x01, 0x03, 0, 0x0f), flags = type;
	u32 fixed = chance(30), noreplace = chance(10);

	if (chance(85))
		flags |= 0x20; /* MAP_ANONYMOUS */
	if (chance(20))
		flags |= PICK(0x100, 0x800, 0x1000, 0x2000, 0x4000, 0x8000, 0x10000, 0x20000,
			      0x40000, 0x80000, 0x4000000);
	if (chance(5))
		flags |= rnd();
	flags &= ~(u32)(0x10 | 0x100000);
	c->a[1] = gen_len();
	if (fixed || noreplace) {
		flags |= fixed ? 0x10 : 0x100000;
		switch (below(10)) {
		case 0:
			c->a[0] = play_page() + 1 + below(PAGE - 1);
			break;
		case 1:
			c->a[0] = TASK_SIZE + below(0x3ffff) * PAGE;
			break;
		case 2:
			c->a[0] = below(USER_LO / PAGE) * PAGE;
			c->a[1] = below(USER_LO - c->a[0] + 1);
			break;
		case 3:
			if (!fixed) { /* over the program's own pages: EEXIST, nothing replaced */
				c->a[0] = BASE + below(LAYOUT_PAGES) * PAGE;
				break;
			}
			/* fall through */
		default:
			c->a[0] = play_page();
			c->a[1] = play_len(c->a[0]);
			break;
		}
	} else {
		c->a[0] = PICK(0, 0, BASE, PLAY, USER_LO, TASK_SIZE - PAGE, rnd(), play_page());
	}
	/* MAP_POPULATE and MAP_LOCKED fill what they map: kept small. */
	if ((flags & 0xa000) && c->a[1] > (1u << 20))
		c->a[1] = below(1u << 20);
	c->a[2] = chance(75) ? below(8) : gen_flags();
	c->a[3] = flags;
	c->a[5] = chance(70) ? 0 : rnd();
}

/* A struct user_desc in the scratch page: glibc's own slot, the free ones, and beyond. */
static u32 gen_user_desc(void)
{
	u32 *d = (u32 *)(uintptr_t)(SCRATCH + PAGE + 16 * below(32));

	if (chance(20))
		return ptr_out();
	d[0] = PICK((u32)-1, (u32)-1, saved_gs >> 3, saved_gs >> 3, 6, 7, 8, 0, 5, 9, 12, rnd());
	d[1] = chance(50) ? rnd() : ARENA;
	d[2] = chance(50) ? rnd() & 0xfffff : 0xfffff;
	d[3] = below(128) | (chance(10) ? rnd() & ~0x7fu : 0);
	if (chance(15)) { /* Linux's two forms of "no segment" */
		d[1] = d[2] = 0;
		d[3] = chance(50) ? 0x28 : 0;
	}
	return (u32)(uintptr_t)d;
}

/* Resources whose new limit would kill or starve the program on Linux. */
static int risky_rlimit(u32 resource)
{
	return resource == 0 || resource == 2 || resource == 3 || resource == 7 || resource == 9 ||
	       resource == 11 || resource == 15;
}

static int sync_signal(u32 sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP;
}

/* Linux's process CPU clocks of the caller: 2, and ~pid << 3 | 0..2 for pid 0 or its own. */
static int own_cpu_clock(s32 id)
{
	s32 pid = ~(id >> 3);

	if (id == 2)
		return 1;
	return id < 0 && (id & 7) < 3 && (pid == 0 || pid == (s32)SYS0(SYS_getpid));
}

/* The arguments a call's kind alone cannot make safe. */
static void gen_special(struct call *c)
{
	switch (c->s->tame) {
	case T_SIGACT:
		if (sync_signal(c->a[0]) && c->a[1])
			c->a[1] = ptr_kernel(); /* their handler stays the program's */
		break;
	case T_KILL: {
		u32 *sig = &c->a[c->nr == 270 ? 2 : 1];

		/*
		 * A fault's signal from another process arrives between the
		 * receiver's calls, where it means a bug in the receiver: the
		 * fork phase's children send none.
		 */
		if (*sig == SIGKILL || *sig == SIGSTOP || (in_child && sync_signal(*sig)))
			*sig = 0;
		break;
	}
	case T_BRK:
		c->a[0] = PICK(0, below(USER_LO), orig_brk, orig_brk + below(PAGE),
			       orig_brk + below(64u << 20), orig_brk + below(TASK_SIZE - orig_brk),
			       TASK_SIZE + below(0x3fffffff), 0xffffffffu);
		break;
	case T_MMAP:
		gen_mmap(c);
		break;
	case T_MEM:
		mem_range(&c->a[0], &c->a[1]);
		break;
	case T_MADVISE:
		if (!mem_range(&c->a[0], &c->a[1]))
			c->a[2] = gentle_advice();
		else if (chance(50))
			c->a[2] = PICK(4, 8, 9, 22, 23, 24, 25, 100, 101);
		break;
	case T_SIGSUSPEND:
		if (c->a[1] == 8)
			c->a[0] = ptr_kernel(); /* fails before it waits */
		break;
	case T_SETTLS:
		if (chance(75))
			c->a[0] = gen_user_desc();
		break;
	case T_GETTLS:
		if (chance(60))
			c->a[0] = gen_user_desc();
		break;
	case T_CPUSLEEP:
		/*
		 * Its own CPU time does not move while it sleeps (a forked child's
		 * has hardly begun): absolute, to a valid request's time 0.
		 */
		if (own_cpu_clock((s32)c->a[0])) {
			s32 *w = (s32 *)(uintptr_t)c->a[2];
			int nsec = c->nr == 407 ? 2 : 1;

			c->a[1] |= 1; /* TIMER_ABSTIME */
			if (c->a[2] - SCRATCH <= 4 * PAGE - 16 && w[nsec] >= 0 &&
			    w[nsec] < 1000000000)
				w[nsec] = 0;
		}
		/*
		 * A relative sleep on CLOCK_TAI follows the clock when it is set,
		 * on Linux too (only CLOCK_REALTIME's relative timers are moved
		 * to CLOCK_MONOTONIC): in the fork phase a sibling may set the
		 * clock back years while a child sleeps its 2 ms, and the child
		 * then sleeps years. The children sleep on CLOCK_MONOTONIC.
		 */
		if (in_child && c->a[0] == CLOCK_TAI && !(c->a[1] & 1))
			c->a[0] = CLOCK_MONOTONIC;
		break;
	case T_ITIMER:
		/*
		 * An ITIMER_REAL period shorter than a signal's delivery starves
		 * the program, on Linux too: SIGALRM is due again when its
		 * handler returns, so the handler runs for ever. Such a request
		 * goes as a copy with a 1 ms period.
		 */
		if (c->a[0] == 0 && readable(c->a[1], 16)) {
			const u32 *w = (const u32 *)(uintptr_t)c->a[1];

			if (w[0] == 0 && w[1] > 0 && w[1] < 1000) {
				memcpy(itimer_copy, w, sizeof(itimer_copy));
				itimer_copy[1] = 1000;
				c->a[1] = (u32)(uintptr_t)itimer_copy;
			}
		}
		break;
	case T_RLIMIT: {
		u32 *res = &c->a[c->nr == 75 ? 0 : 1], *new = &c->a[c->nr == 75 ? 1 : 2];

		if (chance(50))
			*res = below(17);
		if (*new &&risky_rlimit(*res))
			*new = chance(50) ? 0 : ptr_kernel();
		break;
	}
	default:
		break;
	}
}

static u32 pick_number(void)
{
	u32 r = below(100), nr;

	do {
		if (r < 88)
			nr = implemented[below(n_implemented)];
		else if (r < 95)
			nr = below(NR_MAX);
		else
			nr = PICK(NR_MAX, NR_MAX + 1, 511, 512, 1000, 0xffff, 0x10000, 0x7fffffffu,
				  0x80000000u, 0xffffffffu, 0xfffffffeu, 0x40000000u | 3, rnd());
		r = below(100);
	} while (nr < NR_MAX && is_never[nr]);
	return nr;
}

static void gen_call(struct call *c)
{
	c->nr = pick_number();
	c->s = c->nr < NR_MAX ? spec_of[c->nr] : NULL;
	for (int i = 0; i < 6; i++)
		c->a[i] = gen_arg(c->s ? (enum arg)c->s->arg[i] : X);
	if (c->s)
		gen_special(c);
}

/* --- making it, and judging the answer --- */

static const char *call_name(u32 nr)
{
	if (nr < NR_MAX && spec_of[nr])
		return spec_of[nr]->name;
	if (nr < NR_MAX && kernel_calls[nr])
		return kernel_calls[nr];
	return "?";
}

static int in_set(const short *errs, long e)
{
	for (; *errs; errs++)
		if (*errs == e)
			return 1;
	return 0;
}

static void bad(const struct call *c, long ret, const char *why)
{
	fail("#%llu %s(%u) (0x%x, 0x%x, 0x%x, 0x%x, 0x%x, 0x%x) = %ld%s%s: %s",
	     (unsigned long long)call_index, call_name(c->nr), c->nr, c->a[0], c->a[1], c->a[2],
	     c->a[3], c->a[4], c->a[5], ret, ret < 0 && ret >= -4095 ? " " : "",
	     ret < 0 && ret >= -4095 ? ename(-ret) : "", why);
}

static void check_result(const struct call *c, long ret)
{
	const struct spec *s = c->s;
	int implemented_nr = c->nr < NR_MAX && kernel_calls[c->nr];

	if (c->nr < NR_MAX)
		nr_seen[c->nr] = 1;
	if (ret < 0 && ret >= -4095) {
		long e = -ret;

		enosys_seen += e == ENOSYS;
		efault_seen += e == EFAULT;
		if (c->nr < NR_MAX && e < 160)
			errno_seen[c->nr][e / 32] |= 1u << (e % 32);
		if (!implemented_nr) {
			if (e != ENOSYS) {
				outside++;
				bad(c, ret,
				    "a number the kernel does not implement must be ENOSYS");
			}
		} else if (!s) {
			if (!(errno_seen[c->nr][4] & 0x80000000u)) { /* once per number */
				errno_seen[c->nr][4] |= 0x80000000u;
				no_table++;
				bad(c, ret,
				    "the kernel implements it; sysfuzz has no errno set for it");
			}
		} else if (!in_set(s->errs, e) && s->res != R_TIME) {
			outside++;
			bad(c, ret, "not an errno Linux gives for this call");
		}
		return;
	}
	if (!implemented_nr) {
		bad_results++;
		bad(c, ret, "a number the kernel does not implement succeeded");
	} else if (s && s->res == R_ZERO && ret != 0) {
		bad_results++;
		bad(c, ret, "success is 0 for this call");
	} else if (s && s->res == R_LEN && (u32)ret > c->a[s->lenarg]) {
		bad_results++;
		bad(c, ret, "more than the length asked for");
	} else if (s && s->res == R_FD && (ret < 0 || ret >= 1024)) {
		bad_results++;
		bad(c, ret, "not a descriptor");
	}
}

static long invoke(const struct call *c)
{
	return raw_syscall(c->nr, c->a[0], c->a[1], c->a[2], c->a[3], c->a[4], c->a[5]);
}

static unsigned char statbuf[144] __attribute__((aligned(8))); /* struct stat64, and room */

enum { FILE_PLAIN, FILE_TTY, FILE_PIPE };

/*
 * What fd is: the console (a tty), a pipe, socket or anonymous inode (a
 * timerfd: no file type in its mode) which may block as well, or else.
 */
static int fd_kind(u32 fd)
{
	u32 mode;

	if (fd >= 64 || SYS2(SYS_fstat64, fd, statbuf) != 0)
		return FILE_PLAIN;
	mode = *(u32 *)(statbuf + 16); /* st_mode */
	if (S_ISCHR(mode))
		return FILE_TTY;
	return S_ISFIFO(mode) || S_ISSOCK(mode) || !(mode & S_IFMT) ? FILE_PIPE : FILE_PLAIN;
}

static void set_nonblock(u32 fd)
{
	long fl = SYS2(SYS_fcntl64, fd, F_GETFL);

	if (fl >= 0)
		SYS3(SYS_fcntl64, fd, F_SETFL, fl | O_NONBLOCK);
}

/* A read of the console or a pipe must not wait for what nobody will write. */
static void console_read_tame(const struct call *c)
{
	if (fd_kind(c->a[0]) != FILE_PLAIN)
		set_nonblock(c->a[0]);
}

/*
 * The console gets a newline, a bad pointer or nothing: the log stays
 * readable. A full pipe must not make a write wait.
 */
static void console_write_tame(struct call *c, int vec)
{
	u32 how = below(3), bad = ptr_bad(); /* drawn whatever the file: the stream is the seed's */

	switch (fd_kind(c->a[0])) {
	case FILE_PIPE:
		set_nonblock(c->a[0]);
		return;
	case FILE_PLAIN:
		return;
	}
	switch (how) {
	case 0:
		c->a[1] = vec ? INP + IN_CONSOLE + 16 : INP + IN_CONSOLE;
		c->a[2] = 1;
		break;
	case 1:
		c->a[1] = bad;
		break;
	default:
		c->a[2] = 0;
		break;
	}
}

static void block_async(void)
{
	set_mask(all_async);
}

static int overlaps(u32 a, u32 alen, u32 b, u32 blen)
{
	return (u64)a < (u64)b + blen && (u64)b < (u64)a + alen;
}

/* Whether [a, a+len) meets a page of the layout that is mapped (its holes may be taken). */
static int overlaps_layout(u32 a, u32 len)
{
	for (u32 page = BASE; page < BASE + LAYOUT_PAGES * PAGE; page += PAGE)
		if (page != HOLE1 && page != HOLE2 && page != HOLE3 && page != HOLE4 &&
		    overlaps(a, len, page, PAGE))
			return 1;
	return 0;
}

/* Where a successful mmap2 put its pages, against what it must not have touched. */
static void mmap_result(const struct call *c, long ret)
{
	u32 at = (u32)ret, len = (c->a[1] + PAGE - 1) & ~(PAGE - 1);
	int fixed = c->a[3] & (0x10 | 0x100000);

	if (ret < 0 && ret >= -4095)
		return;
	if ((at & (PAGE - 1)) || (fixed && at != c->a[0]) || (u64)at + len > TASK_SIZE) {
		bad_results++;
		bad(c, ret, "not where mmap2 may map");
		return;
	}
	if (overlaps_layout(at, len) || overlaps(at, len, 0x08048000u, orig_brk - 0x08048000u)) {
		bad_results++;
		bad(c, ret, "mapped over the program's own pages");
		return;
	}
	if (!(fixed && at >= PLAY && (u64)at + len <= PLAY_END))
		SYS2(SYS_munmap, at, len);
}

static void after_sigaction(const struct call *c)
{
	s32 sig = (s32)c->a[0];

	if (sig > 0 && sig < 65)
		install_handler(sig);
}

static u32 tls_calls;

static void forge_frame(u32 nr);

static long run_call(struct call *c)
{
	long ret;

	switch (c->s ? c->s->tame : T_NONE) {
	case T_READ:
		console_read_tame(c);
		break;
	case T_WRITE:
		console_write_tame(c, 0);
		break;
	case T_WRITEV:
		console_write_tame(c, 1);
		break;
	case T_SIGACT:
		block_async();
		ret = invoke(c);
		after_sigaction(c);
		set_mask(0);
		return ret;
	case T_SETTLS:
		block_async();
		ret = invoke(c);
		restore_tls();
		if (++tls_calls % 4 == 0) /* the free slots free again */
			for (u32 e = 6; e < 9; e++)
				if (e != saved_gs >> 3) {
					u32 d[4] = { e, 0, 0, 0x28 };

					SYS1(SYS_set_thread_area, d);
				}
		set_mask(0);
		return ret;
	case T_SIGRETURN:
		forge_frame(c->nr);
		return 0; /* not reached */
	default:
		break;
	}
	ret = invoke(c);
	switch (c->s ? c->s->tame : T_NONE) {
	case T_SIGMASK:
		set_mask(0);
		break;
	case T_BRK:
		if ((u32)ret != orig_brk)
			SYS1(SYS_brk, orig_brk);
		break;
	case T_MMAP:
		mmap_result(c, ret);
		break;
	default:
		break;
	}
	return ret;
}

/* --- sigreturn through a forged frame --- */

static u32 gen_selector(void)
{
	switch (below(10)) {
	case 0:
	case 1:
	case 2:
		return PICK(saved_ds, saved_gs, saved_fs, saved_ds);
	case 3:
		return 0;
	case 4:
		return PICK(0x08, 0x10, 0x0b, 0x13, 0x18, 0x1b, 0x20, 0x23, 0x73, 0x7b);
	case 5:
	case 6:
		return (6 + below(3)) << 3 | below(4); /* the TLS slots, at every RPL */
	case 7:
		return below(32) << 3 | 4 | 3; /* the LDT */
	default:
		return chance(50) ? below(0x10000) : rnd();
	}
}

/*
 * A frame of random words on the scratch pages, with the fields that
 * matter chosen: where to return (the landing pad, or somewhere that
 * faults), the segments, the flags, the FPU state, the mask (never
 * blocking the synchronous signals, so that a fault is still caught).
 */
static void forge_frame(u32 nr)
{
	u32 esp = SCRATCH + PAGE + 2048, *w = (u32 *)(uintptr_t)(esp - 256);
	u32 *sc = (u32 *)(uintptr_t)(nr == 119 ? esp : esp + 160);
	u32 sync = (u32)SYNC_SIGS;

	for (u32 i = 0; i < (1024 + 256) / 4; i++)
		w[i] = chance(30) ? typical_word() : rnd();
	sc[0] = gen_selector();	 /* gs */
	sc[1] = gen_selector();	 /* fs */
	sc[2] = gen_selector();	 /* es */
	sc[3] = gen_selector();	 /* ds */
	sc[7] = LAND_STACK - 64; /* esp */
	sc[14] = chance(60) ? (u32)(uintptr_t)landing_pad
			    : PICK(TASK_SIZE, 0xfffff000u, 0x1000, USER_LO - 4, UNMAPPED, HOLE1) +
				      below(64);
	sc[15] = gen_selector();				 /* cs */
	sc[16] = chance(50) ? rnd() : 0x202 | (rnd() & 0x40cd5); /* eflags */
	sc[17] = LAND_STACK - 64;
	sc[18] = gen_selector(); /* ss */
	switch (below(5)) {
	case 0:
	case 1:
		sc[19] = 0;
		break;
	case 2:
		sc[19] = INP + IN_WORDS + offset_in(2 * PAGE);
		break;
	case 3:
		sc[19] = ARENA + offset_in(8 * PAGE);
		break;
	default:
		sc[19] = ptr_bad();
		break;
	}
	if (nr == 119) {
		sc[20] &= ~sync;	    /* oldmask */
		w[(712 + 256) / 4] = rnd(); /* extramask: signals 33-64 */
	} else {
		sc[22] &= ~sync; /* uc_sigmask, after the 88 bytes of sigcontext */
	}
	armed = 1;
	forge_sigreturn((long)nr, esp);
}

/* --- instructions ring 3 may not complete --- */

#define TRAP_CODE (SCRATCH + 2048) /* the scratch's first page is executable */
#define TRAP_DATA (SCRATCH + 3072)

struct trap {
	const char *name;
	const char *code; /* machine code; "ret" is appended */
	unsigned char len;
	unsigned char may_complete; /* Linux too may let it through (CR0.AM, CR4 bits) */
};

/*
 * Each must end in a signal, never in the kernel and never done: the
 * privileged instructions, software interrupts to vectors the kernel
 * keeps to itself, far transfers to its selectors, its memory, and the
 * faults a program may cause (divide, x87 and SSE exceptions, single-step).
 * The bytes @ are patched: int's vector, or an address (no instruction
 * here has a 0x40 byte of its own).
 */
#define T(name, code, may)                        \
	{                                         \
		name, code, sizeof(code) - 1, may \
	}
static const struct trap traps[] = {
	T("ud2", "\x0f\x0b", 0),
	T("int3", "\xcc", 0),
	T("int N", "\xcd@", 0),
	T("hlt", "\xf4", 0),
	T("cli", "\xfa", 0),
	T("sti", "\xfb", 0),
	T("in 0x60", "\xe4\x60", 0),
	T("out 0xf4 (QEMU's exit port)", "\xe6\xf4", 0),
	T("divide by zero", "\x31\xc0\xf7\xf0", 0),
	T("mov to cr0", "\x0f\x22\xc0", 0),
	T("mov from cr0", "\x0f\x20\xc0", 0),
	T("wrmsr", "\x0f\x30", 0),
	T("rdmsr", "\x0f\x32", 0),
	T("rdpmc", "\x0f\x33", 1),
	T("sysenter", "\x0f\x34", 0),
	T("sysexit", "\x0f\x35", 0),
	T("syscall", "\x0f\x05", 0),
	T("clts", "\x0f\x06", 0),
	T("invd", "\x0f\x08", 0),
	T("wbinvd", "\x0f\x09", 0),
	T("lgdt", "\x0f\x01\x10", 0),
	T("lidt", "\x0f\x01\x18", 0),
	T("lldt", "\x0f\x00\xd0", 0),
	T("ltr", "\x0f\x00\xd8", 0),
	T("mov to dr7", "\x0f\x23\xf8", 0),
	T("kernel data segment into ds", "\x66\xb8\x10\x00\x8e\xd8", 0),
	T("bad selector into ss", "\x66\xb8\x2b\x00\x8e\xd0", 0),
	T("far call to the kernel's code", "\x9a\x00\x00\x10\x00\x08\x00", 0),
	T("far jump to a data selector", "\xea\x00\x00\x10\x00\x10\x00", 0),
	T("iret to ring 0", "\x68\x02\x02\x00\x00\x6a\x08\x68\x00\x00\x10\x00\xcf", 0),
	T("lock nop", "\xf0\x90", 0),
	T("instruction of 16 bytes",
	  "\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x90", 0),
	T("into", "\xb8\xff\xff\xff\x7f\x83\xc0\x01\xce", 0),
	T("bound", "\xb8\x05\x00\x00\x00\xb9@@@@\x62\x01", 0),
	T("jump into the kernel", "\xb8\x00\x10\x00\xc0\xff\xe0", 0),
	T("jump to the kernel's text", "\xb8\x00\x00\x10\x00\xff\xe0", 0),
	T("write the kernel's text", "\xc7\x05\x00\x10\x10\x00\xef\xbe\xad\xde", 0),
	T("write the kernel's data", "\xc7\x05\x00\x00\x20\x00\xef\xbe\xad\xde", 0),
	T("write the local APIC", "\xc7\x05\xb0\x00\xe0\xfe\x00\x00\x00\x00", 0),
	T("read the kernel", "\xa1\x00\x00\x10\x00", 0),
	T("write a read-only page", "\xc7\x05@@@@\xef\xbe\xad\xde", 0),
	T("x87 divide by zero, unmasked", "\xdb\xe3\xd9\x2d@@@@\xd9\xe8\xd9\xee\xde\xf9\x9b", 0),
	/* QEMU's TCG never raises #XM: the division completes there */
	T("SSE 0/0, unmasked", "\x0f\xae\x15@@@@\x0f\x57\xc0\xf3\x0f\x5e\xc0", 1),
	T("single step", "\x9c\x81\x0c\x24\x00\x01\x00\x00\x9d\x90", 0),
	/* QEMU's TCG never checks alignment (no #AC), whatever CR0.AM says */
	T("misaligned with EFLAGS.AC set",
	  "\x9c\x81\x0c\x24\x00\x00\x04\x00\x9d\x8b\x44\x24\x01\x9c\x81\x24\x24\xff\xff\xfb"
	  "\xff\x9d",
	  1),
};
#undef T
#define NTRAPS (sizeof(traps) / sizeof(traps[0]))

static u32 traps_made, traps_done, trap_done[NTRAPS];

/* The trap's code at TRAP_CODE, its patches filled in, then ret. */
static void put_trap(const struct trap *t)
{
	unsigned char *c = (unsigned char *)(uintptr_t)TRAP_CODE;
	u32 *d = (u32 *)(uintptr_t)TRAP_DATA;
	u32 addr = TRAP_DATA, n = 0;

	d[0] = 0x0360;		/* x87 control word: every exception unmasked */
	d[1] = 0x1f80 & ~0x81u; /* MXCSR: invalid and divide-by-zero unmasked */
	d[2] = 0;		/* bound's range: [0, 0] */
	d[3] = 0;
	if (!strcmp(t->name, "SSE 0/0, unmasked"))
		addr = TRAP_DATA + 4;
	else if (!strcmp(t->name, "bound"))
		addr = TRAP_DATA + 8;
	else if (!strcmp(t->name, "write a read-only page"))
		addr = PICK(RO1, RO2) + 4 * below(PAGE / 4);
	for (u32 i = 0; i < t->len; i++) {
		if (t->code[i] != '@') {
			c[i] = (unsigned char)t->code[i];
		} else if (t->len == 2) { /* int N: any vector but the system call's */
			do
				c[i] = (unsigned char)below(256);
			while (c[i] == 0x80);
		} else {
			c[i] = (unsigned char)(addr >> (8 * n++));
		}
	}
	c[t->len] = 0xc3;
}

static void trap_call(void)
{
	const struct trap *t = &traps[below(NTRAPS)];

	put_trap(t);
	traps_made++;
	((void (*)(void))(uintptr_t)TRAP_CODE)();
	/* Still here: the instruction completed in ring 3. */
	armed = 0;
	__asm__ volatile("fninit\n\tldmxcsr %0" : : "m"(saved_mxcsr));
	traps_done++;
	trap_done[t - traps]++;
	if (!t->may_complete)
		fail("#%llu %s (%02x...) completed in ring 3", (unsigned long long)call_index,
		     t->name, *(unsigned char *)(uintptr_t)(TRAP_CODE + (t->len == 2 ? 1 : 0)));
}

/* --- the regressions: calls that once broke the kernel, made first --- */

struct regression {
	const char *what;
	u32 nr;
	u32 a[6];
	const short *want; /* the errnos Linux gives; NULL: success */
};

static const struct regression regressions[] = {
	{ "getpid, the first call", 20, { 0 }, NULL },
	/* Linux looks a negative pid up, finds nothing: ESRCH, not EINVAL */
	{ "getsid(-1)", 147, { (u32)-1 }, E(ESRCH) },
	{ "getpgid(-2)", 132, { (u32)-2 }, E(ESRCH) },
};

/* struct user_desc's flags on i386 */
#define UD_32BIT      0x01
#define UD_CODE	      0x04
#define UD_PAGES      0x10
#define UD_NOTPRESENT 0x20
#define UD_EMPTY      0x28 /* read-exec-only and not present: "no segment" */

/*
 * The descriptors Linux refuses (tls_desc_okay): not present, 16-bit, code.
 * One put in the slot %gs holds made the kernel fault when it reloaded
 * %gs on the way back to ring 3 (#NP at its pop %gs).
 */
static const char *tls_refused(void)
{
	static const u32 flags[] = { UD_32BIT | UD_NOTPRESENT, UD_PAGES, UD_32BIT | UD_CODE };
	const char *why = NULL;

	block_async();
	for (u32 i = 0; i < 3 && !why; i++) {
		u32 d[4] = { saved_gs >> 3, ARENA, 0xfffff, flags[i] };
		long r = SYS1(SYS_set_thread_area, d);

		restore_tls();
		if (r != -EINVAL)
			why = "set_thread_area of a descriptor Linux refuses is not EINVAL";
	}
	set_mask(0);
	return why;
}

/*
 * A slot emptied while %fs holds it: the return to ring 3 cannot reload
 * %fs from it, and Linux leaves the null selector there instead.
 */
static const char *tls_cleared_under_fs(void)
{
	u32 d[4] = { (u32)-1, ARENA, 0xfffff, UD_32BIT | UD_PAGES }, fs = 1;
	const char *why = NULL;
	long r;

	block_async();
	r = SYS1(SYS_set_thread_area, d);
	if (r) {
		why = "set_thread_area(-1) of a plain data segment failed";
	} else {
		u32 e[4] = { d[0], 0, 0, UD_EMPTY };

		__asm__ volatile("mov %0, %%fs" : : "r"(d[0] << 3 | 3));
		r = SYS1(SYS_set_thread_area, e);
		__asm__ volatile("mov %%fs, %0" : "=r"(fs));
		if (r)
			why = "emptying the slot %fs holds failed";
		else if (fs & 0xffff)
			why = "%fs still names the emptied slot";
	}
	load_segments();
	set_mask(0);
	return why;
}

/*
 * Sleeps of centuries, relative and absolute, on every clock one may sleep
 * on: only the alarm armed first can end them, with EINTR, and what a
 * relative one reports remaining is still about the whole request.
 */
static const char *long_sleeps(void)
{
	static const struct {
		u32 nr, clock, flags, is64;
		s32 w[4];     /* the request's words */
		u32 min_left; /* seconds the remainder must still hold */
	} cases[] = {
		{ SYS_nanosleep, 0, 0, 0, { 0x7fffffff, 999999999 }, 0x7ffffffe },
		{ SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, 0, { 0x7fffffff, 0 }, 0x7ffffffe },
		{ SYS_clock_nanosleep, CLOCK_BOOTTIME, 0, 0, { 0x40000000, 0 }, 0x3fffffff },
		{ SYS_clock_nanosleep, CLOCK_REALTIME, 1, 0, { 0x7fffffff, 0 }, 0 },
		{ SYS_clock_nanosleep_time64,
		  CLOCK_MONOTONIC,
		  0,
		  1,
		  { 0, 0x40000000, 5 },
		  0x7fffffff },
		{ SYS_clock_nanosleep_time64,
		  CLOCK_MONOTONIC,
		  1,
		  1,
		  { -1, 0x7fffffff, 999999999 },
		  0 },
	};
	static const u32 alarm3ms[4] = { 0, 0, 0, 3000 }; /* it_interval 0, it_value 3 ms */

	for (u32 i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		s32 left[4] = { 0, 0, 0, 0 };
		u64 sec;
		long r;

		SYS3(SYS_setitimer, ITIMER_REAL, alarm3ms, 0);
		if (cases[i].nr == SYS_nanosleep)
			r = SYS2(SYS_nanosleep, cases[i].w, left);
		else
			r = SYS4(cases[i].nr, cases[i].clock, cases[i].flags, cases[i].w, left);
		if (r != -EINTR)
			return "a sleep of centuries did not end by the alarm with EINTR";
		sec = (u32)left[0] | (cases[i].is64 ? (u64)(u32)left[1] << 32 : 0);
		if (sec < cases[i].min_left)
			return "an interrupted sleep of centuries reports less than that remaining";
	}
	return NULL;
}

/*
 * A relative sleep on CLOCK_TAI follows the clock when it is set, as on
 * Linux (only CLOCK_REALTIME's relative timers run on the monotonic
 * clock): a child asleep there for 50 ms is still asleep 200 ms later
 * when the clock was set back an hour meanwhile, and wakes when it is set
 * forward again. A fork-phase child once slept years so, another child
 * having set the clock back years: the children's generator must make
 * no such sleep (gen_special(), T_CPUSLEEP), which is checked first.
 */
static const char *tai_sleep_follows_clock(void)
{
	static const s32 sleep50ms[2] = { 0, 50000000 }, wait10ms[2] = { 0, 10000000 },
			 wait200ms[2] = { 0, 200000000 };
	const char *why = NULL;
	u64 saved_rng = rng;
	s32 now[2];
	long pid, asleep, back;
	int st = -1;

	in_child = 1;
	for (u32 i = 0; i < 4000 && !why; i++) {
		struct call c = { .nr = i % 2 ? SYS_clock_nanosleep_time64 : SYS_clock_nanosleep };

		c.s = spec_of[c.nr];
		for (int k = 0; k < 6; k++)
			c.a[k] = gen_arg((enum arg)c.s->arg[k]);
		gen_special(&c);
		if (c.a[0] == CLOCK_TAI && !(c.a[1] & 1))
			why = "a fork-phase child would sleep relative on CLOCK_TAI";
	}
	in_child = 0;
	rng = saved_rng; /* the seed's calls are the same with this case or without */
	if (why)
		return why;

	block_async();
	pid = SYS0(SYS_fork);
	if (pid == 0)
		SYS1(SYS_exit_group, SYS4(SYS_clock_nanosleep, CLOCK_TAI, 0, sleep50ms, 0) ? 1 : 0);
	if (pid < 0) {
		set_mask(0);
		return "fork failed";
	}
	SYS2(SYS_nanosleep, wait10ms, 0); /* the child is asleep */
	SYS2(SYS_clock_gettime, CLOCK_REALTIME, now);
	now[0] -= 3600;
	SYS2(SYS_clock_settime, CLOCK_REALTIME, now);
	SYS2(SYS_nanosleep, wait200ms, 0);
	asleep = SYS4(SYS_wait4, pid, &st, WNOHANG, 0) == 0;
	SYS2(SYS_clock_gettime, CLOCK_REALTIME, now);
	now[0] += 3600;
	SYS2(SYS_clock_settime, CLOCK_REALTIME, now);
	back = asleep ? SYS4(SYS_wait4, pid, &st, 0, 0) : pid;
	set_mask(0);
	if (!asleep)
		return "a relative CLOCK_TAI sleep ended with the clock set back an hour";
	if (back != pid || st != 0)
		return "a relative CLOCK_TAI sleep did not end well when the clock came back";
	return NULL;
}

/* Scenarios of several calls, each returning 0 or the failure's description. */
static const char *(*const scenarios[])(void) = { tls_refused, tls_cleared_under_fs, long_sleeps,
						  tai_sleep_follows_clock, NULL };

static void run_regressions(void)
{
	u32 n = 0, i;

	for (i = 0; i < sizeof(regressions) / sizeof(regressions[0]); i++) {
		const struct regression *r = &regressions[i];
		long ret = raw_syscall(r->nr, r->a[0], r->a[1], r->a[2], r->a[3], r->a[4], r->a[5]);
		int ok = r->want ? ret < 0 && ret >= -4095 && in_set(r->want, -ret)
				 : !(ret < 0 && ret >= -4095);

		if (!ok)
			fail("regression %s: %s(%u) = %ld %s", r->what, call_name(r->nr), r->nr,
			     ret, ret < 0 && ret >= -4095 ? ename(-ret) : "");
		n++;
	}
	for (i = 0; scenarios[i]; i++, n++) {
		const char *why = scenarios[i]();

		if (why)
			fail("regression: %s", why);
	}
	say("sysfuzz: %u regression cases\n", n);
}

/* --- keeping the fuzzed state from drifting --- */

static const struct {
	u32 fd;
	const char *path;
	u32 flags;
} std_fds[] = {
	{ 3, "/", O_RDONLY | O_DIRECTORY },    { 4, "/proc/self/stat", O_RDONLY },
	{ 5, "/bin/busybox", O_RDONLY },       { 6, "/proc", O_RDONLY | O_DIRECTORY },
	{ 7, "/proc/self", O_PATH },	       { 8, "/proc/meminfo", O_RDONLY },
	{ 9, "/bin", O_RDONLY | O_DIRECTORY },
};

static void reset_fds(void)
{
	for (u32 fd = 0; fd < PRIV_FD; fd++)
		SYS1(SYS_close, fd);
	for (u32 fd = 0; fd < 3; fd++)
		SYS2(SYS_dup2, PRIV_FD, fd);
	for (u32 i = 0; i < sizeof(std_fds) / sizeof(std_fds[0]); i++) {
		long fd = SYS3(SYS_open, std_fds[i].path, std_fds[i].flags, 0);

		if (fd >= 0 && (u32)fd != std_fds[i].fd) {
			SYS2(SYS_dup2, fd, std_fds[i].fd);
			SYS1(SYS_close, fd);
		}
	}
}

static void disarm_timers(void)
{
	static const u32 zero[4];

	for (u32 which = 0; which < 3; which++)
		SYS3(SYS_setitimer, which, zero, 0);
	SYS1(SYS_alarm, 0);
}

static void housekeeping(void)
{
	reset_fds();
	SYS1(SYS_chdir, "/");
	if (call_index % 4096 == 0) {
		disarm_timers();
		SYS2(SYS_munmap, PLAY, PLAY_SIZE);
	}
}

/* After a jump out of a signal: the program's segments, TLS, mask, FPU and handlers. */
static void recover(void)
{
	armed = 0;
	load_segments();
	restore_tls();
	set_mask(0);
	__asm__ volatile("fninit\n\tldmxcsr %0" : : "m"(saved_mxcsr));
	if (cur.s && cur.s->tame == T_SIGACT)
		install_handlers();
}

/* --- start and end --- */

static void save_state(void)
{
	__asm__ volatile("xor %%eax, %%eax\n\t"
			 "mov %%gs, %%ax\n\t"
			 "mov %%eax, %0\n\t"
			 "mov %%fs, %%ax\n\t"
			 "mov %%eax, %1\n\t"
			 "mov %%ds, %%ax\n\t"
			 "mov %%eax, %2\n\t"
			 "mov %%es, %%ax\n\t"
			 "mov %%eax, %3"
			 : "=m"(saved_gs), "=m"(saved_fs), "=m"(saved_ds), "=m"(saved_es)
			 :
			 : "eax");
	tls_desc[0] = saved_gs >> 3;
	if (SYS1(SYS_get_thread_area, tls_desc)) {
		say("sysfuzz: get_thread_area of %%gs 0x%x failed\n", saved_gs);
		_exit(2);
	}
	orig_brk = (u32)SYS1(SYS_brk, 0);
	all_async = ~(u64)SYNC_SIGS;
}

static void tables(void)
{
	for (u32 i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		spec_of[specs[i].nr] = &specs[i];
	for (u32 i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		is_never[never[i]] = 1;
	for (u32 nr = 0; nr < NR_MAX; nr++)
		if (kernel_calls[nr] && !is_never[nr])
			implemented[n_implemented++] = nr;
}

static u32 count_bits(const unsigned char *v, u32 n)
{
	u32 c = 0;

	for (u32 i = 0; i < n; i++)
		c += v[i] != 0;
	return c;
}

static int verbose;

static void summary(u64 seed)
{
	u32 pairs = 0, sigs = 0;

	for (u32 nr = 0; nr < NR_MAX; nr++)
		for (u32 k = 0; k < 5; k++)
			pairs += (u32)__builtin_popcount(errno_seen[nr][k] &
							 (k == 4 ? 0x7fffffffu : ~0u));
	for (u32 s = 1; s < 65; s++)
		sigs += sig_caught[s];
	say("sysfuzz: %llu calls, %u distinct numbers, %u errors outside Linux's set, %u bad "
	    "results, %u implemented calls without an errno set, %u distinct (call, errno) "
	    "pairs, %llu ENOSYS, %llu EFAULT, %u signals caught, %u faults jumped out of, %u "
	    "forged sigreturns landed, %u instructions that fault (%u completed), guard pages %s, "
	    "input region %s, read-only pages %s\n",
	    (unsigned long long)calls_made, count_bits(nr_seen, NR_MAX), outside, bad_results,
	    no_table, pairs, (unsigned long long)enosys_seen, (unsigned long long)efault_seen, sigs,
	    jumps, landings, traps_made, traps_done, damaged & 7 ? "WRITTEN" : "intact",
	    damaged & 32 ? "WRITTEN" : "intact", damaged & 24 ? "WRITTEN" : "intact");
	for (u32 nr = 0; verbose && nr < NR_MAX; nr++) {
		char line[400];
		int n = 0;

		if (!spec_of[nr] || !nr_seen[nr])
			continue;
		for (u32 e = 1; e < 159 && n < 380; e++)
			if (errno_seen[nr][e / 32] & (1u << (e % 32)))
				n += snprintf(line + n, sizeof(line) - (size_t)n, " %s", ename(e));
		line[n] = '\0';
		say("sysfuzz: %s:%s\n", spec_of[nr]->name, line);
	}
	for (u32 i = 0; verbose && i < NTRAPS; i++)
		if (trap_done[i])
			say("sysfuzz: %s completed %u times\n", traps[i].name, trap_done[i]);
	say("sysfuzz: seed 0x%llx (init=/bin/sysfuzz -- -s 0x%llx replays it)\n",
	    (unsigned long long)seed, (unsigned long long)seed);
}

static u64 seed_from_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (u64)ts.tv_sec * 1000000007ULL ^ (u64)ts.tv_nsec ^ (u64)getpid() << 40;
}

static u64 ncalls = 1000000, trace_from = ~0ULL;

static void one_trap(void)
{
	if (_setjmp(jb)) {
		recover();
		return;
	}
	armed = 1;
	trap_call();
	armed = 0;
}

/* One fuzzed call, made and judged. */
static void one_call(void)
{
	long ret;

	if (chance(1) && chance(50)) /* one call in 200: an instruction first */
		one_trap();
	gen_call(&cur);
	calls_made++;
	if (call_index >= trace_from)
		say("sysfuzz: #%llu %s(%u) (0x%x, 0x%x, 0x%x, 0x%x, 0x%x, 0x%x)\n",
		    (unsigned long long)call_index, call_name(cur.nr), cur.nr, cur.a[0], cur.a[1],
		    cur.a[2], cur.a[3], cur.a[4], cur.a[5]);
	if (_setjmp(jb)) {
		recover();
		return;
	}
	armed = 1;
	ret = run_call(&cur);
	armed = 0;
	if (!(cur.s && cur.s->tame == T_SIGRETURN))
		check_result(&cur, ret);
}

/*
 * Every page the program uses, made present now: while memory is
 * exhausted, a page it touched for the first time would be its end (the
 * out-of-memory SIGKILL). Text is read, data written back as it is, and
 * the stack below here is touched deeper than any call goes.
 */
extern char __executable_start[], __data_start[];

static void touch_stack(void)
{
	volatile char deep[256 * 1024];

	for (u32 i = 0; i < sizeof(deep); i += PAGE / 2)
		deep[i] = 0;
}

static void pretouch(void)
{
	for (volatile char *p = __executable_start; p < __data_start; p += PAGE)
		(void)*p;
	for (volatile char *p = __data_start; p < (char *)(uintptr_t)orig_brk; p += PAGE)
		*p = *p;
	touch_stack();
}

#define OOM_BASE  0x50000000u /* far from the playground and the layout */
#define OOM_SIZE  0x20000000u /* more than any machine this boots on has */
#define OOM_CALLS 5000

/*
 * Memory exhausted: an anonymous area filled with BusyBox's bytes until the
 * kernel has no page left, the arena's pages dropped so that the kernel
 * needs new ones to write there, then OOM_CALLS fuzzed calls, then all of
 * it given back. The kernel must answer (EFAULT, ENOMEM...), not fault.
 */
static void oom_phase(void)
{
	u32 filled = 0, info[16];
	long fd, r = 0;

	if (SYS3(SYS_mprotect, OOM_BASE, PAGE, PROT_READ) != -ENOMEM ||
	    raw_syscall(SYS_mmap2, OOM_BASE, OOM_SIZE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != (long)OOM_BASE) {
		fail("memory exhaustion: cannot map 0x%x bytes at 0x%x", OOM_SIZE, OOM_BASE);
		return;
	}
	fd = SYS3(SYS_open, "/bin/busybox", O_RDONLY, 0);
	while (fd >= 0 && filled < OOM_SIZE) {
		SYS3(SYS_lseek, fd, 0, SEEK_SET);
		r = SYS3(SYS_read, fd, OOM_BASE + filled, 1u << 20);
		if (r <= 0)
			break;
		filled += (u32)r;
	}
	SYS3(SYS_madvise, ARENA, ARENA_PAGES * PAGE, MADV_DONTNEED);
	SYS1(SYS_sysinfo, info);
	say("sysfuzz: memory exhausted: %u KiB filled (the last read: %ld), %u KiB free; %u "
	    "calls\n",
	    filled >> 10, r, (info[5] * (info[13] ? info[13] : 1)) >> 10, OOM_CALLS);
	for (u32 i = 0; i < OOM_CALLS; i++, call_index++)
		one_call();
	SYS2(SYS_munmap, OOM_BASE, OOM_SIZE);
	if (fd >= 0)
		SYS1(SYS_close, fd);
}

/* The million calls. Nothing here lives in a register across the _setjmp. */
static void fuzz(void)
{
	for (call_index = 0; call_index < ncalls; call_index++) {
		if (call_index % VERIFY_EVERY == 0)
			verify();
		if (call_index % 512 == 0)
			housekeeping();
		if (call_index && call_index % 100000 == 0)
			say("sysfuzz: %llu calls\n", (unsigned long long)call_index);
		if (call_index == ncalls / 2 && ncalls >= 20000)
			oom_phase();
		one_call();
	}
}

/*
 * Children that fuzz too: FORK_ROUNDS times, FORK_CHILDREN children at
 * once, each making FORK_CALLS calls from a seed of its own (the parent's
 * calls still follow from the seed alone: it draws nothing here), then
 * verifying its own copy of the layout and exiting with its number (64
 * more when it failed). The parent, its state reset so that no fuzzed
 * SIGCHLD action reaps them for it, waits: every child must come back
 * exactly once with its own number, none be left (wait4 then answers
 * ECHILD, /proc lists only the parent), and the free memory after the
 * last round must be what it was before the first.
 */
#define FORK_ROUNDS   4
#define FORK_CHILDREN 3
#define FORK_CALLS    2000

static u32 fork_child(u32 number, u64 seed)
{
	in_child = 1;
	rng = seed ^ (0x9e3779b97f4a7c15ULL * number);
	failures = 0;
	for (u32 i = 0; i < FORK_CALLS; i++, call_index++)
		one_call();
	disarm_timers();
	install_handlers();
	set_mask(0);
	restore_tls();
	verify();
	SYS1(SYS_exit_group, number + (failures ? 64 : 0));
	return 0;
}

/* The processes /proc lists. */
static u32 proc_count(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	u32 n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] >= '1' && e->d_name[0] <= '9';
	if (d)
		closedir(d);
	return n;
}

static u64 free_bytes(void)
{
	u32 info[16] = { 0 };

	SYS1(SYS_sysinfo, info);
	return (u64)info[5] * (info[13] ? info[13] : 1);
}

/* Reaps one round: each pid back once with its number; how many came back as they should. */
static u32 reap_round(const long *pids, u32 first, u32 n)
{
	u32 good = 0, back = 0;

	while (back < n) {
		int st = 0;
		long pid = SYS4(SYS_wait4, -1, &st, 0, 0);
		u32 k;

		if (pid == -EINTR)
			continue;
		if (pid < 0) {
			fail("fork phase: wait4 answered %ld with %u children not back", pid,
			     n - back);
			break;
		}
		back++;
		for (k = 0; k < n && pids[k] != pid; k++)
			;
		if (k == n)
			fail("fork phase: wait4 gave pid %ld, not a child of this round", pid);
		else if ((st & 0x7f) || ((st >> 8) & 0xff) != first + k)
			fail("fork phase: child %u (pid %ld) ended with status 0x%x, not exit %u",
			     first + k, pid, st, first + k);
		else
			good++;
	}
	return good;
}

static void fork_phase(u64 seed)
{
	u64 before, after;
	u32 good = 0, made = 0;
	long pids[FORK_CHILDREN], left;

	disarm_timers();
	install_handlers();
	set_mask(0);
	restore_tls();
	reset_fds();
	before = free_bytes();
	for (u32 round = 0; round < FORK_ROUNDS; round++) {
		u32 n = 0, first = round * FORK_CHILDREN + 1;

		for (; n < FORK_CHILDREN; n++) {
			pids[n] = SYS0(SYS_fork);
			if (pids[n] == 0)
				fork_child(first + n, seed);
			if (pids[n] < 0) {
				fail("fork phase: fork answered %ld", pids[n]);
				break;
			}
			made++;
		}
		good += reap_round(pids, first, n);
	}
	left = SYS4(SYS_wait4, -1, 0, WNOHANG, 0);
	after = free_bytes();
	say("sysfuzz: fork phase: %u children (%u rounds of %u), %u calls each: %u reaped with "
	    "their numbers, wait4 then %s, %u processes in /proc, %llu KiB free before and %llu "
	    "after\n",
	    made, FORK_ROUNDS, FORK_CHILDREN, FORK_CALLS, good,
	    left == -ECHILD ? "ECHILD" : "not ECHILD", proc_count(),
	    (unsigned long long)(before >> 10), (unsigned long long)(after >> 10));
	if (left != -ECHILD)
		fail("fork phase: wait4 after the last child answered %ld, not ECHILD", left);
	if (after != before)
		fail("fork phase: %lld bytes of free memory lost", (long long)(before - after));
}

/*
 * What the kernel must clean up when the program ends: interval timers
 * running, a blocked signal pending, descriptors open.
 */
static void leave_state(void)
{
	static const u32 every_ms[4] = { 0, 1000, 0, 1000 };
	u64 usr2 = 1ULL << (SIGUSR2 - 1);

	for (u32 which = 0; which < 3; which++)
		SYS3(SYS_setitimer, which, every_ms, 0);
	SYS4(SYS_rt_sigprocmask, SIG_BLOCK, &usr2, 0, 8);
	SYS2(SYS_kill, SYS0(SYS_getpid), SIGUSR2);
}

/*
 * sysfuzz -x HOW: the ways a program must die, not the kernel: a signal
 * that cannot be delivered, its stack being the kernel's (stack), or its
 * handler faulting in turn (handler), or a forged sigreturn frame that
 * leaves it with no stack at an address that faults (sigreturn). Linux
 * kills it with SIGSEGV each time.
 */
static int die(const char *how)
{
	say("sysfuzz: dying by %s\n", how);
	if (!strcmp(how, "stack")) {
		__asm__ volatile("mov $0xc0001000, %%esp\n\tud2" : : : "memory");
	} else if (!strcmp(how, "handler")) {
		struct ksigaction ka = { (void (*)(int, siginfo_t *, void *))0x1000,
					 SA_SIGINFO | KSA_RESTORER,
					 restore_rt,
					 { 0, 0 } };

		SYS4(SYS_rt_sigaction, SIGSEGV, &ka, 0, 8);
		*(volatile u32 *)(uintptr_t)UNMAPPED = 1;
	} else if (!strcmp(how, "sigreturn")) {
		u32 esp = SCRATCH + PAGE + 2048, *sc = (u32 *)(uintptr_t)esp;

		memset(sc, 0, 88);
		sc[3] = sc[2] = saved_ds;
		sc[7] = sc[17] = 0xc0001000; /* esp */
		sc[14] = 0x1000;	     /* eip */
		sc[16] = 0x202;
		forge_sigreturn(119, esp);
	}
	say("sysfuzz: survived %s\n", how);
	return 1;
}

int main(int argc, char **argv)
{
	u64 seed = 0;
	int have_seed = 0, opt;

	if (dup2(STDOUT_FILENO, PRIV_FD) != PRIV_FD)
		return 2;
	while ((opt = getopt(argc, argv, "s:n:t:vx:")) != -1) {
		if (opt == 's') {
			seed = strtoull(optarg, NULL, 0);
			have_seed = 1;
		} else if (opt == 'n') {
			ncalls = strtoull(optarg, NULL, 0);
		} else if (opt == 't') {
			trace_from = strtoull(optarg, NULL, 0);
		} else if (opt == 'v') {
			verbose = 1;
		} else if (opt == 'x') {
			save_state();
			map_layout();
			install_handlers();
			return die(optarg);
		} else {
			say("usage: sysfuzz [-s SEED] [-n CALLS] [-t FIRST-CALL-TO-TRACE] [-v] [-x "
			    "HOW]\n");
			return 2;
		}
	}
	if (!have_seed)
		seed = seed_from_clock();
	rng = seed;
	say("sysfuzz: seed 0x%llx, %llu calls\n", (unsigned long long)seed,
	    (unsigned long long)ncalls);
	save_state();
	tables();
	map_layout();
	pretouch();
	install_handlers();
	run_regressions();
	reset_fds();
	fuzz();
	if (ncalls >= 20000)
		fork_phase(seed);
	disarm_timers();
	install_handlers();
	set_mask(0);
	restore_tls();
	reset_fds();
	verify();
	summary(seed);
	say("sysfuzz: %u failed\n", failures);
	leave_state();
	return failures ? 1 : 0;
}
