// SPDX-License-Identifier: MIT
/*
 * Pipes: a 4 KiB ring between the open files of its two ends, as Linux's
 * pipe(2) behaves for one page of buffer.
 *
 * A read waits for data and takes what there is; with no writer left it
 * finds the end of file. A write of up to PIPE_BUF bytes goes in whole
 * (it waits for room), a longer one in pieces; with no reader left it
 * fails with EPIPE and the writer gets SIGPIPE. O_NONBLOCK turns the
 * waits into EAGAIN; a signal to deliver ends them with what was already
 * moved, or when nothing was, with EINTR (the call is made again instead
 * when the handler has SA_RESTART). The ring's bytes move with interrupts
 * off: one CPU, so a reader and a writer never see half a transfer (the
 * copy to or from user memory only fills pages, it never sleeps).
 *
 * The ring is a page of the kernel's, taken when the pipe is made and
 * given back when the last open file of either end is closed.
 */
#include "vfs-internal.h"
#include <kernel/mm.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/uaccess.h>
#include <kernel/wait.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <dynhz/port.h>

#define NR_PIPES  32
#define PIPE_SIZE PAGE_SIZE
#define PIPE_BUF  4096 /* writes this long or shorter are not split */

struct pipe {
	u8 *buf;	      /* NULL: the slot is free */
	u32 head, tail;	      /* bytes written and read, ever (mod 2^32) */
	int readers, writers; /* open files of each end */
	struct wait_queue_head wq;
};

static struct pipe pipes[NR_PIPES];

static u32 pipe_used(const struct pipe *p)
{
	return p->head - p->tail;
}

/* Interrupts off: a free slot with its page, or NULL. */
static struct pipe *pipe_take(u8 *page)
{
	for (int i = 0; i < NR_PIPES; i++)
		if (!pipes[i].buf) {
			struct pipe *p = &pipes[i];

			*p = (struct pipe){ .buf = page, .readers = 1, .writers = 1 };
			INIT_LIST_HEAD(&p->wq.head);
			return p;
		}
	return NULL;
}

/**
 * pipe_open() - a new pipe and the open files of its two ends
 * @r: set to the read end (O_RDONLY), one reference
 * @w: set to the write end (O_WRONLY), one reference
 * @flags: O_NONBLOCK, kept in both files' status flags
 *
 * Return: 0, or -ENFILE when no pipe, page or open file is left.
 */
int pipe_open(struct file **r, struct file **w, u32 flags)
{
	u32 pa = page_alloc(true);
	struct vnode v = { .kind = VN_PIPE };
	unsigned long irq;
	int err;

	if (!pa)
		return -ENFILE;
	irq = dz_irq_save();
	v.pipe = pipe_take((u8 *)(uintptr_t)pa);
	dz_irq_restore(irq);
	if (!v.pipe) {
		page_free(pa);
		return -ENFILE;
	}
	*r = file_new(&v, O_RDONLY | (flags & O_NONBLOCK), &err);
	*w = *r ? file_new(&v, O_WRONLY | (flags & O_NONBLOCK), &err) : NULL;
	if (*w)
		return 0;
	/* No write end after all; the read end, if made, takes the pipe with it. */
	pipe_release_end(&v, O_WRONLY);
	if (*r)
		file_put(*r);
	else
		pipe_release_end(&v, O_RDONLY);
	return err;
}

/**
 * pipe_release_end() - the last reference to one end's open file is gone
 * @v: the pipe's vnode
 * @mode: that file's O_ACCMODE
 *
 * The other end's sleepers wake to see it (end of file, EPIPE); with
 * neither end open, the ring's page is freed.
 */
void pipe_release_end(const struct vnode *v, u32 mode)
{
	struct pipe *p = v->pipe;
	unsigned long irq = dz_irq_save();
	u8 *buf = NULL;

	if (mode == O_RDONLY && p->readers > 0)
		p->readers--;
	else if (mode == O_WRONLY && p->writers > 0)
		p->writers--;
	if (!p->readers && !p->writers) {
		buf = p->buf;
		p->buf = NULL;
	}
	dz_irq_restore(irq);
	wake_up(&p->wq);
	if (buf)
		page_free((u32)(uintptr_t)buf);
}

/* Interrupts off: up to n bytes from the ring to user memory; how many, or -EFAULT. */
static long ring_out(struct pipe *p, u32 ubuf, u32 n)
{
	u32 used = pipe_used(p), done = 0;

	if (n > used)
		n = used;
	while (done < n) {
		u32 at = p->tail % PIPE_SIZE, k = PIPE_SIZE - at;

		if (k > n - done)
			k = n - done;
		if (copy_to_user(ubuf + done, p->buf + at, k))
			return done ? (long)done : -EFAULT;
		p->tail += k;
		done += k;
	}
	return (long)done;
}

/* Interrupts off: up to n bytes from user memory into the ring's room. */
static long ring_in(struct pipe *p, u32 ubuf, u32 n)
{
	u32 room = PIPE_SIZE - pipe_used(p), done = 0;

	if (n > room)
		n = room;
	while (done < n) {
		u32 at = p->head % PIPE_SIZE, k = PIPE_SIZE - at;

		if (k > n - done)
			k = n - done;
		if (copy_from_user(p->buf + at, ubuf + done, k))
			return done ? (long)done : -EFAULT;
		p->head += k;
		done += k;
	}
	return (long)done;
}

/*
 * The loops below set the sleeping state before they look at the ring:
 * a wake-up between the look and schedule() is not lost (kernel/sched.h),
 * and the tick does not preempt a thread that is not running.
 */

/* Interrupts off: what a read does now: > 0 bytes taken, 0 end of file, 1 to wait (*wait). */
static long read_step(struct pipe *p, u32 ubuf, u32 len, bool *wait)
{
	*wait = false;
	if (pipe_used(p))
		return ring_out(p, ubuf, len);
	if (!p->writers)
		return 0;
	*wait = true;
	return 0;
}

long pipe_read(struct file *f, u32 ubuf, u32 len)
{
	struct pipe *p = f->vn.pipe;
	DEFINE_WAIT(w);
	long ret;

	for (;;) {
		unsigned long irq;
		bool wait;

		prepare_to_wait(&p->wq, &w, TASK_INTERRUPTIBLE);
		irq = dz_irq_save();
		ret = read_step(p, ubuf, len, &wait);
		dz_irq_restore(irq);
		if (!wait)
			break;
		if (f->flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		if (signal_pending(proc_current())) {
			ret = -ERESTARTSYS; /* EINTR, or made again under SA_RESTART */
			break;
		}
		schedule();
	}
	finish_wait(&p->wq, &w);
	if (ret > 0)
		wake_up(&p->wq); /* room for the writers */
	return ret;
}

/* Room for the write's next piece: all that is left when the write is PIPE_BUF or shorter. */
static bool room_for(const struct pipe *p, u32 left, u32 len)
{
	u32 room = PIPE_SIZE - pipe_used(p);

	return len <= PIPE_BUF ? room >= left : room > 0;
}

long pipe_write(struct file *f, u32 ubuf, u32 len)
{
	struct pipe *p = f->vn.pipe;
	DEFINE_WAIT(w);
	u32 done = 0;
	long err = 0;

	while (done < len && !err) {
		unsigned long irq;
		long ret = 0;
		bool broken, fits;

		prepare_to_wait(&p->wq, &w, TASK_INTERRUPTIBLE);
		irq = dz_irq_save();
		broken = !p->readers;
		fits = room_for(p, len - done, len);
		if (!broken && fits)
			ret = ring_in(p, ubuf + done, len - done);
		dz_irq_restore(irq);
		if (broken) {
			signal_send(proc_current(), SIGPIPE);
			err = -EPIPE;
		} else if (ret < 0) {
			err = ret;
		} else if (ret > 0) {
			done += (u32)ret;
			wake_up(&p->wq); /* data for the readers */
		} else if (f->flags & O_NONBLOCK) {
			err = -EAGAIN;
		} else if (signal_pending(proc_current())) {
			err = -ERESTARTSYS;
		} else {
			schedule();
		}
	}
	finish_wait(&p->wq, &w);
	return done ? (long)done : err;
}

/**
 * pipe_poll() - what an end is ready for (poll's POLLIN/POLLOUT/POLLHUP/POLLERR)
 * @f: an open file of one end
 * @w: when not NULL, queued to be woken when the pipe changes
 *
 * Return: the POLL* bits as <poll.h> has them.
 */
u32 pipe_poll(struct file *f, struct wait_queue_entry *w)
{
	struct pipe *p = f->vn.pipe;
	u32 mask = 0;

	if (w)
		prepare_to_wait(&p->wq, w, TASK_INTERRUPTIBLE);
	if ((f->flags & O_ACCMODE) == O_RDONLY) {
		mask |= pipe_used(p) ? 0x0041 : 0; /* POLLIN | POLLRDNORM */
		mask |= !p->writers ? 0x0010 : 0;  /* POLLHUP */
	} else {
		mask |= PIPE_SIZE - pipe_used(p) >= PIPE_BUF ? 0x0104
							     : 0; /* POLLOUT | POLLWRNORM */
		mask |= !p->readers ? 0x0008 : 0;		  /* POLLERR */
	}
	return mask;
}

/* An inode number of its own for each pipe, as pipefs gives. */
u32 pipe_ino(const struct vnode *v)
{
	return 0x1000u + (u32)(v->pipe - pipes);
}
