#!/bin/bash
# The Linux port's build and boot (run by `make check`): issue 29, item 1.
#
#   make linux (x86_64), booted at hz=250 and hz=333 (two QEMUs at once),
#   make linux ARCH=arm64, booted at hz=333,
#
# each boot with the demonstration initramfs (linux/rootfs/init, noshell)
# through the tests' harness (scripts/linux/boot.sh: plain TCG, a timeout).
# One result per build and per boot; a boot passes when the machine powered
# off by itself after "init: demonstration done" and its console shows
#   - the command line with the hz= asked;
#   - /proc/sys/kernel/hz equal to it, when the kernel has that file (the
#     patched kernel adds it; stock Linux has none and ignores hz=);
#   - `time sleep 1` taking 1.00 to 1.99 s (plain TCG: the guest's time is
#     the host's, and a loaded host wakes it late);
#   - KUnit's time_test_cases "ok", and no KUnit test "not ok";
#   - no "Kernel panic", "BUG:", "WARNING:" or "Oops".
# Logs in build/linux-tests/. The whole takes about 5 minutes with a warm
# ccache, 15 from nothing (the arm64 build is the longest); the last line
# says how long it took.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
# lx_now (durations on /proc/uptime: tests may set this machine's clock).
source scripts/linux/lib.sh
since() { echo "$(lx_now) $1" | awk '{ printf "%.0f", $1 - $2 }'; }
source scripts/linux/boot.sh
export LC_ALL=C
start=$(lx_now)
out=build/linux-tests
mkdir -p "$out"
rm -f "$out"/*.log "$out"/*.rc "$out"/*.err "$out"/*.time "$out"/*.qemu
MAKE="make --no-print-directory"

if ! bash scripts/deps.sh linux >"$out/deps.log" 2>&1; then
	report "linux: packages (scripts/deps.sh linux)" "$(tail -1 "$out/deps.log")"
	exit 0
fi

# build ARCH: make linux ARCH=ARCH and its initramfs; sets kernel[ARCH].
declare -A kernel=()
build() {
	local arch=$1 t0=$(lx_now)
	if $MAKE linux ARCH="$arch" >"$out/build-$arch.log" 2>&1 &&
		$MAKE linux-initramfs ARCH="$arch" >>"$out/build-$arch.log" 2>&1; then
		kernel[$arch]=$(bash scripts/linux/build.sh --print "$arch" dynhz)
		report "linux: build $arch"
		echo "  make linux ARCH=$arch: $(since "$t0") s"
	else
		report "linux: build $arch" "make linux ARCH=$arch failed ($out/build-$arch.log):" \
			"$(grep -m3 -E 'error|linux:' "$out/build-$arch.log")"
	fi
}

# check_boot NAME HZ: the result of one boot, from its log.
check_boot() {
	local name=$1 hz=$2 log=$out/$1.log problems=() rc got
	rc=$(cat "$out/$name.rc" 2>/dev/null || echo none)
	[ "$rc" = 0 ] || problems+=("did not power off by itself (status $rc): $(cat "$out/$name.err" 2>/dev/null)")
	grep -q '^init: demonstration done' "$log" || problems+=("no 'init: demonstration done'")
	grep -A1 '^== /proc/cmdline' "$log" | tail -1 | grep -qw "hz=$hz" ||
		problems+=("/proc/cmdline without hz=$hz")
	if grep -q '^== /proc/sys/kernel/hz' "$log"; then
		got=$(grep -A1 '^== /proc/sys/kernel/hz' "$log" | tail -1)
		[ "$got" = "$hz" ] || problems+=("/proc/sys/kernel/hz is '$got', not $hz")
	fi
	grep -A3 '^== time sleep 1' "$log" | grep -qE '^real[[:space:]]+0m 1\.[0-9]+s' ||
		problems+=("time sleep 1: not 1.00-1.99 s: $(grep -A3 '^== time sleep 1' "$log" | grep real)")
	grep -qE '^(\[ *[0-9.]+\] )?[[:space:]]*ok [0-9]+ (- )?time_test_cases$' "$log" ||
		problems+=("no KUnit 'ok N time_test_cases'")
	grep -qE '^(\[ *[0-9.]+\] )?[[:space:]]*not ok ' "$log" &&
		problems+=("KUnit: $(grep -m1 -E 'not ok ' "$log")")
	grep -qE 'Kernel panic|BUG:|WARNING:|Oops' "$log" &&
		problems+=("$(grep -m1 -E 'Kernel panic|BUG:|WARNING:|Oops' "$log")")
	if [ ${#problems[@]} -eq 0 ]; then
		report "linux: boot $name"
		echo "  $(grep -m1 '^init: started' "$log"), powered off after $(cat "$out/$name.log.time") s"
	else
		report "linux: boot $name" "${problems[@]}" "---- $log:" "$(tail -12 "$log")"
	fi
}

initrd() { echo "build/linux/initramfs-$1.cpio"; }

# LINUX_ARCHES limits the architectures (both by default; "x86_64" for a
# quick run).
arches=" ${LINUX_ARCHES:-x86_64 arm64} "
[[ $arches == *" x86_64 "* ]] && build x86_64
if [ -n "${kernel[x86_64]}" ]; then
	k=${kernel[x86_64]}
	lx_boot_list "$out" "x86_64-hz250|x86_64|$k|$(initrd x86_64)|hz=250 noshell" \
		"x86_64-hz333|x86_64|$k|$(initrd x86_64)|hz=333 noshell"
	check_boot x86_64-hz250 250
	check_boot x86_64-hz333 333
fi
[[ $arches == *" arm64 "* ]] && build arm64
if [ -n "${kernel[arm64]}" ]; then
	lx_boot_list "$out" "arm64-hz333|arm64|${kernel[arm64]}|$(initrd arm64)|hz=333 noshell"
	check_boot arm64-hz333 333
fi
echo "linux: $(since "$start") s"
