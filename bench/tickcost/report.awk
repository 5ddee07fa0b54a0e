# bench/tickcost: the table, the Kolivas verdict and the defaults check,
# from build/bench/tickcost.txt (see run.sh). Variables: def_empty,
# def_timer (tools/hzadvise/tickcost.h's defaults, empty if not found).

# The value of key= in the current line, "" if absent.
function kv(key,    i, n, f) {
	n = split($0, f, " ")
	for (i = 1; i <= n; i++)
		if (index(f[i], key "=") == 1)
			return substr(f[i], length(key) + 2)
	return ""
}

function pct_dev(def, got) {
	return got > 0 ? 100 * (def > got ? def - got : got - def) / got : 1e9
}

/^# case=/ {
	c = substr($2, 6)
	order[n++] = c
	shift[c] = substr($3, 14)
	dev[c] = c ~ /lapic/ ? "lapic" : "pit"
	lowres[c] = c ~ /highres-off/
	next
}
/^ticktest: calibration / {
	cpi[c] = kv("cycles_per_insn"); khz[c] = kv("tsc_khz"); ps[c] = kv("tick_ps")
	exact[c] = kv("icount")
	next
}
/^ticktest: empty / { mean[c] = kv("mean_insns"); next }
/^ticktest: loop / { lost[c] = kv("lost_insns_per_tick"); next }
/^ticktest: hz=/ {
	hz[c] = kv("hz"); mode[c] = kv("mode"); empty[c] = kv("empty_insns")
	cyc[c] = kv("empty_cycles"); timer[c] = kv("due_insns_per_timer")
	due1[c] = kv("due1_insns"); loss[c] = kv("loop_loss_pct")
	ips = khz[c] * 1000 / cpi[c]
	pred[c] = ps[c] > 0 && ips > 0 ? 100 * empty[c] * (1e12 / ps[c]) / ips : 0
	done[c] = 1
}

# The largest loss at HZ h among the main rows (PIT, shift=0); -1 if none.
function kolivas_worst(h,    i, c, w) {
	w = -1
	for (i = 0; i < n; i++) {
		c = order[i]
		if (done[c] && hz[c] == h && shift[c] == 0 && dev[c] == "pit" && loss[c] > w)
			w = loss[c]
	}
	return w
}

END {
	fmt = "%-6s %-9s %-21s %9s %9s %9s %9s %10s %10s %9s\n"
	printf fmt, "HZ", "mode", "tick", "insns", "cycles", "insns per", "1st due", "loss %",
		"predicted", "loop lost"
	printf fmt, "", "", "", "per tick", "per tick", "due timer", "timer", "measured", "loss %",
		"per tick"
	for (i = 0; i < n; i++) {
		c = order[i]
		if (!done[c]) {
			printf "%-30s no result\n", c
			continue
		}
		tick = dev[c] (shift[c] ? sprintf(", shift=%d", shift[c]) : "") \
			(lowres[c] ? ", lowres" : "")
		printf "%-6s %-9s %-21s %9d %9d %9.1f %9d %10.4f %10.4f %9d\n", hz[c], mode[c], tick,
			empty[c], cyc[c], timer[c], due1[c] - empty[c], loss[c], pred[c], lost[c]
	}
	print ""
	print "insns/cycles per tick: the median empty tick (entry stub, dispatch, the device's"
	print "handler, jiffies, timekeeping, the wheel, the scheduler's tick, exit hook, iret)."
	print "lowres: highres=off, the device periodic (else high resolution: one-shot events)."
	print "1st due timer: what a tick with one timer due adds; each further timer adds"
	print "'insns per due timer' (slope from 1 to 100 timers, a callback that counts)."
	print "predicted loss: insns per tick x ticks per second / guest instructions per"
	print "second; loop lost per tick: the instructions the loop lost, per tick."

	# nohz=on against nohz=off, HZ by HZ: a busy CPU keeps its tick.
	same = 0; diff = 0
	for (i = 0; i < n; i++) {
		c = order[i]
		if (mode[c] != "nohz" || !done[c])
			continue
		p = c; sub(/-nohz$/, "-periodic", p)
		if (!done[p])
			continue
		if (empty[c] == empty[p] && loss[c] == loss[p])
			same++
		else
			diff++
	}
	print ""
	if (same && !diff)
		print "Tickless (nohz=on) gives the same figures as periodic at every HZ: with the loop"
	else
		printf "Tickless (nohz=on) differs from periodic at %d of %d HZ: with the loop\n",
			diff, same + diff
	print "running the CPU never idles, so the tick never stops; nohz saves idle wakeups only."

	# Kolivas: HZ=1000 costs less than 1 %.
	ref = "hz1000-periodic"
	worst = kolivas_worst(1000)
	print ""
	if (worst < 0) {
		print "Kolivas's claim (HZ=1000 costs less than 1 %): no result at HZ=1000"
	} else {
		printf "Kolivas's claim \"HZ=1000 costs less than 1 %%\" %s in this kernel: at HZ=1000\n",
			(worst < 1 ? "holds" : "does not hold")
		printf "the loop loses %.4f %% on a guest of 1 instruction per ns, %.0f times under\n",
			worst, (worst > 0 ? 1 / worst : 0)
		printf "1 %% (HZ=10000: %.4f %%).", kolivas_worst(10000)
		if (done[ref])
			printf " The tick would cost 1 %% at HZ=1000 on a guest of %.1f M\ninstructions per second.",
				empty[ref] * (1e12 / ps[ref]) / 0.01 / 1e6
		print ""
		print "-icount counts instructions only: on hardware the interrupt's own entry and"
		print "exit (hundreds of cycles) and the caches it disturbs come on top."
	}

	# High resolution against the periodic tick of highres=off.
	per = "hz1000-periodic-highres-off"
	if (done[ref] && done[per]) {
		print ""
		printf "High resolution (the default): the tick is a one-shot event the core programs at\n"
		printf "every jiffy, %d insns on the PIT (its one-shot the LAPIC timer), %.1f times the\n",
			empty[ref], empty[ref] / empty[per]
		printf "periodic tick of highres=off (%d insns)", empty[per]
		if (done["hz1000-periodic-lapic"] && done["hz1000-periodic-lapic-highres-off"])
			printf "; on the LAPIC timer %d against %d",
				empty["hz1000-periodic-lapic"], empty["hz1000-periodic-lapic-highres-off"]
		print "."
	}

	# The committed defaults describe the periodic tick (highres=off when measured).
	if (done[per])
		ref = per
	print ""
	if (def_empty == "" || def_timer == "") {
		print "tickcost.h defaults: not found in tools/hzadvise/tickcost.h"
	} else if (!done[ref]) {
		print "tickcost.h defaults: no " ref " result to compare with"
	} else {
		de = pct_dev(def_empty, empty[ref]); dt = pct_dev(def_timer, timer[ref])
		x = de > dt ? de : dt
		printf "tickcost.h defaults: within %.1f %% of this run (empty tick %d insns against %d\n",
			x, def_empty, empty[ref]
		printf "measured at HZ=1000 periodic%s, due timer %d against %.1f)%s\n",
			(ref == per ? " with highres=off" : ""), def_timer,
			timer[ref], (x > 25 ? "; more than 25 %: update tools/hzadvise/tickcost.h" : "")
	}
}
