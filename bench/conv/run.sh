#!/bin/bash
# bench/conv: every conversion in the variable build, the constant build
# (CONFIG_HZ=250) and a plain-division baseline, side by side: ns/op (median
# of timed samples) and instructions/op (callgrind), with the ratios; on
# the PIT at HZ 250, then on a 1 GHz clock at HZ 300 (CONFIG_HZ=300
# CLOCK_HZ=1000000000 for the constant build). Writes build/bench/conv.csv
# and conv-1g.csv. CONV_SAMPLES=N changes the number of samples.
set -eo pipefail
cd "$(dirname "$0")/../.."

out=build/bench/conv
samples=${CONV_SAMPLES:-51}
mkdir -p "$out"

if ! make --no-print-directory bench-conv >"$out/make.log" 2>&1; then
	tail -30 "$out/make.log" >&2
	echo "conv: build failed (log: $out/make.log)" >&2
	exit 1
fi

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
machine="${cpu:-unknown CPU} ($(nproc) CPUs), gcc $(${CC:-cc} -dumpfullversion 2>/dev/null) -O2"

# run_one DIR CSV: one program (the PIT's at HZ 250, then 1 GHz at HZ 300).
run_one() {
	local dir=$1 csv=$2 prog=$1/conv-bench

	# Wall time; the program first checks that the three agree on every input.
	"$prog" time "$samples" >"$dir/time.txt"

	# Instructions: one callgrind dump per loop, each named "mode conv impl ops".
	rm -f "$dir"/callgrind.out*
	if ! valgrind --tool=callgrind --collect-atstart=no \
		--callgrind-out-file="$dir/callgrind.out" "$prog" ir >"$dir/valgrind.log" 2>&1; then
		tail -20 "$dir/valgrind.log" >&2
		echo "conv: callgrind failed (log: $dir/valgrind.log)" >&2
		exit 1
	fi
	awk '/^desc: Trigger: Client Request: / { label = $0; sub(/^desc: Trigger: Client Request: /, "", label) }
	     /^totals: / && label != "" { print label, $2; label = "" }' \
		"$dir"/callgrind.out.* >"$dir/ir.txt"
	awk -v csv="$csv" -v machine="$machine" -f bench/conv/report.awk \
		"$dir/time.txt" "$dir/ir.txt"
}

run_one "$out" build/bench/conv.csv
echo
run_one build/bench/conv-1g build/bench/conv-1g.csv
