// SPDX-License-Identifier: MIT
/*
 * The small system calls about the process itself: its ids, its limits,
 * the system's name, random bytes. One user (root, 0), one thread per
 * process (its tid is its pid), as a static program expects.
 */
#include <kernel/proc.h>
#include <kernel/kernel.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/sched.h>
#include <dynhz/jiffies.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>

SYSCALL_DEFINE0(getpid)
{
	return proc_current()->pid;
}

SYSCALL_DEFINE0(gettid)
{
	return proc_current()->pid;
}

SYSCALL_DEFINE0(getppid)
{
	return proc_current()->ppid;
}

SYSCALL_DEFINE0(getpgrp)
{
	return proc_current()->pgid;
}

/* As Linux's do_getpgid() and getsid(): pid 0 is the caller; no such pid, negative ones too, -ESRCH. */
static long pid_field(int pid, bool sid)
{
	struct proc *p = pid ? proc_find(pid) : proc_current();

	if (!p)
		return -ESRCH;
	return sid ? p->sid : p->pgid;
}

SYSCALL_DEFINE1(getpgid, int, pid)
{
	return pid_field(pid, false);
}

SYSCALL_DEFINE1(getsid, int, pid)
{
	return pid_field(pid, true);
}

/* Is there a process in group pgid of session sid (a group setpgid may join)? */
static bool group_in_session(int pgid, int sid)
{
	struct proc *list[PROC_MAX];
	unsigned int n = proc_list(list, PROC_MAX);

	for (unsigned int i = 0; i < n; i++)
		if (list[i]->pgid == pgid && list[i]->sid == sid)
			return true;
	return false;
}

/* Interrupts off: setpgid's checks and move, as Linux's. */
static long set_pgid(struct proc *me, int pid, int pgid)
{
	struct proc *p = pid ? proc_find(pid) : me;

	/* The caller or one of its children, nobody else. */
	if (!p || (p != me && p->ppid != me->pid))
		return -ESRCH;
	if (p != me && p->sid != me->sid)
		return -EPERM;
	if (p != me && p->did_exec)
		return -EACCES; /* a child that has exec'd is on its own */
	if (p->sid == p->pid)
		return -EPERM; /* a session leader stays its group's leader */
	if (!pgid)
		pgid = p->pid;
	if (pgid != p->pid && !group_in_session(pgid, me->sid))
		return -EPERM;
	p->pgid = pgid;
	return 0;
}

SYSCALL_DEFINE2(setpgid, int, pid, int, pgid)
{
	unsigned long flags;
	long err;

	if (pid < 0 || pgid < 0)
		return -EINVAL;
	flags = dz_irq_save();
	err = set_pgid(proc_current(), pid, pgid);
	dz_irq_restore(flags);
	return err;
}

/* A new session and group, led by the caller: not when a group already has its pid. */
SYSCALL_DEFINE0(setsid)
{
	struct proc *me = proc_current(), *list[PROC_MAX];
	unsigned long flags = dz_irq_save();
	unsigned int n = proc_list(list, PROC_MAX);
	long ret = me->pid;

	for (unsigned int i = 0; i < n; i++)
		if (list[i]->pgid == me->pid)
			ret = -EPERM;
	if (ret > 0)
		me->sid = me->pgid = me->pid;
	dz_irq_restore(flags);
	return ret;
}

/* Every id is root's. */
SYSCALL_DEFINE0(getuid)
{
	return 0;
}

SYSCALL_DEFINE0(getgid)
{
	return 0;
}

SYSCALL_DEFINE0(geteuid)
{
	return 0;
}

SYSCALL_DEFINE0(getegid)
{
	return 0;
}

SYSCALL_DEFINE0(getuid32)
{
	return 0;
}

SYSCALL_DEFINE0(getgid32)
{
	return 0;
}

SYSCALL_DEFINE0(geteuid32)
{
	return 0;
}

SYSCALL_DEFINE0(getegid32)
{
	return 0;
}

SYSCALL_DEFINE0(sched_yield)
{
	schedule();
	return 0;
}

SYSCALL_DEFINE1(set_tid_address, u32, tidptr)
{
	proc_current()->clear_child_tid = tidptr;
	return proc_current()->pid;
}

/* Nothing uses the robust list with one thread; its size is checked as Linux does. */
SYSCALL_DEFINE2(set_robust_list, u32, head, u32, len)
{
	(void)head;
	return len == 12 ? 0 : -EINVAL;
}

/* struct new_utsname: six strings of 65 bytes. */
#define UTS_LEN 65
SYSCALL_DEFINE1(uname, u32, ubuf)
{
	static char uts[6][UTS_LEN];

	memset(uts, 0, sizeof(uts));
	memcpy(uts[0], "dynhz", 6);
	memcpy(uts[1], "dynhz", 6);
	/* The release is the Linux system-call interface this kernel speaks. */
	memcpy(uts[2], "6.1.0-dynhz", 12);
	dz_snprintf(uts[3], UTS_LEN, "#1 HZ=%lu", (unsigned long)HZ);
	memcpy(uts[4], "i686", 5);
	memcpy(uts[5], "(none)", 7);
	return copy_to_user(ubuf, uts, sizeof(uts));
}

/* Resource limits: the stack's is the area exec reserves, the rest unlimited. */
#define RLIMIT_STACK  3
#define RLIM_NLIMITS  16
#define RLIM_INFINITY 0xffffffffU

static void limit_of(u32 resource, u64 *cur, u64 *max)
{
	*cur = *max = resource == RLIMIT_STACK ? USER_STACK_MAX : ~0ULL;
}

static long get_limit32(u32 resource, u32 ulim)
{
	u64 cur, max;
	u32 lim[2];

	if (resource >= RLIM_NLIMITS)
		return -EINVAL;
	limit_of(resource, &cur, &max);
	lim[0] = cur > RLIM_INFINITY ? RLIM_INFINITY : (u32)cur;
	lim[1] = max > RLIM_INFINITY ? RLIM_INFINITY : (u32)max;
	return copy_to_user(ulim, lim, sizeof(lim));
}

SYSCALL_DEFINE2(getrlimit, u32, resource, u32, ulim)
{
	return get_limit32(resource, ulim);
}

SYSCALL_DEFINE2(ugetrlimit, u32, resource, u32, ulim)
{
	return get_limit32(resource, ulim);
}

SYSCALL_DEFINE4(prlimit64, int, pid, u32, resource, u32, unew, u32, uold)
{
	u64 lim[2], want[2];

	if (pid && pid != proc_current()->pid)
		return -ESRCH;
	if (resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (unew) {
		if (copy_from_user(want, unew, sizeof(want)))
			return -EFAULT;
		if (want[0] > want[1])
			return -EINVAL;
	}
	limit_of(resource, &lim[0], &lim[1]);
	if (uold && copy_to_user(uold, lim, sizeof(lim)))
		return -EFAULT;
	/* Lowering a limit is allowed and recorded nowhere: nothing enforces limits here. */
	return 0;
}

#define GRND_NONBLOCK 1
#define GRND_RANDOM   2
#define GRND_INSECURE 4
#define GETRANDOM_MAX 33554431 /* Linux's most per call */

/*
 * splitmix64 over the TSC: AT_RANDOM's 16 bytes and getrandom's differ
 * from boot to boot and program to program.
 */
static u64 random_state;

static u64 random_next(void)
{
	u64 z = (random_state += 0x9e3779b97f4a7c15ULL ^ rdtsc());

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void get_random_bytes(u8 *buf, u32 len)
{
	for (u32 i = 0; i < len; i += 8) {
		u64 r = random_next();

		memcpy(buf + i, &r, len - i < 8 ? len - i : 8);
	}
}

SYSCALL_DEFINE3(getrandom, u32, ubuf, u32, len, u32, flags)
{
	u8 chunk[64];

	if (flags & ~(u32)(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE) ||
	    (flags & GRND_INSECURE && flags & GRND_RANDOM))
		return -EINVAL;
	if (len > GETRANDOM_MAX)
		len = GETRANDOM_MAX;
	for (u32 done = 0; done < len;) {
		u32 n = len - done < sizeof(chunk) ? len - done : sizeof(chunk);

		get_random_bytes(chunk, n);
		if (copy_to_user(ubuf + done, chunk, n))
			return done ? (long)done : -EFAULT;
		done += n;
	}
	return (long)len;
}

/* The mode bits a new file would lose; nothing is ever created, but programs read and set it. */
SYSCALL_DEFINE1(umask, u32, mask)
{
	struct proc *p = proc_current();
	u32 old = p->umask;

	p->umask = mask & 0777;
	return (long)old;
}

/* The root is read-only and held in memory: nothing to write back. */
SYSCALL_DEFINE0(sync)
{
	return 0;
}

#define PR_SET_NAME	  15
#define PR_GET_NAME	  16
#define PR_SET_TIMERSLACK 29
#define PR_GET_TIMERSLACK 30

/*
 * prctl: the name (comm, as ps shows it) of the process, and the
 * thread's timer slack (the range its sleeps may end in: 0 sets the
 * default back, which is the slack the thread had at its fork; read back
 * as the return value, as Linux's). Linux's other
 * options act on what a process of one thread without capabilities or
 * seccomp does not have here: -EINVAL, as Linux answers an unknown one.
 */
SYSCALL_DEFINE2(prctl, int, option, u32, arg2)
{
	struct proc *p = proc_current();
	char name[PROC_COMM_LEN];
	long len;

	switch (option) {
	case PR_SET_NAME:
		/* At most 15 bytes are read: a longer name is cut, as Linux's. */
		memset(name, 0, sizeof(name));
		len = strncpy_from_user(name, arg2, PROC_COMM_LEN - 1);
		if (len == -EFAULT)
			return -EFAULT;
		memcpy(p->comm, name, sizeof(name));
		return 0;
	case PR_GET_NAME:
		memcpy(name, p->comm, sizeof(name));
		name[PROC_COMM_LEN - 1] = '\0';
		return copy_to_user(arg2, name, sizeof(name)) ? -EFAULT : 0;
	case PR_SET_TIMERSLACK:
		current->timer_slack_ns = arg2 ? arg2 : current->default_timer_slack_ns;
		return 0;
	case PR_GET_TIMERSLACK:
		return (long)current->timer_slack_ns;
	default:
		return -EINVAL;
	}
}
