/* SPDX-License-Identifier: MIT */
/*
 * The conversion benchmark: what the three kernels share.
 *
 * Each implementation lives in its own translation unit, so every one of
 * them gets its own copy of the static inline conversions, compiled with its
 * own flags:
 *	var	kern_dynhz.c, variable build: constants read from dz_tc
 *	const	kern_dynhz.c again, with -DCONFIG_HZ=250: constants are literals
 *	div	kern_div.c: the exact formula with a runtime division
 * Each one exports a loop per conversion that converts n inputs read from
 * memory and stores the results to memory (the caller folds them into a
 * volatile), so nothing can be folded or dropped. Storing instead of summing
 * leaves no dependency from one conversion to the next (and no accumulator
 * to spill) in the throughput modes.
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

/* Converts in[0..n-1] into out[0..n-1]. */
typedef void (*conv_loop_fn)(const void *in, u64 *out, size_t n);

/*
 * Three ways to run each conversion in a loop:
 *  - call: throughput, with the constants re-read from memory for every
 *    conversion as at a real call site (a compiler barrier in the loop stops
 *    the compiler from keeping them in registers);
 *  - hoisted: throughput, the compiler may keep the constants in registers
 *    across the loop: the best case of a tight loop over many conversions;
 *  - chain: latency, as call, but the address of each input depends on the
 *    previous result (i += result & zero, with zero a 0 the compiler cannot
 *    see), so conversions cannot overlap.
 */
enum conv_mode { MODE_CALL, MODE_HOISTED, MODE_CHAIN, MODE_COUNT };

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

/* The loop without a conversion (copies in to out), per mode. */
extern const conv_loop_fn conv_loop_only[MODE_COUNT];

/* 0, read once per loop: the chain mode's link from a result to the next input. */
extern volatile u64 conv_bench_zero;

/*
 * Stops the compiler from keeping anything read from memory in registers
 * across iterations: a variable build reloads its constants on every
 * conversion, and no loop can be vectorized. It emits no instruction.
 */
#define bench_barrier() __asm__ __volatile__("" ::: "memory")

#define CONV_BENCH_LOOP1(fname, type, call, barrier, chain)             \
	static void fname(const void *in_, u64 *restrict out, size_t n) \
	{                                                               \
		const type *in = in_;                                   \
		u64 zero = (chain) ? conv_bench_zero : 0;               \
                                                                        \
		for (size_t i = 0; i < n; i++) {                        \
			u64 r;                                          \
                                                                        \
			barrier;                                        \
			r = (u64)(call);                                \
			out[i] = r;                                     \
			if (chain)                                      \
				i += r & zero;                          \
		}                                                       \
	}

/*
 * Defines loop_##name, loop_##name##_hoisted and loop_##name##_chain around
 * `call` (an expression of in[i]); CONV_BENCH_SLOTS fills conv_impl.loop.
 */
#define CONV_BENCH_LOOP(name, type, call)                               \
	CONV_BENCH_LOOP1(loop_##name, type, call, bench_barrier(), 0)   \
	CONV_BENCH_LOOP1(loop_##name##_hoisted, type, call, (void)0, 0) \
	CONV_BENCH_LOOP1(loop_##name##_chain, type, call, bench_barrier(), 1)

#define CONV_BENCH_SLOT_CALL(name, type)    [CONV_##name] = loop_##name,
#define CONV_BENCH_SLOT_HOISTED(name, type) [CONV_##name] = loop_##name##_hoisted,
#define CONV_BENCH_SLOT_CHAIN(name, type)   [CONV_##name] = loop_##name##_chain,
#define CONV_BENCH_SLOTS                                                 \
	{                                                                \
		[MODE_CALL] = { CONV_LIST(CONV_BENCH_SLOT_CALL) },       \
		[MODE_HOISTED] = { CONV_LIST(CONV_BENCH_SLOT_HOISTED) }, \
		[MODE_CHAIN] = { CONV_LIST(CONV_BENCH_SLOT_CHAIN) },     \
	}

#endif
