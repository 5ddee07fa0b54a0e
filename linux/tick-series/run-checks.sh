#!/bin/sh
# shellcheck shell=dash
# The tick-rate series' probe (issue 41), pid 1 of the guest
# (rdinit=/sbin/run-checks.sh, scripts/linux/tick.sh boot): what the
# kernel booted with, tickprobe, then power off. tickprobe_n=N on the
# command line (Linux hands it to init in the environment) sets the
# number of waits of each kind (100).
mount -t proc proc /proc 2>/dev/null
mount -t sysfs sysfs /sys 2>/dev/null
mount -t devtmpfs devtmpfs /dev 2>/dev/null
echo "== cmdline: $(cat /proc/cmdline)"
dmesg | grep -E "tick|clocksource|hrtimer|APIC timer|lapic|Switched to|cpuidle" | head -20
grep -E "Clock Event Device|^ *mode:|event_handler|Tick Device|max_delta_ns|min_delta_ns" /proc/timer_list | head -16
echo "== trace: what fires on a busy CPU (0.5 s)"
t=/sys/kernel/tracing
mount -t tracefs tracefs $t 2>/dev/null
if [ -w $t/set_event ]; then
	echo 'timer:hrtimer_expire_entry timer:timer_expire_entry irq_vectors:local_timer_entry' >$t/set_event
	echo >$t/trace
	echo 1 >$t/tracing_on
	/sbin/tickprobe spin 500
	echo 0 >$t/tracing_on
	grep -v '^#' $t/trace | sed -n 's/.* \([a-z_]*\): \(.*function=\([a-z_0-9]*\)\)\{0,1\}.*/\1 \3/p' |
		sort | uniq -c | sort -rn | head -8
	echo >$t/set_event
fi
# ticktrace on the command line: a trace of the timers phase, for a look
# at the idle CPU's tick (stops, the device programmed, wakeups), and of
# ticktrace_ms=MS (3) SO_RCVTIMEO waits on an idle CPU, around the late
# ones.
if [ -n "${ticktrace+set}" ] || grep -q ticktrace /proc/cmdline; then
	echo "== ticktrace: the timers phase"
	echo 'timer:tick_stop timer:timer_base_idle timer:hrtimer_start timer:hrtimer_expire_entry timer:timer_start timer:timer_expire_entry irq_vectors:local_timer_entry power:cpu_idle' >$t/set_event
	echo 4096 >$t/buffer_size_kb
	echo >$t/trace
	echo 1 >$t/tracing_on
	/sbin/tickprobe timers
	echo 0 >$t/tracing_on
	grep -v '^#' $t/trace | sed -n '2000,2150p'
	ms=${ticktrace_ms:-3}
	echo "== ticktrace: rcvtimeo $ms ms idle, the 40 events before each wait of $((ms + 2)) ms or more"
	echo >$t/trace
	echo 1 >$t/tracing_on
	/sbin/tickprobe wait rcvtimeo "$ms" 0 100
	echo 0 >$t/tracing_on
	grep -v '^#' $t/trace | awk -v min=$(((ms + 2) * 1000000)) '{ l[NR % 40] = $0 } / tickprobe waited / && $NF >= min && k++ < 3 {
		for (i = NR + 1; i <= NR + 40; i++) print l[i % 40]; print "--" }'
	echo >$t/set_event
fi
echo "== tickprobe"
# tickprobe_phase=rt (or timers, spin MS) on the command line: that alone
/sbin/tickprobe ${tickprobe_phase:-${tickprobe_n:-100}}
grep -E "LOC|timer" /proc/interrupts
echo "== dmesg warnings"
dmesg | grep -E -A5 "WARNING:|BUG:|Oops|Call Trace|Kernel panic" | head -40
echo "== probe done"
poweroff -f
