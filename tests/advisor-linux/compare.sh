#!/bin/bash
# compare: hzadvise's prediction against what happened (issue 30, item 3).
#
#	compare.sh [-m nohz|periodic] [-l LABEL] [-b HZADVISE] [-S|-L] [-J REGEX] [-K]
#	           TRACE_A HZ_A TRACE_B HZ_B
#
# TRACE_A was recorded at hz=HZ_A, TRACE_B at hz=HZ_B with the same
# workloads (tests/advisor-linux/guest-record.sh). hzadvise predicts HZ_B (tick
# mode -m, default nohz) from TRACE_A alone; the observation is TRACE_B,
# read here with awk, not by hzadvise:
#
#   wakeups/s   each CPU's hrtimer_expire_entry events, a run of them less
#               than 30 us apart counted once (one timer interrupt), summed
#               over the CPUs, over the span from the first event to the last;
#   per program the timers a program's own sleeps armed: hrtimer_start of
#               hrtimer_wakeup (nanosleep, poll, epoll_wait, select...) and
#               timer_start of process_timeout (schedule_timeout:
#               SO_RCVTIMEO, msleep...), by the comm of the line that
#               started them; fires/s (their expiries) and p99 lateness:
#               for a jiffies timer (now - expires) ticks of HZ_B, for an
#               hrtimer now - softexpires.
#
# Tolerances without -S or -L (issue 30's): wakeups within 10 %; p99
# lateness within 20 % or one tick of HZ_B, whichever is larger. Per
# program only the programs -J names (default the workload's, comm hzw-*)
# and with -K the kernel's jiffies timers, that fired at least 5 times a
# second in the observation, are judged (fewer make no p99); the rest are
# printed (a kernel thread's sleeps end on wakeups from inside the kernel
# that the trace does not show). One line per metric:
#
#	compare: LABEL METRIC predicted P observed O (TOL) pass|FAIL
#
# then "compare: LABEL N passed, M failed". Exit status 0 when all pass, 1
# if any fails, 2 on bad arguments or when hzadvise or a trace fails.
#
# -J REGEX: the programs judged are the comms REGEX matches (default
# ^hzw-, the project's workload); -K: also the kernel's jiffies timers
# (timer_start of any function but process_timeout), by function, as
# hzadvise names them (source kernel-jiffies); and the timers of a task's
# own that are no sleep: hrtimer_start of it_real_fn (alarm, setitimer),
# posix_timer_fn, timerfd_tmrproc, alarmtimer_fired, by the comm that
# started them (re-armed from an interrupt, a timer stays whose it was).
#
# -S: bounds from the spread the traces themselves show, instead of the
# fixed tolerances (issue 43, item 4: no one-tick floor where the
# lateness measured is a hundred times smaller). Each trace is cut into 8
# blocks of equal time; a rate's standard error is the standard deviation
# of its 8 block rates over sqrt(8). A predicted rate P passes when
#   |P - O| <= Z * sqrt(seB^2 + (P * seA / rA)^2) + 1 / spanA + 1 / spanB
# (seB: the observation's; the prediction carries trace a's noise, seA of
# its rate rA there, scaled to P; one event at each end of each span, as a
# periodic timer's count over a span may be one more or less). A p99
# lateness passes when hzadvise's figure meets the observation's interval
# for its p99, widened by the prediction's own noise:
#   - the observation's interval: its sorted lateness values at ranks
#     n * 0.99 -+ Z * sqrt(n * 0.99 * 0.01) (order statistics), each end
#     1 us wider (the trace's microseconds against hzadvise's);
#   - where the upper rank passes the last sample, the largest value is
#     above the p99 but with probability 0.99^n: from n = 688 on (once in
#     a thousand) it is the upper end; below that no sample bounds a p99
#     from above, and the upper end is the largest value plus the
#     interval's width below it (max + (max - low end)), an extrapolation
#     of the tail measured, not a confidence bound;
#   - the prediction's noise: trace a's interval around its own p99
#     (found the same way), relative, scaled to the prediction;
#   - hzadvise's figure is the low end of a bucket of its histogram
#     (tools/hzadvise/hist.c, 5 bits: a sixteenth of the power of two the
#     value is in, 2 us at 50 us, 1 ms at 20 ms): the p99 it means is in
#     [P, P + the bucket's width), which must meet the interval.
# Z = 4 (COMPARE_Z). No tick enters a bound.
#
# -L: the p99 lateness as -S, the rates within 10 % (a workload whose
# rates move within the recording, as hzworkload's, which starts in it,
# spreads its block rates wider than that).
set -u
mode=nohz label='' bin=build/tools/hzadvise spread=0 slate=0 judge='^hzw-' kernel=0
z=${COMPARE_Z:-4}
# The fewest samples whose largest is above their p99 but once in a
# thousand (0.99^688 < 0.001): fewer, and the upper end is extrapolated.
nmin=688
usage="usage: compare.sh [-m nohz|periodic] [-l LABEL] [-b HZADVISE] [-S|-L] [-J REGEX] [-K] TRACE_A HZ_A TRACE_B HZ_B"
while getopts "m:l:b:SLJ:K" o; do
	case $o in
	m) mode=$OPTARG ;;
	l) label=$OPTARG ;;
	b) bin=$OPTARG ;;
	S) spread=1 slate=1 ;;
	L) slate=1 ;;
	J) judge=$OPTARG ;;
	K) kernel=1 ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 4 ] || { echo "$usage" >&2; exit 2; }
ta=$1 hza=$2 tb=$3 hzb=$4
label=${label:-"$hza->$hzb $mode"}
case $mode in nohz | periodic) ;; *) echo "compare: -m $mode: nohz or periodic" >&2; exit 2 ;; esac
export LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

cat_trace() { case $1 in *.xz) xz -dc "$1" ;; *.gz) gzip -dc "$1" ;; *) cat "$1" ;; esac; }

# The prediction: hzadvise on TRACE_A, at HZ_B.
if ! "$bin" -q --hz "$hzb" "$ta" >"$tmp/pred" 2>"$tmp/pred.err"; then
	echo "compare: $label: hzadvise failed on $ta: $(head -1 "$tmp/pred.err")" >&2
	exit 2
fi
src=$(grep '^source:' "$tmp/pred")
[ "$(sed -n 's/.* hz=\([0-9]*\) .*/\1/p' <<<"$src")" = "$hza" ] ||
	echo "compare: $label: note: hzadvise infers hz=$(sed -n 's/.* hz=\([0-9]*\) .*/\1/p' <<<"$src") for $ta, recorded at $hza" >&2
set_line=$(grep "^setting: hz=$hzb mode=$mode " "$tmp/pred")
[ -n "$set_line" ] || { echo "compare: $label: no setting: hz=$hzb mode=$mode line from hzadvise" >&2; exit 2; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }

# observe TRACE HZ OUT: the trace read with awk, not by hzadvise. OUT gets
#   total RATE N SE SPAN
#   program NAME SOURCE RATE P99 N SE LO HI MAX
# RATE per second over the span from the first event to the last, SE its
# standard error over 8 blocks of the span, LO and HI the order-statistic
# interval of the p99 lateness (us) at Z.
observe() {
	cat_trace "$1" | awk -v hz="$2" -v out="$3" -v kernel="$kernel" -v z="$z" '
function ts_of(line,   t) { t = line; sub(/: [a-z_]+: .*/, "", t); sub(/.* /, "", t); return t + 0 }
function cpu_of(line,   c) { c = line; sub(/^[^[]*\[/, "", c); sub(/\].*/, "", c); return c + 0 }
function comm_of(line,   c) { c = line; sub(/ +\[[0-9]+\].*/, "", c); sub(/^ +/, "", c); sub(/-[0-9]+$/, "", c); return c }
function pid_of(line,   c) { c = line; sub(/ +\[[0-9]+\].*/, "", c); sub(/.*-/, "", c); return c + 0 }
# In an interrupt (the flags column: h, s or H third) or the idle task.
function irq_of(line,   f) { f = line; sub(/^.* \[[0-9]+\] /, "", f); return pid_of(line) == 0 || substr(f, 3, 1) ~ /[hsH]/ }
function val(line, key,   v) { v = line; if (!sub(".* " key "=", "", v)) return ""; sub(/ .*/, "", v); return v }
function fire(p, t, l) { fires[p]++; late[p, fires[p]] = l; when[p, fires[p]] = t }
/^#/ { next }
/: (hr)?timer_|: tick_stop: |: sched_switch: |: cpu_idle: / {
	t = ts_of($0); if (first == "") first = t; last = t
}
/: hrtimer_expire_entry: / {
	c = cpu_of($0); us = t * 1e6
	if (!(c in lastw) || us - lastw[c] >= 30) { wake++; wt[wake] = t }
	lastw[c] = us
	id = val($0, "hrtimer")
	if (id in hown) { fire(hown[id], t, (val($0, "now") - hsoft[id]) / 1e3); delete hown[id] }
	next
}
/: hrtimer_start: / {
	id = val($0, "hrtimer"); delete hown[id]; f = val($0, "function")
	if (f == "hrtimer_wakeup") { hown[id] = comm_of($0) " hrtimer"; hsoft[id] = val($0, "softexpires") }
	else if (kernel && f ~ /^(it_real_fn|posix_timer_fn|timerfd_tmrproc|alarmtimer_fired)$/) {
		if (!irq_of($0)) owner[id] = comm_of($0) " hrtimer"
		if (id in owner) { hown[id] = owner[id]; hsoft[id] = val($0, "softexpires") }
	}
	next
}
/: timer_start: / {
	id = val($0, "timer"); delete jown[id]; f = val($0, "function")
	if (f == "process_timeout") jown[id] = comm_of($0) " jiffies"
	else if (kernel) jown[id] = f " kernel-jiffies"
	jexp[id] = val($0, "expires")
	next
}
/: timer_expire_entry: / {
	id = val($0, "timer")
	if (id in jown) { l = val($0, "now") - jexp[id]; if (l < 0) l = 0
		fire(jown[id], t, l * int((1e9 + hz / 2) / hz) / 1e3); delete jown[id] }
	next
}
# se(count of event i at time a[i]): the standard error of the rate over 8 blocks.
function se(a, n,   i, b, k, s, s2, m, blk) {
	blk = span / 8
	for (k = 0; k < 8; k++) cnt[k] = 0
	for (i = 1; i <= n; i++) { b = int((a[i] - first) / blk); if (b > 7) b = 7; if (b < 0) b = 0; cnt[b]++ }
	s = 0; s2 = 0
	for (k = 0; k < 8; k++) { r = cnt[k] / blk; s += r; s2 += r * r }
	m = s / 8
	v = (s2 - 8 * m * m) / 7; if (v < 0) v = 0
	return sqrt(v / 8)
}
END {
	span = last - first; if (span <= 0) span = 1e-9
	printf "total %.3f %d %.3f %.6f\n", wake / span, wake, se(wt, wake), span > out
	for (p in fires) {
		n = fires[p]; m = 0
		for (i = 1; i <= n; i++) { w[++m] = late[p, i]; tt[i] = when[p, i] }
		# heap sort
		for (i = int(m / 2); i >= 1; i--) sift(w, i, m)
		for (i = m; i > 1; i--) { x = w[1]; w[1] = w[i]; w[i] = x; sift(w, 1, i - 1) }
		k = int(n * 0.99 + 0.999999); if (k < 1) k = 1
		d = z * sqrt(n * 0.99 * 0.01)
		lo = int(n * 0.99 - d); if (lo < 1) lo = 1
		# Past the last sample the interval has no upper end: the
		# largest value stands for it (see -S above).
		hi = int(n * 0.99 + d + 0.999999); if (hi > n) hi = n
		printf "program %s %.3f %.1f %d %.3f %.1f %.1f %.1f\n", p, n / span, w[k], n, se(tt, n), w[lo], w[hi], w[n] > out
		delete w; delete tt
	}
}
function sift(a, i, n,   c, x) {
	while ((c = 2 * i) <= n) {
		if (c < n && a[c + 1] > a[c]) c++
		if (a[i] >= a[c]) return
		x = a[i]; a[i] = a[c]; a[c] = x; i = c
	}
}'
}
observe "$tb" "$hzb" "$tmp/obs"
[ -s "$tmp/obs" ] || { echo "compare: $label: no events in $tb" >&2; exit 2; }
if [ $slate = 1 ]; then
	observe "$ta" "$hza" "$tmp/obs-a"
	[ -s "$tmp/obs-a" ] || { echo "compare: $label: no events in $ta" >&2; exit 2; }
fi

tick_us=$(awk -v h="$hzb" 'BEGIN { printf "%.1f", int((1e9 + h / 2) / h) / 1e3 }')
pass=0 fail=0
verdict() { # METRIC PRED OBS TOLSPEC OK
	local v=pass
	[ "$5" = 1 ] || v=FAIL
	[ $v = pass ] && pass=$((pass + 1)) || fail=$((fail + 1))
	printf 'compare: %s %s predicted %s observed %s (%s) %s\n' "$label" "$1" "$2" "$3" "$4" "$v"
}
# rate_ok P O: within 10 %.
rate_ok() { awk -v p="$1" -v o="$2" 'BEGIN { d = p - o; if (d < 0) d = -d; print (d <= 0.10 * o) ? 1 : 0 }'; }
# late_ok P O: within 20 % or one tick.
late_ok() { awk -v p="$1" -v o="$2" -v t="$tick_us" 'BEGIN { d = p - o; if (d < 0) d = -d; m = 0.2 * o; if (t > m) m = t; print (d <= m) ? 1 : 0 }'; }
# spread_rate P O SEB RA SEA: "BOUND OK", the bound of -S (above).
spread_rate() {
	awk -v p="$1" -v o="$2" -v sb="$3" -v ra="$4" -v sa="$5" -v z="$z" -v xa="$span_a" -v xb="$span_b" 'BEGIN {
		e = ra > 0 ? p * sa / ra : sb; b = z * sqrt(sb * sb + e * e) + 1 / xa + 1 / xb
		d = p - o; if (d < 0) d = -d; printf "%.2f %d\n", b, (d <= b) }'
}
# spread_late P LO HI MAX N PA LOA HIA: "LOW HIGH OK", the interval of -S
# (above) and whether hzadvise's bucket [P, P + its width) meets it.
spread_late() {
	awk -v p="$1" -v lo="$2" -v hi="$3" -v mx="$4" -v n="$5" -v pa="$6" -v loa="$7" -v hia="$8" -v nmin="$nmin" 'BEGIN {
		if (pa > 0) { dl = p * (pa - loa) / pa; dh = p * (hia - pa) / pa } else { dl = 0; dh = 0 }
		# hzadvise prints the low end of its histogram'"'"'s bucket (hist.c,
		# 5 bits: values from 32 ns on in buckets of a sixteenth of their
		# power of two), in whole us: the p99 it means is in [p, p + w).
		v = p * 1000; b = 1
		while (b * 2 <= v) b *= 2
		w = v >= 32 ? b / 16 / 1000 : 0
		top = n >= nmin ? hi : mx + (mx - lo)
		l = lo - dl - 1; h = top + dh + 1
		printf "%.1f %.1f %d\n", l, h, (p + w >= l && p <= h) }'
}

read -r _ obs_w _ obs_se span_b < <(grep '^total ' "$tmp/obs")
pred_w=$(field wakeups_per_s "$set_line")
if [ $spread = 1 ]; then
	read -r _ a_w _ a_se span_a < <(grep '^total ' "$tmp/obs-a")
	read -r b ok < <(spread_rate "$pred_w" "$obs_w" "$obs_se" "$a_w" "$a_se")
	verdict "wakeups/s" "$pred_w" "$obs_w" "+-$b" "$ok"
else
	verdict "wakeups/s" "$pred_w" "$obs_w" "10 %" "$(rate_ok "$pred_w" "$obs_w")"
fi
while read -r _ name src rate p99 n se lo hi mx; do
	pl=$(grep "^program: hz=$hzb mode=$mode name=$name source=$src " "$tmp/pred" | head -1)
	prate=$(field fires_per_s "$pl")
	pp99=$(field late_p99_us "$pl")
	key="$name $src"
	name="$name ($src)"
	if ! { [[ $src == kernel-jiffies ]] || [[ $name =~ $judge ]]; } || awk -v r="$rate" 'BEGIN { exit !(r < 5) }'; then
		printf 'compare: %s %s: %s fires/s, p99 %s us observed; predicted %s, %s (not judged)\n' \
			"$label" "$name" "$rate" "$p99" "${prate:-none}" "${pp99:-none}"
		continue
	fi
	if [ -z "$pl" ]; then
		verdict "$name fires/s" none "$rate" "$([ $spread = 1 ] && echo spread || echo "10 %")" 0
		continue
	fi
	if [ $slate = 1 ]; then
		# Trace a's figures of the same timers: the prediction's own noise.
		read -r _ _ _ ra pa na sa loa hia maxa < <(grep "^program $key " "$tmp/obs-a") || true
		# Trace a's upper end as for b: too few samples, the tail's extrapolation.
		[ -n "${na:-}" ] && [ "$na" -lt "$nmin" ] && hia=$(awk -v m="$maxa" -v l="$loa" 'BEGIN { print m + (m - l) }')
		if [ $spread = 1 ]; then
			read -r b ok < <(spread_rate "$prate" "$rate" "$se" "${ra:-0}" "${sa:-0}")
			verdict "$name fires/s" "$prate" "$rate" "+-$b" "$ok"
		else
			verdict "$name fires/s" "$prate" "$rate" "10 %" "$(rate_ok "$prate" "$rate")"
		fi
		read -r l h ok < <(spread_late "$pp99" "$lo" "$hi" "$mx" "$n" "${pa:-0}" "${loa:-0}" "${hia:-0}")
		verdict "$name late p99 us" "$pp99" "$p99" "$l..$h" "$ok"
	else
		verdict "$name fires/s" "$prate" "$rate" "10 %" "$(rate_ok "$prate" "$rate")"
		verdict "$name late p99 us" "$pp99" "$p99" "20 % or $tick_us us" "$(late_ok "$pp99" "$p99")"
	fi
done < <(grep '^program ' "$tmp/obs" | sort -k2,3)
echo "compare: $label $pass passed, $fail failed"
[ $fail -eq 0 ]
