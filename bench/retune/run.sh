#!/bin/bash
# bench/retune: the time one change of HZ takes (dynhz_host_retune(),
# 1000 <-> 100 Hz) with 1, 1k and 100k pending jiffies timers: median ns
# (RETUNE_REPS runs, default 15) and callgrind instructions, per change and
# per timer re-expressed.
set -eo pipefail
cd "$(dirname "$0")/../.."

out=build/bench/retune
bin=$out/retune-bench
reps=${RETUNE_REPS:-15}
sizes="1 1000 100000"
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

echo "One change of HZ (1000 <-> 100), hosted, gcc -O2; ns: median of $reps"
echo
echo "| pending timers | ns | ns per timer | Ir | Ir per timer |"
echo "| ---: | ---: | ---: | ---: | ---: |"
awk '$1 == "time" { ns[$2] = $3 } $1 == "ir" { ir[$3] = $4 }
     END { n = split("1 1000 100000", k, " ")
	   for (i = 1; i <= n; i++)
		printf "| %s | %d | %.1f | %d | %.1f |\n", k[i], ns[k[i]], ns[k[i]] / k[i],
		       ir[k[i]], ir[k[i]] / k[i] }' "$out/time.txt" "$out/ir.txt" | tee "$out/retune.md"
