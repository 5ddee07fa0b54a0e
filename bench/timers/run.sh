#!/bin/bash
# bench/timers: dynhz timers side by side with libev, libevent and libuv
# (ns/op at 10k, 100k and 1M timers in random and in memory order, callgrind
# Ir/op at 100k), the empty tick, the lateness of dynhz timers and the drift
# of ktime_get_ns per HZ. Writes build/bench/{timers,empty_tick,lateness,
# drift}.csv and, when gnuplot is installed, build/bench/timers_*.png.
# TIMERS_REPS=N changes the number of timed runs (default 5), TIMERS_SIZES
# the numbers of timers (default "10000 100000 1000000").
set -eo pipefail
cd "$(dirname "$0")/../.."

out=build/bench/timers
bin=$out/timers-bench
reps=${TIMERS_REPS:-5}
sizes=${TIMERS_SIZES:-10000 100000 1000000}
ir_size=100000
mkdir -p "$out"

if ! make --no-print-directory bench-timers >"$out/make.log" 2>&1; then
	tail -30 "$out/make.log" >&2
	echo "timers: build failed (log: $out/make.log)" >&2
	exit 1
fi

step() { # step what command...: runs one part, says how long it took (on stderr)
	local what=$1 start=$SECONDS
	shift
	"$@"
	echo "timers: $what: $((SECONDS - start)) s" >&2
}

callgrind() { # callgrind NAME args...: one dump per measured phase, in $out/cg
	if ! valgrind --tool=callgrind --instr-atstart=no \
		--callgrind-out-file="$out/cg/$1.out" "$bin" "${@:2}" >"$out/cg/$1.log" 2>&1; then
		tail -20 "$out/cg/$1.log" >&2
		echo "timers: callgrind failed (log: $out/cg/$1.log)" >&2
		exit 1
	fi
}

"$bin" info >"$out/info.txt"
step "wall time, random order" "$bin" cmp "$reps" random $sizes >"$out/cmp.txt"
step "wall time, memory order" "$bin" cmp "$reps" seq $sizes >>"$out/cmp.txt"
rm -rf "$out/cg"
mkdir -p "$out/cg"
step "callgrind at $ir_size" callgrind cmp ir "$ir_size"
step "empty tick" "$bin" empty 9 >"$out/empty.txt"
step "empty tick, callgrind" callgrind empty empty-ir
step "lateness" "$bin" lateness >"$out/lateness.txt"
step "drift" "$bin" drift >"$out/drift.txt"
awk -f bench/callgrind-names.awk -f bench/timers/cg.awk "$out"/cg/*.out.* >"$out/ir.txt"

awk -v out=build/bench -v plot="$out" -f bench/timers/report.awk "$out/info.txt" "$out/cmp.txt" \
	"$out/ir.txt" "$out/empty.txt" "$out/lateness.txt" "$out/drift.txt"

if command -v gnuplot >/dev/null; then
	if gnuplot -e "data='$out'; png='build/bench'" bench/timers/plot.gp 2>"$out/gnuplot.log"; then
		echo "Plots: build/bench/timers_random.png, timers_seq.png, empty_tick.png, drift.png"
	else
		echo "timers: gnuplot failed (log: $out/gnuplot.log)" >&2
	fi
else
	echo "Plots: gnuplot is not installed (Debian package gnuplot-nox)"
fi
