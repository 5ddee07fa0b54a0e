// SPDX-License-Identifier: MIT
/*
 * What kernel/fs/vfs.c, file.c, stat.c and procfs.c need from the rest of the kernel,
 * on the host: a user address space that is one buffer (user pointers are
 * offsets from USER_BASE; anything outside is -EFAULT, as uaccess would
 * say), a small process table the test fills in, CPU times and memory
 * figures the test sets, and a console that records what is written.
 * The core's time (ktime_get_ns, jiffies, timers) is the real one, from
 * the hosted port.
 */
#include <stdio.h>
#include <string.h>

#include "shim.h"
#include <kernel/errno.h>
#include <kernel/console.h>
#include <kernel/uaccess.h>
#include <kernel/user.h>
#include <kernel/retune.h>

u8 user_mem[USER_LEN];
struct proc shim_procs[SHIM_PROCS];
struct proc *shim_current;
struct cpu_times shim_cpu;
struct page_stats shim_pages;
u64 shim_switches;
char shim_console_out[4096];
size_t shim_console_len;

static bool in_user(u32 uaddr, u32 len)
{
	return uaddr >= USER_BASE && uaddr - USER_BASE <= USER_LEN &&
	       len <= USER_LEN - (uaddr - USER_BASE);
}

long copy_from_user(void *dst, u32 usrc, u32 len)
{
	if (!in_user(usrc, len))
		return -EFAULT;
	memcpy(dst, user_mem + (usrc - USER_BASE), len);
	return 0;
}

long copy_to_user(u32 udst, const void *src, u32 len)
{
	if (!in_user(udst, len))
		return -EFAULT;
	memcpy(user_mem + (udst - USER_BASE), src, len);
	return 0;
}

long clear_user(u32 udst, u32 len)
{
	if (!in_user(udst, len))
		return -EFAULT;
	memset(user_mem + (udst - USER_BASE), 0, len);
	return 0;
}

long strncpy_from_user(char *dst, u32 usrc, u32 max)
{
	for (u32 i = 0; i < max; i++) {
		if (!in_user(usrc + i, 1))
			return -EFAULT;
		dst[i] = (char)user_mem[usrc + i - USER_BASE];
		if (!dst[i])
			return i;
	}
	return -ENAMETOOLONG;
}

bool user_access_ok(u32 uaddr, u32 len, bool write)
{
	(void)write;
	return in_user(uaddr, len);
}

struct proc *proc_current(void)
{
	return shim_current;
}

struct proc *proc_find(int pid)
{
	for (int i = 0; i < SHIM_PROCS; i++)
		if (shim_procs[i].state != PROC_FREE && shim_procs[i].pid == pid)
			return &shim_procs[i];
	return NULL;
}

/* The highest pid in the table: what the kernel's counter would say of it. */
int proc_last_pid(void)
{
	int last = 0;

	for (int i = 0; i < SHIM_PROCS; i++)
		if (shim_procs[i].state != PROC_FREE && shim_procs[i].pid > last)
			last = shim_procs[i].pid;
	return last;
}

unsigned int proc_list(struct proc **out, unsigned int max)
{
	unsigned int n = 0;

	for (int i = 0; i < SHIM_PROCS && n < max; i++)
		if (shim_procs[i].state != PROC_FREE)
			out[n++] = &shim_procs[i];
	return n;
}

void proc_cputime_ns(struct proc *p, u64 *utime, u64 *stime)
{
	*utime = p->utime_ns;
	*stime = p->stime_ns;
}

void cpu_times_read(struct cpu_times *ct)
{
	*ct = shim_cpu;
}

dz_uclock_t nsecs_to_clock_t(u64 ns)
{
	return DZ_UCLOCK((unsigned long)(ns / (1000000000u / USER_HZ)));
}

u64 sched_context_switches(void)
{
	return shim_switches;
}

void page_stats_read(struct page_stats *st)
{
	*st = shim_pages;
}

long console_read(struct file *f, u32 ubuf, u32 len)
{
	(void)f, (void)ubuf, (void)len;
	return 0; /* end of file: the test types nothing */
}

long console_write(struct file *f, u32 ubuf, u32 len)
{
	(void)f;
	if (!in_user(ubuf, len))
		return -EFAULT;
	if (len > sizeof(shim_console_out) - shim_console_len)
		len = (u32)(sizeof(shim_console_out) - shim_console_len);
	memcpy(shim_console_out + shim_console_len, user_mem + (ubuf - USER_BASE), len);
	shim_console_len += len;
	return len;
}

long console_ioctl(struct file *f, u32 cmd, u32 arg)
{
	(void)f, (void)arg;
	return cmd == 0x5401 ? 0 : -ENOTTY;
}

/* The console controls the session of every process of the test, its group in front. */
int console_foreground_of(const struct proc *p)
{
	return p->pgid;
}

/* The time files are the kernel's (kernel/fs/proc-time.c): empty on the host. */
int procfs_gen_cmdline(char *buf, u32 size)
{
	(void)buf, (void)size;
	return 0;
}

int procfs_gen_dynhz(char *buf, u32 size)
{
	(void)buf, (void)size;
	return 0;
}

int procfs_gen_timer_list(char *buf, u32 size)
{
	(void)buf, (void)size;
	return 0;
}

/* No pipes on the host: pipe2 answers as a system out of them. */
int pipe_open(struct file **r, struct file **w, u32 flags)
{
	(void)r, (void)w, (void)flags;
	return -ENFILE;
}

void pipe_release_end(const struct vnode *v, u32 mode)
{
	(void)v, (void)mode;
}

long pipe_read(struct file *f, u32 ubuf, u32 len)
{
	(void)f, (void)ubuf, (void)len;
	return -EINVAL;
}

long pipe_write(struct file *f, u32 ubuf, u32 len)
{
	(void)f, (void)ubuf, (void)len;
	return -EINVAL;
}

u32 pipe_ino(const struct vnode *v)
{
	(void)v;
	return 0;
}

/* No timerfds on the host: timerfd_create is not in the tests' calls. */
long timerfd_read(struct file *f, u32 ubuf, u32 len)
{
	(void)f, (void)ubuf, (void)len;
	return -EINVAL;
}

void timerfd_release(const struct vnode *v)
{
	(void)v;
}

void timerfd_init(void)
{
}

/* HZ does not change under the vfs tests: a write to /proc/sys/kernel/hz is refused as the constant build's. */
int hz_set_str(const char *s, u32 len)
{
	(void)s, (void)len;
	return -EPERM;
}
