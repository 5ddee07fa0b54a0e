// SPDX-License-Identifier: MIT
/*
 * Boot-time HZ: read hz= from the command line, fix the tick period the
 * clock-event device really runs at, derive every constant that a classic
 * kernel computes at compile time, and report what was decided.
 */
#include <dynhz/hz.h>
#include "hz-internal.h"
#include <dynhz/jiffies.h>
#include <dynhz/bootparam.h>
#include <dynhz/errno.h>
#include <dynhz/printk.h>

#ifdef CONFIG_HZ
#define CONFIG_OR_DEFAULT_HZ  CONFIG_HZ
#define CONFIG_OR_DEFAULT_SRC DZ_HZ_SRC_CONSTANT
#else
#define CONFIG_OR_DEFAULT_HZ  DZ_HZ_DEFAULT
#define CONFIG_OR_DEFAULT_SRC DZ_HZ_SRC_DEFAULT
#endif

unsigned int dz_hz_value;
static struct dz_hz_state hz_state;

struct dz_hz_state dz_hz_state_get(void)
{
	return hz_state;
}

struct dz_tick_period dz_hz_period(void)
{
	return hz_state.period;
}

enum dz_hz_source dz_hz_source(void)
{
	return hz_state.source;
}

void dz_hz_forget(void)
{
	hz_state.ready = false;
}

unsigned int dz_hz_checked(const char *file, int line)
{
	if (unlikely(!hz_state.ready))
		dz_panic_at(file, line, "HZ read before hz setup");
	return dz_hz_value;
}

const char *dz_hz_source_name(enum dz_hz_source src)
{
	static const char *const names[] = { "default", "cmdline", "clamped", "constant",
					     "runtime" };

	return (unsigned int)src < ARRAY_SIZE(names) ? names[src] : "?";
}

int dz_hz_parse(const char *cmdline, unsigned int *hz, enum dz_hz_source *src)
{
	static const char *const names[] = { "hz", "HZ", NULL };
	struct dz_param p;
	unsigned long v;
	int err;

	if (!dz_cmdline_find(cmdline, names, &p)) {
		*hz = CONFIG_OR_DEFAULT_HZ;
		*src = CONFIG_OR_DEFAULT_SRC;
		return 0;
	}
#ifdef CONFIG_HZ
	/* One line for anything but the build's own HZ, bad values included. */
	char why[64];

	err = dz_param_uint_check(&p, DZ_HZ_MIN, DZ_HZ_MAX, DZ_HZ_DEFAULT, &v, why, sizeof(why));
	if (err || v != CONFIG_HZ) {
		dz_snprintf(why, sizeof(why), "HZ is fixed at %u in this build, ignored",
			    (unsigned int)CONFIG_HZ);
		dz_param_report(&p, why, NULL);
	}
	*hz = CONFIG_HZ;
	*src = DZ_HZ_SRC_CONSTANT;
#else
	err = dz_param_uint(&p, DZ_HZ_MIN, DZ_HZ_MAX, DZ_HZ_DEFAULT, &v);
	*hz = (unsigned int)v;
	*src = err == -DZ_EINVAL ? DZ_HZ_SRC_DEFAULT : err ? DZ_HZ_SRC_CLAMPED : DZ_HZ_SRC_CMDLINE;
#endif
	return err;
}

#ifndef CONFIG_HZ
/*
 * A best rational approximation of a period with a denominator of at most
 * 2^32, from its continued fraction: the last convergent inside the bound,
 * or the semiconvergent after it when that is nearer (2 t > a).
 */
static struct dz_tick_period period_fit(struct dz_tick_period p)
{
	const u64 lim = 1ULL << 32;
	u64 h0 = 0, h1 = 1, k0 = 1, k1 = 0, n = p.num, d = p.den;

	while (d) {
		u64 a = n / d, r = n - a * d;

		if (k1 && a > (lim - k0) / k1) {
			u64 t = (lim - k0) / k1;

			if (2 * t > a) {
				h1 = t * h1 + h0;
				k1 = t * k1 + k0;
			}
			break;
		}
		u64 h2 = a * h1 + h0, k2 = a * k1 + k0;

		h0 = h1, h1 = h2, k0 = k1, k1 = k2;
		n = d, d = r;
	}
	return (struct dz_tick_period){ h1, k1 };
}
#endif

void dz_hz_setup(unsigned int hz, enum dz_hz_source src, struct dz_tick_period period,
		 const char *device)
{
	DZ_BUG_ON(hz < DZ_HZ_MIN || hz > DZ_HZ_MAX || !period.num || !period.den);
#ifdef CONFIG_HZ
	/* The constants were generated for this period; any other would lie. */
	if (hz != CONFIG_HZ || period.num != DZ_TC_PERIOD_NUM || period.den != DZ_TC_PERIOD_DEN)
		dz_panic("constant build for HZ %u, period %llu/%llu s; asked for HZ %u, %llu/%llu "
			 "s",
			 (unsigned int)CONFIG_HZ, (unsigned long long)DZ_TC_PERIOD_NUM,
			 (unsigned long long)DZ_TC_PERIOD_DEN, hz, (unsigned long long)period.num,
			 (unsigned long long)period.den);
#else
	struct dz_timeconst *tc = dz_timeconst_next();

	if (dz_timeconst_build(tc, period) && period.den > 1ULL << 32) {
		/* A denominator too large for the fixed shapes: the nearest period one can serve. */
		struct dz_tick_period fit = period_fit(period);

		dz_printk(
			"hz: tick %llu/%llu s of %s taken as %llu/%llu s (denominator over 2^32)\n",
			(unsigned long long)period.num, (unsigned long long)period.den, device,
			(unsigned long long)fit.num, (unsigned long long)fit.den);
		period = fit;
	}
	if (dz_timeconst_build(tc, period))
		dz_panic("a tick of %llu/%llu s is outside what the conversions serve "
			 "(jiffy rates 1 Hz to 1 GHz)",
			 (unsigned long long)period.num, (unsigned long long)period.den);
	dz_timeconst_publish(tc);
#endif
	dz_hz_retune_boot();
	dz_hz_value = hz;
	hz_state.hz = hz;
	hz_state.source = src;
	hz_state.device = device;
	hz_state.period = period;
	hz_state.ready = true;
	jiffies_64 = (u64)INITIAL_JIFFIES;
	jiffies = INITIAL_JIFFIES;
}

u64 dz_tick_ps(struct dz_tick_period p)
{
	/* round(num * 10^12 / den) for any period (wider than 64 bits when it must). */
	struct dz_conv cv = {
		.p = 1000000000000ULL, .q = p.den, .c = p.den / 2, .max_in = U64_MAX, .sat = U64_MAX
	};

	return dz_conv_exact(&cv, p.num);
}

/* The actual rate's offset from HZ in parts per billion, signed. */
static s64 rate_error_ppb(unsigned int hz, struct dz_tick_period p)
{
	/* (den/num - hz) / hz * 1e9 = (den - hz * num) * 1e9 / (hz * num) */
	s64 diff = (s64)p.den - (s64)hz * (s64)p.num;
	s64 d = (s64)hz * (s64)p.num;
	s64 q = diff * 1000000000LL;

	return (q >= 0 ? q + d / 2 : q - d / 2) / d;
}

void dz_hz_report(void)
{
	const struct dz_hz_state *st = &hz_state;
	u64 ps = dz_tick_ps(st->period);
	/* actual rate in millihertz: den / num * 1000, rounded */
	u64 mhz = (st->period.den * 1000 + st->period.num / 2) / st->period.num;
	s64 ppb = rate_error_ppb(st->hz, st->period);
	u64 appb = (u64)(ppb < 0 ? -ppb : ppb);

	dz_printk("hz: HZ=%u (%s), USER_HZ=%u, clockevent %s\n", st->hz,
		  dz_hz_source_name(st->source), (unsigned int)USER_HZ, st->device);
	dz_printk("hz: tick = %llu/%llu s = %llu.%03llu ns, rate %llu.%03llu Hz (%c%llu.%03llu "
		  "ppm)\n",
		  (unsigned long long)st->period.num, (unsigned long long)st->period.den,
		  (unsigned long long)(ps / 1000), (unsigned long long)(ps % 1000),
		  (unsigned long long)(mhz / 1000), (unsigned long long)(mhz % 1000),
		  ppb < 0 ? '-' : '+', (unsigned long long)(appb / 1000),
		  (unsigned long long)(appb % 1000));
	dz_printk(
		"hz: msecs_to_jiffies(1000)=%lu jiffies_to_msecs(HZ)=%u jiffies_to_clock_t(HZ)=%lu "
		"user_to_kernel_hz(100)=%lu\n",
		msecs_to_jiffies(1000), jiffies_to_msecs(HZ),
		dz_uclock_ticks(jiffies_to_clock_t(HZ)), user_to_kernel_hz(DZ_UCLOCK(100)));
	dz_hz_report_time_line();
}

void dz_hz_report_time_line(void)
{
	const struct dz_hz_state *st = &hz_state;
	u64 ps = dz_tick_ps(st->period);

	dz_printk("time: hz=%u source=%s clockevent=%s tick_ns=%llu.%03llu user_hz=%u\n", st->hz,
		  dz_hz_source_name(st->source), st->device, (unsigned long long)(ps / 1000),
		  (unsigned long long)(ps % 1000), (unsigned int)USER_HZ);
}

void dz_hz_set_runtime(unsigned int hz, struct dz_tick_period period)
{
	dz_hz_value = hz;
	hz_state.hz = hz;
	hz_state.source = DZ_HZ_SRC_RUNTIME;
	hz_state.period = period;
}
