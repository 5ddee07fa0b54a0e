// SPDX-License-Identifier: MIT
/*
 * timerfd_create, timerfd_settime (and _time64), timerfd_gettime (and
 * _time64): a timer whose expiries are read from a file, as Linux's
 * fs/timerfd.c behaves.
 *
 * The timer is an hrtimer on CLOCK_REALTIME, MONOTONIC or BOOTTIME (the
 * alarm clocks are their realtime and boottime: nothing here suspends),
 * no slack. An expiry counts one tick and wakes readers and poll; a
 * periodic timer is re-armed by the read (or timerfd_gettime) that finds
 * it expired, the periods missed meanwhile added to the count, so a short
 * period costs no interrupts while nobody reads. read() wants 8 bytes and
 * returns the count, waiting for one (EAGAIN with TFD_NONBLOCK).
 *
 * TFD_TIMER_CANCEL_ON_SET (absolute realtime timers): a read after the
 * clock was set fails once with ECANCELED, as Linux; poll says readable
 * then. The change is seen as the realtime offset differing from the one
 * at timerfd_settime; the setting itself wakes a read or poll already
 * waiting (timerfd_clock_was_set(), called back by kernel/time/realtime.c's
 * clock_was_set()).
 */
#include "vfs-internal.h"
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/itimerspec.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/wait.h>
#include <kernel/realtime.h>
#include <kernel/errno.h>
#include <dynhz/hrtimer.h>
#include <dynhz/timekeeping.h>
#include <dynhz/port.h>

#define NR_TIMERFDS 32

#define CLOCK_REALTIME	     0
#define CLOCK_MONOTONIC	     1
#define CLOCK_BOOTTIME	     7
#define CLOCK_REALTIME_ALARM 8
#define CLOCK_BOOTTIME_ALARM 9

#define TFD_TIMER_ABSTIME	(1 << 0)
#define TFD_TIMER_CANCEL_ON_SET (1 << 1)
#define TFD_CLOEXEC		O_CLOEXEC
#define TFD_NONBLOCK		O_NONBLOCK

#define POLLIN_BITS 0x0041 /* POLLIN | POLLRDNORM */

struct timerfd {
	bool used;
	bool expired;	   /* the timer ran and has not been re-armed */
	bool might_cancel; /* TFD_TIMER_CANCEL_ON_SET on an absolute realtime timer */
	int clock;	   /* DZ_CLOCK_REALTIME, _MONOTONIC or _BOOTTIME */
	u64 ticks;	   /* expiries not yet read */
	u64 interval;	   /* ns; 0: one-shot */
	s64 real_offset;   /* realtime - monotonic at the setting (might_cancel) */
	struct hrtimer t;
	struct wait_queue_head wq;
};

static struct timerfd tfds[NR_TIMERFDS];

static enum hrtimer_restart tfd_fn(struct hrtimer *t)
{
	struct timerfd *ctx = dz_hrtimer_entry(t, struct timerfd, t);

	ctx->expired = true;
	ctx->ticks++;
	wake_up(&ctx->wq);
	return HRTIMER_NORESTART;
}

/* Interrupts off: was the clock set since the timer was (Linux's timerfd_canceled())? Once. */
static bool canceled(struct timerfd *ctx)
{
	if (!ctx->might_cancel || ctx->real_offset == dz_timekeeping_real_offset_ns())
		return false;
	ctx->real_offset = dz_timekeeping_real_offset_ns();
	return true;
}

/* Interrupts off: a periodic timer that ran goes on from its first period after now. */
static void rearm(struct timerfd *ctx)
{
	if (!ctx->expired || !ctx->interval)
		return;
	ctx->ticks += hrtimer_forward_now(&ctx->t, (ktime_t)ctx->interval) - 1;
	hrtimer_start_expires(&ctx->t, HRTIMER_MODE_ABS);
	ctx->expired = false;
}

static u64 remaining(const struct timerfd *ctx)
{
	ktime_t left = hrtimer_get_remaining(&ctx->t);

	return left > 0 ? (u64)left : 0;
}

/* Interrupts off, the timer stopped: Linux's timerfd_setup(). */
static void setup(struct timerfd *ctx, int flags, const struct kitimerspec *its)
{
	bool abs = flags & TFD_TIMER_ABSTIME;

	ctx->expired = false;
	ctx->ticks = 0;
	ctx->interval = its->interval;
	hrtimer_setup(&ctx->t, tfd_fn, ctx->clock, abs ? HRTIMER_MODE_ABS : HRTIMER_MODE_REL);
	hrtimer_set_expires(&ctx->t, 0);
	ctx->might_cancel =
		ctx->clock == DZ_CLOCK_REALTIME && abs && (flags & TFD_TIMER_CANCEL_ON_SET);
	ctx->real_offset = dz_timekeeping_real_offset_ns();
	if (its->value)
		hrtimer_start(&ctx->t, (ktime_t)its->value,
			      abs ? HRTIMER_MODE_ABS : HRTIMER_MODE_REL);
}

long timerfd_read(struct file *f, u32 ubuf, u32 len)
{
	struct timerfd *ctx = f->vn.tfd;
	DEFINE_WAIT(w);
	unsigned long irq;
	u64 ticks = 0;
	long ret = 0;

	if (len < sizeof(ticks))
		return -EINVAL;
	for (;;) {
		prepare_to_wait(&ctx->wq, &w, TASK_INTERRUPTIBLE);
		irq = dz_irq_save();
		if (canceled(ctx)) {
			ctx->ticks = 0;
			ctx->expired = false;
			ret = -ECANCELED;
		} else if (ctx->ticks) {
			rearm(ctx); /* the periods missed count too */
			ticks = ctx->ticks;
			ctx->ticks = 0;
			ctx->expired = false;
		}
		dz_irq_restore(irq);
		if (ret || ticks)
			break;
		if (f->flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		if (signal_pending(proc_current())) {
			ret = -ERESTARTSYS;
			break;
		}
		schedule();
	}
	finish_wait(&ctx->wq, &w);
	if (ticks)
		ret = copy_to_user(ubuf, &ticks, sizeof(ticks)) ? -EFAULT : (long)sizeof(ticks);
	return ret;
}

u32 timerfd_poll(struct file *f, struct wait_queue_entry *w)
{
	struct timerfd *ctx = f->vn.tfd;
	unsigned long irq;
	u32 mask;

	if (w)
		prepare_to_wait(&ctx->wq, w, TASK_INTERRUPTIBLE);
	irq = dz_irq_save();
	/* A clock setting is reported by read: leave it for read to see (ticks). */
	if (ctx->might_cancel && ctx->real_offset != dz_timekeeping_real_offset_ns())
		mask = POLLIN_BITS;
	else
		mask = ctx->ticks ? POLLIN_BITS : 0;
	dz_irq_restore(irq);
	return mask;
}

void timerfd_release(const struct vnode *v)
{
	struct timerfd *ctx = v->tfd;
	unsigned long irq = dz_irq_save();

	hrtimer_cancel(&ctx->t);
	ctx->used = false;
	dz_irq_restore(irq);
}

/*
 * The realtime clock was just set (clock_was_set()): wakes the readers and
 * pollers of every TFD_TIMER_CANCEL_ON_SET timerfd, so that a read already
 * waiting fails with ECANCELED now, as Linux's timerfd_clock_was_set(),
 * not at the timer's next expiry. Interrupts off.
 */
static void timerfd_clock_was_set(void)
{
	for (int i = 0; i < NR_TIMERFDS; i++) {
		struct timerfd *ctx = &tfds[i];

		if (ctx->used && ctx->might_cancel &&
		    ctx->real_offset != dz_timekeeping_real_offset_ns())
			wake_up(&ctx->wq);
	}
}

void timerfd_init(void)
{
	clock_was_set_notify(timerfd_clock_was_set);
}

/* ---- the system calls ---- */

SYSCALL_DEFINE2(timerfd_create, s32, clockid, int, flags)
{
	struct vnode v = { .kind = VN_TIMERFD };
	struct timerfd *ctx = NULL;
	struct file *f;
	unsigned long irq;
	int clock, err;

	if (flags & ~(TFD_CLOEXEC | TFD_NONBLOCK))
		return -EINVAL;
	switch (clockid) {
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_ALARM:
		clock = DZ_CLOCK_REALTIME;
		break;
	case CLOCK_MONOTONIC:
		clock = DZ_CLOCK_MONOTONIC;
		break;
	case CLOCK_BOOTTIME:
	case CLOCK_BOOTTIME_ALARM:
		clock = DZ_CLOCK_BOOTTIME;
		break;
	default:
		return -EINVAL;
	}
	irq = dz_irq_save();
	for (int i = 0; i < NR_TIMERFDS && !ctx; i++)
		if (!tfds[i].used)
			ctx = &tfds[i];
	if (ctx) {
		*ctx = (struct timerfd){ .used = true, .clock = clock };
		INIT_LIST_HEAD(&ctx->wq.head);
		hrtimer_setup(&ctx->t, tfd_fn, clock, HRTIMER_MODE_ABS);
	}
	dz_irq_restore(irq);
	if (!ctx)
		return -ENFILE;
	v.tfd = ctx;
	f = file_new(&v, O_RDWR | (flags & TFD_NONBLOCK), &err);
	if (!f) {
		ctx->used = false;
		return err;
	}
	return fd_install(f, 0, flags & TFD_CLOEXEC); /* on -EMFILE, f and ctx are released */
}

/* The timerfd of descriptor fd: -EBADF for none, -EINVAL for another kind of file. */
static struct timerfd *tfd_get(int fd, int *err)
{
	struct file *f = fd_file(fd);

	if (!f || (f->flags & O_PATH)) {
		*err = -EBADF;
		return NULL;
	}
	if (f->vn.kind != VN_TIMERFD) {
		*err = -EINVAL;
		return NULL;
	}
	return f->vn.tfd;
}

static long settime(int fd, int flags, u32 unew, u32 uold, bool time64)
{
	struct kitimerspec new, old;
	struct timerfd *ctx;
	unsigned long irq;
	int err = itimerspec_get(unew, time64, &new);

	if (err)
		return err;
	if (flags & ~(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET))
		return -EINVAL;
	ctx = tfd_get(fd, &err);
	if (!ctx)
		return err;
	irq = dz_irq_save();
	hrtimer_cancel(&ctx->t);
	/* An expired periodic timer: the old value is its next period's. */
	if (ctx->expired && ctx->interval)
		hrtimer_forward_now(&ctx->t, (ktime_t)ctx->interval);
	old.value = remaining(ctx);
	old.interval = ctx->interval;
	setup(ctx, flags, &new);
	dz_irq_restore(irq);
	return uold ? itimerspec_put(uold, time64, &old) : 0;
}

static long gettime(int fd, u32 ucur, bool time64)
{
	struct kitimerspec cur;
	struct timerfd *ctx;
	unsigned long irq;
	int err = 0;

	ctx = tfd_get(fd, &err);
	if (!ctx)
		return err;
	irq = dz_irq_save();
	rearm(ctx);
	cur.value = remaining(ctx);
	cur.interval = ctx->interval;
	dz_irq_restore(irq);
	return itimerspec_put(ucur, time64, &cur);
}

SYSCALL_DEFINE4(timerfd_settime, int, fd, int, flags, u32, unew, u32, uold)
{
	return settime(fd, flags, unew, uold, false);
}

SYSCALL_DEFINE4(timerfd_settime64, int, fd, int, flags, u32, unew, u32, uold)
{
	return settime(fd, flags, unew, uold, true);
}

SYSCALL_DEFINE2(timerfd_gettime, int, fd, u32, ucur)
{
	return gettime(fd, ucur, false);
}

SYSCALL_DEFINE2(timerfd_gettime64, int, fd, u32, ucur)
{
	return gettime(fd, ucur, true);
}
