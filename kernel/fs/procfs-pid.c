// SPDX-License-Identifier: MIT
/*
 * A process's files, /proc/<pid>/stat, statm, status, cmdline and comm,
 * in Linux's formats (the table that names them is procfs.c's): what ps
 * and top read. Times are in USER_HZ ticks, from the nanosecond
 * accounting (kernel/sched/user.c).
 */
#include "vfs-internal.h"
#include "procfs-internal.h"
#include <kernel/console.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/user.h>
#include <kernel/mm.h>

static char state_char(const struct proc *p)
{
	if (p->state == PROC_ZOMBIE)
		return 'Z';
	if (!p->thread || p->thread->state == TASK_RUNNING)
		return 'R';
	return p->thread->state == TASK_UNINTERRUPTIBLE ? 'D' : 'S';
}

static const char *state_name(char c)
{
	switch (c) {
	case 'R':
		return "R (running)";
	case 'S':
		return "S (sleeping)";
	case 'D':
		return "D (disk sleep)";
	default:
		return "Z (zombie)";
	}
}

/* The areas of p's memory, in pages: all, the executable ones, the writable ones. */
struct mm_pages {
	unsigned long size, text, data, stack;
	u32 code_start, code_end;
};

static void mm_pages(const struct proc *p, struct mm_pages *m)
{
	*m = (struct mm_pages){ 0 };
	for (u32 i = 0; i < p->mm.nvmas && i < MM_MAX_VMAS; i++) {
		const struct vma *v = &p->mm.vmas[i];
		unsigned long n = (v->end - v->start) / PAGE_SIZE;

		m->size += n;
		if (v->prot & VM_GROWSDOWN)
			m->stack += n;
		else if (v->prot & VM_EXEC)
			m->text += n;
		else if (v->prot & VM_WRITE)
			m->data += n;
		if ((v->prot & VM_EXEC) && !m->code_end) {
			m->code_start = v->start;
			m->code_end = v->end;
		}
	}
}

/* Signal masks for stat and status: ignored and caught, by their actions. */
static void sig_masks(const struct proc *p, u64 *ign, u64 *catch)
{
	*ign = *catch = 0;
	for (int i = 0; i < NSIG; i++) {
		u32 h = p->sig.action[i].handler;

		if (h == 1)
			*ign |= 1ULL << i;
		else if (h > 1)
			*catch |= 1ULL << i;
	}
}

/* comm without a NUL inside PROC_COMM_LEN is still printed bounded. */
static const char *comm_of(const struct proc *p, char *buf)
{
	memcpy(buf, p->comm, PROC_COMM_LEN - 1);
	buf[PROC_COMM_LEN - 1] = '\0';
	return buf;
}

static void stat_times(struct out *o, struct proc *p)
{
	u64 ut = 0, st = 0;

	if (p->state == PROC_RUNNING)
		proc_cputime_ns(p, &ut, &st);
	else
		ut = p->utime_ns, st = p->stime_ns;
	/* utime stime cutime cstime priority nice num_threads itrealvalue starttime */
	out_printf(o, "%lu %lu %ld %ld 20 0 1 0 %llu ", clock_ticks(ut), clock_ticks(st),
		   (long)clock_ticks(p->cutime_ns), (long)clock_ticks(p->cstime_ns),
		   (unsigned long long)clock_ticks(p->start_ns));
}

/* /proc/<pid>/stat: the 52 fields, in Linux's order (proc(5)). */
int procfs_pid_stat(struct out *o, struct proc *p)
{
	char comm[PROC_COMM_LEN];
	struct mm_pages m;
	u64 ign, catch;
	char s = state_char(p);
	int tpgid = console_foreground_of(p);

	mm_pages(p, &m);
	sig_masks(p, &ign, &catch);
	/* pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt */
	out_printf(o, "%d (%s) %c %d %d %d %u %d %u %lu 0 0 0 ", p->pid, comm_of(p, comm), s,
		   p->ppid, p->pgid, p->sid, tpgid < 0 ? 0 : (CONSOLE_MAJ << 8) | CONSOLE_MIN,
		   tpgid, 0x400000u, (unsigned long)p->minflt);
	stat_times(o, p);
	/* vsize rss rsslim startcode endcode startstack kstkesp kstkeip */
	out_printf(o, "%lu %lu %lu %lu %lu %lu 0 0 ", m.size * PAGE_SIZE, (unsigned long)p->mm.rss,
		   4294967295UL, (unsigned long)m.code_start, (unsigned long)m.code_end,
		   (unsigned long)p->mm.stack_top);
	/* signal blocked sigignore sigcatch wchan nswap cnswap exit_signal processor */
	out_printf(o, "%lu %lu %lu %lu 0 0 0 17 0 ", (unsigned long)p->sig.pending,
		   (unsigned long)p->sig.blocked, (unsigned long)ign, (unsigned long)catch);
	/* rt_priority policy delayacct_blkio_ticks guest_time cguest_time */
	out_printf(o, "0 0 0 0 0 ");
	/* start_data end_data start_brk arg_start arg_end env_start env_end exit_code */
	out_printf(o, "0 0 %lu 0 0 0 0 %d\n", (unsigned long)p->mm.brk_start,
		   p->state == PROC_ZOMBIE ? p->exit_status : 0);
	return 0;
}

int procfs_pid_statm(struct out *o, struct proc *p)
{
	struct mm_pages m;

	mm_pages(p, &m);
	/* size resident shared text lib data dt */
	out_printf(o, "%lu %lu 0 %lu 0 %lu 0\n", m.size, (unsigned long)p->mm.rss, m.text,
		   m.data + m.stack);
	return 0;
}

static void kb_line(struct out *o, const char *name, unsigned long pages)
{
	out_printf(o, "%s\t%8lu kB\n", name, pages * (PAGE_SIZE / 1024));
}

int procfs_pid_status(struct out *o, struct proc *p)
{
	char comm[PROC_COMM_LEN];
	struct mm_pages m;
	u64 ign, catch;

	mm_pages(p, &m);
	sig_masks(p, &ign, &catch);
	/* The umask in octal, digit by digit: the kernel's printf has no %o. */
	out_printf(o, "Name:\t%s\nUmask:\t0%u%u%u\nState:\t%s\n", comm_of(p, comm),
		   (unsigned int)(p->umask >> 6 & 7), (unsigned int)(p->umask >> 3 & 7),
		   (unsigned int)(p->umask & 7), state_name(state_char(p)));
	out_printf(o, "Tgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n", p->pid, p->pid,
		   p->ppid);
	out_printf(o, "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nFDSize:\t%d\nGroups:\t\n", NR_OPEN);
	kb_line(o, "VmPeak:", m.size);
	kb_line(o, "VmSize:", m.size);
	kb_line(o, "VmLck:", 0);
	kb_line(o, "VmHWM:", p->mm.rss);
	kb_line(o, "VmRSS:", p->mm.rss);
	kb_line(o, "VmData:", m.data);
	kb_line(o, "VmStk:", m.stack);
	kb_line(o, "VmExe:", m.text);
	kb_line(o, "VmLib:", 0);
	kb_line(o, "VmSwap:", 0);
	out_printf(o, "Threads:\t1\nSigQ:\t0/0\nSigPnd:\t%016llx\nShdPnd:\t0000000000000000\n",
		   (unsigned long long)p->sig.pending);
	out_printf(o, "SigBlk:\t%016llx\nSigIgn:\t%016llx\nSigCgt:\t%016llx\n",
		   (unsigned long long)p->sig.blocked, (unsigned long long)ign,
		   (unsigned long long)catch);
	return 0;
}

int procfs_pid_cmdline(struct out *o, struct proc *p)
{
	u32 n = p->cmdline_len < PROC_CMDLINE_MAX ? p->cmdline_len : PROC_CMDLINE_MAX;

	if (p->state == PROC_ZOMBIE)
		return 0; /* as Linux: a zombie has no memory to read its argv from */
	memcpy(o->buf, p->cmdline, n);
	o->len = n;
	return 0;
}

int procfs_pid_comm(struct out *o, struct proc *p)
{
	char comm[PROC_COMM_LEN];

	out_printf(o, "%s\n", comm_of(p, comm));
	return 0;
}
