// SPDX-License-Identifier: MIT
/*
 * cputest=<seconds>: the check of tests/cputime. CPU time is charged on
 * the TSC at every context switch (kernel/sched/sched.c); here we make the three
 * kinds of time and see that the cpu line adds up:
 *	- the check program runs 1 s in ring 3 (user time);
 *	- a kernel thread busies BUSY_MS and exits (system time that must
 *	  outlive the thread);
 *	- the CPU idles <seconds> (halted, with the tick stopped if nohz=on).
 * Then one line gives user, system and idle in USER_HZ ticks and the
 * elapsed time since the accounting's start, read from the TSC apart from
 * the accounting; tests/cputime/check.sh judges them.
 */
#include <kernel/kernel.h>
#include <kernel/test.h>
#include <kernel/sched.h>
#include <kernel/user.h>
#include <kernel/wait.h>
#include <kernel/arch.h>
#include <dynhz/bootparam.h>
#include <dynhz/jiffies.h>
#include <dynhz/tick.h>
#include <dynhz/hz.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>

#define CPUTEST_DEFAULT 3 /* seconds */
#define CPUTEST_MAX	3600
#define BUSY_MS		500

static DECLARE_WAIT_QUEUE_HEAD(busy_wq);
static volatile bool busy_done;
static unsigned long busy_cpu; /* the busy thread's own CPU time, USER_HZ ticks */

/* Spins on the TSC, not on jiffies: with or without the tick, the same work. */
static void busy_fn(void *arg)
{
	u64 t0 = tsc_now_ns();

	(void)arg;
	thread_doing("cputest: busy");
	while (tsc_now_ns() - t0 < (u64)BUSY_MS * NSEC_PER_MSEC)
		cpu_relax();
	busy_cpu = dz_uclock_ticks(sched_thread_cputime(current));
	busy_done = true;
	wake_up(&busy_wq);
}

static unsigned long cpu_secs = CPUTEST_DEFAULT;

/* cputest=<s>, read at boot so that a bad value is reported whatever runs. */
void cputest_setup(const char *cmdline)
{
	static const char *const names[] = { "cputest", NULL };
	struct dz_param p;

	if (dz_cmdline_find(cmdline, names, &p) && p.val)
		dz_param_uint(&p, 1, CPUTEST_MAX, CPUTEST_DEFAULT, &cpu_secs);
}

static unsigned long ticks_of(u64 ns)
{
	return dz_uclock_ticks(nsecs_to_clock_t(ns));
}

/* The times and the elapsed time, at one instant. */
static void report(unsigned long secs, int init, bool exited)
{
	unsigned long flags = dz_irq_save();
	struct cpu_times ct;
	u64 elapsed;

	cpu_times_read(&ct);
	elapsed = tsc_now_ns() - sched_acct_start_ns();
	dz_irq_restore(flags);
	dz_printk("cputest: hz=%u nohz=%s user=%lu system=%lu idle=%lu elapsed=%lu "
		  "busy_ms=%u busy_cpu=%lu busy_exited=%d sleep_s=%lu init=%d\n",
		  HZ, dz_tick_nohz_active() ? "on" : "off", ticks_of(ct.user_ns),
		  ticks_of(ct.system_ns), ticks_of(ct.idle_ns), ticks_of(elapsed), BUSY_MS,
		  busy_cpu, exited, secs, init);
	dz_printk("cputest: ns user=%llu system=%llu idle=%llu elapsed=%llu\n",
		  (unsigned long long)ct.user_ns, (unsigned long long)ct.system_ns,
		  (unsigned long long)ct.idle_ns, (unsigned long long)elapsed);
}

int cputest_run(void)
{
	unsigned long secs = cpu_secs;
	struct thread *busy;
	int init;

	thread_doing("cputest");
	init = usertest_program(USERTEST_PROGRAM, "busy");
	/* Started after init: nothing takes its slot before it is looked at. */
	busy = kthread_run(busy_fn, NULL, "cpu-busy");
	if (!busy) {
		dz_printk("cputest: no thread slot\n");
		return 1;
	}
	wait_event(busy_wq, busy_done);
	msleep((unsigned int)(secs * 1000));
	report(secs, init, busy->state == TASK_DEAD);
	user_stat_print();
	return init != 0;
}
