// SPDX-License-Identifier: MIT
/*
 * Processes (kernel/include/kernel/proc.h): the table, and their switch
 * (address space, TLS, FPU, kernel stack) when their threads run. A
 * process's life is kernel/proc/'s: its start (spawn.c), fork, exec, its
 * faults and its end.
 */
#include <kernel/proc.h>
#include <kernel/user.h>
#include <kernel/kernel.h>
#include <kernel/string.h>
#include <dynhz/port.h>

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
	mm_set_current(&p->mm);
	mm_activate(&p->mm);
	arch_set_tls(p->tls);
	fpu_restore(p->fpu);
	p->in_user = true;
	p->stamp_ns = tsc_now_ns();
	arch_set_kernel_stack(current->stack + THREAD_STACK_SIZE / 4);
	thread_doing("running a user program");
}

void proc_switch(struct thread *prev, struct thread *next)
{
	if (prev->proc)
		fpu_save(prev->proc->fpu);
	mm_set_current(next->proc ? &next->proc->mm : NULL);
	if (!next->proc)
		return;
	mm_activate(&next->proc->mm);
	arch_set_tls(next->proc->tls);
	fpu_restore(next->proc->fpu);
	/* Its interrupts from ring 3 use the top of its own kernel stack. */
	arch_set_kernel_stack(next->stack + THREAD_STACK_SIZE / 4);
}

void proc_cputime_ns(struct proc *p, u64 *utime, u64 *stime)
{
	user_acct_read(p, utime, stime);
}

void proc_init(void)
{
	page_refs_init(); /* fork's copy-on-write */
}
