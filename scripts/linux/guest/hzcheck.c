// SPDX-License-Identifier: MIT
/*
 * hzcheck: what user space sees of a Linux booted with hz=N, judged in the
 * guest. Everything that crosses to user space must stay in USER_HZ (100)
 * whatever the kernel's tick: times(), /proc/stat, /proc/PID/stat,
 * AT_CLKTCK, and the sysctls kept in jiffies; the coarse clocks must report
 * the tick the kernel really makes as their resolution, through the vDSO
 * and through the system call alike. Prints one "hzcheck: NAME ok|FAIL ..."
 * line per check and a closing "hzcheck: N passed, N failed". The rates
 * allow for emulation noise (a busy loop's CPU time is sampled by the
 * tick): a naive port is off by the ratio of HZ to its default (33 % at
 * hz=333), far outside.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <sys/times.h>

static int passed, failed;

static void check(const char *name, int ok, const char *fmt, double a, double b)
{
	char detail[160];

	snprintf(detail, sizeof(detail), fmt, a, b);
	printf("hzcheck: %s %s %s\n", name, ok ? "ok" : "FAIL", detail);
	if (ok)
		passed++;
	else
		failed++;
}

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static double now(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The sum of the first line of /proc/stat: all CPUs' time in USER_HZ. */
static double stat_total(void)
{
	FILE *f = fopen("/proc/stat", "r");
	unsigned long long v, sum = 0;

	if (!f)
		return -1;
	if (fscanf(f, "cpu ") == 0)
		while (fscanf(f, "%llu", &v) == 1)
			sum += v;
	fclose(f);
	return (double)sum;
}

/* utime + stime of this process, fields 14 and 15 of /proc/self/stat. */
static double self_cpu(void)
{
	char buf[1024], *p;
	unsigned long ut, st;
	FILE *f = fopen("/proc/self/stat", "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
			 &ut, &st) != 2)
		return -1;
	return (double)(ut + st);
}

int main(void)
{
	long hz = read_long("/proc/sys/kernel/hz");
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double tick_ns = hz > 0 ? (double)((1000000000L + hz / 2) / hz) : 0;
	struct timespec res, sres;
	struct tms tb;
	clock_t t0, t1;
	double m0, m1, s0, s1, c0, c1, el;
	long v;

	printf("hzcheck: kernel.hz=%ld cpus=%ld\n", hz, ncpu);
	check("clk-tck", sysconf(_SC_CLK_TCK) == 100 && getauxval(AT_CLKTCK) == 100,
	      "sysconf %.0f auxv %.0f", (double)sysconf(_SC_CLK_TCK),
	      (double)getauxval(AT_CLKTCK));

	clock_getres(CLOCK_MONOTONIC_COARSE, &res);
	syscall(SYS_clock_getres, CLOCK_REALTIME_COARSE, &sres);
	check("coarse-res-vdso", res.tv_sec == 0 && res.tv_nsec == tick_ns,
	      "%.0f ns, tick %.0f ns", (double)res.tv_nsec, tick_ns);
	check("coarse-res-syscall", sres.tv_sec == 0 && sres.tv_nsec == tick_ns,
	      "%.0f ns, tick %.0f ns", (double)sres.tv_nsec, tick_ns);

	v = read_long("/proc/sys/kernel/printk_ratelimit");
	check("printk-ratelimit", v == 5, "%.0f s, want %.0f", (double)v, 5);
	v = read_long("/proc/sys/net/core/message_cost");
	check("net-message-cost", v == 5, "%.0f s, want %.0f", (double)v, 5);

	/* Idle interval: times() and /proc/stat against CLOCK_MONOTONIC. */
	t0 = times(&tb);
	m0 = now(CLOCK_MONOTONIC);
	s0 = stat_total();
	sleep(3);
	t1 = times(&tb);
	m1 = now(CLOCK_MONOTONIC);
	s1 = stat_total();
	el = m1 - m0;
	check("times-rate", (t1 - t0) / el > 97 && (t1 - t0) / el < 103,
	      "%.1f ticks/s over %.2f s", (t1 - t0) / el, el);
	check("proc-stat-rate", (s1 - s0) / el / ncpu > 90 && (s1 - s0) / el / ncpu < 110,
	      "%.1f ticks/s per cpu over %.2f s", (s1 - s0) / el / ncpu, el);

	/* Busy interval: this process's CPU time against CLOCK_MONOTONIC. */
	c0 = self_cpu();
	m0 = now(CLOCK_MONOTONIC);
	while (now(CLOCK_MONOTONIC) - m0 < 2.0)
		;
	c1 = self_cpu();
	el = now(CLOCK_MONOTONIC) - m0;
	check("proc-pid-stat-rate", (c1 - c0) / el > 80 && (c1 - c0) / el < 120,
	      "%.1f ticks/s of cpu over %.2f s", (c1 - c0) / el, el);

	printf("hzcheck: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
