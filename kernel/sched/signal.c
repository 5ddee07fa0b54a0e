// SPDX-License-Identifier: MIT
/*
 * Signals as Linux i386 has them (kernel/include/kernel/signal.h): the
 * system calls that set actions and masks and send signals; their
 * delivery on the way back to ring 3, through the frames of
 * kernel/include/kernel/sigframe.h, is sigframe.c.
 *
 * Standard and real-time signals alike are one bit each: a signal sent
 * twice before it is delivered is delivered once (Linux queues real-time
 * ones; nothing here needs it yet).
 */
#include <kernel/signal.h>
#include "signal-internal.h"
#include <kernel/sigframe.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/arch.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>

#define SIG_BLOCK   0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

static const char *const sig_names[32] = {
	[SIGHUP] = "SIGHUP",	   [SIGINT] = "SIGINT",	      [SIGQUIT] = "SIGQUIT",
	[SIGILL] = "SIGILL",	   [SIGTRAP] = "SIGTRAP",     [SIGABRT] = "SIGABRT",
	[SIGBUS] = "SIGBUS",	   [SIGFPE] = "SIGFPE",	      [SIGKILL] = "SIGKILL",
	[SIGUSR1] = "SIGUSR1",	   [SIGSEGV] = "SIGSEGV",     [SIGUSR2] = "SIGUSR2",
	[SIGPIPE] = "SIGPIPE",	   [SIGALRM] = "SIGALRM",     [SIGTERM] = "SIGTERM",
	[SIGSTKFLT] = "SIGSTKFLT", [SIGCHLD] = "SIGCHLD",     [SIGCONT] = "SIGCONT",
	[SIGSTOP] = "SIGSTOP",	   [SIGTSTP] = "SIGTSTP",     [SIGTTIN] = "SIGTTIN",
	[SIGTTOU] = "SIGTTOU",	   [SIGURG] = "SIGURG",	      [SIGXCPU] = "SIGXCPU",
	[SIGXFSZ] = "SIGXFSZ",	   [SIGVTALRM] = "SIGVTALRM", [SIGPROF] = "SIGPROF",
	[SIGWINCH] = "SIGWINCH",   [SIGIO] = "SIGIO",	      [SIGPWR] = "SIGPWR",
	[SIGSYS] = "SIGSYS",
};

const char *signal_name_of(int sig)
{
	return sig > 0 && sig < 32 ? sig_names[sig] : NULL;
}

/* Linux's default actions; stopping is not implemented and counts as ignoring. */
enum sig_default sig_default_action(int sig)
{
	switch (sig) {
	case SIGQUIT:
	case SIGILL:
	case SIGTRAP:
	case SIGABRT:
	case SIGBUS:
	case SIGFPE:
	case SIGSEGV:
	case SIGXCPU:
	case SIGXFSZ:
	case SIGSYS:
		return DFL_CORE;
	case SIGCHLD:
	case SIGCONT:
	case SIGURG:
	case SIGWINCH:
		return DFL_IGN;
	case SIGSTOP:
	case SIGTSTP:
	case SIGTTIN:
	case SIGTTOU:
		return DFL_STOP;
	default:
		return DFL_TERM; /* the real-time signals too */
	}
}

static bool valid_sig(int sig)
{
	return sig >= 1 && sig <= NSIG;
}

struct k_sigaction *sig_action(struct proc *p, int sig)
{
	return &p->sig.action[sig - 1];
}

/* Would delivering sig do nothing? SIGKILL always does something. */
static bool sig_ignored(const struct proc *p, int sig)
{
	u32 h = p->sig.action[sig - 1].handler;
	enum sig_default d = sig_default_action(sig);

	if (sig == SIGKILL)
		return false;
	return h == SIG_IGN || (h == SIG_DFL && (d == DFL_IGN || d == DFL_STOP));
}

/*
 * Pending, not blocked, not ignored: what delivery would act on. Asked on
 * every return to user mode, so only the signals pending are looked at
 * (almost always none), not all 64.
 */
u64 sig_deliverable(const struct proc *p)
{
	u64 m = p->sig.pending & ~p->sig.blocked;

	for (u64 rest = m; rest; rest &= rest - 1) {
		int sig = __builtin_ctzll(rest) + 1;

		if (sig_ignored(p, sig))
			m &= ~SIG_BIT(sig);
	}
	return m;
}

bool signal_pending(const struct proc *p)
{
	return p && sig_deliverable(p) != 0;
}

/* Interrupts off. Returns whether the signal is pending now. */
static bool send_locked(struct proc *p, int sig, const struct sig_origin *o)
{
	u64 bit = SIG_BIT(sig);

	if (p->state != PROC_RUNNING)
		return false;
	/* An ignored signal is dropped at once, unless blocked: it may be unignored before it is unblocked. */
	if (!(p->sig.blocked & bit) && sig_ignored(p, sig))
		return false;
	p->sig.pending |= bit;
	p->sig.origin[sig - 1] = *o;
	if ((sig_deliverable(p) & bit) && p->thread && p->thread->state == TASK_INTERRUPTIBLE)
		wake_up_process(p->thread);
	return true;
}

bool signal_send_timer(struct proc *p, int sig, const struct sig_origin *o)
{
	return p && valid_sig(sig) && send_locked(p, sig, o);
}

static void send_origin(struct proc *p, int sig, const struct sig_origin *o)
{
	unsigned long flags = dz_irq_save();

	send_locked(p, sig, o);
	dz_irq_restore(flags);
}

void signal_send(struct proc *p, int sig)
{
	const struct sig_origin o = { .code = SI_KERNEL };

	if (p && valid_sig(sig))
		send_origin(p, sig, &o);
}

void signal_send_info(struct proc *p, int sig, const struct sig_origin *o)
{
	if (p && valid_sig(sig))
		send_origin(p, sig, o);
}

void signal_force(struct proc *p, int sig, int code, u32 addr)
{
	const struct sig_origin o = { .code = code, .addr = addr };
	unsigned long flags;

	if (!p || !valid_sig(sig))
		return;
	flags = dz_irq_save();
	if ((p->sig.blocked & SIG_BIT(sig)) || sig_action(p, sig)->handler == SIG_IGN)
		sig_action(p, sig)->handler = SIG_DFL;
	p->sig.blocked &= ~SIG_BIT(sig);
	send_locked(p, sig, &o);
	dz_irq_restore(flags);
}

void sig_set_blocked(struct proc *p, u64 mask)
{
	unsigned long flags = dz_irq_save();

	p->sig.blocked = mask & ~UNBLOCKABLE;
	dz_irq_restore(flags);
}

void signal_proc_init(struct proc *p)
{
	memset(&p->sig, 0, sizeof(p->sig));
}

void signal_proc_exec(struct proc *p)
{
	for (int sig = 1; sig <= NSIG; sig++) {
		struct k_sigaction *ka = sig_action(p, sig);

		if (ka->handler != SIG_IGN)
			*ka = (struct k_sigaction){ 0 };
	}
	p->sig.restore_blocked = false;
}

struct signal_timer_hooks sig_timer_hooks;

void signal_set_timer_hooks(const struct signal_timer_hooks *h)
{
	sig_timer_hooks = *h;
}

/* ---- actions and masks ---- */

/* rt_sigaction's struct sigaction on i386: handler, flags, restorer, mask (4-byte aligned). */
struct user_sigaction {
	u32 handler, flags, restorer, mask[2];
};

SYSCALL_DEFINE4(rt_sigaction, int, sig, u32, uact, u32, uoact, u32, sigsetsize)
{
	struct proc *p = proc_current();
	struct user_sigaction ua;
	struct k_sigaction old;
	unsigned long flags;

	if (sigsetsize != SIG_SETSIZE || !valid_sig(sig))
		return -EINVAL;
	if (uact && (sig == SIGKILL || sig == SIGSTOP))
		return -EINVAL;
	if (uact && copy_from_user(&ua, uact, sizeof(ua)))
		return -EFAULT;
	flags = dz_irq_save();
	old = *sig_action(p, sig);
	if (uact) {
		*sig_action(p, sig) = (struct k_sigaction){
			ua.handler,
			ua.flags,
			ua.restorer,
			(ua.mask[0] | (u64)ua.mask[1] << 32) & ~UNBLOCKABLE,
		};
		/* POSIX: setting a pending signal to be ignored discards it. */
		if (sig_ignored(p, sig) && (p->sig.pending & SIG_BIT(sig))) {
			p->sig.pending &= ~SIG_BIT(sig);
			if (sig_timer_hooks.taken)
				sig_timer_hooks.taken(p, SIG_BIT(sig), 0);
		}
	}
	dz_irq_restore(flags);
	if (uoact) {
		ua = (struct user_sigaction){ old.handler,
					      old.flags,
					      old.restorer,
					      { (u32)old.mask, (u32)(old.mask >> 32) } };
		if (copy_to_user(uoact, &ua, sizeof(ua)))
			return -EFAULT;
	}
	return 0;
}

static long read_sigset(u32 uset, u64 *set)
{
	u32 w[2];

	if (copy_from_user(w, uset, sizeof(w)))
		return -EFAULT;
	*set = w[0] | (u64)w[1] << 32;
	return 0;
}

static long write_sigset(u32 uset, u64 set, u32 size)
{
	u32 w[2] = { (u32)set, (u32)(set >> 32) };

	return copy_to_user(uset, w, size) ? -EFAULT : 0;
}

SYSCALL_DEFINE4(rt_sigprocmask, int, how, u32, uset, u32, uoset, u32, sigsetsize)
{
	struct proc *p = proc_current();
	u64 set = 0, old = p->sig.blocked;

	if (sigsetsize != SIG_SETSIZE)
		return -EINVAL;
	if (uset) {
		if (read_sigset(uset, &set))
			return -EFAULT;
		switch (how) {
		case SIG_BLOCK:
			sig_set_blocked(p, old | set);
			break;
		case SIG_UNBLOCK:
			sig_set_blocked(p, old & ~set);
			break;
		case SIG_SETMASK:
			sig_set_blocked(p, set);
			break;
		default:
			return -EINVAL;
		}
	}
	return uoset ? write_sigset(uoset, old, SIG_SETSIZE) : 0;
}

/* Linux takes any size up to its own here, and writes that many bytes. */
SYSCALL_DEFINE2(rt_sigpending, u32, uset, u32, sigsetsize)
{
	struct proc *p = proc_current();

	if (sigsetsize > SIG_SETSIZE)
		return -EINVAL;
	return write_sigset(uset, p->sig.pending & p->sig.blocked, sigsetsize);
}

/* Sleeps until a signal would be delivered; -EINTR, as pause and sigsuspend return. */
static long sleep_until_signal(struct proc *p)
{
	thread_doing("waiting for a signal");
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (signal_pending(p))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	thread_doing("running a user program");
	return -EINTR;
}

SYSCALL_DEFINE0(pause)
{
	return sleep_until_signal(proc_current());
}

/*
 * The mask is sigsuspend's until a handler runs: its frame saves the
 * caller's mask, which sigreturn then restores (restore_blocked).
 */
SYSCALL_DEFINE2(rt_sigsuspend, u32, umask, u32, sigsetsize)
{
	struct proc *p = proc_current();
	u64 set;

	if (sigsetsize != SIG_SETSIZE)
		return -EINVAL;
	if (read_sigset(umask, &set))
		return -EFAULT;
	p->sig.saved_blocked = p->sig.blocked;
	p->sig.restore_blocked = true;
	sig_set_blocked(p, set);
	return sleep_until_signal(p);
}

/*
 * The temporary mask of pselect6 and ppoll, as sigsuspend's: in force for
 * the call, kept until a handler's frame has saved the caller's mask when
 * a signal ended the call (-ERESTARTNOHAND), put back at once otherwise.
 */
long signal_set_temporary_mask(u32 umask, u32 sigsetsize)
{
	struct proc *p = proc_current();
	u64 set;

	if (!umask)
		return 0;
	if (sigsetsize != SIG_SETSIZE)
		return -EINVAL;
	if (read_sigset(umask, &set))
		return -EFAULT;
	p->sig.saved_blocked = p->sig.blocked;
	p->sig.restore_blocked = true;
	sig_set_blocked(p, set);
	return 0;
}

void signal_restore_mask_unless(bool interrupted)
{
	struct proc *p = proc_current();

	if (!p->sig.restore_blocked || interrupted)
		return;
	sig_set_blocked(p, p->sig.saved_blocked);
	p->sig.restore_blocked = false;
}

/* ---- sending ---- */

/* Permission is not checked: every process is root's. sig 0 only probes. */
static void send_user(struct proc *to, int sig, s32 code)
{
	const struct sig_origin o = { .code = code, .pid = proc_current()->pid };

	if (sig)
		send_origin(to, sig, &o);
}

/* kill(-1) and kill to a group: each match gets it; -ESRCH when none matched. */
static long kill_many(int sig, int pgid, bool all)
{
	struct proc *list[PROC_MAX], *self = proc_current();
	unsigned int n = proc_list(list, PROC_MAX);
	long found = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct proc *q = list[i];

		if (all ? (q->pid <= 1 || q == self) : q->pgid != pgid)
			continue;
		send_user(q, sig, SI_USER);
		found++;
	}
	return found ? 0 : -ESRCH;
}

SYSCALL_DEFINE2(kill, int, pid, int, sig)
{
	struct proc *to;

	if (sig < 0 || sig > NSIG)
		return -EINVAL;
	if (pid == 0)
		return kill_many(sig, proc_current()->pgid, false);
	if (pid == -1)
		return kill_many(sig, 0, true);
	if (pid < 0)
		return pid == INT_MIN ? -ESRCH : kill_many(sig, -pid, false);
	to = proc_find(pid);
	if (!to)
		return -ESRCH;
	send_user(to, sig, SI_USER);
	return 0;
}

/* One thread per process: a thread id is its process's pid. */
SYSCALL_DEFINE2(tkill, int, tid, int, sig)
{
	struct proc *to;

	if (tid <= 0 || sig < 0 || sig > NSIG)
		return -EINVAL;
	to = proc_find(tid);
	if (!to)
		return -ESRCH;
	send_user(to, sig, SI_TKILL);
	return 0;
}

SYSCALL_DEFINE3(tgkill, int, tgid, int, tid, int, sig)
{
	struct proc *to;

	if (tgid <= 0 || tid <= 0 || sig < 0 || sig > NSIG)
		return -EINVAL;
	to = proc_find(tid);
	if (!to || to->pid != tgid)
		return -ESRCH;
	send_user(to, sig, SI_TKILL);
	return 0;
}
