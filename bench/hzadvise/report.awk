# bench/hzadvise: the table and the verdicts, from the runs (runs.txt, one
# line per run: name|rep|span_s|lines|read_s|events|settings|replay_s|
# rss_kb|wall_s|pending before) and the callgrind lines of cg.awk (ir.txt:
# name|lines|events|settings|cpus|parse Ir|replay Ir). Variables: target
# (M events/s per setting), wall_target (s for the trace named long),
# bound (the peak RSS ratio that still counts as flat), rec_bytes (one
# spooled event), tmpfs (/tmp's filesystem type). POSIX awk (mawk).

function median(key,    n, i, j, t, v) {
	n = cnt[key]
	for (i = 1; i <= n; i++)
		v[i] = val[key, i]
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			t = v[j]
			v[j] = v[j - 1]
			v[j - 1] = t
		}
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}

# Half the range of the runs, in % of their median: how noisy the machine was.
function spread(key,    n, i, lo, hi, mid) {
	n = cnt[key]
	lo = hi = val[key, 1]
	for (i = 2; i <= n; i++) {
		if (val[key, i] < lo)
			lo = val[key, i]
		if (val[key, i] > hi)
			hi = val[key, i]
	}
	mid = median(key)
	return mid > 0 ? 50 * (hi - lo) / mid : 0
}

function add(name, what, v) {
	val[name SUBSEP what, ++cnt[name SUBSEP what]] = v
}

function m(name, what) {
	return median(name SUBSEP what)
}

function mb(kb) {
	return kb / 1024
}

BEGIN {
	FS = "|"
}

FILENAME ~ /runs\.txt$/ {
	if (!($1 in seen)) {
		seen[$1] = 1
		order[++nrow] = $1
	}
	span[$1] = $3
	lines[$1] = $4
	settings[$1] = $7
	events[$1] = $6 / ($7 > 0 ? $7 : 1)
	pre[$1] = $11
	# the -v line's 10 ms resolution: parse speed only from 50 ms up
	add($1, "read_s", $5)
	if ($5 >= 0.05)
		add($1, "parse", $4 / $5 / 1e6)
	add($1, "rate", $8 > 0 ? $6 / $8 / 1e6 : 0)
	add($1, "replay_s", $8)
	add($1, "rss", $9)
	add($1, "wall", $10)
	next
}

FILENAME ~ /ir\.txt$/ && NF >= 7 {
	ir[$1] = 1
	ir_lines[$1] = $2
	ir_events[$1] = $3
	ir_set[$1] = $4
	ir_cpus[$1] = $5
	ir_parse[$1] = $6
	ir_replay[$1] = $7
}

END {
	printf "%-12s %7s %9s %10s %9s %7s %4s %7s %7s %8s %7s\n", "trace", "span", "lines",
		"events/set", "parse", "replay", "", "replay", "wall", "peak RSS", "pending"
	printf "%-12s %7s %9s %10s %9s %7s %4s %7s %7s %8s %7s\n", "", "s", "", "", "M lines/s",
		"M ev/s", "+-%", "s", "s", "MB", "before"
	for (i = 1; i <= nrow; i++) {
		n = order[i]
		p = cnt[n SUBSEP "parse"] ? sprintf("%.2f", m(n, "parse")) : "-"
		printf "%-12s %7.0f %9d %10d %9s %7.2f %4.0f %7.3f %7.2f %8.1f %7d\n", n, span[n],
			lines[n], events[n], p, m(n, "rate"), spread(n SUBSEP "rate"), m(n, "replay_s"),
			m(n, "wall"), mb(m(n, "rss")), pre[n]
	}
	print ""
	print "events/set: events replayed at each setting (the CPUs' spooled records). replay"
	print "M ev/s: every setting's events over the time of all the replays, i.e. per setting;"
	print "+-%: half the range of the runs. parse: lines over the read time (\"-\": under 50 ms,"
	print "below the -v line's 10 ms resolution). wall: the whole run. pending before: timers"
	print "that fire with no start in the trace; each copy brings back those of the recording"
	print "it does not re-arm (build: TCP TIME_WAIT timers), and hzadvise keeps them all."

	if ("net" in ir && "net x10" in ir) {
		e1 = ir_events["net"]
		e10 = ir_events["net x10"]
		per = e10 > e1 ? (ir_replay["net x10"] - ir_replay["net"]) / (e10 - e1) : 0
		nrep = ir_set["net"] * (ir_cpus["net"] > 0 ? ir_cpus["net"] : 1)
		fixed = nrep > 0 ? (ir_replay["net"] - per * e1) / nrep : 0
		print ""
		printf "Instructions (callgrind Ir, net): parse %.0f per line (1x), %.0f (10x); replay\n",
			ir_parse["net"] / ir_lines["net"], ir_parse["net x10"] / ir_lines["net x10"]
		printf "%.0f per event (1x), %.0f (10x): %.0f per event and %.1f M per replay (one CPU at\n",
			ir_replay["net"] / e1, ir_replay["net x10"] / e10, per, fixed / 1e6
		share = ir_replay["net"] > 0 ? 100 * fixed * nrep / ir_replay["net"] : 0
		printf "one setting; %d replays at 1x: %.0f %% of its replay Ir are that fixed cost).\n",
			nrep, share
	}

	l = long
	one = "net"
	big = "net x100"
	print ""
	if (l in seen) {
		printf "Spool (disk, in tmpfile: /tmp, %s): %.0f MB for %s (%d events x %d bytes).\n",
			tmpfs, events[l] * rec_bytes / 1e6, l, events[l], rec_bytes
		r = m(l, "rate")
		w = m(l, "wall")
		if (r >= target)
			printf "target >= %g M events/s per setting: met (%.2f M events/s, %s)\n", target, r, l
		else
			printf "target >= %g M events/s per setting: not met (%.2f M events/s, %s)\n",
				target, r, l
		worst = ""
		for (i = 1; i <= nrow; i++)
			if (worst == "" || m(order[i], "rate") < m(worst, "rate"))
				worst = order[i]
		if (m(worst, "rate") < target)
			printf "  per setting on every trace: not met (%.2f M events/s, %s)\n",
				m(worst, "rate"), worst
		else
			printf "  per setting on every trace: met (slowest %.2f M events/s, %s)\n",
				m(worst, "rate"), worst
		verdict = w < wall_target ? "met" : "not met"
		printf "%s at all %d default settings: %.2f s wall (parse %.2f s, replay %.2f s):\n",
			l, settings[l], w, m(l, "read_s"), m(l, "replay_s")
		printf "  under %g s: %s\n", wall_target, verdict
	}
	if (one in seen && big in seen) {
		ratio = m(big, "rss") / m(one, "rss")
		verdict = ratio <= bound ? "bounded (<= " bound "x)" : "NOT bounded (> " bound "x)"
		also = ""
		if (l in seen)
			also = sprintf(", %s / %s = %.2f", l, one, m(l, "rss") / m(one, "rss"))
		printf "memory: peak RSS %s / %s = %.2f (%.1f / %.1f MB)%s: %s\n", big, one, ratio,
			mb(m(big, "rss")), mb(m(one, "rss")), also, verdict
	}
	# build: hundreds of timers pending before the recording fire in it, again in each copy.
	if ("build" in seen && "build x100" in seen) {
		ratio = m("build x100", "rss") / m("build", "rss")
		printf "  build x100 / build = %.2f (%.1f / %.1f MB; %d timers pending before, %d at 1x)\n",
			ratio, mb(m("build x100", "rss")), mb(m("build", "rss")), pre["build x100"],
			pre["build"]
	}
}
