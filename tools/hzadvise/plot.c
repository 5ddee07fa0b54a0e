// SPDX-License-Identifier: MIT
/*
 * --plot DIR: the data as text files and a gnuplot script in DIR, run
 * once for PNG and once for SVG: wakeups/s against HZ per mode, the
 * lateness CDF per setting, and the share of idle time that can reach
 * each C-state.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hzadvise.h"

static FILE *open_in(const char *dir, const char *name, char *err, size_t errlen)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		snprintf(err, errlen, "--plot: %s: %s", path, strerror(errno));
	return f;
}

static void wakeups_dat(FILE *f, const struct result *res, unsigned int n, bool nohz, double span)
{
	for (unsigned int i = 0; i < n; i++)
		if (res[i].nohz == nohz)
			fprintf(f, "%u %.3f\n", res[i].hz, (double)res[i].wakeups / span);
	fprintf(f, "\n\n");
}

/* One block per setting: lateness + 1 (us, so that 0 shows on a log scale), cumulative share. */
static void cdf_dat(FILE *f, const struct result *res, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		const struct hist *h = &res[i].late;
		u64 seen = 0;

		fprintf(f, "# hz=%u %s\n", res[i].hz, res[i].nohz ? "nohz" : "periodic");
		for (unsigned int b = 0; b < HIST_BUCKETS && h->n; b++) {
			if (!h->count[b])
				continue;
			seen += h->count[b];
			fprintf(f, "%.3f %.6f\n", (double)hist_bucket_low(b) / 1e3 + 1,
				(double)seen / (double)h->n);
		}
		if (!h->n)
			fprintf(f, "1 1\n");
		fprintf(f, "\n\n");
	}
}

static void residency_dat(FILE *f, const struct options *o, const struct result *res,
			  unsigned int n)
{
	fprintf(f, "setting");
	for (unsigned int k = 0; k < o->ncs; k++)
		fprintf(f, " %s", o->cs[k].name);
	fprintf(f, "\n");
	for (unsigned int i = 0; i < n; i++) {
		fprintf(f, "%u%s", res[i].hz, res[i].nohz ? "-nohz" : "-periodic");
		for (unsigned int k = 0; k < o->ncs; k++)
			fprintf(f, " %.3f",
				res[i].idle_ns > 0 ? 100 * res[i].res_ns[k] / res[i].idle_ns : 0);
		fprintf(f, "\n");
	}
}

static void script(FILE *f, const struct options *o, const struct result *res, unsigned int n)
{
	fprintf(f, "# gnuplot -e \"fmt='png'\" plot.gp (or svg)\n"
		   "if (!exists('fmt')) fmt = 'png'\n"
		   "eval('set terminal '.fmt.' size 900,560')\n"
		   "set grid\nset key outside right\n"
		   "set output 'wakeups.'.fmt\n"
		   "set title 'Timer wakeups per second against HZ'\n"
		   "set xlabel 'HZ'\nset ylabel 'wakeups/s, all CPUs'\nset logscale x\n"
		   "plot 'wakeups.dat' index 0 with linespoints title 'periodic', "
		   "'' index 1 with linespoints title 'tickless idle'\n"
		   "unset logscale x\n"
		   "set output 'lateness.'.fmt\n"
		   "set title 'Lateness of jiffies timers (CDF)'\n"
		   "set xlabel 'late + 1 (us)'\nset ylabel 'share of timers'\nset logscale x\n"
		   "set yrange [0:1.02]\nplot ");
	for (unsigned int i = 0; i < n; i++)
		fprintf(f, "%s'lateness.dat' index %u with steps lc %u dt %u title 'hz=%u %s'",
			i ? ", " : "", i, 1 + i % (n / 2 ? n / 2 : 1), res[i].nohz ? 1 : 2,
			res[i].hz, res[i].nohz ? "nohz" : "periodic");
	fprintf(f, "\nunset logscale x\nset yrange [0:100]\n"
		   "set output 'residency.'.fmt\n"
		   "set title 'Idle time in intervals long enough for each C-state'\n"
		   "set style data histograms\nset style fill solid 0.8 border -1\n"
		   "set xtics rotate by -45\nset xlabel ''\nset ylabel '%% of idle time'\nplot ");
	for (unsigned int k = 0; k < o->ncs; k++)
		fprintf(f, "%s'residency.dat' using %u:xtic(1) title columnheader", k ? ", " : "",
			k + 2);
	fprintf(f, "\n");
}

int write_plots(const char *dir, const struct options *o, const struct result *res, unsigned int n,
		double span, char *err, size_t errlen)
{
	char cmd[8192];
	FILE *f;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "--plot: %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!(f = open_in(dir, "wakeups.dat", err, errlen)))
		return -1;
	wakeups_dat(f, res, n, false, span);
	wakeups_dat(f, res, n, true, span);
	fclose(f);
	if (!(f = open_in(dir, "lateness.dat", err, errlen)))
		return -1;
	cdf_dat(f, res, n);
	fclose(f);
	if (!(f = open_in(dir, "residency.dat", err, errlen)))
		return -1;
	residency_dat(f, o, res, n);
	fclose(f);
	if (!(f = open_in(dir, "plot.gp", err, errlen)))
		return -1;
	script(f, o, res, n);
	fclose(f);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && gnuplot -e \"fmt='png'\" plot.gp && gnuplot -e \"fmt='svg'\" plot.gp",
		 dir);
	if (strchr(dir, '\'') || system(cmd)) {
		snprintf(err, errlen,
			 "--plot: gnuplot failed in %s (is gnuplot installed? the data and "
			 "plot.gp are there)",
			 dir);
		return -1;
	}
	return 0;
}
