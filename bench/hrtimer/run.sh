#!/bin/bash
# bench/hrtimer: dynhz's hrtimers side by side with dynhz's jiffies wheel
# and libev's timer heap at 1k, 100k and 1M pending timers: ns per start,
# re-arm, cancel and expired timer (random order and memory order) and
# callgrind instructions per operation, with the ratios and the targets
# (start and cancel within 2x of the wheel; start, cancel and expiry
# faster than libev). HRTIMER_REPS=N changes the timed runs of the
# operations (default 15; expiry: a third of them, each waits a second for
# libev), HRTIMER_SIZES the numbers of timers.
set -eo pipefail
cd "$(dirname "$0")/../.."

out=build/bench/hrtimer
bin=$out/hrtimer-bench
reps=${HRTIMER_REPS:-15}
ereps=$(((reps + 2) / 3))
sizes=${HRTIMER_SIZES:-1000 100000 1000000}
mkdir -p "$out"

if ! make --no-print-directory bench-hrtimer >"$out/make.log" 2>&1; then
	tail -30 "$out/make.log" >&2
	echo "hrtimer: build failed (log: $out/make.log)" >&2
	exit 1
fi

step() { # step what command...: runs one part, says how long it took (on stderr)
	local what=$1 start=$SECONDS
	shift
	"$@"
	echo "hrtimer: $what: $((SECONDS - start)) s" >&2
}

"$bin" info >"$out/info.txt"
step "wall time, random order" "$bin" cmp "$reps" "$ereps" random $sizes >"$out/cmp.txt"
step "wall time, memory order" "$bin" cmp "$reps" "$ereps" seq $sizes >>"$out/cmp.txt"
rm -rf "$out/cg"
mkdir -p "$out/cg"
# One dump per measured phase: its label and total Ir.
cg() {
	if ! valgrind --tool=callgrind --instr-atstart=no \
		--callgrind-out-file="$out/cg/cg.out" "$bin" ir $sizes >"$out/cg/cg.log" 2>&1; then
		tail -20 "$out/cg/cg.log" >&2
		echo "hrtimer: callgrind failed (log: $out/cg/cg.log)" >&2
		exit 1
	fi
}
step "callgrind" cg
for f in "$out"/cg/cg.out.*; do
	awk '/^desc: Trigger: Client Request: / { sub(/^desc: Trigger: Client Request: /, ""); label = $0 }
	     /^(summary|totals):/ && !done { print "ir," label "," $2; done = 1 }' "$f"
done >"$out/ir.txt"

awk -v csv="$out/hrtimer.csv" -f bench/hrtimer/report.awk "$out/info.txt" "$out/cmp.txt" "$out/ir.txt"
