#!/bin/bash
# tools/hzadvise/record.sh on this machine, where it can run (root and a
# kernel with tracefs; elsewhere nothing is recorded, and the suite says
# so): a 2-second anonymized recording the advisor reads, whose HZ is the
# one the kernel was built with, and every tracing setting put back as it
# was found, after the recording and after a Ctrl-C in the middle of one.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh

out=build/hzrecord
mkdir -p "$out"
T=
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -w "$d/trace_pipe" ] || [ -r "$d/trace_pipe" ] && T=$d && break
done
if [ -z "$T" ] && [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null && T=/sys/kernel/tracing
fi
if [ -z "$T" ] || [ "$(id -u)" -ne 0 ] || [ ! -d "$T/events/timer" ]; then
	echo "tests/hzrecord: no tracefs with timer events here (or not root): record.sh not run"
	exit 0

fi

# Every setting record.sh touches, as text. A ring buffer not yet
# allocated reads "7 (expanded: 1408)": nothing can put that state back
# once it is allocated, only its size (which the kernel rounds to pages),
# so the size is compared to 2 %.
state() {
	local f kb
	for f in tracing_on set_event_pid $(cd "$T" && ls events/timer/*/enable); do
		printf '%s=%s\n' "$f" "$(tr '\n' ' ' <"$T/$f" 2>/dev/null)"
	done
	kb=$(sed 's/.*expanded: \([0-9]*\).*/\1/' "$T/buffer_size_kb")
	printf 'buffer_size_kb~%d\n' "$(awk -v k="$kb" 'BEGIN { printf "%d", log(k + 1) / log(1.02) }')"
}
make --no-print-directory hzadvise >"$out/build.log" 2>&1 || tail -5 "$out/build.log" >&2

before=$(state)
bash tools/hzadvise/record.sh -d 2 -a -o "$out/rec.txt" >"$out/rec.log" 2>&1
rc=$?
after=$(state)
p=()
[ $rc -eq 0 ] || p+=("exit status $rc: $(tail -2 "$out/rec.log")")
head -1 "$out/rec.txt" | grep -q '^# hzadvise record: ' || p+=("no header line")
n=$(grep -cE ': (timer_start|hrtimer_expire_entry|hrtimer_start): ' "$out/rec.txt")
[ "$n" -gt 0 ] || p+=("no timer events")
report "hzrecord: record.sh -d 2 -a records $n timer events" "${p[@]}"
[ "$before" = "$after" ] && report "hzrecord: tracing settings put back after the recording" ||
	report "hzrecord: tracing settings put back after the recording" "$(diff <(echo "$before") <(echo "$after"))"

# The advisor reads it, and finds the HZ the header says the kernel has.
src=$(build/tools/hzadvise -q "$out/rec.txt" 2>"$out/advise.err" | grep '^source:')
want=$(head -1 "$out/rec.txt" | sed -n 's/.*config_hz=\([0-9]*\).*/\1/p')
got=$(sed -n 's/.* hz=\([0-9]*\) .*/\1/p' <<<"$src")
p=()
[ -n "$src" ] || p+=("hzadvise: $(head -1 "$out/advise.err")")
[ -z "$want" ] || [ "$got" = "$want" ] || p+=("hz=$got, the kernel's CONFIG_HZ is $want")
report "hzrecord: hzadvise reads it: hz=$got${want:+ (CONFIG_HZ=$want)}" "${p[@]}"

# Ctrl-C in the middle of an open-ended recording (job control on, so that
# the background job does not start with SIGINT ignored), then kill.
# A signal ignored when a shell starts cannot be trapped there, and the
# ignore is inherited: under `nohup make check &` SIGINT reaches no
# record.sh. That case is said, not tested (it is the caller's doing).
# A recorder still running after 10 s fails, and is killed before the
# wait, which would otherwise never end.
set -m
sigs=(INT TERM)
ign=$(awk '/^SigIgn:/ { print $2 }' /proc/$$/status 2>/dev/null)
if [ -n "$ign" ] && (((16#$ign >> 1) & 1)); then
	echo "hzrecord: SIGINT is ignored by whoever started make check (nohup, or a background job): its case is not run"
	sigs=(TERM)
fi
for sig in "${sigs[@]}"; do
	bash tools/hzadvise/record.sh -d 0 -o "$out/$sig.txt" >"$out/$sig.log" 2>&1 &
	pid=$!
	sleep 1.5
	kill -$sig $pid
	timeout 10 tail --pid=$pid -f /dev/null
	p=()
	if kill -0 $pid 2>/dev/null; then
		p+=("still running 10 s after SIG$sig")
		kill -KILL -- -$pid
	fi
	wait $pid
	rc=$?
	after=$(state)
	[ "$before" = "$after" ] || p+=("$(diff <(echo "$before") <(echo "$after"))")
	head -1 "$out/$sig.txt" | grep -q '^# hzadvise record: ' || p+=("no header line")
	report "hzrecord: SIG$sig: settings put back, the file kept (exit $rc)" "${p[@]}"
done
exit 0
