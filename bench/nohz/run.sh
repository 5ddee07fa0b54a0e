#!/bin/bash
# bench/nohz: timer wakeups per second of an idle CPU at HZ 100, 250, 1000,
# 10000, periodic (nohz=off) against tickless (nohz=on), with no timer and
# with a light load (10 timers at random periods of 10-1000 ms), in the
# simulation. The limit is one wakeup per distinct jiffy at which timers
# run. Writes build/bench/nohz.csv and, when gnuplot is installed,
# build/bench/nohz.png. NOHZ_SECONDS=N changes the simulated idle time
# (default 3600: an hour, long enough to see the clock folds).
set -eo pipefail
cd "$(dirname "$0")/../.."

out=build/bench/nohz
secs=${NOHZ_SECONDS:-3600}
mkdir -p "$out"
if ! make --no-print-directory bench-nohz >"$out/make.log" 2>&1; then
	tail -30 "$out/make.log" >&2
	echo "nohz: build failed (log: $out/make.log)" >&2
	exit 1
fi

"$out/nohz-bench" "$secs" >"$out/raw.txt"
grep -v '^#' "$out/raw.txt" >build/bench/nohz.csv

echo "Timer wakeups per second over $secs s of simulated idle time (simulated PIT;"
echo "tickless, its one-shot counter reaches an hour). $(grep '^#' "$out/raw.txt" | sed 's/^# //')"
echo
awk -F, 'NR == 1 { next }
	{
		lim = $6 + 0
		near = lim > 0 ? sprintf("%.3f x", $5 / lim) : "-"
		saved = $5 > 0 ? sprintf("%.0f x", $4 / $5) : "all"
		printf "%-6s %-6s %12s %12s %10s %10s %10s\n", $1, $2, $4, $5, $6,
			saved, near
	}
	BEGIN {
		printf "%-6s %-6s %12s %12s %10s %10s %10s\n", "HZ", "load", "periodic", "tickless",
			"limit", "saved", "vs limit"
	}' build/bench/nohz.csv
echo
echo "saved: periodic / tickless wakeups. vs limit: tickless / limit (1.000 x = one wakeup"
echo "per distinct timer expiry, the floor). Idle with no timer, tickless wakes only to"
echo "fold the simulated 32-bit clock before it wraps (every half hour)."
echo "CSV: build/bench/nohz.csv"

# gnuplot data: one row per HZ, columns periodic/tickless/limit per load.
awk -F, 'NR > 1 { v[$1, $2] = $4 " " $5 " " $6; if (!($1 in seen)) { seen[$1]; hz[n++] = $1 } }
	END { print "hz idle_periodic idle_tickless idle_limit light_periodic light_tickless light_limit"
		for (i = 0; i < n; i++) print hz[i], v[hz[i], "idle"], v[hz[i], "light"] }' \
	build/bench/nohz.csv >"$out/plot.dat"
if command -v gnuplot >/dev/null; then
	if gnuplot -e "data='$out/plot.dat'; png='build/bench/nohz.png'" bench/nohz/plot.gp \
		2>"$out/gnuplot.log"; then
		echo "Plot: build/bench/nohz.png"
	else
		echo "nohz: gnuplot failed (log: $out/gnuplot.log)" >&2
	fi
else
	echo "Plot: gnuplot is not installed (Debian package gnuplot-nox)"
fi
