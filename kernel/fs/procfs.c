// SPDX-License-Identifier: MIT
/*
 * /proc, in Linux's formats, so that BusyBox's ps, top, free and uptime
 * (and anything else that reads /proc) run unmodified.
 *
 * Every value that Linux gives in clock ticks is in USER_HZ ticks (100 on
 * i386), converted from the nanosecond accounting with nsecs_to_clock_t(),
 * never from jiffies: whatever HZ the kernel runs at, a program reads the
 * same numbers. A file's content is made when it is opened (vfs.c keeps it
 * with the open file), so reads at any offset see one consistent snapshot,
 * as a program reading in pieces expects.
 */
#include "vfs-internal.h"
#include "procfs-internal.h"
#include <kernel/errno.h>
#include <kernel/console.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/user.h>
#include <kernel/mm.h>
#include <dynhz/printk.h>
#include <dynhz/timekeeping.h>
#include <dynhz/jiffies.h>
#include <dynhz/timer.h>
#include <dynhz/tick.h>
#include <dynhz/port.h>
#include <kernel/retune.h>
#include <kernel/uaccess.h>

/* The signals engineer's realtime clock: the boot time in Unix seconds, 0 until it exists. */
extern u64 realtime_boot_seconds(void) __attribute__((weak));

/* The entries of /proc: the top directory's, then each /proc/<pid>'s. */
enum pent {
	PE_ROOT,
	PE_SELF,
	PE_UPTIME,
	PE_STAT,
	PE_MEMINFO,
	PE_LOADAVG,
	PE_VERSION,
	PE_MOUNTS,
	PE_CMDLINE,
	PE_DYNHZ,
	PE_TIMER_LIST,
	PE_SYS,		  /* /proc/sys */
	PE_SYS_KERNEL,	  /* /proc/sys/kernel */
	PE_SYS_KERNEL_HZ, /* /proc/sys/kernel/hz: HZ, read and written */
	PE_PIDDIR,	  /* /proc/<pid> */
	PE_PID_STAT,
	PE_PID_STATM,
	PE_PID_STATUS,
	PE_PID_CMDLINE,
	PE_PID_COMM,
	PE_PID_EXE,
	PE_PID_CWD,
	PE_COUNT
};

#define FIRST_TOP PE_SELF /* listed in /proc */
#define LAST_TOP  PE_SYS
#define FIRST_PID PE_PID_STAT /* listed in /proc/<pid> */
#define LAST_PID  PE_PID_CWD

void out_printf(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = dz_vsnprintf(o->buf + o->len, PROCFS_BUF_SIZE - o->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (u32)n < PROCFS_BUF_SIZE - o->len ? (u32)n : PROCFS_BUF_SIZE - 1 - o->len;
}

unsigned long clock_ticks(u64 ns)
{
	return dz_uclock_ticks(nsecs_to_clock_t(ns));
}

static u64 boot_seconds(void)
{
	return realtime_boot_seconds ? realtime_boot_seconds() : 0;
}

void procfs_init(void)
{
	loadavg_reset();
}

/* --- the top files --- */

/* Seconds and hundredths, as Linux prints /proc/uptime. */
static void out_centis(struct out *o, u64 ns, const char *end)
{
	out_printf(o, "%lu.%02lu%s", (unsigned long)(ns / 1000000000u),
		   (unsigned long)(ns % 1000000000u / 10000000u), end);
}

static int gen_uptime(struct out *o)
{
	struct cpu_times ct;

	cpu_times_read(&ct);
	out_centis(o, ktime_get_ns(), " ");
	out_centis(o, ct.idle_ns, "\n");
	return 0;
}

static void cpu_line(struct out *o, const char *name, const struct cpu_times *ct)
{
	out_printf(o, "%s %lu 0 %lu %lu 0 0 0 0 0 0\n", name, clock_ticks(ct->user_ns),
		   clock_ticks(ct->system_ns), clock_ticks(ct->idle_ns));
}

static int gen_stat(struct out *o)
{
	struct proc *ps[PROC_MAX];
	unsigned int n = proc_list(ps, PROC_MAX), running = 0, blocked = 0;
	struct cpu_times ct;

	cpu_times_read(&ct);
	for (unsigned int i = 0; i < n; i++) {
		if (ps[i]->state == PROC_RUNNING && ps[i]->thread) {
			running += ps[i]->thread->state == TASK_RUNNING;
			blocked += ps[i]->thread->state == TASK_UNINTERRUPTIBLE;
		}
	}
	cpu_line(o, "cpu ", &ct);
	cpu_line(o, "cpu0", &ct);
	/* Only the timer's interrupts are counted: the total, then IRQ 0's. */
	out_printf(o, "intr %llu %llu\n", (unsigned long long)dz_tick_count(),
		   (unsigned long long)dz_tick_count());
	out_printf(o, "ctxt %llu\n", (unsigned long long)sched_context_switches());
	out_printf(o, "btime %llu\n", (unsigned long long)boot_seconds());
	/* Pids are handed out in order and never reused: the last one counts the forks. */
	out_printf(o, "processes %d\n", proc_last_pid());
	out_printf(o, "procs_running %u\nprocs_blocked %u\n", running, blocked);
	out_printf(o, "softirq 0 0 0 0 0 0 0 0 0 0 0\n");
	return 0;
}

static void mem_line(struct out *o, const char *name, unsigned long kb)
{
	out_printf(o, "%-16s%8lu kB\n", name, kb);
}

static int gen_meminfo(struct out *o)
{
	static const char *const zeros[] = {
		"SwapCached:",	 "Active:",    "Inactive:",	"SwapTotal:",  "SwapFree:",
		"Dirty:",	 "Writeback:", "AnonPages:",	"Mapped:",     "Shmem:",
		"KReclaimable:", "Slab:",      "SReclaimable:", "SUnreclaim:", "PageTables:",
	};
	struct page_stats ps;
	unsigned long kb = PAGE_SIZE / 1024;

	page_stats_read(&ps);
	mem_line(o, "MemTotal:", ps.total * kb);
	mem_line(o, "MemFree:", ps.free * kb);
	mem_line(o, "MemAvailable:", ps.free * kb);
	mem_line(o, "Buffers:", 0);
	/* The initramfs is memory the root's files live in: a page cache that never shrinks. */
	mem_line(o, "Cached:", 0);
	for (unsigned int i = 0; i < sizeof(zeros) / sizeof(zeros[0]); i++)
		mem_line(o, zeros[i], 0);
	mem_line(o, "KernelStack:", ps.kernel * kb);
	mem_line(o, "CommitLimit:", ps.total * kb);
	mem_line(o, "Committed_AS:", (ps.total - ps.free) * kb);
	return 0;
}

static void out_load(struct out *o, unsigned long x, const char *end)
{
	out_printf(o, "%lu.%02lu%s", x >> FSHIFT, ((x & (FIXED_1 - 1)) * 100) >> FSHIFT, end);
}

static int gen_loadavg(struct out *o)
{
	unsigned long loads[3];
	unsigned int total;
	int last;
	unsigned int active = loadavg_count(&total, &last);

	get_avenrun(loads, 0, 0);
	out_load(o, loads[0], " ");
	out_load(o, loads[1], " ");
	out_load(o, loads[2], " ");
	out_printf(o, "%u/%u %d\n", active, total, last);
	return 0;
}

static int gen_version(struct out *o)
{
	out_printf(o, "Linux version 6.1.0-dynhz (dynhz reference kernel, i386, USER_HZ=%u) #1\n",
		   (unsigned int)USER_HZ);
	return 0;
}

static int gen_mounts(struct out *o)
{
	out_printf(o, "rootfs / rootfs ro 0 0\nproc /proc proc rw,nosuid,nodev,noexec 0 0\n");
	return 0;
}

/* The time files (kernel/fs/proc-time.c) write into the rest of the buffer. */
static int gen_into(struct out *o, int (*gen)(char *buf, u32 size))
{
	int n = gen(o->buf + o->len, PROCFS_BUF_SIZE - o->len);

	if (n > 0)
		o->len += (u32)n;
	return 0;
}

static int gen_cmdline(struct out *o)
{
	return gen_into(o, procfs_gen_cmdline);
}

static int gen_dynhz(struct out *o)
{
	return gen_into(o, procfs_gen_dynhz);
}

static int gen_timer_list(struct out *o)
{
	return gen_into(o, procfs_gen_timer_list);
}

/* --- /proc/sys/kernel/hz: HZ, changed at runtime by a write --- */

static int gen_hz(struct out *o)
{
	out_printf(o, "%u\n", HZ);
	return 0;
}

#define HZ_WRITE_MAX 128

/*
 * A write of N changes HZ (kernel/time/retune.c), as a sysctl is written:
 * `echo 100 > /proc/sys/kernel/hz`. Linux's integer sysctls refuse what
 * is not a number and what is out of their range alike with EINVAL
 * (proc_dointvec_minmax); the core's one line says which it was. The
 * constant build refuses with EPERM.
 */
static long write_hz(u32 ubuf, u32 len)
{
	char buf[HZ_WRITE_MAX];
	u32 n = len < sizeof(buf) ? len : sizeof(buf);
	int ret;

	if (!len)
		return 0; /* as Linux's: nothing written, nothing done */
	if (copy_from_user(buf, ubuf, n))
		return -EFAULT;
	ret = hz_set_str(buf, n);
	if (ret == -ERANGE)
		ret = -EINVAL;
	return ret ? ret : (long)len;
}

/* --- the table --- */

struct pent_info {
	const char *name;
	u32 mode;
	int (*gen)(struct out *o);
	int (*gen_pid)(struct out *o, struct proc *p);
};

static const struct pent_info pents[PE_COUNT] = {
	[PE_ROOT] = { "proc", S_IFDIR | 0555, NULL, NULL },
	[PE_SELF] = { "self", S_IFLNK | 0777, NULL, NULL },
	[PE_UPTIME] = { "uptime", S_IFREG | 0444, gen_uptime, NULL },
	[PE_STAT] = { "stat", S_IFREG | 0444, gen_stat, NULL },
	[PE_MEMINFO] = { "meminfo", S_IFREG | 0444, gen_meminfo, NULL },
	[PE_LOADAVG] = { "loadavg", S_IFREG | 0444, gen_loadavg, NULL },
	[PE_VERSION] = { "version", S_IFREG | 0444, gen_version, NULL },
	[PE_MOUNTS] = { "mounts", S_IFREG | 0444, gen_mounts, NULL },
	[PE_CMDLINE] = { "cmdline", S_IFREG | 0444, gen_cmdline, NULL },
	[PE_DYNHZ] = { "dynhz", S_IFREG | 0444, gen_dynhz, NULL },
	[PE_TIMER_LIST] = { "timer_list", S_IFREG | 0444, gen_timer_list, NULL },
	[PE_SYS] = { "sys", S_IFDIR | 0555, NULL, NULL },
	[PE_SYS_KERNEL] = { "kernel", S_IFDIR | 0555, NULL, NULL },
	[PE_SYS_KERNEL_HZ] = { "hz", S_IFREG | 0644, gen_hz, NULL },
	[PE_PIDDIR] = { "", S_IFDIR | 0555, NULL, NULL },
	[PE_PID_STAT] = { "stat", S_IFREG | 0444, NULL, procfs_pid_stat },
	[PE_PID_STATM] = { "statm", S_IFREG | 0444, NULL, procfs_pid_statm },
	[PE_PID_STATUS] = { "status", S_IFREG | 0444, NULL, procfs_pid_status },
	[PE_PID_CMDLINE] = { "cmdline", S_IFREG | 0444, NULL, procfs_pid_cmdline },
	[PE_PID_COMM] = { "comm", S_IFREG | 0644, NULL, procfs_pid_comm },
	[PE_PID_EXE] = { "exe", S_IFLNK | 0777, NULL, NULL },
	[PE_PID_CWD] = { "cwd", S_IFLNK | 0777, NULL, NULL },
};

static struct proc *live_proc(int pid)
{
	struct proc *p = proc_find(pid);

	return p && p->state != PROC_FREE ? p : NULL;
}

void procfs_root(struct vnode *out)
{
	*out = (struct vnode){ .kind = VN_PROC, .pent = PE_ROOT };
}

bool procfs_is_dir(const struct vnode *v)
{
	return (pents[v->pent].mode & S_IFMT) == S_IFDIR;
}

bool procfs_is_link(const struct vnode *v)
{
	return (pents[v->pent].mode & S_IFMT) == S_IFLNK;
}

static bool name_is(const char *s, u32 len, const char *name)
{
	u32 i;

	for (i = 0; i < len && name[i] == s[i]; i++)
		;
	return i == len && !name[i];
}

/* A pid written as Linux accepts it in /proc: decimal, no sign, no leading zero. */
static int parse_pid(const char *s, u32 len)
{
	int pid = 0;

	if (!len || len > 9 || (s[0] == '0'))
		return 0;
	for (u32 i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		pid = pid * 10 + (s[i] - '0');
	}
	return pid;
}

/* The entries a directory holds, first to last (its processes aside). */
static void children(const struct vnode *dir, int *first, int *last)
{
	switch (dir->pent) {
	case PE_ROOT:
		*first = FIRST_TOP;
		*last = LAST_TOP;
		break;
	case PE_SYS:
		*first = *last = PE_SYS_KERNEL;
		break;
	case PE_SYS_KERNEL:
		*first = *last = PE_SYS_KERNEL_HZ;
		break;
	default:
		*first = FIRST_PID;
		*last = LAST_PID;
	}
}

int procfs_lookup(const struct vnode *dir, const char *name, u32 len, struct vnode *out)
{
	int first, last;
	int pid;

	children(dir, &first, &last);

	if (dir->pid && !live_proc(dir->pid))
		return -ENOENT; /* the process went away under its directory */
	for (int e = first; e <= last; e++)
		if (name_is(name, len, pents[e].name)) {
			*out = (struct vnode){ .kind = VN_PROC, .pent = (u8)e, .pid = dir->pid };
			return 0;
		}
	if (dir->pent != PE_ROOT)
		return -ENOENT;
	pid = parse_pid(name, len);
	if (!pid || !live_proc(pid))
		return -ENOENT;
	*out = (struct vnode){ .kind = VN_PROC, .pent = PE_PIDDIR, .pid = pid };
	return 0;
}

void procfs_parent(const struct vnode *v, struct vnode *out)
{
	if (v->pent == PE_ROOT)
		vfs_root(out);
	else if (v->pent == PE_SYS_KERNEL || v->pent == PE_SYS_KERNEL_HZ)
		*out = (struct vnode){ .kind = VN_PROC, .pent = (u8)(v->pent - 1) };
	else if (v->pent == PE_PIDDIR || !v->pid)
		procfs_root(out);
	else
		*out = (struct vnode){ .kind = VN_PROC, .pent = PE_PIDDIR, .pid = v->pid };
}

void procfs_stat(const struct vnode *v, struct kstat *st)
{
	struct proc *p = v->pid ? live_proc(v->pid) : NULL;
	u64 t = boot_seconds();

	if (p)
		t += p->start_ns / 1000000000u;
	*st = (struct kstat){
		.ino = v->pid ? 0x10000u + (u32)v->pid * 32u + v->pent : 1u + v->pent,
		.mode = pents[v->pent].mode,
		.nlink = procfs_is_dir(v) ? 2 : 1,
		.blksize = 1024,
		.mtime = (s64)t,
	};
}

/* A target kept in struct proc: it lives as long as the process. */
static int proc_target(const char *s, const char **target)
{
	u32 n = 0;

	while (n < VFS_CWD_MAX && s[n])
		n++;
	*target = s;
	return (int)n;
}

int procfs_link_target(const struct vnode *v, const char **target, char *tmp)
{
	struct proc *p;

	if (v->pent == PE_SELF) {
		p = proc_current();
		if (!p)
			return -ENOENT; /* a kernel thread has no self */
		*target = tmp;
		return dz_snprintf(tmp, VFS_LINK_TMP, "%d", p->pid);
	}
	if (v->pent != PE_PID_EXE && v->pent != PE_PID_CWD)
		return -EINVAL;
	p = live_proc(v->pid);
	if (!p || p->state == PROC_ZOMBIE)
		return -ENOENT;
	if (v->pent == PE_PID_CWD && !p->cwd[0])
		return proc_target("/", target);
	return proc_target(v->pent == PE_PID_EXE ? p->exe : p->cwd, target);
}

int procfs_path(const struct vnode *v, char *buf, u32 size)
{
	int n;

	if (v->pent == PE_ROOT)
		n = dz_snprintf(buf, size, "/proc");
	else if (v->pent == PE_SYS_KERNEL || v->pent == PE_SYS_KERNEL_HZ)
		n = dz_snprintf(buf, size, "/proc/sys/kernel%s",
				v->pent == PE_SYS_KERNEL_HZ ? "/hz" : "");
	else if (!v->pid)
		n = dz_snprintf(buf, size, "/proc/%s", pents[v->pent].name);
	else if (v->pent == PE_PIDDIR)
		n = dz_snprintf(buf, size, "/proc/%d", v->pid);
	else
		n = dz_snprintf(buf, size, "/proc/%d/%s", v->pid, pents[v->pent].name);
	return (u32)n < size ? n : -ENAMETOOLONG;
}

static void dirent_of(const struct vnode *v, const char *name, struct vfs_dirent *de)
{
	struct kstat st;
	u32 i;

	procfs_stat(v, &st);
	for (i = 0; name[i] && i < RAMFS_NAME_MAX; i++)
		de->name[i] = name[i];
	de->name[i] = '\0';
	de->ino = st.ino;
	de->type = procfs_is_dir(v) ? DT_DIR : procfs_is_link(v) ? DT_LNK : DT_REG;
}

/* /proc lists its files, then one directory per process, by pid. */
static int root_dirent(u32 index, struct vfs_dirent *de)
{
	struct proc *ps[PROC_MAX];
	struct vnode v;
	unsigned int n;
	char num[12];

	if (index <= LAST_TOP - FIRST_TOP) {
		v = (struct vnode){ .kind = VN_PROC, .pent = (u8)(FIRST_TOP + index) };
		dirent_of(&v, pents[v.pent].name, de);
		return 1;
	}
	index -= LAST_TOP - FIRST_TOP + 1;
	n = proc_list(ps, PROC_MAX);
	if (index >= n)
		return 0;
	v = (struct vnode){ .kind = VN_PROC, .pent = PE_PIDDIR, .pid = ps[index]->pid };
	dz_snprintf(num, sizeof(num), "%d", v.pid);
	dirent_of(&v, num, de);
	return 1;
}

int procfs_dirent(const struct vnode *dir, u32 index, struct vfs_dirent *de)
{
	struct vnode v;

	int first, last;

	if (dir->pent == PE_ROOT)
		return root_dirent(index, de);
	children(dir, &first, &last);
	if (index > (u32)(last - first) || (dir->pid && !live_proc(dir->pid)))
		return 0;
	v = (struct vnode){ .kind = VN_PROC, .pent = (u8)(first + index), .pid = dir->pid };
	dirent_of(&v, pents[v.pent].name, de);
	return 1;
}

/**
 * procfs_write() - a write to a /proc file
 * @v: the file
 * @ubuf: the user's bytes
 * @len: how many
 *
 * Return: len, or a negative errno: as Linux, -EIO for a file of /proc
 * without a write handler, -EINVAL for one of /proc/<pid>.
 */
long procfs_write(const struct vnode *v, u32 ubuf, u32 len)
{
	if (v->pent == PE_SYS_KERNEL_HZ)
		return write_hz(ubuf, len);
	return v->pid ? -EINVAL : -EIO;
}

/**
 * procfs_generate() - the content of a /proc file, as it is now
 * @v: the file
 * @buf: PROCFS_BUF_SIZE bytes (what does not fit is cut)
 *
 * Return: its length, or -ENOENT when its process is gone.
 */
int procfs_generate(const struct vnode *v, char *buf)
{
	const struct pent_info *e = &pents[v->pent];
	struct out o = { buf, 0 };
	struct proc *p;
	int ret;

	buf[0] = '\0';
	if (e->gen) {
		ret = e->gen(&o);
	} else if (e->gen_pid) {
		p = live_proc(v->pid);
		if (!p)
			return -ENOENT;
		ret = e->gen_pid(&o, p);
	} else {
		return -EINVAL;
	}
	return ret < 0 ? ret : (int)o.len;
}
