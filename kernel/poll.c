// SPDX-License-Identifier: MIT
/*
 * poll(2): which descriptors are ready, waiting up to a timeout for one
 * to be. BusyBox's shell needs it for its read builtin.
 *
 * The root's files, /proc's and directories never block, as on Linux: a
 * read or write is always ready (writes then fail, the root being
 * read-only, but do not block). The console waits for input, its output
 * is always ready; a pipe's ends wait for data and room (kernel/pipe.c).
 * A negative descriptor is skipped, a closed one answers POLLNVAL.
 */
#include "vfs-internal.h"
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/wait.h>
#include <kernel/errno.h>
#include <dynhz/jiffies.h>

#define POLLIN	   0x0001
#define POLLPRI	   0x0002
#define POLLOUT	   0x0004
#define POLLERR	   0x0008
#define POLLHUP	   0x0010
#define POLLNVAL   0x0020
#define POLLRDNORM 0x0040
#define POLLWRNORM 0x0100

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

/* timeout_ms < 0: no limit; 0: one look. -EINTR when a signal is to be delivered first. */
SYSCALL_DEFINE3(poll, u32, ufds, u32, nfds, int, timeout_ms)
{
	struct proc *p = proc_current();
	long left = timeout_ms < 0 ? MAX_SCHEDULE_TIMEOUT
				   : (long)msecs_to_jiffies((unsigned int)timeout_ms);
	DEFINE_WAIT(w);
	long ret;

	if (nfds > POLL_NFDS_MAX)
		return -EINVAL;
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		ret = scan(ufds, nfds, timeout_ms ? &w : NULL);
		if (ret || !timeout_ms || !left)
			break;
		if (signal_pending(p)) {
			ret = -EINTR;
			break;
		}
		left = schedule_timeout(left);
	}
	finish_wait(NULL, &w); /* off the console's queue, if it was put there */
	return ret;
}
