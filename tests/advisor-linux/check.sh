#!/bin/bash
# hzadvise validated on Linux itself (issue 30, item 3; in make check: four
# boots of about 20 s, two at a time, once the x86_64 kernel is built,
# which tests/linux/check.sh needs too): the Linux port (Linux 6.1 whose
# HZ is the boot parameter hz=) booted at several settings with the same workloads
# (tests/advisor-linux/hzworkload.c: a 60 Hz frame timer, a UDP service
# with a 1 ms SO_RCVTIMEO, daemons with second-scale timers, an event loop
# of short epoll timeouts, a CPU-bound job), each boot recording a real
# ftrace timer trace in the guest (guest-record.sh, tracefs text as a
# user's record.sh writes it) and printing it on the console. Then for
# pairs of boots (a, b) both ways, hzadvise predicts b from a's trace alone
# and compare.sh sets the prediction against b's own trace, read with awk:
# wakeups/s within 10 %, each workload's fires/s within 10 % and p99
# lateness within 20 % or one tick of b. One result per pair; the table
# of them in build/advisor-linux/table.md (docs/ADVISOR.md shows it).
#
# The kernel: `make linux` (x86_64), or ADVISOR_LINUX_KERNEL=bzImage to
# use one built elsewhere; ADVISOR_SECONDS (8) is each recording's length.
# LINUX_ARCHES without x86_64 (as for tests/linux/check.sh) leaves it out.
#
# The machine: one CPU under -icount shift=1,sleep=off (scripts/linux/
# boot.sh's mode icount, the mode of make check's boots): guest time is
# the instruction count, 2 ns an instruction, whatever the host's load.
# Not shift=auto: auto stretches a guest instruction when the host is
# loaded, and every boot then had stretches of up to a second where all
# its timers fired late at once, which the replay carried from trace a
# into its prediction of b. Not plain TCG: the guest's time is then the
# host's and a shared host makes it miss its own interrupts ("hrtimer:
# interrupt took 30337350 ns"; periodic 1000 Hz showed 1227 wakeups/s).
# LINUX_ADVISOR_MODE picks another of boot.sh's modes.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
qmode=${LINUX_ADVISOR_MODE:-icount}
if [[ " ${LINUX_ARCHES:-x86_64 arm64} " != *" x86_64 "* ]]; then
	echo "advisor-linux: LINUX_ARCHES='${LINUX_ARCHES:-}' leaves x86_64 out: not run"
	exit 0
fi
source scripts/linux/boot.sh
export LC_ALL=C
out=build/advisor-linux
secs=${ADVISOR_SECONDS:-8}
mkdir -p "$out"
rm -f "$out"/*.log "$out"/*.rc "$out"/*.err "$out"/*.txt "$out"/*.raw "$out"/*.cmp

if ! bash scripts/deps.sh linux >"$out/deps.log" 2>&1; then
	report "advisor-linux: packages (scripts/deps.sh linux)" "$(tail -1 "$out/deps.log")"
	exit 0
fi
if ! make --no-print-directory hzadvise >"$out/build.log" 2>&1; then
	report "advisor-linux: hzadvise builds" "$(tail -3 "$out/build.log")"
	exit 0
fi

kernel=${ADVISOR_LINUX_KERNEL:-}
if [ -z "$kernel" ]; then
	if make --no-print-directory linux ARCH=x86_64 >"$out/linux.log" 2>&1; then
		kernel=$(bash scripts/linux/build.sh --print x86_64 dynhz)
	else
		report "advisor-linux: make linux" "$(grep -m3 -E 'error|linux:' "$out/linux.log")"
		exit 0
	fi
fi

# The port's small kernel has no kallsyms: its trace names timer functions
# by address (function=0xffffffff810947bf), which System.map beside the
# kernel's build turns back into names, as a distribution kernel prints
# them (hzadvise knows the tick's hrtimer and the tasks' sleeps by name).
map=${ADVISOR_LINUX_SYSTEM_MAP:-${kernel%/arch/*}/System.map}
if [ ! -r "$map" ]; then
	report "advisor-linux: System.map of the kernel" "none at $map (ADVISOR_LINUX_SYSTEM_MAP)"
	exit 0
fi
# symbolize RAW OUT: function=0xADDR -> function=NAME; fails (one line) if an address is not a symbol's start.
symbolize() {
	awk 'NR == FNR { if ($2 ~ /^[tTwW]$/) sym["0x" $1] = $3; next }
		match($0, / function=0x[0-9a-f]+/) {
			a = substr($0, RSTART + 10, RLENGTH - 10)
			if (!(a in sym)) { bad++; if (!first) first = a; print; next }
			$0 = substr($0, 1, RSTART - 1) " function=" sym[a] substr($0, RSTART + RLENGTH)
		}
		{ print }
		END { if (bad) { printf "%d functions not in System.map (first %s): KASLR, or another kernel\n", bad, first >"/dev/stderr"; exit 1 } }' \
		"$map" "$1" >"$2"
}

# The payload, laid out as the guest's root, and the initramfs.
pay=$out/payload
rm -rf "$pay"
mkdir -p "$pay/sbin" "$pay/bin"
if ! gcc -static -O2 -Wall -Wextra -Werror -o "$pay/sbin/hzworkload" \
	tests/advisor-linux/hzworkload.c >"$out/hzworkload.log" 2>&1; then
	report "advisor-linux: hzworkload builds (static)" "$(grep -m1 -E 'error|warning' "$out/hzworkload.log")"
	exit 0
fi
install -m 0755 tests/advisor-linux/run-checks.sh "$pay/sbin/run-checks"
install -m 0755 tests/advisor-linux/guest-record.sh "$pay/sbin/guest-record"
# BusyBox's gzip and base64: the trace crosses the console 10 times smaller.
ln -s busybox "$pay/bin/gzip"
ln -s busybox "$pay/bin/base64"
if ! bash scripts/linux/initramfs.sh x86_64 "$out/advisor.cpio" "$pay" >"$out/initramfs.log" 2>&1; then
	report "advisor-linux: initramfs" "$(tail -1 "$out/initramfs.log")"
	exit 0
fi

# The boots: NAME HZ NOHZ.
boots=("hz100 100 on" "hz250 250 on" "hz1000 1000 on" "hz1000p 1000 off")
specs=()
for b in "${boots[@]}"; do
	read -r name hz nohz <<<"$b"
	specs+=("$name|x86_64|$kernel|$out/advisor.cpio|hz=$hz nohz=$nohz noshell check=advisor hzw_t=$secs hzw_name=$name|$qmode")
done
lx_boot_list "$out" "${specs[@]}"
declare -A ok=() desc=()
for b in "${boots[@]}"; do
	read -r name hz nohz <<<"$b"
	desc[$name]="hz=$hz nohz=$nohz"
	p=()
	[ "$(cat "$out/$name.rc" 2>/dev/null)" = 0 ] || p+=("the boot: $(cat "$out/$name.err" 2>/dev/null)")
	if bash tests/advisor-linux/console-trace.sh "$out/$name.log" "$name" "$out/$name.raw" 2>"$out/$name.trace.err"; then
		symbolize "$out/$name.raw" "$out/$name.txt" 2>"$out/$name.trace.err" || p+=("$(cat "$out/$name.trace.err")")
	else
		p+=("$(cat "$out/$name.trace.err")")
	fi
	grep -q "^hzworkload-out: hzworkload: done" "$out/$name.log" || p+=("the workloads did not finish: $(grep -m1 'hzworkload.*FAILED' "$out/$name.log")")
	[ ${#p[@]} -eq 0 ] && ok[$name]=1
	report "advisor-linux: boot hz=$hz nohz=$nohz, a trace of the workloads" "${p[@]}"
done

# The advice from each tickless trace: the UDP service's 1 ms SO_RCVTIMEO
# (schedule_timeout(1)) runs one to two ticks of H, late by a tick of H
# behind the jiffy it asks for; within the default 2 ms budget only H >= 500
# keeps it, so of the candidates hz=1000, tickless (the fewest wakeups), and
# the reason names hzw-udp.
for name in hz100 hz250 hz1000; do
	[ -n "${ok[$name]:-}" ] || continue
	line=$(build/tools/hzadvise -q "$out/$name.txt" 2>/dev/null | grep -E '^(recommend|cmdline):' | tr '\n' ' ')
	[[ $line == "recommend: hz=1000 mode=nohz "*"hzw-udp"*"cmdline: hz=1000 nohz=on "* ]] ||
		[[ $name == hz1000 && $line == "recommend: hz=1000 mode=nohz "*"cmdline: hz=1000 nohz=on "* ]] &&
		report "advisor-linux: the advice from ${desc[$name]}: hz=1000 nohz=on, for hzw-udp" ||
		report "advisor-linux: the advice from ${desc[$name]}: hz=1000 nohz=on, for hzw-udp" "$line"
done

# The pairs: A B MODE (B's tick mode, as booted).
pairs=("hz250 hz1000 nohz" "hz1000 hz250 nohz" "hz100 hz1000 nohz" "hz1000 hz100 nohz"
	"hz250 hz1000p periodic" "hz1000p hz250 nohz")
hz_of() { sed 's/hz\([0-9]*\).*/\1/' <<<"$1"; }
{
	echo "| from | predicts | wakeups/s predicted | observed | workloads judged | verdict |"
	echo "| --- | --- | ---: | ---: | ---: | --- |"
} >"$out/table.md"
for pr in "${pairs[@]}"; do
	read -r a b mode <<<"$pr"
	what="${desc[$a]} -> ${desc[$b]}"
	if [ -z "${ok[$a]:-}" ] || [ -z "${ok[$b]:-}" ]; then
		report "advisor-linux: $what: prediction within tolerance" "a boot failed: no traces to compare"
		continue
	fi
	bash tests/advisor-linux/compare.sh -m "$mode" -l "$a->$b" "$out/$a.txt" "$(hz_of "$a")" \
		"$out/$b.txt" "$(hz_of "$b")" >"$out/$a-$b.cmp" 2>&1
	rc=$?
	w=$(grep ' wakeups/s predicted ' "$out/$a-$b.cmp")
	judged=$(grep -c ' predicted .* observed .* \(pass\|FAIL\)$' "$out/$a-$b.cmp")
	echo "| ${desc[$a]} | ${desc[$b]} | $(awk '{ print $5 }' <<<"$w") |" \
		"$(awk '{ print $7 }' <<<"$w") | $((judged - 1)) metrics | $([ $rc -eq 0 ] && echo pass || echo FAIL) |" >>"$out/table.md"
	if [ $rc -eq 0 ]; then
		report "advisor-linux: $what: prediction within tolerance ($(tail -1 "$out/$a-$b.cmp" | sed 's/^compare: [^ ]* //'))"
	else
		report "advisor-linux: $what: prediction within tolerance" "$(grep -E 'FAIL$|failed|compare: .*: ' "$out/$a-$b.cmp" | head -6)"
	fi
done
echo "advisor-linux: the table: $out/table.md"
