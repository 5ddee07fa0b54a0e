#!/bin/sh
# shellcheck shell=dash
# guest-record: one ftrace timer trace of the advisor's workloads, printed
# on the console (issue 30, item 3). POSIX sh: BusyBox's in the Linux
# port's guest, or any shell on a host. As root.
#
#	guest-record.sh [-t SECONDS] [-n NAME] [-w HZWORKLOAD] [-o FILE] [-b KB]
#
# Mounts tracefs if it is not, enables the events hzadvise reads (timer:
# timer_start, timer_cancel, timer_expire_entry, hrtimer_start,
# hrtimer_cancel, hrtimer_expire_entry, tick_stop; sched:sched_switch and
# power:cpu_idle, for busy and idle, and sched:sched_waking, else
# sched_wakeup, for the sleeps a wakeup ended before their timeout ran,
# where the kernel has them), runs HZWORKLOAD -t SECONDS (default
# /sbin/hzworkload, 10 s) while the ring buffer (KB per CPU, default
# 16384: the wakeups add one event to every sleep that ends, and the whole
# recording stays in it) records, then stops and prints, on
# stdout:
#
#	hzadvise-trace: begin NAME FORMAT
#	hzt:LINE...
#	hzadvise-trace: end NAME lines=N lost=L
#
# FORMAT is "gz-base64" when gzip and base64 are there (the trace, gzip'd,
# in base64 lines: 10 times less for the console to carry), "text"
# otherwise (each trace line as it is). Every line of it starts with "hzt:"
# so that kernel messages printed amid it are left out by the host's
# tests/advisor-linux/console-trace.sh. L is the events the ring buffer lost
# (per_cpu/cpu*/stats "overrun"); a trace with L > 0 is incomplete. With
# -o FILE the trace is written to FILE instead (as trace text), and the
# markers say so ("FORMAT" = file). The first trace line is a comment as
# tools/hzadvise/record.sh writes it, with hz= from /proc/sys/kernel/hz
# when the kernel has it (the Linux port). Every tracing setting changed
# is put back as it was.
set -u
secs=10 name=trace wl=/sbin/hzworkload out='' bufkb=16384
while [ $# -gt 0 ]; do
	case $1 in
	-t) secs=$2; shift 2 ;;
	-n) name=$2; shift 2 ;;
	-w) wl=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	-b) bufkb=$2; shift 2 ;;
	*) echo "guest-record: usage: guest-record.sh [-t SECONDS] [-n NAME] [-w HZWORKLOAD] [-o FILE] [-b KB]" >&2; exit 2 ;;
	esac
done
fail() { echo "hzadvise-trace: FAILED $name: $*"; exit 1; }

T=/sys/kernel/tracing
[ -d /sys/kernel ] || mount -t sysfs sysfs /sys 2>/dev/null
[ -e $T/trace ] || mount -t tracefs nodev $T 2>/dev/null
[ -e $T/trace ] || fail "no tracefs at $T (CONFIG_FTRACE, CONFIG_ENABLE_DEFAULT_TRACERS)"
[ -x "$wl" ] || fail "no workload program $wl"

events="timer/timer_start timer/timer_cancel timer/timer_expire_entry timer/hrtimer_start
timer/hrtimer_cancel timer/hrtimer_expire_entry timer/tick_stop sched/sched_switch power/cpu_idle"
on=''
for e in $events; do
	if [ -e $T/events/$e/enable ]; then
		on="$on $e"
	else
		case $e in timer/*) fail "this kernel has no $e event" ;; esac
	fi
done
# The wakeups: by the waker as it wakes (4.3 on), else as the task is queued.
for e in sched/sched_waking sched/sched_wakeup; do
	if [ -e "$T/events/$e/enable" ]; then
		on="$on $e"
		break
	fi
done
old_on=$(cat $T/tracing_on)
old_buf=$(cat $T/buffer_size_kb | sed 's/ .*//')
echo 0 >$T/tracing_on
echo "$bufkb" >$T/buffer_size_kb || fail "buffer_size_kb $bufkb refused"
for e in $on; do echo 1 >$T/events/$e/enable; done
# Raw pointers: until the kernel's random pool is ready (22 s into a TCG
# boot) a hashed %p prints "(____ptrval____)" for every timer alike.
old_hp=''
if [ -e $T/options/hash-ptr ]; then
	old_hp=$(cat $T/options/hash-ptr)
	echo 0 >$T/options/hash-ptr
fi
echo >$T/trace

hz=?
[ -r /proc/sys/kernel/hz ] && hz=$(cat /proc/sys/kernel/hz)
tick=?
for w in $(cat /proc/cmdline); do
	case $w in nohz=*) tick=${w#nohz=} ;; esac
done
cpus=$(grep -c '^processor' /proc/cpuinfo)
tmp=${TMPDIR:-/tmp}/guest-record.$$
mkdir -p "$tmp" || fail "cannot make $tmp"

echo 1 >$T/tracing_on
"$wl" -t "$secs" >"$tmp/wl.out" 2>&1
wrc=$?
echo 0 >$T/tracing_on
lost=0
for s in $T/per_cpu/cpu*/stats; do
	n=$(sed -n 's/^overrun: //p' "$s")
	lost=$((lost + ${n:-0}))
done
# The idle loop's driver, as tools/hzadvise/record.sh says it: none/0 or DRIVER/N.
cpuidle=none/0
d=$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null)
if [ -n "$d" ] && [ "$d" != none ]; then
	n=0
	for s in /sys/devices/system/cpu/cpu0/cpuidle/state[0-9]*; do
		[ -d "$s" ] && n=$((n + 1))
	done
	cpuidle=$(echo "$d" | tr ' ' _)/$n
fi
{
	printf '# hzadvise record: kernel=%s config_hz=? hz=%s nohz=%s cpus=%s seconds=%s workload=%s lost=%s events=%s cpuidle=%s\n' \
		"$(uname -r)" "$hz" "$tick" "$cpus" "$secs" "${wl##*/}" "$lost" "$(echo $on | tr ' ' ',')" "$cpuidle"
	cat $T/trace
} >"$tmp/trace.txt"
for e in $on; do echo 0 >$T/events/$e/enable; done
[ -n "$old_hp" ] && echo "$old_hp" >$T/options/hash-ptr
echo >$T/trace
echo "$old_buf" >$T/buffer_size_kb 2>/dev/null
echo "$old_on" >$T/tracing_on
sed 's/^/hzworkload-out: /' "$tmp/wl.out"
[ $wrc -eq 0 ] || { rm -rf "$tmp"; fail "$wl exited with status $wrc"; }

lines=$(wc -l <"$tmp/trace.txt")
# No kernel message in the middle of a trace line on the console: only
# emergencies are printed while it goes out.
old_pk=$(cut -f1 /proc/sys/kernel/printk)
echo 1 >/proc/sys/kernel/printk
if [ -n "$out" ]; then
	mv "$tmp/trace.txt" "$out"
	echo "hzadvise-trace: begin $name file"
	echo "hzadvise-trace: end $name lines=$lines lost=$lost file=$out"
elif command -v gzip >/dev/null && command -v base64 >/dev/null; then
	echo "hzadvise-trace: begin $name gz-base64"
	gzip -c "$tmp/trace.txt" | base64 | sed 's/^/hzt:/'
	echo "hzadvise-trace: end $name lines=$lines lost=$lost"
else
	echo "hzadvise-trace: begin $name text"
	sed 's/^/hzt:/' "$tmp/trace.txt"
	echo "hzadvise-trace: end $name lines=$lines lost=$lost"
fi
echo "$old_pk" >/proc/sys/kernel/printk
rm -rf "$tmp"
