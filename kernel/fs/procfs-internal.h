/* SPDX-License-Identifier: MIT */
/*
 * Inside /proc (kernel/fs/procfs.c, its table and tree; procfs-pid.c, a
 * process's files): the writer their contents go through, and the
 * generators of /proc/<pid>/.
 */
#ifndef KERNEL_FS_PROCFS_INTERNAL_H
#define KERNEL_FS_PROCFS_INTERNAL_H

#include <dynhz/types.h>
#include <dynhz/printk.h>

struct proc;

/* Output into a /proc file's buffer (PROCFS_BUF_SIZE): what does not fit is cut, never overrun. */
struct out {
	char *buf;
	u32 len;
};

void out_printf(struct out *o, const char *fmt, ...) DZ_PRINTF(2, 3);
/* Nanoseconds to USER_HZ ticks, as Linux gives clock ticks. */
unsigned long clock_ticks(u64 ns);

/* /proc/<pid>/...: each returns 0, the content in o. */
int procfs_pid_stat(struct out *o, struct proc *p);
int procfs_pid_statm(struct out *o, struct proc *p);
int procfs_pid_status(struct out *o, struct proc *p);
int procfs_pid_cmdline(struct out *o, struct proc *p);
int procfs_pid_comm(struct out *o, struct proc *p);

#endif
