# bench/syscall: the tables, from build/bench/syscall.csv and
# build/bench/syscall-boot.csv (see run.sh), read with -F,. Variables: n,
# rounds, host_rounds, wall_calls, boots, init_bytes (the size of the
# program booted), and the notes musl_note, host_i386_note, perf_note,
# trace_note (empty when there is nothing to say).

FNR == 1 {
	file++
	if (file < 3)
		next
}

# syscall.csv: where,libc,arch,hz,clock,case,nr,min,median,mean,unit
file == 1 && $1 == "dynhz" {
	k = $2 SUBSEP $6
	if (!(k in seen)) {
		seen[k] = 1
		rows[++nrows] = k
	}
	nr[k] = $7; mn[k, $4] = $8; mean[k, $4] = $10
	if (!($2 in libc_seen)) {
		libc_seen[$2] = 1
		libcs[++nlibc] = $2
	}
}
file == 1 && $1 == "dynhz-qemu-wall" { wall[$2, $6] = $9 }
file == 1 && $1 == "host" && $11 == "ns" { host_ns[$3, $6] = $9; host_nr[$3, $6] = $7; has_host[$3] = 1 }
file == 1 && $1 == "host" && $11 == "insns" { host_insns[$3, $6] = $9 }

# trace.log: "trace: nr=20 insns=1376 fn=count ...", most first
file == 3 && /^trace: / {
	nf = split($0, f, " ")
	t = ++ntrace
	tnr[t] = substr(f[2], 4); tins[t] = substr(f[3], 7)
	tline[t] = ""; shown = 0
	for (i = 4; i <= nf && i < 12; i++) {
		split(f[i], kvp, "=")
		tline[t] = tline[t] (i > 4 ? ", " : "") kvp[1] "\001" kvp[2]
		shown += kvp[2]
	}
	if (nf >= 12)
		tline[t] = tline[t] sprintf(", %d\001other\001functions\001%d", nf - 11,
			tins[t] - shown)
}

# syscall-boot.csv: mode,config,run,entry_ns,tsc_cal_us,lapic_cal_us,init_start_ns,exec_ns,
# wall_first_line_ms,wall_exec_ms
file == 2 {
	b = $1 SUBSEP $2
	if (!(b in bseen)) {
		bseen[b] = 1
		brows[++nb] = b
	}
	m = ++bn[b]
	bentry[b, m] = $4; btsc[b, m] = $5; blapic[b, m] = $6; bstart[b, m] = $7
	bexec[b, m] = $8; bfirst[b, m] = $9; bwall[b, m] = $10
}

function sorted_median(arr, key, cnt,    i, j, t, v) {
	for (i = 1; i <= cnt; i++)
		v[i] = arr[key, i] + 0
	for (i = 1; i <= cnt; i++)
		for (j = i + 1; j <= cnt; j++)
			if (v[j] < v[i]) {
				t = v[i]; v[i] = v[j]; v[j] = t
			}
	lo = v[1]; hi = v[cnt]
	return cnt % 2 ? v[(cnt + 1) / 2] : (v[cnt / 2] + v[cnt / 2 + 1]) / 2
}

# The host's counterpart of a case: the same in the i386 program when the
# host runs it, else the x86-64 build's (syscall for int $0x80; its one
# clock_gettime for both of i386's).
function host_case(c) {
	if (has_host["i386"])
		return "i386" SUBSEP c
	sub(/-int80$/, "-syscall", c)
	sub(/^clock_gettime64-/, "clock_gettime-", c)
	return "x86_64" SUBSEP c
}

# Prints s in lines of at most w characters, the continuations indented;
# \001 is a space that does not break.
function wrap(s, w,    words, i, line, n) {
	n = split(s, words, " ")
	line = words[1]
	for (i = 2; i <= n; i++) {
		if (length(line) + 1 + length(words[i]) > w) {
			gsub(/\001/, " ", line)
			print line
			line = "    " words[i]
		} else
			line = line " " words[i]
	}
	gsub(/\001/, " ", line)
	print line
}

function label(c) {
	sub(/-int80$/, ", int $0x80", c)
	sub(/-libc$/, ", libc", c)
	return c
}

END {
	host_arch = has_host["i386"] ? "i386" : "x86_64"
	printf "System-call round trip: guest instructions per call (= guest cycles: -icount\n"
	printf "shift=0, 1 instruction per ns, TSC at 1 GHz), from the quickest of %d batches of\n", rounds
	printf "%d and %d calls, less the empty loop; the program as init, static i386.\n", n, 2 * n
	printf "QEMU wall: host ns per call under -icount shift=auto, hz=250 (median of 3 boots,\n"
	printf "%d calls, the console's lines stamped by the host). host: the same source on\n", wall_calls
	printf "this host's Linux (%s, static glibc; wall ns, median of %d batches).\n\n", host_arch,
		host_rounds
	fmt = "%-27s %4s %-6s %7s %7s %8s %8s %9s %6s %6s\n"
	printf fmt, "call", "nr", "libc", "HZ 24", "HZ 250", "HZ 10000", "+ ticks", "QEMU wall", "host", "dynhz/"
	printf fmt, "", "", "", "insns", "insns", "insns", "at 10000", "ns", "ns", "host"
	same = 1
	for (i = 1; i <= nrows; i++) {
		k = rows[i]
		split(k, p, SUBSEP)
		h = host_case(p[2])
		hs = (h in host_ns) ? sprintf("%.0f%s", host_ns[h], host_nr[h] == -1 ? "*" : "") : "-"
		ratio = (h in host_ns) && host_ns[h] > 0 ? sprintf("%.2f", mn[k, 250] / host_ns[h]) : "-"
		printf "%-27s %4s %-6s %7.0f %7.0f %8.0f %8.1f %9s %6s %6s\n", label(p[2]), nr[k], p[1],
			mn[k, 24], mn[k, 250], mn[k, 10000], mean[k, 10000],
			((p[1], p[2]) in wall) ? sprintf("%.0f", wall[p[1], p[2]]) : "-", hs, ratio
		if (mn[k, 24] != mn[k, 250] || mn[k, 250] != mn[k, 10000])
			same = 0
		if (mean[k, 10000] - mn[k, 10000] > tick_extra)
			tick_extra = mean[k, 10000] - mn[k, 10000]
	}
	print ""
	if (nrows == 0)
		print "No guest figures."
	else if (same)
		print "Every call costs the same instructions at HZ 24, 250 and 10000, to the instruction."
	else
		print "The cost differs between HZ: see the table."
	printf "+ ticks: the mean over all batches, the tick's interrupts included: at HZ 10000\n"
	printf "they add at most %.1f instructions per call.\n", tick_extra
	for (j = 1; j <= nlibc; j++) {
		l = libcs[j]
		printf "%s's wrappers add %d instructions to getpid and %d to clock_gettime (to the\n", l,
			mn[l, "getpid-libc", 250] - mn[l, "getpid-int80", 250],
			mn[l, "clock_gettime-libc", 250] - mn[l, "clock_gettime64-int80", 250]
		printf "  bare clock_gettime64 it makes, which this kernel has: no fallback to 265).\n"
	}
	if (musl_note != "")
		print musl_note
	if (host_i386_note != "")
		printf "host: %s;\nthe host's figures are the same source built for x86-64 (syscall for int $0x80).\n",
			host_i386_note
	h = host_case("clock_gettime-libc")
	if ((h in host_ns) && host_nr[h] == -1)
		print "*: the host's clock_gettime is the vDSO's, no system call."
	printf "dynhz/host: guest instructions taken as ns (1 per ns) over the host's ns: a ratio of\n"
	printf "work, not of speed (-icount runs no real CPU at 1 GHz).\n"
	if (perf_note != "")
		printf "host instructions: not counted, %s.\n", perf_note
	else
		for (i = 1; i <= nrows; i++) {
			split(rows[i], p, SUBSEP)
			h = host_case(p[2])
			if ((h in host_insns) && !(h in insns_shown)) {
				insns_shown[h] = 1
				split(h, q, SUBSEP)
				printf "host instructions per call (perf stat, user and kernel): %s %s\n",
					q[2], host_insns[h]
			}
		}

	print ""
	if (ntrace) {
		printf "Where the kernel's instructions go (gdb single-steps the 10th call of the glibc\n"
		printf "program, from int $0x80 to iret; inlined functions by name):\n"
		for (t = 1; t <= ntrace; t++) {
			name = tnr[t] == 20 ? "getpid" : (tnr[t] == 403 ? "clock_gettime64" : "call")
			wrap(sprintf("%s (%s): %d insns: %s.", name, tnr[t], tins[t], tline[t]), 88)
		}
	} else if (trace_note != "")
		printf "Where the kernel's instructions go: not traced, %s.\n", trace_note

	print ""
	printf "Boot to init's first instruction (init=/bin/sysbench-glibc -- exit): guest ms from\n"
	printf "the kernel's lines (TSC ns since reset); host wall ms from QEMU's start to the line\n"
	printf "on the console, median of %d boots (min-max).\n\n", boots
	fmt = "%-15s %-9s %8s %8s %8s %8s %9s %10s %17s\n"
	printf fmt, "QEMU", "boot", "kernel", "TSC", "LAPIC", "init", "init", "wall to", "wall to init"
	printf fmt, "", "", "entered", "calibr.", "calibr.", "started", "entered", "1st line", "entered"
	for (i = 1; i <= nb; i++) {
		b = brows[i]
		split(b, p, SUBSEP)
		c = bn[b]
		first = sorted_median(bfirst, b, c)
		w = sorted_median(bwall, b, c)
		wlo = lo; whi = hi
		printf "%-15s %-9s %8.3f %8.3f %8.3f %8.3f %9.3f %10.1f %17s\n",
			p[1] == "icount0" ? "icount shift=0" : "no icount", p[2],
			sorted_median(bentry, b, c) / 1e6, sorted_median(btsc, b, c) / 1e3,
			sorted_median(blapic, b, c) / 1e3, sorted_median(bstart, b, c) / 1e6,
			sorted_median(bexec, b, c) / 1e6, first,
			sprintf("%.1f (%.1f-%.1f)", w, wlo, whi)
		if (p[1] == "icount0") {
			for (j = 2; j <= c; j++)
				if (bexec[b, j] != bexec[b, 1])
					varies = 1
			cal = (btsc[b, 1] + blapic[b, 1]) * 1000
			if (!ref_exec) {
				ref_exec = bexec[b, 1]; ref_cal = cal
				ref_load = bexec[b, 1] - bstart[b, 1]
			}
		}
	}
	print ""
	if (ref_exec) {
		printf "Under -icount the guest figures repeat to the ns%s. The two calibrations against the\n",
			varies ? " (not here: see the CSV)" : ""
		printf "PIT (the TSC's, then the LAPIC timer's: three windows of two 10 ms ticks each)\n"
		printf "take %.3f ms of the %.3f ms to init (%.0f %%); exec of the %d-byte program, from\n",
			ref_cal / 1e6, ref_exec / 1e6, 100 * ref_cal / ref_exec, init_bytes
		printf "\"init started\" to its first instruction, %.3f ms (%.1f instructions a byte).\n",
			ref_load / 1e6, (init_bytes > 0 ? ref_load / init_bytes : 0)
		printf "Without -icount the guest's time is the host's: the calibrations wait for the PIT\n"
		printf "in real time.\n"
	}
}
