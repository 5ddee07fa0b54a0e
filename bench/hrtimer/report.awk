# bench/hrtimer's report: reads info.txt (lib,NAME,VERSION,OBJECT,SIZE,STRUCTURE),
# cmp.txt (ns,ORDER,LIB,N,OP,MEDIAN,Q1,Q3,RUNS) and ir.txt (ir,LIB N OP,IR),
# prints the tables, the ratios and the targets, and writes every figure to csv.
BEGIN { FS = "," }

$1 == "info" { info[$2] = $3 }
$1 == "lib" { lver[$2] = $3; lobj[$2] = $4; lsize[$2] = $5; lstruct[$2] = $6 }
$1 == "ns" {
	ns[$2, $3, $4, $5] = $6
	q1[$2, $3, $4, $5] = $7
	q3[$2, $3, $4, $5] = $8
	runs[$5] = $9
	if (!($4 in seen)) {
		seen[$4] = 1
		size[++nsize] = $4
	}
}
$1 == "ir" {
	split($2, w, " ")
	ir[w[1], w[2], w[3]] = $3 / w[2]
}

function kfmt(n) {
	return n >= 1000000 ? n / 1000000 "M" : n >= 1000 ? n / 1000 "k" : n
}

function ratio(a, b) {
	return b > 0 ? a / b : 0
}

function verdict(ok) {
	return ok ? "met" : "MISSED"
}

BEGIN {
	nop = split("start rearm cancel expire", ops, " ")
	nlib = split("hrtimer wheel libev", libs, " ")
	split("start,re-arm,cancel,expire", opname, ",")
}

function table(order,    s, n, k, op, l) {
	printf("\n%s order: ns per operation (expire: per timer), median (quartiles)\n",
	       order == "random" ? "Random" : "Memory")
	printf("%-6s %-7s %22s %22s %22s %10s %10s\n", "timers", "op", "hrtimer", "wheel",
	       "libev", "hr/wheel", "libev/hr")
	for (s = 1; s <= nsize; s++) {
		n = size[s]
		for (k = 1; k <= nop; k++) {
			op = ops[k]
			printf("%-6s %-7s", kfmt(n), opname[k])
			for (l = 1; l <= nlib; l++)
				printf(" %8.2f (%5.1f..%5.1f)", ns[order, libs[l], n, op],
				       q1[order, libs[l], n, op], q3[order, libs[l], n, op])
			printf(" %10.2f %10.2f\n", ratio(ns[order, "hrtimer", n, op], ns[order, "wheel", n, op]),
			       ratio(ns[order, "libev", n, op], ns[order, "hrtimer", n, op]))
		}
	}
}

END {
	printf("hrtimers against the jiffies wheel and libev %s, through their public APIs, at HZ=%s.\n",
	       lver["libev"], info["hz"])
	printf("Workload (fixed seed, the same for all): N timers; start all (expiries uniform in 1 ns .. 1 s\n")
	printf("from now: the wheel gets them in jiffies, rounded up), re-arm all while pending, cancel all:\n")
	printf("%s runs; then %s times: start all, let the second pass (libev: a sleep; dynhz: the simulated\n",
	       runs["start"], runs["expire"])
	printf("clock, interrupts off) and run all in one pass (ev_run(EVRUN_NOWAIT); one interrupt).\n")
	for (l = 1; l <= nlib; l++)
		printf("  %-8s %s, %s B; %s\n", libs[l], lobj[libs[l]], lsize[libs[l]], lstruct[libs[l]])
	table("random")
	table("seq")

	printf("\nInstructions per operation (callgrind Ir, random order, after a warm-up round;\n")
	printf("the driving loop included: %.1f Ir)\n", ir["loop", size[1], "start"])
	printf("%-6s %-7s %10s %10s %10s %10s %10s\n", "timers", "op", "hrtimer", "wheel", "libev",
	       "hr/wheel", "libev/hr")
	for (s = 1; s <= nsize; s++) {
		n = size[s]
		for (k = 1; k <= nop; k++) {
			op = ops[k]
			printf("%-6s %-7s %10.1f %10.1f %10.1f %10.2f %10.2f\n", kfmt(n), opname[k],
			       ir["hrtimer", n, op], ir["wheel", n, op], ir["libev", n, op],
			       ratio(ir["hrtimer", n, op], ir["wheel", n, op]),
			       ratio(ir["libev", n, op], ir["hrtimer", n, op]))
		}
	}

	printf("\nTargets, random order (ns; instructions in brackets):\n")
	allok = 1
	for (s = 1; s <= nsize; s++) {
		n = size[s]
		line = sprintf("  %-5s", kfmt(n))
		for (k = 1; k <= nop; k++) {
			op = ops[k]
			if (op == "rearm")
				continue
			hr = ns["random", "hrtimer", n, op]
			if (op != "expire") {
				r = ratio(hr, ns["random", "wheel", n, op])
				ok = r <= 2
				allok = allok && ok
				line = line sprintf(" %s %.2fx wheel [%.2fx] %s;", opname[k], r,
						    ratio(ir["hrtimer", n, op], ir["wheel", n, op]), verdict(ok))
			}
			r = ratio(ns["random", "libev", n, op], hr)
			ok = r > 1
			allok = allok && ok
			line = line sprintf(" %s %.2fx faster than libev [%.2fx] %s;", opname[k], r,
					    ratio(ir["libev", n, op], ir["hrtimer", n, op]), verdict(ok))
		}
		print line
	}
	printf("All targets: %s\n", allok ? "met" : "NOT met")

	print "order,library,timers,op,ns_median,ns_q1,ns_q3,ir" > csv
	for (s = 1; s <= nsize; s++)
		for (k = 1; k <= nop; k++)
			for (l = 1; l <= nlib; l++)
				for (o = 1; o <= 2; o++) {
					order = o == 1 ? "random" : "seq"
					printf("%s,%s,%s,%s,%s,%s,%s,%s\n", order, libs[l], size[s], ops[k],
					       ns[order, libs[l], size[s], ops[k]],
					       q1[order, libs[l], size[s], ops[k]],
					       q3[order, libs[l], size[s], ops[k]],
					       order == "random" ? ir[libs[l], size[s], ops[k]] : "") > csv
				}
	close(csv)
	printf("CSV: %s\n", csv)

	printf("\nSummary for docs/BENCHMARKS.md (ns random / memory order; Ir at each size, random order):\n\n")
	printf("| timers | op | hrtimer | wheel | libev | hrtimer / wheel | libev / hrtimer | Ir hrtimer / wheel / libev |\n")
	printf("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for (s = 1; s <= nsize; s++)
		for (k = 1; k <= nop; k++) {
			n = size[s]
			op = ops[k]
			printf("| %s | %s | %.1f / %.1f | %.1f / %.1f | %.1f / %.1f | %.2f | %.2f | %.0f / %.0f / %.0f |\n",
			       kfmt(n), opname[k], ns["random", "hrtimer", n, op], ns["seq", "hrtimer", n, op],
			       ns["random", "wheel", n, op], ns["seq", "wheel", n, op],
			       ns["random", "libev", n, op], ns["seq", "libev", n, op],
			       ratio(ns["random", "hrtimer", n, op], ns["random", "wheel", n, op]),
			       ratio(ns["random", "libev", n, op], ns["random", "hrtimer", n, op]),
			       ir["hrtimer", n, op], ir["wheel", n, op], ir["libev", n, op])
		}
}
