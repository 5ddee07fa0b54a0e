// SPDX-License-Identifier: MIT
/*
 * CPU-time accounting of processes (see include/kernel/user.h): charged
 * on the TSC at every change of mode, never sampled by the tick.
 */
#include <kernel/user.h>
#include <kernel/proc.h>
#include <kernel/cputimer.h>
#include <kernel/sched.h>
#include <kernel/kernel.h>
#include <kernel/string.h>
#include <kernel/arch.h>
#include <dynhz/conv.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>

/* User time of processes that have ended, for the cpu line. */
static u64 ended_user_ns;
static struct dz_conv ns_to_clock;

dz_uclock_t nsecs_to_clock_t(u64 ns)
{
	return DZ_UCLOCK((unsigned long)dz_conv(&ns_to_clock, ns));
}

/* Charges the time since the last stamp to the mode the process was in. */
static void charge(struct proc *p, u64 now)
{
	u64 d = now - p->stamp_ns;

	if (p->in_user)
		p->utime_ns += d;
	else
		p->stime_ns += d;
	p->stamp_ns = now;
}

/*
 * Charges p up to now if it is running; a process switched out was
 * charged when it left, and the time since is not its own.
 */
static void charge_if_running(struct proc *p, u64 now)
{
	if (current->proc == p)
		charge(p, now);
}

/* Same instant as the scheduler's charge: a process's times never exceed its thread's. */
void user_acct_switch(struct thread *prev, struct thread *next, u64 now)
{
	if (prev->proc)
		charge(prev->proc, now);
	if (next->proc)
		next->proc->stamp_ns = now;
	proc_switch(prev, next);
	cpu_timer_switch(prev, next);
}

static void set_mode(struct proc *p, bool in_user)
{
	unsigned long flags = dz_irq_save();

	charge(p, tsc_now_ns());
	p->in_user = in_user;
	dz_irq_restore(flags);
}

void user_acct_enter_kernel(struct proc *p)
{
	set_mode(p, false);
}

void user_acct_exit_kernel(struct proc *p)
{
	set_mode(p, true);
}

void user_acct_read(struct proc *p, u64 *utime_ns, u64 *stime_ns)
{
	unsigned long flags = dz_irq_save();

	if (p->state == PROC_RUNNING)
		charge_if_running(p, tsc_now_ns());
	*utime_ns = p->utime_ns;
	*stime_ns = p->stime_ns;
	dz_irq_restore(flags);
}

void user_times(struct proc *p, dz_uclock_t *utime, dz_uclock_t *stime)
{
	u64 u, s;

	user_acct_read(p, &u, &s);
	*utime = nsecs_to_clock_t(u);
	*stime = nsecs_to_clock_t(s);
}

void user_acct_exit(struct proc *p)
{
	charge(p, tsc_now_ns());
	ended_user_ns += p->utime_ns;
}

void cpu_times_read(struct cpu_times *ct)
{
	unsigned long flags = dz_irq_save();
	struct proc *live[PROC_MAX];
	unsigned int n = proc_list(live, PROC_MAX);
	struct cpu_usage cu;

	sched_cpu_usage(&cu);
	ct->user_ns = ended_user_ns;
	for (unsigned int i = 0; i < n; i++) {
		if (live[i]->state != PROC_RUNNING)
			continue;
		charge_if_running(live[i], cu.now_ns);
		ct->user_ns += live[i]->utime_ns;
	}
	/* A process's kernel time is its thread's time outside ring 3. */
	ct->system_ns = cu.busy_ns - ct->user_ns;
	ct->idle_ns = cu.idle_ns;
	dz_irq_restore(flags);
}

void user_stat_print(void)
{
	struct proc *live[PROC_MAX];
	unsigned int n = proc_list(live, PROC_MAX);
	struct cpu_times ct;

	for (unsigned int i = 0; i < n; i++) {
		dz_uclock_t ut, st;

		if (live[i]->state != PROC_RUNNING)
			continue;
		user_times(live[i], &ut, &st);
		dz_printk("user: pid %d (%s) utime %lu stime %lu\n", live[i]->pid, live[i]->comm,
			  dz_uclock_ticks(ut), dz_uclock_ticks(st));
	}
	/*
	 * As /proc/stat: user nice system idle, in USER_HZ ticks, each rounded
	 * down from its own nanoseconds: each within a tick of exact.
	 */
	cpu_times_read(&ct);
	dz_printk("cpu  %lu 0 %lu %lu\n", dz_uclock_ticks(nsecs_to_clock_t(ct.user_ns)),
		  dz_uclock_ticks(nsecs_to_clock_t(ct.system_ns)),
		  dz_uclock_ticks(nsecs_to_clock_t(ct.idle_ns)));
}

void user_init(void)
{
	struct dz_rate ns = { NSEC_PER_SEC, 1 }, user = { USER_HZ, 1 };

	if (dz_conv_make(&ns_to_clock, ns, user, DZ_ROUND_DOWN, U64_MAX, ULONG_MAX))
		dz_panic("user: no exact nanoseconds-to-USER_HZ conversion");
}
