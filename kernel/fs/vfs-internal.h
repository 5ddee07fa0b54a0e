/* SPDX-License-Identifier: MIT */
/*
 * Inside the file layer: what vfs.c, file.c, procfs.c and console.c share.
 *
 * A vnode names one object of the tree by value (no reference is held):
 * a ramfs node, an entry of /proc, or the console. Paths resolve to
 * vnodes; an open file holds a vnode, its offset and its flags. Nothing
 * here is for the rest of the kernel: it goes through kernel/vfs.h.
 */
#ifndef KERNEL_VFS_INTERNAL_H
#define KERNEL_VFS_INTERNAL_H

#include <dynhz/types.h>
#include <kernel/initramfs.h>
#include <kernel/vfs.h>

struct proc;

/* File types and permission bits of a mode, as Linux's <sys/stat.h>. */
#define S_IFMT	 0170000
#define S_IFSOCK 0140000
#define S_IFLNK	 0120000
#define S_IFREG	 0100000
#define S_IFBLK	 0060000
#define S_IFDIR	 0040000
#define S_IFCHR	 0020000
#define S_IFIFO	 0010000

/* open(2) flags, Linux i386 (asm-generic/fcntl.h). */
#define O_ACCMODE   00000003
#define O_RDONLY    00000000
#define O_WRONLY    00000001
#define O_RDWR	    00000002
#define O_CREAT	    00000100
#define O_EXCL	    00000200
#define O_NOCTTY    00000400
#define O_TRUNC	    00001000
#define O_APPEND    00002000
#define O_NONBLOCK  00004000
#define O_DSYNC	    00010000
#define FASYNC	    00020000
#define O_DIRECT    00040000
#define O_LARGEFILE 00100000
#define O_DIRECTORY 00200000
#define O_NOFOLLOW  00400000
#define O_NOATIME   01000000
#define O_CLOEXEC   02000000
#define O_SYNC	    04010000
#define O_PATH	    010000000
#define O_TMPFILE   020200000

/* The *at() calls. */
#define AT_FDCWD	    (-100)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_EACCESS	    0x200
#define AT_NO_AUTOMOUNT	    0x800
#define AT_EMPTY_PATH	    0x1000
#define AT_STATX_SYNC_TYPE  0x6000

/* Device numbers the objects report (Linux's encoding is in vfs.c). */
#define DEV_RAMFS      1u  /* anonymous 0:1, as the rootfs */
#define DEV_PROC       4u  /* anonymous 0:4 */
#define DEV_DEVTMP     5u  /* anonymous 0:5, where the console node lives */
#define DEV_PIPEFS     12u /* anonymous 0:12, pipes' */
#define DEV_ANON_INODE 13u /* anonymous 0:13, anon_inodefs' (timerfd) */
#define CONSOLE_MAJ    5u  /* /dev/console is 5:1 */
#define CONSOLE_MIN    1u
#define TTY_MIN	       0u /* /dev/tty, 5:0: the controlling terminal */
#define MEM_MAJ	       1u /* /dev/null is 1:3, /dev/zero 1:5 */
#define NULL_MIN       3u
#define ZERO_MIN       5u

enum vnode_kind { VN_NONE, VN_RAMFS, VN_PROC, VN_CONSOLE, VN_PIPE, VN_TIMERFD };

struct pipe;	/* kernel/fs/pipe.c */
struct timerfd; /* kernel/fs/timerfd.c */

struct vnode {
	u8 kind;		     /* enum vnode_kind */
	u8 pent;		     /* procfs: which entry (procfs.c) */
	int pid;		     /* procfs: the process of /proc/<pid>/..., 0 above them */
	const struct ramfs_node *rn; /* ramfs; the console: the node it was opened by, or NULL */
	struct pipe *pipe;	     /* a pipe's ends */
	struct timerfd *tfd;	     /* a timerfd */
};

/* What stat tells of a vnode, before it is put in one of the ABI's layouts. */
struct kstat {
	u32 dev, rdev; /* Linux's new_encode_dev form */
	u32 ino, mode, nlink, uid, gid, blksize;
	u64 size, blocks; /* blocks of 512 bytes */
	s64 mtime;	  /* atime and ctime are the same: nothing changes */
};

/* --- vfs.c: the tree --- */

/* Resolution flags. */
#define LOOKUP_FOLLOW	 1u /* follow a symbolic link in the last place */
#define LOOKUP_DIRECTORY 2u /* the result must be a directory */

/*
 * Resolves path (a kernel string of len bytes, no NUL needed) from start
 * (the working directory, or an *at() call's directory; ignored for an
 * absolute path). 0 with *out set, or -ENOENT, -ENOTDIR, -ELOOP,
 * -ENAMETOOLONG as Linux's lookup.
 */
int vfs_resolve(const struct vnode *start, const char *path, u32 len, unsigned int flags,
		struct vnode *out);
/* The root directory. */
void vfs_root(struct vnode *out);
/* The current process's working directory (the root for a kernel thread); 0 or -ENOENT. */
int vfs_cwd(struct vnode *out);
/*
 * A character device node of the root being opened: v becomes what its
 * numbers name, as Linux's drivers: the console (5:1, and 5:0, /dev/tty,
 * for a process the console controls), null (1:3), zero (1:5). 0, or
 * -ENXIO for a device there is no driver for (or /dev/tty without a
 * controlling terminal).
 */
int vfs_open_device(struct vnode *v);

/* What a ramfs node is as a device: DEV_NODE_NULL, DEV_NODE_ZERO, or 0 (not one of those). */
#define DEV_NODE_NULL 1
#define DEV_NODE_ZERO 2
int vfs_dev_node(const struct vnode *v);

/* The absolute path of v into buf (NUL-terminated); its length or -ENAMETOOLONG. */
int vfs_path(const struct vnode *v, char *buf, u32 size);
bool vnode_is_dir(const struct vnode *v);
bool vnode_is_link(const struct vnode *v);
/* A character device node of the root (the console, null, zero). */
bool vnode_is_chr(const struct vnode *v);
void vfs_stat(const struct vnode *v, struct kstat *st);
/*
 * A link's target: *target points at it (valid while the process or the
 * root lives, or into tmp, of VFS_LINK_TMP bytes); its length, -EINVAL
 * when v is no link, -ENOENT when what it named is gone.
 */
#define VFS_LINK_TMP 16
int vfs_link_target(const struct vnode *v, const char **target, char *tmp);

/*
 * Directory entries by index: 0 is ".", 1 is "..", then the entries.
 * *cursor is a hint the caller keeps between calls (NULL at first) so that
 * listing a directory is linear; 1 with the entry's name (NUL-terminated),
 * inode and d_type, or 0 past the end.
 */
struct vfs_dirent {
	char name[RAMFS_NAME_MAX + 1];
	u32 ino;
	u8 type; /* DT_* */
};
#define DT_UNKNOWN 0
#define DT_CHR	   2
#define DT_DIR	   4
#define DT_REG	   8
#define DT_LNK	   10
int vfs_dirent(const struct vnode *dir, u32 index, const void **cursor, struct vfs_dirent *de);

/* Kernel buffers of VFS_PATH_MAX bytes for a path from user space (held briefly). */
char *vfs_path_buf_get(void);
void vfs_path_buf_put(char *buf);

/* --- vfs.c: open files --- */

struct file {
	int refs;  /* descriptors (and dups) that share it; 0: free */
	u32 flags; /* O_ACCMODE, O_PATH and the status flags */
	u64 pos;   /* bytes, or for a directory the index of the next entry */
	struct vnode vn;
	const void *dir_cursor; /* vfs_dirent's hint, valid for dir_index */
	u32 dir_index;
	char *snap; /* procfs: the content, made at open */
	u32 snap_len;
};

/*
 * A new open file of v with flags (one reference); procfs content is made
 * now. NULL with *err = -ENFILE (no file or buffer left) or procfs's error.
 */
struct file *file_new(const struct vnode *v, u32 flags, int *err);
void file_get(struct file *f);
/* Drops a reference; the last one frees the file and its buffer. */
void file_put(struct file *f);

/* --- file.c --- */

/* The open file of the current process's descriptor fd, or NULL. */
struct file *fd_file(int fd);
/* The same, if it may be read or written (not an O_PATH one). */
struct file *fd_io_file(int fd);
/* Puts f (its reference passes to the table) at the lowest free descriptor >= min; or -EMFILE. */
int fd_install(struct file *f, int min, bool cloexec);
/*
 * The vnode a user path names from dirfd (AT_FDCWD or a directory's
 * descriptor), resolved with LOOKUP_* flags: 0, or -EFAULT,
 * -ENAMETOOLONG, -ENOMEM (no path buffer), -EBADF, or the lookup's error.
 * An empty path is -ENOENT unless allow_empty (AT_EMPTY_PATH: dirfd's own).
 */
int user_lookup(int dirfd, u32 upath, unsigned int flags, bool allow_empty, struct vnode *out);

/* --- procfs.c --- */

#define PROCFS_BUF_SIZE 4096 /* the largest content a /proc file has */

/* A new tree: the load average starts again (kernel/sched/loadavg.c). */
void procfs_init(void);
void procfs_root(struct vnode *out);
/* A name in the /proc directory dir: 0, or -ENOENT. */
int procfs_lookup(const struct vnode *dir, const char *name, u32 len, struct vnode *out);
void procfs_parent(const struct vnode *v, struct vnode *out);
bool procfs_is_dir(const struct vnode *v);
bool procfs_is_link(const struct vnode *v);
void procfs_stat(const struct vnode *v, struct kstat *st);
int procfs_link_target(const struct vnode *v, const char **target, char *tmp);
/* "/proc/..." of v into buf; its length or -ENAMETOOLONG. */
int procfs_path(const struct vnode *v, char *buf, u32 size);
/* The index-th entry of a /proc directory, "." and ".." excluded: 1, or 0 past the end. */
int procfs_dirent(const struct vnode *dir, u32 index, struct vfs_dirent *de);
/* The content of a /proc file into buf (PROCFS_BUF_SIZE): its length, or -ENOENT (gone). */
int procfs_generate(const struct vnode *v, char *buf);
/* A write to a /proc file: len, or -EIO, -EINVAL as Linux (only /proc/sys/kernel/hz takes one). */
long procfs_write(const struct vnode *v, u32 ubuf, u32 len);

/* --- proc-time.c: the kernel's time facts; each returns the length written into buf --- */

int procfs_gen_cmdline(char *buf, u32 size);
int procfs_gen_dynhz(char *buf, u32 size);
int procfs_gen_timer_list(char *buf, u32 size);

/* --- console.c --- */

long console_read(struct file *f, u32 ubuf, u32 len);
long console_write(struct file *f, u32 ubuf, u32 len);
long console_ioctl(struct file *f, u32 cmd, u32 arg);
struct wait_queue_entry;
/* Input ready for a reader now; w (if not NULL) is queued to be woken by the next byte. */
bool console_poll_in(struct wait_queue_entry *w);

/* --- pipe.c --- */

/* A new pipe: its read and write ends' open files; -ENFILE. */
int pipe_open(struct file **r, struct file **w, u32 flags);
/* The last reference to an end's open file (of access mode mode) is gone. */
void pipe_release_end(const struct vnode *v, u32 mode);
long pipe_read(struct file *f, u32 ubuf, u32 len);
long pipe_write(struct file *f, u32 ubuf, u32 len);
/* poll's bits for an end; w (if not NULL) is queued to be woken when the pipe changes. */
u32 pipe_poll(struct file *f, struct wait_queue_entry *w);
/* The pipe's inode number (stat). */
u32 pipe_ino(const struct vnode *v);

/* --- timerfd.c --- */

long timerfd_read(struct file *f, u32 ubuf, u32 len);
/* poll's POLLIN when expiries wait to be read; w (if not NULL) is queued to be woken by one. */
u32 timerfd_poll(struct file *f, struct wait_queue_entry *w);
/* The last reference to a timerfd's open file is gone: the timer stops, the slot is free. */
void timerfd_release(const struct vnode *v);
/* At boot (vfs_init()): a step of the realtime clock is to be told (clock_was_set_notify()). */
void timerfd_init(void);

#endif
