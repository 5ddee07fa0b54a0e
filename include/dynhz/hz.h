/* SPDX-License-Identifier: MIT */
/*
 * HZ, the requested tick rate, and USER_HZ, the rate user space sees.
 *
 * Three builds from the same sources:
 *  - variable (default): HZ reads a variable written once at boot, so a
 *    static initializer that uses HZ does not compile (and should not:
 *    nothing is known about HZ before boot);
 *  - constant (-DCONFIG_HZ=N): HZ is a literal and conversions fold; the
 *    constants are generated for the period of that HZ on one input clock
 *    (-DCONFIG_CLOCK_HZ, the PIT's 1193182 Hz by default), and hz setup
 *    panics on a device that reports any other;
 *  - debug (-DDYNHZ_DEBUG): like variable, but reading HZ before hz setup
 *    panics with the file and line of the read.
 */
#ifndef DYNHZ_HZ_H
#define DYNHZ_HZ_H

#include <dynhz/types.h>

#ifndef USER_HZ
#define USER_HZ 100 /* x86; the tests also build with 32 and 1024 */
#endif

#define DZ_HZ_MIN     19    /* the PIT's 16-bit divisor cannot go slower */
#define DZ_HZ_MAX     10000 /* beyond this the tick is all overhead */
#define DZ_HZ_DEFAULT 250

/*
 * <sys/param.h> defines HZ as 100, the old user-space tick (if HZ is not
 * defined yet): included after it, this one wins; included before, it
 * keeps this one.
 */
#ifdef HZ
#undef HZ
#endif

#if defined(CONFIG_HZ)
#if CONFIG_HZ < DZ_HZ_MIN || CONFIG_HZ > DZ_HZ_MAX
#error "CONFIG_HZ out of range 19..10000"
#endif
#define HZ ((unsigned int)CONFIG_HZ)
/* The clock the constant build's constants are for: the PIT's unless set. */
#ifndef CONFIG_CLOCK_HZ
#define CONFIG_CLOCK_HZ 1193182
#endif
#elif defined(DYNHZ_DEBUG)
#define HZ dz_hz_checked(__FILE__, __LINE__)
#else
#define HZ ((unsigned int)dz_hz_value)
#endif

/* Written by hz setup and dz_hz_retune(); read it through HZ, never write it. */
extern unsigned int dz_hz_value;
unsigned int dz_hz_checked(const char *file, int line);

/* Where the HZ in force came from (the `source=` of the boot report). */
enum dz_hz_source {
	DZ_HZ_SRC_DEFAULT,  /* no hz= given, or it was not a number */
	DZ_HZ_SRC_CMDLINE,  /* hz= as given */
	DZ_HZ_SRC_CLAMPED,  /* hz= out of range, the nearest bound used */
	DZ_HZ_SRC_CONSTANT, /* the constant build: CONFIG_HZ */
	DZ_HZ_SRC_RUNTIME,  /* changed since boot (dz_hz_retune()) */
};

/* The exact length of one jiffy, num/den seconds, as the device really ticks. */
struct dz_tick_period {
	u64 num;
	u64 den;
};

/* Everything hz setup decided, for reports and tests. */
struct dz_hz_state {
	bool ready;
	unsigned int hz; /* == HZ */
	enum dz_hz_source source;
	const char *device; /* clock-event device name */
	struct dz_tick_period period;
};

/* A copy of what hz setup decided (ready is false before it ran). */
struct dz_hz_state dz_hz_state_get(void);

/* The exact tick period of this boot ({0, 0} before hz setup). */
struct dz_tick_period dz_hz_period(void);

/* Where HZ came from. */
enum dz_hz_source dz_hz_source(void);

/*
 * Reads hz= (or HZ=; the last of either wins) from a kernel command line.
 * Stores the HZ to use in *hz and its source in *src; returns 0, -DZ_EINVAL
 * (bad number: default used) or -DZ_ERANGE (out of range: nearest bound
 * used), after printing one line that says what was used instead.
 * In the constant build any hz= other than CONFIG_HZ is reported in one
 * line and ignored (the return value still says whether it was valid).
 */
int dz_hz_parse(const char *cmdline, unsigned int *hz, enum dz_hz_source *src);

/*
 * Fixes HZ and the tick period for this boot: computes every conversion
 * constant and starts jiffies at INITIAL_JIFFIES. Panics on a period it
 * cannot convert exactly (a port bug, never user input).
 */
void dz_hz_setup(unsigned int hz, enum dz_hz_source src, struct dz_tick_period period,
		 const char *device);

/* Prints the readable setup report and the machine-readable `time:` line. */
void dz_hz_report(void);

const char *dz_hz_source_name(enum dz_hz_source src);

/* Tick length in picoseconds, rounded to nearest (for reports). */
u64 dz_tick_ps(struct dz_tick_period p);

#endif
