// SPDX-License-Identifier: MIT
/*
 * libFuzzer: every conversion of include/dynhz/jiffies.h against the tests'
 * exact reference arithmetic (tests/unit/ref.c). The input bytes are
 *
 *	0..1	HZ, little-endian, folded into 19..10000
 *	2	bit 0: the tick period (0: the PIT's divisor / 1193182 s,
 *		1: exactly 1/HZ s); bits 1..7: the conversion (beyond the
 *		last one: all of them)
 *	3	a right shift for the input, so that small inputs are as
 *		likely as large ones
 *	4..11	the input, little-endian
 *	12..19	a second input: the nanoseconds of a timespec64
 *
 * Missing bytes read as zero. Any difference aborts with the case.
 */
#include <stdio.h>
#include <stdlib.h>

#include <dynhz/dynhz.h>

#include "ref.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum conv_id {
	C_MS_TO_J,
	C_US_TO_J,
	C_NS_TO_J,
	C_J_TO_MS,
	C_J_TO_US,
	C_J_TO_NS,
	C_J64_TO_NS,
	C_J_TO_CLOCK,
	C_CLOCK_TO_J,
	C_USER_TO_KERNEL,
	C_TS_TO_J,
	C_COUNT
};

static const char *const conv_names[C_COUNT] = {
	[C_MS_TO_J] = "msecs_to_jiffies",      [C_US_TO_J] = "usecs_to_jiffies",
	[C_NS_TO_J] = "nsecs_to_jiffies",      [C_J_TO_MS] = "jiffies_to_msecs",
	[C_J_TO_US] = "jiffies_to_usecs",      [C_J_TO_NS] = "jiffies_to_nsecs",
	[C_J64_TO_NS] = "jiffies64_to_nsecs",  [C_J_TO_CLOCK] = "jiffies_to_clock_t",
	[C_CLOCK_TO_J] = "clock_t_to_jiffies", [C_USER_TO_KERNEL] = "user_to_kernel_hz",
	[C_TS_TO_J] = "timespec64_to_jiffies",
};

static u64 get_le(const uint8_t *data, size_t size, size_t at, size_t n)
{
	u64 v = 0;

	for (size_t i = 0; i < n; i++)
		if (at + i < size)
			v |= (u64)data[at + i] << (8 * i);
	return v;
}

static unsigned int cur_hz;
static bool cur_exact;

static struct dz_tick_period boot_for(unsigned int hz, bool exact)
{
	struct dz_tick_period t;

	if (exact) {
		t.num = 1;
		t.den = hz;
	} else {
		t = ref_pit_period(hz);
	}
	if (!dz_hz_state_get().ready || hz != cur_hz || exact != cur_exact) {
		dz_hz_setup(hz, DZ_HZ_SRC_CMDLINE, t, exact ? "exact" : "pit");
		cur_hz = hz;
		cur_exact = exact;
	}
	return t;
}

static void check(enum conv_id c, unsigned int hz, bool exact, u64 x, s64 nsec, u64 got, u64 want)
{
	char arg[64];

	if (got == want)
		return;
	if (c == C_TS_TO_J)
		snprintf(arg, sizeof(arg), "{ %lld s, %lld ns }", (long long)x, (long long)nsec);
	else
		snprintf(arg, sizeof(arg), "%llu", (unsigned long long)x);
	fprintf(stderr, "fuzz_conv: %s(%s) at HZ %u, %s tick: %llu, expected %llu\n", conv_names[c],
		arg, hz, exact ? "1/HZ" : "PIT", (unsigned long long)got, (unsigned long long)want);
	abort();
}

static void run(enum conv_id c, unsigned int hz, bool exact, struct dz_tick_period t, u64 x,
		s64 nsec)
{
	unsigned long ul = (unsigned long)x;
	unsigned int ui = (unsigned int)x;
	struct timespec64 ts;
	u64 got, want;

	switch (c) {
	case C_MS_TO_J:
		got = msecs_to_jiffies(ui);
		want = ref_ms_to_j(ui, t);
		break;
	case C_US_TO_J:
		got = usecs_to_jiffies(ui);
		want = ref_us_to_j(ui, t);
		break;
	case C_NS_TO_J:
		got = nsecs_to_jiffies(x);
		want = ref_ns_to_j(x, t);
		break;
	case C_J_TO_MS:
		got = jiffies_to_msecs(ul);
		want = ref_j_to_ms(ul, t);
		break;
	case C_J_TO_US:
		got = jiffies_to_usecs(ul);
		want = ref_j_to_us(ul, t);
		break;
	case C_J_TO_NS:
		got = jiffies_to_nsecs(ul);
		want = ref_j_to_ns(ul, t);
		break;
	case C_J64_TO_NS:
		got = jiffies64_to_nsecs(x);
		want = ref_j_to_ns(x, t);
		break;
	case C_J_TO_CLOCK:
		want = ref_j_to_clock(ul, t, USER_HZ);
		/*
		 * On 64-bit a result beyond 64 bits wraps (no range check,
		 * jiffies.h): out of the function's range, not compared.
		 */
		if (BITS_PER_LONG == 64 && want == U64_MAX)
			return;
		got = dz_uclock_ticks(jiffies_to_clock_t(ul));
		break;
	case C_CLOCK_TO_J:
		got = clock_t_to_jiffies(DZ_UCLOCK(ul));
		want = ref_clock_to_j(ul, t, USER_HZ);
		break;
	case C_USER_TO_KERNEL:
		got = user_to_kernel_hz(DZ_UCLOCK(ul));
		want = ref_clock_to_j(ul, t, USER_HZ);
		break;
	case C_TS_TO_J:
	default:
		ts.tv_sec = (s64)x;
		ts.tv_nsec = (long)nsec;
		got = timespec64_to_jiffies(&ts);
		want = ref_ts_to_j((s64)x, (long)nsec, t);
		break;
	}
	check(c, hz, exact, x, nsec, got, want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int hz =
		DZ_HZ_MIN + (unsigned int)(get_le(data, size, 0, 2) % (DZ_HZ_MAX - DZ_HZ_MIN + 1));
	unsigned int sel = (unsigned int)get_le(data, size, 2, 1);
	unsigned int shift = (unsigned int)get_le(data, size, 3, 1) % 64;
	u64 x = get_le(data, size, 4, 8) >> shift;
	s64 nsec = (s64)get_le(data, size, 12, 8);
	bool exact = sel & 1;
	unsigned int c = sel >> 1;
	struct dz_tick_period t;

	t = boot_for(hz, exact);
	if (c < C_COUNT) {
		run((enum conv_id)c, hz, exact, t, x, nsec);
	} else {
		for (c = 0; c < C_COUNT; c++)
			run((enum conv_id)c, hz, exact, t, x, nsec);
	}
	return 0;
}
