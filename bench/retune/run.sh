#!/bin/bash
# bench/retune: the time one change of HZ takes (dynhz_host_retune(),
# 1000 <-> 100 Hz) with 1, 1k, 100k and 1M pending jiffies timers: median
# ns (RETUNE_REPS runs, default 15) and callgrind instructions, per change
# and per timer re-expressed; the change with its timers left to batches;
# and one batch of timers moved.
set -eo pipefail
cd "$(dirname "$0")/../.."

out=build/bench/retune
bin=$out/retune-bench
reps=${RETUNE_REPS:-15}
sizes="1 1000 100000 1000000"
mkdir -p "$out"

if ! make --no-print-directory bench-retune >"$out/make.log" 2>&1; then
	tail -30 "$out/make.log" >&2
	echo "retune: build failed (log: $out/make.log)" >&2
	exit 1
fi
"$bin" time "$reps" $sizes >"$out/time.txt"
rm -f "$out"/cg.out*
if ! valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out/cg.out" \
	"$bin" ir $sizes >"$out/valgrind.log" 2>&1; then
	tail -20 "$out/valgrind.log" >&2
	echo "retune: callgrind failed (log: $out/valgrind.log)" >&2
	exit 1
fi
for f in "$out"/cg.out.*; do
	awk '/^desc: Trigger: Client Request: / { sub(/^desc: Trigger: Client Request: /, ""); label = $0 }
	     /^(summary|totals):/ && !done { print "ir", label, $2; done = 1 }' "$f"
done >"$out/ir.txt"

echo "One change of HZ (1000 <-> 100), hosted, gcc -O2; ns: median of $reps. Whole: the call,"
echo "every timer moved. Change: the call with its timers left to batches (the constants"
echo "built ahead with interrupts on, the tick's wait, the boundary; bench/retune-kernel"
echo "times the boundary alone). Batch: DZ_RETUNE_BATCH (128) timers moved, interrupts off."
echo
echo "| pending timers | whole ns | whole Ir | Ir per timer | change ns | change Ir | batch ns | batch Ir |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
awk '$1 == "time" { ns[$2] = $3 } $1 == "boundary" { bns[$2] = $3 } $1 == "batch" { tns[$2] = $3 }
     $1 == "ir" { ir[$2, $3] = $4 }
     END { n = split("'"$sizes"'", k, " ")
	   for (i = 1; i <= n; i++)
		printf "| %s | %d | %d | %.1f | %d | %d | %d | %d |\n", k[i], ns[k[i]],
		       ir["retune", k[i]], ir["retune", k[i]] / k[i], bns[k[i]],
		       ir["boundary", k[i]], tns[k[i]], ir["batch", k[i]] }' \
	"$out/time.txt" "$out/ir.txt" | tee "$out/retune.md"
