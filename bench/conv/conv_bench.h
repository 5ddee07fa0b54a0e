/* SPDX-License-Identifier: MIT */
/*
 * The conversion benchmark: what the three kernels share.
 *
 * Each implementation lives in its own translation unit, so every one of
 * them gets its own copy of the static inline conversions, compiled with its
 * own flags:
 *	var	kern_dynhz.c, variable build: constants read from dynhz_tc
 *	const	kern_dynhz.c again, with -DCONFIG_HZ=250: constants are literals
 *	div	kern_div.c: the exact formula with a runtime division
 * Each one exports a loop per conversion that converts n inputs read from
 * memory and returns the sum of the results (the caller stores it into a
 * volatile), so nothing can be folded or dropped.
 */
#ifndef CONV_BENCH_H
#define CONV_BENCH_H

#include <dynhz/types.h>
#include <dynhz/time64.h>

/* name, input element type */
#define CONV_LIST(X)                                \
	X(msecs_to_jiffies, unsigned int)           \
	X(usecs_to_jiffies, unsigned int)           \
	X(nsecs_to_jiffies, u64)                    \
	X(timespec64_to_jiffies, struct timespec64) \
	X(jiffies_to_msecs, unsigned long)          \
	X(jiffies_to_usecs, unsigned long)          \
	X(jiffies_to_nsecs, unsigned long)          \
	X(jiffies64_to_nsecs, u64)                  \
	X(jiffies_to_clock_t, unsigned long)        \
	X(clock_t_to_jiffies, unsigned long)

enum conv_id {
#define CONV_ENUM(name, type) CONV_##name,
	CONV_LIST(CONV_ENUM)
#undef CONV_ENUM
	CONV_COUNT
};

typedef u64 (*conv_loop_fn)(const void *in, size_t n);

/*
 * Two ways to call each conversion in a loop:
 *  - call: constants are re-read from memory for every conversion, as at a
 *    real call site (a compiler barrier in the loop stops the compiler from
 *    keeping them in registers);
 *  - hoisted: the compiler may keep them in registers across the loop, the
 *    best case of a tight loop over many conversions.
 */
enum conv_mode {
	MODE_CALL,
	MODE_HOISTED,
	MODE_COUNT
};

struct conv_impl {
	const char *name;
	/* The HZ and the exact tick period (num/den s) this kernel converts with. */
	unsigned int (*hz)(void);
	void (*period)(u64 *num, u64 *den);
	conv_loop_fn loop[MODE_COUNT][CONV_COUNT];
};

extern const struct conv_impl conv_impl_var, conv_impl_const, conv_impl_div;

/* The width of the baseline's product per conversion: 64 or 128 bits. */
extern const unsigned char conv_div_bits[CONV_COUNT];

/* The baseline's boot: its divisors, from the period dynhz_boot() chose. */
void conv_div_setup(void);

/* Loads the input, adds it to the sum: the loop without a conversion. */
u64 conv_loop_only(const void *in, size_t n);

/*
 * Stops the compiler from keeping anything read from memory in registers
 * across iterations: a variable build reloads its constants on every
 * conversion, and no loop can be vectorized. It emits no instruction.
 */
#define bench_barrier() __asm__ __volatile__("" ::: "memory")

#define CONV_BENCH_LOOP1(fname, type, call, barrier)       \
	static u64 fname(const void *in_, size_t n)        \
	{                                                  \
		const type *in = in_;                      \
		u64 acc = 0;                               \
                                                           \
		for (size_t i = 0; i < n; i++) {           \
			barrier;                           \
			acc += (u64)(call);                \
		}                                          \
		return acc;                                \
	}

/*
 * Defines loop_##name (MODE_CALL) and loop_##name##_hoisted (MODE_HOISTED)
 * around `call`; CONV_BENCH_SLOTS fills conv_impl.loop with them.
 */
#define CONV_BENCH_LOOP(name, type, call)                                \
	CONV_BENCH_LOOP1(loop_##name, type, call, bench_barrier())       \
	CONV_BENCH_LOOP1(loop_##name##_hoisted, type, call, (void)0)

#define CONV_BENCH_SLOT_CALL(name, type)    [CONV_##name] = loop_##name,
#define CONV_BENCH_SLOT_HOISTED(name, type) [CONV_##name] = loop_##name##_hoisted,
#define CONV_BENCH_SLOTS                                                      \
	{                                                                     \
		[MODE_CALL] = { CONV_LIST(CONV_BENCH_SLOT_CALL) },            \
		[MODE_HOISTED] = { CONV_LIST(CONV_BENCH_SLOT_HOISTED) },      \
	}

#endif
