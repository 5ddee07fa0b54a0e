/* SPDX-License-Identifier: MIT */
/*
 * Signals as Linux i386 delivers them (kernel/sched/signal.c): per-process
 * actions set by rt_sigaction, a blocked mask, pending signals delivered
 * on the way back to ring 3 by a frame on the user stack that sigreturn
 * (or rt_sigreturn) undoes; default actions for the rest. The interval
 * timers (alarm, setitimer) that send SIGALRM are in kernel/time/itimer.c.
 */
#ifndef KERNEL_SIGNAL_H
#define KERNEL_SIGNAL_H

#include <dynhz/types.h>
#include <dynhz/hrtimer.h>
#include <kernel/cputimer.h>

#define NSIG	  64
#define SIGHUP	  1
#define SIGINT	  2
#define SIGQUIT	  3
#define SIGILL	  4
#define SIGTRAP	  5
#define SIGABRT	  6
#define SIGBUS	  7
#define SIGFPE	  8
#define SIGKILL	  9
#define SIGUSR1	  10
#define SIGSEGV	  11
#define SIGUSR2	  12
#define SIGPIPE	  13
#define SIGALRM	  14
#define SIGTERM	  15
#define SIGCHLD	  17
#define SIGCONT	  18
#define SIGSTOP	  19
#define SIGTSTP	  20
#define SIGVTALRM 26
#define SIGPROF	  27
#define SIGWINCH  28
#define SIGSTKFLT 16
#define SIGTTIN	  21
#define SIGTTOU	  22
#define SIGURG	  23
#define SIGXCPU	  24
#define SIGXFSZ	  25
#define SIGIO	  29
#define SIGPWR	  30
#define SIGSYS	  31

/* rt_sigaction's sa_flags (i386 values); SA_SIGINFO, SA_NODEFER, SA_RESETHAND and SA_RESTORER act. */
#define SA_NOCLDSTOP 0x00000001U
#define SA_NOCLDWAIT 0x00000002U
#define SA_SIGINFO   0x00000004U
#define SA_RESTORER  0x04000000U
#define SA_ONSTACK   0x08000000U
#define SA_RESTART   0x10000000U
#define SA_NODEFER   0x40000000U
#define SA_RESETHAND 0x80000000U

#define SIG_DFL 0U
#define SIG_IGN 1U

struct proc;
struct irq_frame;

/* As rt_sigaction passes it on i386. */
struct k_sigaction {
	u32 handler; /* SIG_DFL 0, SIG_IGN 1, or an address */
	u32 flags;
	u32 restorer;
	u64 mask;
};

/* Who sent a pending signal, for its siginfo (one per signal: they do not queue). */
struct sig_origin {
	s32 code; /* SI_USER, SI_TKILL, SI_KERNEL, a fault's code, or CLD_* */
	s32 pid;  /* the sender (SI_USER, SI_TKILL), or the child that ended (CLD_*) */
	u32 addr; /* the faulting address (SIGSEGV, SIGBUS...) */
	/* a child's end (SIGCHLD, CLD_*): its exit code or signal, its CPU time in USER_HZ */
	s32 status;
	u32 utime, stime;
	/* a POSIX timer's (SI_TIMER): its id, the overruns, the sigev_value */
	s32 timerid, overrun;
	u32 value;
};

struct sigstate {
	struct k_sigaction action[NSIG]; /* signal n at n - 1 */
	u64 blocked;			 /* bit n - 1: signal n */
	u64 pending;
	struct sig_origin origin[NSIG];
	/* rt_sigsuspend: the mask to put back once a handler's frame has saved it */
	u64 saved_blocked;
	bool restore_blocked;
};

/*
 * ITIMER_REAL (and alarm): an hrtimer on CLOCK_MONOTONIC;
 * ITIMER_VIRTUAL and ITIMER_PROF: timers on the process's CPU time.
 */
struct proc_timers {
	struct hrtimer real;
	u64 real_expires_ns;	 /* CLOCK_MONOTONIC when it fires; 0: off */
	u64 real_interval_ns;	 /* 0: one-shot */
	struct cpu_timer cpu[2]; /* ITIMER_VIRTUAL, ITIMER_PROF */
	u64 cpu_interval_ns[2];	 /* 0: one-shot */
	int next_timer_id;	 /* timer_create's next id to try */
};

/*
 * A new process (p zeroed or initialized before): default actions,
 * nothing pending. Its timers are kernel/time/'s (<kernel/timers.h>).
 */
void signal_proc_init(struct proc *p);
/*
 * execve in p, as Linux: caught signals go back to their default action,
 * ignored ones stay ignored; the mask and pending signals stay.
 */
void signal_proc_exec(struct proc *p);

/*
 * The timers that send signals (kernel/time/, above this room) hear when
 * their signals leave a pending set, interrupts off, to re-arm a periodic
 * timer (Linux's dequeue_signal()): taken(p, gone, sig) when signals were
 * delivered (sig) or discarded (the bits of gone), for the POSIX timers,
 * which also fill the delivered signal's overrun count in its origin;
 * alarm_taken(p) when SIGALRM left it, taken or discarded at delivery, for
 * ITIMER_REAL. Set once at boot (proc_timers_init()).
 */
struct signal_timer_hooks {
	void (*taken)(struct proc *p, u64 gone, int sig);
	void (*alarm_taken)(struct proc *p);
};
void signal_set_timer_hooks(const struct signal_timer_hooks *h);

/* Makes sig pending for p and wakes it if it sleeps interruptibly. Any context. */
void signal_send(struct proc *p, int sig);
/* The same, with what the handler's siginfo says (a child's end: SIGCHLD with CLD_*). */
void signal_send_info(struct proc *p, int sig, const struct sig_origin *o);
/*
 * The same, interrupts off, for a POSIX timer: returns whether the signal
 * is now pending (false: p ignores it, or p is ending).
 */
bool signal_send_timer(struct proc *p, int sig, const struct sig_origin *o);
/*
 * A synchronous signal (a fault): delivered even when blocked or ignored,
 * as Linux's force_sig: either is undone first (the action back to the
 * default when it was SIG_IGN or the signal was blocked). code and addr
 * fill the handler's siginfo (SEGV_MAPERR 1, SEGV_ACCERR 2, ...).
 */
void signal_force(struct proc *p, int sig, int code, u32 addr);
/* Is a signal pending that is not blocked and not ignored (an interruptible sleep ends)? */
bool signal_pending(const struct proc *p);
/*
 * pselect6 and ppoll: the mask at umask (sigsetsize bytes: 8, else
 * -EINVAL; -EFAULT) replaces the blocked set for the call (nothing when
 * umask is 0); signal_restore_mask_unless(ret == -ERESTARTNOHAND) at the
 * end puts the old one back, or leaves that to the signal's delivery.
 */
long signal_set_temporary_mask(u32 umask, u32 sigsetsize);
void signal_restore_mask_unless(bool interrupted);
/* "SIGALRM", or NULL for a number without a name (the real-time signals). */
const char *signal_name_of(int sig);

/*
 * On the way back to ring 3 (after a system call, an interrupt or an
 * exception from user mode), interrupts off: delivers the pending signals
 * to f, building the handler's frame on the user stack, or taking the
 * default action. Returns 0, or the signal whose default action ends the
 * process (its line printed, interrupts on): the caller ends it
 * (kernel/proc/fault.c, user_return()).
 */
int signal_return_to_user(struct irq_frame *f);

#endif
