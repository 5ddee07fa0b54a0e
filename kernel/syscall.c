// SPDX-License-Identifier: MIT
/*
 * The system-call gate (kernel/syscall.h): from `int $0x80` (the arch's
 * syscall_handle() callback) to the handler the table names, with Linux's
 * registers and numbers. The table is made of every room's, each beside
 * the calls it dispatches (kernel/<room>/syscalls.h). Calls run in the
 * calling thread with interrupts on, so they may sleep; the time spent is
 * the process's system time.
 */
#include <kernel/syscall.h>
#include <kernel/proc.h>
#include <kernel/user.h>
#include <kernel/errno.h>
#include <kernel/retune.h>
#include <kernel/arch.h>
#include <dynhz/port.h>

#define NR_SYSCALLS 450

/* Every handler a table names (weak: one not built answers -ENOSYS). */
#define SYSCALL(nr, name) SYSCALL_PROTO(name) __attribute__((weak));
#include "syscalls.h"
#include "mm/syscalls.h"
#include "sched/syscalls.h"
#include "time/syscalls.h"
#include "fs/syscalls.h"
#include "proc/syscalls.h"
#undef SYSCALL

#define SYSCALL(nr, name) [nr] = sys_##name,
static const syscall_fn_t table[NR_SYSCALLS] = {
#include "syscalls.h"
#include "mm/syscalls.h"
#include "sched/syscalls.h"
#include "time/syscalls.h"
#include "fs/syscalls.h"
#include "proc/syscalls.h"
};
#undef SYSCALL

static struct syscall_stats stats;

void syscall_stats_read(struct syscall_stats *st)
{
	unsigned long flags = dz_irq_save();

	*st = stats;
	dz_irq_restore(flags);
}

void syscall_handle(struct irq_frame *f)
{
	struct proc *p = proc_current();
	struct syscall_args args = {
		{ f->ebx, f->ecx, f->edx, f->esi, f->edi, f->ebp },
		f,
	};
	u32 nr = f->eax;
	long ret;

	user_acct_enter_kernel(p);
	p->syscall_nr = (s32)nr; /* a call a signal interrupts may be made again */
	stats.calls++;
	if (nr < NR_SYSCALLS && table[nr]) {
		ret = table[nr](&args);
	} else if (nr == NR_DYNHZ_HZ) {
		ret = sys_dynhz_hz(&args); /* dynhz's own, above Linux's numbers */
	} else {
		stats.enosys++;
		ret = -ENOSYS;
	}
	/* sigreturn returns the EAX it restored, as Linux's does. */
	f->eax = (u32)ret;
	user_acct_exit_kernel(p);
}
