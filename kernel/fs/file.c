// SPDX-License-Identifier: MIT
/*
 * The file system calls on descriptors (open, close, read, write, seek,
 * dup, fcntl, ioctl, pipe), with Linux's semantics and errno values, over
 * the tree of kernel/fs/vfs.c; those that look at a path (stat, the
 * directories, readlink, access) are stat.c.
 *
 * The root is read-only: what would write it answers -EROFS, as a Linux
 * mounted read-only does. Every user pointer goes through uaccess; every
 * structure a program reads has the exact layout of Linux i386, checked
 * below against the ABI's sizes and offsets. Paths from user space are
 * copied into buffers of the vfs pool, not onto the 8 KiB kernel stack.
 */
#include "vfs-internal.h"
#include <kernel/errno.h>
#include <kernel/mm.h>
#include <kernel/proc.h>
#include <kernel/string.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>

#define MAX_RW_COUNT  0x7ffff000u /* Linux's cap on one read or write */
#define UIO_MAXIOV    1024
#define IOV_STEP      8		       /* iovecs copied in at a time */
#define ZERO_READ_MAX (16 * PAGE_SIZE) /* /dev/zero's most per read */

#define SEEK_SET  0
#define SEEK_CUR  1
#define SEEK_END  2
#define SEEK_DATA 3
#define SEEK_HOLE 4

#define F_DUPFD		0
#define F_GETFD		1
#define F_SETFD		2
#define F_GETFL		3
#define F_SETFL		4
#define F_DUPFD_CLOEXEC 1030
#define FD_CLOEXEC	1

#define FIONCLEX 0x5450
#define FIOCLEX	 0x5451

/* Flags only open() itself uses: not kept with the file (F_GETFL does not show them). */
#define OPEN_ONLY (O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_CLOEXEC)
/* What F_SETFL may change. */
#define SETFL_MASK (O_APPEND | O_NONBLOCK | O_DIRECT | O_NOATIME | FASYNC)

/* --- the ABI's layouts --- */

struct iovec_abi {
	u32 base, len;
};
_Static_assert(sizeof(struct iovec_abi) == 8, "i386 struct iovec");

/* --- descriptors --- */

static struct files *cur_files(void)
{
	struct proc *p = proc_current();

	return p ? &p->files : NULL;
}

struct file *fd_file(int fd)
{
	struct files *fs = cur_files();

	if (!fs || fd < 0 || fd >= NR_OPEN)
		return NULL;
	return fs->fd[fd];
}

struct file *fd_io_file(int fd)
{
	struct file *f = fd_file(fd);

	return f && !(f->flags & O_PATH) ? f : NULL;
}

static void set_cloexec(struct files *fs, int fd, bool on)
{
	if (on)
		fs->cloexec |= 1ULL << fd;
	else
		fs->cloexec &= ~(1ULL << fd);
}

int fd_install(struct file *f, int min, bool cloexec)
{
	struct files *fs = cur_files();

	for (int fd = min; fs && fd < NR_OPEN; fd++)
		if (!fs->fd[fd]) {
			fs->fd[fd] = f;
			set_cloexec(fs, fd, cloexec);
			return fd;
		}
	file_put(f);
	return -EMFILE;
}

/* --- paths from user space --- */

/* The directory a path of an *at() call starts from. */
static int start_dir(int dirfd, const char *path, struct vnode *out)
{
	struct file *f;

	if (*path == '/') {
		vfs_root(out);
		return 0;
	}
	if (dirfd == AT_FDCWD)
		return vfs_cwd(out);
	f = fd_file(dirfd);
	if (!f)
		return -EBADF;
	if (!vnode_is_dir(&f->vn))
		return -ENOTDIR;
	*out = f->vn;
	return 0;
}

/* What an empty path names with AT_EMPTY_PATH: dirfd's file itself. */
static int empty_path(int dirfd, struct vnode *out)
{
	struct file *f;

	if (dirfd == AT_FDCWD)
		return vfs_cwd(out);
	f = fd_file(dirfd);
	if (!f)
		return -EBADF;
	*out = f->vn;
	return 0;
}

int user_lookup(int dirfd, u32 upath, unsigned int flags, bool allow_empty, struct vnode *out)
{
	struct vnode start;
	char *buf;
	long len;
	int ret;

	if (!upath && allow_empty)
		return empty_path(dirfd, out);
	buf = vfs_path_buf_get();
	if (!buf)
		return -ENOMEM;
	len = strncpy_from_user(buf, upath, VFS_PATH_MAX);
	if (len == 0 && allow_empty)
		ret = empty_path(dirfd, out);
	else if (len <= 0)
		ret = len ? (int)len : -ENOENT;
	else
		ret = start_dir(dirfd, buf, &start);
	if (!ret && len > 0)
		ret = vfs_resolve(&start, buf, (u32)len, flags, out);
	vfs_path_buf_put(buf);
	return ret;
}

/* --- open --- */

/*
 * open(O_CREAT) of a missing name: Linux asks the parent's file system
 * to create it, which a read-only root refuses; /proc has no create.
 * A missing parent is still -ENOENT (or its own error).
 */
static int create_error(int dirfd, u32 upath)
{
	char *buf = vfs_path_buf_get();
	struct vnode start, dir;
	long len;
	int ret;

	if (!buf)
		return -ENOMEM;
	len = strncpy_from_user(buf, upath, VFS_PATH_MAX);
	while (len > 1 && buf[len - 1] == '/')
		len--;
	ret = len > 0 && buf[len - 1] == '/' ? -EISDIR : start_dir(dirfd, buf, &start);
	if (!ret) {
		/* The parent: the path with its last name replaced by "." */
		while (len > 0 && buf[len - 1] != '/')
			len--;
		buf[len++] = '.';
		ret = vfs_resolve(&start, buf, (u32)len, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &dir);
		if (!ret)
			ret = dir.kind == VN_PROC ? -EACCES : -EROFS;
	}
	vfs_path_buf_put(buf);
	return ret;
}

/* Whether an open with these flags of v may go on: 0, or Linux's refusal. */
static int may_open(const struct vnode *v, u32 flags)
{
	bool write = (flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC);

	if (flags & O_PATH)
		return 0;
	if (vnode_is_link(v))
		return -ELOOP; /* O_NOFOLLOW met a link */
	if (vnode_is_dir(v) && (write || (flags & O_CREAT)))
		return -EISDIR;
	if (!write || v->kind == VN_PROC)
		return 0; /* root may open a 0444 /proc file for writing; its writes fail */
	if (v->kind == VN_RAMFS && (v->rn->mode & S_IFMT) != S_IFCHR)
		return -EROFS; /* a device node is written through its driver */
	return 0;
}

static long do_open(int dirfd, u32 upath, u32 flags)
{
	unsigned int lf = LOOKUP_FOLLOW;
	struct vnode v;
	struct file *f;
	int ret;

	if ((flags & O_TMPFILE) == O_TMPFILE)
		return -EROFS;
	if ((flags & O_NOFOLLOW) || (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		lf = 0;
	if (flags & O_DIRECTORY)
		lf |= LOOKUP_DIRECTORY;
	ret = user_lookup(dirfd, upath, lf, false, &v);
	if (ret == -ENOENT && (flags & O_CREAT))
		return create_error(dirfd, upath);
	if (ret)
		return ret;
	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return -EEXIST;
	if ((flags & O_PATH) && (flags & O_NOFOLLOW) == 0 && vnode_is_link(&v))
		return -ELOOP;
	ret = may_open(&v, flags);
	if (!ret && !(flags & O_PATH) && v.kind == VN_RAMFS && (v.rn->mode & S_IFMT) == S_IFCHR)
		ret = vfs_open_device(&v);
	if (ret)
		return ret;
	if (flags & O_PATH)
		flags &= O_PATH | O_CLOEXEC | O_DIRECTORY | O_NOFOLLOW;
	f = file_new(&v, flags & ~(u32)OPEN_ONLY, &ret);
	if (!f)
		return ret;
	return fd_install(f, 0, flags & O_CLOEXEC);
}

SYSCALL_DEFINE3(open, u32, upath, u32, flags, u32, mode)
{
	(void)mode; /* nothing is ever created */
	return do_open(AT_FDCWD, upath, flags);
}

SYSCALL_DEFINE4(openat, int, dirfd, u32, upath, u32, flags, u32, mode)
{
	(void)mode;
	return do_open(dirfd, upath, flags);
}

SYSCALL_DEFINE1(close, int, fd)
{
	struct files *fs = cur_files();
	struct file *f = fd_file(fd);

	if (!f)
		return -EBADF;
	fs->fd[fd] = NULL;
	set_cloexec(fs, fd, false);
	file_put(f);
	return 0;
}

/* --- pipes --- */

/* pipe2's flags: O_CLOEXEC and O_NONBLOCK; packet mode (O_DIRECT) is not had here. */
SYSCALL_DEFINE2(pipe2, u32, ufds, u32, flags)
{
	struct files *fs = cur_files();
	struct file *r, *w;
	int fds[2], err;

	if (flags & ~(u32)(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	err = pipe_open(&r, &w, flags);
	if (err)
		return err;
	fds[0] = fd_install(r, 0, flags & O_CLOEXEC);
	if (fds[0] < 0) {
		file_put(w);
		return fds[0];
	}
	fds[1] = fd_install(w, 0, flags & O_CLOEXEC);
	if (fds[1] >= 0 && !copy_to_user(ufds, fds, sizeof(fds)))
		return 0;
	/* As Linux: nothing is left open when the descriptors cannot be given. */
	fs->fd[fds[0]] = NULL;
	file_put(r);
	if (fds[1] < 0)
		return fds[1];
	fs->fd[fds[1]] = NULL;
	file_put(w);
	return -EFAULT;
}

SYSCALL_DEFINE1(pipe, u32, ufds)
{
	struct syscall_args a = { { ufds, 0, 0, 0, 0, 0 }, NULL };

	return sys_pipe2(&a);
}

/* --- read and write --- */

/* Copies n bytes to user space a page at a time: what got there, or -EFAULT if nothing. */
static long copy_out(u32 ubuf, const char *src, u32 n)
{
	u32 done = 0;

	while (done < n) {
		u32 room = PAGE_SIZE - ((ubuf + done) & (PAGE_SIZE - 1));
		u32 step = n - done < room ? n - done : room;

		if (copy_to_user(ubuf + done, src + done, step))
			return done ? (long)done : -EFAULT;
		done += step;
	}
	return (long)done;
}

/* The bytes of a file held in memory (a ramfs file, a /proc snapshot), from f->pos. */
static long read_mem(struct file *f, const char *data, u32 size, u32 ubuf, u32 len)
{
	long n;

	if (f->pos >= size)
		return 0;
	if (len > size - f->pos)
		len = size - (u32)f->pos;
	n = copy_out(ubuf, data + f->pos, len);
	if (n > 0)
		f->pos += (u64)n;
	return n;
}

static bool user_range_ok(u32 ubuf, u32 len)
{
	return ubuf <= USER_TOP && len <= USER_TOP - ubuf;
}

static long file_read(struct file *f, u32 ubuf, u32 len)
{
	if ((f->flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	if (len > MAX_RW_COUNT)
		len = MAX_RW_COUNT;
	if (!user_range_ok(ubuf, len))
		return -EFAULT;
	if (vnode_is_dir(&f->vn))
		return -EISDIR;
	switch (f->vn.kind) {
	case VN_CONSOLE:
		return console_read(f, ubuf, len);
	case VN_PROC:
		return read_mem(f, f->snap, f->snap_len, ubuf, len);
	case VN_RAMFS:
		if (vfs_dev_node(&f->vn) == DEV_NODE_NULL)
			return 0;
		if (vfs_dev_node(&f->vn) == DEV_NODE_ZERO) {
			len = len < ZERO_READ_MAX ? len
						  : ZERO_READ_MAX; /* a device may read short */
			return clear_user(ubuf, len) ? -EFAULT : (long)len;
		}
		return read_mem(f, f->vn.rn->data, f->vn.rn->size, ubuf, len);
	case VN_PIPE:
		return pipe_read(f, ubuf, len);
	case VN_TIMERFD:
		return timerfd_read(f, ubuf, len);
	default:
		return -EINVAL;
	}
}

static long file_write(struct file *f, u32 ubuf, u32 len)
{
	if ((f->flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (len > MAX_RW_COUNT)
		len = MAX_RW_COUNT;
	if (!user_range_ok(ubuf, len))
		return -EFAULT;
	if (f->vn.kind == VN_PROC)
		return procfs_write(&f->vn, ubuf, len);
	if (f->vn.kind == VN_PIPE)
		return pipe_write(f, ubuf, len);
	if (f->vn.kind == VN_TIMERFD)
		return -EINVAL; /* no write: Linux's FMODE_CAN_WRITE missing */
	if (vfs_dev_node(&f->vn))
		return (long)len; /* null and zero take everything */
	if (f->vn.kind != VN_CONSOLE)
		return -EBADF; /* nothing else can be open for writing */
	return console_write(f, ubuf, len);
}

SYSCALL_DEFINE3(read, int, fd, u32, ubuf, u32, len)
{
	struct file *f = fd_io_file(fd);

	return f ? file_read(f, ubuf, len) : -EBADF;
}

SYSCALL_DEFINE3(write, int, fd, u32, ubuf, u32, len)
{
	struct file *f = fd_io_file(fd);

	return f ? file_write(f, ubuf, len) : -EBADF;
}

/*
 * The iovecs of readv/writev, copied in a few at a time: checked first
 * (-EFAULT, -EINVAL before anything moves, as Linux), then transferred;
 * a short transfer ends the call.
 */
static long iov_check(u32 uiov, u32 cnt)
{
	struct iovec_abi iov[IOV_STEP];

	if (cnt > UIO_MAXIOV)
		return -EINVAL;
	for (u32 i = 0; i < cnt; i += IOV_STEP) {
		u32 n = cnt - i < IOV_STEP ? cnt - i : IOV_STEP;

		if (copy_from_user(iov, uiov + i * sizeof(*iov), n * sizeof(*iov)))
			return -EFAULT;
		for (u32 k = 0; k < n; k++)
			if ((s32)iov[k].len < 0)
				return -EINVAL;
	}
	return 0;
}

static long do_rw_vec(int fd, u32 uiov, u32 cnt, bool write)
{
	struct file *f = fd_io_file(fd);
	struct iovec_abi iov;
	long done = 0, ret;

	if (!f)
		return -EBADF;
	ret = iov_check(uiov, cnt);
	if (ret)
		return ret;
	for (u32 i = 0; i < cnt; i++) {
		if (copy_from_user(&iov, uiov + i * sizeof(iov), sizeof(iov)))
			return done ? done : -EFAULT;
		if (iov.len > MAX_RW_COUNT - (u32)done)
			iov.len = MAX_RW_COUNT - (u32)done;
		if (!iov.len)
			continue;
		ret = write ? file_write(f, iov.base, iov.len) : file_read(f, iov.base, iov.len);
		if (ret < 0)
			return done ? done : ret;
		done += ret;
		/* A tty read is one read: a line, not a wait for more to fill the next iovec. */
		if ((u32)ret < iov.len || (!write && f->vn.kind == VN_CONSOLE))
			break;
	}
	return done;
}

SYSCALL_DEFINE3(readv, int, fd, u32, uiov, u32, cnt)
{
	return do_rw_vec(fd, uiov, cnt, false);
}

SYSCALL_DEFINE3(writev, int, fd, u32, uiov, u32, cnt)
{
	return do_rw_vec(fd, uiov, cnt, true);
}

/* --- seeking --- */

/* A regular file's or snapshot's size, for SEEK_END; -1 for what cannot seek from its end. */
static s64 seek_size(const struct file *f)
{
	if (f->vn.kind == VN_RAMFS && !vnode_is_dir(&f->vn))
		return f->vn.rn->size;
	return -1;
}

static s64 file_seek(struct file *f, s64 off, u32 whence)
{
	s64 size = seek_size(f), pos;

	if (f->vn.kind == VN_CONSOLE || f->vn.kind == VN_PIPE)
		return -ESPIPE;
	if (f->vn.kind == VN_TIMERFD)
		return (s64)f->pos; /* Linux's noop_llseek */
	if (vfs_dev_node(&f->vn))
		return f->pos = 0; /* Linux's null_lseek: every offset is 0 */
	switch (whence) {
	case SEEK_SET:
		pos = off;
		break;
	case SEEK_CUR:
		pos = (s64)f->pos + off;
		break;
	case SEEK_END:
		if (size < 0)
			return -EINVAL; /* as Linux's directories and seq_files */
		pos = size + off;
		break;
	case SEEK_DATA:
	case SEEK_HOLE:
		if (size < 0)
			return -EINVAL;
		if (off < 0 || off >= size)
			return -ENXIO;
		pos = whence == SEEK_DATA ? off : size;
		break;
	default:
		return -EINVAL;
	}
	if (pos < 0)
		return -EINVAL;
	f->pos = (u64)pos;
	f->dir_cursor = NULL; /* a directory's listing restarts from its new place */
	return pos;
}

SYSCALL_DEFINE3(lseek, int, fd, s32, off, u32, whence)
{
	struct file *f = fd_io_file(fd);
	s64 pos;

	if (!f)
		return -EBADF;
	pos = file_seek(f, off, whence);
	if (pos > 0x7fffffff)
		return -EOVERFLOW;
	return (long)pos;
}

SYSCALL_DEFINE5(_llseek, int, fd, u32, hi, u32, lo, u32, uresult, u32, whence)
{
	struct file *f = fd_io_file(fd);
	s64 pos;

	if (!f)
		return -EBADF;
	pos = file_seek(f, (s64)((u64)hi << 32 | lo), whence);
	if (pos < 0)
		return (long)pos;
	return copy_to_user(uresult, &pos, sizeof(pos)) ? -EFAULT : 0;
}

/* --- descriptors: dup, fcntl, ioctl --- */

static long dup_from(int fd, int min, bool cloexec)
{
	struct file *f = fd_file(fd);

	if (!f)
		return -EBADF;
	if (min < 0 || min >= NR_OPEN)
		return -EINVAL;
	file_get(f);
	return fd_install(f, min, cloexec);
}

SYSCALL_DEFINE1(dup, int, fd)
{
	return dup_from(fd, 0, false);
}

/* newfd becomes a copy of oldfd (closed first if open); both are valid and differ. */
static long dup_to(int oldfd, int newfd, bool cloexec)
{
	struct files *fs = cur_files();
	struct file *f = fd_file(oldfd), *old;

	file_get(f);
	old = fs->fd[newfd];
	fs->fd[newfd] = f;
	set_cloexec(fs, newfd, cloexec);
	if (old)
		file_put(old);
	return newfd;
}

SYSCALL_DEFINE2(dup2, int, oldfd, int, newfd)
{
	if (!fd_file(oldfd) || newfd < 0 || newfd >= NR_OPEN)
		return -EBADF;
	if (oldfd == newfd)
		return newfd;
	return dup_to(oldfd, newfd, false);
}

/* dup2 with O_CLOEXEC, in Linux's order of checks; the same descriptor twice is -EINVAL. */
SYSCALL_DEFINE3(dup3, int, oldfd, int, newfd, u32, flags)
{
	if (flags & ~(u32)O_CLOEXEC)
		return -EINVAL;
	if (oldfd == newfd)
		return -EINVAL;
	if (newfd < 0 || newfd >= NR_OPEN || !fd_file(oldfd))
		return -EBADF;
	return dup_to(oldfd, newfd, flags & O_CLOEXEC);
}

SYSCALL_DEFINE3(fcntl64, int, fd, u32, cmd, u32, arg)
{
	struct files *fs = cur_files();
	struct file *f = fd_file(fd);

	if (!f)
		return -EBADF;
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		return dup_from(fd, (int)arg, cmd == F_DUPFD_CLOEXEC);
	case F_GETFD:
		return fs->cloexec >> fd & 1 ? FD_CLOEXEC : 0;
	case F_SETFD:
		set_cloexec(fs, fd, arg & FD_CLOEXEC);
		return 0;
	case F_GETFL:
		return (long)f->flags;
	case F_SETFL:
		if (f->flags & O_PATH)
			return -EBADF;
		f->flags = (f->flags & ~(u32)SETFL_MASK) | (arg & SETFL_MASK);
		return 0;
	default:
		return -EINVAL;
	}
}

SYSCALL_DEFINE3(ioctl, int, fd, u32, cmd, u32, arg)
{
	struct file *f = fd_io_file(fd);

	if (!f)
		return -EBADF;
	if (cmd == FIOCLEX || cmd == FIONCLEX) {
		set_cloexec(cur_files(), fd, cmd == FIOCLEX);
		return 0;
	}
	if (f->vn.kind == VN_CONSOLE)
		return console_ioctl(f, cmd, arg);
	return -ENOTTY;
}
