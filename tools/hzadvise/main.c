// SPDX-License-Identifier: MIT
/*
 * hzadvise TRACE: which HZ and which tick mode suit the machine that
 * recorded TRACE (tools/hzadvise/record.sh), from its timers replayed
 * through the dynhz core at each candidate setting. See README.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hzadvise.h"

#include "tickcost.h"

/* The measured costs at the documented rate (tickcost.h). */
#define TICK_NS	 (HZ_TICK_COST_EMPTY_INSNS * HZ_TICK_COST_NS_PER_INSN)
#define TIMER_NS (HZ_TICK_COST_TIMER_INSNS * HZ_TICK_COST_NS_PER_INSN)
#define RUN_NS	 (HZ_TICK_COST_RUN_TIMERS_INSNS * HZ_TICK_COST_NS_PER_INSN)

static const unsigned int default_hz[] = { 100, 250, 300, 1000 };

static void usage(FILE *f)
{
	fprintf(f,
		"usage: hzadvise [options] TRACE   (TRACE: ftrace text, .gz/.xz, or - for stdin)\n"
		"  --hz LIST            candidate HZ values, comma-separated (default "
		"100,250,300,1000 and the recorded one)\n"
		"  --max-late-us N      a program's timeouts may be late (p99) by this much...\n"
		"  --max-late-pct P     ...or by P %% of what it asks for, the larger (2000, 100)\n"
		"  --wheel linux|dynhz  run timers as Linux files them (default: its wheel,\n"
		"                       deferrable timers, its idle loop), or exactly\n"
		"  --idle-loop hold|governor  how the recorded machine's idle loop stops the\n"
		"                       tick: hold (no cpuidle driver or one idle state: the\n"
		"                       tick runs once after each idle entry) or governor\n"
		"                       (several states: the tick stops where a sleep longer\n"
		"                       than a tick is expected); default: as the trace's\n"
		"                       cpuidle= word says, hold when it says nothing\n"
		"  --html FILE          the report as one self-contained HTML page\n"
		"  --programs 0|1       the program: lines (default 1)\n"
		"  --cstates SPEC       NAME:EXIT_US:RESIDENCY_US:WATTS,... shallowest first\n"
		"                       (default C1:2:2:1.0,C6:85:200:0.3,C8:200:800:0.15,"
		"C10:890:5000:0.05)\n"
		"  --busy-w W           power of a running CPU (default 3.0)\n"
		"  --tick-cost-ns N     CPU time of a tick with nothing due (default %d, "
		"measured)\n"
		"  --timer-cost-ns N    CPU time per timer run by the tick (default %d, measured)\n"
		"  --run-cost-ns N      CPU time once per tick that runs timers (default %d, "
		"measured)\n"
		"  --retune T:HZ,...    one more setting: boots at the first --hz value (or the\n"
		"                       recorded HZ), the core changes HZ at each T seconds\n"
		"                       from the trace's start (T=0: boots at that HZ)\n"
		"  --retune-auto B:I    one more setting: a power daemon's policy, each second\n"
		"                       HZ B if the CPU was busy more than 10 %% of the last\n"
		"                       one, HZ I if not (boots at I)\n"
		"  --csv FILE           every figure, per CPU and summed, as CSV\n"
		"  --plot DIR           PNG and SVG figures (gnuplot) and their data in DIR\n"
		"  -q, --quiet          only the source:/setting:/recommend: lines\n"
		"  -v, --verbose        also the replay's own figures (speed, checks)\n",
		TICK_NS, TIMER_NS, RUN_NS);
}

static int fail(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "hzadvise: ");
	fprintf(stderr, fmt, a, b);
	fprintf(stderr, "\n");
	return 2;
}

static int number(const char *opt, const char *v, double lo, double hi, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (!*v || *end || errno || !(d >= lo && d <= hi)) {
		fprintf(stderr, "hzadvise: %s: \"%s\" is not a number from %g to %g\n", opt, v, lo,
			hi);
		return -1;
	}
	*out = d;
	return 0;
}

static int parse_hz(const char *v, struct options *o)
{
	char buf[512], *save = NULL, *tok;

	if (strlen(v) >= sizeof(buf))
		return fail("--hz: list too long", "", "");
	strcpy(buf, v);
	o->nhz = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		double d;

		if (o->nhz == 31)
			return fail("--hz: more than 31 values", "", "");
		char *end;

		errno = 0;
		d = strtod(tok, &end);
		if (*end || errno || !(d >= 19 && d <= 10000) || d != (unsigned int)d)
			return fail("--hz: each value a whole number from 19 to 10000 (got \"%s\")",
				    tok, "");
		o->hz[o->nhz++] = (unsigned int)d;
	}
	if (!o->nhz)
		return fail("--hz: empty list", "", "");
	o->hz_given = true;
	return 0;
}

/* One T:HZ of --retune, into st; it must come after prev (if any). */
static int retune_step(const char *tok, struct retune_step *st, const struct retune_step *prev)
{
	const char *hzs;
	char *end;
	double t, hz;

	errno = 0;
	t = strtod(tok, &end);
	if (end == tok || *end != ':' || errno || !(t >= 0 && t <= 1e9))
		return fail("--retune: \"%s\" is not T:HZ (T seconds from the trace's start, 0 "
			    "to 1e9)",
			    tok, "");
	hzs = end + 1;
	hz = strtod(hzs, &end);
	if (end == hzs || *end || errno || !(hz >= 19 && hz <= 10000) || hz != (unsigned int)hz)
		return fail("--retune: \"%s\": HZ is not a whole number from 19 to 10000", tok, "");
	st->at_ns = (u64)(t * 1e9 + 0.5);
	st->hz = (unsigned int)hz;
	if (prev && st->at_ns <= prev->at_ns)
		return fail("--retune: \"%s\": times must increase", tok, "");
	return 0;
}

/* --retune T:HZ[,T:HZ...]: the times increasing, the HZ as --hz takes them; no empty item. */
static int parse_retune(const char *v, struct options *o)
{
	char buf[1024], *tok = buf, *comma;
	int rc;

	if (strlen(v) >= sizeof(buf))
		return fail("--retune: schedule too long", "", "");
	strcpy(buf, v);
	for (o->nretune = 0; tok; tok = comma ? comma + 1 : NULL) {
		comma = strchr(tok, ',');
		if (comma)
			*comma = '\0';
		if (!*tok)
			return fail("--retune: \"%s\": an empty item (want T:HZ[,T:HZ...])", v, "");
		if (o->nretune == MAX_RETUNE)
			return fail("--retune: more than %s changes", "32", "");
		rc = retune_step(tok, &o->retune[o->nretune],
				 o->nretune ? &o->retune[o->nretune - 1] : NULL);
		if (rc)
			return rc;
		o->nretune++;
	}
	return 0;
}

/* --retune-auto BUSY_HZ:IDLE_HZ, each as --hz takes them. */
static int parse_auto(const char *v, struct options *o)
{
	char *end;
	double b, i;

	errno = 0;
	b = strtod(v, &end);
	if (end == v || *end != ':')
		return fail("--retune-auto: \"%s\" is not BUSY_HZ:IDLE_HZ", v, "");
	i = strtod(end + 1, &end);
	if (*end || errno || !(b >= 19 && b <= 10000) || b != (unsigned int)b ||
	    !(i >= 19 && i <= 10000) || i != (unsigned int)i)
		return fail("--retune-auto: \"%s\": each HZ a whole number from 19 to 10000", v,
			    "");
	o->auto_busy = (unsigned int)b;
	o->auto_idle = (unsigned int)i;
	return 0;
}

static int option(struct options *o, const char *opt, const char *v)
{
	char err[256];

	if (!strcmp(opt, "--hz"))
		return parse_hz(v, o);
	if (!strcmp(opt, "--retune"))
		return parse_retune(v, o);
	if (!strcmp(opt, "--retune-auto"))
		return parse_auto(v, o);
	if (!strcmp(opt, "--max-late-us"))
		return number(opt, v, 0, 1e10, &o->max_late_us) ? 2 : 0;
	if (!strcmp(opt, "--max-late-pct"))
		return number(opt, v, 0, 1e6, &o->max_late_pct) ? 2 : 0;
	if (!strcmp(opt, "--html")) {
		o->html = v;
		return 0;
	}
	if (!strcmp(opt, "--programs")) {
		if (strcmp(v, "0") && strcmp(v, "1"))
			return fail("--programs: \"%s\" is not 0 or 1", v, "");
		o->no_programs = !strcmp(v, "0");
		return 0;
	}
	if (!strcmp(opt, "--busy-w"))
		return number(opt, v, 0, 1e6, &o->busy_w) ? 2 : 0;
	if (!strcmp(opt, "--tick-cost-ns"))
		return number(opt, v, 0, 1e9, &o->tick_ns) ? 2 : 0;
	if (!strcmp(opt, "--timer-cost-ns"))
		return number(opt, v, 0, 1e9, &o->timer_ns) ? 2 : 0;
	if (!strcmp(opt, "--run-cost-ns"))
		return number(opt, v, 0, 1e9, &o->run_ns) ? 2 : 0;
	if (!strcmp(opt, "--csv")) {
		o->csv = v;
		return 0;
	}
	if (!strcmp(opt, "--plot")) {
		o->plot = v;
		return 0;
	}
	if (!strcmp(opt, "--wheel")) {
		if (strcmp(v, "linux") && strcmp(v, "dynhz"))
			return fail("--wheel: \"%s\" is not linux or dynhz", v, "");
		o->wheel_linux = !strcmp(v, "linux");
		return 0;
	}
	if (!strcmp(opt, "--idle-loop")) {
		if (strcmp(v, "hold") && strcmp(v, "governor"))
			return fail("--idle-loop: \"%s\" is not hold or governor", v, "");
		o->idle_loop = !strcmp(v, "hold") ? IDLE_LOOP_HOLD : IDLE_LOOP_GOVERNOR;
		return 0;
	}
	if (!strcmp(opt, "--cstates")) {
		if (parse_cstates(v, o, err, sizeof(err)))
			return fail("%s", err, "");
		return 0;
	}
	return fail("unknown option %s (see --help)", opt, "");
}

static bool takes_value(const char *a)
{
	static const char *const with[] = {
		"--hz",		  "--retune",	    "--retune-auto",   "--max-late-us",
		"--busy-w",	  "--tick-cost-ns", "--timer-cost-ns", "--run-cost-ns",
		"--csv",	  "--plot",	    "--wheel",	       "--cstates",
		"--max-late-pct", "--html",	    "--programs",      NULL
	};

	for (unsigned int i = 0; with[i]; i++)
		if (!strcmp(a, with[i]))
			return true;
	return !strcmp(a, "--idle-loop");
}

static int parse_args(int argc, char **argv, struct options *o, const char **path)
{
	*path = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char opt[64];
		const char *eq;
		int rc;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			exit(0);
		}
		if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			o->quiet = true;
			continue;
		}
		if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			o->verbose = true;
			continue;
		}
		if (a[0] == '-' && a[1] == '-' && (eq = strchr(a, '=')) && eq - a < 63) {
			memcpy(opt, a, (size_t)(eq - a));
			opt[eq - a] = '\0';
			if ((rc = option(o, opt, eq + 1)))
				return rc;
			continue;
		}
		if (takes_value(a)) {
			if (i + 1 >= argc)
				return fail("%s needs a value", a, "");
			if ((rc = option(o, a, argv[++i])))
				return rc;
			continue;
		}
		if (a[0] == '-' && a[1]) {
			if (!strcmp(a, "--") && i + 1 < argc && !*path) {
				*path = argv[++i];
				continue;
			}
			return fail("unknown option %s (see --help)", a, "");
		}
		if (*path)
			return fail("one trace at a time (got %s and %s)", *path, a);
		*path = a;
	}
	if (!*path) {
		usage(stderr);
		return 2;
	}
	return 0;
}

/* Every candidate HZ × {periodic, nohz}, the recorded setting among them. */
static unsigned int settings(const struct options *o, const struct source *s, unsigned int *hz,
			     bool *nohz, int *recorded)
{
	unsigned int list[33], nl = 0, n = 0;
	const unsigned int *from = o->hz_given ? o->hz : default_hz;
	unsigned int nfrom = o->hz_given ? o->nhz : sizeof(default_hz) / sizeof(default_hz[0]);
	bool have = false;

	for (unsigned int i = 0; i < nfrom; i++) {
		bool dup = false;

		for (unsigned int j = 0; j < nl; j++)
			dup |= list[j] == from[i];
		if (!dup)
			list[nl++] = from[i];
		have |= from[i] == s->hz;
	}
	if (!have)
		list[nl++] = s->hz;
	/* ascending, for the table and the plots */
	for (unsigned int i = 1; i < nl; i++)
		for (unsigned int j = i; j > 0 && list[j - 1] > list[j]; j--) {
			unsigned int t = list[j];

			list[j] = list[j - 1];
			list[j - 1] = t;
		}
	*recorded = -1;
	for (unsigned int m = 0; m < 2; m++)
		for (unsigned int i = 0; i < nl; i++) {
			hz[n] = list[i];
			nohz[n] = m;
			if (list[i] == s->hz && (bool)m == s->nohz)
				*recorded = (int)n;
			n++;
		}
	return n;
}

/*
 * The --retune setting, in the recorded tick mode: booted at the first
 * --hz value or the recorded HZ, or at the HZ of a change at T=0 (the
 * trace has not begun: a machine booted with that hz=). A change at or
 * after the trace's end would change nothing that is replayed: dropped,
 * with a word. Returns how many changes remain in plan.
 */
static unsigned int retune_plan(const struct options *o, const struct source *s,
				unsigned int *boot_hz, struct retune_step *plan)
{
	u64 span = s->last_ts - s->first_ts;
	unsigned int n = 0, i = 0;

	*boot_hz = o->hz_given ? o->hz[0] : s->hz;
	if (o->retune[0].at_ns == 0)
		*boot_hz = o->retune[i++].hz;
	for (; i < o->nretune && o->retune[i].at_ns < span; i++)
		plan[n++] = o->retune[i];
	if (i < o->nretune)
		fprintf(stderr,
			"hzadvise: --retune: %u change(s) from %.9g s on come at or after the "
			"trace's end (%.3f s): not applied\n",
			o->nretune - i, (double)o->retune[i].at_ns / 1e9, (double)span / 1e9);
	return n;
}

/*
 * -v: what --retune-auto's policy saw and did on each CPU: the busy share
 * of each second, and its changes as --retune would take them.
 */
static void auto_report(const struct result *r, const struct result *cpu, unsigned int ncpu)
{
	char name[64];

	for (unsigned int c = 0; c < ncpu; c++) {
		fprintf(stderr, "hzadvise: %s cpu%u busy_pct=", result_hz(r, name, sizeof(name)),
			c);
		for (unsigned int w = 0; w < cpu[c].nwindows; w++)
			fprintf(stderr, "%s%.3f", w ? "," : "", 100 * cpu[c].window_busy[w]);
		fprintf(stderr, " retune=");
		for (unsigned int k = 0; k < cpu[c].nchosen; k++)
			fprintf(stderr, "%s%.9g:%u", k ? "," : "", cpu[c].chosen[k].at_ns / 1e9,
				cpu[c].chosen[k].hz);
		fprintf(stderr, "%s\n", cpu[c].nchosen ? "" : "none");
	}
}

/* What was wrong with the input but did not stop the reading: one line each, on stderr. */
static void input_warnings(const char *path, const struct source *s)
{
	if (s->bad)
		fprintf(stderr, "hzadvise: %s: skipped %llu bad line%s (first: %s)\n", path,
			(unsigned long long)s->bad, s->bad == 1 ? "" : "s", s->first_bad);
	if (s->truncated)
		fprintf(stderr, "hzadvise: %s: the last line is cut short: skipped\n", path);
	if (s->back) {
		fprintf(stderr,
			"hzadvise: %s: %llu event%s went back in time on their CPU: dropped (",
			path, (unsigned long long)s->back, s->back == 1 ? "" : "s");
		for (unsigned int c = 0; c < s->ncpu; c++)
			if (s->cpu_back[c])
				fprintf(stderr, "cpu %u: %llu, ", c,
					(unsigned long long)s->cpu_back[c]);
		fprintf(stderr, "first: %s)\n", s->back_first);
	}
	if (s->jumps)
		fprintf(stderr,
			"hzadvise: %s: %llu event%s leapt more than a minute ahead of the trace: "
			"dropped (a corrupt timestamp)\n",
			path, (unsigned long long)s->jumps, s->jumps == 1 ? "" : "s");
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct options o = { .max_late_us = 2000,
			     .max_late_pct = 100,
			     .wheel_linux = true,
			     .tick_ns = TICK_NS,
			     .timer_ns = TIMER_NS,
			     .run_ns = RUN_NS };
	unsigned int hz[66], n, nall;
	bool nohz[66];
	struct result res[66], *cpu[66];
	struct lean_spool *lean;
	bool lean_on;
	struct retune_step plan[MAX_RETUNE];
	unsigned int nplan = 0;
	char name[512];
	struct source s;
	struct advice a = { .pick = -1 };
	const char *path;
	char err[512];
	int recorded, rc;
	double t0;

	power_defaults(&o);
	if ((rc = parse_args(argc, argv, &o, &path)))
		return rc;
	t0 = now_s();
	if (source_read(path, &o, &s, err, sizeof(err)))
		return fail("%s", err, "");
	input_warnings(path, &s);
	if (o.verbose)
		fprintf(stderr,
			"hzadvise: read %llu lines in %.2f s; bucket_expiry= matched %llu of "
			"%llu; %zu timers pending before the trace; %llu sched_switch missing "
			"(the task column)\n",
			(unsigned long long)s.lines, now_s() - t0,
			(unsigned long long)s.bucket_matched, (unsigned long long)s.bucket_checked,
			s.npre, (unsigned long long)s.sched_missing);
	n = settings(&o, &s, hz, nohz, &recorded);
	nall = n;
	if (o.nretune) {
		nplan = retune_plan(&o, &s, &hz[n], plan);
		nohz[nall++] = s.nohz;
	}
	if (o.auto_busy) {
		hz[nall] = o.auto_idle;
		nohz[nall++] = s.nohz;
	}
	/* HZADVISE_LEAN=0: each replay reads the whole spool (tests/hzadvise compares) */
	{
		const char *e = getenv("HZADVISE_LEAN");

		lean_on = !e || strcmp(e, "0");
	}
	lean = calloc(s.ncpu, sizeof(*lean));
	if (!lean)
		abort();
	t0 = now_s();
	for (unsigned int i = 0; i < nall; i++) {
		result_init(&res[i], hz[i], nohz[i], &s);
		cpu[i] = calloc(s.ncpu, sizeof(struct result));
		if (!cpu[i])
			abort();
		if (i == n && o.nretune) {
			res[i].retune = plan;
			res[i].nretune = nplan;
		} else if (i >= n) {
			res[i].auto_busy = o.auto_busy;
			res[i].auto_idle = o.auto_idle;
		}
		for (unsigned int c = 0; c < s.ncpu; c++) {
			result_init(&cpu[i][c], hz[i], nohz[i], &s);
			cpu[i][c].retune = res[i].retune;
			cpu[i][c].nretune = res[i].nretune;
			cpu[i][c].auto_busy = res[i].auto_busy;
			cpu[i][c].auto_idle = res[i].auto_idle;
			replay_cpu(&s, c, &o, lean_on && i < n ? &lean[c] : NULL, &cpu[i][c]);
			result_add(&res[i], &cpu[i][c]);
		}
		if (res[i].early)
			fprintf(stderr, "hzadvise: hz=%s: %llu timers ran early: a bug\n",
				result_hz(&res[i], name, sizeof(name)),
				(unsigned long long)res[i].early);
	}
	/* The lean spools' disk is given back before the report is written. */
	for (unsigned int c = 0; c < s.ncpu; c++)
		lean_free(&lean[c]);
	free(lean);
	if (o.verbose) {
		double dt = now_s() - t0, ev = 0;

		for (unsigned int i = 0; i < nall; i++)
			ev += (double)res[i].events;
		fprintf(stderr,
			"hzadvise: replayed %.0f events (%u settings) in %.3f s: %.2f M "
			"events/s\n",
			ev, nall, dt, dt > 0 ? ev / dt / 1e6 : 0);
		if (o.auto_busy)
			auto_report(&res[nall - 1], cpu[nall - 1], s.ncpu);
	}
	/* The advice is among fixed settings: a schedule is the user's own to judge. */
	advise(&o, &s, res, n, recorded, &a);
	report(stdout, &o, &s, cpu, res, nall, recorded, &a);
	rc = 0;
	if (o.csv && write_csv(o.csv, &s, cpu, res, nall, recorded, err, sizeof(err)))
		rc = fail("%s", err, "");
	if (o.plot && write_plots(o.plot, &o, &s, res, n, recorded, err, sizeof(err)))
		rc = fail("%s", err, "");
	if (o.html && write_html(o.html, &o, &s, res, n, recorded, &a, err, sizeof(err)))
		rc = fail("%s", err, "");
	for (unsigned int i = 0; i < nall; i++) {
		for (unsigned int c = 0; c < s.ncpu; c++)
			result_free(&cpu[i][c]);
		free(cpu[i]);
		result_free(&res[i]);
	}
	source_free(&s);
	return rc;
}
