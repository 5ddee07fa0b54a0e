# bench/conv: turns the records of conv-bench (time.txt) and the callgrind
# counts (ir.txt: "mode conversion impl ops Ir") into the tables, the CSV
# (-v csv=FILE) and the Markdown summary. POSIX awk (mawk is enough).

function ratio(a, b) {
	return (a > 0 && b > 0) ? a / b : 0
}

# A ratio, with "!" when it misses its target (le: at most t; else at least t).
function mark(r, t, le) {
	if (r == 0)
		return sprintf("%6s ", "-")
	return sprintf("%6.2f%s", r, (le ? r > t : r < t) ? "!" : " ")
}

function row(m, c,    nv, nc, nd, iv, ic, id) {
	nv = ns[m, c, "var"]; nc = ns[m, c, "const"]; nd = ns[m, c, "div"]
	iv = ir[m, c, "var"]; ic = ir[m, c, "const"]; id = ir[m, c, "div"]
	printf("%-22s %6.2f %6.2f %6.2f   %6.1f %6.1f %6.1f   %s %s   %s %s  %4s\n", c, nv, nc, nd,
	       iv, ic, id, mark(ratio(nv, nc), 1.10, 1), mark(ratio(iv, ic), 1.10, 1),
	       mark(ratio(nd, nv), 3, 0), mark(ratio(id, iv), 3, 0), bits[c])
}

function table(m, title,    i) {
	printf("\n%s\n", title)
	printf("%-22s %20s   %20s   %15s   %15s  %4s\n", "", "ns/op", "instructions/op",
	       "var/const", "div/var", "div")
	printf("%-22s %6s %6s %6s   %6s %6s %6s   %7s %7s   %7s %7s  %4s\n", "conversion", "var",
	       "const", "div", "var", "const", "div", "ns", "Ir", "ns", "Ir", "bits")
	for (i = 1; i <= nconv; i++)
		row(m, conv[i])
	printf("%-22s %6.2f %13s   %6.1f\n", "(the loop alone)", ns[m, "loop", "-"], "",
	       ir[m, "loop", "-"])
}

function csvrow(m, c,    nv, nc, nd, iv, ic, id) {
	nv = ns[m, c, "var"]; nc = ns[m, c, "const"]; nd = ns[m, c, "div"]
	iv = ir[m, c, "var"]; ic = ir[m, c, "const"]; id = ir[m, c, "div"]
	printf("%s,%s,%s,%.4f,%.4f,%.4f,%.1f,%.1f,%.1f,%.3f,%.3f,%.3f,%.3f,%s,%s,%s,%s,%s,%s\n", m, c,
	       bits[c], nv, nc, nd, iv, ic, id, ratio(nv, nc), ratio(iv, ic), ratio(nd, nv),
	       ratio(id, iv), q1[m, c, "var"], q3[m, c, "var"], q1[m, c, "const"],
	       q3[m, c, "const"], q1[m, c, "div"], q3[m, c, "div"]) > csv
}

BEGIN {
	FS = ","
	nconv = 0
}

FILENAME ~ /time\.txt$/ && $1 == "info" {
	info[$2] = $3
	if ($2 == "period")
		period = $3 "/" $4
}

FILENAME ~ /time\.txt$/ && $1 == "domain" {
	conv[++nconv] = $2
	domain[$2] = $3
	for (i = 4; i <= NF; i++)
		domain[$2] = domain[$2] "," $i
}

FILENAME ~ /time\.txt$/ && $1 == "bits" {
	bits[$2] = $3
}

FILENAME ~ /time\.txt$/ && $1 == "ns" {
	ns[$2, $3, $4] = $5
	q1[$2, $3, $4] = $6
	q3[$2, $3, $4] = $7
}

FILENAME ~ /ir\.txt$/ {
	split($0, f, " ")
	ir[f[1], f[2], f[3]] = f[5] / f[4]
}

END {
	if (!nconv) {
		print "conv: no timings to report" > "/dev/stderr"
		exit 1
	}
	if (machine != "")
		printf("Machine: %s\n", machine)
	printf("HZ %s on a %s Hz clock%s: a jiffy is %s s. Each conversion runs on the same %s random\n",
	       info["hz"], info["clock"], info["clock"] == 1193182 ? " (the PIT)" : "", period,
	       info["inputs"])
	printf("inputs (fixed seed) in all three implementations; the inputs:\n")
	for (i = 1; i <= nconv; i++)
		printf("  %-22s %s\n", conv[i], domain[conv[i]])

	table("call", "Throughput at a call site: constants re-read from memory for every conversion")
	table("hoisted", "Throughput in a tight loop: the compiler may keep the constants in registers")
	table("chain", "Latency: each input's address depends on the previous result (i += r & zero)")

	printf("\nColumns:\n")
	printf("  var      the variable build: HZ set at boot (hz=%s), constants read from dz_tc\n", info["hz"])
	printf("  const    the constant build: CONFIG_HZ=%s, the same code with literal constants\n", info["hz"])
	printf("  div      plain runtime division, exact: (x * mul + add) / div with mul, div\n")
	printf("           set at boot; \"div bits\": product and division in 64 bits, or in\n")
	printf("           128 bits (unsigned __int128, gcc calls __udivti3)\n")
	printf("  ns/op    wall time per conversion (CLOCK_MONOTONIC): median of %s samples of\n", info["samples"])
	printf("           %d conversions each, the three interleaved; the loop is included\n",
	       info["inputs"] * info["passes"])
	printf("           (row \"the loop alone\"). In the latency table: the time from one\n")
	printf("           result to the next, so the loop's own chain (load, and, add) is in it\n")
	printf("  instructions/op  valgrind --tool=callgrind Ir over the %s inputs / %s, loop included\n",
	       info["inputs"], info["inputs"])
	printf("  var/const  cost of choosing HZ at boot: target <= 1.10\n")
	printf("  div/var    speed-up over plain division: target >= 3; ns is the measure (a\n")
	printf("             division is one instruction of 10 or more cycles: Ir cannot see it)\n")
	printf("  !        the ratio misses its target\n")

	# Noise: the interquartile range of each timed figure over its median.
	nsp = 0
	for (k in ns) {
		if (ns[k] > 0)
			spread[++nsp] = (q3[k] - q1[k]) / ns[k]
	}
	for (i = 2; i <= nsp; i++) {	# insertion sort: mawk has no asort
		v = spread[i]
		for (j = i - 1; j >= 1 && spread[j] > v; j--)
			spread[j + 1] = spread[j]
		spread[j + 1] = v
	}
	printf("\nNoise: interquartile range / median of the timed figures: median %.1f%%, worst %.1f%%\n",
	       100 * spread[int((nsp + 1) / 2)], 100 * spread[nsp])

	printf("\nTargets (conversions that meet them, of %d):\n", nconv)
	printf("  %-10s %18s %18s %16s\n", "mode", "var/const ns<=1.10", "var/const Ir<=1.10", "div/var ns>=3")
	for (mi = 1; mi <= 3; mi++) {
		m = mi == 1 ? "call" : mi == 2 ? "hoisted" : "chain"
		nvc = nvci = ndv = 0
		for (i = 1; i <= nconv; i++) {
			c = conv[i]
			nvc += ratio(ns[m, c, "var"], ns[m, c, "const"]) <= 1.10
			nvci += ratio(ir[m, c, "var"], ir[m, c, "const"]) <= 1.10
			ndv += ratio(ns[m, c, "div"], ns[m, c, "var"]) >= 3
		}
		printf("  %-10s %18d %18d %16d\n", m, nvc, nvci, ndv)
	}

	if (csv != "") {
		printf("mode,conversion,div_bits,ns_var,ns_const,ns_div,ir_var,ir_const,ir_div," \
		       "var_const_ns,var_const_ir,div_var_ns,div_var_ir,ns_var_q1,ns_var_q3," \
		       "ns_const_q1,ns_const_q3,ns_div_q1,ns_div_q3\n") > csv
		for (mi = 1; mi <= 3; mi++) {
			m = mi == 1 ? "call" : mi == 2 ? "hoisted" : "chain"
			for (i = 1; i <= nconv; i++)
				csvrow(m, conv[i])
			printf("%s,loop,,%.4f,,,%.1f,,,,,,,%s,%s,,,,\n", m, ns[m, "loop", "-"],
			       ir[m, "loop", "-"], q1[m, "loop", "-"], q3[m, "loop", "-"]) > csv
		}
		close(csv)
		printf("\nCSV: %s\n", csv)
	}

	printf("\nSummary for docs/BENCHMARKS.md (HZ %s, %s Hz clock; ns and Ir at a call site, loop included; ratios\n",
	       info["hz"], info["clock"])
	printf("var/const and div/var of throughput (ns), instructions (Ir) and latency):\n\n")
	printf("| conversion | ns var | ns const | ns div | Ir var | Ir const | Ir div | var/const ns | var/const Ir | var/const latency | div/var ns | div/var latency |\n")
	printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for (i = 1; i <= nconv; i++) {
		c = conv[i]
		printf("| `%s` | %.2f | %.2f | %.2f | %.1f | %.1f | %.1f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", c,
		       ns["call", c, "var"], ns["call", c, "const"], ns["call", c, "div"],
		       ir["call", c, "var"], ir["call", c, "const"], ir["call", c, "div"],
		       ratio(ns["call", c, "var"], ns["call", c, "const"]),
		       ratio(ir["call", c, "var"], ir["call", c, "const"]),
		       ratio(ns["chain", c, "var"], ns["chain", c, "const"]),
		       ratio(ns["call", c, "div"], ns["call", c, "var"]),
		       ratio(ns["chain", c, "div"], ns["chain", c, "var"]))
	}
}
