/* SPDX-License-Identifier: MIT */
/*
 * Simple wait queues: a thread waits until a condition holds, another
 * thread or an interrupt handler makes it true and calls wake_up().
 *
 *	wait_event(wq, ring_count > 0);			(in a thread)
 *	ring_count++; wake_up(&wq);			(anywhere)
 */
#ifndef KERNEL_WAIT_H
#define KERNEL_WAIT_H

#include <kernel/list.h>
#include <kernel/sched.h>
#include <dynhz/retune.h>

struct wait_queue_head {
	struct list_head head;
};

struct wait_queue_entry {
	struct thread *task;
	struct list_head entry;
};

#define DECLARE_WAIT_QUEUE_HEAD(name) struct wait_queue_head name = { LIST_HEAD_INIT(name.head) }

/* Queues the current thread (once) and sets its state; then check, then schedule(). */
void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *w, int state);
void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *w);

/* Wakes every thread waiting on wq; returns how many were asleep. */
int wake_up(struct wait_queue_head *wq);

#define DEFINE_WAIT(name) \
	struct wait_queue_entry name = { current, { &(name).entry, &(name).entry } }

/* Sleeps until cond is true. */
#define wait_event(wq, cond)                                               \
	do {                                                               \
		DEFINE_WAIT(w_);                                           \
		for (;;) {                                                 \
			prepare_to_wait(&(wq), &w_, TASK_UNINTERRUPTIBLE); \
			if (cond)                                          \
				break;                                     \
			schedule();                                        \
		}                                                          \
		finish_wait(&(wq), &w_);                                   \
	} while (0)

/*
 * Sleeps until cond is true or timeout jiffies pass. Returns 0 if the time
 * ran out with cond still false, else the jiffies left (at least 1). What
 * is left is carried with its HZ generation, so a change of HZ between two
 * sleeps is rebased (schedule_timeout_gen()).
 */
#define wait_event_timeout(wq, cond, timeout)                              \
	({                                                                 \
		u32 g_ = dz_hz_generation(); /* read before the count */   \
		long t_ = (timeout);                                       \
		DEFINE_WAIT(w_);                                           \
		for (;;) {                                                 \
			prepare_to_wait(&(wq), &w_, TASK_UNINTERRUPTIBLE); \
			if (cond) {                                        \
				t_ = t_ ? t_ : 1;                          \
				break;                                     \
			}                                                  \
			if (!t_)                                           \
				break;                                     \
			t_ = schedule_timeout_gen(t_, &g_);                \
		}                                                          \
		finish_wait(&(wq), &w_);                                   \
		t_;                                                        \
	})

#endif
