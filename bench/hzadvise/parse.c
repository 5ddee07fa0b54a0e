// SPDX-License-Identifier: MIT
/*
 * bench/hzadvise/parse: the trace parser alone (tools/hzadvise/trace.c,
 * hz_parse_line()) over a trace held in memory, no read(2) and no first
 * pass: how much of the reading is the parsing. Prints the fastest of
 * PASSES passes, in ns a line, with the lines and the events it read (a
 * sum of their timestamps keeps the work from being optimized away).
 *
 * usage: parse TRACE [PASSES]   (TRACE: plain text)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace.h"

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* One pass: the lines of buf[0..n) parsed; the events counted, their timestamps summed. */
static uint64_t pass(const char *buf, size_t n, uint64_t *lines, uint64_t *events)
{
	const char *p = buf, *end = buf + n;
	uint64_t sum = 0;

	*lines = *events = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct hz_event ev;
		enum hz_line_kind kind;
		const char *why;

		if (!nl)
			nl = end;
		if (hz_parse_line(p, (size_t)(nl - p), &ev, &kind, &why) == 1) {
			sum += ev.ts_ns;
			(*events)++;
		}
		(*lines)++;
		p = nl + 1;
	}
	return sum;
}

int main(int argc, char **argv)
{
	FILE *f;
	char *buf;
	long n;
	int passes = argc > 2 ? atoi(argv[2]) : 10;
	double best = -1;
	uint64_t lines = 0, events = 0, sum = 0;

	if (argc < 2 || passes < 1) {
		fprintf(stderr, "usage: parse TRACE [PASSES]\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "parse: cannot read %s\n", argv[1]);
		return 1;
	}
	buf = malloc(n ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "parse: cannot read %s\n", argv[1]);
		return 1;
	}
	fclose(f);
	for (int i = 0; i < passes; i++) {
		double t0 = now_s(), t;

		sum += pass(buf, (size_t)n, &lines, &events);
		t = now_s() - t0;
		if (best < 0 || t < best)
			best = t;
	}
	printf("parse: %llu lines, %llu events, fastest of %d passes %.4f s: %.1f ns a line "
	       "(sum %llu)\n",
	       (unsigned long long)lines, (unsigned long long)events, passes, best,
	       lines ? best * 1e9 / (double)lines : 0, (unsigned long long)sum);
	free(buf);
	return 0;
}
