// SPDX-License-Identifier: MIT
/*
 * The serial shell. It reads the console (kernel/fs/console.c), whose bytes
 * arrive by interrupt into a ring, and sleeps until there is a line to run.
 */
#include <kernel/kernel.h>
#include <kernel/shell.h>
#include <kernel/sched.h>
#include <kernel/console.h>
#include <kernel/clock.h>
#include <kernel/string.h>
#include <kernel/user.h>
#include <kernel/proc.h>
#include <kernel/retune.h>
#include <kernel/arch.h>
#include <dynhz/timer.h>
#include <dynhz/tick.h>
#include <dynhz/timekeeping.h>
#include <dynhz/jiffies.h>
#include <dynhz/hz.h>
#include <dynhz/retune.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>

#define LINE_SIZE 80

/* Reads a line with echo and backspace; CR, LF or CR LF end it. */
static void read_line(char *buf, size_t size)
{
	size_t n = 0;

	for (;;) {
		char c = console_getc();

		if (c == '\r' || c == '\n') {
			if (n || c == '\r')
				break;
			continue; /* the LF of a CR LF */
		}
		if ((c == '\b' || c == 0x7f) && n) {
			n--;
			dz_printk("\b \b");
		} else if (c >= ' ' && c < 0x7f && n + 1 < size) {
			buf[n++] = c;
			dz_printk("%c", c);
		}
	}
	buf[n] = '\0';
	dz_printk("\n");
}

static void print_ns(const char *label, u64 ns)
{
	dz_printk("%s%llu.%06llu s\n", label, (unsigned long long)(ns / NSEC_PER_SEC),
		  (unsigned long long)(ns % NSEC_PER_SEC / 1000));
}

static void cmd_help(const char *arg)
{
	(void)arg;
	static const char *const lines[] = {
		"help         this list",
		"uptime       time since boot, from the TSC and from jiffies",
		"hz           the tick: HZ, its source, the exact period, the clocks",
		"hz <N>       change HZ now, 19 to 10000",
		"timers       the timer wheel's counters",
		"stat         threads and their CPU time in USER_HZ ticks",
		"sleep <ms>   msleep(ms), measured on the TSC",
		"run <path>   run a program from the initramfs with the words after it",
		"poweroff     stop the machine",
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(lines); i++)
		dz_printk("  %s\n", lines[i]);
}

static void cmd_uptime(const char *arg)
{
	u64 ticks = dz_tick_count();

	(void)arg;
	print_ns("uptime: ", ktime_get_ns());
	/* Ticks of different lengths do not multiply by one period: only the count. */
	if (dz_hz_generation()) {
		dz_printk("uptime: %llu ticks since boot, at %u rates of HZ\n",
			  (unsigned long long)ticks, dz_hz_generation() + 1);
	} else {
		dz_printk("uptime: %llu ticks since boot = ", (unsigned long long)ticks);
		print_ns("", jiffies64_to_nsecs(ticks));
	}
	dz_printk("uptime: jiffies %lu, jiffies_64 %llu (the 32-bit jiffies wraps 300 s after "
		  "boot)\n",
		  (unsigned long)jiffies, (unsigned long long)get_jiffies_64());
}

/* hz: the report; hz N: HZ becomes N (the core prints the change, or why not, in one line). */
static void cmd_hz(const char *arg)
{
	if (*arg) {
		hz_set_str(arg, strlen(arg));
		return;
	}
	dz_hz_report();
	dz_printk("clocks: tsc %llu Hz (clocksource)", (unsigned long long)tsc_hz());
	if (lapic_timer_hz())
		dz_printk(", lapic timer %llu Hz", (unsigned long long)lapic_timer_hz());
	dz_printk("\nsched: timeslice %lu jiffies = %u us\n", sched_timeslice(),
		  jiffies_to_usecs(sched_timeslice()));
}

static void cmd_timers(const char *arg)
{
	struct dz_timer_stats st;
	unsigned long next;

	(void)arg;
	dz_timer_stats(&st);
	next = dz_timer_next_expiry() - jiffies;
	dz_printk("timers: %lu pending, %llu expired, %llu cascaded\n", st.pending,
		  (unsigned long long)st.expired, (unsigned long long)st.cascaded);
	if (next < MAX_JIFFY_OFFSET)
		dz_printk("timers: next in %lu jiffies (%u ms)\n", next, jiffies_to_msecs(next));
}

static const char *state_name(int state)
{
	return state == TASK_RUNNING ? "run" : state == TASK_DEAD ? "dead" : "sleep";
}

static void cmd_stat(const char *arg)
{
	struct thread *t[MAX_THREADS];
	unsigned int n = sched_threads(t, MAX_THREADS);

	(void)arg;
	dz_printk("  id name        state  cpu(USER_HZ)  switches  preempted  doing\n");
	for (unsigned int i = 0; i < n; i++)
		dz_printk("  %2d %-11s %-6s %12lu  %8llu  %9llu  %s\n", t[i]->id, t[i]->name,
			  state_name(t[i]->state), dz_uclock_ticks(sched_thread_cputime(t[i])),
			  (unsigned long long)t[i]->switches, (unsigned long long)t[i]->preemptions,
			  t[i]->doing ? t[i]->doing : "");
	dz_printk("stat: %llu context switches, %lu spurious PIC interrupts, %lu PIT ticks "
		  "counted from the TSC, USER_HZ=%u\n",
		  (unsigned long long)sched_context_switches(), pic_spurious_count(),
		  pit_lost_ticks(), (unsigned int)USER_HZ);
	user_stat_print();
	clock_report_wakeups("stat");
}

static void cmd_sleep(const char *arg)
{
	unsigned long ms = 0, j0;
	u64 t0, ns;

	for (; *arg >= '0' && *arg <= '9' && ms < 100000000; arg++)
		ms = ms * 10 + (unsigned long)(*arg - '0');
	if (*arg || !ms || ms > 3600000) {
		dz_printk("usage: sleep <ms>, 1 to 3600000\n");
		return;
	}
	j0 = jiffies;
	t0 = tsc_now_ns();
	msleep((unsigned int)ms);
	ns = tsc_now_ns() - t0;
	dz_printk("sleep: ms=%lu jiffies=%lu ", ms, jiffies - j0);
	print_ns("measured ", ns);
}

#define RUN_ARGS_MAX 16

/* run PATH ARGS: a program from the initramfs, as init= would start it. */
static void cmd_run(const char *arg)
{
	static char words[LINE_SIZE];
	static const char *const envp[] = { "HOME=/", "TERM=linux",
					    "PATH=/sbin:/bin:/usr/sbin:/usr/bin", NULL };
	const char *argv[RUN_ARGS_MAX];
	unsigned int n = 0;
	char *w = words;
	int pid;

	memcpy(words, arg, strlen(arg) + 1);
	while (*w && n < RUN_ARGS_MAX - 1) {
		argv[n++] = w;
		while (*w && *w != ' ')
			w++;
		while (*w == ' ')
			*w++ = '\0';
	}
	argv[n] = NULL;
	if (!n) {
		dz_printk("usage: run <program> [args], e.g. run /bin/busybox uptime\n");
		return;
	}
	pid = proc_spawn(argv[0], argv, envp);
	if (pid >= 0)
		proc_report_status("run", proc_wait(pid));
}

static const struct {
	const char *name;
	void (*fn)(const char *arg);
} commands[] = {
	{ "help", cmd_help },	  { "uptime", cmd_uptime }, { "hz", cmd_hz },
	{ "timers", cmd_timers }, { "stat", cmd_stat },	    { "sleep", cmd_sleep },
	{ "run", cmd_run },
};

/* Splits "name arg" in place; returns false for "poweroff". */
static bool run_line(char *line)
{
	char *arg = line;

	while (*arg && *arg != ' ')
		arg++;
	if (*arg)
		*arg++ = '\0';
	while (*arg == ' ')
		arg++;
	if (!*line)
		return true;
	if (!strcmp(line, "poweroff"))
		return false;
	for (unsigned int i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(line, commands[i].name)) {
			thread_doing(commands[i].name);
			commands[i].fn(arg);
			thread_doing("shell: waiting for a command");
			return true;
		}
	dz_printk("%s: unknown command (try help)\n", line);
	return true;
}

void shell_exec(const char *line)
{
	char buf[LINE_SIZE];
	size_t n = strlen(line);

	n = n < sizeof(buf) - 1 ? n : sizeof(buf) - 1;
	memcpy(buf, line, n);
	buf[n] = '\0';
	run_line(buf);
}

void shell_run(void)
{
	char line[LINE_SIZE];

	console_init();
	dz_printk("shell: type help for the commands\n");
	thread_doing("shell: waiting for a command");
	do {
		dz_printk("dynhz> ");
		read_line(line, sizeof(line));
	} while (run_line(line));
}
