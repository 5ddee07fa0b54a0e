#!/bin/bash
# Debian's BusyBox on the reference kernel (run by `make check`).
#
# The initramfs of `make initramfs` is booted with
# init=/bin/busybox -- sh -c "...": the shell runs applets as children
# (fork, exec of /proc/self/exe, wait) at HZ 24, 100, 1000 and 10000 and
# in the constant (CONFIG_HZ=250) and debug builds, and what they print is
# checked against independent facts:
#
#   uptime     "up N min" after 65 s of sleep agrees with /proc/uptime read
#              just before and after, and its clock with the RTC's boot line
#   starttime  field 22 of /proc/self/stat of a cat that read /proc/uptime
#              first: within 3 ticks below 100 x uptime
#   cpu        the cpu line's user+nice+system+idle grows by 200 +- 2 across
#              sleep 2 (read by the shell's own read, no fork), and by what
#              /proc/uptime grew, +-3 (each field is rounded down on its
#              own); a sleep may end up to a jiffy late, so below HZ 100 the
#              upper bound grows by a jiffy in USER_HZ ticks
#   ps         lists the shell (pid 1) and itself
#   top        top -bn1 lists the shell and itself (its parent 1)
#   date       date +%s is the RTC's boot time plus the uptime, +-2 s, and
#              date's text says the same second
#   pipe       seq 1 20000 | tail -1 (106 KiB through a pipe) says 20000,
#              $(...) gives a child's output, ps | grep finds the shell
#
# Each boot must also end with exit status 33. One result per case and boot.
#
#	tests/busybox/check.sh [name-regex]
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

qemu_suite busybox "$1"
if ! make --no-print-directory initramfs >"$out/initramfs.log" 2>&1; then
	record fail "busybox: make initramfs"
	tail -5 "$out/initramfs.log" >&2
	exit 0
fi
build_kernels busybox "$out"

# One line for the kernel's command line: no double quotes inside. The
# shell expands its own variables.
script='sleep 65; echo @uptime; cat /proc/uptime; uptime; cat /proc/uptime;'
script+=' echo @start; cat /proc/uptime /proc/self/stat;'
script+=' read s1 < /proc/stat; read u1 x < /proc/uptime; sleep 2;'
# shellcheck disable=SC2016
script+=' read s2 < /proc/stat; read u2 x < /proc/uptime; echo @cpu $s1 / $u1 / $s2 / $u2;'
script+=' echo @ps; /bin/busybox ps; echo @top; top -bn1;'
script+=' echo @date; cat /proc/uptime; date; date +%s; cat /proc/uptime;'
# shellcheck disable=SC2016
script+=' echo @pipe; /bin/busybox seq 1 20000 | tail -1; echo sub $(echo stituted);'
script+=' ps | grep -c sh.-c; echo @end'

cases=("hz24 variable 24" "hz100 variable 100" "hz1000 variable 1000" "hz10000 variable 10000"
	"constant constant 250" "debug debug 250")
running=0
for c in "${cases[@]}"; do
	read -r name build hz <<<"$c"
	[[ $name =~ $filter ]] || continue
	[ -n "${elf[$build]}" ] || continue
	(
		QEMU_ARGS="-initrd build/x86/initramfs.cpio" qemu_boot 120 "${elf[$build]}" \
			"hz=$hz init=/bin/busybox -- sh -c \"$script\"" "$out/$name.log"
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
check_uptime() { # log
	section "$1" uptime | awk '
		NR == 1 { before = $1 } NR == 2 { line = $0 } NR == 3 { after = $1 }
		END {
			if (!match(line, /up +[0-9]+ min/)) { print "no \"up N min\" in: " line; exit }
			n = substr(line, RSTART, RLENGTH); gsub(/[^0-9]/, "", n)
			if (n < int(before / 60) || n > int(after / 60))
				printf "uptime says %d min, /proc/uptime %s to %s s\n", n, before, after
		}'
	section "$1" uptime | awk -v rtc="$(sed -n 's/^rtc: .*(\([0-9]*\))$/\1/p' "$1")" '
		NR == 1 { before = $1 } NR == 2 { split($1, t, ":") } NR == 3 { after = $1 }
		END {
			want = (rtc + before) % 86400; got = t[1] * 3600 + t[2] * 60 + t[3]
			d = got - want; if (d < -43200) d += 86400; if (d > 43200) d -= 86400
			if (rtc == "" || d < -2 || d > 2 + after - before)
				printf "uptime clock %02d:%02d:%02d, RTC at boot %s + %s s\n", t[1], t[2], t[3], rtc, before
		}'
}

check_starttime() { # log
	section "$1" start | awk '
		NR == 1 { up = $1 }
		NR == 2 { st = $22 }
		END {
			d = up * 100 - st
			if (st == "" || d < -0.5 || d > 3)
				printf "starttime %s, 100 x uptime %s\n", st, up * 100
		}'
}

check_cpu() { # log hz
	grep -m1 '^@cpu ' "$1" | awk -v hz="$2" '
		{
			n = split($0, f, " / ")
			split(f[1], a, " "); split(f[3], b, " ")
			g = (b[3] + b[4] + b[5] + b[6]) - (a[3] + a[4] + a[5] + a[6])
			u = (f[4] - f[2]) * 100
			hi = 202 + (hz < 100 ? int((100 + hz - 1) / hz) : 0)
			if (n != 4 || a[2] != "cpu") { print "no cpu line: " $0; exit }
			printf "grew by %d (uptime %d)\n", g, u > "/dev/stderr"
			if (g < 198 || g > hi) printf "cpu fields grew by %d, not 198..%d\n", g, hi
			if (g - u > 3 || u - g > 3) printf "cpu fields grew by %d, uptime by %d\n", g, u
		}' 2>"$out/$name.cpu"
}

check_ps() { # log
	section "$1" ps | awk '
		$1 == 1 && /sh -c/ { shell = 1 }
		$1 > 1 && /\/bin\/busybox ps$/ { self = 1 }
		END {
			if (!shell) print "ps does not list the shell (pid 1)"
			if (!self) print "ps does not list itself"
		}'
}

check_top() { # log
	section "$1" top | awk '
		/^Mem:/ { mem = 1 } /^Load average:/ { load = 1 }
		$1 == 1 && $2 == 0 && /sh -c/ { shell = 1 }
		$1 > 1 && $2 == 1 && /top -bn1$/ { self = 1 }
		END {
			if (!mem || !load) print "no Mem: or Load average: line"
			if (!shell) print "top does not list the shell (pid 1)"
			if (!self) print "top does not list itself (parent 1)"
		}'
}

check_date() { # log
	local rtc text epoch want
	rtc=$(sed -n 's/^rtc: .*(\([0-9]*\))$/\1/p' "$1")
	mapfile -t d < <(section "$1" date)
	text=$(date -u -d "${d[1]}" +%s 2>/dev/null)
	epoch=${d[2]}
	if [ -z "$rtc" ] || [ -z "$text" ] || ! [[ $epoch =~ ^[0-9]+$ ]]; then
		echo "no rtc line, date or date +%s: '${d[1]}' '${d[2]}'"
		return
	fi
	want=$(awk -v r="$rtc" -v a="${d[0]%% *}" 'BEGIN { printf "%d", r + a }')
	[ $((epoch - want)) -ge -2 ] && [ $((epoch - want)) -le 2 ] ||
		echo "date +%s $epoch, RTC at boot $rtc + uptime ${d[0]%% *} s = $want"
	[ $((epoch - text)) -ge 0 ] && [ $((epoch - text)) -le 1 ] ||
		echo "date says '${d[1]}' ($text), date +%s $epoch"
}

check_pipe() { # log
	section "$1" pipe | awk '
		NR == 1 && $0 != "20000" { print "seq | tail -1 gave: " $0 }
		NR == 2 && $0 != "sub stituted" { print "$(echo stituted) gave: " $0 }
		NR == 3 && $0 < 1 { print "ps | grep -c found no shell: " $0 }
		END { if (NR < 3) print "only " NR " lines" }'
}

for c in "${cases[@]}"; do
	read -r name build hz <<<"$c"
	[[ $name =~ $filter ]] || continue
	[ -f "$out/$name.rc" ] || continue
	rc=$(cat "$out/$name.rc")
	boot=()
	[ "$rc" -eq 33 ] || boot+=("exit status $rc, not 33")
	grep -q '^@end' "$out/$name.log" || boot+=("the script did not finish")
	for chk in uptime starttime cpu ps top date pipe; do
		mapfile -t problems < <(check_$chk "$out/$name.log" "$hz")
		report "busybox: $chk [$name]" "${boot[@]}" "${problems[@]}"
		if [ "$chk" = cpu ]; then
			sed "s/^/  [$name] cpu fields /" "$out/$name.cpu"
		fi
	done
done
