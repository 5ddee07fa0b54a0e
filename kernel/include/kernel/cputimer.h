/* SPDX-License-Identifier: MIT */
/*
 * Timers on a process's CPU time (kernel/sched/cputimer.c): ITIMER_VIRTUAL and
 * ITIMER_PROF, and POSIX timers on CLOCK_PROCESS_CPUTIME_ID and
 * CLOCK_THREAD_CPUTIME_ID (one thread per process: the same clock).
 *
 * CPU time is charged on the TSC at every change of mode and every switch
 * (kernel/sched/user.c), so it is exact, but nothing happens when it passes a
 * value. While the process runs, CPU time cannot grow faster than real
 * time: an hrtimer set for the CPU time left (a "poll") cannot come late,
 * only early (the process was in the other mode, or interrupted); then it
 * is set again for what is left. Switched out, the process's CPU time
 * stands still, so its polls are cancelled and set again when it is
 * switched back in: a sleeping process with CPU timers costs no wakeups.
 *
 * As on Linux, where CPU timers are checked at the tick, a timer fires at
 * most once a jiffy: one re-armed from its callback (or after it) is not
 * looked at again until a jiffy after it fired, so a tiny interval cannot
 * flood the process with signals.
 */
#ifndef KERNEL_CPUTIMER_H
#define KERNEL_CPUTIMER_H

#include <dynhz/types.h>
#include <dynhz/hrtimer.h>
#include <kernel/list.h>

struct proc;
struct thread;

/* Which CPU time a timer counts, with Linux's CPUCLOCK_* values. */
enum cpu_clock {
	CPUCLOCK_PROF = 0,  /* user + system time (ITIMER_PROF) */
	CPUCLOCK_VIRT = 1,  /* user time (ITIMER_VIRTUAL) */
	CPUCLOCK_SCHED = 2, /* user + system (the CPU-time clocks): PROF here */
};

struct cpu_timer {
	struct hrtimer poll;   /* on CLOCK_MONOTONIC: when the CPU time may be reached */
	struct list_head node; /* on its process's list while armed */
	struct proc *proc;     /* whose CPU time */
	u64 expires;	       /* CPU time (ns) at which it fires */
	u64 fired_ns;	       /* CLOCK_MONOTONIC when it last fired; 0: never */
	u8 clock;	       /* enum cpu_clock */
	bool armed;
	/* Called with interrupts off once the CPU time reached expires; the timer is off. */
	void (*fn)(struct cpu_timer *ct, u64 now);
};

/**
 * jiffy_ns() - a jiffy to the nearest ns (Linux's TICK_NSEC)
 *
 * Return: ns, at the HZ now.
 */
u64 jiffy_ns(void);

/**
 * cpu_timer_setup() - prepare a timer of p's CPU time, not armed
 * @ct: the timer
 * @p: the process whose time it counts
 * @clock: CPUCLOCK_PROF, _VIRT or _SCHED
 * @fn: its callback (interrupts off, from an interrupt or a system call)
 */
void cpu_timer_setup(struct cpu_timer *ct, struct proc *p, int clock,
		     void (*fn)(struct cpu_timer *ct, u64 now));

/**
 * cpu_timer_now() - the CPU time a timer counts, now
 * @p: the process
 * @clock: CPUCLOCK_PROF, _VIRT or _SCHED
 *
 * Return: ns.
 */
u64 cpu_timer_now(struct proc *p, int clock);

/**
 * cpu_timer_start() - arm (or move) a timer
 * @ct: the timer, set up
 * @expires: the CPU time at which it fires; one already passed fires at the
 *	next timer event, not from this call
 */
void cpu_timer_start(struct cpu_timer *ct, u64 expires);

/**
 * cpu_timer_cancel() - disarm a timer
 * @ct: the timer
 *
 * Return: whether it was armed.
 */
bool cpu_timer_cancel(struct cpu_timer *ct);

/**
 * cpu_timer_proc_init() - a process's list of armed timers, empty
 * @p: the new process
 */
void cpu_timer_proc_init(struct proc *p);

/**
 * cpu_timer_switch() - the scheduler changes threads (interrupts off)
 * @prev: the thread switched out: its process's polls stop
 * @next: the thread switched in: its process's polls start
 */
void cpu_timer_switch(struct thread *prev, struct thread *next);

#endif
