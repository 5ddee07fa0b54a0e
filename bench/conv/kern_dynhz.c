// SPDX-License-Identifier: MIT
/*
 * The dynhz conversions, exactly as a user of <dynhz/jiffies.h> calls them.
 * Built twice: as the variable build (conv_impl_var) and with -DCONFIG_HZ
 * as the constant build (conv_impl_const).
 */
#include <dynhz/hz.h>
#include <dynhz/jiffies.h>

#include "conv_bench.h"

#ifdef CONFIG_HZ
#define IMPL	  conv_impl_const
#define IMPL_NAME "const"
#else
#define IMPL	  conv_impl_var
#define IMPL_NAME "var"
#endif

CONV_BENCH_LOOP(msecs_to_jiffies, unsigned int, msecs_to_jiffies(in[i]))
CONV_BENCH_LOOP(usecs_to_jiffies, unsigned int, usecs_to_jiffies(in[i]))
CONV_BENCH_LOOP(nsecs_to_jiffies, u64, nsecs_to_jiffies(in[i]))
CONV_BENCH_LOOP(timespec64_to_jiffies, struct timespec64, timespec64_to_jiffies(&in[i]))
CONV_BENCH_LOOP(jiffies_to_msecs, unsigned long, jiffies_to_msecs(in[i]))
CONV_BENCH_LOOP(jiffies_to_usecs, unsigned long, jiffies_to_usecs(in[i]))
CONV_BENCH_LOOP(jiffies_to_nsecs, unsigned long, jiffies_to_nsecs(in[i]))
CONV_BENCH_LOOP(jiffies64_to_nsecs, u64, jiffies64_to_nsecs(in[i]))
CONV_BENCH_LOOP(jiffies_to_clock_t, unsigned long, dz_uclock_ticks(jiffies_to_clock_t(in[i])))
CONV_BENCH_LOOP(clock_t_to_jiffies, unsigned long, clock_t_to_jiffies(DZ_UCLOCK(in[i])))

static unsigned int impl_hz(void)
{
	return HZ;
}

static void impl_period(u64 *num, u64 *den)
{
#ifdef CONFIG_HZ
	*num = DZ_TC_PERIOD_NUM;
	*den = DZ_TC_PERIOD_DEN;
#else
	*num = dz_hz_period().num;
	*den = dz_hz_period().den;
#endif
}

const struct conv_impl IMPL = {
	.name = IMPL_NAME,
	.hz = impl_hz,
	.period = impl_period,
	.loop = CONV_BENCH_SLOTS,
};
