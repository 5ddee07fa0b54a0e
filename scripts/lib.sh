# Shared by the test scripts: result bookkeeping.
# Every check appends "pass <name>" or "fail <name>" to $DZ_RESULTS;
# scripts/check.sh sums them into the closing "N passed, N failed" line.

: "${DZ_RESULTS:=build/results.txt}"
export DZ_RESULTS

record() { # record pass|fail name
	echo "$1 $2" >>"$DZ_RESULTS"
	[ "$1" = pass ] || echo "FAILED: $2" >&2
}

# report name [problem...]: one result for a case, passed when no problem
# is given; the problems go to stderr, one a line.
report() {
	local name=$1
	shift
	if [ $# -eq 0 ]; then
		record pass "$name"
		printf '%-50s ok\n' "$name"
	else
		record fail "$name"
		printf '  %s\n' "$@" >&2
	fi
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

# build_kernels TAG OUTDIR: builds the variable, constant (CONFIG_HZ=250)
# and debug kernels, logs in OUTDIR/build-<kind>.log; fills the global map
# elf[variable|constant|debug] with their paths (absent if a build failed).
build_kernels() {
	local tag=$1 out=$2 b v
	declare -gA elf=()
	for b in variable constant debug; do
		case $b in
		variable) v="" ;;
		constant) v="CONFIG_HZ=250" ;;
		debug) v="DEBUG=1" ;;
		esac
		# shellcheck disable=SC2086
		if make --no-print-directory $v kernel >"$out/build-$b.log" 2>&1; then
			# shellcheck disable=SC2086
			elf[$b]=$(make --no-print-directory $v print-kernel)
		else
			record fail "$tag: build kernel [$b]"
			tail -20 "$out/build-$b.log" >&2
		fi
	done
}

# qemu_suite NAME [FILTER]: what every QEMU suite starts with. Guest time
# from -icount (ICOUNT replaces it), the case filter (a regex, . for all),
# its output directory build/NAME-tests emptied of the last run's results,
# and the QEMU binary (QEMU_SYS replaces it). Sets icount, filter, out, QEMU.
qemu_suite() {
	read -ra icount <<<"${ICOUNT:--icount shift=2,sleep=off}"
	filter=${2:-.}
	out=build/$1-tests
	mkdir -p "$out"
	rm -f "$out"/*.log "$out"/*.res "$out"/*.qemu
	QEMU=${QEMU_SYS:-qemu-system-i386}
}

# qemu_boot SECONDS KERNEL CMDLINE LOG: one boot of the kernel under the
# suite's icount, its console in LOG (CR LF made LF), no input; returns
# QEMU's exit status (33: the kernel's success, 124: timed out).
qemu_boot() {
	local rc extra
	read -ra extra <<<"${QEMU_ARGS:-}"
	timeout "$1" "$QEMU" -kernel "$2" -append "$3" "${icount[@]}" -rtc clock=vm -m 32 \
		"${extra[@]}" -display none -no-reboot -serial "file:$4" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 </dev/null >"$4.qemu" 2>&1
	rc=$?
	sed -i 's/\r$//' "$4"
	return $rc
}

# boot_result SUITE NAME [LINES]: records and prints what a boot left in
# $out/NAME.res: "pass [DETAIL]" or "fail WHY". A failure also shows the
# last LINES (15) lines of $out/NAME.log on stderr.
boot_result() {
	local res
	res=$(cat "$out/$2.res" 2>/dev/null || echo "fail no result")
	if [[ $res == pass* ]]; then
		record pass "$1: $2"
		printf '%-50s ok%s\n' "$1: $2" "${res#pass}"
	else
		record fail "$1: $2"
		printf '%-50s FAILED: %s\n' "$1: $2" "${res#fail }"
		echo "---- $out/$2.log" >&2
		tail -"${3:-15}" "$out/$2.log" | cut -c1-200 >&2
	fi
}

# throttle: call right after starting a background job; waits while
# $JOBS jobs run. The caller sets running=0 before its loop.
throttle() {
	running=$((running + 1))
	if [ "$running" -ge "${JOBS:-2}" ]; then
		wait -n
		running=$((running - 1))
	fi
}

# case_results SUITE NAME DIR PREFIX CHECK...: the results of one boot of a
# suite that writes DIR/NAME.res ("CHECK pass" or "CHECK fail why", a line
# each): one result per CHECK (missing: failed), then a summary line with
# the boot's first "PREFIX: hz=" line of DIR/NAME.log, and the log's tail
# when a check failed.
case_results() {
	local suite=$1 name=$2 dir=$3 prefix=$4 chk res line bad=0
	shift 4
	for chk in "$@"; do
		res=$(grep -m1 "^$chk " "$dir/$name.res" 2>/dev/null)
		res=${res#"$chk "}
		res=${res:-fail no result}
		if [[ $res == pass* ]]; then
			record pass "$suite: $name: $chk"
		else
			record fail "$suite: $name: $chk"
			printf '%-50s FAILED: %s\n' "$suite: $name: $chk" "${res#fail }"
			bad=1
		fi
	done
	line=$(grep -m1 "^$prefix: hz=" "$dir/$name.log" 2>/dev/null)
	printf '%-50s %s\n' "$suite: $name" \
		"$([ $bad = 0 ] && echo ok || echo FAILED): ${line#"$prefix: "}"
	if [ $bad = 1 ]; then
		tail -8 "$dir/$name.log" >&2
		echo >&2
	fi
}
