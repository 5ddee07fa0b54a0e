#!/bin/bash
# bench/linux: what boot-time HZ costs Linux (issues 29 and 40, item 7).
# The patched kernel booted with hz=N against stock 6.12 built with
# CONFIG_HZ=N, N = 250 and 1000, x86_64, the port's configuration (-O2 as
# distributions build; KUnit built into both, not run: kunit.enable=0;
# the patched kernel without CONFIG_HZ_DYNAMIC_DEBUG, build kind release),
# under QEMU -icount shift=0,sleep=off with one CPU
# (scripts/linux/boot.sh, mode bench): a nanosecond of guest time is one
# guest instruction, idle time is skipped, so what is measured is
# instructions, not the host's speed or load. Both kernels boot the same
# initramfs with check=timerload (tests/linux/timerload.c: two processes
# taking turns through waits with timeouts that never expire, so every
# wait arms and cancels a timer, on poll, select, epoll, ppoll, a futex,
# SO_RCVTIMEO on a Unix socket, a pty with VTIME, sigtimedwait, then
# timerfd armed and disarmed and 0 ns nanosleeps; then a TCP ping-pong on
# the loopback and fork; 2000 rounds of each).
#
# Figures, side by side with their ratio patched / stock (target <= 1.01):
#   - each kind of work and the total, guest ns (= instructions);
#   - boot to init: the printk time stamp of "Run /init as init process"
#     and timerload's CLOCK_BOOTTIME at its start (the boot, /init and
#     run-checks; idle gaps skipped);
#   - the divides the kernel executed in each kind (bench/linux/divcount.c,
#     a QEMU plugin loaded into every boot, counts them between
#     timerload's marks): -icount charges a divide one instruction, where
#     a 64-bit divide takes tens of cycles on hardware; so a second ratio
#     prices each divide at LINUX_BENCH_DIV_CYCLES (40) instructions, and
#     the functions that executed more divides than stock's are listed;
#   - vmlinux's code (its functions' sizes summed, lx_code_size), text,
#     data and bss (size(1)); the patched kernel carries the KUnit suite
#     kernel/time/hz_kunit.o as well, shown apart. On x86_64 the text does
#     not show the code's growth: .text is padded to a 2 MB boundary.
# LINUX_BENCH_RUNS=K boots each kernel K times and the table has the
# median of each row (1 by default; the spread over the runs is printed:
# -icount makes the guest's instructions the clock, but not every boot
# does the same work in a 2000-round window).
# A Markdown table goes to build/bench/linux.md; logs in build/bench/linux/.
set -o pipefail
cd "$(dirname "$0")/../.." || exit 1
source scripts/linux/lib.sh
source scripts/linux/boot.sh
export LC_ALL=C
out=build/bench/linux
md=build/bench/linux.md
runs=${LINUX_BENCH_RUNS:-1}
mkdir -p "$out"
rm -f "$out"/*.log "$out"/*.rc "$out"/*.err "$out"/*.time "$out"/*.qemu "$out"/*.div "$out"/*.fig "$out"/*.func
bash scripts/deps.sh linux >/dev/null || exit 1
divcost=${LINUX_BENCH_DIV_CYCLES:-40}
plugin=$PWD/$out/divcount.so
if ! gcc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$plugin" bench/linux/divcount.c 2>"$out/divcount.log"; then
	echo "bench/linux: the divcount plugin does not build: $(head -1 "$out/divcount.log")" >&2
	exit 1
fi

kernel() { # KIND [HZ]: builds, prints the image
	if ! bash scripts/linux/build.sh x86_64 "$@" >"$out/build-$1${2:+-$2}.log" 2>&1; then
		echo "bench/linux: the build of $1 ${2:-} failed ($out/build-$1${2:+-$2}.log)" >&2
		exit 1
	fi
	bash scripts/linux/build.sh --print x86_64 "$@"
}
# LINUX_BENCH_HZ="250" leaves 1000 out (its columns then read 0).
bench_hz=${LINUX_BENCH_HZ:-250 1000}
s250=$(kernel stock 250) || exit 1
s1000=
case " $bench_hz " in *" 1000 "*) s1000=$(kernel stock 1000) || exit 1 ;; esac
p=$(kernel release) || exit 1
bash tests/linux/payload.sh x86_64 >"$out/payload.log" 2>&1 &&
	bash scripts/linux/initramfs.sh x86_64 "$out/initramfs.cpio" build/linux-payload/x86_64 >>"$out/payload.log" 2>&1 ||
	{ echo "bench/linux: the payload failed ($out/payload.log)" >&2; exit 1; }

specs=()
for r in $(seq 1 "$runs"); do
	for n in $bench_hz; do
		k=s$n
		for b in "stock$n-$r|${!k}" "hz$n-$r|$p"; do
			specs+=("${b%%|*}|x86_64|${b#*|}|$out/initramfs.cpio|hz=$n nokaslr kunit.enable=0 check=timerload|bench|1800|-plugin $plugin,out=$PWD/$out/${b%%|*}.div")
		done
	done
done
lx_boot_list "$out" "${specs[@]}"
bad=0
for s in "${specs[@]}"; do
	b=${s%%|*}
	if [ "$(cat "$out/$b.rc")" != 0 ] || ! grep -q '^timerload: total ' "$out/$b.log"; then
		echo "bench/linux: boot $b did not finish ($out/$b.log)" >&2
		bad=1
	fi
done
[ $bad = 0 ] || exit 1

# figures BOOT: "NAME NS" lines: each kind, total, boot, init (ns).
figures() {
	awk '/^timerload: [a-z0-9_]+ [0-9]+ rounds [0-9]+ ns$/ { print $2, $5 }
	     /^timerload: total [0-9]+ ns$/ { print "total", $3 }
	     /^timerload: boot [0-9]+ ns$/ { print "timerload-start", $3 }
	     /^\[ *[0-9.]+\] Run .* as init process/ { t = $0; sub(/^\[ */, "", t); sub(/\].*/, "", t); printf "init %.0f\n", t * 1e9 }' "$out/$1.log"
}
# divs BOOT: "div-KIND N" lines: the kernel's divides in each kind (the
# plugin's spans between marks, in timerload's order) and in all.
divs() {
	awk 'FNR == NR { if ($0 ~ /^timerload: [a-z0-9_]+ [0-9]+ rounds [0-9]+ ns$/) kind[n++] = $2; next }
	     $1 == "phase" && ($2 in kind) { print "div-" kind[$2], $8; t += $8 }
	     END { print "div-total", t + 0 }' "$out/$1.log" "$out/$1.div"
}
for s in "${specs[@]}"; do
	b=${s%%|*}
	{ figures "$b"; divs "$b"; } >"$out/$b.fig"
	k=$(echo "$s" | cut -d'|' -f3)
	bash bench/linux/divfuncs.sh "$out/$b.div" "${k%/arch/*}/System.map" >"$out/$b.func"
done

# vmlinux sizes: text data bss (size's Berkeley format).
sizes() { size "$1" | awk 'NR == 2 { print $1, $2, $3 }'; }
read -r st2 sd2 sb2 <<<"$(sizes "${s250%/arch/*}/vmlinux")"
st1=0 sd1=0 sb1=0
[ -n "$s1000" ] && read -r st1 sd1 sb1 <<<"$(sizes "${s1000%/arch/*}/vmlinux")"
read -r pt pd pb <<<"$(sizes "${p%/arch/*}/vmlinux")"
read -r kt kd kb <<<"$(sizes "${p%/arch/*}/kernel/time/hz_kunit.o")"
sc2=$(lx_code_size "${s250%/arch/*}/vmlinux") sc1=0
[ -n "$s1000" ] && sc1=$(lx_code_size "${s1000%/arch/*}/vmlinux")
pc=$(lx_code_size "${p%/arch/*}/vmlinux") kc=$(lx_code_size "${p%/arch/*}/kernel/time/hz_kunit.o")

{
	echo "| x86_64, guest ns (-icount shift=0: instructions) | stock 250 | hz=250 | ratio | stock 1000 | hz=1000 | ratio |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
	awk -v runs="$runs" -v dir="$out" -v c="$divcost" '
	# The median of a row'"'"'s runs: one run can carry a stray piece of
	# work (a kworker, a timer of the kernel'"'"'s own) that a mean would
	# spread over the row.
	function median(x, i,    n, a, j, k, t) {
		n = cnt[x, i]
		if (!n) return 0
		for (j = 1; j <= n; j++) a[j] = v[x, i, j]
		for (j = 2; j <= n; j++)
			for (k = j; k > 1 && a[k - 1] > a[k]; k--) { t = a[k]; a[k] = a[k - 1]; a[k - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	BEGIN {
		split("stock250 hz250 stock1000 hz1000", b, " ")
		for (i = 1; i <= 4; i++)
			for (r = 1; r <= runs; r++) {
				f = dir "/" b[i] "-" r ".fig"
				while ((getline l < f) > 0) {
					split(l, w, " ")
					if (!(w[1] in seen)) { seen[w[1]] = 1; order[++n] = w[1] }
					v[w[1], i, ++cnt[w[1], i]] = w[2]
					if (!((w[1], i) in lo) || w[2] < lo[w[1], i]) lo[w[1], i] = w[2]
					if (!((w[1], i) in hi) || w[2] > hi[w[1], i]) hi[w[1], i] = w[2]
				}
				close(f)
			}
		for (k = 1; k <= n; k++) {
			x = order[k]
			for (i = 1; i <= 4; i++) m[i] = median(x, i)
			if (x ~ /^div-/) continue
			label = x == "init" ? "boot to \"Run /init\" (printk)" : x == "timerload-start" ? "boot to timerload (CLOCK_BOOTTIME)" : x == "total" ? "**timerload total**" : x " (2000 rounds)"
			printf "| %s | %.0f | %.0f | %.4f | %.0f | %.0f | %.4f |\n", label, m[1], m[2], m[1] ? m[2] / m[1] : 0, m[3], m[4], m[3] ? m[4] / m[3] : 0
			if (runs > 1)
				for (i = 1; i <= 4; i++)
					if (hi[x, i] > lo[x, i] * 1.002)
						spread = spread sprintf("%s %s: %.0f..%.0f; ", b[i], x, lo[x, i], hi[x, i])
		}
		if (spread != "") print "\nSpread over " runs " runs (above 0.2 %): " spread > "/dev/stderr"
		# The divides, medians too, and the total priced in cycles.
		printf "\n| x86_64, divides the kernel executed; cycles = instructions + %d per divide | stock 250 | hz=250 | difference | stock 1000 | hz=1000 | difference |\n", c - 1
		print "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
		for (k = 1; k <= n; k++) {
			x = order[k]
			if (x !~ /^div-/) continue
			for (i = 1; i <= 4; i++) m[i] = median(x, i)
			kind = substr(x, 5)
			printf "| %s divides | %d | %d | %+d | %d | %d | %+d |\n", (kind == "total" ? "**all**" : kind), m[1], m[2], m[2] - m[1], m[3], m[4], m[4] - m[3]
		}
		for (i = 1; i <= 4; i++) cyc[i] = median("total", i) + (c - 1) * median("div-total", i)
		printf "| **timerload total, cycles** | %.0f | %.0f | %.4f | %.0f | %.0f | %.4f |\n", cyc[1], cyc[2], cyc[1] ? cyc[2] / cyc[1] : 0, cyc[3], cyc[4], cyc[3] ? cyc[4] / cyc[3] : 0
	}'
	echo
	for n in 250 1000; do
		[ -s "$out/hz$n-1.func" ] || continue
		echo "Functions executing more divides at hz=$n than stock $n (timerload's spans; run 1): $(join -a2 -e0 -o 0,1.2,2.2 <(sort "$out/stock$n-1.func") <(sort "$out/hz$n-1.func") |
			awk '$3 > $2 { print $3 - $2, $1 }' | sort -rn | head -12 | awk '{ printf "%s%s +%d", (NR > 1 ? ", " : ""), $2, $1 }')."
		echo
	done
	echo "| vmlinux (size) | stock 250 | stock 1000 | patched | patched - stock 250 |"
	echo "| --- | ---: | ---: | ---: | ---: |"
	for f in code text data bss; do
		case $f in
		code) a=$sc2 b=$sc1 c=$pc ;;
		text) a=$st2 b=$st1 c=$pt ;;
		data) a=$sd2 b=$sd1 c=$pd ;;
		bss) a=$sb2 b=$sb1 c=$pb ;;
		esac
		awk -v f="$f" -v a="$a" -v b="$b" -v c="$c" 'BEGIN { printf "| %s | %d | %d | %d | %+d (%+.3f %%) |\n", f, a, b, c, c - a, (c - a) * 100 / a }'
	done
	awk -v k="$kc" -v t="$kt" -v d="$kd" -v b="$kb" -v pc="$pc" -v sc="$sc2" 'BEGIN {
		printf "\nOf the patched code, %d bytes are the KUnit suite (kernel/time/hz_kunit.o: text %d, data %d, bss %d); without it the code differs by %+d bytes (%+.3f %%). code: the functions'"'"' sizes summed (nm -S); text: size(1)'"'"'s, which on x86_64 is padded to a 2 MB boundary and hides the difference.\n", k, t, d, b, pc - k - sc, (pc - k - sc) * 100 / sc }'
} >"$md"
cat "$md"
echo
# The target (issue 29, item 7): patched / stock <= 1.01 on every row.
awk -F'|' '$5 ~ /^ *[0-9.]+ *$/ && $8 ~ /^ *[0-9.]+ *$/ {
		if ($5 + 0 > 1.01 || $8 + 0 > 1.01) { bad = bad "\n  " $2 ":" $5 "," $8 }
		n++ }
	END { if (bad != "") printf "bench/linux: ratio above 1.01 on:%s\n", bad
	      else printf "bench/linux: every ratio of %d rows <= 1.01\n", n }' "$md"
echo "bench/linux: $md; boots' wall time: $(for s in "${specs[@]}"; do b=${s%%|*}; printf '%s %s s, ' "$b" "$(cat "$out/$b.log.time")"; done | sed 's/, $//')"
