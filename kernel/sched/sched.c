// SPDX-License-Identifier: MIT
/*
 * Threads and the round-robin scheduler (see include/kernel/sched.h).
 *
 * One CPU: the run queue and thread states are protected by disabling
 * interrupts. Preemption happens at the end of an interrupt (sched_irq_exit()),
 * when the tick has used up the running thread's timeslice or woken a
 * thread while the idle thread was running.
 *
 * CPU time is charged on the TSC at every context switch, not sampled by
 * the tick: with the tick stopped in idle, a sample would see none of the
 * halted time, and a sample misses whatever a thread ran between ticks.
 */
#include <kernel/sched.h>
#include <kernel/kernel.h>
#include <kernel/string.h>
#include <kernel/user.h>
#include <kernel/arch.h>
#include <dynhz/bootparam.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>
#include <dynhz/tick.h>
#include <dynhz/retune.h>

#define STACK_CANARY	  0x57ac4ca9U
#define TIMESLICE_DEFAULT 10   /* USER_HZ ticks: 100 ms */
#define TIMESLICE_MAX	  6000 /* one minute */

static struct thread threads[MAX_THREADS];
/* Thread 0 (idle) runs on the boot stack; thread i on stacks[i - 1]. */
static u32 stacks[MAX_THREADS - 1][THREAD_STACK_SIZE / 4] __attribute__((aligned(16)));

struct thread *current;
static struct thread *idle;
static struct list_head runqueue = LIST_HEAD_INIT(runqueue);
static bool need_resched;
static unsigned long timeslice;	     /* jiffies */
static unsigned long timeslice_user; /* the same in USER_HZ ticks, as given */
static u64 nr_switches;
/* The accounting's start, the last charge to current, and the threads that exited. */
static u64 acct_start_ns, acct_stamp_ns, exited_ns;

static void rq_enqueue(struct thread *t)
{
	if (!t->on_rq && t != idle) {
		list_add_tail(&t->run_list, &runqueue);
		t->on_rq = true;
	}
}

static struct thread *pick_next(void)
{
	struct thread *t;

	if (list_empty(&runqueue))
		return idle;
	t = list_entry(runqueue.next, struct thread, run_list);
	list_del_init(&t->run_list);
	t->on_rq = false;
	return t;
}

/* Interrupts off: charges the time since the last charge to current; returns now. */
static u64 account_current(void)
{
	u64 now = tsc_now_ns();

	current->exec_ns += now - acct_stamp_ns;
	acct_stamp_ns = now;
	return now;
}

static void check_stack(struct thread *t)
{
	if (unlikely(t->stack[0] != STACK_CANARY))
		dz_panic("stack overflow in thread %s", t->name);
}

void schedule(void)
{
	unsigned long flags = dz_irq_save();
	struct thread *prev = current, *next;

	DZ_BUG_ON(irq_depth());
	check_stack(prev);
	if (prev->state == TASK_RUNNING)
		rq_enqueue(prev);
	next = pick_next();
	need_resched = false;
	if (next != prev) {
		u64 now;

		/* Leaving idle, from the idle loop or an interrupt: the tick is back. */
		if (prev == idle)
			tick_nohz_idle_exit();
		now = account_current();
		/* Its slot may be reused: its time joins the totals now, as Linux does. */
		if (prev->state == TASK_DEAD)
			exited_ns += prev->exec_ns;
		next->slice = timeslice;
		next->switches++;
		nr_switches++;
		current = next;
		user_acct_switch(prev, next, now);
		arch_switch_to(&prev->sp, next->sp);
	}
	dz_irq_restore(flags);
}

int wake_up_process(struct thread *t)
{
	unsigned long flags = dz_irq_save();
	int woken = t->state != TASK_RUNNING && t->state != TASK_DEAD;

	if (woken) {
		t->state = TASK_RUNNING;
		if (t != current)
			rq_enqueue(t);
		if (current == idle)
			need_resched = true;
	}
	dz_irq_restore(flags);
	return woken;
}

/* Interrupt exit: switch if the tick or a wake-up asked for it (none before sched_init()). */
void sched_irq_exit(void)
{
	if (current && need_resched && current->state == TASK_RUNNING)
		schedule();
}

void sched_tick(void)
{
	struct thread *t = current;

	if (unlikely(!t))
		return; /* the tick runs before the scheduler is set up */
	t->ticks++;
	if (t == idle || !t->slice)
		return;
	if (--t->slice == 0) {
		t->slice = timeslice;
		if (!list_empty(&runqueue)) {
			t->preemptions++;
			need_resched = true;
		}
	}
}

/* Every thread starts here, on its own stack, with interrupts off. */
void sched_thread_start(void)
{
	local_irq_enable();
	current->fn(current->arg);
	thread_exit();
}

struct thread *kthread_run(void (*fn)(void *arg), void *arg, const char *name)
{
	unsigned long flags = dz_irq_save();
	struct thread *t = NULL;

	/* A dead thread's slot is free: it is not running, it never runs again. */
	for (int i = 1; i < MAX_THREADS && !t; i++)
		if (!threads[i].name || threads[i].state == TASK_DEAD)
			t = &threads[i];
	if (t) {
		memset(t, 0, sizeof(*t));
		t->id = (int)(t - threads);
		t->name = name;
		t->fn = fn;
		t->arg = arg;
		t->stack = stacks[t->id - 1];
		t->stack[0] = STACK_CANARY;
		t->sp = arch_thread_stack_init(t->stack + THREAD_STACK_SIZE / 4);
		INIT_LIST_HEAD(&t->run_list);
		t->timer_slack_ns = TIMER_SLACK_DEFAULT_NS;
		t->default_timer_slack_ns = TIMER_SLACK_DEFAULT_NS;
		t->state = TASK_RUNNING;
		rq_enqueue(t);
	}
	dz_irq_restore(flags);
	return t;
}

_Noreturn void thread_exit(void)
{
	local_irq_disable();
	current->state = TASK_DEAD;
	current->doing = NULL;
	schedule();
	dz_panic("dead thread %s scheduled", current->name);
}

_Noreturn void cpu_idle(void)
{
	for (;;) {
		local_irq_disable();
		if (need_resched || !list_empty(&runqueue)) {
			local_irq_enable();
			schedule();
			continue;
		}
		tick_nohz_idle_enter(); /* nohz=on: no tick until the next timer */
		/* Its catching up may have run timers that woke a thread: no halt then. */
		if (need_resched || !list_empty(&runqueue)) {
			local_irq_enable();
			continue;
		}
		safe_halt(); /* sti; hlt: no wake-up slips in between */
	}
}

/*
 * Waiting for an interrupt without sleeping on anything (dz_hz_retune()
 * waits for a tick so): the threads that are runnable run first, else the
 * CPU halts until the next interrupt. Halting with others runnable would
 * starve them: an interrupt that wakes one asks for no switch while
 * current is not the idle thread.
 */
void sched_wait_interrupt(void)
{
	local_irq_disable();
	if (!list_empty(&runqueue)) {
		local_irq_enable();
		schedule();
		return;
	}
	safe_halt(); /* sti; hlt: no wake-up slips in between */
}

unsigned long sched_timeslice(void)
{
	return timeslice;
}

u64 sched_context_switches(void)
{
	return nr_switches;
}

unsigned int sched_threads(struct thread **out, unsigned int max)
{
	unsigned int n = 0;

	for (int i = 0; i < MAX_THREADS && n < max; i++)
		if (threads[i].name && threads[i].state != TASK_DEAD)
			out[n++] = &threads[i];
	return n;
}

void sched_cpu_usage(struct cpu_usage *cu)
{
	unsigned long flags = dz_irq_save();
	u64 busy = exited_ns;

	cu->now_ns = account_current();
	for (int i = 1; i < MAX_THREADS; i++)
		if (threads[i].name && threads[i].state != TASK_DEAD)
			busy += threads[i].exec_ns;
	cu->idle_ns = idle->exec_ns;
	cu->busy_ns = busy;
	dz_irq_restore(flags);
}

u64 sched_acct_start_ns(void)
{
	return acct_start_ns;
}

dz_uclock_t sched_thread_cputime(struct thread *t)
{
	unsigned long flags = dz_irq_save();
	u64 ns;

	account_current(); /* t may be current: bring it up to now */
	ns = t->exec_ns;
	dz_irq_restore(flags);
	return nsecs_to_clock_t(ns);
}

/* Prints the current thread and its activity: the crash reports' "doing what". */
void sched_describe(void)
{
	if (!current)
		return;
	dz_printk("  in thread %d '%s'%s, doing: %s; jiffies %lu\n", current->id, current->name,
		  irq_depth() ? " (in an interrupt handler)" : "",
		  current->doing ? current->doing : "nothing in particular",
		  (unsigned long)jiffies);
}

/*
 * HZ changed: the slice again from its USER_HZ value (the constants are the
 * new ones by now), and what is left of each thread's slice re-expressed
 * from its real time, rounded up, so that no thread loses CPU time to it.
 */
static void sched_retune(const struct dz_retune_info *info)
{
	timeslice = user_to_kernel_hz(DZ_UCLOCK(timeslice_user));
	for (int i = 0; i < MAX_THREADS; i++)
		if (threads[i].name && threads[i].slice)
			threads[i].slice = dz_retune_jiffies(info, threads[i].slice);
}

/* timeslice=<USER_HZ ticks>, converted to jiffies at boot and at every change of HZ. */
static void parse_timeslice(const char *cmdline)
{
	static const char *const names[] = { "timeslice", NULL };
	unsigned long ticks = TIMESLICE_DEFAULT;
	struct dz_param p;

	if (dz_cmdline_find(cmdline, names, &p))
		dz_param_uint(&p, 1, TIMESLICE_MAX, TIMESLICE_DEFAULT, &ticks);
	timeslice_user = ticks;
	timeslice = user_to_kernel_hz(DZ_UCLOCK(ticks));
	dz_hz_retune_hook(sched_retune);
	dz_printk("sched: timeslice %lu USER_HZ ticks = %lu jiffies = %u us\n", ticks, timeslice,
		  jiffies_to_usecs(timeslice));
}

/* The boot thread becomes the idle thread, on the boot stack. */
void sched_init(const char *cmdline)
{
	idle = &threads[0];
	idle->name = "idle";
	idle->state = TASK_RUNNING;
	idle->stack = boot_stack_bottom;
	idle->stack[0] = STACK_CANARY;
	INIT_LIST_HEAD(&idle->run_list);
	current = idle;
	/* From here every nanosecond is charged to a thread: until the first switch, idle's. */
	acct_start_ns = acct_stamp_ns = tsc_now_ns();
	parse_timeslice(cmdline);
}
