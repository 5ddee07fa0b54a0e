#!/bin/bash
# The Linux port in make check (issue 29, items 6 and 9): the patched
# kernel built for x86_64 and arm64 and booted at several HZ, judged by
# the project's user-space checks, by Linux's own tests (KUnit, the timer
# selftests) and, for the selftests, by stock Linux.
#
#   x86_64 (make linux), -icount, one CPU (scripts/linux/boot.sh, mode icount):
#     hz=24      hzcheck, KUnit (hz and time_test_cases), kselftest:check
#     hz=97, hz=333, hz=1000, hz=4321
#                hzcheck, KUnit hz, kselftest:check
#     HZ=R       the same: R drawn at random in 24..10000 each run
#                (printed; LINUX_HZ_SEED=S draws the same again), given as
#                HZ= (the parameter's other spelling)
#     hz=abc, hz=, hz=-5, hz=5, hz=99999
#                quick boots (no KUnit): the one line the kernel prints about
#                the value, the HZ it fell back to (the boot line and
#                /proc/sys/kernel/hz)
#   x86_64, plain TCG, two CPUs (mode tcg): the demonstration of make
#     run-linux (linux/rootfs/init, noshell): both CPUs up, the timer and
#     LOC interrupts, `time sleep 1` 1.00-1.99 s, kernel.hz 250
#   arm64 (make linux ARCH=arm64, LLVM), -icount, one CPU:
#     hz=333     hzcheck, KUnit (hz and time_test_cases), kselftest:check
#
# Every boot: one result per check (lc_judge in tests/linux/checks-lib.sh):
# powered off by itself, the kernel's "hz: HZ=N" line, each KUnit suite
# (its top line ok, no test skipped) and no "not ok" anywhere, hzcheck,
# each selftest, the checks finished, a kernel log without panic, BUG,
# WARNING, Oops, call trace, RCU stall or lockup. A selftest that fails
# here also fails on stock Linux when tests/linux/stock-passes.txt says so
# (made by scripts/linux/judge.sh from stock 6.1 at CONFIG_HZ=250 and 1000,
# in make check-long): it is shown and not counted; one that passes on
# stock must pass here, at every HZ.
#
# LINUX_CHECK=long (tests/linux/long.sh, make check-long) boots the whole
# matrix instead: hz=24, 97, 250, 333, 1000, 4321, 10000 and HZ=R on both
# architectures, each with hzcheck, both KUnit suites and kselftest:check,
# and the bad values and the demonstration on both.
#
# Boots run two at a time (LINUX_BOOT_JOBS). Logs in build/linux-tests/.
# LINUX_ARCHES="x86_64" (or "arm64") limits the architectures. The last
# lines say how long each part took.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
source scripts/linux/lib.sh
source scripts/linux/boot.sh
source tests/linux/checks-lib.sh
since() { echo "$(lx_now) $1" | awk '{ printf "%.0f", $1 - $2 }'; }
export LC_ALL=C
level=${LINUX_CHECK:-check}
case $level in check | long) ;; *) echo "linux: LINUX_CHECK='$level' (check or long)" >&2; exit 1 ;; esac
LC_STOCK=tests/linux/stock-passes.txt
start=$(lx_now)
out=build/linux-tests
mkdir -p "$out"
rm -f "$out"/*.log "$out"/*.rc "$out"/*.err "$out"/*.time "$out"/*.qemu "$out"/*.kernel
MAKE="make --no-print-directory"

if ! bash scripts/deps.sh linux >"$out/deps.log" 2>&1; then
	report "linux: packages (scripts/deps.sh linux)" "$(tail -1 "$out/deps.log")"
	exit 0
fi
[ -f "$LC_STOCK" ] || echo "linux: no $LC_STOCK: every selftest is judged alone" >&2

seed=${LINUX_HZ_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
rhz=$(lx_random_hz "$seed") || exit 1
echo "linux: the random HZ of this run is $rhz (LINUX_HZ_SEED=$seed draws it again)"

# build ARCH: make linux ARCH=ARCH, the checks' payload, an initramfs with
# both; sets kernel[ARCH] and initrd[ARCH].
declare -A kernel=() initrd=() took=()
build() {
	local arch=$1 t0 log=$out/build-$1.log
	t0=$(lx_now)
	if ! $MAKE linux ARCH="$arch" >"$log" 2>&1; then
		report "linux $arch: build" "make linux ARCH=$arch failed ($log):" \
			"$(grep -m3 -E 'error|linux:' "$log")"
		return
	fi
	took[build-$arch]=$(since "$t0")
	# Warning-free, as every build of the project (ccache replays a
	# cached object's warnings, so a warm build shows them too).
	local warn=()
	grep -q 'warning:' "$log" && warn=("compiler warnings ($log):" "$(grep -m2 'warning:' "$log")")
	report "linux $arch: build" "${warn[@]}"
	echo "  make linux ARCH=$arch: ${took[build-$arch]} s; $(grep -c '^  CC ' "$log") files compiled"
	t0=$(lx_now)
	if ! bash tests/linux/payload.sh "$arch" >>"$log" 2>&1 ||
		! bash scripts/linux/initramfs.sh "$arch" "$out/initramfs-$arch.cpio" \
			"build/linux-payload/$arch" >>"$log" 2>&1; then
		report "linux $arch: payload" "tests/linux/payload.sh or the initramfs failed ($log):" \
			"$(grep -m3 -E 'linux-payload|linux:' "$log")"
		return
	fi
	report "linux $arch: payload"
	echo "  the checks and the selftests built, the initramfs: $(since "$t0") s"
	kernel[$arch]=$(bash scripts/linux/build.sh --print "$arch" dynhz)
	initrd[$arch]=$out/initramfs-$arch.cpio
}

arches=" ${LINUX_ARCHES:-x86_64 arm64} "
for a in x86_64 arm64; do
	[[ $arches == *" $a "* ]] && build "$a"
done

# The boots: NAME|ARCH|KERNEL|INITRD|CMDLINE|MODE|TIMEOUT, and what each
# is judged on (lc_judge's expectations).
specs=()
declare -A expect=() label=()
add() { # NAME LABEL ARCH CMDLINE MODE TIMEOUT EXPECT...
	local name=$1 arch=$3 cmdline=$4 mode=$5 limit=$6
	[ -n "${kernel[$arch]}" ] || return 0
	label[$name]="linux $arch $2"
	shift 6
	specs+=("$name|$arch|${kernel[$arch]}|${initrd[$arch]}|$cmdline|$mode|$limit")
	# One expectation a tab-separated field: a bad value's line has spaces.
	expect[$name]=$(IFS=$'\t'; echo "$*")
}
ks=kselftest:check
if [ "$level" = long ]; then
	# make check-long: every HZ on both architectures, each with hzcheck,
	# both KUnit suites and kselftest:check; the bad values and the
	# demonstration on both.
	for a in arm64 x86_64; do
		for hz in 24 97 250 333 1000 4321 10000; do
			add "$a-hz$hz" "hz=$hz" "$a" "hz=$hz check=hzcheck,$ks" icount 2400 "hz=$hz" kunit=hz kunit=time_test_cases checks
		done
		add "$a-HZ$rhz" "HZ=$rhz (random)" "$a" "HZ=$rhz check=hzcheck,$ks" icount 2400 "hz=$rhz" kunit=hz kunit=time_test_cases checks
	done
else
	# make check: hzcheck, Linux's timer selftests (kselftest:check) and
	# the KUnit suite hz at every HZ of the issue, x86_64; the arm64 boot
	# with the same. The longest first, so the two QEMUs end together.
	# hz_kunit.inputs: a million random inputs per HZ (24, 100, 250, 300,
	# 1000) through every conversion in this boot; the others, 100000.
	add x86_64-hz24 hz=24 x86_64 "hz=24 hz_kunit.inputs=1000000 check=hzcheck,$ks" icount 1500 hz=24 kunit=hz kunit=time_test_cases checks
	add arm64-hz333 hz=333 arm64 "hz=333 check=hzcheck,$ks" icount 2400 hz=333 kunit=hz kunit=time_test_cases checks
	for hz in 4321 97 333 1000; do
		add "x86_64-hz$hz" "hz=$hz" x86_64 "hz=$hz kunit.filter_glob=hz check=hzcheck,$ks" icount 1500 "hz=$hz" kunit=hz checks
	done
	add "x86_64-HZ$rhz" "HZ=$rhz (random)" x86_64 "HZ=$rhz kunit.filter_glob=hz check=hzcheck,$ks" icount 1500 "hz=$rhz" kunit=hz checks
fi
# The bad values: "VALUE|the line|the HZ used".
bad_arches=x86_64
[ "$level" = long ] && bad_arches="x86_64 arm64"
for a in $bad_arches; do
	for b in "abc|hz=abc: not a number, using 250|250" "|hz=: empty, using 250|250" \
		"-5|hz=-5: a sign is not allowed, using 250|250" "5|hz=5: out of range 24..10000, using 24|24" \
		"99999|hz=99999: out of range 24..10000, using 10000|10000"; do
		IFS='|' read -r v line used <<<"$b"
		add "$a-bad${v:-empty}" "hz=$v" "$a" "hz=$v checkhz=$used kunit.enable=0 check=kernelhz" icount 300 \
			"hz=$used" "line=$line" checks
	done
	add "$a-demo" "demonstration, 2 CPUs" "$a" "hz=250 kunit.enable=0 noshell" tcg 300 demo
done

# The judge must be able to fail: hzcheck told a wrong HZ (250 booted,
# judged as 333, and the reverse) must fail every check that depends on
# HZ (tests/linux/wrong-hz.sh). Two boots in the same pool.
source tests/linux/wrong-hz.sh
wrong=()
if [ -n "${kernel[x86_64]}" ]; then
	mapfile -t wrong < <(wh_specs x86_64 "${kernel[x86_64]}" "${initrd[x86_64]}")
	specs+=("${wrong[@]}")
fi

t0=$(lx_now)
lx_boot_list "$out" "${specs[@]}"
took[boots]=$(since "$t0")

# The demonstration's own judge (its /init prints what it shows).
judge_demo() {
	local lbl=$1 log=$2.log problems=() got
	grep -q '^init: demonstration done' "$log" || problems+=("no 'init: demonstration done'")
	got=$(grep -A1 '^== /proc/sys/kernel/hz' "$log" | tail -1)
	[ "$got" = 250 ] || problems+=("/proc/sys/kernel/hz is '$got', not 250")
	grep -A12 '^== time sleep 1' "$log" | grep -qE '^real[[:space:]]+0m 1\.[0-9]+s' ||
		problems+=("time sleep 1: not 1.00-1.99 s: $(grep -A12 '^== time sleep 1' "$log" | grep real)")
	# The local timer's interrupts, a count for each CPU: LOC on x86_64,
	# the architected timer on arm64.
	grep -qE '^ *LOC: +[0-9]+ +[0-9]+ |^ *[0-9]+: +[0-9]+ +[0-9]+ .*arch_timer' "$log" ||
		problems+=("no local timer line with two CPUs in /proc/interrupts")
	report "$lbl: demonstration" "${problems[@]}"
}

for spec in "${specs[@]}"; do
	IFS='|' read -r name arch _ <<<"$spec"
	if [[ $name == wrong-hz-* ]]; then
		a=${name#wrong-hz-"$arch"-} b=${a#*-as-} a=${a%%-as-*}
		wh_judge "linux $arch wrong hz" "$out/$name.log" "$a" "$b"
	elif [ "${expect[$name]}" = demo ]; then
		lc_judge "${label[$name]}" "$out/$name" "$arch" hz=250
		judge_demo "${label[$name]}" "$out/$name"
	else
		IFS=$'\t' read -ra ex <<<"${expect[$name]}"
		lc_judge "${label[$name]}" "$out/$name" "$arch" "${ex[@]}"
	fi
done

for a in x86_64 arm64; do
	[ -n "${took[build-$a]}" ] && echo "linux: make linux ARCH=$a: ${took[build-$a]} s"
done
echo "linux: ${#specs[@]} boots, two at a time: ${took[boots]} s"
echo "linux: $(since "$start") s in all"
