// SPDX-License-Identifier: MIT
/*
 * make check-long: msecs_to_jiffies over its whole 2^32 domain, and
 * jiffies_to_msecs over every 32-bit jiffies value, for several HZ.
 *
 * The reference is a model, not a formula: it walks x upwards keeping the
 * exact quotient and remainder of x * p / q by repeated subtraction, so it
 * shares no arithmetic with the multiply-and-shift under test.
 */
#include <stdio.h>
#include <stdlib.h>

#include <dynhz/dynhz.h>
#include <dynhz/host.h>
#include "ref.h"

struct walk {
	u64 quo, rem, p, q;
};

/* x -> x + 1: add p to the remainder and carry whole q into the quotient. */
static inline void step(struct walk *w)
{
	w->rem += w->p;
	while (w->rem >= w->q) {
		w->rem -= w->q;
		w->quo++;
	}
}

static u64 ceil_of(const struct walk *w, u64 sat)
{
	u64 v = w->quo + (w->rem != 0);

	return v > sat ? sat : v;
}

static unsigned long check_ms_to_j(struct dz_tick_period t)
{
	struct walk w = { 0, 0, t.den, 1000 * t.num };
	unsigned long bad = 0;

	for (u64 x = 0; x <= U32_MAX; x++, step(&w)) {
		u64 got = msecs_to_jiffies((unsigned int)x);

		if (got != ceil_of(&w, MAX_JIFFY_OFFSET) && bad++ < 5)
			printf("msecs_to_jiffies(%llu) = %llu, exact %llu\n", (unsigned long long)x,
			       (unsigned long long)got,
			       (unsigned long long)ceil_of(&w, MAX_JIFFY_OFFSET));
	}
	return bad;
}

static unsigned long check_j_to_ms(struct dz_tick_period t)
{
	struct walk w = { 0, 0, 1000 * t.num, t.den };
	unsigned long bad = 0;

	for (u64 x = 0; x <= U32_MAX; x++, step(&w)) {
		u64 got = jiffies_to_msecs((unsigned long)x);

		if (got != ceil_of(&w, U32_MAX) && bad++ < 5)
			printf("jiffies_to_msecs(%llu) = %llu, exact %llu\n", (unsigned long long)x,
			       (unsigned long long)got, (unsigned long long)ceil_of(&w, U32_MAX));
	}
	return bad;
}

int main(int argc, char **argv)
{
	unsigned long bad = 0;

	dynhz_host_set_quiet(true);
	for (int i = 1; i < argc; i++) {
		unsigned int hz = (unsigned int)atoi(argv[i]);
		struct dz_tick_period t = ref_pit_period(hz);
		unsigned long b;

		dz_hz_setup(hz, DZ_HZ_SRC_CMDLINE, t, "pit");
		b = check_ms_to_j(t) + check_j_to_ms(t);
		printf("HZ %5u: 2 x 2^32 inputs, %lu wrong\n", hz, b);
		fflush(stdout);
		bad += b;
	}
	return bad != 0;
}
