// SPDX-License-Identifier: MIT
/*
 * HZ changed at runtime, the kernel's side (see kernel/retune.h): the
 * dynhz_hz system call, the text interface the shell and /proc share,
 * and the history of changes that rebases a thread's jiffies count.
 */
#include <kernel/retune.h>
#include <kernel/errno.h>
#include <kernel/syscall.h>
#include <kernel/sched.h>
#include <dynhz/retune.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>

static struct dz_retune_info history[RETUNE_HISTORY];
u64 retune_hooks_tsc;

/*
 * At the boundary, interrupts off: what retune_rebase() needs later. The
 * first hook (registered at boot, before the scheduler's): where the
 * core's part of the change ends and the kernel's begins (retunebench).
 */
static void remember(const struct dz_retune_info *info)
{
	retune_hooks_tsc = rdtsc();
	history[info->generation % RETUNE_HISTORY] = *info;
}

/*
 * dz_hz_retune() waits for the next tick without spinning: other threads
 * run meanwhile, or the CPU halts. The caller stays runnable, so the CPU
 * is not idle and the tick it waits for is not stopped.
 */
static void retune_wait(void)
{
	sched_wait_interrupt();
}

void retune_init(void)
{
	dz_hz_retune_set_wait(retune_wait);
	if (dz_hz_retune_hook(remember))
		dz_printk("retune: no hook left, sleeps carried across a change are not rebased\n");
}

long retune_rebase(long timeout, u32 *gen)
{
	u32 now = dz_hz_generation(), g = *gen;

	*gen = now;
	if (timeout == MAX_SCHEDULE_TIMEOUT || timeout <= 0 || g == now)
		return timeout;
	/*
	 * More changes than remembered between two instructions of a thread
	 * cannot happen at 10000 Hz at most; the oldest remembered one stands in.
	 */
	if (now - g > RETUNE_HISTORY)
		g = now - RETUNE_HISTORY;
	while (g != now) {
		g++;
		timeout = (long)dz_retune_jiffies(&history[g % RETUNE_HISTORY],
						  (unsigned long)timeout);
	}
	return timeout;
}

#define HZ_TEXT_MAX 64 /* what the boot parameter's message shows of a value */

int hz_set_str(const char *s, u32 len)
{
	char buf[HZ_TEXT_MAX + 4];
	u32 i;

	/* Blanks around the number, as Linux's sysctls skip them (echo adds a newline). */
	while (len && (*s == ' ' || *s == '\t' || *s == '\n')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\n'))
		len--;
	for (i = 0; i < len && i < HZ_TEXT_MAX; i++)
		buf[i] = s[i];
	/* Longer than any number, so not one (Linux's sysctl: EINVAL); shown cut. */
	if (len > HZ_TEXT_MAX)
		for (int k = 0; k < 3; k++)
			buf[i++] = '.';
	buf[i] = '\0';
	return dz_hz_retune_str(buf);
}

/*
 * long dynhz_hz(unsigned int hz, unsigned int flags): Linux has no such
 * call (its HZ is built in); a power daemon's. hz 0 asks: the current HZ.
 * Otherwise HZ becomes hz at the next tick boundary: 0, or -ERANGE outside
 * 19..10000 (as hz=), -EINVAL for flags (none is defined, as Linux refuses
 * unknown flags) or a rate the device cannot make, -EPERM in the constant
 * build. Every id is root's here: no other permission check.
 */
long sys_dynhz_hz(const struct syscall_args *args)
{
	u32 hz = args->a[0], flags = args->a[1];

	if (flags)
		return -EINVAL;
	if (!hz)
		return (long)HZ;
	return dz_hz_retune(hz);
}
