// SPDX-License-Identifier: MIT
/*
 * The processes the kernel starts itself (init, the shell's programs, the
 * self-tests'): a new process of its own thread, loaded from the root file
 * system, on the console; and the one line that tells how one ended. Fork
 * is fork.c, the end and wait exit.c.
 */
#include <kernel/proc.h>
#include <kernel/sched.h>
#include "exec.h"
#include <kernel/console.h>
#include <kernel/kernel.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/arch.h>
#include <kernel/timers.h>
#include <dynhz/timekeeping.h>
#include <dynhz/printk.h>

/* The process's first instructions: its thread enters ring 3 here. */
static void proc_thread(void *arg)
{
	struct proc *p = arg;

	local_irq_disable();
	proc_enter(p);
	if (p->pid == 1)
		dz_printk("exec: pid 1 (%s) entered at guest ns %llu\n", p->exe,
			  (unsigned long long)tsc_now_ns());
	arch_enter_user(p->start.eip, p->start.esp);
}

int proc_spawn(const char *path, const char *const *argv, const char *const *envp)
{
	struct proc *p = proc_alloc();
	int err;

	if (!p) {
		dz_printk("exec: %s: no free process slot\n", path);
		return -EAGAIN;
	}
	memcpy(p->cwd, "/", 2);
	p->kernel_reaps = true;
	p->exit_signal = SIGCHLD;
	p->umask = 022; /* as Linux's init_fs */
	p->start_ns = ktime_get_ns();
	fpu_init_state(p->fpu);
	signal_proc_init(p);
	itimer_proc_init(p);
	err = exec_load(p, path, argv, envp, &p->start, true);
	if (!err)
		err = files_open_console(&p->files);
	if (!err) {
		console_attach(p);
		p->thread = kthread_run(proc_thread, p, p->comm);
		if (!p->thread)
			err = -EAGAIN;
	}
	if (err) {
		files_close_all(&p->files);
		mm_destroy(&p->mm);
		proc_free(p);
		return err;
	}
	return p->pid;
}

static const char *signal_name(int sig)
{
	static const char *const names[] = {
		[SIGHUP] = "SIGHUP",   [SIGINT] = "SIGINT",	  [SIGQUIT] = "SIGQUIT",
		[SIGILL] = "SIGILL",   [SIGTRAP] = "SIGTRAP",	  [SIGABRT] = "SIGABRT",
		[SIGBUS] = "SIGBUS",   [SIGFPE] = "SIGFPE",	  [SIGKILL] = "SIGKILL",
		[SIGUSR1] = "SIGUSR1", [SIGSEGV] = "SIGSEGV",	  [SIGUSR2] = "SIGUSR2",
		[SIGPIPE] = "SIGPIPE", [SIGALRM] = "SIGALRM",	  [SIGTERM] = "SIGTERM",
		[SIGSYS] = "SIGSYS",   [SIGVTALRM] = "SIGVTALRM", [SIGPROF] = "SIGPROF",
	};

	return sig > 0 && sig < (int)ARRAY_SIZE(names) && names[sig] ? names[sig] : "signal";
}

void proc_report_status(const char *who, int status)
{
	if (status & 0x7f)
		dz_printk("%s: killed by signal %d (%s)\n", who, status & 0x7f,
			  signal_name(status & 0x7f));
	else
		dz_printk("%s: exited with status %d\n", who, (status >> 8) & 0xff);
}
