// SPDX-License-Identifier: MIT
/*
 * Timers on a process's CPU time (see include/kernel/cputimer.h): an
 * hrtimer "poll" per armed timer while its process runs, set for the CPU
 * time left; nothing while it is switched out.
 */
#include <kernel/cputimer.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/user.h>
#include <dynhz/port.h>
#include <dynhz/hz.h>

/*
 * The shortest poll: when the counted mode is not the one running (user
 * time while in a long system call), the CPU time left does not shrink
 * and a poll for it would come again and again. A timer is then at most
 * this late, and only when the mode changed just before its expiry; one
 * already due fires this much after its start.
 */
#define CPU_POLL_MIN_NS (10 * NSEC_PER_USEC)

u64 jiffy_ns(void)
{
	struct dz_tick_period per = dz_hz_period();

	return per.den ? (per.num * NSEC_PER_SEC + per.den / 2) / per.den : 0;
}

u64 cpu_timer_now(struct proc *p, int clock)
{
	u64 ut, st;

	user_acct_read(p, &ut, &st);
	return clock == CPUCLOCK_VIRT ? ut : ut + st;
}

static bool running(const struct proc *p)
{
	return current && current->proc == p;
}

/* Interrupts off, ct armed and its process running: poll when the time left has passed. */
static void poll_start(struct cpu_timer *ct, u64 now)
{
	u64 left = ct->expires > now ? ct->expires - now : 0;

	if (left < CPU_POLL_MIN_NS)
		left = CPU_POLL_MIN_NS;
	if (ct->fired_ns) {
		u64 mono = ktime_get_ns(), next = ct->fired_ns + jiffy_ns();

		if (mono < next && left < next - mono)
			left = next - mono; /* once a jiffy at most */
	}
	hrtimer_start(&ct->poll, (ktime_t)left, HRTIMER_MODE_REL);
}

static void disarm(struct cpu_timer *ct)
{
	ct->armed = false;
	list_del_init(&ct->node);
	hrtimer_try_to_cancel(&ct->poll);
}

static enum hrtimer_restart poll_fn(struct hrtimer *t)
{
	struct cpu_timer *ct = dz_hrtimer_entry(t, struct cpu_timer, poll);
	u64 now;

	if (!ct->armed)
		return HRTIMER_NORESTART;
	now = cpu_timer_now(ct->proc, ct->clock);
	if (now >= ct->expires) {
		disarm(ct);
		ct->fired_ns = ktime_get_ns();
		ct->fn(ct, now); /* may start it again */
	} else if (running(ct->proc)) {
		poll_start(ct, now);
	}
	return HRTIMER_NORESTART;
}

void cpu_timer_setup(struct cpu_timer *ct, struct proc *p, int clock,
		     void (*fn)(struct cpu_timer *ct, u64 now))
{
	hrtimer_setup(&ct->poll, poll_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	INIT_LIST_HEAD(&ct->node);
	ct->proc = p;
	ct->clock = (u8)(clock == CPUCLOCK_VIRT ? CPUCLOCK_VIRT : CPUCLOCK_PROF);
	ct->expires = 0;
	ct->fired_ns = 0;
	ct->armed = false;
	ct->fn = fn;
}

void cpu_timer_start(struct cpu_timer *ct, u64 expires)
{
	unsigned long flags = dz_irq_save();

	if (!ct->armed)
		list_add_tail(&ct->node, &ct->proc->cpu_timers);
	ct->armed = true;
	ct->expires = expires;
	if (running(ct->proc))
		poll_start(ct, cpu_timer_now(ct->proc, ct->clock));
	else
		hrtimer_try_to_cancel(&ct->poll);
	dz_irq_restore(flags);
}

bool cpu_timer_cancel(struct cpu_timer *ct)
{
	unsigned long flags = dz_irq_save();
	bool was = ct->armed;

	if (was)
		disarm(ct);
	dz_irq_restore(flags);
	return was;
}

void cpu_timer_proc_init(struct proc *p)
{
	INIT_LIST_HEAD(&p->cpu_timers);
}

void cpu_timer_switch(struct thread *prev, struct thread *next)
{
	struct list_head *pos;

	if (prev->proc && prev->proc != next->proc && prev->proc->cpu_timers.next)
		for (pos = prev->proc->cpu_timers.next; pos != &prev->proc->cpu_timers;
		     pos = pos->next)
			hrtimer_try_to_cancel(&list_entry(pos, struct cpu_timer, node)->poll);
	if (!next->proc || !next->proc->cpu_timers.next)
		return;
	for (pos = next->proc->cpu_timers.next; pos != &next->proc->cpu_timers; pos = pos->next) {
		struct cpu_timer *ct = list_entry(pos, struct cpu_timer, node);

		poll_start(ct, cpu_timer_now(ct->proc, ct->clock));
	}
}
