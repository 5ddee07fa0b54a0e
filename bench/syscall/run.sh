#!/bin/bash
# bench/syscall: what a system call and the boot cost a real program on the
# reference kernel (issue 11).
#
# 1. The round trip of getpid (20), clock_gettime(CLOCK_MONOTONIC) (265)
#    and clock_gettime64 (403, which glibc and musl try first), through
#    libc and through a bare int $0x80, measured by bench/syscall/sysbench.c
#    (a static i386 program, glibc and musl) with the TSC, booted as init
#    under qemu-system-i386 -icount shift=0,sleep=off: guest time is
#    instructions, one per ns, and the TSC counts ns, so guest instructions
#    = guest cycles per call, exact and the same on any host. At HZ 24, 250
#    and 10000, to show the cost does not depend on HZ. Then the same calls
#    in host wall time under -icount shift=auto (the console's lines
#    stamped by the host, secondary), and the same source on the host's
#    Linux, for a ratio.
# 2. Boot to init's first instruction: guest ns from the kernel's lines
#    (boot:, tsc:, lapic:, exec:) and host wall time from QEMU's start to
#    the exec: line on the console, default boot, hz=1000 and hz=10000,
#    median of SYSBENCH_BOOTS runs, under -icount shift=0,sleep=off and
#    without -icount (guest time is host time, as `make run` on a terminal).
#
# Also where one getpid's and one clock_gettime64's instructions go in the
# kernel, function by function (gdb single-steps them: trace.py).
#
# Writes build/bench/syscall.csv (per call), build/bench/syscall-boot.csv
# (per boot), the logs in build/bench/syscall/. Not a test: it prints counts
# and ratios, and fails only when a run gives no figures.
#
# SYSBENCH_N (16 calls per batch: 2N must fit between two ticks at HZ
# 10000), SYSBENCH_ROUNDS (400), SYSBENCH_BOOTS (5) and SYSBENCH_WALL_CALLS
# (50000) change the sizes.
set -o pipefail
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

out=build/bench/syscall
n=${SYSBENCH_N:-16}
rounds=${SYSBENCH_ROUNDS:-400}
boots=${SYSBENCH_BOOTS:-5}
wall_calls=${SYSBENCH_WALL_CALLS:-50000}
host_rounds=2000
QEMU=${QEMU_SYS:-qemu-system-i386}
# shellcheck disable=SC2034 # throttle (scripts/lib.sh) reads it
JOBS=2
mkdir -p "$out"
rm -f "$out"/*.log "$out"/*.qemu "$out"/*.rc "$out"/*.console
# Wall times are only as quiet as the host: its load is reported.
load_start=$(cut -d' ' -f1 /proc/loadavg)

die() {
	echo "syscall: $*" >&2
	exit 1
}

if ! make --no-print-directory kernel initramfs bench-syscall >"$out/make.log" 2>&1; then
	tail -30 "$out/make.log" >&2
	die "build failed (log: $out/make.log)"
fi
kernel=$(make --no-print-directory print-kernel)
libcs=(glibc)
musl_note=""
if make --no-print-directory bench-syscall-musl >"$out/make-musl.log" 2>&1; then
	libcs+=(musl)
else
	musl_note="musl: not measured, its build failed: $(grep -m1 -i 'error\|fetch-deb' \
		"$out/make-musl.log" || tail -1 "$out/make-musl.log")"
fi

# The initramfs with the programs, from the project's (BusyBox's) tree.
rm -rf "$out/root"
cp -a build/x86/initramfs-root "$out/root"
for l in "${libcs[@]}"; do
	install -m 0755 "$out/sysbench-$l" "$out/root/bin/sysbench-$l"
done
(cd "$out/root" && find . -mindepth 1 | sort | cpio -o -H newc -R 0:0 --quiet) \
	>"$out/initramfs.cpio" || die "cannot make $out/initramfs.cpio"

# stamp T0: each line of stdin as "<us since T0> <line>" (T0: $EPOCHREALTIME).
stamp() {
	local t0=${1/./} line now
	while IFS= read -r line || [ -n "$line" ]; do
		now=${EPOCHREALTIME/./}
		printf '%d %s\n' $((10#$now - 10#$t0)) "${line%$'\r'}"
	done
}

# stamped_boot LOG "ICOUNT" CMDLINE: one boot, its console through a pipe,
# every line stamped with the host's microseconds since QEMU was started.
stamped_boot() {
	local log=$1 cmdline=$3 t0 ic
	read -ra ic <<<"$2"
	t0=$EPOCHREALTIME
	timeout 120 "$QEMU" -kernel "$kernel" -initrd "$out/initramfs.cpio" -append "$cmdline" \
		"${ic[@]}" -rtc clock=vm -m 64 -display none -no-reboot -serial stdio \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 </dev/null 2>"$log.qemu" |
		stamp "$t0" >"$log"
	echo "${PIPESTATUS[0]}" >"$log.rc"
}

# 1a. Guest instructions per call: libc x HZ, two boots at a time.
# shellcheck disable=SC2034 # qemu_boot (scripts/lib.sh) reads it
icount=(-icount "shift=0,sleep=off")
runs=()
for l in "${libcs[@]}"; do
	for hz in 24 250 10000; do
		runs+=("$l-hz$hz|$l|$hz")
	done
done
start=$SECONDS
# shellcheck disable=SC2034 # throttle (scripts/lib.sh) counts with it
running=0
for r in "${runs[@]}"; do
	IFS='|' read -r name l hz <<<"$r"
	(
		rc=0
		QEMU_ARGS="-initrd $out/initramfs.cpio -m 64" qemu_boot 120 "$kernel" \
			"hz=$hz init=/bin/sysbench-$l -- $n $rounds" "$out/$name.log" || rc=$?
		echo "$rc" >"$out/$name.log.rc"
	) &
	throttle
done
wait

# 1b. Host wall time per call under -icount shift=auto: one boot at a time.
for l in "${libcs[@]}"; do
	for i in 1 2 3; do
		stamped_boot "$out/wall-$l-$i.log" "-icount shift=auto,sleep=off" \
			"hz=250 init=/bin/sysbench-$l -- wall $wall_calls"
	done
done

# 2. Boot to init: default, hz=1000, hz=10000; icount and real time.
boot_cfgs=("default|" "hz=1000|hz=1000 " "hz=10000|hz=10000 ")
boot_modes=("icount0|-icount shift=0,sleep=off" "realtime|")
for m in "${boot_modes[@]}"; do
	IFS='|' read -r mode ic <<<"$m"
	for c in "${boot_cfgs[@]}"; do
		IFS='|' read -r cfg args <<<"$c"
		for ((i = 1; i <= boots; i++)); do
			stamped_boot "$out/boot-$mode-${cfg#hz=}-$i.log" "$ic" \
				"${args}init=/bin/sysbench-glibc -- exit"
		done
	done
done

# 1d. Where one call's instructions go: gdb single-steps the 10th getpid and
# clock_gettime64 of the glibc program, int $0x80 to iret (trace.py).
trace_note=""
: >"$out/trace.log"
if ! command -v gdb >/dev/null; then
	trace_note="gdb is not installed"
else
	port=$((20000 + $$ % 20000))
	for nr in 20 403; do
		timeout 120 "$QEMU" -kernel "$kernel" -initrd "$out/initramfs.cpio" \
			-append "init=/bin/sysbench-glibc -- 1 20" -icount shift=0,sleep=off -rtc clock=vm \
			-m 64 -display none -no-reboot -serial "file:$out/trace-$nr.console" \
			-device isa-debug-exit,iobase=0xf4,iosize=0x04 -gdb "tcp:127.0.0.1:$port" -S \
			</dev/null >"$out/trace-$nr.qemu" 2>&1 &
		qpid=$!
		timeout 120 gdb -q -batch -ex "set \$nr = $nr" -ex "set \$port = $port" \
			-x bench/syscall/trace.py "$kernel" 2>&1 | grep '^trace: ' >>"$out/trace.log"
		kill "$qpid" 2>/dev/null
		wait "$qpid" 2>/dev/null
	done
	[ -s "$out/trace.log" ] || trace_note="gdb gave no trace (see $out/trace-*.qemu)"
fi
qemu_wall=$((SECONDS - start))

# 1c. The host: the i386 program itself if this kernel runs it, and the
# same source built for the host (x86-64) in any case.
host_runs=()
host_i386_note=""
if "$out/sysbench-glibc" "$n" "$host_rounds" >"$out/host-i386.log" 2>&1; then
	host_runs+=(host-i386)
else
	host_i386_note="the i386 program does not run here: $(head -1 "$out/host-i386.log" |
		sed 's/^.*: //')$(dmesg 2>/dev/null | grep -m1 -o '32-bit emulation disabled' |
		sed 's/^/, "/; s/$/" (dmesg)/')"
fi
"$out/sysbench-host" "$n" "$host_rounds" >"$out/host-x86_64.log" 2>&1 && host_runs+=(host-x86_64)

# perf stat -e instructions, where the host's PMU counts them.
perf_note=""
perf_out=$(perf stat -x, -e instructions true 2>&1 >/dev/null) || true
if ! command -v perf >/dev/null; then
	perf_note="perf is not installed"
elif ! grep -q '^[0-9][0-9]*,.*instructions' <<<"$perf_out"; then
	perf_note="perf stat -e instructions: $(grep -m1 -o '<not [a-z ]*>' <<<"$perf_out" ||
		echo "${perf_out##*$'\n'}") here (no PMU in this VM)"
fi
count_insns() { # count_insns PROGRAM CASE CALLS: instructions of one run
	perf stat -x, -e instructions "$1" count "$2" "$3" 2>&1 >/dev/null |
		awk -F, '$3 ~ /^instructions/ { print $1; exit }'
}
: >"$out/host-perf.log"
if [ -z "$perf_note" ]; then
	for h in "${host_runs[@]}"; do
		prog=$out/sysbench-${h#host-}
		[ "$h" = host-i386 ] && prog=$out/sysbench-glibc
		calls=200000
		base=$(count_insns "$prog" empty $calls)
		sed -n 's/^sysbench: case=\([^ ]*\) .*/\1/p' "$out/$h.log" | while read -r c; do
			[ "$c" = empty ] && continue
			v=$(count_insns "$prog" "$c" $calls)
			[ -n "$v" ] && [ -n "$base" ] &&
				echo "perf: run=$h case=$c insns=$(((v - base) / calls))" >>"$out/host-perf.log"
		done
	done
fi

# The figures, as CSV.
csv=build/bench/syscall.csv
parse() { awk -f bench/syscall/parse.awk "$@"; }
echo "where,libc,arch,hz,clock,case,nr,min,median,mean,unit" >"$csv"
failed=()
for r in "${runs[@]}"; do
	IFS='|' read -r name l hz <<<"$r"
	if [ "$(cat "$out/$name.log.rc")" != 33 ] || ! grep -q '^sysbench: done' "$out/$name.log"; then
		failed+=("$name")
		continue
	fi
	parse -v what=guest -v libc="$l" -v hz="$hz" "$out/$name.log" >>"$csv"
done
for l in "${libcs[@]}"; do
	for i in 1 2 3; do
		f=$out/wall-$l-$i.log
		[ "$(cat "$f.rc")" = 33 ] && grep -q ' sysbench: done' "$f" || failed+=("wall-$l-$i")
	done
	# Per case the median of the runs, less the empty loop's.
	cat "$out/wall-$l"-[123].log | parse -v what=wall -v libc="$l" >>"$csv"
done
for h in "${host_runs[@]}"; do
	parse -v what=host "$out/$h.log" >>"$csv"
done
parse -v what=perf "$out/host-perf.log" >>"$csv"

bcsv=build/bench/syscall-boot.csv
echo "mode,config,run,entry_ns,tsc_cal_us,lapic_cal_us,init_start_ns,exec_ns,wall_first_line_ms,wall_exec_ms" >"$bcsv"
for m in "${boot_modes[@]}"; do
	IFS='|' read -r mode ic <<<"$m"
	for c in "${boot_cfgs[@]}"; do
		IFS='|' read -r cfg args <<<"$c"
		for ((i = 1; i <= boots; i++)); do
			f=$out/boot-$mode-${cfg#hz=}-$i.log
			if [ "$(cat "$f.rc")" != 33 ] || ! grep -q ' exec: pid 1 ' "$f"; then
				failed+=("boot-$mode-${cfg#hz=}-$i")
				continue
			fi
			parse -v what=boot -v mode="$mode" -v cfg="$cfg" -v run="$i" "$f" >>"$bcsv"
		done
	done
done

# The tables.
awk -F, -v n="$n" -v rounds="$rounds" -v host_rounds="$host_rounds" -v wall_calls="$wall_calls" \
	-v boots="$boots" -v musl_note="$musl_note" -v host_i386_note="$host_i386_note" \
	-v perf_note="$perf_note" -v trace_note="$trace_note" \
	-v init_bytes="$(stat -c %s "$out/sysbench-glibc")" -f bench/syscall/report.awk \
	"$csv" "$bcsv" "$out/trace.log" || die "the report failed"
echo "Host load average $load_start at the start, $(cut -d' ' -f1 /proc/loadavg) at the end" \
	"($(nproc) CPUs): the wall times are only as good as the host is quiet."
echo "CSV: $csv, $bcsv; logs: $out/ ($qemu_wall s of wall time for the QEMU runs)"
if [ ${#failed[@]} -ne 0 ]; then
	for f in "${failed[@]}"; do
		echo "syscall: $f gave no figures; log: $out/$f.log" >&2
		tail -5 "$out/$f.log" >&2
	done
	exit 1
fi
