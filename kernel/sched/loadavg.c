// SPDX-License-Identifier: MIT
/*
 * The load average (kernel/include/kernel/sched.h), as Linux's
 * calc_load(): fixed point, FSHIFT bits of fraction, sampled every 5 s
 * from the timer wheel, of the processes that run or wait for the CPU or
 * in an uninterruptible sleep. /proc/loadavg and sysinfo read it.
 */
#include <kernel/sched.h>
#include <kernel/proc.h>
#include <dynhz/jiffies.h>
#include <dynhz/timer.h>
#include <dynhz/port.h>

#define EXP_1	1884 /* FIXED_1 / exp(5 s / 1 min) */
#define EXP_5	2014
#define EXP_15	2037
#define LOAD_MS 5000

static unsigned long avenrun[3];
static struct timer_list load_timer;

static unsigned long calc_load(unsigned long load, unsigned long exp, unsigned long active)
{
	unsigned long n = load * exp + active * (FIXED_1 - exp);

	if (active >= load)
		n += FIXED_1 - 1; /* rounds towards the new value, as Linux */
	return n / FIXED_1;
}

static bool proc_runnable(const struct proc *p)
{
	return p->state == PROC_RUNNING && p->thread &&
	       (p->thread->state == TASK_RUNNING || p->thread->state == TASK_UNINTERRUPTIBLE);
}

/* Processes running or in an uninterruptible wait, as Linux counts for the load. */
unsigned int loadavg_count(unsigned int *total, int *last_pid)
{
	struct proc *ps[PROC_MAX];
	unsigned int n = proc_list(ps, PROC_MAX), active = 0;

	*total = 0;
	*last_pid = 0;
	for (unsigned int i = 0; i < n; i++) {
		if (ps[i]->state == PROC_RUNNING)
			(*total)++;
		if (proc_runnable(ps[i]))
			active++;
	}
	*last_pid = proc_last_pid(); /* the most recent, alive or not, as Linux's */
	return active;
}

/* The timer: the tick interrupt, so the sample is the processes that wait for the CPU or run. */
static void load_sample(struct timer_list *t)
{
	unsigned int total;
	int last;
	unsigned long active = (unsigned long)loadavg_count(&total, &last) << FSHIFT;

	avenrun[0] = calc_load(avenrun[0], EXP_1, active);
	avenrun[1] = calc_load(avenrun[1], EXP_5, active);
	avenrun[2] = calc_load(avenrun[2], EXP_15, active);
	mod_timer(t, jiffies + msecs_to_jiffies(LOAD_MS) + 1);
}

const struct timer_list *loadavg_timer(void)
{
	return &load_timer;
}

void get_avenrun(unsigned long *loads, unsigned long offset, int shift)
{
	for (int i = 0; i < 3; i++)
		loads[i] = (avenrun[i] + offset) << shift;
}

void loadavg_reset(void)
{
	avenrun[0] = avenrun[1] = avenrun[2] = 0;
}

/*
 * The load average's timer starts with the first process: vfs_init()
 * runs before the clocks and the timer wheel are up, the first process
 * after, and before it there is no load to count.
 */
void loadavg_start(void)
{
	unsigned long flags = dz_irq_save();
	static bool started;
	bool was = started;

	started = true;
	dz_irq_restore(flags);
	if (was)
		return; /* set up again while pending, the timer would corrupt the wheel */
	timer_setup(&load_timer, load_sample, 0);
	mod_timer(&load_timer, jiffies + msecs_to_jiffies(LOAD_MS) + 1);
}
