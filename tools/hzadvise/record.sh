#!/bin/bash
# hzadvise record: a timer trace of this Linux machine, for the HZ advisor.
#
#	record.sh [-d SECONDS] [-p PID]... [-o FILE] [-a] [-n] [-b KB] [-s N] [-i NAME]
#
# Enables the timer events the advisor reads (timer_start, timer_cancel,
# timer_expire_entry, hrtimer_start, hrtimer_cancel, hrtimer_expire_entry,
# tick_stop), sched_waking (else sched_wakeup) where the kernel has it
# (a task woken before its sleep's timeout ran: its sleep ended there,
# though the timer may still run before the task does) and, where the
# kernel has them, sched_switch and cpu_idle (the advisor's busy and idle
# then come from the trace itself), streams trace_pipe into FILE, as
# trace_pipe prints them, (default timer-trace.txt) for
# SECONDS (default 10; 0: until Ctrl-C), and on the way out, Ctrl-C and
# kill included, puts back every tracing setting it changed, as it found it.
#
#	-p PID	only the events of these processes (repeatable); the tick's and
#		the idle task's own events are then not recorded
#	-a	anonymize: user task names become "task" (kernel threads and
#		<idle> keep theirs: they say what the timer is), in the task
#		column, in sched_switch's prev_comm= and next_comm= and in
#		the wakeups' comm=
#	-n	no sched_switch or cpu_idle: a smaller trace, busy and idle by
#		the advisor's rule (the wakeups are still recorded)
#	-b KB	per-CPU ring buffer size while recording (default 4096)
#	-s N	the kernel stacks of the first N schedule_timeout sleeps the
#		recording sees (default 200; 0: none), where the kernel can
#		filter on a function (Linux 6.2 on): the advisor names what a
#		thread waits in (recvfrom with SO_RCVTIMEO, read with tty
#		VTIME...) from them
#	-i NAME	record in a tracefs instance of that name, made for the
#		recording and removed after it (it must not exist): two
#		recordings can then run at once, e.g. one with -n and one
#		without, of the same seconds of the same machine
#
# The first line of FILE is a comment with what the advisor cannot see in
# the events: the kernel, its CONFIG_HZ and tick mode when the kernel says,
# the CPU count, the span asked for, and the cpuidle driver with its number
# of idle states (cpuidle=none/0 without one: the advisor's idle loop). Needs root and tracefs.
set -u

usage() {
	echo "usage: record.sh [-d SECONDS] [-p PID]... [-o FILE] [-a] [-n] [-b KB] [-s N] [-i NAME]" >&2
	exit 2
}

secs=10
out=timer-trace.txt
anon=0
sched=1
bufkb=4096
stacks=200
inst=
pids=()
while getopts "d:p:o:anb:s:i:h" opt; do
	case $opt in
	d) secs=$OPTARG ;;
	p) pids+=("$OPTARG") ;;
	o) out=$OPTARG ;;
	a) anon=1 ;;
	n) sched=0 ;;
	b) bufkb=$OPTARG ;;
	s) stacks=$OPTARG ;;
	i) inst=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
[[ $secs =~ ^[0-9]+$ ]] || { echo "record.sh: -d $secs: not a number of seconds" >&2; exit 2; }
[[ $bufkb =~ ^[1-9][0-9]*$ ]] || { echo "record.sh: -b $bufkb: not a size in KB" >&2; exit 2; }
[[ $stacks =~ ^[0-9]+$ ]] || { echo "record.sh: -s $stacks: not a number of stacks" >&2; exit 2; }
[ -z "$inst" ] || [[ $inst =~ ^[A-Za-z0-9_.-]{1,64}$ && $inst != .* ]] ||
	{ echo "record.sh: -i $inst: not an instance name (letters, digits, _ . -)" >&2; exit 2; }
for p in "${pids[@]}"; do
	[[ $p =~ ^[0-9]+$ ]] || { echo "record.sh: -p $p: not a process id" >&2; exit 2; }
	[ -d "/proc/$p" ] || { echo "record.sh: -p $p: no such process" >&2; exit 2; }
done

# tracefs: where it is mounted, or mounted here.
T=
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -e "$d/trace_pipe" ] && { T=$d; break; }
done
if [ -z "$T" ] && [ -d /sys/kernel/tracing ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null && T=/sys/kernel/tracing
fi
if [ -z "$T" ]; then
	echo "record.sh: no tracefs (run as root on a kernel with tracing)" >&2
	exit 1
fi
if [ ! -w "$T/tracing_on" ]; then
	echo "record.sh: $T is not writable (run as root)" >&2
	exit 1
fi
# An instance of our own: its buffer, events and trigger are its own, and
# removing it at the end puts back all of them.
made=
if [ -n "$inst" ]; then
	if [ -e "$T/instances/$inst" ]; then
		echo "record.sh: -i $inst: the instance exists already (another recording's?)" >&2
		exit 1
	fi
	if ! mkdir "$T/instances/$inst" 2>/dev/null; then
		echo "record.sh: -i $inst: cannot make a tracefs instance here" >&2
		exit 1
	fi
	made=$T/instances/$inst
	T=$made
	# Until restore() takes over (a missing event ends the script first).
	trap 'rmdir "$made" 2>/dev/null' EXIT
fi

events=(timer/timer_start timer/timer_cancel timer/timer_expire_entry timer/hrtimer_start
	timer/hrtimer_cancel timer/hrtimer_expire_entry timer/tick_stop)
for e in "${events[@]}"; do
	[ -e "$T/events/$e/enable" ] || { echo "record.sh: this kernel has no $e event" >&2; exit 1; }
done
# The wakeups, by the waker as it wakes (sched_waking, 4.3 on), else as
# the task is queued: one event for each sleep that ends.
for e in sched/sched_waking sched/sched_wakeup; do
	[ -e "$T/events/$e/enable" ] && { events+=("$e"); break; }
done
# Busy and idle as the kernel saw them, where it has the events.
if [ $sched -eq 1 ]; then
	for e in sched/sched_switch power/cpu_idle; do
		[ -e "$T/events/$e/enable" ] && events+=("$e")
	done
fi

# What is changed, as it was: restored by restore(), whatever ends the run.
declare -A saved=()
save() { # save FILE...: remember their contents
	local f
	for f in "$@"; do
		saved[$f]=$(cat "$T/$f")
	done
}
save tracing_on buffer_size_kb set_event_pid
for e in "${events[@]}"; do
	save "events/$e/enable"
done

# The stacks of tasks' schedule_timeout sleeps: a trigger, removed on the way out.
trigger="stacktrace:$stacks if function.function == process_timeout && common_pid != 0"
trig_on=0
reader=
sleeper=
restored=0
stop=$(mktemp -d "${TMPDIR:-/tmp}/hzadvise-record.XXXXXX") || exit 1
restore() {
	[ $restored -eq 1 ] && return
	restored=1
	[ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null
	echo 0 >"$T/tracing_on"
	[ $trig_on -eq 1 ] && echo "!$trigger" >"$T/events/timer/timer_start/trigger" 2>/dev/null
	# The reader drains what is left and ends within one period.
	if [ -n "$reader" ]; then
		touch "$stop/stop"
		wait "$reader" 2>/dev/null
	fi
	rm -rf "$stop"
	local f
	for e in "${events[@]}"; do
		echo "${saved[events/$e/enable]}" >"$T/events/$e/enable"
	done
	# set_event_pid reads back as a list; writing it empty clears it.
	echo "${saved[set_event_pid]}" >"$T/set_event_pid"
	# "7 (expanded: 1408)": not yet allocated, and 1408 KB once tracing is
	# used. Recording allocated it, so 1408 is what the next user would get.
	f=${saved[buffer_size_kb]}
	[[ $f =~ expanded:\ ([0-9]+) ]] && f=${BASH_REMATCH[1]}
	echo "${f%% *}" >"$T/buffer_size_kb" 2>/dev/null
	echo "${saved[tracing_on]}" >"$T/tracing_on"
	# The instance goes once nothing holds it open: on a signal the
	# reader may still be draining it.
	if [ -n "$made" ]; then
		for f in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
			rmdir "$made" 2>/dev/null && break
			sleep 0.1
		done
		[ -e "$made" ] && echo "record.sh: could not remove the tracefs instance $made" >&2
	fi
}
trap restore EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# What the kernel says of its own tick.
kconfig() { # kconfig NAME: its value in the running kernel's config, or ?
	local v=
	if [ -r /proc/config.gz ]; then
		v=$(zcat /proc/config.gz 2>/dev/null | sed -n "s/^$1=//p")
	elif [ -r "/boot/config-$(uname -r)" ]; then
		v=$(sed -n "s/^$1=//p" "/boot/config-$(uname -r)")
	fi
	echo "${v:-?}"
}
# The idle loop's driver: "none/0" without one, else DRIVER/N with N idle
# states on CPU 0. hzadvise reads it: with one state or none Linux's idle
# loop keeps the tick until it has run once after each idle entry.
cpuidle() {
	local d n=0 s
	d=$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null)
	case $d in '' | none) echo none/0; return ;; esac
	for s in /sys/devices/system/cpu/cpu0/cpuidle/state[0-9]*; do
		[ -d "$s" ] && n=$((n + 1))
	done
	echo "${d// /_}/$n"
}
mode=periodic
[ "$(kconfig CONFIG_NO_HZ_IDLE)" = y ] && mode=nohz_idle
[ "$(kconfig CONFIG_NO_HZ_FULL)" = y ] && mode=nohz_full

echo 0 >"$T/tracing_on"
echo "$bufkb" >"$T/buffer_size_kb"
if [ ${#pids[@]} -gt 0 ]; then
	echo "${pids[*]}" >"$T/set_event_pid"
else
	echo >"$T/set_event_pid"
fi
for e in "${events[@]}"; do
	echo 1 >"$T/events/$e/enable"
done
# Events left from before are not this recording's.
echo >"$T/trace"

{
	printf '# hzadvise record: kernel=%s config_hz=%s tick=%s cpus=%s seconds=%s pids=%s anonymized=%s date=%s cpuidle=%s\n' \
		"$(uname -r)" "$(kconfig CONFIG_HZ)" "$mode" "$(nproc)" "$secs" \
		"${pids[*]:-all}" "$anon" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(cpuidle)"
} >"$out" || exit 1

# The task column is "comm-pid". A kernel thread has PF_KTHREAD (0x200000)
# in the flags of /proc/PID/stat, the 7th field after the ")" that ends
# its name; a task already gone is taken for a user one.
anonymize='
function kernel_task(pid,    f, line, r, rest, w) {
	if (pid in kt)
		return kt[pid]
	f = "/proc/" pid "/stat"
	r = (getline line < f)
	close(f)
	kt[pid] = 0
	if (pid == 0)
		kt[pid] = 1
	else if (r > 0) {
		rest = line
		sub(/.*\) /, "", rest)
		split(rest, w, " ")
		kt[pid] = int(w[7] / 2097152) % 2
	}
	return kt[pid]
}
# sched_switch names both tasks: " prev_comm=NAME prev_pid=N" (a name may
# hold spaces: up to the one pid= of its side).
function anon_side(s, w,    p) {
	if (!match(s, " " w "_comm=.* " w "_pid=[0-9]+"))
		return s
	p = substr(s, RSTART, RLENGTH)
	sub(/.*_pid=/, "", p)
	if (p == 0 || kernel_task(p))
		return s
	return substr(s, 1, RSTART - 1) " " w "_comm=task " w "_pid=" p substr(s, RSTART + RLENGTH)
}
# The wakeups name the task woken: " comm=NAME pid=N prio=".
function anon_woken(s,    p) {
	if (!match(s, / comm=.* pid=[0-9]+ prio=/))
		return s
	p = substr(s, RSTART, RLENGTH)
	sub(/ prio=$/, "", p)
	sub(/.* pid=/, "", p)
	if (p == 0 || kernel_task(p))
		return s
	return substr(s, 1, RSTART - 1) " comm=task pid=" p " prio=" substr(s, RSTART + RLENGTH)
}
{
	if (index($0, " sched_switch: ")) {
		$0 = anon_side($0, "prev")
		$0 = anon_side($0, "next")
	} else if (index($0, " sched_waking: ") || index($0, " sched_wakeup: "))
		$0 = anon_woken($0)
	if (match($0, /-[0-9]+ +\[[0-9]+\]/)) {
		head = substr($0, 1, RSTART - 1)
		pid = substr($0, RSTART + 1)
		sub(/ .*/, "", pid)
		lead = head
		sub(/[^ ].*/, "", lead)
		comm = substr(head, length(lead) + 1)
		if (comm != "<idle>" && !kernel_task(pid))
			$0 = lead "task" substr($0, RSTART)
	}
	print
	fflush()
}'
# The reader takes what the ring buffer holds twice a second, without
# blocking. A reader that waits in trace_pipe is woken by every event, and
# on an idle CPU each such wakeup is an idle exit and entry, with timer
# events of its own: the recording would record itself.
drain() {
	dd if="$T/trace_pipe" iflag=nonblock bs=1M status=none 2>/dev/null
}
reader_loop() {
	while [ ! -e "$stop/stop" ]; do
		drain
		sleep 0.5
	done
	drain
}
filter=(cat)
[ $anon -eq 1 ] && filter=(awk "$anonymize")
reader_loop | "${filter[@]}" >>"$out" &
reader=$!
# Set last: a trigger runs (and counts) while tracing is off too.
if [ "$stacks" -gt 0 ] && echo "$trigger" >"$T/events/timer/timer_start/trigger" 2>/dev/null; then
	trig_on=1
fi
echo 1 >"$T/tracing_on"
echo "record.sh: recording into $out$([ "$secs" -gt 0 ] && echo " for $secs s"), Ctrl-C to stop" >&2
# Waiting in `wait`, not in a foreground sleep: bash runs a trap only
# when its foreground command ends, and `kill PID` (TERM to this script
# alone, not to its process group as Ctrl-C is) must stop it at once.
# The sleep is killed on the way out (restore()): left behind, it would
# hold the caller's stdout open for up to an hour.
if [ "$secs" -gt 0 ]; then
	sleep "$secs" &
	sleeper=$!
	wait $sleeper
else
	while :; do
		sleep 3600 &
		sleeper=$!
		wait $sleeper
	done
fi
restore
lines=$(($(wc -l <"$out") - 1))
echo "record.sh: $lines events in $out" >&2
