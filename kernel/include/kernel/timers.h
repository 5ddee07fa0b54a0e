/* SPDX-License-Identifier: MIT */
/*
 * A process's timers as its life sees them (kernel/time/itimer.c, the
 * interval timers; kernel/time/timer_create.c, the POSIX timers): set up
 * with the process, the POSIX ones gone on exec, all stopped at its end.
 * kernel/proc/ calls these beside signal_proc_init(), _exec() and _exit().
 */
#ifndef KERNEL_TIMERS_H
#define KERNEL_TIMERS_H

struct proc;

/*
 * Once, before the first process: the timers ask signals to tell them
 * when their signals leave a pending set (signal_set_timer_hooks()).
 */
void proc_timers_init(void);

/* The process's interval timers: set up, and stopped for good. */
void itimer_proc_init(struct proc *p);
void itimer_proc_exit(struct proc *p);
/* The process's POSIX timers: deleted (exec and exit). */
void ptimer_proc_exit(struct proc *p);

#endif
