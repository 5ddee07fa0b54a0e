#!/bin/bash
# bench/hzadvise/item7.sh: issue 30's speed targets, measured and set side
# by side as ratios (run by bench/hzadvise/run.sh, or alone after it has
# made build/bench/hzadvise/net.txt and the stretcher):
#   - 10 M events parsed and replayed over the default 8 settings in at most
#     3 s on one core: the whole run's wall time, pinned to one CPU
#     (taskset -c 0 where there is taskset);
#   - the replay at least 50 M events/s per setting: the events replayed at
#     every setting over the time of all the replays (hzadvise -v);
#   - memory flat in the trace's length: peak RSS of the 10 M-event trace
#     against the 30 k-event trace it was stretched from.
# The trace: tests/data/traces/net.txt.xz written 333 times end to end by
# bench/hzadvise/stretch (10.0 M lines, 55 min of trace). The median of
# HZB_REPS runs (3); the machine's load is printed, as it moves the times.
set -eo pipefail
cd "$(dirname "$0")/../.."
export LC_ALL=C

out=build/bench/hzadvise
bin=build/tools/hzadvise
reps=${HZB_REPS:-3}
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)

[ -x "$bin" ] && [ -x "$out/stretch" ] && [ -x "$out/parse" ] && [ -f "$out/net.txt" ] || {
	echo "item7: run bench/hzadvise/run.sh first (needs $bin, $out/stretch, $out/parse," \
		"$out/net.txt)" >&2
	exit 1
}
if [ ! -f "$out/net-10m.txt" ] || [ "$out/net.txt" -nt "$out/net-10m.txt" ]; then
	"$out/stretch" 333 "$out/net.txt" >"$out/net-10m.tmp" 2>/dev/null
	mv "$out/net-10m.tmp" "$out/net-10m.txt"
fi

# one FILE: "wall_s read_s lines replay_s events rss_kb" of one pinned run.
one() {
	/usr/bin/time -f 'time: %e %M' -o "$out/item7.time" "${pin[@]}" "$bin" -v -q "$1" \
		>/dev/null 2>"$out/item7.err" || {
		tail -3 "$out/item7.err" >&2
		exit 1
	}
	awk '/^hzadvise: read / { read = $6; lines = $3 }
		/^hzadvise: replayed / { events = $3; replay = $8 }
		/^time: / { wall = $2; rss = $3 }
		END { print wall, read, lines, replay, events, rss }' "$out/item7.err" "$out/item7.time"
}

: >"$out/item7.runs"
for _ in $(seq "$reps"); do
	echo "10m $(one "$out/net-10m.txt")" >>"$out/item7.runs"
	echo "1x $(one "$out/net.txt")" >>"$out/item7.runs"
done

# The parser alone, over the net trace written 10 times (300 k lines) in
# memory, fastest of 20 passes: how much of the reading is the parsing.
"$out/stretch" 10 "$out/net.txt" >"$out/item7-x10.txt" 2>/dev/null
echo "parse $("${pin[@]}" "$out/parse" "$out/item7-x10.txt" 20 |
	sed -n 's/.* \([0-9.]*\) ns a line.*/\1/p')" >>"$out/item7.runs"
rm -f "$out/item7-x10.txt"

echo "issue 30, item 7: $(awk '$1 == "10m" { print $4; exit }' "$out/item7.runs") lines" \
	"(net.txt x333), the default 8 settings, ${pin[*]:-no taskset}, median of $reps;" \
	"load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
awk '
function med(k,    n, i, j, t, v) {
	n = cnt[k]
	for (i = 1; i <= n; i++) v[i] = val[k, i]
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
$1 == "parse" { parse_ns = $2; next }
{
	n = ++runs[$1]
	for (i = 2; i <= 7; i++) {
		val[$1 SUBSEP i, n] = $i
		cnt[$1 SUBSEP i] = n
	}
}
END {
	wall = med("10m" SUBSEP 2); rd = med("10m" SUBSEP 3); lines = med("10m" SUBSEP 4)
	rp = med("10m" SUBSEP 5); ev = med("10m" SUBSEP 6)
	rss = med("10m" SUBSEP 7); rss1 = med("1x" SUBSEP 7)
	printf "%-36s %12s %10s %10s\n", "", "measured", "target", "ratio"
	printf "%-36s %12.2f %10s %9.2fx\n", "wall time, parse + 8 replays (s)", wall, "<= 3", wall / 3
	printf "%-36s %12.2f %10s %10s\n", "  of it the parse (s)", rd, "", ""
	printf "%-36s %12.2f %10s %10s\n", "  parse (M lines/s)", lines / rd / 1e6, "", ""
	printf "%-36s %12.1f %10s %10s\n", "  of a line, the parser alone (ns)", parse_ns, "", ""
	printf "%-36s %12.1f %10s %10s\n", "  of a line, all the reading (ns)", rd / lines * 1e9, "",
		""
	printf "%-36s %12.2f %10s %9.2fx\n", "replay (M events/s per setting)", ev / rp / 1e6, ">= 50",
		ev / rp / 1e6 / 50
	printf "%-36s %12.1f %10s %9.2fx\n", "peak RSS, 10 M events (MB)", rss / 1024, "flat",
		rss / rss1
	printf "%-36s %12.1f %10s %10s\n", "peak RSS, 30 k events (MB)", rss1 / 1024, "", ""
}' "$out/item7.runs"
