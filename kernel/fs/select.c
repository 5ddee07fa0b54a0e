// SPDX-License-Identifier: MIT
/*
 * select (_newselect), pselect6, ppoll and their _time64 forms, as Linux's.
 *
 * The sets are bitmaps of n descriptors (at most NR_OPEN are looked at; a
 * set bit for a descriptor that is not open is -EBADF). A descriptor is
 * readable when poll would say POLLIN, POLLHUP or POLLERR, writable for
 * POLLOUT or POLLERR, exceptional for POLLPRI; the sets come back holding
 * only those, the count of set bits is returned. The wait is poll's
 * (kernel/fs/poll.c): an hrtimer on CLOCK_MONOTONIC with a slack, never
 * early, at any HZ.
 *
 * As Linux, the time left is written back to a non-NULL timeout (select's
 * timeval, pselect6's and ppoll's timespec) unless the timeout was zero;
 * pselect6's and ppoll's signal mask is in force during the call and,
 * when a signal ends it, until that signal's handler has run. A signal
 * ends the wait with EINTR.
 */
#include "vfs-internal.h"
#include "poll.h"
#include <kernel/posix-clock.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/wait.h>
#include <kernel/errno.h>

#define POLLIN_SET  (POLLRDNORM | POLLRDBAND | POLLIN | POLLHUP | POLLERR)
#define POLLOUT_SET (POLLWRBAND | POLLWRNORM | POLLOUT | POLLERR)
#define POLLEX_SET  POLLPRI
#define SET_WORDS   (NR_OPEN / 32)

struct fd_sets {
	u32 in[SET_WORDS], out[SET_WORDS], ex[SET_WORDS];
};

static long get_set(u32 uset, u32 n, u32 *set)
{
	u32 bytes = (n + 31) / 32 * 4;

	for (int i = 0; i < SET_WORDS; i++)
		set[i] = 0;
	if (!uset)
		return 0;
	if (copy_from_user(set, uset, bytes))
		return -EFAULT;
	if (n % 32)
		set[n / 32] &= (1u << (n % 32)) - 1;
	return 0;
}

static long put_set(u32 uset, u32 n, const u32 *set)
{
	return uset && copy_to_user(uset, set, (n + 31) / 32 * 4) ? -EFAULT : 0;
}

static bool bit(const u32 *set, u32 fd)
{
	return set[fd / 32] >> (fd % 32) & 1;
}

/* One look at every asked descriptor: the count of bits in res, or -EBADF. */
static long scan(u32 n, const struct fd_sets *ask, struct fd_sets *res, struct wait_queue_entry *w)
{
	long count = 0;

	*res = (struct fd_sets){ 0 };
	for (u32 fd = 0; fd < n; fd++) {
		bool in = bit(ask->in, fd), out = bit(ask->out, fd), ex = bit(ask->ex, fd);
		u16 events =
			(in ? POLLIN_SET : 0) | (out ? POLLOUT_SET : 0) | (ex ? POLLEX_SET : 0);
		u16 mask;

		if (!events)
			continue;
		mask = poll_fd_ready((s32)fd, events, w);
		if (mask & POLLNVAL)
			return -EBADF;
		if (in && (mask & POLLIN_SET)) {
			res->in[fd / 32] |= 1u << (fd % 32);
			count++;
		}
		if (out && (mask & POLLOUT_SET)) {
			res->out[fd / 32] |= 1u << (fd % 32);
			count++;
		}
		if (ex && (mask & POLLEX_SET)) {
			res->ex[fd / 32] |= 1u << (fd % 32);
			count++;
		}
	}
	return count;
}

/* Linux's do_select(): the count, -EBADF, or -ERESTARTNOHAND when a signal came first. */
static long do_select(u32 n, const struct fd_sets *ask, struct fd_sets *res, const ktime_t *end)
{
	bool timed_out = end && *end == 0;
	u64 slack = end && !timed_out ? poll_slack_ns(*end) : 0;
	ktime_t deadline = end ? *end : 0;
	DEFINE_WAIT(w);
	long ret;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		ret = scan(n, ask, res, timed_out ? NULL : &w);
		if (ret || timed_out)
			break;
		if (signal_pending(proc_current())) {
			ret = -ERESTARTNOHAND;
			break;
		}
		if (!schedule_hrtimeout_range(end ? &deadline : NULL, slack, HRTIMER_MODE_ABS))
			timed_out = true;
	}
	__set_current_state(TASK_RUNNING);
	finish_wait(NULL, &w);
	return ret;
}

static long core_sys_select(s32 n, u32 uin, u32 uout, u32 uex, const ktime_t *end)
{
	struct fd_sets ask, res;
	long ret;

	if (n < 0)
		return -EINVAL;
	if (n > NR_OPEN)
		n = NR_OPEN; /* Linux looks at the descriptor table's size */
	if (get_set(uin, (u32)n, ask.in) || get_set(uout, (u32)n, ask.out) ||
	    get_set(uex, (u32)n, ask.ex))
		return -EFAULT;
	ret = do_select((u32)n, &ask, &res, end);
	if (ret < 0)
		return ret;
	if (put_set(uin, (u32)n, res.in) || put_set(uout, (u32)n, res.out) ||
	    put_set(uex, (u32)n, res.ex))
		return -EFAULT;
	return ret;
}

enum timeout_kind { TIMEVAL, TIMESPEC32, TIMESPEC64 };

/* The timeout at ut (0: none) as a deadline in *end; *has says whether there is one. */
static long get_timeout(u32 ut, enum timeout_kind kind, ktime_t *end, bool *has)
{
	struct old_timespec32 t32;
	struct kernel_timespec t64;

	*has = ut != 0;
	if (!ut)
		return 0;
	switch (kind) {
	case TIMEVAL:
		if (copy_from_user(&t32, ut, sizeof(t32)))
			return -EFAULT;
		/* As Linux: whole seconds of tv_usec carried, its remainder to ns. */
		return poll_deadline((s64)t32.tv_sec + t32.tv_nsec / 1000000,
				     (s64)(t32.tv_nsec % 1000000) * 1000, end);
	case TIMESPEC32:
		if (copy_from_user(&t32, ut, sizeof(t32)))
			return -EFAULT;
		return poll_deadline(t32.tv_sec, t32.tv_nsec, end);
	default:
		if (copy_from_user(&t64, ut, sizeof(t64)))
			return -EFAULT;
		return poll_deadline(t64.tv_sec, (s32)t64.tv_nsec, end);
	}
}

/*
 * Linux's poll_select_finish(): the mask back, and the time left (0 once
 * passed) written to the timeout, unless it was zero. A timeout that
 * cannot be written costs the call nothing.
 */
static long finish(u32 ut, enum timeout_kind kind, ktime_t end, long ret)
{
	ktime_t left;
	long err;

	signal_restore_mask_unless(ret == -ERESTARTNOHAND);
	if (!ut || end == 0)
		return ret;
	left = end - ktime_get();
	if (left < 0)
		left = 0;
	if (kind == TIMEVAL)
		err = put_timeval(ut, (u64)left);
	else if (kind == TIMESPEC32)
		err = put_ts32(ut, (u64)left);
	else
		err = put_ts64(ut, (u64)left);
	return err && ret == -ERESTARTNOHAND ? -EINTR : ret;
}

SYSCALL_DEFINE5(_newselect, s32, n, u32, uin, u32, uout, u32, uex, u32, utv)
{
	ktime_t end = 0;
	bool has;
	long ret = get_timeout(utv, TIMEVAL, &end, &has);

	if (ret)
		return ret;
	ret = core_sys_select(n, uin, uout, uex, has ? &end : NULL);
	return finish(utv, TIMEVAL, end, ret);
}

/* pselect6's sixth argument: { const sigset_t *set; size_t size; }, or 0. */
static long pselect(s32 n, u32 uin, u32 uout, u32 uex, u32 uts, u32 usig, enum timeout_kind kind)
{
	u32 sig[2] = { 0, 0 };
	ktime_t end = 0;
	bool has;
	long ret = get_timeout(uts, kind, &end, &has);

	if (ret)
		return ret;
	if (usig && copy_from_user(sig, usig, sizeof(sig)))
		return -EFAULT;
	ret = signal_set_temporary_mask(sig[0], sig[1]);
	if (ret)
		return ret;
	ret = core_sys_select(n, uin, uout, uex, has ? &end : NULL);
	return finish(uts, kind, end, ret);
}

SYSCALL_DEFINE6(pselect6, s32, n, u32, uin, u32, uout, u32, uex, u32, uts, u32, usig)
{
	return pselect(n, uin, uout, uex, uts, usig, TIMESPEC32);
}

SYSCALL_DEFINE6(pselect6_time64, s32, n, u32, uin, u32, uout, u32, uex, u32, uts, u32, usig)
{
	return pselect(n, uin, uout, uex, uts, usig, TIMESPEC64);
}

static long ppoll(u32 ufds, u32 nfds, u32 uts, u32 umask, u32 sigsetsize, enum timeout_kind kind)
{
	ktime_t end = 0;
	bool has;
	long ret = get_timeout(uts, kind, &end, &has);

	if (ret)
		return ret;
	ret = signal_set_temporary_mask(umask, sigsetsize);
	if (ret)
		return ret;
	ret = poll_fds(ufds, nfds, has ? &end : NULL);
	return finish(uts, kind, end, ret);
}

SYSCALL_DEFINE5(ppoll, u32, ufds, u32, nfds, u32, uts, u32, umask, u32, sigsetsize)
{
	return ppoll(ufds, nfds, uts, umask, sigsetsize, TIMESPEC32);
}

SYSCALL_DEFINE5(ppoll_time64, u32, ufds, u32, nfds, u32, uts, u32, umask, u32, sigsetsize)
{
	return ppoll(ufds, nfds, uts, umask, sigsetsize, TIMESPEC64);
}
