// SPDX-License-Identifier: MIT
/*
 * Processes (kernel/include/kernel/proc.h): the table, their start as a
 * thread that drops to ring 3, their switch (address space, TLS, FPU)
 * and their faults. Fork is kernel/proc/fork.c, the end and wait kernel/proc/exit.c.
 */
#include <kernel/proc.h>
#include <kernel/exec.h>
#include <kernel/console.h>
#include <kernel/user.h>
#include <kernel/kernel.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/syscall.h>
#include <asm/usermode.h>
#include <asm/paging.h>
#include <asm/desc.h>
#include <asm/fpu.h>
#include <asm/cpu.h>
#include <asm/irq.h>
#include <dynhz/timekeeping.h>
#include <dynhz/printk.h>

static struct proc procs[PROC_MAX];
static int last_pid;

struct proc *proc_current(void)
{
	return current ? current->proc : NULL;
}

struct proc *proc_find(int pid)
{
	for (unsigned int i = 0; i < PROC_MAX; i++)
		if (procs[i].state != PROC_FREE && procs[i].pid == pid)
			return &procs[i];
	return NULL;
}

unsigned int proc_list(struct proc **out, unsigned int max)
{
	unsigned long flags = dz_irq_save();
	unsigned int n = 0;

	/* By pid: slots are reused, pids are not. */
	for (int pid = 0; n < max;) {
		struct proc *next = NULL;

		for (unsigned int i = 0; i < PROC_MAX; i++)
			if (procs[i].state != PROC_FREE && procs[i].pid > pid &&
			    (!next || procs[i].pid < next->pid))
				next = &procs[i];
		if (!next)
			break;
		out[n++] = next;
		pid = next->pid;
	}
	dz_irq_restore(flags);
	return n;
}

int proc_last_pid(void)
{
	return last_pid;
}

unsigned int proc_index(const struct proc *p)
{
	return (unsigned int)(p - procs);
}

struct proc *proc_alloc(void)
{
	unsigned long flags = dz_irq_save();
	struct proc *p = NULL;

	for (unsigned int i = 0; i < PROC_MAX && !p; i++)
		if (procs[i].state == PROC_FREE)
			p = &procs[i];
	if (p) {
		memset(p, 0, sizeof(*p));
		p->state = PROC_RUNNING;
		p->pid = p->pgid = p->sid = ++last_pid;
	}
	dz_irq_restore(flags);
	return p;
}

void proc_free(struct proc *p)
{
	unsigned long flags = dz_irq_save();

	p->state = PROC_FREE;
	dz_irq_restore(flags);
}

void proc_enter(struct proc *p)
{
	current->proc = p;
	mm_activate(&p->mm);
	gdt_set_tls(p->tls);
	fpu_restore(p->fpu);
	p->in_user = true;
	p->stamp_ns = tsc_now_ns();
	tss_set_esp0((u32)(uintptr_t)(current->stack + THREAD_STACK_SIZE / 4));
	thread_doing("running a user program");
}

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

void proc_switch(struct thread *prev, struct thread *next)
{
	if (prev->proc)
		fpu_save(prev->proc->fpu);
	if (!next->proc)
		return;
	mm_activate(&next->proc->mm);
	gdt_set_tls(next->proc->tls);
	fpu_restore(next->proc->fpu);
	/* Its interrupts from ring 3 use the top of its own kernel stack. */
	tss_set_esp0((u32)(uintptr_t)(next->stack + THREAD_STACK_SIZE / 4));
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

void proc_cputime_ns(struct proc *p, u64 *utime, u64 *stime)
{
	user_acct_read(p, utime, stime);
}

#define SEGV_MAPERR 1 /* siginfo codes: no mapping there */
#define SEGV_ACCERR 2 /* a mapping that forbids the access */

static const struct {
	u8 vector;
	u8 sig;
	const char *name;
} fault_signals[] = {
	{ 0, SIGFPE, "SIGFPE" },   { 1, SIGTRAP, "SIGTRAP" }, { 3, SIGTRAP, "SIGTRAP" },
	{ 4, SIGSEGV, "SIGSEGV" }, { 5, SIGSEGV, "SIGSEGV" }, { 6, SIGILL, "SIGILL" },
	{ 16, SIGFPE, "SIGFPE" },  { 17, SIGBUS, "SIGBUS" },  { 19, SIGFPE, "SIGFPE" },
};

/* What the page-fault error code says, for the one line. */
static const char *pf_cause(u32 err, u32 addr)
{
	if (addr < USER_START || addr >= USER_TOP)
		return (err & 2) ? "write to kernel memory" : "read of kernel memory";
	if (err & 1)
		return (err & 2) ? "write to a read-only page" : "access not allowed";
	return (err & 16)  ? "execute of unmapped memory"
	       : (err & 2) ? "write to unmapped memory"
			   : "read of unmapped memory";
}

/* A handler that will run for sig: caught and not blocked (else Linux's force_sig kills). */
static bool caught(const struct proc *p, int sig)
{
	return p->sig.action[sig - 1].handler > 1 && !(p->sig.blocked & (1ULL << (sig - 1)));
}

/*
 * An exception from ring 3. A page fault on an area's page not yet there
 * is filled and the program goes on; anything else is the program's bug:
 * its handler for the signal runs if it has one, else one line, then the
 * process ends as Linux's default action would end it.
 */
static bool user_fault(struct irq_frame *f, const char *name)
{
	struct proc *p = proc_current();
	int sig = SIGSEGV;
	const char *signame = "SIGSEGV";

	if (!p)
		return false; /* not a process after all: the kernel's report follows */
	if (f->vector == 14) {
		u32 addr = read_cr2();
		int err = -EFAULT;

		/* Not there yet, or a write to a page shared copy-on-write since a fork. */
		if (addr >= USER_START && addr < USER_TOP && (!(f->error & 1) || (f->error & 2)))
			err = mm_fault_in(&p->mm, addr, f->error & 2);
		if (!err) {
			p->minflt++;
			return true;
		}
		if (err == -ENOMEM) {
			/* As Linux's out-of-memory killer: SIGKILL, no core. */
			dz_printk("user: pid %d (%s) killed by SIGKILL: out of memory at address "
				  "0x%x\n",
				  p->pid, p->comm, (unsigned int)addr);
			local_irq_enable();
			proc_exit(W_SIGNALED(SIGKILL));
		}
		if (caught(p, SIGSEGV)) {
			signal_force(p, SIGSEGV, (f->error & 1) ? SEGV_ACCERR : SEGV_MAPERR, addr);
			return true;
		}
		dz_printk("user: pid %d (%s) killed by SIGSEGV: %s at address 0x%x, eip 0x%x\n",
			  p->pid, p->comm, pf_cause(f->error, addr), (unsigned int)addr,
			  (unsigned int)f->eip);
	} else {
		for (unsigned int i = 0; i < ARRAY_SIZE(fault_signals); i++)
			if (fault_signals[i].vector == f->vector) {
				sig = fault_signals[i].sig;
				signame = fault_signals[i].name;
			}
		if (caught(p, sig)) {
			signal_force(p, sig, 0, f->eip);
			return true;
		}
		dz_printk("user: pid %d (%s) killed by %s: exception %u (%s), error code 0x%x, "
			  "at eip 0x%x, esp 0x%x\n",
			  p->pid, p->comm, signame, (unsigned int)f->vector, name,
			  (unsigned int)f->error, (unsigned int)f->eip, (unsigned int)f->user_esp);
	}
	local_irq_enable();
	/* No core file can be written (a read-only root): no WCOREDUMP, as Linux's failed dump. */
	proc_exit(W_SIGNALED(sig));
}

static void user_return(struct irq_frame *f)
{
	if (proc_current())
		signal_return_to_user(f);
}

void proc_init(void)
{
	page_refs_init(); /* fork's copy-on-write */
	fpu_init();
	idt_allow_user(SYSCALL_VECTOR);
	irq_set_syscall_handler(syscall_handle);
	irq_set_user_return_hook(user_return);
	trap_set_user_fault_hook(user_fault);
}
