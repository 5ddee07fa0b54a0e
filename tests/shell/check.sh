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

cases=("hz24 24" "hz100 100" "hz1000 1000" "hz10000 10000")
running=0
for c in "${cases[@]}"; do
	read -r name hz <<<"$c"
	[[ $name =~ $filter ]] || continue
	[ -n "${elf[variable]}" ] || continue
	(
		QEMU_ARGS="-initrd $out/initramfs.cpio" qemu_boot 120 "${elf[variable]}" \
			"hz=$hz init=/test.sh" "$out/$name.log"
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
		}' 2>"$out/$name.times"
}

check_pipe() { # log
	section "$1" pipe | awk '
		$1 == "cpu" && NF == 11 { cpu = $0; sub(/^cpu +/, "", cpu) }
		$1 == "cpu0" && NF == 11 { cpu0 = $0; sub(/^cpu0 +/, "", cpu0) }
		END {
			if (NR != 2) print "cat /proc/stat | grep cpu gave " NR " lines, not 2"
			if (cpu == "" || cpu != cpu0) print "no cpu and cpu0 lines alike"
		}'
}

check_top() { # log
	section "$1" top | awk '
		$1 == "busy" { busy = $2 }
		$1 == busy && $7 ~ /%$/ { pct = $7; sub(/%/, "", pct); seen = 1 }
		$1 == "busy-status" { st = $2 }
		END {
			if (!seen) print "top -bn1 does not list the busy child " busy
			else if (pct < 80) print "top shows the busy child at " pct " %CPU"
			if (st != 137) print "kill -KILL of the busy child: status " st ", not 137"
		}'
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
		END { for (s in num) if (!seen[s]) print "no line for kill -" s }'
}

check_forks() { # log
	section "$1" forks | awk '
		$1 == "memfree" { m0 = $2; m1 = $3 } $1 == "forks" { f = $3 - $2 }
		$1 == "procs" { n = $2; z = $4 }
		END {
			if (m0 == "" || m0 != m1) printf "MemFree %s kB before, %s kB after\n", m0, m1
			if (f != 200) printf "/proc/stat processes grew by %s, not 200\n", f
			if (n != 1 || z != 0) printf "%s processes, %s zombies left, not 1 and 0\n", n, z
		}'
}

for c in "${cases[@]}"; do
	read -r name hz <<<"$c"
	[[ $name =~ $filter ]] || continue
	[ -f "$out/$name.rc" ] || continue
	rc=$(cat "$out/$name.rc")
	boot=()
	[ "$rc" -eq 33 ] || boot+=("exit status $rc, not 33")
	grep -q '^@end' "$out/$name.log" || boot+=("the script did not finish")
	for chk in times pipe top kill forks; do
		mapfile -t problems < <(check_$chk "$out/$name.log")
		report "shell: $chk [$name]" "${boot[@]}" "${problems[@]}"
		if [ "$chk" = times ]; then
			sed "s/^/  [$name] /" "$out/$name.times"
		fi
	done
done
