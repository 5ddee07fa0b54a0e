// SPDX-License-Identifier: MIT
/*
 * The figures.
 *
 * --plot DIR: the data as text files and a gnuplot script in DIR, run once
 * for PNG and once for SVG:
 *   wakeups    wakeups/s against HZ, one line per tick mode, with each
 *              setting's 95 % interval as error bars, and the observed
 *              point (the recorded setting, as the trace shows it) marked
 *              by itself in the legend;
 *   lateness   the lateness distribution (a CDF, log scale) of each
 *              setting: one colour per HZ, solid for tickless and dashed
 *              for periodic, the observed distribution in black;
 *   residency  the share of idle time that can reach each C-state.
 *
 * --html FILE: the report as one self-contained page (no script, no file
 * beside it): the advice and the kernel command line first, the settings'
 * table, the programs, and the same two figures drawn here as inline SVG.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hzadvise.h"

static double span_of(const struct source *s)
{
	double d = (double)(s->last_ts - s->first_ts) / 1e9;

	return d > 0 ? d : 1e-9;
}

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

/* Index 0 periodic, 1 tickless: HZ, wakeups/s, its 95 % half width. Index 2: the observed point. */
static void wakeups_dat(FILE *f, const struct source *s, const struct result *res, unsigned int n)
{
	double span = span_of(s);

	for (int m = 0; m < 2; m++) {
		fprintf(f, "# %s\n", m ? "tickless" : "periodic");
		for (unsigned int i = 0; i < n; i++)
			if (res[i].nohz == (bool)m)
				fprintf(f, "%u %.3f %.3f\n", res[i].hz, res[i].wakeups / span,
					block_ci(res[i].block_wakeups, res[i].nblocks) / span);
		fprintf(f, "\n\n");
	}
	fprintf(f, "# observed\n%u %.3f %.3f\n", s->hz, s->wakeups / span,
		block_ci(s->block_wakeups, s->nblocks) / span);
}

/* A CDF block: lateness + 1 (us, so that 0 shows on a log scale), cumulative share. */
static void cdf_block(FILE *f, const struct hist *h, const char *title)
{
	u64 seen = 0;

	fprintf(f, "# %s\n", title);
	for (unsigned int b = 0; b < hist_buckets(h) && h->n; b++) {
		if (!h->count[b])
			continue;
		seen += h->count[b];
		fprintf(f, "%.3f %.6f\n", (double)hist_bucket_low_bits(b, h->bits) / 1e3 + 1,
			(double)seen / (double)h->n);
	}
	if (!h->n)
		fprintf(f, "1 1\n");
	fprintf(f, "\n\n");
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

/* One colour per HZ (the same in both figures and both modes). */
static const char *const colours[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
				       "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22" };
#define NCOLOURS (sizeof(colours) / sizeof(colours[0]))

/* The colour of HZ hz: its rank among the settings' distinct HZ. */
static const char *colour_of(const struct result *res, unsigned int n, unsigned int hz)
{
	unsigned int rank = 0;

	for (unsigned int i = 0; i < n; i++) {
		bool first = true;

		for (unsigned int j = 0; j < i; j++)
			first &= res[j].hz != res[i].hz;
		if (first && res[i].hz < hz)
			rank++;
	}
	return colours[rank % NCOLOURS];
}

static void script(FILE *f, const struct options *o, const struct source *s,
		   const struct result *res, unsigned int n)
{
	fprintf(f,
		"# gnuplot -e \"fmt='png'\" plot.gp (or svg)\n"
		"if (!exists('fmt')) fmt = 'png'\n"
		"# png through cairo where gnuplot has it: libgd's png draws no dashes\n"
		"term = fmt\n"
		"if (fmt eq 'png' && strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) term = 'pngcairo'\n"
		"eval('set terminal '.term.' size 900,560')\n"
		"set grid\nset key outside right\n"
		"set output 'wakeups.'.fmt\n"
		"set title 'Timer wakeups per second against HZ (bars: 95 %% intervals)'\n"
		"set xlabel 'HZ'\nset ylabel 'wakeups/s, all CPUs'\nset logscale x\n"
		"plot 'wakeups.dat' index 0 using 1:2:3 with yerrorlines lw 2 dt 2 pt 7 lc "
		"rgb '#555555' title 'periodic', "
		"'' index 1 using 1:2:3 with yerrorlines lw 2 dt 1 pt 5 lc rgb '#1f77b4' title "
		"'tickless idle', "
		"'' index 2 using 1:2:3 with yerrorbars pt 3 ps 3 lw 2 lc rgb 'black' title "
		"'observed (hz=%u %s)'\n"
		"unset logscale x\n"
		"set output 'lateness.'.fmt\n"
		"set title 'Lateness of timers, distribution (CDF)'\n"
		"set xlabel 'late + 1 (us)'\nset ylabel 'share of timers'\nset logscale x\n"
		"set yrange [0:1.02]\nplot ",
		s->hz, s->nohz ? "tickless" : "periodic");
	for (unsigned int i = 0; i < n; i++)
		fprintf(f,
			"'lateness.dat' index %u with steps lw 2 lc rgb '%s' dt %u title 'hz=%u "
			"%s', ",
			i, colour_of(res, n, res[i].hz), res[i].nohz ? 1 : 2, res[i].hz,
			res[i].nohz ? "tickless" : "periodic");
	fprintf(f, "'lateness.dat' index %u with steps lw 3 lc rgb 'black' title 'observed'\n", n);
	fprintf(f, "unset logscale x\nset yrange [0:100]\n"
		   "set output 'residency.'.fmt\n"
		   "set title 'Idle time in intervals long enough for each C-state'\n"
		   "set style data histograms\nset style fill solid 0.8 border -1\n"
		   "set xtics rotate by -45\nset xlabel ''\nset ylabel '%% of idle time'\nplot ");
	for (unsigned int k = 0; k < o->ncs; k++)
		fprintf(f, "%s'residency.dat' using %u:xtic(1) title columnheader", k ? ", " : "",
			k + 2);
	fprintf(f, "\n");
}

int write_plots(const char *dir, const struct options *o, const struct source *s,
		const struct result *res, unsigned int n, int recorded, char *err, size_t errlen)
{
	char cmd[8192];
	FILE *f;

	(void)recorded;
	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "--plot: %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!(f = open_in(dir, "wakeups.dat", err, errlen)))
		return -1;
	wakeups_dat(f, s, res, n);
	fclose(f);
	if (!(f = open_in(dir, "lateness.dat", err, errlen)))
		return -1;
	for (unsigned int i = 0; i < n; i++) {
		char t[64];

		snprintf(t, sizeof(t), "hz=%u %s", res[i].hz, res[i].nohz ? "nohz" : "periodic");
		cdf_block(f, &res[i].late, t);
	}
	cdf_block(f, &s->late, "observed");
	fclose(f);
	if (!(f = open_in(dir, "residency.dat", err, errlen)))
		return -1;
	residency_dat(f, o, res, n);
	fclose(f);
	if (!(f = open_in(dir, "plot.gp", err, errlen)))
		return -1;
	script(f, o, s, res, n);
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

/* ---- the HTML page, its figures drawn here ---- */

#define W  720
#define H  360
#define ML 70
#define MR 190
#define MT 30
#define MB 50
/*
 * The legend's room right of the plot: MR and LEGW more, so that its
 * longest label ("observed (hz=1000 periodic)", 27 characters of 12 px
 * sans-serif, about 180 px) ends inside the figure (a Chromium test
 * measures it: tests/hzadvise/html-check.sh).
 */
#define LEGW 80

static void html_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

static double lx(double v, double lo, double hi)
{
	return ML + (W - ML - MR) * (log10(v) - log10(lo)) / (log10(hi) - log10(lo));
}

static double ly(double v, double lo, double hi)
{
	return H - MB - (H - MT - MB) * (v - lo) / (hi - lo);
}

static void legend(FILE *f, unsigned int row, const char *colour, const char *dash,
		   const char *label)
{
	double y = MT + 14 + 18.0 * row;

	fprintf(f,
		"<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='%s' stroke-width='2.5' "
		"stroke-dasharray='%s'/><text x='%d' y='%.1f' font-size='12'>",
		W - MR + 12, y, W - MR + 40, y, colour, dash, W - MR + 46, y + 4);
	html_text(f, label);
	fprintf(f, "</text>\n");
}

/* Wakeups/s against HZ: a line per mode, 95 % bars, the observed point a black diamond. */
static void svg_wakeups(FILE *f, const struct source *s, const struct result *res, unsigned int n)
{
	double span = span_of(s), ymax = s->wakeups / span, xlo = 1e9, xhi = 0;

	for (unsigned int i = 0; i < n; i++) {
		double v = (res[i].wakeups + block_ci(res[i].block_wakeups, res[i].nblocks)) / span;

		ymax = v > ymax ? v : ymax;
		xlo = res[i].hz < xlo ? res[i].hz : xlo;
		xhi = res[i].hz > xhi ? res[i].hz : xhi;
	}
	xlo /= 1.3;
	xhi *= 1.3;
	ymax = ymax * 1.1 + 1;
	fprintf(f,
		"<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' "
		"font-family='sans-serif'>\n",
		W + LEGW, H);
	fprintf(f,
		"<text x='%d' y='18' font-size='14'>Timer wakeups per second against HZ "
		"(bars: 95 %% intervals)</text>\n",
		ML);
	fprintf(f, "<rect x='%d' y='%d' width='%d' height='%d' fill='none' stroke='#999'/>\n", ML,
		MT, W - ML - MR, H - MT - MB);
	for (int k = 0; k <= 4; k++) {
		double v = ymax * k / 4;

		fprintf(f, "<text x='%d' y='%.1f' font-size='11' text-anchor='end'>%.0f</text>\n",
			ML - 6, ly(v, 0, ymax) + 4, v);
	}
	for (unsigned int i = 0; i < n; i++)
		fprintf(f, "<text x='%.1f' y='%d' font-size='11' text-anchor='middle'>%u</text>\n",
			lx(res[i].hz, xlo, xhi), H - MB + 16, res[i].hz);
	fprintf(f, "<text x='%d' y='%d' font-size='12'>HZ</text>\n", (W - MR + ML) / 2, H - 12);
	for (int m = 0; m < 2; m++) {
		const char *col = m ? "#1f77b4" : "#555555", *dash = m ? "none" : "6,4";
		bool first = true;

		fprintf(f,
			"<polyline fill='none' stroke='%s' stroke-width='2.5' "
			"stroke-dasharray='%s' points='",
			col, dash);
		for (unsigned int i = 0; i < n; i++)
			if (res[i].nohz == (bool)m) {
				fprintf(f, "%s%.1f,%.1f", first ? "" : " ", lx(res[i].hz, xlo, xhi),
					ly(res[i].wakeups / span, 0, ymax));
				first = false;
			}
		fprintf(f, "'/>\n");
		for (unsigned int i = 0; i < n; i++) {
			double x, v, e;

			if (res[i].nohz != (bool)m)
				continue;
			x = lx(res[i].hz, xlo, xhi);
			v = res[i].wakeups / span;
			e = block_ci(res[i].block_wakeups, res[i].nblocks) / span;
			fprintf(f,
				"<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='%s'/>"
				"<circle cx='%.1f' cy='%.1f' r='4' fill='%s'/>\n",
				x, ly(v - e, 0, ymax), x, ly(v + e, 0, ymax), col, x,
				ly(v, 0, ymax), col);
		}
		legend(f, (unsigned int)m, col, dash, m ? "tickless idle" : "periodic");
	}
	{
		double x = lx(s->hz, xlo, xhi), y = ly(s->wakeups / span, 0, ymax);
		char label[64];

		fprintf(f,
			"<path d='M %.1f %.1f l 8 8 l -8 8 l -8 -8 z' fill='none' stroke='black' "
			"stroke-width='2.5'/>\n",
			x, y - 8);
		snprintf(label, sizeof(label), "observed (hz=%u %s)", s->hz,
			 s->nohz ? "tickless" : "periodic");
		legend(f, 2, "black", "2,2", label);
	}
	fprintf(f, "</svg>\n");
}

/* The lateness CDFs: a colour per HZ, solid tickless, dashed periodic, the observed in black. */
static void svg_lateness(FILE *f, const struct source *s, const struct result *res, unsigned int n)
{
	double xlo = 1, xhi = 10;
	unsigned int row = 0;

	for (unsigned int i = 0; i < n; i++)
		xhi = (double)res[i].late.max / 1e3 + 1 > xhi ? (double)res[i].late.max / 1e3 + 1
							      : xhi;
	xhi = (double)s->late.max / 1e3 + 1 > xhi ? (double)s->late.max / 1e3 + 1 : xhi;
	xhi *= 1.5;
	fprintf(f,
		"<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' "
		"font-family='sans-serif'>\n",
		W + LEGW, H);
	fprintf(f,
		"<text x='%d' y='18' font-size='14'>How late timers fire: share at or below "
		"each lateness</text>\n",
		ML);
	fprintf(f, "<rect x='%d' y='%d' width='%d' height='%d' fill='none' stroke='#999'/>\n", ML,
		MT, W - ML - MR, H - MT - MB);
	for (double d = 1; d <= xhi; d *= 10)
		fprintf(f, "<text x='%.1f' y='%d' font-size='11' text-anchor='middle'>%g</text>\n",
			lx(d, xlo, xhi), H - MB + 16, d - 1 < 1 ? 0 : d);
	fprintf(f, "<text x='%d' y='%d' font-size='12'>late (us, log scale)</text>\n",
		(W - MR + ML) / 2 - 40, H - 12);
	for (int k = 0; k <= 4; k++)
		fprintf(f, "<text x='%d' y='%.1f' font-size='11' text-anchor='end'>%d%%</text>\n",
			ML - 6, ly(k / 4.0, 0, 1) + 4, 25 * k);
	for (unsigned int i = 0; i <= n; i++) {
		const struct hist *h = i < n ? &res[i].late : &s->late;
		const char *col = i < n ? colour_of(res, n, res[i].hz) : "black";
		const char *dash = i < n && !res[i].nohz ? "6,4" : "none";
		double px = ML, py = ly(0, 0, 1);
		u64 seen = 0;
		char label[64];

		fprintf(f,
			"<polyline fill='none' stroke='%s' stroke-width='%s' stroke-dasharray='%s' "
			"points='%.1f,%.1f",
			col, i < n ? "2" : "3", dash, px, py);
		for (unsigned int b = 0; b < hist_buckets(h) && h->n; b++) {
			double x;

			if (!h->count[b])
				continue;
			seen += h->count[b];
			x = lx((double)hist_bucket_low_bits(b, h->bits) / 1e3 + 1, xlo, xhi);
			py = ly((double)seen / (double)h->n, 0, 1);
			fprintf(f, " %.1f,%.1f %.1f,%.1f", x,
				ly((double)(seen - h->count[b]) / (double)h->n, 0, 1), x, py);
		}
		fprintf(f, " %d,%.1f'/>\n", W - MR, py);
		if (i < n)
			snprintf(label, sizeof(label), "hz=%u %s", res[i].hz,
				 res[i].nohz ? "tickless" : "periodic");
		else
			snprintf(label, sizeof(label), "observed");
		legend(f, row++, col, dash, label);
	}
	fprintf(f, "</svg>\n");
}

static void setting_heads(FILE *f, const struct result *res, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		fprintf(f, "<th>%u%s</th>", res[i].hz, res[i].nohz ? "n" : "p");
	fprintf(f, "</tr>\n");
}

/*
 * The programs the text's table shows (top_progs()), a cell red where the
 * text marks it "!" (prog_late(): a thread of it late past its budget).
 * Each cell names its setting (data-setting) for the browser test.
 */
static void html_programs(FILE *f, const struct options *o, const struct source *s,
			  const struct result *res, unsigned int n)
{
	double span = span_of(s);
	unsigned int idx[24], np = top_progs(s, idx, 24);

	if (!np)
		return;
	fprintf(f,
		"<h2>Whose timers</h2>\n<p>Fires per second and p99 lateness (ms) of each "
		"program's timers, observed and at each setting; red: a thread of the program "
		"late past its budget there (--max-late-us %.0f, --max-late-pct %.0f; see the "
		"threads below).</p>\n<table><tr><th>program</th><th>timers</th><th>observed</th>",
		o->max_late_us, o->max_late_pct);
	setting_heads(f, res, n);
	for (unsigned int k = 0; k < np; k++) {
		unsigned int g = idx[k];
		const struct prog *pg = &s->prog[g];

		fprintf(f, "<tr class='prog'><td>");
		html_text(f, pg->name);
		fprintf(f, "</td><td>%s</td><td>%.1f/s, %.2f</td>",
			pg->kind == PK_HRTIMER	 ? "hrtimer"
			: pg->kind == PK_JIFFIES ? "jiffies"
			: pg->jiffies		 ? "kernel-jiffies"
						 : "kernel-hrtimer",
			pg->fired / span, hist_quantile(&pg->late, 0.99) / 1e6);
		for (unsigned int i = 0; i < n; i++) {
			const struct presult *pr = &res[i].prog[g];

			fprintf(f, "<td data-setting='%u%s'%s>%.1f/s, %.2f</td>", res[i].hz,
				res[i].nohz ? "n" : "p",
				prog_late(o, s, &res[i], g) ? " class='late'" : "",
				pr->fired / span,
				pr->fired ? hist_quantile(&pr->late, 0.99) / 1e6 : 0);
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
}

/* The threads' budgets, as the text's second table: red where it marks "!". */
static void html_threads(FILE *f, const struct options *o, const struct source *s,
			 const struct result *res, unsigned int n)
{
	double span = span_of(s);
	unsigned int rows = 0;
	char who[96];

	for (unsigned int b = 0; b < s->nbudget; b++) {
		bool shown = s->budget[b].fired;
		double p, w;

		for (unsigned int i = 0; i < n && !shown; i++)
			shown = res[i].bud[b].fired;
		if (!shown)
			continue;
		if (!rows++) {
			fprintf(f,
				"<h2>Threads' timeouts</h2>\n<p>Each thread's own jiffies "
				"timeouts, by the size of timeout it asked, as the advice judges "
				"them: fires per second and p99 lateness (ms); red: late past "
				"the budget (fewer than 10 firings are not judged).</p>\n<table>"
				"<tr><th>thread</th><th>waits in</th><th>asked (ms)</th>"
				"<th>budget (ms)</th><th>observed</th>");
			setting_heads(f, res, n);
		}
		budget_hurt(o, s, &res[0], b, &p, &w);
		fprintf(f, "<tr><td>");
		html_text(f, budget_who(s, b, who, sizeof(who)));
		fprintf(f, "</td><td>");
		html_text(f, budget_call(s, b));
		fprintf(f, "</td><td>%.1f-%.1f</td><td>%.1f</td><td>%.1f/s, %.2f</td>",
			budget_asks_ns(s, b) / 1e6,
			(double)hist_quantile(&s->budget[b].req_j, 0.5) * (double)s->tick_nsec /
				1e6,
			w / 1e3, s->budget[b].fired / span,
			hist_quantile(&s->budget[b].late, 0.99) / 1e6);
		for (unsigned int i = 0; i < n; i++) {
			const struct presult *pr = &res[i].bud[b];
			bool bad = budget_judged(s, &res[i], b) &&
				   budget_hurt(o, s, &res[i], b, &p, &w);

			fprintf(f,
				"<td data-thread='%d:%llu' data-setting='%u%s'%s>%.1f/s, %.2f</td>",
				s->budget[b].pid,
				(unsigned long long)hist_quantile(&s->budget[b].req_j, 0.5),
				res[i].hz, res[i].nohz ? "n" : "p", bad ? " class='late'" : "",
				pr->fired / span,
				pr->fired ? hist_quantile(&pr->late, 0.99) / 1e6 : 0);
		}
		fprintf(f, "</tr>\n");
	}
	if (rows)
		fprintf(f, "</table>\n");
}

int write_html(const char *path, const struct options *o, const struct source *s,
	       const struct result *res, unsigned int n, int recorded, const struct advice *a,
	       char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");
	double span = span_of(s);

	if (!f) {
		snprintf(err, errlen, "--html %s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f,
		"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>hzadvise</title>\n"
		"<style>body{font-family:sans-serif;max-width:980px;margin:2em auto;color:#222}"
		"table{border-collapse:collapse;font-size:13px}td,th{padding:3px 8px;"
		"border-bottom:1px solid #ddd;text-align:right}th{background:#f4f4f4}"
		"td:first-child,th:first-child{text-align:left}.rec{background:#eef6ff}"
		".pick{font-weight:bold}.late{color:#c00}code{background:#f4f4f4;padding:2px 5px;"
		"font-size:15px}</style></head><body>\n<h1>Which HZ for this machine</h1>\n");
	if (a->pick >= 0) {
		fprintf(f, "<p>Boot with <code>hz=%u nohz=%s</code></p>\n<p>", res[a->pick].hz,
			res[a->pick].nohz ? "on" : "off");
		html_text(f, a->reason);
		fprintf(f, ".</p>\n");
	}
	fprintf(f,
		"<p>The trace: %llu events on %u CPUs over %.1f s, recorded at HZ=%u (%s), %s. "
		"Observed: %.1f &plusmn; %.1f wakeups/s. Replayed as %s; &plusmn;: 95 %% "
		"intervals over %u blocks of the trace.</p>\n",
		(unsigned long long)s->events, s->ncpu, span, s->hz, s->hz_how,
		s->nohz ? "tickless idle" : "periodic tick", s->wakeups / span,
		block_ci(s->block_wakeups, s->nblocks) / span,
		o->wheel_linux ? "Linux files timers" : "dynhz runs them", s->nblocks);
	if (a->checked)
		fprintf(f,
			"<p>Check: the replay at the recorded setting gives %.1f wakeups/s, the "
			"trace shows %.1f (%+.1f %%); the model's bound on every setting's "
			"wakeups: "
			"&plusmn;%.0f %% (beside the 95 %% intervals).</p>\n",
			a->replayed, a->observed, a->off_pct, a->bound_pct);
	if (a->rerecord)
		fprintf(f,
			"<p class='late' id='rerecord'><b>Warning:</b> no sched_switch or cpu_idle "
			"events: busy and idle are guessed, %s; every figure may be %.0f %% off. "
			"Re-record with tools/hzadvise/record.sh's default events (without "
			"-n).</p>\n",
			advice_rerecord_why(a), a->bound_pct);
	svg_wakeups(f, s, res, n);
	fprintf(f, "<h2>Settings</h2>\n<table><tr><th>setting</th><th>wakeups/s</th><th>ticks/s"
		   "</th><th>late p50 (us)</th><th>p99 (us)</th><th>energy (model)</th></tr>\n");
	for (unsigned int i = 0; i < n; i++) {
		const struct result *r = &res[i];

		fprintf(f,
			"<tr class='%s%s'><td>hz=%u %s%s</td><td>%.1f &plusmn; "
			"%.1f</td><td>%.1f</td>"
			"<td>%.0f</td><td>%.0f</td><td>%.3f</td></tr>\n",
			(int)i == recorded ? "rec" : "", (int)i == a->pick ? " pick" : "", r->hz,
			r->nohz ? "tickless" : "periodic", (int)i == recorded ? " (recorded)" : "",
			r->wakeups / span, block_ci(r->block_wakeups, r->nblocks) / span,
			r->interrupts / span, hist_quantile(&r->late, 0.5) / 1e3,
			hist_quantile(&r->late, 0.99) / 1e3,
			recorded >= 0 && res[recorded].energy_j > 0
				? r->energy_j / res[recorded].energy_j
				: 0);
	}
	fprintf(f,
		"</table>\n<p>Energy is a model's, not a measurement: a busy CPU draws %.1f W, "
		"an idle interval the deepest C-state its length reaches.</p>\n",
		o->busy_w);
	svg_lateness(f, s, res, n);
	html_programs(f, o, s, res, n);
	html_threads(f, o, s, res, n);
	fprintf(f, "</body></html>\n");
	if (fclose(f)) {
		snprintf(err, errlen, "--html %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
