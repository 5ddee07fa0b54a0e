/* SPDX-License-Identifier: MIT */
/*
 * Signals as Linux i386 delivers them (kernel/signal.c): per-process
 * actions set by rt_sigaction, a blocked mask, pending signals delivered
 * on the way back to ring 3 by a frame on the user stack that sigreturn
 * (or rt_sigreturn) undoes; default actions for the rest. The interval
 * timers (alarm, setitimer) that send SIGALRM are in kernel/itimer.c.
 */
#ifndef KERNEL_SIGNAL_H
#define KERNEL_SIGNAL_H

#include <dynhz/types.h>
#include <dynhz/timer.h>

#define NSIG	64
#define SIGHUP	1
#define SIGINT	2
#define SIGQUIT 3
#define SIGILL	4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGBUS	7
#define SIGFPE	8
#define SIGKILL 9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19
#define SIGTSTP 20
#define SIGVTALRM 26
#define SIGPROF 27
#define SIGWINCH 28
#define SIGSYS	31

struct proc;
struct irq_frame;

/* As rt_sigaction passes it on i386. */
struct k_sigaction {
	u32 handler; /* SIG_DFL 0, SIG_IGN 1, or an address */
	u32 flags;
	u32 restorer;
	u64 mask;
};

struct sigstate {
	struct k_sigaction action[NSIG]; /* signal n at n - 1 */
	u64 blocked;			 /* bit n - 1: signal n */
	u64 pending;
};

/* ITIMER_REAL (and alarm): a kernel timer on the jiffies wheel. */
struct proc_timers {
	struct timer_list real;
	u64 real_expires_ns;  /* CLOCK_MONOTONIC when it fires; 0: off */
	u64 real_interval_ns; /* 0: one-shot */
};

/* A new program (exec): default actions, nothing pending, timers off. */
void signal_proc_init(struct proc *p);
/* The process ends: its timers stop. */
void signal_proc_exit(struct proc *p);

/* Makes sig pending for p and wakes it if it sleeps interruptibly. Any context. */
void signal_send(struct proc *p, int sig);
/* Is a signal pending that is not blocked (an interruptible sleep ends)? */
bool signal_pending(const struct proc *p);

/*
 * On the way back to ring 3 (after a system call, an interrupt or an
 * exception from user mode), interrupts off: delivers the pending signals
 * to f, building the handler's frame on the user stack, or taking the
 * default action (which may end the process: it does not return then).
 */
void signal_return_to_user(struct irq_frame *f);

#endif
