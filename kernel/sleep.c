// SPDX-License-Identifier: MIT
/*
 * Sleeping for a time: schedule_timeout() and msleep(), on the core's
 * timers. A timeout in jiffies ends at the tick at which jiffies reaches
 * jiffies + timeout, so it lasts between timeout - 1 and timeout whole
 * ticks: the tick in progress is partly gone.
 *
 * Linux's msleep() adds one tick to cover that part, and so sleeps up to
 * two ticks more than asked. Ours asks the clocksource instead: it sleeps
 * msecs_to_jiffies() ticks (exact tick length, rounded up), and if the
 * clocksource says the time is not up yet (the sleep began mid-tick), one
 * more tick. It ends at the first tick at or after the asked time: never
 * shorter, at most one tick longer (plus the wake-up).
 */
#include <kernel/sched.h>
#include <dynhz/timer.h>
#include <dynhz/jiffies.h>
#include <dynhz/printk.h>
#include <dynhz/timekeeping.h>

struct process_timer {
	struct timer_list timer;
	struct thread *task;
};

static void process_timeout(struct timer_list *t)
{
	struct process_timer *pt = from_timer(pt, t, timer);

	wake_up_process(pt->task);
}

/*
 * Sleeps in the state the caller set until woken or timeout jiffies pass;
 * returns the jiffies left (0 when the time ran out).
 */
long schedule_timeout(long timeout)
{
	struct process_timer pt;
	unsigned long expire;

	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	if (timeout < 0) {
		dz_printk("schedule_timeout: negative timeout %ld\n", timeout);
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	expire = (unsigned long)timeout + jiffies;
	pt.task = current;
	timer_setup(&pt.timer, process_timeout, 0);
	mod_timer(&pt.timer, expire);
	schedule();
	del_timer_sync(&pt.timer);
	timeout = (long)(expire - jiffies);
	return timeout < 0 ? 0 : timeout;
}

long schedule_timeout_interruptible(long timeout)
{
	__set_current_state(TASK_INTERRUPTIBLE);
	return schedule_timeout(timeout);
}

long schedule_timeout_uninterruptible(long timeout)
{
	__set_current_state(TASK_UNINTERRUPTIBLE);
	return schedule_timeout(timeout);
}

void msleep(unsigned int msecs)
{
	u64 end = ktime_get_ns() + (u64)msecs * NSEC_PER_MSEC, now;
	unsigned long timeout = msecs_to_jiffies(msecs);

	while (timeout)
		timeout = (unsigned long)schedule_timeout_uninterruptible((long)timeout);
	while ((now = ktime_get_ns()) < end)
		schedule_timeout_uninterruptible((long)nsecs_to_jiffies(end - now));
}
