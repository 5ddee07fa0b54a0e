# Shared by the test scripts: result bookkeeping.
# Every check appends "pass <name>" or "fail <name>" to $DZ_RESULTS;
# scripts/check.sh sums them into the closing "N passed, N failed" line.

: "${DZ_RESULTS:=build/results.txt}"
export DZ_RESULTS

record() { # record pass|fail name
	echo "$1 $2" >>"$DZ_RESULTS"
	[ "$1" = pass ] || echo "FAILED: $2" >&2
}

# run_cmocka name log cmd...: runs a cmocka program, records one result per test.
run_cmocka() {
	local name=$1 log=$2
	shift 2
	mkdir -p "$(dirname "$log")"
	"$@" >"$log" 2>&1
	local rc=$?
	local passed failed
	passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
	failed=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
	passed=${passed:-0}
	failed=${failed:-0}
	if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
		failed=1 # crashed or a sanitizer stopped it
	fi
	for ((i = 0; i < passed; i++)); do echo "pass $name" >>"$DZ_RESULTS"; done
	for ((i = 0; i < failed; i++)); do echo "fail $name" >>"$DZ_RESULTS"; done
	printf '%-50s %3d passed, %d failed\n' "$name" "$passed" "$failed"
	if [ "$failed" -ne 0 ]; then
		echo "---- $log" >&2
		tail -40 "$log" >&2
	fi
}
