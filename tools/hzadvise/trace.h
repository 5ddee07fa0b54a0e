/* SPDX-License-Identifier: MIT */
/*
 * hzadvise: reading ftrace text. One event per line, as `trace`,
 * `trace_pipe` and `trace-cmd report` print the timer: events, for kernels
 * old and new. The reader streams: it holds one line at a time.
 */
#ifndef HZADVISE_TRACE_H
#define HZADVISE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum hz_ev_type {
	HZ_EV_TIMER_START,
	HZ_EV_TIMER_CANCEL,
	HZ_EV_TIMER_EXPIRE, /* timer_expire_entry */
	HZ_EV_HRTIMER_START,
	HZ_EV_HRTIMER_CANCEL,
	HZ_EV_HRTIMER_EXPIRE, /* hrtimer_expire_entry */
	HZ_EV_TICK_STOP,
	HZ_EV_SCHED_SWITCH, /* sched:sched_switch: busy and idle */
	HZ_EV_CPU_IDLE,	    /* power:cpu_idle */
	HZ_EV_SCHED_WAKEUP, /* sched:sched_wakeup: a task made runnable */
	HZ_EV_SCHED_WAKING, /* sched:sched_waking: the same, logged by the waker */
	HZ_EV_TYPES
};

/* Which fields a line had (older kernels lack some). */
#define HZ_HAS_TIMEOUT (1U << 0) /* timer_start [timeout=N] */
#define HZ_HAS_BUCKET  (1U << 1) /* timer_start bucket_expiry= */
#define HZ_HAS_TCPU    (1U << 2) /* timer_start cpu= */
#define HZ_HAS_MODE    (1U << 3) /* hrtimer_start mode= */
#define HZ_HAS_SOFT    (1U << 4) /* hrtimer_start softexpires= */
#define HZ_HAS_BASECLK (1U << 5) /* timer_expire_entry baseclk= */
#define HZ_HAS_PID     (1U << 6) /* the task column had a pid */
#define HZ_HAS_CONTEXT (1U << 7) /* the irq-info column (d.h1.) was there */

/* timer_start flags= (Linux's TIMER_* names) */
#define HZ_TF_DEFERRABLE (1U << 0) /* D */
#define HZ_TF_PINNED	 (1U << 1) /* P */
#define HZ_TF_IRQSAFE	 (1U << 2) /* I */

/* hrtimer_start mode= */
#define HZ_HM_REL    (1U << 0) /* REL (else ABS) */
#define HZ_HM_PINNED (1U << 1)
#define HZ_HM_SOFT   (1U << 2)
#define HZ_HM_HARD   (1U << 3)

/* Context from the irq-info column: where the event was logged. */
#define HZ_CTX_HARDIRQ (1U << 0) /* h or H */
#define HZ_CTX_SOFTIRQ (1U << 1) /* s or H... as ftrace prints them */

struct hz_event {
	uint64_t ts_ns;	      /* the timestamp column, in ns */
	uint64_t id;	      /* timer= / hrtimer= (the hashed pointer's value) */
	uint64_t expires;     /* timer_start: jiffies; hrtimer_start: ns of its clock */
	uint64_t softexpires; /* hrtimer_start */
	uint64_t now;	      /* *_expire_entry: jiffies (timer) or ns (hrtimer) */
	uint64_t bucket;      /* timer_start bucket_expiry= */
	uint64_t baseclk;     /* timer_expire_entry baseclk= */
	int64_t timeout;      /* timer_start [timeout=N]: expires - jiffies at the start */
	int32_t pid;	      /* the task column's pid: 0 is the idle task; -1 unknown */
	uint32_t cpu;	      /* the [NNN] column: the CPU that logged the event */
	uint32_t tcpu;	      /* timer_start cpu=: the CPU whose wheel holds it (else cpu) */
	uint32_t has;	      /* HZ_HAS_* */
	uint32_t tflags;      /* HZ_TF_* */
	uint32_t hmode;	      /* HZ_HM_* */
	uint32_t ctx;	      /* HZ_CTX_* */
	uint8_t type;	      /* enum hz_ev_type */
	bool tick;	      /* the function is the tick's own handler (any kernel's name) */
	bool success;	      /* tick_stop success= */
	int32_t prev_pid;     /* sched_switch prev_pid= */
	int32_t next_pid;     /* sched_switch next_pid= */
	int32_t woken_pid;    /* sched_wakeup, sched_waking pid=: the task woken */
	uint32_t state;	      /* cpu_idle state= (4294967295: the exit) */
	char func[48];	      /* function=, truncated; "" for cancels and tick_stop */
	char comm[16];	      /* the task column's name, without "-PID", truncated */
};

#define HZ_IDLE_EXIT 4294967295U /* cpu_idle state= of an idle exit (PWR_EVENT_EXIT) */

/* What kind of text the reader found (from the header or the lines). */
enum hz_format { HZ_FMT_UNKNOWN, HZ_FMT_TRACE, HZ_FMT_TRACE_PIPE, HZ_FMT_TRACE_CMD };

struct hz_reader_stats {
	uint64_t lines;	     /* lines read */
	uint64_t events;     /* timer events parsed */
	uint64_t unknown;    /* lines that were neither an event we know, a comment nor a header */
	uint64_t comments;   /* '#' lines and trace-cmd headers */
	uint64_t bad;	     /* lines skipped as malformed: a known event that does not parse,
			      binary or control bytes, longer than 64 KiB */
	bool truncated;	     /* the last line had no newline and was not a whole event: skipped */
	char first_bad[240]; /* "line N: why: the line's start", the first bad line */
	uint64_t by_type[HZ_EV_TYPES];
	enum hz_format format;
	uint32_t max_cpu; /* highest CPU seen */
	/*
	 * What the recorder's first line ("# hzadvise record: ... cpuidle=D/N")
	 * says of the machine's cpuidle: N idle states of driver D ("none/0"
	 * without a driver); -1 when no line says.
	 */
	int cpuidle_states;
	char cpuidle_driver[32];
};

struct hz_reader;

/*
 * Opens path ("-" is stdin). Compressed input (.gz, .xz, or by its magic
 * bytes) is read through gzip -dc / xz -dc. Returns NULL with a one-line
 * message in err on failure.
 */
struct hz_reader *hz_open(const char *path, char *err, size_t errlen);

/*
 * The next event: 1 with *ev filled, 0 at the end of the input, -1 on an
 * error (a read error, a decompressor that failed): hz_error() is then one
 * line that names the line number. Unknown lines are counted and skipped;
 * bad lines (a known event whose fields do not parse, binary or control
 * bytes in a line that is not an event, a line longer than 64 KiB) are
 * skipped and counted, the first kept in the stats; a last line without
 * its newline is read if it is a whole event, else skipped (truncated).
 */
int hz_next(struct hz_reader *r, struct hz_event *ev);
const char *hz_error(const struct hz_reader *r);
/*
 * fn sees each line that is neither an event, a comment nor bad (a stack
 * trace's lines, say) before it is counted unknown; it returns true for a
 * line it knows, which is then not counted.
 */
void hz_on_other(struct hz_reader *r, bool (*fn)(void *arg, const char *line, size_t len),
		 void *arg);
const struct hz_reader_stats *hz_stats(const struct hz_reader *r);
/* Closes; returns nonzero if a decompressor failed (its message is in hz_error). */
int hz_close(struct hz_reader *r);

/*
 * One line without its newline (len bytes, not NUL-terminated), pure, for
 * the reader and the fuzz harness: 1 an event, 0 not an event (comment,
 * header, unknown: *kind says which), -1 a known event that does not parse
 * (why, one phrase, in *why).
 */
enum hz_line_kind { HZ_LINE_EVENT, HZ_LINE_COMMENT, HZ_LINE_UNKNOWN, HZ_LINE_BAD };
int hz_parse_line(const char *line, size_t len, struct hz_event *ev, enum hz_line_kind *kind,
		  const char **why);

/*
 * The same, reading the fields one by one only, never by their position:
 * for the fuzz harness, which holds the two readings to the same result.
 */
int hz_parse_line_split(const char *line, size_t len, struct hz_event *ev, enum hz_line_kind *kind,
			const char **why);

/* The tick's own hrtimer handler, under each name Linux gave it. */
bool hz_is_tick_handler(const char *func);

/*
 * n bytes at p zeroed, 64 at a time: for a struct cleared once a line or
 * once an event. gcc makes one memset of more than 64 bytes rep stos,
 * whose start-up cost a sixth of parse_line()'s time and a fifth of the
 * replay's start() (perf); 64-byte memsets are plain vector stores.
 */
static inline void hz_zero(void *p, size_t n)
{
	size_t i;

	for (i = 0; i + 64 <= n; i += 64)
		memset((char *)p + i, 0, 64);
	memset((char *)p + i, 0, n - i);
}

#endif
