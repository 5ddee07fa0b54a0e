/* SPDX-License-Identifier: MIT */
/*
 * Processes: a program in its own address space, run by one kernel thread
 * that drops to ring 3 (kernel/sched/proc.c); loaded from the root file system by
 * kernel/proc/exec.c, copied by fork (kernel/proc/fork.c), ended and reaped by
 * kernel/proc/exit.c. Its CPU time is accounted in nanoseconds on the TSC at
 * every change of mode (kernel/sched/user.c) and reaches user space only in
 * USER_HZ ticks.
 *
 * Every process but those the kernel starts (proc_spawn: init, the shell's
 * run) has a parent that reaps it with wait4; an orphan's parent becomes
 * pid 1. The process table and the parent links change with interrupts
 * off (one CPU).
 */
#ifndef KERNEL_PROC_H
#define KERNEL_PROC_H

#include <dynhz/types.h>
#include <kernel/mm.h>
#include <kernel/vfs.h>
#include <kernel/signal.h>

#define PROC_MAX	 64
#define PROC_COMM_LEN	 16  /* as Linux's TASK_COMM_LEN, the NUL included */
#define PROC_CMDLINE_MAX 512 /* kept of argv, for /proc/<pid>/cmdline */
#define PROC_TLS_ENTRIES 3   /* GDT entries 6, 7 and 8, as on Linux */
#define PROC_TLS_FIRST	 6

enum proc_state { PROC_FREE, PROC_RUNNING, PROC_ZOMBIE };

struct thread;

/* Where a program starts: its entry point and its stack pointer. */
struct exec_start {
	u32 eip, esp;
};

struct proc {
	enum proc_state state;
	int pid, ppid, pgid, sid;
	char comm[PROC_COMM_LEN];
	char cmdline[PROC_CMDLINE_MAX]; /* argv, each NUL-terminated */
	u32 cmdline_len;
	char exe[VFS_CWD_MAX]; /* the program's absolute path */
	char cwd[VFS_CWD_MAX];
	struct thread *thread;
	struct exec_start start; /* where its thread enters ring 3 */
	struct mm mm;
	struct files files;
	struct sigstate sig;
	struct proc_timers timers;
	struct list_head cpu_timers; /* its armed CPU-time timers (kernel/sched/cputimer.c) */
	u64 tls[PROC_TLS_ENTRIES];   /* descriptors set_thread_area made */
	u32 clear_child_tid;
	int exit_signal;   /* sent to the parent at the end: SIGCHLD, or clone's low byte */
	u32 umask;	   /* umask(2): inherited, 022 for the programs the kernel starts */
	s32 syscall_nr;	   /* the call being made (Linux's orig_eax), for a restart; -1: none */
	bool kernel_reaps; /* started by the kernel (proc_spawn): proc_wait() reaps it */
	bool did_exec;	   /* has called execve since its fork (setpgid's EACCES) */
	/*
	 * vfork (CLONE_VFORK): the parent sleeps until the child execs or
	 * ends. With CLONE_VM the child runs in the parent's address space
	 * meanwhile: its mm is the parent's, handed back (mm_borrowed).
	 */
	bool vfork_waiting;	   /* the parent, until its child releases it */
	struct proc *vfork_parent; /* the child, until it execs or ends */
	bool mm_borrowed;	   /* the child's mm is vfork_parent's */
	/* CPU time, ns on the TSC (kernel/sched/user.c) */
	u64 utime_ns, stime_ns;
	u64 cutime_ns, cstime_ns; /* of waited-for children */
	u64 stamp_ns;		  /* when the running mode was last charged */
	bool in_user;		  /* in ring 3 (not in a system call) */
	u64 start_ns;		  /* ktime when it was made: starttime */
	u32 minflt;		  /* pages filled on first touch */
	int exit_status;	  /* as wait() reports it */
	/* the FPU/SSE registers while switched out (FXSAVE area) */
	u8 fpu[512] __attribute__((aligned(16)));
};

/* The process the current thread runs, or NULL for a kernel thread. */
struct proc *proc_current(void);
struct proc *proc_find(int pid);
/* The pid most recently handed out (forks and spawns since boot). */
int proc_last_pid(void);
/* Live and zombie processes, by pid; returns how many. */
unsigned int proc_list(struct proc **out, unsigned int max);

/*
 * A free slot, zeroed, RUNNING, with a new pid (its pgid and sid too);
 * NULL when the table is full. Give it back with proc_free() if it
 * never runs.
 */
struct proc *proc_alloc(void);
void proc_free(struct proc *p);
/* The slot number of p, 0 to PROC_MAX - 1. */
unsigned int proc_index(const struct proc *p);

/*
 * The thread's switch into p before its first return to ring 3 (start or
 * fork): p becomes current's, its space, TLS, FPU and kernel stack are
 * loaded, its CPU time starts. Interrupts off.
 */
void proc_enter(struct proc *p);

/*
 * Starts the program at path with argv and envp (NULL-terminated) as a
 * new process of its own thread. Returns its pid, or a negated errno with
 * one line saying why.
 */
int proc_spawn(const char *path, const char *const *argv, const char *const *envp);
/* Waits for pid (one proc_spawn() started) to end, reaps it, returns its wait status (or -ECHILD). */
int proc_wait(int pid);

/* One line: "who: exited with status N" or "who: killed by signal N (SIGNAME)". */
void proc_report_status(const char *who, int status);

/*
 * Ends the current process with a wait status (exit or signal): its files
 * and memory go, its children pass to init, its parent gets exit_signal
 * and may reap it (kernel/proc/exit.c). Never returns.
 */
_Noreturn void proc_exit(int wait_status);

/*
 * The current process stops using its address space (exec, exit): a vfork
 * child hands it back to its parent and wakes it, any other frees it
 * (kernel/proc/fork.c).
 */
void proc_release_mm(struct proc *p);

/* Wait statuses, as <sys/wait.h> decodes them. */
#define W_EXITCODE(code) (((code)&0xff) << 8)
#define W_SIGNALED(sig)	 ((sig)&0x7f)
#define W_COREDUMP	 0x80 /* never set: no core file is ever written */

/*
 * Sets one of p's TLS descriptors from the struct user_desc at uinfo in
 * the current process's memory, as set_thread_area does (kernel/sched/tls.c;
 * the descriptor is loaded when p runs). can_allocate lets entry_number -1
 * pick a free slot, written back to uinfo; clone's CLONE_SETTLS may not.
 * f: the frame that returns p to ring 3, whose segment registers naming a
 * slot just emptied become null (Linux's fixup), or NULL. 0, -EFAULT,
 * -EINVAL or -ESRCH (no free slot).
 */
struct irq_frame;
long tls_set(struct proc *p, u32 uinfo, bool can_allocate, struct irq_frame *f);

/* The CPU time of p up to now, in ns. */
void proc_cputime_ns(struct proc *p, u64 *utime, u64 *stime);

/* Boot, before the first process: fork's page sharing. After clock_init(). */
void proc_init(void);

#endif
