// SPDX-License-Identifier: MIT
/*
 * The end of a process and its reaping: exit, exit_group, wait4, waitpid.
 *
 * An ended process is a zombie, its wait status and CPU times kept, until
 * its parent reaps it with wait4; the parent then adds the child's user
 * and system time, and those of the children it reaped, to its own
 * cutime and cstime (times(), getrusage(RUSAGE_CHILDREN), /proc/<pid>/stat).
 * At the end the parent gets the child's exit signal (SIGCHLD, ignored by
 * default) with CLD_EXITED, CLD_KILLED or CLD_DUMPED. A parent that sets
 * SIGCHLD to SIG_IGN, or SA_NOCLDWAIT, has its children reaped at their
 * end, as Linux does. The children of an ended process pass to init (pid
 * 1), which reaps them when it waits; when there is no init (a program
 * the kernel's shell started), orphans are reaped at their end.
 *
 * The processes the kernel starts (proc_spawn: init, the shell's run)
 * have no parent process: the kernel reaps them with proc_wait().
 */
#include <kernel/proc.h>
#include <kernel/console.h>
#include <kernel/sigframe.h>
#include <kernel/sched.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/user.h>
#include <kernel/wait.h>
#include <kernel/timers.h>
#include <kernel/errno.h>
#include <kernel/arch.h>
#include <dynhz/port.h>

#define WNOHANG	     0x00000001
#define WUNTRACED    0x00000002
#define WCONTINUED   0x00000008
#define __WNOTHREAD  0x20000000
#define __WALL	     0x40000000
#define __WCLONE     0x80000000
#define WAIT_OPTIONS ((u32)WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WALL | (u32)__WCLONE)

/* Every end of a process wakes every waiter: each looks for its own children. */
static DECLARE_WAIT_QUEUE_HEAD(child_wq);

/* The siginfo of a child's end, from its wait status. */
static void chld_origin(const struct proc *p, struct sig_origin *o)
{
	int st = p->exit_status;

	o->pid = p->pid;
	o->addr = 0;
	if (st & 0x7f) {
		o->code = (st & W_COREDUMP) ? CLD_DUMPED : CLD_KILLED;
		o->status = st & 0x7f;
	} else {
		o->code = CLD_EXITED;
		o->status = (st >> 8) & 0xff;
	}
	o->utime = (u32)dz_uclock_ticks(nsecs_to_clock_t(p->utime_ns));
	o->stime = (u32)dz_uclock_ticks(nsecs_to_clock_t(p->stime_ns));
}

/*
 * Interrupts off: p has ended; its parent gets the exit signal, or p is
 * freed at once when nobody will reap it (no parent; the parent ignores
 * SIGCHLD or set SA_NOCLDWAIT, as Linux's do_notify_parent).
 */
static void notify_parent(struct proc *p)
{
	struct proc *parent = p->ppid ? proc_find(p->ppid) : NULL;
	int sig = p->exit_signal;
	bool autoreap = false;
	struct sig_origin o;

	if (p->kernel_reaps)
		return;
	if (!parent || parent->state != PROC_RUNNING) {
		p->state = PROC_FREE;
		return;
	}
	if (sig == SIGCHLD) {
		const struct k_sigaction *ka = &parent->sig.action[SIGCHLD - 1];

		autoreap = ka->handler == SIG_IGN || (ka->flags & SA_NOCLDWAIT);
		if (ka->handler == SIG_IGN)
			sig = 0;
	}
	if (sig > 0 && sig <= NSIG) {
		chld_origin(p, &o);
		signal_send_info(parent, sig, &o);
	}
	if (autoreap)
		p->state = PROC_FREE;
}

/* Interrupts off: p's children pass to init, or to nobody when p is init or there is none. */
static void reparent_children(struct proc *p)
{
	struct proc *list[PROC_MAX], *init = proc_find(1);
	unsigned int n = proc_list(list, PROC_MAX);

	if (init && (init == p || init->state != PROC_RUNNING))
		init = NULL;
	for (unsigned int i = 0; i < n; i++) {
		struct proc *c = list[i];

		if (c->ppid != p->pid || c->kernel_reaps)
			continue;
		c->ppid = init ? 1 : 0;
		/* An ended one is init's to reap now (or nobody's: freed). */
		if (c->state == PROC_ZOMBIE)
			notify_parent(c);
	}
}

_Noreturn void proc_exit(int wait_status)
{
	struct proc *p = current->proc;

	itimer_proc_exit(p);
	ptimer_proc_exit(p);
	files_close_all(&p->files);
	/*
	 * With interrupts off from here: once the space is gone, a switch
	 * back to this thread would load no directory of its own.
	 * (clear_child_tid matters to the threads of a space only: none here.)
	 */
	local_irq_disable();
	proc_release_mm(p);
	user_acct_exit(p);
	p->exit_status = wait_status;
	p->state = PROC_ZOMBIE;
	p->thread = NULL;
	current->proc = NULL;
	mm_set_current(NULL);
	console_proc_exit(p);
	reparent_children(p);
	notify_parent(p);
	wake_up(&child_wq);
	thread_exit();
}

SYSCALL_DEFINE1(exit, int, code)
{
	proc_exit(W_EXITCODE(code));
}

/* One thread per process: the group is the process. */
SYSCALL_DEFINE1(exit_group, int, code)
{
	proc_exit(W_EXITCODE(code));
}

int proc_wait(int pid)
{
	struct proc *p = proc_find(pid);
	int status;

	if (!p || !p->kernel_reaps)
		return -ECHILD;
	wait_event(child_wq, p->state == PROC_ZOMBIE);
	status = p->exit_status;
	proc_free(p);
	return status;
}

/* What wait4 takes from a reaped child. */
struct reaped {
	int pid, status;
	struct rusage_ns ru;
};

/* Is c one of me's children that wait4(pid, options) asks for? */
static bool eligible(const struct proc *c, const struct proc *me, int pid, u32 options)
{
	if (c->ppid != me->pid || c->kernel_reaps)
		return false;
	if ((pid > 0 && c->pid != pid) || (pid == 0 && c->pgid != me->pgid) ||
	    (pid < -1 && c->pgid != -pid))
		return false;
	/* As Linux: a child that ends with another signal than SIGCHLD is a "clone" child. */
	if (options & __WALL)
		return true;
	return (c->exit_signal != SIGCHLD) == !!(options & __WCLONE);
}

/* Interrupts off: the zombie's facts, its times added to the parent's, its slot freed. */
static void reap(struct proc *me, struct proc *c, struct reaped *r)
{
	r->pid = c->pid;
	r->status = c->exit_status;
	/* wait4's rusage is RUSAGE_BOTH: the child and the children it reaped. */
	r->ru.utime_ns = c->utime_ns + c->cutime_ns;
	r->ru.stime_ns = c->stime_ns + c->cstime_ns;
	r->ru.minflt = c->minflt;
	r->ru.maxrss_kb = 0;
	me->cutime_ns += r->ru.utime_ns;
	me->cstime_ns += r->ru.stime_ns;
	c->state = PROC_FREE;
}

/* Interrupts off: 1 with a child reaped, 0 when the children asked for live on, or -ECHILD. */
static int reap_one(struct proc *me, int pid, u32 options, struct reaped *r)
{
	struct proc *list[PROC_MAX];
	unsigned int n = proc_list(list, PROC_MAX);
	bool any = false;

	/* Oldest first, as Linux walks its list of children. */
	for (unsigned int i = 0; i < n; i++) {
		if (!eligible(list[i], me, pid, options))
			continue;
		any = true;
		if (list[i]->state == PROC_ZOMBIE) {
			reap(me, list[i], r);
			return 1;
		}
	}
	return any ? 0 : -ECHILD;
}

/* Sleeps until a child asked for ends: 1 (reaped into r), 0 (WNOHANG), -ECHILD, -ERESTARTSYS. */
static long wait_for_child(struct proc *me, int pid, u32 options, struct reaped *r)
{
	DEFINE_WAIT(w);
	long ret;

	thread_doing("waiting for a child");
	for (;;) {
		unsigned long flags;

		prepare_to_wait(&child_wq, &w, TASK_INTERRUPTIBLE);
		flags = dz_irq_save();
		ret = reap_one(me, pid, options, r);
		dz_irq_restore(flags);
		if (ret || (options & WNOHANG))
			break;
		if (signal_pending(me)) {
			ret = -ERESTARTSYS;
			break;
		}
		schedule();
	}
	finish_wait(&child_wq, &w);
	thread_doing("running a user program");
	return ret;
}

/*
 * wait4's pid: > 0 that child, -1 any child, 0 any in the caller's
 * process group, < -1 any in group -pid. The child is reaped before its
 * status is written: a bad pointer loses it, as on Linux.
 */
static long do_wait(int pid, u32 ustatus, u32 options, u32 uru)
{
	struct proc *me = proc_current();
	struct reaped r;
	long ret;

	if (options & ~WAIT_OPTIONS)
		return -EINVAL;
	if (pid == INT_MIN)
		return -ESRCH; /* -INT_MIN is no process group */
	ret = wait_for_child(me, pid, options, &r);
	if (ret <= 0)
		return ret;
	if (ustatus && copy_to_user(ustatus, &r.status, sizeof(r.status)))
		return -EFAULT;
	if (uru && put_rusage(uru, &r.ru))
		return -EFAULT;
	return r.pid;
}

SYSCALL_DEFINE4(wait4, int, pid, u32, ustatus, int, options, u32, uru)
{
	return do_wait(pid, ustatus, (u32)options, uru);
}

SYSCALL_DEFINE3(waitpid, int, pid, u32, ustatus, int, options)
{
	return do_wait(pid, ustatus, (u32)options, 0);
}
