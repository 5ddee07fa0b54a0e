#!/bin/bash
# bench/conv: every conversion in the variable build, the constant build
# (CONFIG_HZ=250) and a plain-division baseline, side by side: ns/op (median
# of timed samples) and instructions/op (callgrind), with the ratios.
# Writes build/bench/conv.csv. CONV_SAMPLES=N changes the number of samples.
set -eo pipefail
cd "$(dirname "$0")/../.."

out=build/bench/conv
bin=$out/conv-bench
samples=${CONV_SAMPLES:-51}
mkdir -p "$out"

if ! make --no-print-directory bench-conv >"$out/make.log" 2>&1; then
	tail -30 "$out/make.log" >&2
	echo "conv: build failed (log: $out/make.log)" >&2
	exit 1
fi

# Wall time; the program first checks that the three agree on every input.
"$bin" time "$samples" >"$out/time.txt"

# Instructions: one callgrind dump per loop, each named "mode conv impl ops".
rm -f "$out"/callgrind.out*
if ! valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$out/callgrind.out" \
	"$bin" ir >"$out/valgrind.log" 2>&1; then
	tail -20 "$out/valgrind.log" >&2
	echo "conv: callgrind failed (log: $out/valgrind.log)" >&2
	exit 1
fi
awk '/^desc: Trigger: Client Request: / { label = $0; sub(/^desc: Trigger: Client Request: /, "", label) }
     /^totals: / && label != "" { print label, $2; label = "" }' "$out"/callgrind.out.* >"$out/ir.txt"

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
machine="${cpu:-unknown CPU} ($(nproc) CPUs), gcc $(${CC:-cc} -dumpfullversion 2>/dev/null) -O2"
awk -v csv=build/bench/conv.csv -v machine="$machine" -f bench/conv/report.awk \
	"$out/time.txt" "$out/ir.txt"
