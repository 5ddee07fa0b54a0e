// SPDX-License-Identifier: MIT
/*
 * fork, vfork and clone (with fork's semantics): a new process that is a
 * copy of the caller and returns 0 from the same system call.
 *
 * The child gets its own copy of the caller's address space (mm_copy:
 * copy-on-write, each page the parent has touched is shared until one of
 * the two writes to it), the same open files (shared descriptions, one offset, as Linux), the
 * signal actions and mask (nothing pending, no interval timer), the TLS
 * descriptors, the FPU state, the working directory and the break. Its
 * thread returns to ring 3 through a copy of the parent's system-call
 * frame with EAX 0.
 *
 * vfork (CLONE_VFORK | CLONE_VM) lends the parent's address space to the
 * child instead of copying it: the parent sleeps, uninterruptibly, until
 * the child execs or ends and hands it back (proc_release_mm), with what
 * the child changed in it, as on Linux where the two share it.
 *
 * One thread per process: clone for a thread (CLONE_VM without
 * CLONE_VFORK, CLONE_THREAD, CLONE_SIGHAND), for shared tables
 * (CLONE_FILES, CLONE_FS) or for namespaces and tracing is -ENOSYS; a
 * combination Linux refuses is -EINVAL, as there.
 */
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/wait.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/arch.h>
#include <kernel/timers.h>
#include <dynhz/port.h>
#include <dynhz/timekeeping.h>

#define CSIGNAL		     0x000000ffU /* the signal the parent gets at the child's end */
#define CLONE_VM	     0x00000100U
#define CLONE_FS	     0x00000200U
#define CLONE_FILES	     0x00000400U
#define CLONE_SIGHAND	     0x00000800U
#define CLONE_PIDFD	     0x00001000U
#define CLONE_PTRACE	     0x00002000U
#define CLONE_VFORK	     0x00004000U
#define CLONE_PARENT	     0x00008000U
#define CLONE_THREAD	     0x00010000U
#define CLONE_NEWNS	     0x00020000U
#define CLONE_SYSVSEM	     0x00040000U
#define CLONE_SETTLS	     0x00080000U
#define CLONE_PARENT_SETTID  0x00100000U
#define CLONE_CHILD_CLEARTID 0x00200000U
#define CLONE_DETACHED	     0x00400000U
#define CLONE_UNTRACED	     0x00800000U
#define CLONE_CHILD_SETTID   0x01000000U
#define CLONE_NEWCGROUP	     0x02000000U
#define CLONE_NEWUTS	     0x04000000U
#define CLONE_NEWIPC	     0x08000000U
#define CLONE_NEWUSER	     0x10000000U
#define CLONE_NEWPID	     0x20000000U
#define CLONE_NEWNET	     0x40000000U
#define CLONE_IO	     0x80000000U

/* What a process of one thread with its own tables cannot give. */
#define CLONE_NEEDS_MORE                                                                      \
	(CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_PIDFD | CLONE_PTRACE | CLONE_THREAD | \
	 CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER |        \
	 CLONE_NEWPID | CLONE_NEWNET)

/* How each child first enters ring 3, by process slot: set by the parent, read once. */
static struct child_start {
	struct irq_frame frame; /* the parent's, EAX 0 */
	u32 set_tid;		/* CLONE_CHILD_SETTID: where the child's pid goes, or 0 */
} child_starts[PROC_MAX];

static DECLARE_WAIT_QUEUE_HEAD(vfork_wq);

/* Linux's refusals first (-EINVAL), then what needs threads or namespaces (-ENOSYS). */
static long clone_flags_check(u32 flags, const struct proc *parent)
{
	if ((flags & (CLONE_NEWNS | CLONE_FS)) == (CLONE_NEWNS | CLONE_FS) ||
	    (flags & (CLONE_NEWUSER | CLONE_FS)) == (CLONE_NEWUSER | CLONE_FS))
		return -EINVAL;
	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return -EINVAL;
	/* init's children cannot be given init's parent (there is none). */
	if ((flags & CLONE_PARENT) && parent->pid == 1)
		return -EINVAL;
	if ((flags & CLONE_VM) && !(flags & CLONE_VFORK))
		return -ENOSYS; /* two threads in one space */
	return (flags & CLONE_NEEDS_MORE) ? -ENOSYS : 0;
}

/* The FPU registers are live while the caller runs: FXSAVE them into the child's copy. */
static void copy_fpu(struct proc *child)
{
	unsigned long flags = dz_irq_save();

	fpu_save(child->fpu);
	dz_irq_restore(flags);
}

/* Everything but the address space and the files, which can fail or must be undone. */
static long copy_state(struct proc *child, const struct proc *parent, u32 flags, u32 tls)
{
	memcpy(child->comm, parent->comm, sizeof(child->comm));
	memcpy(child->cmdline, parent->cmdline, sizeof(child->cmdline));
	child->cmdline_len = parent->cmdline_len;
	memcpy(child->exe, parent->exe, sizeof(child->exe));
	memcpy(child->cwd, parent->cwd, sizeof(child->cwd));
	child->pgid = parent->pgid;
	child->sid = parent->sid;
	child->exit_signal = (int)(flags & CSIGNAL);
	child->umask = parent->umask;
	child->start_ns = ktime_get_ns();
	/* Actions and mask; pending signals and interval timers are not inherited. */
	signal_proc_init(child);
	itimer_proc_init(child);
	memcpy(child->sig.action, parent->sig.action, sizeof(child->sig.action));
	child->sig.blocked = parent->sig.blocked;
	memcpy(child->tls, parent->tls, sizeof(child->tls));
	copy_fpu(child);
	return (flags & CLONE_SETTLS) ? tls_set(child, tls, false, NULL) : 0;
}

/* The child's address space: a copy, or the parent's lent for a vfork. */
static long copy_mm(struct proc *child, struct proc *parent, u32 flags)
{
	if (!(flags & CLONE_VM))
		return mm_copy(&child->mm, &parent->mm);
	child->mm = parent->mm;
	child->mm_borrowed = true;
	return 0;
}

/* Interrupts off: the parent takes back the space it lent (the child is done with it). */
static void take_back_mm(struct proc *child)
{
	struct proc *parent = child->vfork_parent;

	parent->mm = child->mm;
	memset(&child->mm, 0, sizeof(child->mm));
	child->mm_borrowed = false;
}

/**
 * proc_release_mm() - the process gives up its address space (exec, exit)
 * @p: the current process, or one whose thread never ran
 *
 * A vfork child's space is its parent's: it goes back, with what the
 * child did to it, and the parent wakes. Any other space is freed. A
 * child of CLONE_VFORK without CLONE_VM frees its own copy and wakes its
 * parent all the same.
 */
void proc_release_mm(struct proc *p)
{
	struct proc *parent = p->vfork_parent;
	unsigned long flags;

	if (!p->mm_borrowed)
		mm_destroy(&p->mm);
	if (!parent)
		return;
	flags = dz_irq_save();
	if (p->mm_borrowed) {
		/* The space stays in use (the parent's): only this thread leaves it. */
		if (read_cr3() == p->mm.pgdir)
			mm_activate_kernel();
		take_back_mm(p);
	}
	p->vfork_parent = NULL;
	parent->vfork_waiting = false;
	dz_irq_restore(flags);
	wake_up(&vfork_wq);
}

/* The child's first instructions: back to ring 3 where the parent called, EAX 0. */
static void fork_child_thread(void *arg)
{
	struct proc *p = arg;
	struct child_start *cs = &child_starts[proc_index(p)];

	local_irq_disable();
	proc_enter(p);
	if (cs->set_tid) {
		u32 pid = (u32)p->pid;

		/* In the child's own memory; a bad address is ignored, as Linux ignores it. */
		local_irq_enable();
		copy_to_user(cs->set_tid, &pid, sizeof(pid));
		local_irq_disable();
	}
	/* A signal sent since the fork is delivered now, as on any return to ring 3. */
	user_return(&cs->frame);
	arch_enter_user_frame(&cs->frame);
}

/* Undoes a child whose thread could not start. */
static void discard_child(struct proc *child)
{
	unsigned long flags;

	files_close_all(&child->files);
	flags = dz_irq_save();
	if (child->mm_borrowed)
		take_back_mm(child);
	child->vfork_parent = NULL;
	proc_current()->vfork_waiting = false;
	dz_irq_restore(flags);
	mm_destroy(&child->mm);
	proc_free(child);
}

/* The parent's part of CLONE_VFORK: sleep until the child has exec'd or ended. */
static void vfork_wait(struct proc *parent)
{
	thread_doing("waiting for its vfork child to exec or exit");
	wait_event(vfork_wq, !parent->vfork_waiting);
	thread_doing("running a user program");
}

/* The child gets its thread: it may run from here on. Returns its pid, or -EAGAIN. */
static long start_child(struct proc *child, struct proc *parent, u32 flags)
{
	int pid = child->pid;
	unsigned long irq = dz_irq_save();

	child->ppid = (flags & CLONE_PARENT) ? parent->ppid : parent->pid;
	if (flags & CLONE_VFORK) {
		child->vfork_parent = parent;
		parent->vfork_waiting = true;
	}
	child->thread = kthread_run(fork_child_thread, child, child->comm);
	if (child->thread) {
		/* As Linux's copy_process: the parent's slack, which is also the child's default. */
		child->thread->timer_slack_ns = current->timer_slack_ns;
		child->thread->default_timer_slack_ns = current->timer_slack_ns;
	}
	dz_irq_restore(irq);
	if (!child->thread) {
		discard_child(child);
		return -EAGAIN;
	}
	if (flags & CLONE_VFORK)
		vfork_wait(parent);
	return pid;
}

static long do_fork(u32 flags, u32 newsp, u32 parent_tid, u32 tls, u32 child_tid,
		    const struct irq_frame *f)
{
	struct proc *parent = proc_current(), *child;
	struct child_start *cs;
	long err = clone_flags_check(flags, parent);

	if (err)
		return err;
	child = proc_alloc();
	if (!child)
		return -EAGAIN;
	err = copy_state(child, parent, flags, tls);
	if (!err)
		err = copy_mm(child, parent, flags);
	if (err) {
		proc_free(child);
		return err;
	}
	files_copy(&child->files, &parent->files);
	cs = &child_starts[proc_index(child)];
	cs->frame = *f;
	cs->frame.eax = 0;
	if (newsp)
		cs->frame.user_esp = newsp;
	cs->set_tid = (flags & CLONE_CHILD_SETTID) ? child_tid : 0;
	child->clear_child_tid = (flags & CLONE_CHILD_CLEARTID) ? child_tid : 0;
	/* In the parent's memory only (unless lent): as Linux, a bad address is ignored. */
	if (flags & CLONE_PARENT_SETTID)
		copy_to_user(parent_tid, &child->pid, sizeof(child->pid));
	return start_child(child, parent, flags);
}

SYSCALL_DEFINE0(fork)
{
	return do_fork(SIGCHLD, 0, 0, 0, 0, args->frame);
}

SYSCALL_DEFINE0(vfork)
{
	return do_fork(CLONE_VFORK | CLONE_VM | SIGCHLD, 0, 0, 0, 0, args->frame);
}

/*
 * clone(flags, newsp, parent_tid, tls, child_tid): i386 passes the TLS
 * before the child's tid (CLONE_BACKWARDS). By hand rather than with
 * SYSCALL_DEFINE5: it needs the caller's frame.
 */
SYSCALL_PROTO(clone);
long sys_clone(const struct syscall_args *args)
{
	return do_fork(args->a[0], args->a[1], args->a[2], args->a[3], args->a[4], args->frame);
}
