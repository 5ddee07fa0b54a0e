/* SPDX-License-Identifier: MIT */
/*
 * Waiting for descriptors (kernel/fs/poll.c, kernel/fs/select.c): what poll,
 * ppoll, select and pselect6 share. A deadline is an absolute
 * CLOCK_MONOTONIC time: NULL waits without limit, 0 looks once.
 */
#ifndef KERNEL_POLL_H
#define KERNEL_POLL_H

#include <dynhz/types.h>
#include <dynhz/ktime.h>

struct wait_queue_entry;

#define POLLIN	   0x0001
#define POLLPRI	   0x0002
#define POLLOUT	   0x0004
#define POLLERR	   0x0008
#define POLLHUP	   0x0010
#define POLLNVAL   0x0020
#define POLLRDNORM 0x0040
#define POLLRDBAND 0x0080
#define POLLWRNORM 0x0100
#define POLLWRBAND 0x0200

/*
 * What descriptor fd is ready for, of events (errors and hang-ups always
 * count); POLLNVAL when it is not open, 0 for a negative one. With w, the
 * waiter goes on the queues that will say when that changes.
 */
u16 poll_fd_ready(s32 fd, u16 events, struct wait_queue_entry *w);

/*
 * The slack of a poll or select that waits until end, as Linux's
 * select_estimate_accuracy(): 0.1 % of the wait, at most 100 ms, at least
 * the thread's timer slack.
 */
u64 poll_slack_ns(ktime_t end);

/*
 * The deadline of a timeout of sec.nsec from now (poll_select_set_timeout):
 * 0 for a zero timeout; -EINVAL for an invalid one.
 */
long poll_deadline(s64 sec, s64 nsec, ktime_t *end);

/* poll's loop: the ready count, -EFAULT, -EINVAL, or -ERESTARTNOHAND when a signal came first. */
long poll_fds(u32 ufds, u32 nfds, const ktime_t *end);

#endif
