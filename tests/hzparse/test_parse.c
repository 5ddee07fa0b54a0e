// SPDX-License-Identifier: MIT
/*
 * The ftrace text reader (tools/hzadvise/trace.c), case by case. Every
 * expected value is written out by hand from the line it belongs to, not
 * computed. Prints "pass NAME" or "fail NAME" per case, after the
 * case's problems (indented lines), for tests/hzparse/check.sh to record.
 *
 *   test_parse DIR          the cases; DIR is a scratch directory
 *   test_parse --count FILE the reader's counts for FILE, one line, for
 *                           the script to compare with grep's
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../tools/hzadvise/trace.h"

static const char *scratch;
static int problems;

static void problem(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void problem(int line, const char *fmt, ...)
{
	va_list ap;

	printf("  test_parse.c:%d: ", line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	problems++;
}

#define CHECK(cond, ...)                                \
	do {                                            \
		if (!(cond))                            \
			problem(__LINE__, __VA_ARGS__); \
	} while (0)

static void run(const char *name, void (*fn)(void))
{
	problems = 0;
	fn();
	printf("%s %s\n", problems ? "fail" : "pass", name);
	fflush(stdout);
}

/* ---- one line at a time ---- */

#define NOPID -1

struct line_case {
	const char *line;
	struct hz_event want; /* pid: NOPID when the line has none */
};

#define EQ(field, fmt)                                                                       \
	CHECK(got->field == want->field, "%s\n    " #field ": got " fmt ", want " fmt, line, \
	      got->field, want->field)

static void compare(const char *line, const struct hz_event *got, const struct hz_event *want)
{
	EQ(type, "%u");
	EQ(ts_ns, "%" PRIu64);
	EQ(id, "%#" PRIx64);
	EQ(expires, "%" PRIu64);
	EQ(softexpires, "%" PRIu64);
	EQ(now, "%" PRIu64);
	EQ(bucket, "%" PRIu64);
	EQ(baseclk, "%" PRIu64);
	EQ(timeout, "%" PRId64);
	EQ(pid, "%d");
	EQ(cpu, "%u");
	EQ(tcpu, "%u");
	EQ(has, "%#x");
	EQ(tflags, "%#x");
	EQ(hmode, "%#x");
	EQ(ctx, "%#x");
	EQ(tick, "%d");
	EQ(success, "%d");
	EQ(prev_pid, "%d");
	EQ(next_pid, "%d");
	EQ(woken_pid, "%d");
	CHECK(!strcmp(got->func, want->func), "%s\n    func: got \"%s\", want \"%s\"", line,
	      got->func, want->func);
}

static void check_events(const struct line_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct hz_event ev;
		enum hz_line_kind kind;
		const char *why = "unset";
		int rc = hz_parse_line(c[i].line, strlen(c[i].line), &ev, &kind, &why);

		CHECK(rc == 1 && kind == HZ_LINE_EVENT, "%s\n    rc %d kind %d why %s", c[i].line,
		      rc, kind, why ? why : "(null)");
		if (rc == 1)
			compare(c[i].line, &ev, &c[i].want);
		/* The fields one by one, never by position: the same event. */
		rc = hz_parse_line_split(c[i].line, strlen(c[i].line), &ev, &kind, &why);
		CHECK(rc == 1 && kind == HZ_LINE_EVENT, "%s\n    split: rc %d kind %d why %s",
		      c[i].line, rc, kind, why ? why : "(null)");
		if (rc == 1)
			compare(c[i].line, &ev, &c[i].want);
	}
}

#define C(l, ...)                   \
	{                           \
		l,                  \
		{                   \
			__VA_ARGS__ \
		}                   \
	}
#define NEW_START (HZ_HAS_TIMEOUT | HZ_HAS_BUCKET | HZ_HAS_TCPU)

/* Linux 6.18, trace_pipe, as tests/data/traces/ has them (some trimmed). */
static const struct line_case new_kernel[] = {
	C("     rcu_preempt-15      [000] d..1.  7065.971389: timer_start: timer=00000000460f5e0e "
	  "function=process_timeout expires=4296658718 [timeout=1] bucket_expiry=4296658719 cpu=0 "
	  "idx=31 flags=",
	  .type = HZ_EV_TIMER_START, .ts_ns = 7065971389000, .id = 0x460f5e0e,
	  .expires = 4296658718, .timeout = 1, .bucket = 4296658719, .pid = 15, .cpu = 0, .tcpu = 0,
	  .has = NEW_START | HZ_HAS_PID | HZ_HAS_CONTEXT, .func = "process_timeout"),
	C("    kworker/u8:2-37      [001] d..1.  7029.948634: timer_start: timer=000000008de61247 "
	  "function=delayed_work_timer_fn expires=4296650212 [timeout=-500] "
	  "bucket_expiry=4296650216 cpu=0 idx=125 flags=D|P|I",
	  .type = HZ_EV_TIMER_START, .ts_ns = 7029948634000, .id = 0x8de61247,
	  .expires = 4296650212, .timeout = -500, .bucket = 4296650216, .pid = 37, .cpu = 1,
	  .tcpu = 0, .has = NEW_START | HZ_HAS_PID | HZ_HAS_CONTEXT,
	  .tflags = HZ_TF_DEFERRABLE | HZ_TF_PINNED | HZ_TF_IRQSAFE,
	  .func = "delayed_work_timer_fn"),
	C("    task-12709   [000] d.s1.  7065.976507: timer_cancel: timer=00000000460f5e0e",
	  .type = HZ_EV_TIMER_CANCEL, .ts_ns = 7065976507000, .id = 0x460f5e0e, .pid = 12709,
	  .has = HZ_HAS_PID | HZ_HAS_CONTEXT, .ctx = HZ_CTX_SOFTIRQ),
	C("    task-12709   [000] ..s..  7065.976508: timer_expire_entry: timer=00000000460f5e0e "
	  "function=process_timeout now=4296658719 baseclk=4296658719",
	  .type = HZ_EV_TIMER_EXPIRE, .ts_ns = 7065976508000, .id = 0x460f5e0e, .now = 4296658719,
	  .baseclk = 4296658719, .pid = 12709, .has = HZ_HAS_BASECLK | HZ_HAS_PID | HZ_HAS_CONTEXT,
	  .ctx = HZ_CTX_SOFTIRQ, .func = "process_timeout"),
	C("          <idle>-0       [000] d..2.  7029.830233: hrtimer_start: "
	  "hrtimer=000000000a11d15c "
	  "function=tick_nohz_handler expires=7029816000000 softexpires=7029816000000 "
	  "mode=ABS|PINNED|HARD was_armed=1",
	  .type = HZ_EV_HRTIMER_START, .ts_ns = 7029830233000, .id = 0xa11d15c,
	  .expires = 7029816000000, .softexpires = 7029816000000, .pid = 0,
	  .has = HZ_HAS_MODE | HZ_HAS_SOFT | HZ_HAS_PID | HZ_HAS_CONTEXT,
	  .hmode = HZ_HM_PINNED | HZ_HM_HARD, .tick = true, .func = "tick_nohz_handler"),
	C("           task-12571   [001] d..1.  7029.727375: hrtimer_start: "
	  "hrtimer=00000000df1c617d "
	  "function=hrtimer_wakeup expires=7049698946274 softexpires=7049698896274 mode=REL "
	  "was_armed=0",
	  .type = HZ_EV_HRTIMER_START, .ts_ns = 7029727375000, .id = 0xdf1c617d,
	  .expires = 7049698946274, .softexpires = 7049698896274, .pid = 12571, .cpu = 1, .tcpu = 1,
	  .has = HZ_HAS_MODE | HZ_HAS_SOFT | HZ_HAS_PID | HZ_HAS_CONTEXT, .hmode = HZ_HM_REL,
	  .func = "hrtimer_wakeup"),
	C("          <idle>-0       [000] dN.2.  7029.930569: hrtimer_cancel: "
	  "hrtimer=000000000a11d15c",
	  .type = HZ_EV_HRTIMER_CANCEL, .ts_ns = 7029930569000, .id = 0xa11d15c, .pid = 0,
	  .has = HZ_HAS_PID | HZ_HAS_CONTEXT),
	C(" task-12710   [000] d.h..  7050.380494: hrtimer_expire_entry: hrtimer=000000000a11d15c "
	  "function=tick_nohz_handler now=7050352013766",
	  .type = HZ_EV_HRTIMER_EXPIRE, .ts_ns = 7050380494000, .id = 0xa11d15c,
	  .now = 7050352013766, .pid = 12710, .has = HZ_HAS_PID | HZ_HAS_CONTEXT,
	  .ctx = HZ_CTX_HARDIRQ, .tick = true, .func = "tick_nohz_handler"),
	C("          <idle>-0       [001] d.H1.  7029.788518: tick_stop: success=1 dependency=NONE",
	  .type = HZ_EV_TICK_STOP, .ts_ns = 7029788518000, .pid = 0, .cpu = 1, .tcpu = 1,
	  .has = HZ_HAS_PID | HZ_HAS_CONTEXT, .ctx = HZ_CTX_HARDIRQ | HZ_CTX_SOFTIRQ,
	  .success = true),
	C("          <idle>-0       [001] d..1.  7029.788518: tick_stop: success=0 "
	  "dependency=SCHED",
	  .type = HZ_EV_TICK_STOP, .ts_ns = 7029788518000, .pid = 0, .cpu = 1, .tcpu = 1,
	  .has = HZ_HAS_PID | HZ_HAS_CONTEXT),
	/* the wakeups: by the waker (waking), and as the task is queued (wakeup) */
	C("      hzworkload-90      [000] d..2.   812.000100: sched_waking: comm=hzw-udp pid=93 "
	  "prio=120 target_cpu=000",
	  .type = HZ_EV_SCHED_WAKING, .ts_ns = 812000100000, .pid = 90, .woken_pid = 93,
	  .has = HZ_HAS_PID | HZ_HAS_CONTEXT),
	C("          <idle>-0       [001] dNh4.   812.000101: sched_wakeup: comm=kworker/1:2 "
	  "pid=2147483647 prio=120 target_cpu=001",
	  .type = HZ_EV_SCHED_WAKEUP, .ts_ns = 812000101000, .pid = 0, .cpu = 1, .tcpu = 1,
	  .woken_pid = 2147483647, .has = HZ_HAS_PID | HZ_HAS_CONTEXT, .ctx = HZ_CTX_HARDIRQ),
	/* a comm with blanks: out of the fields' order, read one by one */
	C("      hzworkload-90      [000] d..2.   812.000102: sched_wakeup: comm=Web Content "
	  "pid=4321 prio=120 target_cpu=000",
	  .type = HZ_EV_SCHED_WAKEUP, .ts_ns = 812000102000, .pid = 90, .woken_pid = 4321,
	  .has = HZ_HAS_PID | HZ_HAS_CONTEXT),
	C("      hzworkload-90      [000] d..2.   812.000103: sched_switch: prev_comm=hzworkload "
	  "prev_pid=90 prev_prio=120 prev_state=S ==> next_comm=hzw-udp next_pid=93 "
	  "next_prio=120",
	  .type = HZ_EV_SCHED_SWITCH, .ts_ns = 812000103000, .pid = 90, .prev_pid = 90,
	  .next_pid = 93, .has = HZ_HAS_PID | HZ_HAS_CONTEXT),
};

/* Older kernels: fields that were not there yet, %pf, raw pointers. */
static const struct line_case old_kernel[] = {
	/* 4.8 to 5.9: no bucket_expiry=; 4-character irq-info */
	C("          <idle>-0     [001] d.s2   812.000123: timer_start: timer=ffff9a2b3c4d5e60 "
	  "function=delayed_work_timer_fn expires=4295095000 [timeout=250] cpu=1 idx=86 flags=D|I",
	  .type = HZ_EV_TIMER_START, .ts_ns = 812000123000, .id = 0xffff9a2b3c4d5e60,
	  .expires = 4295095000, .timeout = 250, .pid = 0, .cpu = 1, .tcpu = 1,
	  .has = HZ_HAS_TIMEOUT | HZ_HAS_TCPU | HZ_HAS_PID | HZ_HAS_CONTEXT, .ctx = HZ_CTX_SOFTIRQ,
	  .tflags = HZ_TF_DEFERRABLE | HZ_TF_IRQSAFE, .func = "delayed_work_timer_fn"),
	/* 4.2 to 4.7: flags= the raw word (deferrable is 0x00100000 then), no cpu= */
	C("            bash-1234  [000] d..1  1234.567890: timer_start: timer=ffff88003d2c1c00 "
	  "function=process_timeout expires=4295012345 [timeout=10] flags=0x00100001",
	  .type = HZ_EV_TIMER_START, .ts_ns = 1234567890000, .id = 0xffff88003d2c1c00,
	  .expires = 4295012345, .timeout = 10, .pid = 1234,
	  .has = HZ_HAS_TIMEOUT | HZ_HAS_PID | HZ_HAS_CONTEXT, .tflags = HZ_TF_DEFERRABLE,
	  .func = "process_timeout"),
	C("            bash-1234  [000] d..1  1234.567890: timer_start: timer=ffff88003d2c1c00 "
	  "function=process_timeout expires=4295012345 [timeout=10] flags=0x00200000",
	  .type = HZ_EV_TIMER_START, .ts_ns = 1234567890000, .id = 0xffff88003d2c1c00,
	  .expires = 4295012345, .timeout = 10, .pid = 1234,
	  .has = HZ_HAS_TIMEOUT | HZ_HAS_PID | HZ_HAS_CONTEXT, .tflags = HZ_TF_IRQSAFE,
	  .func = "process_timeout"),
	/* 3.x: no flags=, and no irq-info column */
	C("            bash-1234  [002]  1234.567890: timer_start: timer=ffff88003d2c1c00 "
	  "function=process_timeout expires=4295012345 [timeout=10]",
	  .type = HZ_EV_TIMER_START, .ts_ns = 1234567890000, .id = 0xffff88003d2c1c00,
	  .expires = 4295012345, .timeout = 10, .pid = 1234, .cpu = 2, .tcpu = 2,
	  .has = HZ_HAS_TIMEOUT | HZ_HAS_PID, .func = "process_timeout"),
	/* the oldest: no [timeout=] either */
	C("            bash-1234  [000]  1234.567890: timer_start: timer=ffff88003d2c1c00 "
	  "function=process_timeout expires=4295012345",
	  .type = HZ_EV_TIMER_START, .ts_ns = 1234567890000, .id = 0xffff88003d2c1c00,
	  .expires = 4295012345, .pid = 1234, .has = HZ_HAS_PID, .func = "process_timeout"),
	C("          <idle>-0     [000] ..s2  1234.568001: timer_expire_entry: "
	  "timer=ffff88003d2c1c00 "
	  "function=process_timeout now=4295012346",
	  .type = HZ_EV_TIMER_EXPIRE, .ts_ns = 1234568001000, .id = 0xffff88003d2c1c00,
	  .now = 4295012346, .pid = 0, .has = HZ_HAS_PID | HZ_HAS_CONTEXT, .ctx = HZ_CTX_SOFTIRQ,
	  .func = "process_timeout"),
	/* before 4.16: no mode= */
	C("          <idle>-0     [001] d..2  1234.568002: hrtimer_start: hrtimer=ffff88007fc0e6e0 "
	  "function=tick_sched_timer expires=1234568000000 softexpires=1234568000000",
	  .type = HZ_EV_HRTIMER_START, .ts_ns = 1234568002000, .id = 0xffff88007fc0e6e0,
	  .expires = 1234568000000, .softexpires = 1234568000000, .pid = 0, .cpu = 1, .tcpu = 1,
	  .has = HZ_HAS_SOFT | HZ_HAS_PID | HZ_HAS_CONTEXT, .tick = true,
	  .func = "tick_sched_timer"),
	/* an hrtimer_start with no softexpires= at all */
	C("          <idle>-0     [001]  1.000000: hrtimer_start: hrtimer=ffff88007fc0e6e0 "
	  "function=tick_sched_timer expires=1000000",
	  .type = HZ_EV_HRTIMER_START, .ts_ns = 1000000000, .id = 0xffff88007fc0e6e0,
	  .expires = 1000000, .pid = 0, .cpu = 1, .tcpu = 1, .has = HZ_HAS_PID, .tick = true,
	  .func = "tick_sched_timer"),
	/* hrtimer_expire_entry once printed now= before function= */
	C("          <idle>-0     [001] d.h1  1234.568003: hrtimer_expire_entry: "
	  "hrtimer=ffff88007fc0e6e0 now=1234568001234 function=tick_sched_timer",
	  .type = HZ_EV_HRTIMER_EXPIRE, .ts_ns = 1234568003000, .id = 0xffff88007fc0e6e0,
	  .now = 1234568001234, .pid = 0, .cpu = 1, .tcpu = 1, .has = HZ_HAS_PID | HZ_HAS_CONTEXT,
	  .ctx = HZ_CTX_HARDIRQ, .tick = true, .func = "tick_sched_timer"),
	/* 3.x tick_stop */
	C("          <idle>-0     [000] d..1  1234.568004: tick_stop: success=yes msg= ",
	  .type = HZ_EV_TICK_STOP, .ts_ns = 1234568004000, .pid = 0,
	  .has = HZ_HAS_PID | HZ_HAS_CONTEXT, .success = true),
	C("          <idle>-0     [000] d..1  1234.568004: tick_stop: success=no msg=perf events "
	  "running",
	  .type = HZ_EV_TICK_STOP, .ts_ns = 1234568004000, .pid = 0,
	  .has = HZ_HAS_PID | HZ_HAS_CONTEXT),
	/* before 4.3 sched_wakeup said success= too; no irq-info column */
	C("            bash-1234  [002]  1234.567891: sched_wakeup: comm=sshd pid=880 prio=120 "
	  "success=1 target_cpu=002",
	  .type = HZ_EV_SCHED_WAKEUP, .ts_ns = 1234567891000, .pid = 1234, .cpu = 2, .tcpu = 2,
	  .woken_pid = 880, .has = HZ_HAS_PID),
	/* a pointer %p printed as (null) */
	C("          <idle>-0     [000] d..1  1.5: timer_cancel: timer=(null)",
	  .type = HZ_EV_TIMER_CANCEL, .ts_ns = 1500000000, .pid = 0,
	  .has = HZ_HAS_PID | HZ_HAS_CONTEXT),
};

/* Layouts: tgid column, no irq-info, trace-cmd, the timestamp's precision, odd comms. */
static const struct line_case layouts[] = {
	C("          <idle>-0       (-------) [001] d..2.   100.000001: hrtimer_cancel: "
	  "hrtimer=00000000d9f63e87",
	  .type = HZ_EV_HRTIMER_CANCEL, .ts_ns = 100000001000, .id = 0xd9f63e87, .pid = 0, .cpu = 1,
	  .tcpu = 1, .has = HZ_HAS_PID | HZ_HAS_CONTEXT),
	C("            bash-1234    (   1200) [000] d..1.   100.000002: timer_cancel: "
	  "timer=00000000460f5e0e",
	  .type = HZ_EV_TIMER_CANCEL, .ts_ns = 100000002000, .id = 0x460f5e0e, .pid = 1234,
	  .has = HZ_HAS_PID | HZ_HAS_CONTEXT),
	/* record-tgid without irq-info */
	C("            bash-1234    (   1200) [003]   100.000003: timer_cancel: "
	  "timer=00000000460f5e0e",
	  .type = HZ_EV_TIMER_CANCEL, .ts_ns = 100000003000, .id = 0x460f5e0e, .pid = 1234,
	  .cpu = 3, .tcpu = 3, .has = HZ_HAS_PID),
	/* a new kernel with irq-info turned off */
	C("          <idle>-0       [001]   100.000004: tick_stop: success=1 dependency=NONE",
	  .type = HZ_EV_TICK_STOP, .ts_ns = 100000004000, .pid = 0, .cpu = 1, .tcpu = 1,
	  .has = HZ_HAS_PID, .success = true),
	/* trace-cmd report: padded names, 0x pointers */
	C("          <idle>-0     [001]  5000.123456: hrtimer_start:        "
	  "hrtimer=0xffff8e3f7fd1c8e0 function=tick_sched_timer expires=5000124000000 "
	  "softexpires=5000124000000 mode=ABS|PINNED",
	  .type = HZ_EV_HRTIMER_START, .ts_ns = 5000123456000, .id = 0xffff8e3f7fd1c8e0,
	  .expires = 5000124000000, .softexpires = 5000124000000, .pid = 0, .cpu = 1, .tcpu = 1,
	  .has = HZ_HAS_MODE | HZ_HAS_SOFT | HZ_HAS_PID, .hmode = HZ_HM_PINNED, .tick = true,
	  .func = "tick_sched_timer"),
	/* trace-cmd report -l: irq-info after the CPU */
	C("            bash-1234  [000] d.h1  5000.123457: hrtimer_expire_entry: "
	  "hrtimer=0xffff8e3f7fd1c8e0 function=tick_sched_timer now=5000124001000",
	  .type = HZ_EV_HRTIMER_EXPIRE, .ts_ns = 5000123457000, .id = 0xffff8e3f7fd1c8e0,
	  .now = 5000124001000, .pid = 1234, .has = HZ_HAS_PID | HZ_HAS_CONTEXT,
	  .ctx = HZ_CTX_HARDIRQ, .tick = true, .func = "tick_sched_timer"),
	/* trace-cmd report -t: ns */
	C("          <idle>-0     [001]  5000.123456789: timer_cancel:        "
	  "timer=0xffff8e3f7fd1c8e0",
	  .type = HZ_EV_TIMER_CANCEL, .ts_ns = 5000123456789, .id = 0xffff8e3f7fd1c8e0, .pid = 0,
	  .cpu = 1, .tcpu = 1, .has = HZ_HAS_PID),
	/* any number of decimals, exactly */
	C("          <idle>-0     [001]  12.5: timer_cancel: timer=1", .type = HZ_EV_TIMER_CANCEL,
	  .ts_ns = 12500000000, .id = 1, .pid = 0, .cpu = 1, .tcpu = 1, .has = HZ_HAS_PID),
	C("          <idle>-0     [001]  0.000000001: timer_cancel: timer=1",
	  .type = HZ_EV_TIMER_CANCEL, .ts_ns = 1, .id = 1, .pid = 0, .cpu = 1, .tcpu = 1,
	  .has = HZ_HAS_PID),
	/* the word-at-a-time reading's bounds: 7 + 7 digits, and one more either side */
	C("          <idle>-0     [001]  1234567.7654321: timer_cancel: timer=1",
	  .type = HZ_EV_TIMER_CANCEL, .ts_ns = 1234567765432100, .id = 1, .pid = 0, .cpu = 1,
	  .tcpu = 1, .has = HZ_HAS_PID),
	C("          <idle>-0     [001]  1.12345678: timer_cancel: timer=1",
	  .type = HZ_EV_TIMER_CANCEL, .ts_ns = 1123456780, .id = 1, .pid = 0, .cpu = 1, .tcpu = 1,
	  .has = HZ_HAS_PID),
	C("          <idle>-0     [001]  12345678.9: timer_cancel: timer=1",
	  .type = HZ_EV_TIMER_CANCEL, .ts_ns = 12345678900000000, .id = 1, .pid = 0, .cpu = 1,
	  .tcpu = 1, .has = HZ_HAS_PID),
	C("          <idle>-0     [001]  9.987654321: timer_cancel: timer=1",
	  .type = HZ_EV_TIMER_CANCEL, .ts_ns = 9987654321, .id = 1, .pid = 0, .cpu = 1, .tcpu = 1,
	  .has = HZ_HAS_PID),
	C("          <idle>-0     [001]  18446744073.709551615: timer_cancel: timer=1",
	  .type = HZ_EV_TIMER_CANCEL, .ts_ns = 18446744073709551615ULL, .id = 1, .pid = 0, .cpu = 1,
	  .tcpu = 1, .has = HZ_HAS_PID),
	/* trace_clock=counter: an integer, taken as is */
	C("          <idle>-0     [001]  123456789: timer_cancel: timer=1",
	  .type = HZ_EV_TIMER_CANCEL, .ts_ns = 123456789, .id = 1, .pid = 0, .cpu = 1, .tcpu = 1,
	  .has = HZ_HAS_PID),
	/* comms with spaces and dashes: the pid follows the last '-' */
	C("     Web Content-4321  [001] d..1.   100.000005: timer_cancel: timer=2",
	  .type = HZ_EV_TIMER_CANCEL, .ts_ns = 100000005000, .id = 2, .pid = 4321, .cpu = 1,
	  .tcpu = 1, .has = HZ_HAS_PID | HZ_HAS_CONTEXT),
	C("kworker/u8:2-events_unbound-123 [000] d..1.   100.000006: timer_cancel: timer=2",
	  .type = HZ_EV_TIMER_CANCEL, .ts_ns = 100000006000, .id = 2, .pid = 123,
	  .has = HZ_HAS_PID | HZ_HAS_CONTEXT),
	C("  a-b c-d-e f-99 [000]   100.000007: timer_cancel: timer=2", .type = HZ_EV_TIMER_CANCEL,
	  .ts_ns = 100000007000, .id = 2, .pid = 99, .has = HZ_HAS_PID),
	C("           <...>-4321  [000] d..1.   100.000008: timer_cancel: timer=2",
	  .type = HZ_EV_TIMER_CANCEL, .ts_ns = 100000008000, .id = 2, .pid = 4321,
	  .has = HZ_HAS_PID | HZ_HAS_CONTEXT),
	/* a comm with brackets of its own is not the CPU column */
	C("   [x] [7] y-55  [002] d..1.   100.000009: timer_cancel: timer=2",
	  .type = HZ_EV_TIMER_CANCEL, .ts_ns = 100000009000, .id = 2, .pid = 55, .cpu = 2,
	  .tcpu = 2, .has = HZ_HAS_PID | HZ_HAS_CONTEXT),
	/* no pid in the task column */
	C("            init  [000]   100.000010: timer_cancel: timer=2", .type = HZ_EV_TIMER_CANCEL,
	  .ts_ns = 100000010000, .id = 2, .pid = NOPID),
	C("[000]   100.000011: timer_cancel: timer=2", .type = HZ_EV_TIMER_CANCEL,
	  .ts_ns = 100000011000, .id = 2, .pid = NOPID),
	/* CR LF line ends */
	C("          <idle>-0     [001]  1.000000: timer_cancel: timer=3\r",
	  .type = HZ_EV_TIMER_CANCEL, .ts_ns = 1000000000, .id = 3, .pid = 0, .cpu = 1, .tcpu = 1,
	  .has = HZ_HAS_PID),
	/* the highest CPU */
	C("          <idle>-0     [4095]  1.000000: timer_cancel: timer=3",
	  .type = HZ_EV_TIMER_CANCEL, .ts_ns = 1000000000, .id = 3, .pid = 0, .cpu = 4095,
	  .tcpu = 4095, .has = HZ_HAS_PID),
};

/* function= as %ps, %pS and unresolved; mode= in every spelling. */
static const struct line_case values[] = {
	C("  t-1 [000] 1.0: hrtimer_expire_entry: hrtimer=1 function=foo+0x1/0x2 now=5",
	  .type = HZ_EV_HRTIMER_EXPIRE, .ts_ns = 1000000000, .id = 1, .now = 5, .pid = 1,
	  .has = HZ_HAS_PID, .func = "foo+0x1/0x2"),
	C("  t-1 [000] 1.0: hrtimer_expire_entry: hrtimer=1 function=tick_sched_timer+0x0/0x80 "
	  "now=5",
	  .type = HZ_EV_HRTIMER_EXPIRE, .ts_ns = 1000000000, .id = 1, .now = 5, .pid = 1,
	  .has = HZ_HAS_PID, .tick = true, .func = "tick_sched_timer+0x0/0x80"),
	C("  t-1 [000] 1.0: hrtimer_expire_entry: hrtimer=1 function=0xffffffff81234567 now=5",
	  .type = HZ_EV_HRTIMER_EXPIRE, .ts_ns = 1000000000, .id = 1, .now = 5, .pid = 1,
	  .has = HZ_HAS_PID, .func = "0xffffffff81234567"),
	/* a module's symbol: %ps appends " [module]" */
	C("  t-1 [000] 1.0: timer_expire_entry: timer=1 function=gc_worker [nf_conntrack] now=5",
	  .type = HZ_EV_TIMER_EXPIRE, .ts_ns = 1000000000, .id = 1, .now = 5, .pid = 1,
	  .has = HZ_HAS_PID, .func = "gc_worker"),
	/* truncated to 47 characters */
	C("  t-1 [000] 1.0: timer_expire_entry: timer=1 "
	  "function=a_function_name_that_is_much_longer_than_forty_seven_characters now=5",
	  .type = HZ_EV_TIMER_EXPIRE, .ts_ns = 1000000000, .id = 1, .now = 5, .pid = 1,
	  .has = HZ_HAS_PID, .func = "a_function_name_that_is_much_longer_than_forty_"),
	C("  t-1 [000] 1.0: hrtimer_start: hrtimer=1 function=f expires=9 softexpires=8 mode=ABS",
	  .type = HZ_EV_HRTIMER_START, .ts_ns = 1000000000, .id = 1, .expires = 9, .softexpires = 8,
	  .pid = 1, .has = HZ_HAS_PID | HZ_HAS_SOFT | HZ_HAS_MODE, .func = "f"),
	C("  t-1 [000] 1.0: hrtimer_start: hrtimer=1 function=f expires=9 softexpires=8 "
	  "mode=REL|SOFT",
	  .type = HZ_EV_HRTIMER_START, .ts_ns = 1000000000, .id = 1, .expires = 9, .softexpires = 8,
	  .pid = 1, .has = HZ_HAS_PID | HZ_HAS_SOFT | HZ_HAS_MODE, .hmode = HZ_HM_REL | HZ_HM_SOFT,
	  .func = "f"),
	C("  t-1 [000] 1.0: hrtimer_start: hrtimer=1 function=f expires=9 softexpires=8 "
	  "mode=REL|PINNED|HARD",
	  .type = HZ_EV_HRTIMER_START, .ts_ns = 1000000000, .id = 1, .expires = 9, .softexpires = 8,
	  .pid = 1, .has = HZ_HAS_PID | HZ_HAS_SOFT | HZ_HAS_MODE,
	  .hmode = HZ_HM_REL | HZ_HM_PINNED | HZ_HM_HARD, .func = "f"),
	/* before 6.4 the _HARD modes were printed as numbers */
	C("  t-1 [000] 1.0: hrtimer_start: hrtimer=1 function=f expires=9 softexpires=8 mode=0xa",
	  .type = HZ_EV_HRTIMER_START, .ts_ns = 1000000000, .id = 1, .expires = 9, .softexpires = 8,
	  .pid = 1, .has = HZ_HAS_PID | HZ_HAS_SOFT | HZ_HAS_MODE,
	  .hmode = HZ_HM_PINNED | HZ_HM_HARD, .func = "f"),
	C("  t-1 [000] 1.0: hrtimer_start: hrtimer=1 function=f expires=9 softexpires=8 mode=0x0",
	  .type = HZ_EV_HRTIMER_START, .ts_ns = 1000000000, .id = 1, .expires = 9, .softexpires = 8,
	  .pid = 1, .has = HZ_HAS_PID | HZ_HAS_SOFT | HZ_HAS_MODE, .func = "f"),
	/* Linux 6.1's trace file: the tick's mode (ABS|PINNED|HARD) printed as nothing */
	C("  <idle>-0 [001] d.h.. 8.293210: hrtimer_start: hrtimer=ffff88801f51de20 "
	  "function=tick_sched_timer expires=8336000000 softexpires=8336000000 mode= was_armed=0",
	  .type = HZ_EV_HRTIMER_START, .ts_ns = 8293210000, .id = 0xffff88801f51de20,
	  .expires = 8336000000, .softexpires = 8336000000, .pid = 0, .cpu = 1, .tcpu = 1,
	  .ctx = HZ_CTX_HARDIRQ, .has = HZ_HAS_PID | HZ_HAS_CONTEXT | HZ_HAS_SOFT, .tick = true,
	  .func = "tick_sched_timer"),
	C("  t-1 [000] 1.0: hrtimer_start: hrtimer=1 function=f expires=9 softexpires=8 mode=0x5",
	  .type = HZ_EV_HRTIMER_START, .ts_ns = 1000000000, .id = 1, .expires = 9, .softexpires = 8,
	  .pid = 1, .has = HZ_HAS_PID | HZ_HAS_SOFT | HZ_HAS_MODE, .hmode = HZ_HM_REL | HZ_HM_SOFT,
	  .func = "f"),
	/* the largest values */
	C("  t-1 [000] 1.0: timer_start: timer=ffffffffffffffff function=f "
	  "expires=18446744073709551615 [timeout=-9223372036854775808] cpu=4095",
	  .type = HZ_EV_TIMER_START, .ts_ns = 1000000000, .id = UINT64_MAX, .expires = UINT64_MAX,
	  .timeout = INT64_MIN, .pid = 1, .tcpu = 4095,
	  .has = HZ_HAS_PID | HZ_HAS_TIMEOUT | HZ_HAS_TCPU, .func = "f"),
	C("  t-1 [000] 1.0: timer_start: timer=0 function=f expires=0 "
	  "[timeout=9223372036854775807]",
	  .type = HZ_EV_TIMER_START, .ts_ns = 1000000000, .timeout = INT64_MAX, .pid = 1,
	  .has = HZ_HAS_PID | HZ_HAS_TIMEOUT, .func = "f"),
	/* flags= with M (migrating) and a leftover bit, as __print_flags shows them */
	C("  t-1 [000] 1.0: timer_start: timer=1 function=f expires=2 cpu=1 idx=0 "
	  "flags=M|P|0x400000",
	  .type = HZ_EV_TIMER_START, .ts_ns = 1000000000, .id = 1, .expires = 2, .pid = 1,
	  .tcpu = 1, .has = HZ_HAS_PID | HZ_HAS_TCPU, .tflags = HZ_TF_PINNED, .func = "f"),
	/* a raw flags word beside cpu= (trace-cmd -R of 4.8 on): pinned is 0x00100000 */
	C("  t-1 [000] 1.0: timer_start: timer=1 function=f expires=2 cpu=1 idx=0 flags=0x180001",
	  .type = HZ_EV_TIMER_START, .ts_ns = 1000000000, .id = 1, .expires = 2, .pid = 1,
	  .tcpu = 1, .has = HZ_HAS_PID | HZ_HAS_TCPU, .tflags = HZ_TF_DEFERRABLE | HZ_TF_PINNED,
	  .func = "f"),
};

static void test_new_kernel(void)
{
	check_events(new_kernel, sizeof(new_kernel) / sizeof(new_kernel[0]));
}

static void test_old_kernel(void)
{
	check_events(old_kernel, sizeof(old_kernel) / sizeof(old_kernel[0]));
}

static void test_layouts(void)
{
	check_events(layouts, sizeof(layouts) / sizeof(layouts[0]));
}

static void test_values(void)
{
	check_events(values, sizeof(values) / sizeof(values[0]));
}

struct kind_case {
	const char *line;
	enum hz_line_kind kind;
};

static void test_not_events(void)
{
	static const struct kind_case c[] = {
		{ "# tracer: nop", HZ_LINE_COMMENT },
		{ "#", HZ_LINE_COMMENT },
		{ "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION", HZ_LINE_COMMENT },
		{ "# hzadvise record: kernel=6.18.44 config_hz=250", HZ_LINE_COMMENT },
		{ "", HZ_LINE_COMMENT },
		{ "   \t ", HZ_LINE_COMMENT },
		{ "version = 6", HZ_LINE_COMMENT },
		{ "cpus=2", HZ_LINE_COMMENT },
		{ "CPU 0 is empty", HZ_LINE_COMMENT },
		{ "CPU3 is empty", HZ_LINE_COMMENT },
		{ "CPU0 data recorded at offset=0x52b000", HZ_LINE_COMMENT },
		{ "    4096 bytes in size", HZ_LINE_COMMENT },
		/* other events, and what is no event at all */
		{ "  <idle>-0 [000] d..2. 1.000000: sched_wakeup_new: comm=sh pid=7 prio=120",
		  HZ_LINE_UNKNOWN },
		{ "  <idle>-0 [000] d..2. 1.000000: sched_wakeups: comm=sh pid=7 prio=120",
		  HZ_LINE_UNKNOWN },
		{ "  <idle>-0 [000] d..2. 1.000000: sched_wakinG: comm=sh pid=7 prio=120",
		  HZ_LINE_UNKNOWN },
		{ "  t-1 [000] d..1. 1.000000: timer_init: timer=00000000460f5e0e",
		  HZ_LINE_UNKNOWN },
		{ "  t-1 [000] d..1. 1.000000: timer_expire_exit: timer=00000000460f5e0e",
		  HZ_LINE_UNKNOWN },
		{ "  t-1 [000] d..1. 1.000000: hrtimer_init: hrtimer=00000000460f5e0e clockid="
		  "CLOCK_MONOTONIC mode=ABS",
		  HZ_LINE_UNKNOWN },
		{ "  t-1 [000] d.h1. 1.000000: hrtimer_expire_exit: hrtimer=00000000460f5e0e",
		  HZ_LINE_UNKNOWN },
		{ "  t-1 [000] d..1. 1.000000: itimer_state: which=0 expires=0", HZ_LINE_UNKNOWN },
		{ "  t-1 [000] d..1. 1.000000: tick_stopped: x", HZ_LINE_UNKNOWN },
		{ "CPU:1 [LOST 12 EVENTS]", HZ_LINE_UNKNOWN },
		{ "hello world", HZ_LINE_UNKNOWN },
		{ "cpus=two", HZ_LINE_UNKNOWN },
		/* the shape of an event line is not there */
		{ "  t-1 [000] d..1. 1.000000 timer_start: timer=1 function=f expires=1",
		  HZ_LINE_UNKNOWN },
		{ "  t-1 [000]x 1.0: timer_cancel: timer=1", HZ_LINE_UNKNOWN },
		{ "  t-1 [] 1.0: timer_cancel: timer=1", HZ_LINE_UNKNOWN },
		{ "  t-1 [000] 1.0: timer_cancel:timer=1", HZ_LINE_UNKNOWN },
		{ "  t-1 [000] 1.0: timer_cancelled: timer=1", HZ_LINE_UNKNOWN },
		{ "  t-1 [000] 1.0: Timer_cancel: timer=1", HZ_LINE_UNKNOWN },
		{ "  t-1 [000] toolongirqinfo 1.0: timer_cancel: timer=1", HZ_LINE_UNKNOWN },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct hz_event ev;
		enum hz_line_kind kind;
		const char *why = "unset";
		int rc = hz_parse_line(c[i].line, strlen(c[i].line), &ev, &kind, &why);

		CHECK(rc == 0 && kind == c[i].kind && !why, "\"%s\": rc %d kind %d (want %d)",
		      c[i].line, rc, kind, c[i].kind);
	}
}

struct bad_case {
	const char *line;
	const char *why; /* what *why must say */
};

static void test_bad_events(void)
{
	static const struct bad_case c[] = {
		{ "  t-1 [000] 1.0: timer_start: timer=1 function=f", "no expires= value" },
		{ "  t-1 [000] 1.0: timer_start: timer=1 function=f expires=",
		  "bad expires= value" },
		{ "  t-1 [000] 1.0: timer_start: timer=1 function=f expires=12x",
		  "bad expires= value" },
		{ "  t-1 [000] 1.0: timer_start: timer=1 function=f expires=-1",
		  "bad expires= value" },
		{ "  t-1 [000] 1.0: timer_start: timer=1 function=f expires=18446744073709551616",
		  "expires= value out of range" },
		{ "  t-1 [000] 1.0: timer_start: timer=1 function=f "
		  "expires=99999999999999999999999",
		  "expires= value out of range" },
		{ "  t-1 [000] 1.0: timer_start: function=f expires=1", "no timer= value" },
		{ "  t-1 [000] 1.0: timer_start: timer=xyz function=f expires=1",
		  "bad timer= value" },
		{ "  t-1 [000] 1.0: timer_start: timer=10000000000000000 function=f expires=1",
		  "timer= value out of range" },
		{ "  t-1 [000] 1.0: timer_start: timer=1 expires=1", "no function= value" },
		{ "  t-1 [000] 1.0: timer_start: timer=1 function= expires=1",
		  "bad function= value" },
		{ "  t-1 [000] 1.0: timer_start: timer=1 function=f expires=1 [timeout=x]",
		  "bad timeout= value" },
		{ "  t-1 [000] 1.0: timer_start: timer=1 function=f expires=1 "
		  "[timeout=9223372036854775808]",
		  "timeout= value out of range" },
		{ "  t-1 [000] 1.0: timer_start: timer=1 function=f expires=1 "
		  "[timeout=-9223372036854775809]",
		  "timeout= value out of range" },
		{ "  t-1 [000] 1.0: timer_start: timer=1 function=f expires=1 bucket_expiry=z",
		  "bad bucket_expiry= value" },
		{ "  t-1 [000] 1.0: timer_start: timer=1 function=f expires=1 cpu=4096",
		  "cpu= value out of range" },
		{ "  t-1 [000] 1.0: timer_start: timer=1 function=f expires=1 flags=0xzz",
		  "bad flags= value" },
		{ "  t-1 [000] 1.0: timer_cancel: x=1", "no timer= value" },
		{ "  t-1 [000] 1.0: timer_expire_entry: timer=1 function=f", "no now= value" },
		{ "  t-1 [000] 1.0: timer_expire_entry: timer=1 function=f now=1 baseclk=",
		  "bad baseclk= value" },
		{ "  t-1 [000] 1.0: hrtimer_start: hrtimer=1 expires=1", "no function= value" },
		{ "  t-1 [000] 1.0: hrtimer_start: timer=1 function=f expires=1",
		  "no hrtimer= value" },
		{ "  t-1 [000] 1.0: hrtimer_start: hrtimer=1 function=f expires=1 softexpires=q",
		  "bad softexpires= value" },
		{ "  t-1 [000] 1.0: hrtimer_start: hrtimer=1 function=f expires=1 mode=0x10",
		  "bad mode=" },
		{ "  t-1 [000] 1.0: hrtimer_cancel:", "no hrtimer= value" },
		{ "  t-1 [000] 1.0: hrtimer_expire_entry: hrtimer=1 function=f now=1.5",
		  "bad now= value" },
		{ "  t-1 [000] 1.0: tick_stop: dependency=NONE", "no success= value" },
		{ "  t-1 [000] 1.0: tick_stop: success=maybe", "bad success= value" },
		{ "  t-1 [000] 1.0: sched_wakeup: comm=x prio=120", "no pid= value" },
		{ "  t-1 [000] 1.0: sched_waking: comm=x pid=2147483648 prio=120",
		  "pid= value out of range" },
		{ "  t-1 [000] 1.0: sched_waking: comm=x pid=-1 prio=120", "bad pid= value" },
		/* the columns before the fields */
		{ "  t-1 [4096] 1.0: timer_cancel: timer=1", "cpu out of range" },
		{ "  t-1 [99999999999999999999999] 1.0: timer_cancel: timer=1",
		  "cpu out of range" },
		{ "  t-1 [000] 1.0123456789: timer_cancel: timer=1", "more than 9 decimals" },
		{ "  t-1 [000] 1.: timer_cancel: timer=1", "bad timestamp" },
		{ "  t-1 [000] 1.2.3: timer_cancel: timer=1", "bad timestamp" },
		{ "  t-1 [000] abc: timer_cancel: timer=1", "bad timestamp" },
		{ "  t-1 [000] 18446744073.709551616: timer_cancel: timer=1",
		  "timestamp out of range" },
		{ "  t-1 [000] 18446744074: timer_cancel: timer=1", NULL }, /* counter: fine */
		{ "  t-1 [000] 18446744073709551616: timer_cancel: timer=1", "bad timestamp" },
		{ "  t-2147483648 [000] 1.0: timer_cancel: timer=1", "pid out of range" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct hz_event ev;
		enum hz_line_kind kind;
		const char *why = NULL;
		int rc = hz_parse_line(c[i].line, strlen(c[i].line), &ev, &kind, &why);

		if (!c[i].why) {
			CHECK(rc == 1, "\"%s\": rc %d, want an event", c[i].line, rc);
			continue;
		}
		CHECK(rc == -1 && kind == HZ_LINE_BAD && why && strstr(why, c[i].why),
		      "\"%s\": rc %d kind %d why \"%s\", want \"%s\"", c[i].line, rc, kind,
		      why ? why : "(null)", c[i].why);
		CHECK(rc != -1 || ev.type < HZ_EV_TYPES, "\"%s\": type %u", c[i].line, ev.type);
	}
}

static void test_tick_handler(void)
{
	static const struct {
		const char *func;
		bool tick;
	} c[] = {
		{ "tick_sched_timer", true },
		{ "tick_nohz_highres_handler", true },
		{ "tick_nohz_handler", true },
		{ "tick_sched_timer+0x0/0x80", true },
		{ "tick_nohz_highres_handler+0x12/0x90", true },
		{ "tick_nohz_handler+0x1/0x2", true },
		{ "tick_sched_timer2", false },
		{ "tick_sched_time", false },
		{ "tick_nohz", false },
		{ "hrtimer_wakeup", false },
		{ "0xffffffff81234567", false },
		{ "", false },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		CHECK(hz_is_tick_handler(c[i].func) == c[i].tick, "%s: got %d", c[i].func,
		      !c[i].tick);
}

/* ---- the reader ---- */

static char *path_of(const char *name)
{
	static char buf[4][512];
	static int n;
	char *p = buf[n++ % 4];

	snprintf(p, sizeof(buf[0]), "%s/%s", scratch, name);
	return p;
}

static void write_file(const char *name, const void *data, size_t len)
{
	FILE *f = fopen(path_of(name), "wb");

	if (!f || fwrite(data, 1, len, f) != len || fclose(f)) {
		perror(path_of(name));
		exit(2);
	}
}

static void shell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void shell(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd)) {
		fprintf(stderr, "failed: %s\n", cmd);
		exit(2);
	}
}

struct outcome {
	int rc; /* the last hz_next's, or 9 when hz_open failed */
	uint64_t read[HZ_EV_TYPES];
	struct hz_reader_stats st;
	char err[400];
	int close_rc;
};

/* Reads path to its end or its first error. */
static struct outcome read_all(const char *path)
{
	struct outcome o = { 0 };
	struct hz_reader *r = hz_open(path, o.err, sizeof(o.err));
	struct hz_event ev;

	if (!r) {
		o.rc = 9;
		return o;
	}
	while ((o.rc = hz_next(r, &ev)) == 1)
		o.read[ev.type]++;
	snprintf(o.err, sizeof(o.err), "%s", hz_error(r));
	o.st = *hz_stats(r);
	o.close_rc = hz_close(r);
	return o;
}

static struct outcome read_text(const char *name, const char *text)
{
	write_file(name, text, strlen(text));
	return read_all(path_of(name));
}

#define L_START                                                                                \
	"  t-1 [001] d..1. 1.000001: timer_start: timer=1 function=process_timeout expires=5 " \
	"[timeout=1] cpu=1 idx=6 flags=\n"
#define L_CANCEL "  t-1 [000] d..1. 1.000002: timer_cancel: timer=1\n"
#define L_EXPIRE "  t-1 [000] ..s.. 1.000003: timer_expire_entry: timer=1 function=f now=6\n"
#define L_HSTART                                                                           \
	"  t-1 [002] d..1. 1.000004: hrtimer_start: hrtimer=2 function=tick_nohz_handler " \
	"expires=8 softexpires=8 mode=ABS\n"
#define L_HCANCEL "  t-1 [000] d..1. 1.000005: hrtimer_cancel: hrtimer=2\n"
#define L_HEXPIRE                                                                                 \
	"  t-1 [000] d.h1. 1.000006: hrtimer_expire_entry: hrtimer=2 function=tick_nohz_handler " \
	"now=9\n"
#define L_STOP	 "  <idle>-0 [000] d..1. 1.000007: tick_stop: success=1 dependency=NONE\n"
#define L_OTHER	 "  t-1 [000] d..1. 1.000008: sched_wakeup_new: comm=x pid=2 prio=120\n"
#define L_WAKEUP "  t-1 [000] d..1. 1.000011: sched_wakeup: comm=x pid=2 prio=120 target_cpu=000\n"
#define L_WAKING "  t-1 [000] d..1. 1.000012: sched_waking: comm=x pid=2 prio=120\n"
#define L_SWITCH                                                                          \
	"  t-1 [000] d..2. 1.000009: sched_switch: prev_comm=t prev_pid=1 prev_prio=120 " \
	"prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
#define L_IDLE "  <idle>-0 [000] d..1. 1.000010: cpu_idle: state=1 cpu_id=0\n"
#define ALL_SEVEN                                                                              \
	L_START L_CANCEL L_EXPIRE L_HSTART L_HCANCEL L_HEXPIRE L_STOP L_SWITCH L_IDLE L_WAKEUP \
		L_WAKING

/* The counts of a file holding ALL_SEVEN once, two comments and one other event. */
static void expect_seven(const char *what, const struct outcome *o, enum hz_format fmt)
{
	CHECK(o->rc == 0 && !o->err[0], "%s: rc %d err \"%s\"", what, o->rc, o->err);
	CHECK(o->st.lines == 14 && o->st.events == 11 && o->st.comments == 2 && o->st.unknown == 1,
	      "%s: lines %" PRIu64 " events %" PRIu64 " comments %" PRIu64 " unknown %" PRIu64,
	      what, o->st.lines, o->st.events, o->st.comments, o->st.unknown);
	for (int t = 0; t < HZ_EV_TYPES; t++)
		CHECK(o->st.by_type[t] == 1 && o->read[t] == 1, "%s: type %d: %" PRIu64 " counted",
		      what, t, o->st.by_type[t]);
	CHECK(o->st.format == fmt, "%s: format %d, want %d", what, o->st.format, fmt);
	CHECK(o->st.max_cpu == 2, "%s: max_cpu %u", what, o->st.max_cpu);
	CHECK(o->close_rc == 0, "%s: hz_close %d", what, o->close_rc);
}

static const char seven_pipe[] = "# hzadvise record: x\n" ALL_SEVEN L_OTHER "\n";

static void test_reader_counts(void)
{
	struct outcome o;

	o = read_text("pipe.txt", seven_pipe);
	expect_seven("trace_pipe", &o, HZ_FMT_TRACE_PIPE);
	o = read_text("trace.txt", "# tracer: nop\n#\n" ALL_SEVEN L_OTHER);
	expect_seven("trace", &o, HZ_FMT_TRACE);
	o = read_text("tc.txt", "version = 6\ncpus=3\n" ALL_SEVEN L_OTHER);
	expect_seven("trace-cmd", &o, HZ_FMT_TRACE_CMD);
	/* CR LF, and a last event without its newline: whole, so accepted */
	o = read_text("crlf.txt", "#\r\n\r\n" L_START L_CANCEL L_EXPIRE L_HSTART L_HCANCEL L_HEXPIRE
					  L_SWITCH L_IDLE L_WAKEUP L_WAKING L_OTHER
				  "  <idle>-0 [000] d..1. 1.000007: tick_stop: success=1");
	expect_seven("CR LF, no last newline", &o, HZ_FMT_TRACE_PIPE);
}

static void test_reader_empty(void)
{
	struct outcome o = read_text("empty.txt", "");

	CHECK(o.rc == 0 && !o.err[0] && o.st.lines == 0 && o.st.events == 0, "empty: rc %d %s",
	      o.rc, o.err);
	CHECK(o.st.format == HZ_FMT_UNKNOWN, "empty: format %d", o.st.format);
	o = read_text("none.txt", "# tracer: nop\n" L_OTHER L_OTHER);
	CHECK(o.rc == 0 && !o.err[0] && o.st.lines == 3 && o.st.unknown == 2 && !o.st.events,
	      "no timer events: rc %d %s", o.rc, o.err);
	o = read_all(path_of("does-not-exist"));
	CHECK(o.rc == 9 && strstr(o.err, "cannot open") && strstr(o.err, "No such file"),
	      "missing file: \"%s\"", o.err);
	o = read_all(scratch);
	CHECK((o.rc == 9 || o.rc == -1) && strstr(o.err, "Is a directory"), "a directory: \"%s\"",
	      o.err);
}

/* A message: one line, from "line N: ", containing want. */
static void expect_error(const char *what, const struct outcome *o, uint64_t line, const char *want)
{
	char prefix[32];

	snprintf(prefix, sizeof(prefix), "line %" PRIu64 ": ", line);
	CHECK(o->rc == -1, "%s: rc %d", what, o->rc);
	CHECK(!strncmp(o->err, prefix, strlen(prefix)) && strstr(o->err, want) &&
		      !strchr(o->err, '\n'),
	      "%s: \"%s\", want \"%s...%s\"", what, o->err, prefix, want);
}

/* Bad lines: skipped and counted, the first one kept; the reading goes on. */
static void expect_bad(const char *what, const struct outcome *o, uint64_t bad, uint64_t events,
		       const char *first)
{
	CHECK(o->rc == 0 && !o->err[0], "%s: rc %d err \"%s\"", what, o->rc, o->err);
	CHECK(o->st.bad == bad && o->st.events == events,
	      "%s: %" PRIu64 " bad, %" PRIu64 " events (want %" PRIu64 ", %" PRIu64 ")", what,
	      o->st.bad, o->st.events, bad, events);
	CHECK(!first || (strstr(o->st.first_bad, first) && !strchr(o->st.first_bad, '\n')),
	      "%s: first bad \"%s\", want \"%s\"", what, o->st.first_bad, first ? first : "");
}

static void test_reader_errors(void)
{
	static const char nul[] = L_STOP L_STOP "  t-1 [000] 1.0: tick\0_stop: success=1\n" L_STOP;
	struct outcome o;

	write_file("nul.txt", nul, sizeof(nul) - 1);
	o = read_all(path_of("nul.txt"));
	expect_bad("NUL", &o, 1, 3, "line 3: binary data");
	o = read_text("ctl.txt", L_STOP "\x1b\x02\x03garbage\x7f\n" L_STOP);
	expect_bad("control bytes", &o, 1, 2, "line 2: control bytes: \"???garbage?\"");
	/* a last line cut short: skipped, said, not an error; a whole event without its newline is read */
	o = read_text("trunc.txt", L_STOP L_STOP "  t-1 [000] d..1. 1.000001: timer_start: tim");
	expect_bad("truncated", &o, 0, 2, NULL);
	CHECK(o.st.truncated, "truncated: not said");
	o = read_text("trunc2.txt", L_STOP "  t-1 [000] d..1. 1.0000");
	CHECK(o.rc == 0 && o.st.truncated && o.st.events == 1, "truncated in the columns");
	o = read_text("trunc3.txt", L_STOP "# trac");
	CHECK(o.rc == 0 && o.st.truncated && o.st.comments == 0, "truncated comment");
	o = read_text("whole.txt", L_STOP "  <idle>-0 [000] d..1. 1.000007: tick_stop: success=1");
	CHECK(o.rc == 0 && !o.st.truncated && o.st.events == 2, "a whole last event");
	o = read_text("bad.txt", "#\n" L_STOP L_CANCEL
				 "  t-1 [000] 1.0: timer_start: timer=1 function=f\n" L_STOP);
	expect_bad("no expires=", &o, 1, 3, "line 4: timer_start: no expires= value: \"  t-1");
	o = read_text("cpu.txt", L_STOP "  t-1 [5000] 1.0: hrtimer_cancel: hrtimer=1\n");
	expect_bad("cpu", &o, 1, 1, "line 2: hrtimer_cancel: cpu 5000 out of range 0..4095");
	o = read_text("cpu2.txt", "  t-1 [4294967296] 1.0: hrtimer_cancel: hrtimer=1\n" L_STOP);
	expect_bad("huge cpu", &o, 1, 1, "line 1: hrtimer_cancel: cpu out of range 0..4095");
	o = read_text("ovf.txt",
		      L_STOP L_STOP "  t-1 [000] 1.0: hrtimer_expire_entry: hrtimer=1 function=f "
				    "now=18446744073709551616\n" L_STOP "  t-1 [000] 1.0: "
				    "timer_cancel: timer=zz\n");
	expect_bad("overflow, then another", &o, 2, 3,
		   "line 3: hrtimer_expire_entry: now= value out of range");
}

static void test_reader_long_lines(void)
{
	size_t n = 300000;
	char *big = malloc(n + 256);
	struct outcome o;

	if (!big)
		abort();
	/* 65536 bytes exactly: still a line (unknown) */
	strcpy(big, L_STOP);
	memset(big + strlen(L_STOP), 'a', 65536);
	strcpy(big + strlen(L_STOP) + 65536, "\n" L_STOP);
	o = read_text("max.txt", big);
	CHECK(o.rc == 0 && o.st.lines == 3 && o.st.unknown == 1 && o.st.events == 2,
	      "65536 bytes: rc %d %s", o.rc, o.err);
	/* one more, and far longer than the buffer: skipped whole, no crash, no split */
	for (size_t len = 65537; len <= n; len += n - 65537) {
		strcpy(big, L_STOP);
		memset(big + strlen(L_STOP), 'a', len);
		strcpy(big + strlen(L_STOP) + len, "\n" L_STOP);
		o = read_text("long.txt", big);
		expect_bad("long line", &o, 1, 2, "line 2: longer than 65536 bytes: \"aaa");
		CHECK(o.st.unknown == 0 && o.st.lines == 3, "long line %zu: %" PRIu64 " unknown",
		      len, o.st.unknown);
	}
	/* long and without a newline at all */
	memset(big, 'b', n);
	big[n] = '\0';
	o = read_text("long2.txt", big);
	expect_bad("long last line", &o, 1, 0, "line 1: longer than 65536 bytes");
	free(big);
}

/* ---- compressed input and stdin ---- */

static void make_compressed(void)
{
	write_file("seven.txt", seven_pipe, strlen(seven_pipe));
	shell("cd '%s' && gzip -c seven.txt >seven.txt.gz && xz -c seven.txt >seven.txt.xz && "
	      "cp seven.txt.gz seven.gzdata && cp seven.txt.xz seven.xzdata && "
	      "cp seven.txt seven.plain.xz",
	      scratch);
}

static void test_compressed(void)
{
	struct outcome o;

	make_compressed();
	o = read_all(path_of("seven.txt.gz"));
	expect_seven(".gz", &o, HZ_FMT_TRACE_PIPE);
	o = read_all(path_of("seven.txt.xz"));
	expect_seven(".xz", &o, HZ_FMT_TRACE_PIPE);
	o = read_all(path_of("seven.gzdata"));
	expect_seven("gzip by its magic", &o, HZ_FMT_TRACE_PIPE);
	o = read_all(path_of("seven.xzdata"));
	expect_seven("xz by its magic", &o, HZ_FMT_TRACE_PIPE);
	/* named .xz, but text: xz says what is wrong */
	o = read_all(path_of("seven.plain.xz"));
	expect_error(".xz that is text", &o, 1, "xz -dc failed");
	CHECK(o.close_rc != 0, ".xz that is text: hz_close %d", o.close_rc);
}

static void test_corrupt_compressed(void)
{
	static const unsigned char bad_xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0, 1, 2, 3, 4, 5, 6 };
	static const unsigned char bad_gz[] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff };
	struct outcome o;

	write_file("bad.xz", bad_xz, sizeof(bad_xz));
	o = read_all(path_of("bad.xz"));
	expect_error("corrupt xz", &o, 1, "xz -dc failed (exit status 1)");
	CHECK(strstr(o.err, "corrupt or truncated") && o.close_rc, "corrupt xz: \"%s\" close %d",
	      o.err, o.close_rc);
	write_file("bad.gz", bad_gz, sizeof(bad_gz));
	o = read_all(path_of("bad.gz"));
	expect_error("corrupt gzip", &o, 1, "gzip -dc failed");
	/* a real trace cut in half: the decompressor's failure, not a parse error */
	shell("head -c 50000 tests/data/traces/idle.txt.xz >'%s/half.xz'", scratch);
	o = read_all(path_of("half.xz"));
	CHECK(o.rc == -1 && strstr(o.err, "xz -dc failed") && o.st.events > 100,
	      "half an xz: rc %d \"%s\" after %" PRIu64 " events", o.rc, o.err, o.st.events);
}

static void test_missing_decompressor(void)
{
	char err[300] = "";
	char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	struct hz_reader *r;

	setenv("PATH", path_of("no-such-dir"), 1);
	r = hz_open(path_of("seven.txt.xz"), err, sizeof(err));
	CHECK(!r && !strcmp(err, "cannot run xz: No such file or directory; install xz-utils"),
	      "no xz: \"%s\"", err);
	hz_close(r);
	r = hz_open(path_of("seven.txt.gz"), err, sizeof(err));
	CHECK(!r && !strcmp(err, "cannot run gzip: No such file or directory; install gzip"),
	      "no gzip: \"%s\"", err);
	hz_close(r);
	if (path)
		setenv("PATH", path, 1);
	free(path);
}

/* Reads "-" with fd 0 replaced by fd. */
static struct outcome read_stdin(int fd)
{
	int saved = dup(0);
	struct outcome o;

	dup2(fd, 0);
	close(fd);
	o = read_all("-");
	dup2(saved, 0);
	close(saved);
	return o;
}

/* A pipe that a child fills with the file's bytes: stdin that cannot be rewound. */
static int pipe_of(const char *file, pid_t *child)
{
	int p[2];

	if (pipe(p))
		abort();
	*child = fork();
	if (!*child) {
		char buf[4096];
		ssize_t n;
		int fd = open(file, O_RDONLY);

		close(p[0]);
		while (fd >= 0 && (n = read(fd, buf, sizeof(buf))) > 0)
			if (write(p[1], buf, (size_t)n) != n)
				_exit(1);
		_exit(0);
	}
	close(p[1]);
	return p[0];
}

static void test_stdin(void)
{
	struct outcome o;
	pid_t child;
	int fd;

	o = read_stdin(open(path_of("seven.txt"), O_RDONLY));
	expect_seven("stdin, a file", &o, HZ_FMT_TRACE_PIPE);
	o = read_stdin(open(path_of("seven.txt.xz"), O_RDONLY));
	expect_seven("stdin, an xz file", &o, HZ_FMT_TRACE_PIPE);
	o = read_stdin(pipe_of(path_of("seven.txt"), &child));
	waitpid(child, NULL, 0);
	expect_seven("stdin, a pipe", &o, HZ_FMT_TRACE_PIPE);
	o = read_stdin(pipe_of(path_of("seven.txt.xz"), &child));
	waitpid(child, NULL, 0);
	expect_seven("stdin, xz through a pipe", &o, HZ_FMT_TRACE_PIPE);
	o = read_stdin(pipe_of(path_of("seven.txt.gz"), &child));
	waitpid(child, NULL, 0);
	expect_seven("stdin, gzip through a pipe", &o, HZ_FMT_TRACE_PIPE);
	/* a stdin file read from its middle: what is left of it */
	fd = open(path_of("seven.txt"), O_RDONLY);
	CHECK(lseek(fd, (off_t)strlen("# hzadvise record: x\n") + strlen(L_START), SEEK_SET) > 0,
	      "lseek");
	o = read_stdin(fd);
	CHECK(o.rc == 0 && o.st.events == 10 && o.st.by_type[HZ_EV_TIMER_START] == 0,
	      "stdin from its middle: %" PRIu64 " events", o.st.events);
}

/* Stopping early: the decompressor is told to go; no hang, no failure. */
static void test_close_early(void)
{
	char err[300];
	struct hz_reader *r = hz_open("tests/data/traces/net.txt.xz", err, sizeof(err));
	struct hz_event ev;

	CHECK(r, "open: %s", err);
	if (!r)
		return;
	for (int i = 0; i < 10; i++)
		CHECK(hz_next(r, &ev) == 1, "event %d: %s", i, hz_error(r));
	CHECK(hz_close(r) == 0, "hz_close after 10 events");
}

/* ---- --count ---- */

static const char *const type_names[HZ_EV_TYPES] = {
	"timer_start",	  "timer_cancel",	  "timer_expire_entry", "hrtimer_start",
	"hrtimer_cancel", "hrtimer_expire_entry", "tick_stop",		"sched_switch",
	"cpu_idle",	  "sched_wakeup",	  "sched_waking",
};

static int count(const char *path)
{
	static const char *const fmts[] = { "unknown", "trace", "trace_pipe", "trace-cmd" };
	struct outcome o = read_all(path);

	printf("lines=%" PRIu64 " events=%" PRIu64 " unknown=%" PRIu64 " comments=%" PRIu64,
	       o.st.lines, o.st.events, o.st.unknown, o.st.comments);
	for (int t = 0; t < HZ_EV_TYPES; t++)
		printf(" %s=%" PRIu64, type_names[t], o.st.by_type[t]);
	printf(" format=%s max_cpu=%u rc=%d\n", fmts[o.st.format], o.st.max_cpu, o.rc);
	if (o.err[0])
		fprintf(stderr, "%s: %s\n", path, o.err);
	return o.rc != 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--count"))
		return count(argv[2]);
	if (argc != 2) {
		fprintf(stderr, "usage: test_parse SCRATCH-DIR | --count FILE\n");
		return 2;
	}
	scratch = argv[1];
	mkdir(scratch, 0755);
	run("events of Linux 6.18", test_new_kernel);
	run("events of older kernels", test_old_kernel);
	run("line layouts", test_layouts);
	run("field values", test_values);
	run("comments, headers and other lines", test_not_events);
	run("malformed known events", test_bad_events);
	run("tick handler names", test_tick_handler);
	run("reader: counts and formats", test_reader_counts);
	run("reader: empty and missing input", test_reader_empty);
	run("reader: bad lines skipped, counted, the first named", test_reader_errors);
	run("reader: long lines", test_reader_long_lines);
	run("reader: gzip and xz", test_compressed);
	run("reader: corrupt compressed input", test_corrupt_compressed);
	run("reader: missing decompressor", test_missing_decompressor);
	run("reader: stdin", test_stdin);
	run("reader: closing before the end", test_close_early);
	return 0;
}
