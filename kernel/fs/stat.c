// SPDX-License-Identifier: MIT
/*
 * The file system calls that look at what a path names (stat64, statx,
 * getdents, getcwd, chdir, readlink, access), with Linux's semantics and
 * errno values, over the tree of kernel/fs/vfs.c; the calls on
 * descriptors are file.c. Every structure a program reads has the exact
 * layout of Linux i386, checked below against the ABI's sizes and offsets.
 */
#include "vfs-internal.h"
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/string.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>

#define R_OK 4
#define W_OK 2
#define X_OK 1

/* --- the ABI's layouts --- */

/* struct stat64 of Linux i386 (arch/x86/include/uapi/asm/stat.h): 96 bytes. */
struct stat64_abi {
	u64 st_dev;
	u8 pad0[4];
	u32 st_ino32;
	u32 st_mode;
	u32 st_nlink;
	u32 st_uid;
	u32 st_gid;
	u64 st_rdev;
	u8 pad3[4];
	s64 st_size;
	u32 st_blksize;
	u64 st_blocks;
	u32 st_atime, st_atime_nsec;
	u32 st_mtime, st_mtime_nsec;
	u32 st_ctime, st_ctime_nsec;
	u64 st_ino;
} __attribute__((packed));
_Static_assert(sizeof(struct stat64_abi) == 96, "stat64 is 96 bytes");
_Static_assert(__builtin_offsetof(struct stat64_abi, st_mode) == 16, "stat64.st_mode");
_Static_assert(__builtin_offsetof(struct stat64_abi, st_rdev) == 32, "stat64.st_rdev");
_Static_assert(__builtin_offsetof(struct stat64_abi, st_size) == 44, "stat64.st_size");
_Static_assert(__builtin_offsetof(struct stat64_abi, st_blocks) == 56, "stat64.st_blocks");
_Static_assert(__builtin_offsetof(struct stat64_abi, st_mtime) == 72, "stat64.st_mtime");
_Static_assert(__builtin_offsetof(struct stat64_abi, st_ino) == 88, "stat64.st_ino");

struct statx_ts {
	s64 tv_sec;
	u32 tv_nsec;
	s32 reserved;
};

/* struct statx (include/uapi/linux/stat.h): 256 bytes, the same on every architecture. */
struct statx_abi {
	u32 stx_mask, stx_blksize;
	u64 stx_attributes;
	u32 stx_nlink, stx_uid, stx_gid;
	u16 stx_mode, spare0;
	u64 stx_ino, stx_size, stx_blocks, stx_attributes_mask;
	struct statx_ts stx_atime, stx_btime, stx_ctime, stx_mtime;
	u32 stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
	u64 stx_mnt_id;
	u32 stx_dio_mem_align, stx_dio_offset_align;
	u64 spare3[12];
} __attribute__((packed));
_Static_assert(sizeof(struct statx_abi) == 256, "statx is 256 bytes");
_Static_assert(__builtin_offsetof(struct statx_abi, stx_mode) == 28, "statx.stx_mode");
_Static_assert(__builtin_offsetof(struct statx_abi, stx_ino) == 32, "statx.stx_ino");
_Static_assert(__builtin_offsetof(struct statx_abi, stx_atime) == 64, "statx.stx_atime");
_Static_assert(__builtin_offsetof(struct statx_abi, stx_mtime) == 112, "statx.stx_mtime");
_Static_assert(__builtin_offsetof(struct statx_abi, stx_rdev_major) == 128, "statx.stx_rdev");
_Static_assert(__builtin_offsetof(struct statx_abi, stx_mnt_id) == 144, "statx.stx_mnt_id");

#define STATX_BASIC_STATS 0x7ffu
#define STATX__RESERVED	  0x80000000u

/* struct linux_dirent64: d_name starts at 19; records are 8-byte aligned. */
struct dirent64_abi {
	u64 d_ino;
	s64 d_off;
	u16 d_reclen;
	u8 d_type;
	char d_name[];
} __attribute__((packed));
_Static_assert(__builtin_offsetof(struct dirent64_abi, d_name) == 19, "linux_dirent64");

/* struct linux_dirent (i386 longs): d_name at 10, d_type in the record's last byte. */
struct dirent_abi {
	u32 d_ino, d_off;
	u16 d_reclen;
	char d_name[];
} __attribute__((packed));
_Static_assert(__builtin_offsetof(struct dirent_abi, d_name) == 10, "linux_dirent");

/* --- directories --- */

/* One record of getdents or getdents64 into rec; its length. */
static u32 make_dirent(bool d64, const struct vfs_dirent *de, u32 next, char *rec)
{
	u32 nlen = (u32)strlen(de->name), reclen;

	if (d64) {
		struct dirent64_abi *d = (struct dirent64_abi *)rec;

		reclen =
			(u32)(__builtin_offsetof(struct dirent64_abi, d_name) + nlen + 1 + 7) & ~7u;
		memset(rec, 0, reclen);
		d->d_ino = de->ino;
		d->d_off = next;
		d->d_reclen = (u16)reclen;
		d->d_type = de->type;
		memcpy(d->d_name, de->name, nlen);
	} else {
		struct dirent_abi *d = (struct dirent_abi *)rec;

		/* The name, its NUL, then d_type in the last byte. */
		reclen = (u32)(__builtin_offsetof(struct dirent_abi, d_name) + nlen + 2 + 3) & ~3u;
		memset(rec, 0, reclen);
		d->d_ino = de->ino;
		d->d_off = next;
		d->d_reclen = (u16)reclen;
		memcpy(d->d_name, de->name, nlen);
		rec[reclen - 1] = (char)de->type;
	}
	return reclen;
}

static long do_getdents(int fd, u32 udirp, u32 count, bool d64)
{
	char rec[__builtin_offsetof(struct dirent64_abi, d_name) + RAMFS_NAME_MAX + 16];
	struct file *f = fd_io_file(fd);
	struct vfs_dirent de;
	u32 used = 0;

	if (!f)
		return -EBADF;
	if (!vnode_is_dir(&f->vn))
		return -ENOTDIR;
	if (f->dir_index != f->pos)
		f->dir_cursor = NULL;
	for (;;) {
		const void *before = f->dir_cursor;
		u32 len;

		if (!vfs_dirent(&f->vn, (u32)f->pos, &f->dir_cursor, &de))
			break;
		len = make_dirent(d64, &de, (u32)f->pos + 1, rec);
		if (len > count - used || copy_to_user(udirp + used, rec, len)) {
			/* This entry comes first next time. */
			bool fault = len <= count - used;

			f->dir_cursor = before;
			f->dir_index = (u32)f->pos;
			if (used)
				return used;
			return fault ? -EFAULT : -EINVAL;
		}
		used += len;
		f->pos++;
		f->dir_index = (u32)f->pos;
	}
	f->dir_index = (u32)f->pos;
	return used;
}

SYSCALL_DEFINE3(getdents, int, fd, u32, udirp, u32, count)
{
	return do_getdents(fd, udirp, count, false);
}

SYSCALL_DEFINE3(getdents64, int, fd, u32, udirp, u32, count)
{
	return do_getdents(fd, udirp, count, true);
}

SYSCALL_DEFINE2(getcwd, u32, ubuf, u32, size)
{
	struct proc *p = proc_current();
	const char *cwd = p && p->cwd[0] ? p->cwd : "/";
	u32 len = (u32)strlen(cwd) + 1;

	if (size < len)
		return -ERANGE;
	return copy_to_user(ubuf, cwd, len) ? -EFAULT : (long)len;
}

SYSCALL_DEFINE1(chdir, u32, upath)
{
	struct proc *p = proc_current();
	char path[VFS_CWD_MAX];
	struct vnode v;
	int ret;

	if (!p)
		return -ESRCH;
	ret = user_lookup(AT_FDCWD, upath, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, false, &v);
	if (ret)
		return ret;
	ret = vfs_path(&v, path, sizeof(path));
	if (ret < 0)
		return ret;
	memcpy(p->cwd, path, (u32)ret + 1);
	return 0;
}

/* --- stat --- */

static long put_stat64(const struct vnode *v, u32 ubuf)
{
	struct stat64_abi s;
	struct kstat st;

	vfs_stat(v, &st);
	memset(&s, 0, sizeof(s));
	s.st_dev = st.dev;
	s.st_ino32 = st.ino;
	s.st_ino = st.ino;
	s.st_mode = st.mode;
	s.st_nlink = st.nlink;
	s.st_uid = st.uid;
	s.st_gid = st.gid;
	s.st_rdev = st.rdev;
	s.st_size = (s64)st.size;
	s.st_blksize = st.blksize;
	s.st_blocks = st.blocks;
	s.st_atime = s.st_mtime = s.st_ctime = (u32)st.mtime;
	return copy_to_user(ubuf, &s, sizeof(s)) ? -EFAULT : 0;
}

static long stat_at(int dirfd, u32 upath, u32 ubuf, u32 flags)
{
	struct vnode v;
	int ret;

	if (flags & ~(u32)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT))
		return -EINVAL;
	ret = user_lookup(dirfd, upath, flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW,
			  flags & AT_EMPTY_PATH, &v);
	return ret ? ret : put_stat64(&v, ubuf);
}

SYSCALL_DEFINE2(stat64, u32, upath, u32, ubuf)
{
	return stat_at(AT_FDCWD, upath, ubuf, 0);
}

SYSCALL_DEFINE2(lstat64, u32, upath, u32, ubuf)
{
	return stat_at(AT_FDCWD, upath, ubuf, AT_SYMLINK_NOFOLLOW);
}

SYSCALL_DEFINE2(fstat64, int, fd, u32, ubuf)
{
	struct file *f = fd_file(fd);

	return f ? put_stat64(&f->vn, ubuf) : -EBADF;
}

SYSCALL_DEFINE4(fstatat64, int, dirfd, u32, upath, u32, ubuf, u32, flags)
{
	return stat_at(dirfd, upath, ubuf, flags);
}

static void statx_fill(const struct kstat *st, struct statx_abi *x)
{
	memset(x, 0, sizeof(*x));
	x->stx_mask = STATX_BASIC_STATS;
	x->stx_blksize = st->blksize;
	x->stx_nlink = st->nlink;
	x->stx_uid = st->uid;
	x->stx_gid = st->gid;
	x->stx_mode = (u16)st->mode;
	x->stx_ino = st->ino;
	x->stx_size = st->size;
	x->stx_blocks = st->blocks;
	x->stx_atime.tv_sec = x->stx_ctime.tv_sec = x->stx_mtime.tv_sec = st->mtime;
	/* new_encode_dev() undone: major in bits 8-19, minor in 0-7 and 20-31 */
	x->stx_rdev_major = (st->rdev >> 8) & 0xfff;
	x->stx_rdev_minor = (st->rdev & 0xff) | (st->rdev >> 12 & ~0xffu);
	x->stx_dev_major = (st->dev >> 8) & 0xfff;
	x->stx_dev_minor = (st->dev & 0xff) | (st->dev >> 12 & ~0xffu);
}

SYSCALL_DEFINE5(statx, int, dirfd, u32, upath, u32, flags, u32, mask, u32, ubuf)
{
	struct statx_abi x;
	struct kstat st;
	struct vnode v;
	int ret;

	if (flags &
	    ~(u32)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT | AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if ((flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE || (mask & STATX__RESERVED))
		return -EINVAL;
	ret = user_lookup(dirfd, upath, flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW,
			  flags & AT_EMPTY_PATH, &v);
	if (ret)
		return ret;
	vfs_stat(&v, &st);
	statx_fill(&st, &x);
	return copy_to_user(ubuf, &x, sizeof(x)) ? -EFAULT : 0;
}

/* --- links and permissions --- */

static long do_readlink(int dirfd, u32 upath, u32 ubuf, s32 size)
{
	char tmp[VFS_LINK_TMP];
	const char *target;
	struct vnode v;
	int ret, len;

	if (size <= 0)
		return -EINVAL;
	ret = user_lookup(dirfd, upath, 0, false, &v);
	if (ret)
		return ret;
	len = vfs_link_target(&v, &target, tmp);
	if (len < 0)
		return len;
	if ((u32)len > (u32)size)
		len = size;
	return copy_to_user(ubuf, target, (u32)len) ? -EFAULT : len;
}

SYSCALL_DEFINE3(readlink, u32, upath, u32, ubuf, s32, size)
{
	return do_readlink(AT_FDCWD, upath, ubuf, size);
}

SYSCALL_DEFINE4(readlinkat, int, dirfd, u32, upath, u32, ubuf, s32, size)
{
	return do_readlink(dirfd, upath, ubuf, size);
}

/* As root (every process here is): write needs a writable file system, execute an x bit. */
static long access_check(const struct vnode *v, u32 mode)
{
	struct kstat st;

	if ((mode & W_OK) && v->kind == VN_RAMFS && (v->rn->mode & S_IFMT) != S_IFCHR)
		return -EROFS;
	if (!(mode & X_OK) || vnode_is_dir(v))
		return 0;
	vfs_stat(v, &st);
	return st.mode & 0111 ? 0 : -EACCES;
}

static long do_access(int dirfd, u32 upath, u32 mode, u32 flags)
{
	struct vnode v;
	int ret;

	if (mode & ~(u32)(R_OK | W_OK | X_OK))
		return -EINVAL;
	if (flags & ~(u32)(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	ret = user_lookup(dirfd, upath, flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW,
			  flags & AT_EMPTY_PATH, &v);
	return ret ? ret : access_check(&v, mode);
}

SYSCALL_DEFINE2(access, u32, upath, u32, mode)
{
	return do_access(AT_FDCWD, upath, mode, 0);
}

SYSCALL_DEFINE3(faccessat, int, dirfd, u32, upath, u32, mode)
{
	return do_access(dirfd, upath, mode, 0);
}

SYSCALL_DEFINE4(faccessat2, int, dirfd, u32, upath, u32, mode, u32, flags)
{
	return do_access(dirfd, upath, mode, flags);
}
