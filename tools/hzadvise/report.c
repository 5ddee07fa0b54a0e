// SPDX-License-Identifier: MIT
/*
 * What the replays found, for people (a table) and for programs (the
 * source:/setting:/recommend: lines, CSV), and the advice: the setting of
 * least estimated energy among those whose p99 lateness is within the
 * budget; if none is, the one closest to it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdbool.h>
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

/*
 * Less energy wins; equal energy (to 0.5 %, the model's own noise: where a
 * timer fires moves idle intervals about) goes to fewer wakeups (by
 * more than 1 % and 2 wakeups), then to the lower HZ: the tick that costs
 * least where nothing else tells them apart.
 */
static bool fewer(u64 a, u64 b)
{
	return a + 2 < b && (double)a < (double)b * 0.99;
}

static bool better(const struct result *a, const struct result *b)
{
	if (a->energy_j < b->energy_j * 0.995)
		return true;
	if (a->energy_j > b->energy_j * 1.005)
		return false;
	if (fewer(a->wakeups, b->wakeups))
		return true;
	if (fewer(b->wakeups, a->wakeups))
		return false;
	return a->hz < b->hz || (a->hz == b->hz && a->nohz && !b->nohz);
}

void advise(const struct options *o, const struct result *res, unsigned int n, int recorded,
	    struct advice *a)
{
	int pick = -1, fits = 0;

	for (unsigned int i = 0; i < n; i++) {
		if (late_us(&res[i], 0.99) > o->max_late_us)
			continue;
		fits++;
		if (pick < 0 || better(&res[i], &res[pick]))
			pick = (int)i;
	}
	if (pick >= 0) {
		snprintf(a->reason, sizeof(a->reason),
			 "hz=%u %s has the lowest estimated energy (%.3f of the recorded setting) "
			 "of the %d settings whose p99 lateness is within %.0f us (its p99: %.0f "
			 "us)",
			 res[pick].hz,
			 res[pick].nohz ? "with tickless idle" : "with a periodic tick",
			 energy_rel(res, (unsigned int)pick, recorded), fits, o->max_late_us,
			 late_us(&res[pick], 0.99));
		a->pick = pick;
		return;
	}
	for (unsigned int i = 0; i < n; i++)
		if (pick < 0 || late_us(&res[i], 0.99) < late_us(&res[pick], 0.99))
			pick = (int)i;
	a->pick = pick;
	if (pick >= 0)
		snprintf(a->reason, sizeof(a->reason),
			 "no setting keeps p99 lateness within %.0f us; hz=%u %s comes closest "
			 "(p99 %.0f us)",
			 o->max_late_us, res[pick].hz, mode_name(res[pick].nohz),
			 late_us(&res[pick], 0.99));
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

static void table(FILE *f, const struct options *o, const struct source *s,
		  struct result *const *cpu, const struct result *res, unsigned int n, int recorded)
{
	double span = span_s(s);
	int w = hz_width(res, n);
	char name[512];

	fprintf(f, "%-*s %-9s %10s %9s %9s %9s %9s %8s", w, "HZ", "mode", "wakeups/s", "ticks/s",
		"late p50", "p99", "max(us)", "tick%");
	for (unsigned int k = 0; k < o->ncs; k++)
		fprintf(f, " %6s", o->cs[k].name);
	fprintf(f, " %7s\n", "energy");
	for (unsigned int i = 0; i < n; i++) {
		const struct result *r = &res[i];

		fprintf(f, "%-*s %-9s %10.1f %9.1f %9.0f %9.0f %9.0f %8.4f", w,
			result_hz(r, name, sizeof(name)), mode_name(r->nohz), r->wakeups / span,
			r->interrupts / span, late_us(r, 0.5), late_us(r, 0.99),
			(double)r->late.max / 1e3, 100 * r->tick_cpu_ns / (span * 1e9 * s->ncpu));
		for (unsigned int k = 0; k < o->ncs; k++)
			fprintf(f, " %5.1f%%",
				r->idle_ns > 0 ? 100 * r->res_ns[k] / r->idle_ns : 0);
		fprintf(f, " %7.3f%s\n", energy_rel(res, i, recorded),
			(int)i == recorded ? "  <- recorded" : "");
	}
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

void report(FILE *f, const struct options *o, const struct source *s, struct result *const *cpu,
	    const struct result *res, unsigned int n, int recorded, const struct advice *a)
{
	double span = span_s(s);
	char name[512];

	if (!o->quiet) {
		fprintf(f,
			"trace: %llu events on %u CPUs over %.3f s; recorded at HZ=%u (%s), %s "
			"(%s)\n",
			(unsigned long long)s->events, s->ncpu, span, s->hz, s->hz_how,
			s->nohz ? "tickless idle" : "periodic tick", s->mode_how);
		fprintf(f,
			"observed: %.1f wakeups/s; jiffies timers late p50 %.0f us, p99 %.0f us, "
			"max %.0f us (%llu fired)\n",
			s->wakeups / span, (double)hist_quantile(&s->late, 0.5) / 1e3,
			(double)hist_quantile(&s->late, 0.99) / 1e3, (double)s->late.max / 1e3,
			(unsigned long long)s->fired);
		fprintf(f,
			"replayed through the dynhz core, wheel as %s; lateness against the "
			"requested jiffy's start\n\n",
			o->wheel_linux ? "Linux files timers" : "dynhz runs them (exact)");
		table(f, o, s, cpu, res, n, recorded);
		fprintf(f, "\n");
	}
	fprintf(f,
		"source: hz=%u mode=%s events=%llu unknown=%llu span_s=%.3f wakeups_per_s=%.1f\n",
		s->hz, mode_name(s->nohz), (unsigned long long)s->events,
		(unsigned long long)s->unknown, span, s->wakeups / span);
	for (unsigned int i = 0; i < n; i++) {
		const struct result *r = &res[i];

		fprintf(f,
			"setting: hz=%s mode=%s wakeups_per_s=%.1f ticks_per_s=%.1f "
			"late_p50_us=%.0f "
			"late_p99_us=%.0f late_max_us=%.0f tick_cpu_pct=%.4f energy_rel=%.4f\n",
			result_hz(r, name, sizeof(name)), mode_name(r->nohz), r->wakeups / span,
			r->interrupts / span, late_us(r, 0.5), late_us(r, 0.99),
			(double)r->late.max / 1e3, 100 * r->tick_cpu_ns / (span * 1e9 * s->ncpu),
			energy_rel(res, i, recorded));
	}
	if (a->pick >= 0)
		fprintf(f, "recommend: hz=%u mode=%s reason=\"%s\"\n", res[a->pick].hz,
			mode_name(res[a->pick].nohz), a->reason);
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
