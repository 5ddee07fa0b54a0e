# bench/syscall: one kind of log into CSV rows (see run.sh), by `what`:
#   guest  a sysbench run as init under -icount shift=0 (libc=, hz=)
#   wall   the stamped console of `sysbench wall` runs, concatenated (libc=)
#   host   a sysbench run on the host (run=)
#   perf   the perf: lines of run.sh
#   boot   the stamped console of one boot (mode=, cfg=, run=)

# The value of key= in the current line, "" if absent.
function kv(key,    i, n, f) {
	n = split($0, f, " ")
	for (i = 1; i <= n; i++)
		if (index(f[i], key "=") == 1)
			return substr(f[i], length(key) + 2)
	return ""
}

function median(c,    i, j, t, m, v) {
	m = k[c]
	for (i = 1; i <= m; i++)
		v[i] = us[c, i]
	for (i = 1; i <= m; i++)
		for (j = i + 1; j <= m; j++)
			if (v[j] < v[i]) {
				t = v[i]; v[i] = v[j]; v[j] = t
			}
	return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
}

what == "guest" && /^sysbench: case=/ && kv("case") != "empty" {
	printf "dynhz,%s,i386,%s,icount shift=0,%s,%s,%s,%s,%s,insns\n", libc, hz, kv("case"),
		kv("nr"), kv("min"), kv("median"), kv("mean")
}

# Stamped: $1 is the host's microseconds, the line follows.
what == "wall" && / sysbench: wall case=.* begin$/ {
	c = kv("case"); nr[c] = kv("nr"); calls = kv("calls"); b = $1
	if (!(c in k))
		order[++nc] = c
}
what == "wall" && / sysbench: wall case=.* end$/ {
	c = kv("case"); us[c, ++k[c]] = ($1 - b) / calls
}

what == "host" && /^sysbench: start/ { hlibc = kv("libc"); arch = kv("arch") }
what == "host" && /^sysbench: case=/ && kv("case") != "empty" {
	hc[++m] = kv("case"); nr[m] = kv("nr")
	mn[m] = kv("min"); md[m] = kv("median"); me[m] = kv("mean")
}
what == "host" && /^sysbench: tsc_per_us=/ { ghz = kv("tsc_per_us") / 1000 }

what == "perf" && /^perf: / {
	a = kv("run"); sub(/^host-/, "", a)
	printf "host,glibc,%s,,perf stat,%s,,,%s,,insns\n", a, kv("case"), kv("insns")
}

what == "boot" && / dynhz reference kernel/ && first == "" { first = $1 }
what == "boot" && / tsc: .* calibrated against the PIT in / { tsc = $(NF - 1) }
what == "boot" && / lapic: .* calibrated against the PIT in / { lapic = $(NF - 1) }
what == "boot" && / boot: kernel entered at guest ns / {
	entry = $8; sub(/,$/, "", entry); start = $NF
}
what == "boot" && / exec: pid 1 .* entered at guest ns / { exec = $NF; wall = $1 }

END {
	if (what == "wall") {
		e = median("empty")
		for (i = 1; i <= nc; i++)
			if (order[i] != "empty")
				printf "dynhz-qemu-wall,%s,i386,250,icount shift=auto,%s,%s,,%.1f,,ns\n",
					libc, order[i], nr[order[i]], 1000 * (median(order[i]) - e)
	} else if (what == "host") {
		for (i = 1; i <= m && ghz > 0; i++)
			printf "host,%s,%s,,clock_gettime,%s,%s,%.1f,%.1f,%.1f,ns\n", hlibc, arch, hc[i],
				nr[i], mn[i] / ghz, md[i] / ghz, me[i] / ghz
	} else if (what == "boot" && exec != "") {
		printf "%s,%s,%s,%s,%s,%s,%s,%s,%.1f,%.1f\n", mode, cfg, run, entry, tsc, lapic, start,
			exec, first / 1000, wall / 1000
	}
}
