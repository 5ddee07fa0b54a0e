// SPDX-License-Identifier: MIT
/*
 * System calls (kernel/uapi.h). They run in the calling thread with
 * interrupts on, so they may sleep. Every argument is checked before use:
 * a user pointer must lie wholly inside the user region (past the unused
 * first page), and the kernel reads and writes user memory only through
 * copy_from_user/copy_to_user, so no user input can make it fault.
 */
#include <kernel/user.h>
#include <kernel/uapi.h>
#include <kernel/string.h>
#include <asm/desc.h>
#include <asm/irq.h>
#include <asm/serial.h>
#include <dynhz/timekeeping.h>
#include <dynhz/port.h>

#define WRITE_CHUNK 128

static bool user_range_ok(u32 uaddr, u32 len)
{
	return uaddr >= UAPI_USER_LOAD && uaddr <= USER_SIZE && len <= USER_SIZE - uaddr;
}

static long copy_from_user(void *dst, u32 usrc, u32 len)
{
	if (!user_range_ok(usrc, len))
		return -UAPI_EFAULT;
	memcpy(dst, (const char *)USER_BASE + usrc, len);
	return 0;
}

static long copy_to_user(u32 udst, const void *src, u32 len)
{
	if (!user_range_ok(udst, len))
		return -UAPI_EFAULT;
	memcpy((char *)USER_BASE + udst, src, len);
	return 0;
}

static long sys_write(u32 fd, u32 ubuf, u32 len)
{
	char buf[WRITE_CHUNK];

	if (fd != 1 && fd != 2)
		return -UAPI_EBADF;
	if (!user_range_ok(ubuf, len))
		return -UAPI_EFAULT;
	for (u32 done = 0; done < len;) {
		u32 n = len - done < WRITE_CHUNK ? len - done : WRITE_CHUNK;

		copy_from_user(buf, ubuf + done, n);
		dz_port_console_write(buf, n);
		done += n;
	}
	return (long)len;
}

static long uptime_ticks(void)
{
	return (long)dz_uclock_ticks(nsecs_to_clock_t(ktime_get_ns()));
}

static long sys_times(u32 ubuf)
{
	struct uapi_tms t = { 0 };
	dz_uclock_t ut, st;

	user_times(current->user, &ut, &st);
	t.tms_utime = (long)dz_uclock_ticks(ut);
	t.tms_stime = (long)dz_uclock_ticks(st);
	if (ubuf && copy_to_user(ubuf, &t, sizeof(t)))
		return -UAPI_EFAULT;
	return uptime_ticks();
}

static long sys_clock_gettime(u32 id, u32 uts)
{
	struct uapi_timespec ts;
	u64 ns;

	if (id != UAPI_CLOCK_MONOTONIC && id != UAPI_CLOCK_BOOTTIME)
		return -UAPI_EINVAL;
	ns = ktime_get_ns();
	ts.tv_sec = (long)(ns / NSEC_PER_SEC);
	ts.tv_nsec = (long)(ns % NSEC_PER_SEC);
	return copy_to_user(uts, &ts, sizeof(ts));
}

/*
 * Sleeps in jiffies, then checks the clock that clock_gettime reads: the
 * sleep ends at the first tick at or after the asked time, never before.
 */
static long sys_nanosleep(u32 ureq, u32 urem)
{
	struct uapi_timespec req, zero = { 0, 0 };
	u64 end, now;

	if (copy_from_user(&req, ureq, sizeof(req)))
		return -UAPI_EFAULT;
	if (req.tv_sec < 0 || req.tv_nsec < 0 || req.tv_nsec >= (long)NSEC_PER_SEC)
		return -UAPI_EINVAL;
	if (urem && !user_range_ok(urem, sizeof(zero)))
		return -UAPI_EFAULT;
	end = ktime_get_ns() + (u64)req.tv_sec * NSEC_PER_SEC + (u64)req.tv_nsec;
	thread_doing("nanosleep");
	while ((now = ktime_get_ns()) < end)
		schedule_timeout_interruptible((long)nsecs_to_jiffies(end - now));
	thread_doing("running a user program");
	/* Nothing interrupts a sleep here: nothing remains. */
	return urem ? copy_to_user(urem, &zero, sizeof(zero)) : 0;
}

static long sys_sysconf(u32 name)
{
	return name == UAPI_SC_CLK_TCK ? (long)USER_HZ : -UAPI_EINVAL;
}

static long dispatch(u32 nr, u32 a, u32 b, u32 c)
{
	switch (nr) {
	case SYS_exit:
		user_task_end(false, (int)a);
	case SYS_write:
		return sys_write(a, b, c);
	case SYS_getpid:
		return current->user->pid;
	case SYS_times:
		return sys_times(a);
	case SYS_nanosleep:
		return sys_nanosleep(a, b);
	case SYS_clock_gettime:
		return sys_clock_gettime(a, b);
	case SYS_sysconf:
		return sys_sysconf(a);
	case SYS_uptime:
		return uptime_ticks();
	default:
		return -UAPI_ENOSYS;
	}
}

void syscall_handle(struct irq_frame *f)
{
	struct user_task *u = current->user;

	user_acct_enter_kernel(u);
	f->eax = (u32)dispatch(f->eax, f->ebx, f->ecx, f->edx);
	user_acct_exit_kernel(u);
}
