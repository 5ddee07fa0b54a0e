#!/bin/bash
# make bench: every benchmark, in order: bench/*/run.sh. A benchmark is a
# directory with a run.sh that builds what it needs (rules in mk/) and
# prints its figures side by side. Packages it needs are installed first.
cd "$(dirname "$0")/.."
scripts/deps.sh bench || exit 1
mkdir -p build/bench

failed=()
for run in bench/*/run.sh; do
	[ -f "$run" ] || continue
	name=$(basename "$(dirname "$run")")
	echo "== bench/$name"
	start=$SECONDS
	if bash "$run"; then
		echo "== bench/$name: done in $((SECONDS - start)) s"
	else
		echo "== bench/$name: FAILED" >&2
		failed+=("$name")
	fi
	echo
done
if [ ${#failed[@]} -ne 0 ]; then
	echo "bench: failed: ${failed[*]}" >&2
	exit 1
fi
