// SPDX-License-Identifier: MIT
/*
 * Ring 3 seen from the kernel, the arch's two callbacks for it
 * (<kernel/arch.h>): an exception a program raised (user_fault()), and
 * the way back to the program after any interrupt, exception or system
 * call (user_return()), where its pending signals are delivered and a
 * signal's default action may end it.
 */
#include <kernel/proc.h>
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <dynhz/printk.h>

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
bool user_fault(struct irq_frame *f, const char *name)
{
	struct proc *p = proc_current();
	int sig = SIGSEGV;
	const char *signame = "SIGSEGV";

	if (!p)
		return false; /* not a process after all: the kernel's report follows */
	if (f->vector == PAGE_FAULT_VECTOR) {
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

/* A kernel thread has no signals: signal_return_to_user() looks at the current process. */
void user_return(struct irq_frame *f)
{
	int sig = signal_return_to_user(f);

	if (unlikely(sig))
		proc_exit(W_SIGNALED(sig));
}
