// SPDX-License-Identifier: MIT
/*
 * poll(2): which descriptors are ready, waiting up to a timeout for one
 * to be. BusyBox's shell needs it for its read builtin.
 *
 * The root's files, /proc's and directories never block, as on Linux: a
 * read or write is always ready (writes then fail, the root being
 * read-only, but do not block). The console waits for input, its output
 * is always ready; a pipe's ends wait for data and room (kernel/fs/pipe.c).
 * A negative descriptor is skipped, a closed one answers POLLNVAL.
 *
 * The timeout is an hrtimer on CLOCK_MONOTONIC, as Linux's: the wait ends
 * at its time plus a slack (0.1 % of the timeout, at least the thread's
 * timer slack, at most 100 ms), never before, at any HZ; a timeout in ms
 * is exactly that many ms from the call.
 */
#include "vfs-internal.h"
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/wait.h>
#include <kernel/errno.h>
#include "poll.h"
#include <kernel/posix-clock.h>
#include <dynhz/jiffies.h>

#define POLL_NFDS_MAX 1024 /* Linux's default RLIMIT_NOFILE: more is -EINVAL */
#define POLL_CHUNK    16   /* pollfds copied in at a time: the kernel stack is small */

struct pollfd_abi {
	s32 fd;
	u16 events, revents;
};
_Static_assert(sizeof(struct pollfd_abi) == 8, "struct pollfd is 8 bytes");

/* What fd is ready for, of what it was asked (errors and hang-ups always count). */
static u16 fd_ready(const struct pollfd_abi *pfd, struct wait_queue_entry *w)
{
	struct proc *p = proc_current();
	struct file *f;
	u16 mask = POLLOUT | POLLWRNORM;

	if (pfd->fd < 0)
		return 0;
	f = pfd->fd < NR_OPEN ? p->files.fd[pfd->fd] : NULL;
	if (!f)
		return POLLNVAL;
	if (f->vn.kind == VN_PIPE)
		return pipe_poll(f, w) & (pfd->events | POLLERR | POLLHUP);
	if (f->vn.kind == VN_TIMERFD)
		return timerfd_poll(f, w) & (pfd->events | POLLERR | POLLHUP);
	if (f->vn.kind != VN_CONSOLE || console_poll_in(w))
		mask |= POLLIN | POLLRDNORM;
	return mask & (pfd->events | POLLERR | POLLHUP);
}

u16 poll_fd_ready(s32 fd, u16 events, struct wait_queue_entry *w)
{
	const struct pollfd_abi pfd = { fd, events, 0 };

	return fd_ready(&pfd, w);
}

/* One pass over the array: the revents written back; how many are ready, or -EFAULT. */
static long scan(u32 ufds, u32 nfds, struct wait_queue_entry *w)
{
	struct pollfd_abi chunk[POLL_CHUNK];
	long ready = 0;

	for (u32 i = 0; i < nfds; i += POLL_CHUNK) {
		u32 n = nfds - i < POLL_CHUNK ? nfds - i : POLL_CHUNK;

		if (copy_from_user(chunk, ufds + i * sizeof(chunk[0]), n * sizeof(chunk[0])))
			return -EFAULT;
		for (u32 k = 0; k < n; k++) {
			chunk[k].revents = fd_ready(&chunk[k], w);
			ready += chunk[k].revents != 0;
		}
		if (copy_to_user(ufds + i * sizeof(chunk[0]), chunk, n * sizeof(chunk[0])))
			return -EFAULT;
	}
	return ready;
}

#define MAX_SLACK_NS (100 * NSEC_PER_MSEC)

u64 poll_slack_ns(ktime_t end)
{
	ktime_t left = end - ktime_get();
	u64 slack = left <= 0 ? 0 : (u64)left / 1000;

	if (slack > MAX_SLACK_NS)
		slack = MAX_SLACK_NS;
	return slack < current->timer_slack_ns ? current->timer_slack_ns : slack;
}

long poll_deadline(s64 sec, s64 nsec, ktime_t *end)
{
	u64 ns;

	if (ts_to_ns(sec, nsec, &ns))
		return -EINVAL;
	*end = ns ? ktime_add_safe(ktime_get(), ns > (u64)KTIME_MAX ? KTIME_MAX : (ktime_t)ns) : 0;
	return 0;
}

long poll_fds(u32 ufds, u32 nfds, const ktime_t *end)
{
	struct proc *p = proc_current();
	bool timed_out = end && *end == 0;
	u64 slack = end && !timed_out ? poll_slack_ns(*end) : 0;
	ktime_t deadline = end ? *end : 0;
	DEFINE_WAIT(w);
	long ret;

	if (nfds > POLL_NFDS_MAX)
		return -EINVAL;
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		ret = scan(ufds, nfds, timed_out ? NULL : &w);
		if (ret || timed_out)
			break;
		if (signal_pending(p)) {
			ret = -ERESTARTNOHAND;
			break;
		}
		if (!schedule_hrtimeout_range(end ? &deadline : NULL, slack, HRTIMER_MODE_ABS))
			timed_out = true;
	}
	__set_current_state(TASK_RUNNING);
	finish_wait(NULL, &w); /* off the console's queue, if it was put there */
	return ret;
}

/* timeout_ms < 0: no limit; 0: one look. EINTR when a signal is to be delivered first. */
SYSCALL_DEFINE3(poll, u32, ufds, u32, nfds, int, timeout_ms)
{
	ktime_t end = 0;
	long ret;

	if (timeout_ms > 0)
		poll_deadline(timeout_ms / 1000, (s64)(timeout_ms % 1000) * NSEC_PER_MSEC, &end);
	ret = poll_fds(ufds, nfds, timeout_ms < 0 ? NULL : &end);
	/* Linux restarts a timed poll with the time left, when no handler runs: EINTR here. */
	return ret == -ERESTARTNOHAND && timeout_ms >= 0 ? -ERESTART_RESTARTBLOCK : ret;
}
