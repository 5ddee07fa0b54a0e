// SPDX-License-Identifier: MIT
/*
 * Open files: the system's pool of them (each holds a vnode of the tree,
 * an offset, flags and, for /proc, the content made at open), their
 * references, and each process's table of descriptors on them (opened on
 * the console at start, copied by fork, closed on exec and exit). Also
 * the pool of path buffers the system calls borrow, so that a path from
 * user space is not copied onto the 8 KiB kernel stack.
 */
#include "vfs-internal.h"
#include <kernel/errno.h>
#include <kernel/console.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <dynhz/port.h>

#define NR_FILES     128 /* open files in the whole system */
#define NR_SNAP_BUFS 16	 /* /proc contents open at once */
#define NR_PATH_BUFS 16	 /* system calls inside a path lookup at once */

static struct file file_pool[NR_FILES];
static char snap_bufs[NR_SNAP_BUFS][PROCFS_BUF_SIZE];
static u32 snap_used; /* bit n: snap_bufs[n] is in use */
static char path_bufs[NR_PATH_BUFS][VFS_PATH_MAX];
static u32 path_used;

/* --- buffers and open files --- */

/* One free slot of a pool of n (bit i of *used), taken; -1 when none. */
static int slot_take(u32 *used, int n)
{
	unsigned long flags = dz_irq_save();
	int i;

	for (i = 0; i < n && (*used & (1u << i)); i++)
		;
	if (i < n)
		*used |= 1u << i;
	dz_irq_restore(flags);
	return i < n ? i : -1;
}

static void slot_give(u32 *used, int i)
{
	unsigned long flags = dz_irq_save();

	*used &= ~(1u << i);
	dz_irq_restore(flags);
}

char *vfs_path_buf_get(void)
{
	int i = slot_take(&path_used, NR_PATH_BUFS);

	return i < 0 ? NULL : path_bufs[i];
}

void vfs_path_buf_put(char *buf)
{
	if (buf)
		slot_give(&path_used, (int)((buf - path_bufs[0]) / VFS_PATH_MAX));
}

static struct file *file_take(void)
{
	unsigned long flags = dz_irq_save();
	struct file *f = NULL;

	for (int i = 0; i < NR_FILES; i++)
		if (!file_pool[i].refs) {
			f = &file_pool[i];
			*f = (struct file){ .refs = 1 };
			break;
		}
	dz_irq_restore(flags);
	return f;
}

/* The content of a /proc file, made once at open: every read sees the same snapshot. */
static int file_snapshot(struct file *f)
{
	int i = slot_take(&snap_used, NR_SNAP_BUFS);
	int len;

	if (i < 0)
		return -ENFILE;
	f->snap = snap_bufs[i];
	len = procfs_generate(&f->vn, f->snap);
	if (len < 0)
		return len;
	f->snap_len = (u32)len;
	return 0;
}

struct file *file_new(const struct vnode *v, u32 flags, int *err)
{
	struct file *f = file_take();

	if (!f) {
		*err = -ENFILE;
		return NULL;
	}
	f->vn = *v;
	f->flags = flags;
	if (v->kind == VN_PROC && !procfs_is_dir(v) && !(flags & O_PATH)) {
		*err = file_snapshot(f);
		if (*err) {
			file_put(f);
			return NULL;
		}
	}
	return f;
}

void file_get(struct file *f)
{
	unsigned long flags = dz_irq_save();

	f->refs++;
	dz_irq_restore(flags);
}

void file_put(struct file *f)
{
	unsigned long flags = dz_irq_save();
	char *snap = NULL;
	struct vnode pipe = { .kind = VN_NONE };
	u32 mode = f->flags & O_ACCMODE;

	if (--f->refs == 0) {
		snap = f->snap;
		f->snap = NULL;
		if (f->vn.kind == VN_PIPE || f->vn.kind == VN_TIMERFD)
			pipe = f->vn; /* f is free from here: another may take it */
	}
	dz_irq_restore(flags);
	if (pipe.kind == VN_PIPE)
		pipe_release_end(&pipe, mode);
	if (pipe.kind == VN_TIMERFD)
		timerfd_release(&pipe);
	if (snap)
		slot_give(&snap_used, (int)((snap - snap_bufs[0]) / PROCFS_BUF_SIZE));
}

/**
 * files_open_console() - descriptors 0, 1 and 2 on the console
 * @fs: a process's empty table
 *
 * One open file shared by the three, as Linux's init gets it (open
 * /dev/console, then dup it twice); the root's /dev/console node, if it
 * has one, is the file's identity.
 *
 * Return: 0, or -ENFILE when the system's files are all in use.
 */
int files_open_console(struct files *fs)
{
	struct vnode v = { .kind = VN_CONSOLE }, node;
	struct file *f;
	int err;

	/* Opened as /dev/console when the root has it: fstat gives its node (ttyname finds it). */
	if (!vfs_resolve(&v, "/dev/console", 12, LOOKUP_FOLLOW, &node) && vnode_is_chr(&node) &&
	    node.rn->rdevmajor == CONSOLE_MAJ && node.rn->rdevminor == CONSOLE_MIN)
		v.rn = node.rn;

	loadavg_start();
	f = file_new(&v, O_RDWR | O_LARGEFILE, &err);
	if (!f)
		return err;
	for (int fd = 0; fd < 3; fd++) {
		if (fd)
			file_get(f);
		fs->fd[fd] = f;
	}
	fs->cloexec = 0;
	return 0;
}

/**
 * files_close_all() - closes every descriptor of a table (exit)
 * @fs: the table
 */
void files_close_all(struct files *fs)
{
	for (int fd = 0; fd < NR_OPEN; fd++) {
		struct file *f = fs->fd[fd];

		fs->fd[fd] = NULL;
		if (f)
			file_put(f);
	}
	fs->cloexec = 0;
}

/**
 * files_close_on_exec() - closes the descriptors marked close-on-exec (execve)
 * @fs: the table
 */
void files_close_on_exec(struct files *fs)
{
	for (int fd = 0; fd < NR_OPEN; fd++) {
		struct file *f = fs->fd[fd];

		if (!f || !(fs->cloexec >> fd & 1))
			continue;
		fs->fd[fd] = NULL;
		file_put(f);
	}
	fs->cloexec = 0;
}

/**
 * files_copy() - a forked child's descriptors
 * @dst: the child's empty table
 * @src: the parent's
 *
 * Each descriptor refers to the same open file as the parent's, as on
 * Linux: one offset and one set of status flags for both, the file closed
 * when the last of them closes it. The close-on-exec marks are copied.
 */
void files_copy(struct files *dst, const struct files *src)
{
	for (int fd = 0; fd < NR_OPEN; fd++) {
		dst->fd[fd] = src->fd[fd];
		if (dst->fd[fd])
			file_get(dst->fd[fd]);
	}
	dst->cloexec = src->cloexec;
}
