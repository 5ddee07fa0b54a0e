#!/bin/bash
# judge.sh [ARCH...] -- the patched kernel judged by stock Linux (make
# check-long; issue 29, item 6): for each architecture (x86_64 and arm64
# by default)
#
#   stock 6.12 built with CONFIG_HZ=250 and with CONFIG_HZ=1000 (make
#   linux-stock CONFIG_HZ=N), and the patched kernel (make linux) booted
#   at hz=250 and hz=1000, side by side: the same QEMU (-icount, one CPU:
#   scripts/linux/boot.sh, mode icount), the same initramfs, the same
#   command line "hz=N check=hzcheck,kselftest:all" (stock ignores hz=; the
#   checks read it as the HZ to expect), KUnit built into both;
#
#   the patched kernel's matrix: hz=24, 97, 333, 4321 and one HZ drawn at
#   random (LINUX_HZ_SEED, as in make check), with the same checks.
#
# From the stock boots it writes tests/linux/stock-passes.txt, the
# selftests that pass on stock at both HZ (make check judges the patched
# kernel against it), and it judges every patched boot against it: one
# result per boot and check (lc_judge, tests/linux/checks-lib.sh). The
# stock boots are the reference, not the project's code: only that each
# ran to its end is recorded.
#
# It writes the tables (every check of every boot, its result and guest
# seconds) between the markers "<!-- judge.sh: begin -->" and
# "<!-- judge.sh: end -->" of docs/LINUX.md, a section it owns.
#
# LINUX_JUDGE_CHECKS replaces the checks (check=...: hzcheck,kselftest:all),
# LINUX_JUDGE_HZ the patched kernel's HZ list (it must hold 250 and 1000
# for the side-by-side table).
# Builds as make linux does (ccache); boots two at a time, logs in
# build/linux-long/judge-ARCH/. Hours of wall time: the long selftests
# keep a CPU busy for minutes of guest time each.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
source scripts/linux/lib.sh
source scripts/linux/boot.sh
source tests/linux/checks-lib.sh
export LC_ALL=C
since() { echo "$(lx_now) $1" | awk '{ printf "%.0f", $1 - $2 }'; }
[ $# -gt 0 ] || set -- x86_64 arm64
checks=${LINUX_JUDGE_CHECKS:-hzcheck,kselftest:all}
seed=${LINUX_HZ_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
rhz=$(lx_random_hz "$seed") || exit 1
echo "linux judge: the random HZ of this run is $rhz (LINUX_HZ_SEED=$seed)"
bash scripts/deps.sh linux >/dev/null || exit 1
start=$(lx_now)
mkdir -p build/linux-long
stock_new=build/linux-long/stock-passes.txt
: >"$stock_new.body"
tables=build/linux-long/judge-tables.md
: >"$tables"
matrix_hz=${LINUX_JUDGE_HZ:-24 97 250 333 1000 4321 $rhz}

# kernel ARCH KIND [HZ]: builds, prints the image; nothing when it failed.
kernel() {
	local log=$out/build-$2${3:+-$3}.log t0
	t0=$(lx_now)
	if bash scripts/linux/build.sh "$@" >"$log" 2>&1; then
		echo "  build $2${3:+ HZ $3}: $(since "$t0") s, $(grep -c '^  CC ' "$log") files compiled" >&2
		bash scripts/linux/build.sh --print "$@"
	else
		report "linux judge $1: build $2${3:+ HZ $3}" "$(tail -1 "$log")"
	fi
}

# results NAME: "CHECK STATUS SECONDS" lines of a boot: the KUnit suites
# (ok/not ok, no seconds) and every linuxcheck result.
results() {
	local kl=$out/$1.kernel
	lc_kernel "$out/$1.log" >"$kl"
	for s in time_test_cases hz; do
		grep -E "^(not )?ok [0-9]+ (- )?$s( |$)" "$kl" | head -1 |
			awk -v s="$s" '{ print "KUnit:" s, ($1 == "ok" ? "pass" : "fail"), "-" }'
	done
	grep -a '^linuxcheck: result ' "$out/$1.log" | awk '{ print $3, $4, $5 }'
	grep -aq '^linuxcheck: done' "$out/$1.log" || echo "finished fail -"
}

for arch in "$@"; do
	out=build/linux-long/judge-$arch
	mkdir -p "$out"
	rm -f "$out"/*.log "$out"/*.rc "$out"/*.err "$out"/*.kernel "$out"/*.res
	echo "linux judge: $arch"
	s250=$(kernel "$arch" stock 250) s1000=$(kernel "$arch" stock 1000) p=$(kernel "$arch" dynhz)
	if ! bash tests/linux/payload.sh "$arch" >"$out/payload.log" 2>&1 ||
		! bash scripts/linux/initramfs.sh "$arch" "$out/initramfs.cpio" "build/linux-payload/$arch" >>"$out/payload.log" 2>&1; then
		report "linux judge $arch: payload" "$(tail -1 "$out/payload.log")"
		continue
	fi
	rd=$out/initramfs.cpio
	specs=()
	[ -n "$s250" ] && specs+=("stock250|$arch|$s250|$rd|hz=250 check=$checks|icount|14400")
	[ -n "$s1000" ] && specs+=("stock1000|$arch|$s1000|$rd|hz=1000 check=$checks|icount|14400")
	if [ -n "$p" ]; then
		for hz in $matrix_hz; do
			specs+=("hz$hz|$arch|$p|$rd|hz=$hz check=$checks|icount|14400")
		done
	fi
	t0=$(lx_now)
	lx_boot_list "$out" "${specs[@]}"
	echo "  ${#specs[@]} boots: $(since "$t0") s"

	# The stock reference: a selftest passes on stock when it passed at
	# both HZ.
	for b in stock250 stock1000; do
		[ -f "$out/$b.log" ] || continue
		results "$b" >"$out/$b.res"
		if grep -aq '^linuxcheck: done' "$out/$b.log"; then
			report "linux judge $arch: stock HZ=${b#stock} ran to its end"
		else
			report "linux judge $arch: stock HZ=${b#stock} ran to its end" "no 'linuxcheck: done' in $out/$b.log"
		fi
	done
	if [ -f "$out/stock250.res" ] && [ -f "$out/stock1000.res" ]; then
		# (Not st[p] = (p in st ? ...): awk makes st[p] before it
		# evaluates the right side, and every status came out empty.)
		awk -v a="$arch" '$1 ~ /^kselftest:/ { p = substr($1, 11); if (!(p in st)) st[p] = "pass"; if ($2 != "pass") st[p] = "fail"; n[p]++ }
			END { for (p in st) print a, p, (n[p] == 2 ? st[p] : "fail") }' \
			"$out/stock250.res" "$out/stock1000.res" | sort >>"$stock_new.body"
	fi

	# The patched boots, judged.
	LC_STOCK=$stock_new.body
	for hz in $matrix_hz; do
		[ -f "$out/hz$hz.log" ] || continue
		results "hz$hz" >"$out/hz$hz.res"
		lc_judge "linux judge $arch hz=$hz" "$out/hz$hz" "$arch" "hz=$hz" kunit=hz kunit=time_test_cases checks
	done

	# The tables: every check of every boot.
	cols="stock250 hz250 stock1000 hz1000"
	{
		echo
		echo "#### $arch: stock and patched side by side"
		echo
		echo "Result and guest seconds; stock 6.12 built with \`CONFIG_HZ=N\`, the"
		echo "patched kernel booted with \`hz=N\`."
		echo
		echo "| check | stock 250 | hz=250 | stock 1000 | hz=1000 |"
		echo "| --- | --- | --- | --- | --- |"
		awk -v cols="$cols" -v dir="$out" -f scripts/linux/judge-table.awk
		echo
		echo "#### $arch: the patched kernel at every HZ"
		echo
		printf '| check |'
		for hz in $matrix_hz; do printf ' hz=%s%s |' "$hz" "$([ "$hz" = "$rhz" ] && echo ' (random)')"; done
		echo
		printf '| --- |'
		for hz in $matrix_hz; do printf ' --- |'; done
		echo
		awk -v cols="$(for hz in $matrix_hz; do printf 'hz%s ' "$hz"; done)" -v dir="$out" -f scripts/linux/judge-table.awk
		echo
		echo "Wall time of the boots (-icount, one CPU, two QEMUs at a time):"
		for b in $cols $(for hz in $matrix_hz; do printf 'hz%s ' "$hz"; done); do
			[ -f "$out/$b.log.time" ] && printf '%s %s s; ' "$b" "$(cat "$out/$b.log.time")"
		done | sed 's/; $/./'
		echo
	} >>"$tables"
done

# tests/linux/stock-passes.txt, made anew for the architectures judged
# (the lines of the others kept).
if [ -s "$stock_new.body" ]; then
	{
		echo "# Linux's timer selftests on stock Linux 6.12 (Debian's linux-source-6.12),"
		echo "# built with CONFIG_HZ=250 and with CONFIG_HZ=1000, the port's configuration"
		echo "# (linux/config), booted under QEMU -icount with one CPU with"
		echo "# check=$checks: \"ARCH PROG pass\" when it passed at both, \"fail\""
		echo "# otherwise. Made by scripts/linux/judge.sh (make check-long); make check"
		echo "# (tests/linux/check.sh) requires every \"pass\" to pass on the patched"
		echo "# kernel at every HZ it boots. Where each architecture's lines come from:"
		{
			grep '^# judged: ' tests/linux/stock-passes.txt 2>/dev/null |
				awk -v judged=" $* " 'index(judged, " " $3 " ") == 0'
			for a in "$@"; do
				echo "# judged: $a $(date -u +%Y-%m-%d), stock $(basename "$(bash scripts/linux/source.sh pristine)"), check=$checks"
			done
		} | sort
		{
			grep -v '^#' tests/linux/stock-passes.txt 2>/dev/null |
				awk -v judged=" $* " 'index(judged, " " $1 " ") == 0'
			cat "$stock_new.body"
		} | sort -u
	} >"$stock_new.file"
	# (Written apart, then moved: the old file is read above.)
	mv "$stock_new.file" tests/linux/stock-passes.txt
	echo "linux judge: tests/linux/stock-passes.txt: $(grep -c ' pass$' tests/linux/stock-passes.txt) pass, $(grep -c ' fail$' tests/linux/stock-passes.txt) fail"
fi

# docs/LINUX.md's section, between its markers.
if [ -s "$tables" ] && grep -q '^<!-- judge.sh: begin -->$' docs/LINUX.md && grep -q '^<!-- judge.sh: end -->$' docs/LINUX.md; then
	{
		echo "Made by \`scripts/linux/judge.sh $*\` (make check-long), $(date -u +%Y-%m-%d);"
		echo "checks \`$checks\`; the random HZ drawn with \`LINUX_HZ_SEED=$seed\`."
		cat "$tables"
	} >"$tables.section"
	awk -v f="$tables.section" '
		/^<!-- judge.sh: begin -->$/ { print; while ((getline l < f) > 0) print l; skip = 1; next }
		/^<!-- judge.sh: end -->$/ { skip = 0 }
		!skip' docs/LINUX.md >docs/LINUX.md.tmp && mv docs/LINUX.md.tmp docs/LINUX.md
	echo "linux judge: the tables are in docs/LINUX.md"
fi
echo "linux judge: $(since "$start") s"
