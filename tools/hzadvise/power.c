// SPDX-License-Identifier: MIT
/*
 * The power model, small on purpose, every parameter settable:
 *  - a running CPU draws busy_w (default 3 W);
 *  - an idle interval of length L enters the deepest C-state whose target
 *    residency is at most L; the CPU then draws that state's power for
 *    L minus the state's exit latency, and busy_w for the exit latency
 *    (waking is not free: that is what the target residency pays back);
 *    an interval shorter than every residency is spent polling at busy_w;
 *  - the tick's own CPU time (ticks times the cost of one) is drawn at
 *    busy_w on top.
 * The C-states are intel_idle's for a Skylake client (exit latency /
 * target residency), with shallow C1 and package-level powers that are
 * typical orders of magnitude, not measurements: C1 2/2 µs 1.0 W, C6
 * 85/200 µs 0.30 W, C8 200/800 µs 0.15 W, C10 890/5000 µs 0.05 W. Only
 * ratios are reported (energy_rel), so the units cancel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hzadvise.h"

static const struct cstate defaults[] = {
	{ "C1", 2, 2, 1.0 },
	{ "C6", 85, 200, 0.30 },
	{ "C8", 200, 800, 0.15 },
	{ "C10", 890, 5000, 0.05 },
};

void power_defaults(struct options *o)
{
	o->ncs = sizeof(defaults) / sizeof(defaults[0]);
	memcpy(o->cs, defaults, sizeof(defaults));
	o->busy_w = 3.0;
}

double idle_energy(const struct options *o, double ns, int *state)
{
	double us = ns / 1e3;
	int s = -1;

	for (unsigned int i = 0; i < o->ncs; i++)
		if (o->cs[i].residency_us <= us)
			s = (int)i;
	*state = s;
	if (s < 0)
		return o->busy_w * ns / 1e9;
	return (o->cs[s].power_w * (us - o->cs[s].exit_us) + o->busy_w * o->cs[s].exit_us) / 1e6;
}

static int bad(char *err, size_t errlen, const char *what, const char *item)
{
	snprintf(err, errlen, "--cstates: %s in \"%s\" (want NAME:EXIT_US:RESIDENCY_US:WATTS,...)",
		 what, item);
	return -1;
}

/*
 * NAME:EXIT_US:RESIDENCY_US:WATTS[,...], shallowest first: residencies
 * must grow and the exit latency must not exceed the residency.
 */
int parse_cstates(const char *spec, struct options *o, char *err, size_t errlen)
{
	char buf[512], *save = NULL, *item;
	unsigned int n = 0;

	if (strlen(spec) >= sizeof(buf))
		return bad(err, errlen, "too long", spec);
	strcpy(buf, spec);
	for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		struct cstate c;
		char tail;

		if (n == MAX_CSTATES)
			return bad(err, errlen, "more than 8 states", item);
		memset(&c, 0, sizeof(c));
		if (sscanf(item, "%15[^:]:%lf:%lf:%lf%c", c.name, &c.exit_us, &c.residency_us,
			   &c.power_w, &tail) != 4)
			return bad(err, errlen, "not four fields", item);
		if (!(c.exit_us >= 0) || !(c.residency_us >= c.exit_us) || !(c.power_w >= 0) ||
		    c.residency_us > 1e9 || c.power_w > 1e6)
			return bad(err, errlen, "a value out of range", item);
		if (n && c.residency_us <= o->cs[n - 1].residency_us)
			return bad(err, errlen, "residencies not increasing", item);
		o->cs[n++] = c;
	}
	if (!n)
		return bad(err, errlen, "no state", spec);
	o->ncs = n;
	return 0;
}
