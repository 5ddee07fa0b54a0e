// SPDX-License-Identifier: MIT
/*
 * What the replays found, for people (a table) and for programs (the
 * source:/setting:/program:/recommend: lines, CSV), and the advice.
 *
 * The advice: a setting is out when it makes a program's own jiffies
 * timeouts late (p99) by more than --max-late-us (2000) and more than
 * --max-late-pct (100) % of what the program asks for (its median
 * timeout at the recorded HZ); kernel housekeeping and hrtimers (which do
 * not move with HZ) are not judged. Of the settings left, the one with
 * the fewest wakeups a second; but if the recorded setting is among them
 * and no setting saves wakeups beyond the noise (the 95 % interval of the
 * difference, paired over the trace's blocks), the recorded one, "no
 * difference within noise". The energy model is printed, never the
 * reason.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hzadvise.h"

static double span_s(const struct source *s)
{
	double d = (double)(s->last_ts - s->first_ts) / 1e9;

	return d > 0 ? d : 1e-9;
}

static double late_us(const struct result *r, double q)
{
	return (double)hist_quantile(&r->late, q) / 1e3;
}

static const char *mode_name(bool nohz)
{
	return nohz ? "nohz" : "periodic";
}

static double energy_rel(const struct result *res, unsigned int i, int recorded)
{
	double base = recorded >= 0 ? res[recorded].energy_j : 0;

	return base > 0 ? res[i].energy_j / base : 0;
}

/* Student's t at 95 %, two-sided, for n - 1 degrees of freedom (n blocks). */
static double t95(unsigned int n)
{
	static const double t[] = { 0,	   12.71, 4.303, 3.182, 2.776, 2.571, 2.447,
				    2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
				    2.145, 2.131, 2.120, 2.110, 2.101, 2.093 };

	return n - 1 < sizeof(t) / sizeof(t[0]) ? t[n - 1] : 1.96;
}

/*
 * The total of n blocks and its 95 % half width: n times the blocks'
 * standard error of the mean (blocks taken as independent samples of the
 * trace's behaviour).
 */
double block_ci_d(const double *v, unsigned int n)
{
	double m = 0, ss = 0;

	if (n < 2)
		return 0;
	for (unsigned int i = 0; i < n; i++)
		m += v[i];
	m /= n;
	for (unsigned int i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return t95(n) * sqrt(ss / (n - 1)) * sqrt((double)n);
}

double block_ci(const u64 *v, unsigned int n)
{
	double d[64];

	for (unsigned int i = 0; i < n && i < 64; i++)
		d[i] = (double)v[i];
	return block_ci_d(d, n < 64 ? n : 64);
}

double block_ci_diff(const u64 *a, const u64 *b, unsigned int n)
{
	double d[64];

	for (unsigned int i = 0; i < n && i < 64; i++)
		d[i] = (double)a[i] - (double)b[i];
	return block_ci_d(d, n < 64 ? n : 64);
}

static double block_ci_u32(const uint32_t *v, unsigned int n)
{
	double d[64];

	for (unsigned int i = 0; i < n && i < 64; i++)
		d[i] = (double)v[i];
	return block_ci_d(d, n < 64 ? n : 64);
}

/* The order statistics that bound the q-quantile with 95 % confidence. */
void hist_quantile_ci(const struct hist *h, double q, u64 *lo, u64 *hi)
{
	double n = (double)h->n, k = q * n, se = sqrt(n * q * (1 - q));
	double a = floor(k - 1.96 * se), b = ceil(k + 1.96 * se) + 1;

	*lo = hist_kth(h, a < 1 ? 1 : (u64)a);
	*hi = hist_kth(h, b > n ? h->n : (u64)b);
}

/*
 * The least budget b's thread can have asked for, ns, at the median of its
 * timeouts of this size, T recorded ticks: more than (T - 1) ticks (Linux
 * rounds every conversion up). A timeout of one tick may have asked for
 * 1 ms or for a whole 10 ms tick: the budget must not take the tick for
 * the ask.
 */
double budget_asks_ns(const struct source *s, unsigned int b)
{
	u64 T = hist_quantile(&s->budget[b].req_j, 0.5);

	return T > 1 ? ((double)T - 1) * (double)s->tick_nsec : 0;
}

/* A budget the advice judges: a thread's jiffies timeouts of one size, firing at least 10 times; no kernel thread's. */
bool budget_judged(const struct source *s, const struct result *r, unsigned int b)
{
	return b < r->nbud && r->bud[b].fired >= 10 && !s->budget[b].kthread;
}

/* Its p99 lateness at r, and what it may be late by: is it over? */
bool budget_hurt(const struct options *o, const struct source *s, const struct result *r,
		 unsigned int b, double *p99_us, double *budget_us)
{
	double a = o->max_late_pct / 100 * budget_asks_ns(s, b) / 1e3;

	*p99_us = (double)hist_quantile(&r->bud[b].late, 0.99) / 1e3;
	*budget_us = a > o->max_late_us ? a : o->max_late_us;
	return *p99_us > *budget_us;
}

/* Is budget b judged and over at r? */
static bool bud_late(const struct options *o, const struct source *s, const struct result *r,
		     unsigned int b)
{
	double p, w;

	return budget_judged(s, r, b) && budget_hurt(o, s, r, b, &p, &w);
}

/* Is any thread of program g late past its budget at r? */
bool prog_late(const struct options *o, const struct source *s, const struct result *r,
	       unsigned int g)
{
	for (unsigned int b = 0; b < s->nbudget; b++)
		if (s->budget[b].prog == g && bud_late(o, s, r, b))
			return true;
	return false;
}

static unsigned int hurt_count(const struct options *o, const struct source *s,
			       const struct result *r, double *worst)
{
	unsigned int n = 0;
	double p, b;

	*worst = 0;
	for (unsigned int k = 0; k < s->nbudget; k++)
		if (budget_judged(s, r, k) && budget_hurt(o, s, r, k, &p, &b)) {
			n++;
			if (p / b > *worst)
				*worst = p / b;
		}
	return n;
}

/* An anonymized trace's program is one task already: "task-PID". */
static bool named_by_pid(const char *name)
{
	return !strncmp(name, "task-", 5) && name[5] >= '0' && name[5] <= '9';
}

/* Who budget b is, for people: "udp2 thread 4242", or "task-4242" (anonymized). */
const char *budget_who(const struct source *s, unsigned int b, char *buf, size_t len)
{
	const struct budget *d = &s->budget[b];
	const char *name = s->prog[d->prog].name;

	if (d->pid < 0 || named_by_pid(name))
		snprintf(buf, len, "%s%s", name, d->kthread ? " (kernel thread)" : "");
	else
		snprintf(buf, len, "%s %sthread %d", name, d->kthread ? "kernel " : "", d->pid);
	return buf;
}

/* What budget b's thread waits in: from the trace's stacks, else the kernel call all use. */
const char *budget_call(const struct source *s, unsigned int b)
{
	return s->budget[b].call[0] ? s->budget[b].call : "schedule_timeout";
}

static const char *setting_name(const struct result *r, char *buf, size_t len)
{
	snprintf(buf, len, "hz=%u %s", r->hz, r->nohz ? "tickless" : "periodic");
	return buf;
}

/* Appends to a->reason. */
static void say(struct advice *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(struct advice *a, const char *fmt, ...)
{
	size_t at = strlen(a->reason);
	va_list ap;

	if (at >= sizeof(a->reason) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(a->reason + at, sizeof(a->reason) - at, fmt, ap);
	va_end(ap);
}

/* Which program the lower settings make late, for the reason: the worst at the lowest HZ out. */
static void name_hurt(const struct options *o, const struct source *s, const struct result *res,
		      unsigned int n, int recorded, struct advice *a)
{
	int worst_i = -1;
	unsigned int worst_g = 0;
	u64 T;
	double worst = 0, p, b;
	char who[96];

	for (unsigned int i = 0; i < n; i++)
		for (unsigned int g = 0; g < s->nbudget; g++)
			if (budget_judged(s, &res[i], g) && budget_hurt(o, s, &res[i], g, &p, &b) &&
			    (worst_i < 0 || res[i].hz < res[worst_i].hz ||
			     (res[i].hz == res[worst_i].hz && p / b > worst))) {
				worst_i = (int)i;
				worst_g = g;
				worst = p / b;
			}
	a->hurt[0] = '\0';
	if (worst_i < 0)
		return;
	/* The recorded setting out: that is the reason to leave it, say it of that one. */
	for (unsigned int g = 0; recorded >= 0 && g < s->nbudget; g++)
		if (budget_judged(s, &res[recorded], g) &&
		    budget_hurt(o, s, &res[recorded], g, &p, &b) &&
		    (worst_i != recorded || p / b > worst)) {
			worst_i = recorded;
			worst_g = g;
			worst = p / b;
		}
	budget_hurt(o, s, &res[worst_i], worst_g, &p, &b);
	T = hist_quantile(&s->budget[worst_g].req_j, 0.5);
	snprintf(a->hurt, sizeof(a->hurt),
		 "%s's timeouts (%s, median %llu recorded tick%s: more than %.1f and "
		 "at most %.1f ms asked) are late by %.1f ms at p99 at hz=%u %s, over its budget "
		 "of %.1f ms",
		 budget_who(s, worst_g, who, sizeof(who)), budget_call(s, worst_g),
		 (unsigned long long)T, T == 1 ? "" : "s", budget_asks_ns(s, worst_g) / 1e6,
		 (double)T * (double)s->tick_nsec / 1e6, p / 1e3, res[worst_i].hz,
		 res[worst_i].nohz ? "tickless" : "periodic", b / 1e3);
}

/*
 * The model's bound. Busy and idle decide when the tick runs: a trace with
 * sched_switch or cpu_idle events says them, one without has them guessed
 * by the rule (replay.c), which misses short bursts of a task between idle
 * periods on a machine that idles often (issue 43: 20-33 % low on idle
 * machines whose tick stops and restarts all the time). The replay at the
 * recorded setting must give what the trace shows, so its distance from
 * that, off, is measured on the trace itself; at the other settings the
 * model may be off by more, as more of each is ticks. Measured on the
 * training traces of docs/ADVISOR.md ("Held out"), recorded with sched
 * events and read again with them stripped (the same recording both
 * ways): the stripped replay's distance from the full one at every
 * setting, against its distance at the recorded setting.
 */
#define MODEL_FLOOR_SCHED   2.0	 /* %: with sched events, at least its own distance */
#define MODEL_FLOOR_NOSCHED 10.0 /* %: without: the training traces' worst, 9.8 (asyncio) */
#define MODEL_K_NOSCHED	    2.0	 /* without: times the distance at the recorded setting */
#define MODEL_REC_PCT	    5.0	 /* without, off by more: re-record with sched events */

const char *advice_rerecord_why(const struct advice *a)
{
	return a->checked ? "and the replay does not give the recorded wakeups"
			  : "and the trace has no timer interrupt to check them against";
}

double model_bound(bool sched, double off_pct)
{
	double a = fabs(off_pct), b;

	if (sched)
		return a > MODEL_FLOOR_SCHED ? a : MODEL_FLOOR_SCHED;
	b = MODEL_K_NOSCHED * a;
	return b > MODEL_FLOOR_NOSCHED ? b : MODEL_FLOOR_NOSCHED;
}

static void model_check(const struct source *s, const struct result *res, int recorded,
			struct advice *a)
{
	double span = span_s(s);

	a->checked = recorded >= 0 && s->wakeups > 0;
	a->rerecord = false;
	a->observed = s->wakeups / span;
	a->replayed = recorded >= 0 ? res[recorded].wakeups / span : 0;
	a->off_pct = a->checked ? 100 * (a->replayed - a->observed) / a->observed : 0;
	/* Not checked (no timer interrupt in the trace): the bound is the rule's at its worst seen. */
	a->bound_pct = a->checked ? model_bound(s->has_sched, a->off_pct)
				  : model_bound(s->has_sched, s->has_sched ? 0 : 33);
	if (!s->has_sched && (!a->checked || fabs(a->off_pct) > MODEL_REC_PCT))
		a->rerecord = true;
}

void advise(const struct options *o, const struct source *s, const struct result *res,
	    unsigned int n, int recorded, struct advice *a)
{
	double span = span_s(s), worst[66];
	unsigned int h[66], fits = 0;
	int best = -1, pick;
	char nb[64], nr[64];

	a->reason[0] = '\0';
	a->noise = false;
	model_check(s, res, recorded, a);
	for (unsigned int i = 0; i < n && i < 66; i++) {
		h[i] = hurt_count(o, s, &res[i], &worst[i]);
		if (h[i])
			continue;
		/*
		 * A tie goes to tickless: it wakes no more than periodic where the
		 * machine idles more than the trace shows.
		 */
		if (!fits++ || res[i].wakeups < res[best].wakeups ||
		    (res[i].wakeups == res[best].wakeups && res[i].nohz && !res[best].nohz))
			best = (int)i;
	}
	for (unsigned int i = 0; !fits && i < n && i < 66; i++)
		if (best < 0 || h[i] < h[best] || (h[i] == h[best] && worst[i] < worst[best]))
			best = (int)i;
	name_hurt(o, s, res, n, recorded, a);
	a->pick = best;
	if (best < 0)
		return;
	if (!fits) {
		say(a, "no setting keeps every program's timeouts within budget; %s comes closest",
		    setting_name(&res[best], nb, sizeof(nb)));
		if (a->hurt[0])
			say(a, "; %s", a->hurt);
		return;
	}
	pick = best;
	/* Only a setting other than the recorded one can differ from it by noise. */
	if (recorded >= 0 && !h[recorded] && best != recorded) {
		double d = (double)res[recorded].wakeups - (double)res[best].wakeups;
		double ci = block_ci_diff(res[recorded].block_wakeups, res[best].block_wakeups,
					  res[best].nblocks);

		/* A model that failed its own check: its bound counts as noise too. */
		if (d <= ci || d < 0.01 * (double)res[recorded].wakeups ||
		    (a->rerecord && d <= a->bound_pct / 100 * (double)res[recorded].wakeups)) {
			pick = recorded;
			a->noise = true;
		}
	}
	a->pick = pick;
	setting_name(&res[pick], nb, sizeof(nb));
	if (recorded < 0 || (pick == recorded && !a->noise)) {
		say(a,
		    "%s%s has the fewest wakeups (%.1f/s) of the %u settings that keep every "
		    "program's timeouts within budget",
		    nb, recorded >= 0 ? ", as recorded," : "", res[pick].wakeups / span, fits);
	} else if (a->noise) {
		say(a,
		    "no difference within noise: no setting that keeps every program's timeouts "
		    "within budget saves wakeups beyond the noise against the recorded %s "
		    "(%.1f/s; the fewest, %s, %.1f/s, 95 %% interval of the difference +/-%.1f/s)",
		    nb, res[pick].wakeups / span, setting_name(&res[best], nr, sizeof(nr)),
		    res[best].wakeups / span,
		    block_ci_diff(res[recorded].block_wakeups, res[best].block_wakeups,
				  res[best].nblocks) /
			    span);
	} else {
		double d = ((double)res[recorded].wakeups - (double)res[pick].wakeups) / span;
		double ci = block_ci_diff(res[recorded].block_wakeups, res[pick].block_wakeups,
					  res[pick].nblocks) /
			    span;

		setting_name(&res[recorded], nr, sizeof(nr));
		if (d >= 0)
			say(a,
			    "%s saves %.1f +/- %.1f wakeups/s (%.0f %%) against the recorded %s "
			    "(%.1f/s), the most of the %u settings that keep every program's "
			    "timeouts within budget",
			    nb, d, ci, 100 * d / (res[recorded].wakeups / span), nr,
			    res[recorded].wakeups / span, fits);
		else
			say(a,
			    "%s costs %.1f +/- %.1f more wakeups/s than the recorded %s, which "
			    "makes "
			    "a program late",
			    nb, -d, ci, nr);
	}
	if (a->hurt[0])
		say(a, "; lower settings are out: %s", a->hurt);
	if (a->rerecord && a->checked)
		say(a,
		    "; but the trace has no sched events, and with busy and idle guessed by the "
		    "rule the replay at the recorded setting gives %.1f wakeups/s where the trace "
		    "shows %.1f (%+.0f %%): every figure may be %.0f %% off; re-record with "
		    "tools/hzadvise/record.sh's default events (without -n)",
		    a->replayed, a->observed, a->off_pct, a->bound_pct);
	else if (a->rerecord)
		say(a,
		    "; but the trace has no sched events and the recorded setting was not "
		    "replayed to check the rule's busy and idle against it: every figure may be "
		    "%.0f %% off; re-record with tools/hzadvise/record.sh's default events "
		    "(without -n), or add the recorded HZ to --hz",
		    a->bound_pct);
}

/* The HZ column's width: a --retune setting's name is longer than a number. */
static int hz_width(const struct result *res, unsigned int n)
{
	char name[512];
	int w = 6;

	for (unsigned int i = 0; i < n; i++)
		if ((int)strlen(result_hz(&res[i], name, sizeof(name))) > w)
			w = (int)strlen(name);
	return w;
}

static double rate(u64 n, double span)
{
	return (double)n / span;
}

static void table(FILE *f, const struct options *o, const struct source *s,
		  struct result *const *cpu, const struct result *res, unsigned int n, int recorded)
{
	double span = span_s(s);
	int w = hz_width(res, n);
	char name[512];

	fprintf(f, "%-*s %-9s %17s %9s %9s %19s %8s", w, "HZ", "mode", "wakeups/s (95%)", "ticks/s",
		"late p50", "p99 (95%) us", "tick%");
	for (unsigned int k = 0; k < o->ncs; k++)
		fprintf(f, " %6s", o->cs[k].name);
	fprintf(f, " %13s\n", "energy*");
	for (unsigned int i = 0; i < n; i++) {
		const struct result *r = &res[i];
		u64 lo, hi;
		char ci[40];

		hist_quantile_ci(&r->late, 0.99, &lo, &hi);
		snprintf(ci, sizeof(ci), "%.0f (%.0f-%.0f)", late_us(r, 0.99), lo / 1e3, hi / 1e3);
		fprintf(f, "%-*s %-9s %9.1f +/-%5.1f %9.1f %9.0f %19s %8.4f", w,
			result_hz(r, name, sizeof(name)), mode_name(r->nohz),
			rate(r->wakeups, span), block_ci(r->block_wakeups, r->nblocks) / span,
			rate(r->interrupts, span), late_us(r, 0.5), ci,
			100 * r->tick_cpu_ns / (span * 1e9 * s->ncpu));
		for (unsigned int k = 0; k < o->ncs; k++)
			fprintf(f, " %5.1f%%",
				r->idle_ns > 0 ? 100 * r->res_ns[k] / r->idle_ns : 0);
		fprintf(f, " %6.3f+/-%.3f%s\n", energy_rel(res, i, recorded),
			recorded >= 0 && res[recorded].energy_j > 0
				? block_ci_d(r->block_energy, r->nblocks) / res[recorded].energy_j
				: 0,
			(int)i == recorded ? "  <- recorded" : "");
	}
	fprintf(f,
		"\n* energy relative to the recorded setting, from a model: a busy CPU draws "
		"--busy-w, an idle interval\n  the deepest C-state its length reaches (--cstates), "
		"exit latency at busy power. Not a measurement.\n");
	fprintf(f, "\nidle intervals, by the deepest state each reaches (its target residency):\n");
	fprintf(f, "%-*s %-9s %9s %9s", w, "HZ", "mode", "intervals", "none");
	for (unsigned int k = 0; k < o->ncs; k++) {
		char h[32];

		snprintf(h, sizeof(h), "%s>=%gus", o->cs[k].name, o->cs[k].residency_us);
		fprintf(f, " %12s", h);
	}
	fprintf(f, "\n");
	for (unsigned int i = 0; i < n; i++) {
		const struct result *r = &res[i];

		fprintf(f, "%-*s %-9s %9llu %9llu", w, result_hz(r, name, sizeof(name)),
			mode_name(r->nohz), (unsigned long long)r->idle.n,
			(unsigned long long)r->deepest[0]);
		for (unsigned int k = 0; k < o->ncs; k++)
			fprintf(f, " %12llu", (unsigned long long)r->deepest[k + 1]);
		fprintf(f, "\n");
	}
	fprintf(f, "\nper CPU, wakeups/s (observed | replayed at each setting):\n");
	for (unsigned int c = 0; c < s->ncpu; c++) {
		fprintf(f, "  cpu%-3u %8.1f |", c, s->cpu_wakeups[c] / span);
		for (unsigned int i = 0; i < n; i++)
			fprintf(f, " %s%s:%.1f", result_hz(&res[i], name, sizeof(name)),
				res[i].nohz ? "n" : "p", cpu[i][c].wakeups / span);
		fprintf(f, "\n");
	}
}

static const char *kind_name(const struct prog *g)
{
	if (g->kind == PK_HRTIMER)
		return "hrtimer";
	if (g->kind == PK_JIFFIES)
		return "jiffies";
	return g->jiffies ? "kernel-jiffies" : "kernel-hrtimer";
}

/* The programs, most firings first: indexes into s->prog, at most max. */
unsigned int top_progs(const struct source *s, unsigned int *idx, unsigned int max)
{
	unsigned int n = 0;

	for (unsigned int g = 1; g < s->nprog; g++) {
		unsigned int j;

		if (!s->prog[g].fired)
			continue;
		for (j = n; j > 0 && s->prog[idx[j - 1]].fired < s->prog[g].fired; j--)
			if (j < max)
				idx[j] = idx[j - 1];
		if (j < max) {
			idx[j] = g;
			if (n < max)
				n++;
		}
	}
	return n;
}

static void programs(FILE *f, const struct options *o, const struct source *s,
		     const struct result *res, unsigned int n)
{
	double span = span_s(s);
	unsigned int idx[24], np = top_progs(s, idx, 24);

	if (!np)
		return;
	fprintf(f, "\nwhose timers: fires/s and p99 lateness (ms), observed and at each setting "
		   "(\"!\": late past its budget)\n");
	fprintf(f, "%-20s %-14s %15s", "program", "timers", "observed");
	for (unsigned int i = 0; i < n; i++) {
		char h[32];

		snprintf(h, sizeof(h), "%u%s", res[i].hz, res[i].nohz ? "n" : "p");
		fprintf(f, " %14s", h);
	}
	fprintf(f, "\n");
	for (unsigned int k = 0; k < np; k++) {
		unsigned int g = idx[k];
		const struct prog *pg = &s->prog[g];

		fprintf(f, "%-20.20s %-14s %7.1f %7.2f", pg->name, kind_name(pg),
			rate(pg->fired, span), hist_quantile(&pg->late, 0.99) / 1e6);
		for (unsigned int i = 0; i < n; i++) {
			const struct presult *pr = &res[i].prog[g];
			bool bad = prog_late(o, s, &res[i], g);

			fprintf(f, " %6.1f %6.2f%s", rate(pr->fired, span),
				pr->fired ? hist_quantile(&pr->late, 0.99) / 1e6 : 0,
				bad ? "!" : " ");
		}
		fprintf(f, "\n");
	}
}

/* Did budget b fire at all, observed or at a setting? (else nothing to show) */
static bool bud_shown(const struct source *s, const struct result *res, unsigned int n,
		      unsigned int b)
{
	if (s->budget[b].fired)
		return true;
	for (unsigned int i = 0; i < n; i++)
		if (b < res[i].nbud && res[i].bud[b].fired)
			return true;
	return false;
}

/* The threads' timeouts as the advice judges them, one row per thread and size of timeout. */
static void threads(FILE *f, const struct options *o, const struct source *s,
		    const struct result *res, unsigned int n)
{
	double span = span_s(s);
	unsigned int rows = 0;
	char who[96];

	for (unsigned int b = 0; b < s->nbudget; b++) {
		u64 T = hist_quantile(&s->budget[b].req_j, 0.5);

		if (!bud_shown(s, res, n, b))
			continue;
		if (!rows++) {
			fprintf(f,
				"\nthreads' own jiffies timeouts, as the advice judges them (each "
				"thread, each size of timeout): fires/s and p99 lateness (ms), "
				"observed and at each setting (\"!\": late past the budget; fewer "
				"than 10 firings are not judged)\n");
			fprintf(f, "%-26s %-28s %9s %7s %15s", "thread", "waits in", "asked ms",
				"budget", "observed");
			for (unsigned int i = 0; i < n; i++) {
				char h[32];

				snprintf(h, sizeof(h), "%u%s", res[i].hz, res[i].nohz ? "n" : "p");
				fprintf(f, " %14s", h);
			}
			fprintf(f, "\n");
		}
		if (rows > 24)
			continue;
		{
			double p = 0, w = 0, a = budget_asks_ns(s, b) / 1e6;
			char asked[32];

			budget_hurt(o, s, &res[0], b, &p, &w);
			snprintf(asked, sizeof(asked), "%.1f-%.1f", a,
				 (double)T * (double)s->tick_nsec / 1e6);
			fprintf(f, "%-26.26s %-28.28s %9s %7.1f %7.1f %7.2f",
				budget_who(s, b, who, sizeof(who)), budget_call(s, b), asked,
				w / 1e3, rate(s->budget[b].fired, span),
				hist_quantile(&s->budget[b].late, 0.99) / 1e6);
		}
		for (unsigned int i = 0; i < n; i++) {
			const struct presult *pr = &res[i].bud[b];
			double p, w;
			bool bad = budget_judged(s, &res[i], b) &&
				   budget_hurt(o, s, &res[i], b, &p, &w);

			fprintf(f, " %6.1f %6.2f%s", rate(pr->fired, span),
				pr->fired ? hist_quantile(&pr->late, 0.99) / 1e6 : 0,
				bad ? "!" : " ");
		}
		fprintf(f, "\n");
	}
	if (rows > 24)
		fprintf(f, "(and %u more: the thread: lines)\n", rows - 24);
}

void report(FILE *f, const struct options *o, const struct source *s, struct result *const *cpu,
	    const struct result *res, unsigned int n, int recorded, const struct advice *a)
{
	double span = span_s(s);
	char name[512];

	if (!o->quiet) {
		fprintf(f,
			"trace: %llu events on %u CPUs over %.3f s; recorded at HZ=%u (%s), %s "
			"(%s); busy and idle %s; the idle loop %s (%s)\n",
			(unsigned long long)s->events, s->ncpu, span, s->hz, s->hz_how,
			s->nohz ? "tickless idle" : "periodic tick", s->mode_how,
			s->has_sched ? "from its sched_switch/cpu_idle events"
				     : "by the rule (no sched_switch or cpu_idle events)",
			s->idle_hold ? "keeps the tick until it runs once after each idle entry"
				     : "stops the tick where its governor would",
			s->idle_how);
		fprintf(f,
			"observed: %.1f +/- %.1f wakeups/s; jiffies timers late p50 %.0f us, p99 "
			"%.0f us, max %.0f us (%llu fired)\n",
			s->wakeups / span, block_ci(s->block_wakeups, s->nblocks) / span,
			(double)hist_quantile(&s->late, 0.5) / 1e3,
			(double)hist_quantile(&s->late, 0.99) / 1e3, (double)s->late.max / 1e3,
			(unsigned long long)s->fired);
		fprintf(f,
			"replayed through the dynhz core, wheel as %s; lateness against the "
			"requested jiffy's start (hrtimers: their soft expiry); +/-: 95 %% over "
			"%u blocks of the trace\n",
			o->wheel_linux ? "Linux files timers" : "dynhz runs them (exact)",
			s->nblocks);
		if (a->checked)
			fprintf(f,
				"replay checked: at the recorded setting it gives %.1f wakeups/s, "
				"the "
				"trace shows %.1f (%+.1f %%); the model's bound on every setting's "
				"wakeups: +/-%.0f %% (beside the 95 %% intervals)\n",
				a->replayed, a->observed, a->off_pct, a->bound_pct);
		if (a->rerecord)
			fprintf(f,
				"WARNING: no sched_switch or cpu_idle events: busy and idle are "
				"guessed, %s; every figure may be %.0f %% off. Re-record with "
				"tools/hzadvise/record.sh's default events (without -n).\n",
				advice_rerecord_why(a), a->bound_pct);
		fprintf(f, "\n");
		table(f, o, s, cpu, res, n, recorded);
		programs(f, o, s, res, n);
		threads(f, o, s, res, n);
		fprintf(f, "\n");
	}
	fprintf(f,
		"source: hz=%u mode=%s events=%llu unknown=%llu bad=%llu span_s=%.3f "
		"wakeups_per_s=%.1f wakeups_ci=%.1f sched=%d clock_offset_us=%.3f "
		"idle_loop=%s cpuidle=%s\n",
		s->hz, mode_name(s->nohz), (unsigned long long)s->events,
		(unsigned long long)s->unknown, (unsigned long long)s->bad, span, s->wakeups / span,
		block_ci(s->block_wakeups, s->nblocks) / span, s->has_sched,
		(double)(s64)s->mono_offset / 1e3, s->idle_hold ? "hold" : "governor",
		s->cpuidle[0] ? s->cpuidle : "?");
	for (unsigned int i = 0; i < n; i++) {
		const struct result *r = &res[i];
		u64 lo, hi;

		hist_quantile_ci(&r->late, 0.99, &lo, &hi);
		fprintf(f,
			"setting: hz=%s mode=%s wakeups_per_s=%.1f wakeups_ci=%.1f "
			"ticks_per_s=%.1f "
			"late_p50_us=%.0f late_p99_us=%.0f late_p99_lo_us=%.0f late_p99_hi_us=%.0f "
			"late_max_us=%.0f tick_cpu_pct=%.4f energy_rel=%.4f restarts=%llu\n",
			result_hz(r, name, sizeof(name)), mode_name(r->nohz), r->wakeups / span,
			block_ci(r->block_wakeups, r->nblocks) / span, r->interrupts / span,
			late_us(r, 0.5), late_us(r, 0.99), lo / 1e3, hi / 1e3,
			(double)r->late.max / 1e3, 100 * r->tick_cpu_ns / (span * 1e9 * s->ncpu),
			energy_rel(res, i, recorded), (unsigned long long)r->restarts);
	}
	for (unsigned int g = 1; g < s->nprog && !o->no_programs; g++) {
		const struct prog *pg = &s->prog[g];
		u64 lo, hi;

		if (!pg->fired)
			continue;
		hist_quantile_ci(&pg->late, 0.99, &lo, &hi);
		fprintf(f,
			"observed-program: name=%s source=%s fires_per_s=%.2f late_p99_us=%.0f "
			"pids=%llu\n",
			pg->name, kind_name(pg), rate(pg->fired, span),
			hist_quantile(&pg->late, 0.99) / 1e3, (unsigned long long)pg->pids);
		for (unsigned int i = 0; i < n; i++) {
			const struct presult *pr = &res[i].prog[g];
			bool bad = prog_late(o, s, &res[i], g);

			if (pr->fired)
				hist_quantile_ci(&pr->late, 0.99, &lo, &hi);
			else
				lo = hi = 0;
			fprintf(f,
				"program: hz=%s mode=%s name=%s source=%s fires_per_s=%.2f "
				"fires_ci=%.2f late_p99_us=%.0f late_p99_lo_us=%.0f "
				"late_p99_hi_us=%.0f late=%s\n",
				result_hz(&res[i], name, sizeof(name)), mode_name(res[i].nohz),
				pg->name, kind_name(pg), rate(pr->fired, span),
				block_ci_u32(pr->block, res[i].nblocks) / span,
				pr->fired ? hist_quantile(&pr->late, 0.99) / 1e3 : 0, lo / 1e3,
				hi / 1e3, bad ? "yes" : "no");
		}
	}
	for (unsigned int b = 0; b < s->nbudget && !o->no_programs; b++) {
		const struct budget *d = &s->budget[b];
		u64 T = hist_quantile(&d->req_j, 0.5);
		char call[sizeof(d->call)];

		if (!bud_shown(s, res, n, b))
			continue;
		/* One word: the call's blanks as underscores. */
		snprintf(call, sizeof(call), "%s", budget_call(s, b));
		for (char *c = call; *c; c++)
			if (*c == ' ')
				*c = '_';
		fprintf(f,
			"observed-thread: name=%s pid=%d call=%s timeout_ticks=%llu asked_ms=%.3f "
			"fires_per_s=%.2f late_p99_us=%.0f\n",
			s->prog[d->prog].name, d->pid, call, (unsigned long long)T,
			budget_asks_ns(s, b) / 1e6, rate(d->fired, span),
			hist_quantile(&d->late, 0.99) / 1e3);
		for (unsigned int i = 0; i < n; i++) {
			const struct presult *pr = &res[i].bud[b];
			double p = 0, w = 0;
			bool bad = budget_judged(s, &res[i], b) &&
				   budget_hurt(o, s, &res[i], b, &p, &w);

			budget_hurt(o, s, &res[i], b, &p, &w);
			fprintf(f,
				"thread: hz=%s mode=%s name=%s pid=%d timeout_ticks=%llu "
				"fires_per_s=%.2f late_p99_us=%.0f budget_us=%.0f judged=%s "
				"late=%s\n",
				result_hz(&res[i], name, sizeof(name)), mode_name(res[i].nohz),
				s->prog[d->prog].name, d->pid, (unsigned long long)T,
				rate(pr->fired, span), pr->fired ? p : 0, w,
				budget_judged(s, &res[i], b) ? "yes" : "no", bad ? "yes" : "no");
		}
	}
	fprintf(f,
		"check: sched=%d observed_per_s=%.1f replayed_per_s=%.1f off_pct=%.1f "
		"bound_pct=%.1f rerecord=%s\n",
		s->has_sched, a->observed, a->replayed, a->off_pct, a->bound_pct,
		a->rerecord ? "yes" : "no");
	if (a->pick >= 0) {
		fprintf(f, "recommend: hz=%u mode=%s noise=%d reason=\"%s\"\n", res[a->pick].hz,
			mode_name(res[a->pick].nohz), a->noise, a->reason);
		fprintf(f, "cmdline: hz=%u nohz=%s\n", res[a->pick].hz,
			res[a->pick].nohz ? "on" : "off");
	}
}
int write_csv(const char *path, const struct source *s, struct result *const *cpu,
	      const struct result *res, unsigned int n, int recorded, char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");
	double span = span_s(s);
	char name[512];

	if (!f) {
		snprintf(err, errlen, "--csv %s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "hz,mode,cpu,wakeups_per_s,ticks_per_s,late_p50_us,late_p99_us,late_max_us,"
		   "timers_fired,busy_s,idle_s,tick_cpu_pct,energy_rel\n");
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int c = 0; c <= s->ncpu; c++) {
			const struct result *r = c < s->ncpu ? &cpu[i][c] : &res[i];
			char who[16];

			snprintf(who, sizeof(who), c < s->ncpu ? "%u" : "all", c);
			fprintf(f, "%s,%s,%s,%.3f,%.3f,%.1f,%.1f,%.1f,%llu,%.6f,%.6f,%.6f,%.6f\n",
				result_hz(&res[i], name, sizeof(name)), mode_name(r->nohz), who,
				r->wakeups / span, r->interrupts / span, late_us(r, 0.5),
				late_us(r, 0.99), (double)r->late.max / 1e3,
				(unsigned long long)r->fired, r->busy_ns / 1e9, r->idle_ns / 1e9,
				100 * r->tick_cpu_ns / (span * 1e9 * (c < s->ncpu ? 1 : s->ncpu)),
				c < s->ncpu ? 0 : energy_rel(res, i, recorded));
		}
	}
	if (fclose(f)) {
		snprintf(err, errlen, "--csv %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
