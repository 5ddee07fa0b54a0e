#!/bin/bash
# The tick-rate series (issue 41, linux/tick-series/): CONFIG_HZ stays
# 1000 and tick_hz=R chooses at boot how often the tick fires. Built,
# booted and probed beside stock CONFIG_HZ=1000, x86_64, everything under
# build/linux-tick/ (never build/linux/, which is make linux's).
#
#   scripts/linux/tick.sh tree            the source tree (below)
#   scripts/linux/tick.sh build KIND      KIND stock, tick or stock-hzR (stock
#                                         at CONFIG_HZ=R): configure, build,
#                                         build/linux-tick/bzImage-KIND
#   scripts/linux/tick.sh initramfs       BusyBox, tickprobe, run-checks.sh
#   scripts/linux/tick.sh boot KIND NAME [CMDLINE]
#                                         one -icount boot running the probe,
#                                         console in build/linux-tick/NAME.log
#   scripts/linux/tick.sh probe           all of it: stock, then the series at
#                                         tick_hz=100, 250, 300, 1000 and
#                                         none; then the table
#   scripts/linux/tick.sh compare         stock CONFIG_HZ=R, the variable-HZ
#                                         series at hz=R and this series at
#                                         tick_hz=R, side by side (below)
#   scripts/linux/tick.sh judge           hzcheck, the timer selftests and
#                                         timerload on the same kernels
#   scripts/linux/tick.sh cost            timerload's instructions on them,
#                                         bench/linux's way, against stock R
#   scripts/linux/tick.sh table [LOG...]  the table of the logs there are
#
# The tree: build/linux-tick/src-stock/, one git tree holding both kinds:
# Debian's linux-source-6.12 (scripts/fetch-deb.sh --deb, as
# scripts/linux/source.sh fetches it) committed and tagged "pristine",
# and the branch "tick", linux/tick-series applied with git am on top.
# A build checks out the kind's commit (detached) and builds it in the
# one build directory build/linux-tick/stock/ (O=): git rewrites only the
# files the series touches, so Linux's make rebuilds only what depends on
# them, where two trees would mean two whole builds (ccache hashes the
# source's path). A developer's tree: make src-stock a worktree of it
# (git worktree add --detach) with its own "pristine" tag and "tick"
# branch, and the branch is what is built (TICK_REF names another ref).
#
# Configuration as scripts/linux/build.sh makes it for stock: make
# tinyconfig, merge_config.sh -m of linux/config/base.config and
# x86_64.config and HZ 1000 (CONFIG_HZ_1000=y), olddefconfig; the series
# adds no option (tick_hz= is always there). Linux's make -j2 under
# nice -n 19 (TICK_JOBS), through ccache in build/linux-tick/ccache.
set -e -o pipefail
source "$(dirname "$0")/lib.sh"
source "$DZ_ROOT/scripts/linux/boot.sh"
TK=$DZ_ROOT/build/linux-tick
TK_SRC=$TK/src-stock
TK_OBJ=$TK/stock
TK_SERIES_DIR=$DZ_ROOT/linux/tick-series
mkdir -p "$TK"

tk_series() {
	sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$TK_SERIES_DIR/series"
}

tk_git() { git -C "$TK_SRC" -c user.name=dynhz -c user.email=dynhz@localhost "$@"; }

# tree: the git tree, made once; the branch "tick" made again from
# linux/tick-series when the series changes (its hash in src-tick.key),
# unless the tree is a developer's (no src-tick.key and a "tick" branch).
tree() {
	local deb key p
	if [ ! -e "$TK_SRC/.git" ]; then
		deb=$(FETCH_DEB_TIMEOUT=900 bash "$DZ_ROOT/scripts/fetch-deb.sh" --deb "$LX_PKG") ||
			lx_die "cannot fetch $LX_PKG"
		echo "linux-tick: unpacking $deb into $TK_SRC (a few minutes)" >&2
		rm -rf "$TK_SRC.tmp" && mkdir -p "$TK_SRC.tmp"
		dpkg-deb --fsys-tarfile "$DZ_ROOT/$deb" | tar -xOf - --wildcards './usr/src/linux-source-*.tar.xz' |
			xz -dc | tar -xf - -C "$TK_SRC.tmp" --strip-components=1
		mv "$TK_SRC.tmp" "$TK_SRC"
		# Debian's .gitignore ignores the whole top level: add with -f.
		tk_git init -q
		tk_git add -f -A .
		tk_git commit -q -m "$(basename "$deb" .deb), pristine"
		tk_git tag pristine
		echo none >"$TK/src-tick.key"
	fi
	[ -f "$TK/src-tick.key" ] || return 0
	key=$(for p in $(tk_series); do cat "$TK_SERIES_DIR/patches/$p"; done | sha256sum | cut -c1-16)
	[ "$(cat "$TK/src-tick.key")" = "$key" ] && return 0
	echo "linux-tick: the branch tick: pristine + linux/tick-series" >&2
	tk_git checkout -q --detach pristine
	tk_git branch -f tick pristine
	tk_git checkout -q tick
	for p in $(tk_series); do
		tk_git am -q "$TK_SERIES_DIR/patches/$p" || lx_die "$p does not apply"
	done
	tk_git checkout -q --detach
	echo "$key" >"$TK/src-tick.key"
}

# build KIND: stock, tick, or stock-hzR (R 100, 250, 300: stock at
# CONFIG_HZ=R, for the comparison, in build/linux-tick/stock-hzR/: a
# sibling of stock/, so ccache's relative paths match and only what
# depends on HZ is compiled again).
build() {
	local kind=$1 ref dir=$TK_OBJ hz=1000 c
	case $kind in
	stock) ref=pristine ;;
	tick) ref=${TICK_REF:-tick} ;;
	stock-hz100 | stock-hz250 | stock-hz300) ref=pristine dir=$TK/$kind hz=${kind#stock-hz} ;;
	*) lx_die "unknown kind '$kind' (stock, tick, stock-hz100, stock-hz250, stock-hz300)" ;;
	esac
	tk_git checkout -q --detach "$ref" || lx_die "cannot check out $ref in $TK_SRC"
	mkdir -p "$dir"
	export CCACHE_DIR=$TK/ccache CCACHE_BASEDIR=$DZ_ROOT CCACHE_MAXSIZE=5G
	export KBUILD_BUILD_USER=dynhz KBUILD_BUILD_HOST=dynhz
	local kmake=(make -C "$TK_SRC" O="$dir" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc")
	{
		echo "# tick.sh: HZ $hz"
		for c in 100 250 300 1000; do
			[ $c = "$hz" ] && echo "CONFIG_HZ_$c=y" || echo "# CONFIG_HZ_$c is not set"
		done
		echo "CONFIG_HZ=$hz"
	} >"$dir/tick-args.config.new"
	local frags=("$LX_CONFIG/base.config" "$LX_CONFIG/x86_64.config" "$dir/tick-args.config")
	if ! cmp -s "$dir/tick-args.config.new" "$dir/tick-args.config" || [ ! -f "$dir/.config" ] ||
		[ "$(lx_hash "${frags[@]:0:2}")" != "$(cat "$dir/.tick-config" 2>/dev/null)" ]; then
		mv "$dir/tick-args.config.new" "$dir/tick-args.config"
		echo "linux-tick: configuring $dir" >&2
		{
			"${kmake[@]}" tinyconfig &&
				(cd "$dir" && bash "$TK_SRC/scripts/kconfig/merge_config.sh" -m -O "$dir" "$dir/.config" "${frags[@]}") &&
				"${kmake[@]}" olddefconfig
		} >"$dir/config.log" 2>&1 || lx_die "configuration failed ($dir/config.log)"
		grep -q "^CONFIG_HZ=$hz\$" "$dir/.config" || lx_die "CONFIG_HZ is not $hz in $dir/.config"
		grep -q '^CONFIG_NO_HZ_IDLE=y$' "$dir/.config" || lx_die "no NO_HZ_IDLE in $dir/.config"
		grep -q '^CONFIG_HIGH_RES_TIMERS=y$' "$dir/.config" || lx_die "no HIGH_RES_TIMERS in $dir/.config"
		lx_hash "${frags[@]:0:2}" >"$dir/.tick-config"
	fi
	rm -f "$dir/tick-args.config.new"
	nice -n 19 "${kmake[@]}" -j"${TICK_JOBS:-2}" bzImage || lx_die "the build failed ($kind, $dir)"
	cp "$dir/arch/x86/boot/bzImage" "$TK/bzImage-$kind"
	echo "linux-tick: $TK/bzImage-$kind ($(tk_git rev-parse --short HEAD))" >&2
}

initramfs() {
	local stage=$TK/payload
	rm -rf "$stage" && mkdir -p "$stage/sbin"
	gcc -static -O2 -Wall -Wextra -Werror -o "$stage/sbin/tickprobe" "$TK_SERIES_DIR/tickprobe.c"
	install -m 0755 "$TK_SERIES_DIR/run-checks.sh" "$stage/sbin/run-checks.sh"
	bash "$DZ_ROOT/scripts/linux/initramfs.sh" x86_64 "$TK/initramfs.cpio" "$stage"
}

# boot KIND NAME [CMDLINE]: -icount, one CPU (as tests/linux); the probe
# as init (rdinit=), then power off.
boot() {
	local kind=$1 name=$2 cmdline=${3:-}
	LINUX_BOOT_TIMEOUT=${TICK_BOOT_TIMEOUT:-1200} lx_boot x86_64 "$TK/bzImage-$kind" \
		"$TK/initramfs.cpio" "$TK/$name.log" \
		"rdinit=/sbin/run-checks.sh ${TICKPROBE_N:+tickprobe_n=$TICKPROBE_N} $cmdline" icount
}

# table: one row per log (markdown), the probe's figures. Lateness is
# what a wait lasted beyond its timeout, in ms: min/p50/p99; "early" the
# waits of all kinds that ended before their timeout; "RR slice" the two
# SCHED_RR spinners' median runs (ms), "RTTIME 200" the CPU time (ms) at
# which SIGXCPU came for a 200 ms RLIMIT_RTTIME.
# "loop" the busy phase's CPU-bound loop, millions of rounds a second.
# table [LOG...]: those logs (by default the probe's).
table() {
	local log
	[ $# -gt 0 ] || set -- "$TK"/stock.log "$TK"/stock-hz*.log "$TK"/tick-none.log "$TK"/tick-[0-9]*.log
	echo "| boot | LOC/s busy | LOC/s idle | jiffies/s busy | /proc/stat busy s/s | loop M/s | 8 timers: timeouts/s | 8 timers: LOC/s | rcvtimeo 50 idle | rcvtimeo 50 busy | nanosleep 50 busy | rcvtimeo 3 idle | rcvtimeo 3 busy | early | RR slice | RTTIME 200 |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	for log in "$@"; do
		[ -f "$log" ] || continue
		case $log in *-trace.log) continue ;; esac
		awk -v name="$(basename "$log" .log)" '
		function num(x) { gsub(/[^0-9.]/, "", x); return x }
		/^tickprobe: busy/ { for (i = 1; i <= NF; i++) { if ($i == "LOC") lb = num($(i + 1)); if ($i == "jiffies") jb = num($(i + 1)); if ($i == "busy" && $(i + 2) == "s") sb = $(i + 1); if ($i == "elapsed") el = $(i + 1) } }
		/^tickprobe: idle/ { for (i = 1; i <= NF; i++) if ($i == "LOC") li = num($(i + 1)) }
		/^tickprobe: timers/ { for (i = 1; i <= NF; i++) { if ($i == "timeouts") tt = num($(i + 1)); if ($i == "LOC") tl = num($(i + 1)) } }
		/^tickprobe: wait/ { t = $4; for (i = 1; i <= NF; i++) { if ($i == "min") mn = $(i + 1); if ($i == "p50") p50 = $(i + 1); if ($i == "p99") p99 = $(i + 1); if ($i == "early") e += num($(i + 1)) }
			w[$3 " " $4 " " $6] = sprintf("%.3f/%.3f/%.3f", mn - t, p50 - t, p99 - t) }
		/^tickprobe: busy loop/ { lp = $4 }
		/^tickprobe: rr slice/ { rr = $5 "/" $7 }
		/^tickprobe: rttime/ { rt = ($6 == "SIGXCPU") ? $8 : "none" }
		END { printf "| %s | %s | %s | %s | %.3f | %s | %s | %s | %s | %s | %s | %s | %s | %d | %s | %s |\n", name, lb, li, jb, sb / el, lp, tt, tl,
			w["rcvtimeo 50 idle"], w["rcvtimeo 50 busy"], w["nanosleep 50 busy"], w["rcvtimeo 3 idle"], w["rcvtimeo 3 busy"], e, rr, rt }' "$log"
	done
}

probe() {
	local r
	tree
	initramfs
	build stock
	boot stock stock || true
	build tick
	boot tick tick-none || true
	for r in 100 250 300 1000; do
		boot tick "tick-$r" "tick_hz=$r" || true
	done
	table | tee "$TK/tick-table.md"
}

# stock_kind R: the tick.sh kind of stock built with CONFIG_HZ=R.
stock_kind() { if [ "$1" = 1000 ]; then echo stock; else echo "stock-hz$1"; fi; }

# compare: issue 41's side by side, for each R of TICK_COMPARE_HZ (100
# 250 300 1000): stock built with CONFIG_HZ=R (stock-hzR; stock at 1000),
# the variable-HZ series booted with hz=R (make linux's release kernel,
# scripts/linux/build.sh x86_64 release: linux/series, CONFIG_HZ_DYNAMIC,
# its KUnit suite built in and not run) and this series booted with
# tick_hz=R, one probe boot each (cmp-KIND-R.log); then their table,
# build/linux-tick/compare-table.md.
compare() {
	local r k rs=${TICK_COMPARE_HZ:-100 250 300 1000} logs=()
	tree
	initramfs
	for r in $rs; do
		[ "$r" = 1000 ] || build "stock-hz$r"
	done
	build stock
	build tick
	bash "$DZ_ROOT/scripts/linux/build.sh" x86_64 release >"$TK/build-varhz.log" 2>&1 ||
		lx_die "the variable-HZ build failed ($TK/build-varhz.log)"
	cp "$(bash "$DZ_ROOT/scripts/linux/build.sh" --print x86_64 release)" "$TK/bzImage-varhz"
	for r in $rs; do
		k=$(stock_kind "$r")
		boot "$k" "cmp-stock-$r" || true
		boot varhz "cmp-varhz-$r" "hz=$r kunit.enable=0" || true
		boot tick "cmp-tick-$r" "tick_hz=$r" || true
		logs+=("$TK/cmp-stock-$r.log" "$TK/cmp-varhz-$r.log" "$TK/cmp-tick-$r.log")
	done
	table "${logs[@]}" | tee "$TK/compare-table.md"
}

# judge: the port's user-space judges (tests/linux's payload: hzcheck,
# the timer selftests of make check, timerload) on the three kernels of
# compare, for each R of TICK_COMPARE_HZ: stock CONFIG_HZ=R and the
# variable-HZ series at hz=R judged as HZ=R; this series at tick_hz=R
# judged twice, as the HZ=1000 kernel it is (checkhz=1000: does it keep
# HZ=1000's promises with a slower tick?) and as HZ=R (checkhz=R: what a
# user who wanted CONFIG_HZ=R sees differ). Logs judge-KIND-R[-as-H].log,
# then one line each: linuxcheck's summary, hzcheck's, the failed
# checks, timerload's total.
judge() {
	local r k rs=${TICK_COMPARE_HZ:-100 250 300 1000} log
	bash "$DZ_ROOT/tests/linux/payload.sh" x86_64 >"$TK/payload-checks.log" 2>&1 &&
		bash "$DZ_ROOT/scripts/linux/initramfs.sh" x86_64 "$TK/initramfs-checks.cpio" \
			"$DZ_ROOT/build/linux-payload/x86_64" >>"$TK/payload-checks.log" 2>&1 ||
		lx_die "the checks' initramfs failed ($TK/payload-checks.log)"
	[ -f "$TK/bzImage-varhz" ] && [ -f "$TK/bzImage-tick" ] || lx_die "run compare first (it builds the kernels)"
	jboot() { # KIND NAME CMDLINE
		LINUX_BOOT_TIMEOUT=${TICK_BOOT_TIMEOUT:-2400} lx_boot x86_64 "$TK/bzImage-$1" \
			"$TK/initramfs-checks.cpio" "$TK/$2.log" \
			"nokaslr kunit.enable=0 check=hzcheck,kselftest:check,timerload $3" icount || true
	}
	for r in $rs; do
		k=$(stock_kind "$r")
		jboot "$k" "judge-stock-$r" "checkhz=$r"
		jboot varhz "judge-varhz-$r" "hz=$r"
		jboot tick "judge-tick-$r-as-1000" "tick_hz=$r checkhz=1000"
		[ "$r" = 1000 ] || jboot tick "judge-tick-$r-as-$r" "tick_hz=$r checkhz=$r"
	done
	for log in "$TK"/judge-*.log; do
		printf '%s: %s; %s; failed: %s; timerload %s\n' "$(basename "$log" .log)" \
			"$(grep -m1 '^linuxcheck: summary' "$log" | cut -d' ' -f3-)" \
			"$(grep -m1 -E '^hzcheck: [0-9]+ ok' "$log" | cut -d' ' -f2-)" \
			"$(grep -E '^hzcheck: FAIL |^linuxcheck: result [^ ]+ fail ' "$log" | awk '{ print $3 }' | tr '\n' ' ')" \
			"$(grep -m1 '^timerload: total' "$log" | cut -d' ' -f3)"
	done | tee "$TK/judge-table.txt"
}

# cost: instructions, as bench/linux counts them (mode bench: -icount
# shift=0,sleep=off, one CPU; timerload from bench/linux's initramfs,
# made by bench/linux/run.sh), for R = 100, 250 and 1000: stock
# CONFIG_HZ=R, this series at tick_hz=R and the variable-HZ series at
# hz=R, TICK_COST_RUNS (3) boots each; then each kind's median against
# stock R's, per row of timerload and in total (cost-table.txt).
cost() {
	local r n k c b specs=() out=$TK/cost ird=$DZ_ROOT/build/bench/linux/initramfs.cpio
	[ -f "$ird" ] || lx_die "no $ird: run bench/linux/run.sh (make bench) first"
	[ -f "$TK/bzImage-varhz" ] && [ -f "$TK/bzImage-tick" ] || lx_die "run compare first (it builds the kernels)"
	mkdir -p "$out"
	rm -f "$out"/*
	for r in $(seq 1 "${TICK_COST_RUNS:-3}"); do
		for b in "stock100|stock-hz100|" "tick100|tick|tick_hz=100" "varhz100|varhz|hz=100" \
			"stock250|stock-hz250|" "tick250|tick|tick_hz=250" "varhz250|varhz|hz=250" \
			"stock1000|stock|" "tick1000|tick|tick_hz=1000" "varhz1000|varhz|hz=1000"; do
			IFS='|' read -r n k c <<<"$b"
			specs+=("$n-$r|x86_64|$TK/bzImage-$k|$ird|nokaslr kunit.enable=0 check=timerload $c|bench|1800|")
		done
	done
	lx_boot_list "$out" "${specs[@]}"
	for b in "${specs[@]}"; do
		n=${b%%|*}
		echo "$n $(grep -m1 '^timerload: total' "$out/$n.log" | cut -d' ' -f3) $(awk '/^timerload: [a-z0-9_]+ [0-9]+ rounds [0-9]+ ns$/ { printf "%s=%s ", $2, $5 }' "$out/$n.log")"
	done >"$out/totals.txt"
	python3 - "$out/totals.txt" <<'PY' | tee "$TK/cost-table.txt"
import collections, statistics, sys
d = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 2 or not f[1].isdigit():
        print("cost: no timerload total in boot", f[0] if f else "?")
        continue
    kind = f[0].rsplit("-", 1)[0]
    d[kind]["total"].append(int(f[1]))
    for kv in f[2:]:
        k, v = kv.split("=")
        d[kind][k].append(int(v))
for r in ("100", "250", "1000"):
    s = d["stock" + r]
    for kind in ("tick", "varhz"):
        o = d[kind + r]
        rows = ["%s %.4f" % (k, statistics.median(o[k]) / statistics.median(s[k]))
                for k in s if o.get(k)]
        print("R=%s %s/stock: %s" % (r, kind, ", ".join(rows)))
PY
}

case ${1:-} in
tree) tree ;;
build) tree && build "${2:?stock or tick}" ;;
initramfs) initramfs ;;
boot) boot "${2:?stock, tick or stock-hzR}" "${3:?a name}" "${4:-}" ;;
probe) probe ;;
compare) compare ;;
judge) judge ;;
cost) cost ;;
table) shift && table "$@" ;;
*) sed -n '2,/^set -e/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2; exit 1 ;;
esac
