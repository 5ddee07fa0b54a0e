/* SPDX-License-Identifier: MIT */
/*
 * What every room of the kernel may use: the boot command line's flags and
 * the TSC in nanoseconds. Inline over the arch contract, so that using
 * them makes no room call another.
 */
#ifndef KERNEL_KERNEL_H
#define KERNEL_KERNEL_H

#include <dynhz/types.h>
#include <dynhz/bootparam.h>
#include <kernel/arch.h>

/* Is the bare flag (or name=...) present on the boot command line? */
static inline bool cmdline_has(const char *name)
{
	const char *const names[] = { name, NULL };
	struct dz_param p;

	return dz_cmdline_find(boot_params.cmdline, names, &p);
}

/* Bytes that differ from boot to boot and call to call (AT_RANDOM, getrandom; kernel/sched/sys.c); not for keys. */
void get_random_bytes(u8 *buf, u32 len);

/* TSC nanoseconds now: the demo's, the shell's, the self-tests' and the accounting's clock. */
static inline u64 tsc_now_ns(void)
{
	return tsc_to_ns(rdtsc());
}

#endif
