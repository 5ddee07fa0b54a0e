// SPDX-License-Identifier: MIT
/*
 * The TSC as the clocksource. Its rate is not announced anywhere we can
 * trust on every CPU, so it is measured against the PIT's crystal (see
 * pit_calibrate()) and rounded to kHz, as the measurement is not better
 * than that on real hardware; under QEMU with -icount the TSC runs at
 * exactly 1 GHz and we find exactly that.
 */
#include <kernel/arch.h>
#include <asm/tsc.h>
#include <asm/i8254.h>
#include <dynhz/clocksource.h>
#include <dynhz/printk.h>
#include <dynhz/time64.h>
#include <dynhz/conv.h>

static u64 tsc_rate;
/* ns = cycles * ns_mult >> 32, good for the measurements we make */
static u64 ns_mult;

static u64 tsc_read(struct clocksource *cs)
{
	(void)cs;
	return rdtsc();
}

static struct clocksource tsc_clocksource = {
	.name = "tsc",
	.read = tsc_read,
	.mask = U64_MAX,
};

static u64 tsc_sample(void)
{
	return rdtsc();
}

u64 tsc_hz(void)
{
	return tsc_rate;
}

u64 tsc_to_ns(u64 cycles)
{
	u64 hi, lo = dz_mul64(cycles, ns_mult, &hi);

	return (hi << 32) | (lo >> 32);
}

u64 tsc_init(void)
{
	u64 khz, start = rdtsc();

	tsc_rate = pit_calibrate(tsc_sample, false);
	khz = tsc_rate / 1000;
	ns_mult = ((NSEC_PER_SEC << 32) + tsc_rate / 2) / tsc_rate;
	/* The boot waits for the PIT meanwhile: say how long (bench/syscall). */
	dz_printk("tsc: %llu.%03llu MHz, calibrated against the PIT in %llu us\n",
		  (unsigned long long)(khz / 1000), (unsigned long long)(khz % 1000),
		  (unsigned long long)(tsc_to_ns(rdtsc() - start) / 1000));
	clocksource_register_hz(&tsc_clocksource, tsc_rate);
	return tsc_rate;
}
