/* SPDX-License-Identifier: MIT */
/*
 * Kernel threads and the scheduler: preemptive round robin on one CPU.
 *
 * A thread runs until it sleeps or its timeslice (timeslice= on the command
 * line, in USER_HZ ticks, default 10 = 100 ms) runs out while another
 * thread is runnable; the tick that ends the slice preempts it on the way
 * out of the interrupt. A woken thread goes to the back of the queue. When
 * nothing is runnable the idle thread halts the CPU until an interrupt.
 *
 * Sleeping follows Linux: set the state, check the condition, schedule():
 *
 *	set_current_state(TASK_INTERRUPTIBLE);
 *	if (!done)
 *		schedule();
 *	__set_current_state(TASK_RUNNING);
 *
 * A wake-up between the check and schedule() sets the state back to
 * TASK_RUNNING, so schedule() returns at once and nothing is lost.
 */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include <dynhz/types.h>
#include <dynhz/jiffies.h>
#include <dynhz/ktime.h>
#include <dynhz/hrtimer.h>
#include <kernel/list.h>

struct proc;

#define TASK_RUNNING	     0
#define TASK_INTERRUPTIBLE   1
#define TASK_UNINTERRUPTIBLE 2
#define TASK_DEAD	     4

#define MAX_THREADS	     32
#define THREAD_STACK_SIZE    16384
#define MAX_SCHEDULE_TIMEOUT LONG_MAX

struct thread {
	unsigned long sp; /* saved stack pointer while switched out */
	volatile int state;
	bool on_rq;
	int id;
	const char *name;
	const char *doing; /* what it is busy with, for reports */
	struct list_head run_list;
	void (*fn)(void *arg);
	void *arg;
	u32 *stack;	     /* lowest word: a canary against overflow */
	unsigned long slice; /* ticks left in the timeslice */
	/* accounting */
	u64 exec_ns;	   /* CPU time on the TSC, up to its last charge */
	u64 ticks;	   /* ticks during which it ran (a sample, not its CPU time) */
	u64 switches;	   /* times it was switched in */
	u64 preemptions;   /* times its slice ran out */
	struct proc *proc; /* the process it runs, if any */
	/*
	 * How late its sleeps may end (an hrtimer's range), as Linux's: 50 us
	 * for a new kernel thread; a forked one takes its parent's, which is
	 * also what PR_SET_TIMERSLACK 0 goes back to (default_timer_slack_ns).
	 */
	u64 timer_slack_ns;
	u64 default_timer_slack_ns;
};

#define TIMER_SLACK_DEFAULT_NS 50000

extern struct thread *current;

void sched_init(const char *cmdline);

/* Starts a thread running fn(arg); NULL when all slots are taken. */
struct thread *kthread_run(void (*fn)(void *arg), void *arg, const char *name);
_Noreturn void thread_exit(void);

void schedule(void);
/* Makes t runnable; returns whether it was asleep. Any context. */
int wake_up_process(struct thread *t);

static inline void __set_current_state(int state)
{
	current->state = state;
}

static inline void set_current_state(int state)
{
	current->state = state;
	__asm__ volatile("" : : : "memory"); /* the state is set before the condition is read */
}

/* Says what the current thread is doing (shown by stat and in crash reports). */
static inline void thread_doing(const char *what)
{
	current->doing = what;
}

/* The idle loop: the boot thread ends here. */
_Noreturn void cpu_idle(void);

/* From the tick, after the core's handler: accounting and the timeslice. */
void sched_tick(void);

/* Scheduler facts for stat. */
unsigned long sched_timeslice(void);
/* Lets the runnable threads run, else halts until the next interrupt. */
void sched_wait_interrupt(void);
unsigned int sched_threads(struct thread **out, unsigned int max);
u64 sched_context_switches(void);

/*
 * CPU time, in nanoseconds on the TSC since sched_init(), charged at every
 * context switch: every nanosecond goes to exactly one thread, so idle_ns +
 * busy_ns is the time elapsed since sched_acct_start_ns(), halted idle time
 * included. Threads that exited stay in busy_ns.
 */
struct cpu_usage {
	u64 now_ns;  /* when it was read (tsc_now_ns()) */
	u64 idle_ns; /* the idle thread, halted with or without the tick */
	u64 busy_ns; /* every other thread, live or exited */
};
void sched_cpu_usage(struct cpu_usage *cu);
u64 sched_acct_start_ns(void);

/* A thread's CPU time up to now, in USER_HZ ticks rounded down. */
dz_uclock_t sched_thread_cputime(struct thread *t);

/*
 * The load average (kernel/sched/loadavg.c), Linux's: fixed point with
 * FSHIFT bits of fraction, sampled every 5 s. loadavg_start() starts the
 * sampling with the first process (the timer wheel is up by then; once is
 * enough, more is harmless); loadavg_reset() forgets it (a new root).
 */
#define FSHIFT	11
#define FIXED_1 (1UL << FSHIFT)
void loadavg_start(void);
void loadavg_reset(void);
/* The three averages plus offset, shifted left by shift: Linux's call, for sysinfo and /proc. */
void get_avenrun(unsigned long *loads, unsigned long offset, int shift);
/* Processes running or waiting uninterruptibly now (returned), alive (*total), the last pid. */
unsigned int loadavg_count(unsigned int *total, int *last_pid);
/* The sampling timer (/proc/timer_list names it). */
struct timer_list;
const struct timer_list *loadavg_timer(void);

/* Sleeping (kernel/time/sleep.c). */
long schedule_timeout(long timeout);
/* A count carried with its HZ generation (kernel/retune.h): rebased before it is armed. */
long schedule_timeout_gen(long timeout, u32 *gen);
long schedule_timeout_interruptible(long timeout);
long schedule_timeout_uninterruptible(long timeout);
void msleep(unsigned int msecs);

/*
 * Sleeping on an hrtimer (kernel/time/sleep.c), Linux's names and meaning:
 * sleep in the state the caller set until *expires (on clock_id, ABS or
 * REL) plus up to delta ns, or until woken. expires NULL: no limit; a
 * zero *expires returns at once. Returns 0 when the time came, -EINTR
 * when woken before (a signal, in TASK_INTERRUPTIBLE, or a wake_up).
 */
int schedule_hrtimeout_range_clock(ktime_t *expires, u64 delta, int mode, int clock_id);
int schedule_hrtimeout_range(ktime_t *expires, u64 delta, int mode);
int schedule_hrtimeout(ktime_t *expires, int mode);
/*
 * A thread asleep on an hrtimer (Linux's struct hrtimer_sleeper): the
 * timer's callback wakes task and clears it, so task == NULL afterwards
 * says the time came. Set up with hrtimer_sleeper_setup(); the caller
 * starts the timer after setting its state, then schedule()s while task.
 */
struct hrtimer_sleeper {
	struct hrtimer timer;
	struct thread *task;
};

void hrtimer_sleeper_setup(struct hrtimer_sleeper *sl, int clock_id, int mode);

/* Sleeps uninterruptibly at least min_us, at most about max_us (one wakeup in the range). */
void usleep_range(unsigned long min_us, unsigned long max_us);

#endif
