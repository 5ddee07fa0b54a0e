/* SPDX-License-Identifier: MIT */
/*
 * Files: the read-only root from the initramfs (kernel/fs/initramfs.c), /proc
 * (kernel/fs/procfs.c) mounted on it, and the console; each process's table
 * of file descriptors. The file system calls are in kernel/fs/file.c.
 */
#ifndef KERNEL_VFS_H
#define KERNEL_VFS_H

#include <dynhz/types.h>

#define NR_OPEN	     64	  /* descriptors per process */
#define VFS_PATH_MAX 4096 /* as Linux's PATH_MAX, the NUL included */
#define VFS_CWD_MAX  256  /* the longest working directory kept */

struct file; /* private to the vfs */

struct files {
	struct file *fd[NR_OPEN];
	u64 cloexec; /* bit n: descriptor n closes on exec */
};

/*
 * Reads the initramfs (archive of len bytes, which must stay in memory)
 * as the root. A malformed one gets one line and leaves an empty root
 * (only /proc); so does none (archive NULL).
 */
void vfs_init(const void *archive, size_t len);
/* Whether the root came from an initramfs. */
bool vfs_have_root(void);

/* Descriptors 0, 1 and 2 on the console; -ENFILE/-ENOMEM. */
int files_open_console(struct files *fs);
/* Closes every descriptor (exit). */
void files_close_all(struct files *fs);
/* Closes those marked close-on-exec (execve). */
void files_close_on_exec(struct files *fs);
/* dst (empty) gets src's descriptors, sharing their open files (fork). */
void files_copy(struct files *dst, const struct files *src);

/*
 * Finds the program path (relative to cwd) to execute, following links:
 * its bytes (in memory, read-only, valid while the root exists) and its
 * absolute path. -ENOENT, -ENOTDIR, -ELOOP, -ENAMETOOLONG as Linux's
 * lookup; -EACCES when it is not a regular file.
 */
int vfs_exec_image(const char *cwd, const char *path, const void **data, u32 *size, char *abspath,
		   size_t abslen);

#endif
