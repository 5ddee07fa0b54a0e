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
 *
 * schedule_hrtimeout_range() and usleep_range() sleep on an hrtimer
 * instead: they end at their time plus at most the range given (the
 * slack), at any HZ, where the core runs in high resolution; at tick
 * resolution (highres=off) at the first tick after their time.
 */
#include <kernel/sched.h>
#include <kernel/errno.h>
#include <dynhz/timer.h>
#include <dynhz/jiffies.h>
#include <dynhz/printk.h>
#include <dynhz/timekeeping.h>
#include <dynhz/port.h>
#include <kernel/retune.h>
#include <dynhz/retune.h>
#include <dynhz/hrtimer.h>

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
 * What is left of the timer's time. Its expiry, not one kept on our stack:
 * a change of HZ while we slept re-expressed it in the new jiffies.
 */
static long timeout_left(const struct timer_list *t)
{
	long left = (long)(t->expires - jiffies);

	return left < 0 ? 0 : left;
}

/**
 * schedule_timeout_gen() - schedule_timeout() for a count carried across changes of HZ
 * @timeout: jiffies of generation *gen (dz_hz_generation() when it was counted)
 * @gen: updated to the generation of the count returned
 *
 * The count is rebased to the current HZ with interrupts off, then armed:
 * a change that came between the caller's count and now cannot leave it in
 * old jiffies. Loops that sleep again on what was left (wait_event_timeout,
 * poll, msleep) carry the generation with it.
 *
 * Return: the jiffies left, in generation *gen (0 when the time ran out).
 */
long schedule_timeout_gen(long timeout, u32 *gen)
{
	struct process_timer pt;
	unsigned long flags;

	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	if (timeout < 0) {
		dz_printk("schedule_timeout: negative timeout %ld\n", timeout);
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	pt.task = current;
	timer_setup(&pt.timer, process_timeout, 0);
	flags = dz_irq_save();
	timeout = retune_rebase(timeout, gen);
	mod_timer(&pt.timer, (unsigned long)timeout + jiffies);
	dz_irq_restore(flags);
	schedule();
	flags = dz_irq_save();
	del_timer_sync(&pt.timer);
	timeout = timeout_left(&pt.timer);
	*gen = dz_hz_generation();
	dz_irq_restore(flags);
	return timeout;
}

/*
 * Sleeps in the state the caller set until woken or timeout jiffies pass;
 * returns the jiffies left (0 when the time ran out).
 */
long schedule_timeout(long timeout)
{
	u32 gen = dz_hz_generation();

	return schedule_timeout_gen(timeout, &gen);
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

/*
 * The count carried in its generation: a change of HZ between two sleeps
 * is rebased. The guard after it is on the raw time, as jiffies are: a
 * clock NTP runs fast must not cut the delay short of msecs of the
 * oscillator (Linux's msleep() is jiffies alone, which NTP does not touch).
 */
void msleep(unsigned int msecs)
{
	u32 gen = dz_hz_generation(); /* read before the count */
	u64 end = ktime_get_raw_ns() + (u64)msecs * NSEC_PER_MSEC, now;
	long timeout = (long)msecs_to_jiffies(msecs);

	while (timeout) {
		__set_current_state(TASK_UNINTERRUPTIBLE);
		timeout = schedule_timeout_gen(timeout, &gen);
	}
	while ((now = ktime_get_raw_ns()) < end) {
		gen = dz_hz_generation();
		timeout = (long)nsecs_to_jiffies(end - now);
		__set_current_state(TASK_UNINTERRUPTIBLE);
		schedule_timeout_gen(timeout, &gen);
	}
}

static enum hrtimer_restart hrtimer_wakeup(struct hrtimer *timer)
{
	struct hrtimer_sleeper *sl = dz_hrtimer_entry(timer, struct hrtimer_sleeper, timer);
	struct thread *task = sl->task;

	sl->task = NULL;
	if (task)
		wake_up_process(task);
	return HRTIMER_NORESTART;
}

void hrtimer_sleeper_setup(struct hrtimer_sleeper *sl, int clock_id, int mode)
{
	sl->task = current;
	hrtimer_setup(&sl->timer, hrtimer_wakeup, clock_id, (enum hrtimer_mode)mode);
}

/**
 * schedule_hrtimeout_range_clock() - sleep until a time on a clock
 * @expires: the time (HRTIMER_MODE_ABS) or the length (REL); NULL: no limit
 * @delta: the slack: the sleep may end up to this much after *expires
 * @mode: HRTIMER_MODE_ABS or HRTIMER_MODE_REL
 * @clock_id: DZ_CLOCK_MONOTONIC, _BOOTTIME, _REALTIME or _TAI
 *
 * The caller sets its state first (TASK_INTERRUPTIBLE or _UNINTERRUPTIBLE);
 * it is TASK_RUNNING on return. An absolute time on the realtime or TAI
 * clock follows clock_settime (the core re-evaluates the timer).
 *
 * Return: 0 when the time came, -EINTR when woken before it.
 */
int schedule_hrtimeout_range_clock(ktime_t *expires, u64 delta, int mode, int clock_id)
{
	struct hrtimer_sleeper sl;

	if (expires && *expires == 0) {
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	if (!expires) {
		schedule();
		return -EINTR;
	}
	hrtimer_sleeper_setup(&sl, clock_id, mode);
	hrtimer_start_range_ns(&sl.timer, *expires, delta, (enum hrtimer_mode)mode);
	/* A time already past has run the callback: the state is RUNNING, schedule() returns. */
	if (sl.task)
		schedule();
	hrtimer_cancel(&sl.timer);
	__set_current_state(TASK_RUNNING);
	return sl.task ? -EINTR : 0;
}

int schedule_hrtimeout_range(ktime_t *expires, u64 delta, int mode)
{
	return schedule_hrtimeout_range_clock(expires, delta, mode, DZ_CLOCK_MONOTONIC);
}

int schedule_hrtimeout(ktime_t *expires, int mode)
{
	return schedule_hrtimeout_range(expires, 0, mode);
}

void usleep_range(unsigned long min_us, unsigned long max_us)
{
	ktime_t end = ktime_add_safe(ktime_get(), (ktime_t)min_us * NSEC_PER_USEC);
	u64 delta = max_us > min_us ? (u64)(max_us - min_us) * NSEC_PER_USEC : 0;

	for (;;) {
		__set_current_state(TASK_UNINTERRUPTIBLE);
		if (!schedule_hrtimeout_range(&end, delta, HRTIMER_MODE_ABS))
			break;
	}
}
