// SPDX-License-Identifier: MIT
/*
 * libFuzzer: any bytes as ftrace text, for the hzadvise reader
 * (tools/hzadvise/trace.c).
 *
 * Each line goes to hz_parse_line in a buffer of exactly its length (so
 * that reading past it is caught), and what comes back must hold
 * together: the return value agrees with the kind, an event has a known
 * type, in-range CPUs, only defined bits and a NUL-terminated function, a
 * malformed event says why; and the reading by the fields' position
 * (the fast one) comes to exactly what the reading of the fields one by
 * one (hz_parse_line_split) does. The same bytes then go through the reader
 * (hz_open on a memfd), whose outcome must be what the reader's rules
 * make of those lines, worked out here line by line: its counts, the bad
 * lines it skipped and the first of them it names, a cut last line; and
 * never an error (plain input has none: every line is read or skipped).
 * Inputs that start like gzip or xz are left to the line check: they
 * would start a decompressor per run.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../tools/hzadvise/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define LINE_MAX_LEN 65536

static void die(const char *what, const uint8_t *line, size_t len)
{
	fprintf(stderr, "fuzz_trace: %s; the line (%zu bytes): \"%.*s\"\n", what, len,
		(int)(len > 300 ? 300 : len), (const char *)line);
	abort();
}

static void check_event(const struct hz_event *ev, const uint8_t *line, size_t len)
{
	if (ev->type >= HZ_EV_TYPES)
		die("event type out of range", line, len);
	if (!memchr(ev->func, '\0', sizeof(ev->func)))
		die("func not NUL-terminated", line, len);
	if (!memchr(ev->comm, '\0', sizeof(ev->comm)))
		die("comm not NUL-terminated", line, len);
	if ((ev->type == HZ_EV_SCHED_SWITCH) && (ev->prev_pid < 0 || ev->next_pid < 0))
		die("a negative pid in sched_switch", line, len);
	if ((ev->type == HZ_EV_SCHED_WAKEUP || ev->type == HZ_EV_SCHED_WAKING) && ev->woken_pid < 0)
		die("a negative pid woken", line, len);
	if (ev->type != HZ_EV_SCHED_WAKEUP && ev->type != HZ_EV_SCHED_WAKING && ev->woken_pid)
		die("a pid woken in another event", line, len);
	if (ev->cpu > 4095 || ev->tcpu > 4095)
		die("cpu out of range", line, len);
	if (ev->has >> 8 || ev->tflags >> 3 || ev->hmode >> 4 || ev->ctx >> 2)
		die("undefined bits set", line, len);
	if (ev->tick != hz_is_tick_handler(ev->func))
		die("tick disagrees with hz_is_tick_handler", line, len);
	if (!(ev->has & HZ_HAS_PID) && ev->pid != -1)
		die("a pid without HZ_HAS_PID", line, len);
	if ((ev->has & HZ_HAS_PID) && ev->pid < 0)
		die("a negative pid", line, len);
}

/* The fast reading and the one by one reading: the same kind, why and event. */
static void same_reading(const char *copy, size_t len, int rc, enum hz_line_kind kind,
			 const char *why, const struct hz_event *ev)
{
	struct hz_event ev2;
	const char *why2 = "sentinel";
	enum hz_line_kind kind2;
	int rc2;

	memset(&ev2, 0, sizeof(ev2));
	rc2 = hz_parse_line_split(copy, len, &ev2, &kind2, &why2);
	if (rc2 != rc || kind2 != kind || (why != why2 && (!why || !why2 || strcmp(why, why2))))
		die("the fast reading and the split one disagree", (const uint8_t *)copy, len);
	if (rc && memcmp(ev, &ev2, sizeof(ev2)))
		die("the fast reading and the split one read different events",
		    (const uint8_t *)copy, len);
}

/* One line through hz_parse_line, from its own exactly sized copy. */
static enum hz_line_kind parse(const uint8_t *line, size_t len, struct hz_event *ev)
{
	char *copy = malloc(len ? len : 1);
	const char *why = "sentinel";
	enum hz_line_kind kind;
	int rc;

	if (!copy)
		abort();
	memcpy(copy, line, len);
	memset(ev, 0, sizeof(*ev));
	rc = hz_parse_line(copy, len, ev, &kind, &why);
	same_reading(copy, len, rc, kind, why, ev);
	free(copy);
	switch (kind) {
	case HZ_LINE_EVENT:
		if (rc != 1 || why)
			die("an event, but rc or why disagree", line, len);
		check_event(ev, line, len);
		break;
	case HZ_LINE_BAD:
		if (rc != -1 || !why || !*why || ev->type >= HZ_EV_TYPES)
			die("a bad line, but rc, why or type disagree", line, len);
		break;
	case HZ_LINE_COMMENT:
	case HZ_LINE_UNKNOWN:
		if (rc != 0 || why)
			die("not an event, but rc or why disagree", line, len);
		break;
	default:
		die("kind out of range", line, len);
	}
	return kind;
}

/* What the reader must make of the input, by its rules. */
struct expect {
	uint64_t first_bad; /* the first bad line's number, 0: none */
	uint64_t bad;
	bool truncated;
	uint64_t events, comments, unknown;
	uint64_t by_type[HZ_EV_TYPES];
};

static bool control(const uint8_t *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((s[i] < 0x20 && s[i] != '\t' && s[i] != '\r') || s[i] == 0x7f)
			return true;
	return false;
}

static void bad_line(struct expect *x, uint64_t n)
{
	if (!x->bad++)
		x->first_bad = n;
}

/* One line by the reader's rules. */
static void expect_line(struct expect *x, uint64_t n, const uint8_t *line, size_t len, bool nl)
{
	struct hz_event ev;
	enum hz_line_kind kind;

	if (len > LINE_MAX_LEN || memchr(line, '\0', len)) {
		/* the reader parses such a line no more; each line is still checked here */
		if (len <= LINE_MAX_LEN)
			parse(line, len, &ev);
		bad_line(x, n);
		return;
	}
	kind = parse(line, len, &ev);
	if (!nl && kind != HZ_LINE_EVENT) {
		x->truncated = true;
		return;
	}
	if (kind == HZ_LINE_BAD || (kind != HZ_LINE_EVENT && control(line, len))) {
		bad_line(x, n);
		return;
	}
	if (kind == HZ_LINE_EVENT) {
		x->events++;
		x->by_type[ev.type]++;
	} else if (kind == HZ_LINE_COMMENT) {
		x->comments++;
	} else {
		x->unknown++;
	}
}

static void expect_all(const uint8_t *data, size_t size, struct expect *x)
{
	uint64_t n = 0;
	size_t pos = 0;

	memset(x, 0, sizeof(*x));
	while (pos < size) {
		const uint8_t *nl = memchr(data + pos, '\n', size - pos);
		size_t len = nl ? (size_t)(nl - (data + pos)) : size - pos;

		expect_line(x, ++n, data + pos, len, nl);
		pos += len + 1;
	}
}

static bool compressed_magic(const uint8_t *d, size_t n)
{
	return (n >= 2 && d[0] == 0x1f && d[1] == 0x8b) ||
	       (n >= 6 && !memcmp(d, "\xfd\x37\x7a\x58\x5a\x00", 6));
}

static void reader_fail(const char *what, const struct expect *x, const char *err)
{
	fprintf(stderr,
		"fuzz_trace: reader: %s (expected %" PRIu64 " bad, the first line %" PRIu64
		"; got \"%s\")\n",
		what, x->bad, x->first_bad, err);
	abort();
}

static void check_reader(const uint8_t *data, size_t size, const struct expect *x)
{
	char path[64], err[400], want[32];
	int fd = memfd_create("fuzz_trace", MFD_CLOEXEC);
	struct hz_reader *r;
	const struct hz_reader_stats *st;
	struct hz_event ev;
	int rc;

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	r = hz_open(path, err, sizeof(err));
	if (!r)
		reader_fail("hz_open failed", x, err);
	while ((rc = hz_next(r, &ev)) == 1)
		check_event(&ev, (const uint8_t *)"(from the reader)", 17);
	st = hz_stats(r);
	if (rc != 0)
		reader_fail("an error", x, hz_error(r));
	if (st->bad != x->bad || st->truncated != x->truncated)
		reader_fail("bad lines or truncation differ", x, st->first_bad);
	snprintf(want, sizeof(want), "line %" PRIu64 ": ", x->first_bad);
	if (x->bad && (strncmp(st->first_bad, want, strlen(want)) || strchr(st->first_bad, '\n')))
		reader_fail("the first bad line is another", x, st->first_bad);
	if (st->events != x->events || st->comments != x->comments || st->unknown != x->unknown ||
	    memcmp(st->by_type, x->by_type, sizeof(x->by_type)))
		reader_fail("counts differ", x, st->first_bad);
	if (hz_close(r))
		reader_fail("hz_close reported a failure", x, "");
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct expect x;

	expect_all(data, size, &x);
	if (!compressed_magic(data, size))
		check_reader(data, size, &x);
	return 0;
}
