#!/bin/bash
# BusyBox's sh as init, as a user's shell uses processes, signals and the
# children's CPU time (run by `make check`).
#
# tests/shell/shelltest.sh is the initramfs's /test.sh (a #! script the
# kernel hands to /bin/sh), booted with init=/test.sh at HZ 24, 100, 1000
# and 10000. What it prints is judged here against facts it cannot make
# up:
#
#   times   /burn.sh (a #! script) loops until /proc/uptime has moved
#           0.4 s, under BusyBox's time: its real time is 0.40 s or a
#           little more, its user + sys the same within 0.02 s (alone on
#           the CPU, CPU time is wall time), and the children's fields of
#           the shell's times grow by that user + sys within 0.01 s
#   pipe    cat /proc/stat | grep cpu gives the cpu and cpu0 lines
#   top     top -bn1 shows a busy child (while :; do :; done) at 80 %CPU
#           or more; kill -KILL ends it with status 137
#   kill    a sleeping child killed with TERM, KILL, USR1 and HUP ends at
#           once (within 0.05 s of /proc/uptime) with status 128 + the
#           signal's Linux number (15, 9, 10, 1), and leaves /proc
#   forks   200 forks (100 subshells, 100 fork+exec of /bin/true) after a
#           warm-up: /proc/stat's processes grows by exactly 200, MemFree
#           is the same before and after, and no process but the shell
#           is left, no zombie
#   time    the kernel's time facts as files: /proc/cmdline is the boot's
#           cmdline: line; /proc/dynhz's time: line is the boot's, its
#           HZ, device and nohz what the command line asked, highres
#           what the boot's hrtimer: line said, its period
#           the PIT's divisor formula ((1193182 + HZ/2) / HZ over 1193182
#           s) or 1/HZ on the local APIC, its tick_ns, rate and ppm that
#           period's, its jiffies since boot its uptime over the period
#           (within 2 and the 1 ms between the tick's start and the
#           clock's at boot), its timer interrupts as many as the jiffies with
#           nohz=off (plus at most one per hrtimer expired, in high resolution); /proc/timer_list's HZ, device and period the same,
#           as many #n lines as it says are pending, the load average's
#           timer due within 5 s (Linux's LOAD_FREQ, plus a jiffy) and
#           the console's receiver poll (serial_poll=7) within 70 ms, in
#           jiffies of that period
#
# Each boot must also end with exit status 33. One result per case and
# boot.
#
#	tests/shell/check.sh [name-regex]
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

qemu_suite shell "$1"
if ! make --no-print-directory initramfs >"$out/initramfs.log" 2>&1; then
	record fail "shell: make initramfs"
	tail -5 "$out/initramfs.log" >&2
	exit 0
fi
build_kernels shell "$out"
root=$out/root
rm -rf "$root"
cp -a build/x86/initramfs-root "$root"
install -m 0755 tests/shell/shelltest.sh "$root/test.sh"
install -m 0755 tests/shell/burn.sh "$root/burn.sh"
(bash scripts/cpio-devnodes.sh && cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
	cpio -o -H newc -R 0:0 --quiet) >"$out/initramfs.cpio"

# name, HZ, what else the command line says (the time files must follow it)
cases=("hz24 24 -" "hz100 100 clockevent=lapic" "hz1000 1000 nohz=off" "hz10000 10000 -")
running=0
for c in "${cases[@]}"; do
	read -r name hz more <<<"$c"
	[[ $name =~ $filter ]] || continue
	[ -n "${elf[variable]}" ] || continue
	[ "$more" = - ] && more=""
	(
		QEMU_ARGS="-initrd $out/initramfs.cpio" qemu_boot 120 "${elf[variable]}" \
			"hz=$hz ${more:+$more }serial_poll=7 init=/test.sh" "$out/$name.log"
		echo $? >"$out/$name.rc"
	) &
	throttle
done
wait

# section LOG NAME: the lines after "@NAME" up to the next "@" marker.
section() {
	awk -v s="@$2" '$1 ~ /^@/ { on = ($1 == s); next } on' "$1"
}

# The checks print nothing when they pass, one line per problem otherwise.
check_times() { # log
	{
		section "$1" times-before | sed -n 2p
		section "$1" time
		section "$1" times-after | sed -n 2p
	} | awk '
		# "1m2.345s" or "1m 2.34s" as seconds
		function sec(m, s) { sub(/m$/, "", m); sub(/s$/, "", s); return m * 60 + s }
		NR == 1 { c0 = sec(substr($1, 1, index($1, "m")), substr($1, index($1, "m") + 1)) + \
			sec(substr($2, 1, index($2, "m")), substr($2, index($2, "m") + 1)) }
		$1 == "real" { real = sec($2, $3) } $1 == "user" { user = sec($2, $3) }
		$1 == "sys" { sys = sec($2, $3) }
		NR == 5 { c1 = sec(substr($1, 1, index($1, "m")), substr($1, index($1, "m") + 1)) + \
			sec(substr($2, 1, index($2, "m")), substr($2, index($2, "m") + 1)) }
		END {
			cpu = user + sys; d = c1 - c0
			printf "real %.2f, user+sys %.2f, children %.3f\n", real, cpu, d > "/dev/stderr"
			if (NR != 5) { print "expected 5 lines of times and time, got " NR; exit }
			if (real < 0.40 || real > 0.45) printf "time: real %.2f s, not 0.40 to 0.45\n", real
			if (cpu - real > 0.02 || real - cpu > 0.02)
				printf "time: user+sys %.2f s, real %.2f s: more than 0.02 s apart\n", cpu, real
			if (d - cpu > 0.0101 || cpu - d > 0.0101)
				printf "times: children grew by %.3f s, time says %.2f s\n", d, cpu
		}' 2>"$out/$name.times" || echo "the check's awk failed"
}

check_pipe() { # log
	section "$1" pipe | awk '
		$1 == "cpu" && NF == 11 { cpu = $0; sub(/^cpu +/, "", cpu) }
		$1 == "cpu0" && NF == 11 { cpu0 = $0; sub(/^cpu0 +/, "", cpu0) }
		END {
			if (NR != 2) print "cat /proc/stat | grep cpu gave " NR " lines, not 2"
			if (cpu == "" || cpu != cpu0) print "no cpu and cpu0 lines alike"
		}' || echo "the check's awk failed"
}

check_top() { # log
	section "$1" top | awk '
		$1 == "busy" { busy = $2 }
		$1 == busy && $7 ~ /%$/ { pct = $7; sub(/%/, "", pct); pct += 0; seen = 1 }
		$1 == "busy-status" { st = $2 }
		END {
			if (!seen) print "top -bn1 does not list the busy child " busy
			else if (pct < 80) print "top shows the busy child at " pct " %CPU"
			if (st != 137) print "kill -KILL of the busy child: status " st ", not 137"
		}' || echo "the check's awk failed"
}

check_kill() { # log
	section "$1" kill | grep -E '^(TERM|KILL|USR1|HUP) ' | awk '
		BEGIN { num["TERM"] = 15; num["KILL"] = 9; num["USR1"] = 10; num["HUP"] = 1 }
		{
			seen[$1] = 1
			if ($3 != 128 + num[$1]) printf "kill -%s: status %s, not %d\n", $1, $3, 128 + num[$1]
			if ($4 > 5) printf "kill -%s: the child ended %s hundredths later\n", $1, $4
			if ($5 != "yes") printf "kill -%s: /proc/%s still there\n", $1, "pid"
		}
		END { for (s in num) if (!seen[s]) print "no line for kill -" s }' || echo "the check's awk failed"
}

check_forks() { # log
	section "$1" forks | awk '
		$1 == "memfree" { m0 = $2; m1 = $3 } $1 == "forks" { f = $3 - $2 }
		$1 == "procs" { n = $2; z = $4 }
		END {
			if (m0 == "" || m0 != m1) printf "MemFree %s kB before, %s kB after\n", m0, m1
			if (f != 200) printf "/proc/stat processes grew by %s, not 200\n", f
			if (n != 1 || z != 0) printf "%s processes, %s zombies left, not 1 and 0\n", n, z
		}' || echo "the check's awk failed"
}

check_time() { # log hz more
	local cmdline boot_time
	cmdline=$(sed -n 's/^cmdline: //p' "$1" | head -1)
	boot_time=$(grep -m1 '^time: hz=' "$1")
	[ "$(section "$1" cmdline)" = "$cmdline" ] ||
		echo "/proc/cmdline is not the boot's cmdline: line '$cmdline'"
	{
		echo "boot $boot_time"
		section "$1" dynhz | sed 's/^/dynhz /'
		section "$1" timer_list | sed 's/^/list /'
	} | awk -v hz="$2" -v more="$3" -v hres="$(grep -c '^hrtimer: high resolution on ' "$1")" '
		function abs(x) { return x < 0 ? -x : x }
		$1 == "boot" { sub(/^boot /, ""); boot = $0; next }
		$1 == "dynhz" { sub(/^dynhz /, ""); k = $1; sub(/:$/, "", k); v = $0
			sub(/^[^:]*: /, "", v); d[k] = v; if (k == "time") dtime = $0; next }
		$1 == "list" && $2 == "HZ:" { lhz = $3 }
		$1 == "list" && $2 == "Clock" && $3 == "Event" { ldev = $5 }
		$1 == "list" && $2 == "period:" { lperiod = $3 }
		$1 == "list" && $2 == "pending" { pend = $3; sub(/,$/, "", pend) }
		$1 == "list" && $2 == "hrtimers:" && $(NF) == "expired" { hrexp = $(NF - 1) }
		$1 == "list" && $3 == "more" && $4 == "not" { more_timers = substr($2, 2) }
		$1 == "list" && $2 ~ /^#[0-9]+:$/ {
			lines++
			match($0, /in -?[0-9]+ jiffies/); n = substr($0, RSTART + 3, RLENGTH - 11)
			if ($0 ~ /the load average/) load = n
			if ($0 ~ /receiver poll/) poll = n
		}
		END {
			lapic = more ~ /clockevent=lapic/
			dev = lapic ? "lapic" : "pit"
			if (lapic) { num = 1; den = hz } else { num = int((1193182 + int(hz / 2)) / hz); den = 1193182 }
			period = num / den
			if (dtime != boot) printf "/proc/dynhz %s, the boot said %s\n", dtime, boot
			if (d["hz"] != hz || d["clockevent"] != dev || d["user_hz"] != 100)
				printf "/proc/dynhz: hz %s, clockevent %s, user_hz %s: not %s, %s, 100\n", d["hz"], d["clockevent"], d["user_hz"], hz, dev
			if (d["nohz"] != (more ~ /nohz=off/ ? "off" : "on")) print "/proc/dynhz: nohz " d["nohz"]
			if (d["highres"] != (hres ? "on" : "off"))
				printf "/proc/dynhz: highres %s, the boot said %s\n", d["highres"], hres ? "on" : "off"
			if (d["tick_period_s"] != num "/" den)
				printf "/proc/dynhz: period %s s, not %d/%d\n", d["tick_period_s"], num, den
			if (abs(d["tick_ns"] - period * 1e9) > 0.0006)
				printf "/proc/dynhz: tick_ns %s, not %.3f\n", d["tick_ns"], period * 1e9
			if (abs(d["rate_hz"] - 1 / period) > 0.0006)
				printf "/proc/dynhz: rate %s Hz, not %.3f\n", d["rate_hz"], 1 / period
			ppm = (1 / period / hz - 1) * 1e6
			if (abs(d["ppm"] - ppm) > 0.0006) printf "/proc/dynhz: ppm %s, not %.3f\n", d["ppm"], ppm
			# 32-bit jiffies start 300 s before the wrap (Linux INITIAL_JIFFIES)
			# The jiffies count from the start of the tick, the clock from the start of timekeeping,
			# up to 1 ms later (the boot report is printed between).
			ticks = d["jiffies_64"] - (4294967296 - 300 * hz)
			j = d["uptime_ns"] / 1e9 / period
			if (ticks < j - 2 || ticks > j + 2 + 0.001 / period)
				printf "/proc/dynhz: %d jiffies since boot, uptime %s ns / period = %.1f\n", ticks, d["uptime_ns"], j
			# In high resolution an hrtimer (a program'"'"'s sleep) that expires between two
			# ticks is an interrupt of its own: at most one more per hrtimer expired.
			extra = hres ? hrexp + 0 : 0
			if (more ~ /nohz=off/ &&
			    (d["timer_interrupts"] < ticks - 2 || d["timer_interrupts"] > ticks + extra + 2))
				printf "/proc/dynhz: %s timer interrupts in %d periodic jiffies (%d hrtimers expired)\n", d["timer_interrupts"], ticks, extra
			if (lhz != hz || ldev != dev || lperiod != num "/" den)
				printf "/proc/timer_list: HZ %s, device %s, period %s\n", lhz, ldev, lperiod
			if (pend == "" || pend != lines + more_timers)
				printf "/proc/timer_list: pending %s, %d timers listed\n", pend, lines + more_timers
			if (load == "" || load + 0 < 1 || load + 0 > int(5 / period) + 2)
				printf "/proc/timer_list: the load average timer due in %s jiffies, not 1..%d\n", load, int(5 / period) + 2
			pj = int(0.07 / period); if (pj < 0.07 / period) pj++
			if (poll == "" || poll + 0 < 0 || poll + 0 > pj)
				printf "/proc/timer_list: the receiver poll due in %s jiffies, not 0..%d\n", poll, pj
		}' || echo "the check's awk failed"
}

for c in "${cases[@]}"; do
	read -r name hz more <<<"$c"
	[[ $name =~ $filter ]] || continue
	[ -f "$out/$name.rc" ] || continue
	rc=$(cat "$out/$name.rc")
	[ "$more" = - ] && more=""
	boot=()
	[ "$rc" -eq 33 ] || boot+=("exit status $rc, not 33")
	grep -q '^@end' "$out/$name.log" || boot+=("the script did not finish")
	for chk in times pipe top kill forks time; do
		mapfile -t problems < <(check_$chk "$out/$name.log" "$hz" "$more")
		report "shell: $chk [$name]" "${boot[@]}" "${problems[@]}"
		if [ "$chk" = times ]; then
			sed "s/^/  [$name] /" "$out/$name.times"
		fi
	done
done
