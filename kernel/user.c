// SPDX-License-Identifier: MIT
/*
 * User tasks (see include/kernel/user.h): loading the program into the
 * user region, entering ring 3, CPU-time accounting, and the end of a
 * task, by exit or by a fault.
 */
#include <kernel/user.h>
#include <kernel/uapi.h>
#include <kernel/kernel.h>
#include <kernel/wait.h>
#include <kernel/string.h>
#include <asm/usermode.h>
#include <asm/desc.h>
#include <asm/cpu.h>
#include <asm/irq.h>
#include <dynhz/conv.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>

#define ARG_MAX 128

static struct user_task task; /* one user program at a time: one region */
static const char *task_arg;
static int next_pid = 1;
static DECLARE_WAIT_QUEUE_HEAD(task_wq);
/* User time of tasks that have ended, for the cpu line. */
static u64 ended_user_ns;
static struct dz_conv ns_to_clock;

dz_uclock_t nsecs_to_clock_t(u64 ns)
{
	return DZ_UCLOCK((unsigned long)dz_conv_wide(&ns_to_clock, ns));
}

/* Charges the time since the last stamp to the mode the task was in. */
static void charge(struct user_task *u, u64 now)
{
	u64 d = now - u->stamp_ns;

	if (u->in_user)
		u->utime_ns += d;
	else
		u->stime_ns += d;
	u->stamp_ns = now;
}

/*
 * Charges u up to now if it is running; a task switched out was charged
 * when it left, and the time since is not its own.
 */
static void charge_if_running(struct user_task *u, u64 now)
{
	if (current->user == u)
		charge(u, now);
}

/* Same instant as the scheduler's charge: a task's times never exceed its thread's. */
void user_acct_switch(struct thread *prev, struct thread *next, u64 now)
{
	if (prev->user)
		charge(prev->user, now);
	if (next->user) {
		next->user->stamp_ns = now;
		/* Its interrupts from ring 3 use the top of its own kernel stack. */
		tss_set_esp0((u32)(uintptr_t)(next->stack + THREAD_STACK_SIZE / 4));
	}
}

static void set_mode(struct user_task *u, bool in_user)
{
	unsigned long flags = dz_irq_save();

	charge(u, tsc_now_ns());
	u->in_user = in_user;
	dz_irq_restore(flags);
}

void user_acct_enter_kernel(struct user_task *u)
{
	set_mode(u, false);
}

void user_acct_exit_kernel(struct user_task *u)
{
	set_mode(u, true);
}

void user_times(struct user_task *u, dz_uclock_t *utime, dz_uclock_t *stime)
{
	unsigned long flags = dz_irq_save();

	charge_if_running(u, tsc_now_ns());
	*utime = nsecs_to_clock_t(u->utime_ns);
	*stime = nsecs_to_clock_t(u->stime_ns);
	dz_irq_restore(flags);
}

_Noreturn void user_task_end(bool killed, int status)
{
	struct user_task *u = current->user;

	local_irq_disable();
	charge(u, tsc_now_ns());
	ended_user_ns += u->utime_ns;
	u->killed = killed;
	u->status = status;
	u->done = true;
	current->user = NULL;
	wake_up(&task_wq);
	thread_exit();
}

/* An exception in ring 3: the program's bug. Report it, end the program, keep running. */
static void user_fault(struct irq_frame *f, const char *name)
{
	struct user_task *u = current->user;

	dz_printk("user: pid %d (%s) killed: exception %u (%s), error code 0x%x, at eip 0x%x, "
		  "esp 0x%x\n",
		  u ? u->pid : -1, u ? u->name : "?", (unsigned int)f->vector, name,
		  (unsigned int)f->error, (unsigned int)f->eip, (unsigned int)f->user_esp);
	if (!u)
		return; /* not a user task after all: the kernel's report follows */
	user_task_end(true, 0);
}

/* Copies the program and its argument into a cleared region; returns the initial esp. */
static u32 load_image(const char *arg)
{
	char *base = (char *)USER_BASE;
	size_t len = (size_t)(user_image_end - user_image_start);
	size_t alen = strlen(arg);
	u32 argp = USER_SIZE - ARG_MAX, sp;

	if (alen >= ARG_MAX)
		alen = ARG_MAX - 1;
	memset(base, 0, USER_SIZE);
	memcpy(base + UAPI_USER_LOAD, user_image_start, len);
	memcpy(base + argp, arg, alen);
	/* The stack: the argument pointer on top, where crt0 finds it. */
	sp = argp - 16;
	*(u32 *)(base + sp) = argp;
	return sp;
}

static void user_thread(void *arg)
{
	struct user_task *u = arg;
	u32 sp = load_image(task_arg);

	local_irq_disable();
	current->user = u;
	u->in_user = true;
	u->stamp_ns = tsc_now_ns();
	tss_set_esp0((u32)(uintptr_t)(current->stack + THREAD_STACK_SIZE / 4));
	thread_doing("running a user program");
	arch_enter_user(UAPI_USER_LOAD, sp);
}

int user_run(const char *name, const char *arg, int *status)
{
	memset(&task, 0, sizeof(task));
	task.pid = next_pid++;
	task.name = name;
	task_arg = arg;
	dz_printk("user: starting pid %d (%s %s)\n", task.pid, name, arg);
	task.thread = kthread_run(user_thread, &task, name);
	if (!task.thread) {
		dz_printk("user: no thread slot for %s\n", name);
		return -1;
	}
	wait_event(task_wq, task.done);
	if (task.killed)
		return -1;
	*status = task.status;
	dz_printk("user: pid %d (%s) exited with status %d\n", task.pid, name, task.status);
	return 0;
}

void cpu_times_read(struct cpu_times *ct)
{
	unsigned long flags = dz_irq_save();
	struct cpu_usage cu;

	sched_cpu_usage(&cu);
	charge_if_running(&task, cu.now_ns);
	/* One task at a time: the live one (if any) and those that ended. */
	ct->user_ns = ended_user_ns + (task.done ? 0 : task.utime_ns);
	/* A user task's kernel time is its thread's time outside ring 3. */
	ct->system_ns = cu.busy_ns - ct->user_ns;
	ct->idle_ns = cu.idle_ns;
	dz_irq_restore(flags);
}

void user_stat_print(void)
{
	struct thread *t[MAX_THREADS];
	unsigned int n = sched_threads(t, MAX_THREADS);
	struct cpu_times ct;

	for (unsigned int i = 0; i < n; i++) {
		dz_uclock_t ut, st;

		if (!t[i]->user)
			continue;
		user_times(t[i]->user, &ut, &st);
		dz_printk("user: pid %d (%s) utime %lu stime %lu\n", t[i]->user->pid,
			  t[i]->user->name, dz_uclock_ticks(ut), dz_uclock_ticks(st));
	}
	/*
	 * As /proc/stat: user nice system idle, in USER_HZ ticks, each rounded
	 * down from its own nanoseconds: each within a tick of exact.
	 */
	cpu_times_read(&ct);
	dz_printk("cpu  %lu 0 %lu %lu\n", dz_uclock_ticks(nsecs_to_clock_t(ct.user_ns)),
		  dz_uclock_ticks(nsecs_to_clock_t(ct.system_ns)),
		  dz_uclock_ticks(nsecs_to_clock_t(ct.idle_ns)));
}

void user_init(void)
{
	struct dz_rate ns = { NSEC_PER_SEC, 1 }, user = { USER_HZ, 1 };

	if (dz_conv_init(&ns_to_clock, ns, user, DZ_ROUND_DOWN, U64_MAX, ULONG_MAX, DZ_SHAPE_WIDE,
			 0))
		dz_panic("user: no exact nanoseconds-to-USER_HZ conversion");
	idt_allow_user(SYSCALL_VECTOR);
	irq_set_syscall_handler(syscall_handle);
	trap_set_user_fault_hook(user_fault);
}
