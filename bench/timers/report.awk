# bench/timers: turns the records of timers-bench (info, cmp, empty,
# lateness, drift: comma-separated) and the callgrind figures of cg.awk
# (ir.txt: "|"-separated) into the tables, the CSV files (in -v out=DIR),
# the data files of the plots (in -v plot=DIR) and a Markdown summary.
# POSIX awk (mawk is enough).

function kfmt(n) {
	if (n >= 1000000 && n % 1000000 == 0)
		return (n / 1000000) "M"
	if (n >= 1000 && n % 1000 == 0)
		return (n / 1000) "k"
	return n
}

function ratio(a, b) {
	return (a > 0 && b > 0) ? a / b : 0
}

# A figure and, for a peer, its ratio to dynhz.
function cell(v, base, lib, fmt) {
	if (v == "")
		return sprintf("%15s", "-")
	if (lib == "dynhz" || base <= 0)
		return sprintf(fmt " %-6s", v, "")
	return sprintf(fmt " %-6s", v, sprintf("x%.2f", v / base))
}

function verdict(v, t) {
	return (v != "" && v <= t) ? "OK" : "MISS"
}

function sgn(v, fmt) {
	return (v > 0 ? "+" : "") sprintf(fmt, v)
}

# Is f a libc entry point that reads a clock?
function clockfn(f) {
	return f ~ /^_*(clock_gettime|gettimeofday)(64)?(@|$)/
}

BEGIN {
	FS = ","
	nlib = nsize = norder = nemp = nlate = ndrift = 0
	split("add rearm cancel expire", ops, " ")
	opname["add"] = "add"
	opname["rearm"] = "re-arm"
	opname["cancel"] = "cancel"
	opname["expire"] = "expire"
	ordname["random"] = "Random order: each phase touches the timers in its own random permutation"
	ordname["seq"] = "Memory order: the i-th operation of every phase touches timer i"
	ordshort["random"] = "random"
	ordshort["seq"] = "memory order"
}

FILENAME ~ /ir\.txt$/ {
	n = split($0, f, "|")
	split(f[2], w, " ")
	if (f[1] == "T") {
		if (w[1] == "cmp") {
			ir[w[2], w[4]] = f[3] / w[5]
			irn = w[3]
		} else if (w[1] == "empty") {
			eir[w[2]] = f[3] / w[4]
		}
	} else if (f[1] == "S") {
		if (w[1] == "cmp" && w[2] == "dynhz" && f[4] > 0) {
			dself[w[4], f[3]] = f[4] / w[5]
			if (!((w[4], f[3]) in dseen)) {
				dseen[w[4], f[3]] = 1
				dfn[w[4], ++ndfn[w[4]]] = f[3]
			}
		} else if (w[1] == "empty" && f[4] > 0) {
			eself[w[2], f[3]] = f[4] / w[4]
			if (!(f[3] in eseen)) {
				eseen[f[3]] = 1
				efn[++nefn] = f[3]
			}
		}
	} else if (f[1] == "C") {
		if (w[1] == "cmp" && clockfn(f[4]) && !clockfn(f[3]))
			clk[w[2], w[4]] += f[5] / w[5]
		if (w[1] == "handler" && f[3] == "tb_tick_interrupt")
			ehand[w[2]] += f[6] / w[4]
	}
	next
}

$1 == "info" {
	info[$2] = $3
}

$1 == "lib" {
	lib[++nlib] = $2
	lver[$2] = $3
	lobj[$2] = $4
	lsize[$2] = $5
	s = $6
	for (i = 7; i <= NF; i++)
		s = s "," $i
	lstruct[$2] = s
}

$1 == "ns" {
	if (!($2 in oseen)) {
		oseen[$2] = 1
		order[++norder] = $2
	}
	if (!($4 in sseen)) {
		sseen[$4] = 1
		size[++nsize] = $4
	}
	ns[$2, $3, $4, $5] = $6
	nq1[$2, $3, $4, $5] = $7
	nq3[$2, $3, $4, $5] = $8
	reps = $9
}

$1 == "empty" {
	pend[++nemp] = $2
	ens[$2] = $3
	eq1[$2] = $4
	eq3[$2] = $5
	eticks = $6
	ereps = $7
}

$1 == "late" {
	nlate++
	lcls[nlate] = $2
	lname[nlate] = $3
	lcount[nlate] = $4
	lmin[nlate] = $5
	lmed[nlate] = $6
	lmax[nlate] = $7
	learly[nlate] = $8
}

$1 == "lateinfo" {
	late_hz = $2
	late_timers = $3
	late_ticked = $4
	late_span = $5
	late_secs = $6
}

$1 == "drift" {
	nd = ++ndrift
	dhz[nd] = $2
	ddiv[nd] = $3
	drate[nd] = $4
	dppmhz[nd] = $5
	dticks[nd] = $6
	dwant[nd] = $7
	dkcs[nd] = $8
	ddcs[nd] = $9
	dpcs[nd] = $10
	dktk[nd] = $11
	ddtk[nd] = $12
	dptk[nd] = $13
	dplain[nd] = $14
	dsecs[nd] = $15
}

function timers_table(o,    s, n, l, name, k, op, line) {
	printf("\n%s\n", ordname[o])
	printf("%-7s %-9s", "timers", "library")
	for (k = 1; k <= 4; k++)
		printf(" %15s", opname[ops[k]] " ")
	printf("\n")
	for (s = 1; s <= nsize; s++) {
		n = size[s]
		for (l = 1; l <= nlib; l++) {
			name = lib[l]
			line = sprintf("%-7s %-9s", l == 1 ? kfmt(n) : "", name)
			for (k = 1; k <= 4; k++) {
				op = ops[k]
				line = line " " cell(ns[o, name, n, op], ns[o, "dynhz", n, op], name, "%8.1f")
			}
			print line
		}
	}
}

function noise(    k, m, v, i, j, sp) {
	m = 0
	for (k in ns) {
		if (ns[k] > 0)
			sp[++m] = (nq3[k] - nq1[k]) / ns[k]
	}
	for (i = 2; i <= m; i++) {
		v = sp[i]
		for (j = i - 1; j >= 1 && sp[j] > v; j--)
			sp[j + 1] = sp[j]
		sp[j + 1] = v
	}
	if (m)
		printf("Noise: interquartile range / median over the %s runs: median %.1f%%, worst %.1f%%\n",
		       reps, 100 * sp[int((m + 1) / 2)], 100 * sp[m])
}

# dynhz's own instructions per operation, by function, largest first.
function breakdown(op,    i, j, m, f, v, line, idx) {
	m = ndfn[op]
	for (i = 1; i <= m; i++)
		idx[i] = dfn[op, i]
	for (i = 2; i <= m; i++) {
		f = idx[i]
		for (j = i - 1; j >= 1 && dself[op, idx[j]] < dself[op, f]; j--)
			idx[j + 1] = idx[j]
		idx[j + 1] = f
	}
	line = ""
	for (i = 1; i <= m; i++) {
		v = dself[op, idx[i]]
		if (v < 0.05)
			continue
		line = line sprintf("%s%s %.1f", line == "" ? "" : ", ", idx[i], v)
	}
	return line
}

function csv_out(    o, s, n, l, name, k, op, f) {
	f = out "/timers.csv"
	print "order,library,timers,op,ns_median,ns_q1,ns_q3,runs,ns_vs_dynhz,ir_per_op,clock_reads_per_op" > f
	for (o = 1; o <= norder; o++)
		for (s = 1; s <= nsize; s++)
			for (l = 1; l <= nlib; l++)
				for (k = 1; k <= 4; k++) {
					n = size[s]
					name = lib[l]
					op = ops[k]
					printf("%s,%s,%s,%s,%s,%s,%s,%s,%.3f,%s,%s\n", order[o], name, n, op,
					       ns[order[o], name, n, op], nq1[order[o], name, n, op],
					       nq3[order[o], name, n, op], reps,
					       ratio(ns[order[o], name, n, op], ns[order[o], "dynhz", n, op]),
					       (order[o] == "random" && n == irn) ? sprintf("%.2f", ir[name, op]) : "",
					       (order[o] == "random" && n == irn) ? sprintf("%.3f", clk[name, op]) : "") > f
				}
	close(f)

	f = out "/empty_tick.csv"
	print "pending,ns_per_tick_median,ns_q1,ns_q3,ir_per_tick,ir_handler_per_tick,ticks_per_sample,runs" > f
	for (i = 1; i <= nemp; i++)
		printf("%s,%s,%s,%s,%.2f,%.2f,%s,%s\n", pend[i], ens[pend[i]], eq1[pend[i]], eq3[pend[i]],
		       eir[pend[i]], ehand[pend[i]], eticks, ereps) > f
	close(f)

	f = out "/lateness.csv"
	print "class,timeouts_jiffies,callbacks,min_late,median_late,max_late,early" > f
	for (i = 1; i <= nlate; i++)
		printf("%s,%s,%s,%s,%s,%s,%s\n", lcls[i], lname[i], lcount[i], lmin[i], lmed[i], lmax[i],
		       learly[i]) > f
	close(f)

	f = out "/drift.csv"
	print "hz,divisor,rate_hz,hz_arith_ppm,hz_arith_s_per_day,ticks_per_day,exact_ns," \
	      "ktime_clocksource_ns,diff_clocksource_ns,drift_clocksource_ppm,ktime_ticks_ns," \
	      "diff_ticks_ns,drift_ticks_ppm" > f
	for (i = 1; i <= ndrift; i++)
		printf("%s,%s,%s,%s,%.4f,%s,%s,%s,%s,%s,%s,%s,%s\n", dhz[i], ddiv[i], drate[i], dppmhz[i],
		       dplain[i] * 0.0864, dticks[i], dwant[i], dkcs[i], ddcs[i], dpcs[i], dktk[i],
		       ddtk[i], dptk[i]) > f
	close(f)
}

function plot_out(    o, k, s, l, f, n) {
	for (o = 1; o <= norder; o++)
		for (k = 1; k <= 4; k++) {
			f = plot "/plot_" order[o] "_" ops[k] ".dat"
			printf("timers") > f
			for (l = 1; l <= nlib; l++)
				printf(" %s", lib[l]) > f
			printf("\n") > f
			for (s = 1; s <= nsize; s++) {
				n = size[s]
				printf("%s", n) > f
				for (l = 1; l <= nlib; l++)
					printf(" %s", ns[order[o], lib[l], n, ops[k]]) > f
				printf("\n") > f
			}
			close(f)
		}
	f = plot "/plot_empty.dat"
	print "# pending ns_per_tick ir_per_tick ir_handler" > f
	for (i = 1; i <= nemp; i++)
		printf("%s %s %.2f %.2f\n", pend[i], ens[pend[i]], eir[pend[i]], ehand[pend[i]]) > f
	close(f)
	f = plot "/plot_drift.dat"
	print "# hz hz_arith_ppm ktime_clocksource_ppm ktime_ticks_ppm" > f
	for (i = 1; i <= ndrift; i++)
		printf("%s %s %s %s\n", dhz[i], dppmhz[i], dpcs[i], dptk[i]) > f
	close(f)
}

END {
	big = size[nsize]
	loop_ir = ir["loop", "add"]
	# The handler is measured from the bench's own caller: missing, say so.
	for (i = 1; i <= nemp; i++)
		if (!(pend[i] in ehand)) {
			printf("timers: no tick handler calls from tb_tick_interrupt in the callgrind dump for %s timers\n",
			       pend[i]) > "/dev/stderr"
			exit 1
		}

	# ---- 1. the comparison ----
	printf("1. Timers side by side, through each library's public API:")
	for (l = 1; l <= nlib; l++)
		printf(" %s %s%s", lib[l], lver[lib[l]], l < nlib ? "," : "\n")
	printf("Workload, the same for all (fixed seed): N timers; add all (timeouts uniform in\n")
	printf("1..%s ms), re-arm all while pending (new timeouts), cancel all, add all again,\n",
	       info["horizon_ms"])
	printf("expire all. dynhz at HZ=%s on the simulated PIT: a jiffy is %.6f ms, timeouts are\n",
	       info["hz"], info["jiffy_ps"] / 1e9)
	printf("1..%s jiffies. Expiry: an event loop sleeps past the horizon (+%s ms), then ONE\n",
	       info["horizon_j"], info["margin_ms"])
	printf("non-blocking pass (EVRUN_NOWAIT, EVLOOP_NONBLOCK, UV_RUN_NOWAIT) runs all N;\n")
	printf("dynhz: %s simulated PIT ticks (dynhz_host_run_ticks) run all N.\n", info["horizon_j"])
	printf("ns per operation (expire: per expired timer), median of %s runs; xR: time / dynhz's.\n",
	       reps)
	for (o = 1; o <= norder; o++)
		timers_table(order[o])
	noise()

	printf("\nInstructions per operation (callgrind Ir, %s timers, random order, after a warm-up run)\n",
	       kfmt(irn))
	printf("%-9s", "library")
	for (k = 1; k <= 4; k++)
		printf(" %15s", opname[ops[k]] " ")
	printf("   clock reads per add, re-arm\n")
	for (l = 1; l <= nlib; l++) {
		name = lib[l]
		line = sprintf("%-9s", name)
		for (k = 1; k <= 4; k++)
			line = line " " cell(sprintf("%.1f", ir[name, ops[k]]), ir["dynhz", ops[k]], name, "%8.1f")
		printf("%s   %.2f, %.2f\n", line, clk[name, "add"], clk[name, "rearm"])
	}
	printf("(the driving loop alone, included above: %.1f Ir per operation)\n", loop_ir)
	printf("\nWhere dynhz's instructions go (Ir per operation, by function, own instructions):\n")
	for (k = 1; k <= 4; k++)
		printf("  %-7s %s\n", opname[ops[k]], breakdown(ops[k]))

	printf("\nNot like for like:\n")
	printf("  - one timer:")
	for (l = 1; l <= nlib; l++)
		printf(" %s %s B%s", lobj[lib[l]], lsize[lib[l]], l < nlib ? ";" : "\n")
	printf("    what holds the pending ones:\n")
	for (l = 1; l <= nlib; l++)
		printf("      %-9s %s\n", lib[l], lstruct[lib[l]])
	printf("  - clock: libevent reads the OS clock in every event_add outside its loop (%.2f reads\n",
	       clk["libevent", "add"])
	printf("    per add, %.2f per re-arm; CLOCK_MONOTONIC_COARSE, resolution %.1f ms here); libev and\n",
	       clk["libevent", "rearm"], info["coarse_res_ns"] / 1e6)
	printf("    libuv use the time cached by the loop (%.2f, %.2f), dynhz reads jiffies. Counted\n",
	       clk["libev", "add"], clk["libuv", "add"])
	printf("    under callgrind, where a clock read is a system call: its cost is not in the Ir.\n")
	printf("  - resolution: dynhz a jiffy (%.6f ms; exact: a timer runs at the tick its expiry\n",
	       info["jiffy_ps"] / 1e9)
	printf("    names), libev double seconds, libevent microseconds, libuv milliseconds.\n")
	printf("  - re-arm API: dynhz mod_timer; libev ev_timer_again (moves the heap entry in place);\n")
	printf("    libevent event_add on a pending event (moves it in place); libuv uv_timer_start\n")
	printf("    (stop, then start).\n")
	printf("  - expiry: an event-loop pass also polls (epoll_wait with a zero timeout; libevent\n")
	printf("    loops twice) and reads the clock; dynhz's ticks are function calls from the\n")
	printf("    simulated PIT (a kernel adds interrupt entry and exit), %s of them, each cheap.\n",
	       info["horizon_j"])
	printf("  - dynhz's operations save and restore the interrupt flag inline (nothing on the host;\n")
	printf("    pushf, cli, then sti if it was set, in the kernel); the event loops take no lock.\n")
	printf("  - add in random order finds the objects where the other libraries' runs left the\n")
	printf("    caches; re-arm and cancel come right after it. Every library is treated alike.\n")

	printf("\nTargets (dynhz)                               measured                   target  verdict\n")
	for (k = 1; k <= 4; k++) {
		op = ops[k]
		t = op == "add" ? 10 : op == "cancel" ? 15 : op == "expire" ? 120 : ""
		if (t == "")
			continue
		vr = ns["random", "dynhz", big, op]
		vs = ns["seq", "dynhz", big, op]
		printf("  %-6s at %-3s ns/%-5s random, memory order  %8.1f, %8.1f        <= %3d  %s, %s\n",
		       opname[op], kfmt(big), op == "expire" ? "timer" : "op", vr, vs, t,
		       verdict(vr, t), verdict(vs, t))
	}
	printf("  (libev at %s, random, memory order: add %.1f, %.1f; cancel %.1f, %.1f; expire %.1f, %.1f;\n",
	       kfmt(big), ns["random", "libev", big, "add"], ns["seq", "libev", big, "add"],
	       ns["random", "libev", big, "cancel"], ns["seq", "libev", big, "cancel"],
	       ns["random", "libev", big, "expire"], ns["seq", "libev", big, "expire"])
	printf("   the targets quote libev at 19, 52, 260)\n")
	printf("  (both orders run the same instructions: the gap between them is memory, %s timers\n", kfmt(big))
	printf("   of %s B do not fit in the caches, and random order misses on every timer touched)\n",
	       lsize["dynhz"])
	for (k = 1; k <= 4; k++) {
		op = ops[k]
		t = op == "add" ? 60 : op == "cancel" ? 30 : op == "expire" ? 120 : ""
		if (t == "")
			continue
		printf("  %-6s at %-4s Ir/%-5s with loop, dynhz's own  %8.1f, %8.1f        <= %3d  %s\n",
		       opname[op], kfmt(irn), op == "expire" ? "timer" : "op", ir["dynhz", op],
		       ir["dynhz", op] - (op == "expire" ? 0 : loop_ir), t,
		       verdict(ir["dynhz", op] - (op == "expire" ? 0 : loop_ir), t))
	}
	pmax = pend[nemp]
	printf("  empty tick Ir    with host loop, handler     %8.1f, %8.1f        <= %3d  %s\n",
	       eir[pmax], ehand[pmax], 20, verdict(ehand[pmax], 20))
	printf("  (\"dynhz's own\": less the driving loop alone; expiry has no driving loop. \"handler\":\n")
	printf("  the tick handler and what it calls, without the simulated interrupt's loop.)\n")

	# ---- 2. the empty tick ----
	printf("\n2. Empty tick: a tick with nothing due, HZ=%s (the pending timers expire 2^22 to\n", info["hz"])
	printf("2^23 jiffies ahead; checked: nothing ran or cascaded). ns: median of %s samples of\n", ereps)
	printf("%s ticks; Ir: callgrind over 65536 ticks.\n", eticks)
	printf("%9s %12s %12s %10s %12s\n", "pending", "ns/tick", "IQR", "Ir/tick", "handler Ir")
	lo = hi = ""
	for (i = 1; i <= nemp; i++) {
		p = pend[i]
		printf("%9s %12.2f %5.2f..%-5.2f %10.2f %12.2f\n", kfmt(p), ens[p], eq1[p], eq3[p], eir[p],
		       ehand[p])
		if (lo == "" || ens[p] < lo)
			lo = ens[p]
		if (hi == "" || ens[p] > hi)
			hi = ens[p]
		if (irlo == "" || eir[p] < irlo)
			irlo = eir[p]
		if (irhi == "" || eir[p] > irhi)
			irhi = eir[p]
	}
	printf("Flat: slowest / fastest ns %.2f, instructions %.3f, from %s to %s pending.\n",
	       ratio(hi, lo), ratio(irhi, irlo), kfmt(pend[1]), kfmt(pmax))
	for (i = 2; i <= nefn; i++) {	# largest first
		fnm = efn[i]
		for (j = i - 1; j >= 1 && eself[pmax, efn[j]] < eself[pmax, fnm]; j--)
			efn[j + 1] = efn[j]
		efn[j + 1] = fnm
	}
	line = ""
	for (i = 1; i <= nefn; i++) {
		fnm = efn[i]
		if (eself[pmax, fnm] < 0.01)
			continue
		line = line sprintf("%s%s %.2f", line == "" ? "" : ", ",
				    fnm == "dynhz_host_run_ticks" ? "host loop (the simulated interrupt)" : fnm,
				    eself[pmax, fnm])
	}
	printf("Ir per tick by function: %s\n", line)

	# ---- 3. lateness ----
	printf("\n3. Lateness: jiffies in the callback - t->expires, HZ=%s, %s timers over a random\n",
	       late_hz, late_timers)
	printf("workload (callbacks re-arm themselves and add, move or delete others; timeouts per wheel\n")
	printf("level and beyond the wheel; across the jiffies wrap at 5 minutes). Ticked one by one for\n")
	printf("%s jiffies, then fast-forwarded (same jiffies for every timer) to %s.\n", late_ticked,
	       late_span)
	printf("%-40s %10s %6s %7s %6s %7s\n", "timeouts (jiffies)", "callbacks", "min", "median", "max", "early")
	for (i = 1; i <= nlate; i++)
		printf("%-40s %10s %6s %7s %6s %7s\n", lname[i] (lcls[i] == "all" ? " (all above)" : ""),
		       lcount[i], lmin[i], lmed[i], lmax[i], learly[i])
	printf("A timeout of 0 is already due: it runs at the next tick (1 late), or in the tick being\n")
	printf("run when a callback moves a timer due in that tick to that same tick (0).\n")

	# ---- 4. drift ----
	printf("\n4. Drift over a simulated day (86400 s of the 1193182 Hz PIT oscillator, delivered\n")
	printf("tick by tick): ktime_get_ns against the exact time ticks x divisor x 10^9 / 1193182,\n")
	printf("computed independently in 128-bit integers. \"1/HZ\": the error of plain HZ arithmetic\n")
	printf("(1/HZ s per tick), i.e. the uncorrected accounting.\n")
	printf("%6s %7s %13s %11s %9s %11s %14s %14s  %s\n", "HZ", "divisor", "actual Hz", "1/HZ ppm",
	       "s/day", "ticks/day", "ktime cs ppm", "ktime tick ppm", "goal < 0.01 ppm")
	for (i = 1; i <= ndrift; i++) {
		ok = (dpcs[i] < 0.01 && dpcs[i] > -0.01 && dptk[i] < 0.01 && dptk[i] > -0.01)
		printf("%6s %7s %13s %11s %9s %11s %14s %14s  %s (%s, %s ns)\n", dhz[i], ddiv[i], drate[i],
		       sgn(dppmhz[i], "%.3f"), sgn(dplain[i] * 0.0864, "%.2f"), dticks[i],
		       sprintf("%.6f", dpcs[i]), sprintf("%.6f", dptk[i]), ok ? "OK" : "MISS", ddcs[i],
		       ddtk[i])
	}
	printf("ktime cs: the host's clocksource (the PIT input clock, a 32-bit counter that wraps\n")
	printf("every hour); ktime tick: no clocksource, ticks times the exact period. Reference: the\n")
	printf("uncorrected accounting is +153 ppm at HZ=1000 (13.2 s/day); Linux 2.6's correction ~0.5 ppm.\n")

	if (out != "") {
		csv_out()
		printf("\nCSV: %s/timers.csv, empty_tick.csv, lateness.csv, drift.csv\n", out)
	}
	if (plot != "")
		plot_out()

	# ---- Markdown ----
	printf("\nSummary for docs/BENCHMARKS.md:\n\n")
	printf("Timers at %s (ns per operation, random order / memory order; median of %s runs):\n\n",
	       kfmt(big), reps)
	printf("| library | add | re-arm | cancel | expire (per timer) | Ir add / re-arm / cancel / expire at %s |\n",
	       kfmt(irn))
	printf("| --- | ---: | ---: | ---: | ---: | ---: |\n")
	for (l = 1; l <= nlib; l++) {
		name = lib[l]
		printf("| %s %s |", name == "dynhz" ? "**dynhz**" : name, name == "dynhz" ? "" : lver[name])
		for (k = 1; k <= 4; k++)
			printf(" %.1f / %.1f |", ns["random", name, big, ops[k]], ns["seq", name, big, ops[k]])
		printf(" %.0f / %.0f / %.0f / %.0f |\n", ir[name, "add"], ir[name, "rearm"],
		       ir[name, "cancel"], ir[name, "expire"])
	}
	printf("\nTargets: add <= 10 ns: %s; cancel <= 15 ns: %s; expire <= 120 ns: %s (random, memory order);\n",
	       verdict(ns["random", "dynhz", big, "add"], 10) ", " verdict(ns["seq", "dynhz", big, "add"], 10),
	       verdict(ns["random", "dynhz", big, "cancel"], 15) ", " verdict(ns["seq", "dynhz", big, "cancel"], 15),
	       verdict(ns["random", "dynhz", big, "expire"], 120) ", " verdict(ns["seq", "dynhz", big, "expire"], 120))
	printf("Ir (dynhz's own) add <= 60: %s (%.0f); cancel <= 30: %s (%.0f); expired timer <= 120: %s (%.0f);",
	       verdict(ir["dynhz", "add"] - loop_ir, 60), ir["dynhz", "add"] - loop_ir,
	       verdict(ir["dynhz", "cancel"] - loop_ir, 30), ir["dynhz", "cancel"] - loop_ir,
	       verdict(ir["dynhz", "expire"], 120), ir["dynhz", "expire"])
	printf(" empty tick <= 20: %s (%.1f).\n", verdict(ehand[pmax], 20), ehand[pmax])
	printf("\nEmpty tick, HZ=%s: ", info["hz"])
	for (i = 1; i <= nemp; i++)
		printf("%s%s pending %.2f ns / %.1f Ir", i > 1 ? "; " : "", kfmt(pend[i]), ens[pend[i]],
		       ehand[pend[i]])
	printf(" (handler).\n")
	for (i = 1; i <= nlate; i++)
		if (lcls[i] == "all")
			printf("Lateness over %s callbacks: min %s, median %s, max %s ticks; %s early.\n",
			       lcount[i], lmin[i], lmed[i], lmax[i], learly[i])
	printf("\n| HZ | PIT divisor | actual Hz | 1/HZ arithmetic | ktime_get_ns drift over a day |\n")
	printf("| ---: | ---: | ---: | ---: | ---: |\n")
	for (i = 1; i <= ndrift; i++)
		printf("| %s | %s | %s | %s ppm | %s ns (%.3f ppm) |\n", dhz[i], ddiv[i], drate[i],
		       sgn(dppmhz[i], "%.3f"), ddcs[i], dpcs[i])
}
