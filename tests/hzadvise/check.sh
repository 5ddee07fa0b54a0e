#!/bin/bash
# The HZ advisor (tools/hzadvise/), built under ASan + UBSan, judged against
# references it does not compute itself:
#  - the real traces of tests/data/traces/: the HZ their first line says the
#    recording machine had; their event lines counted by grep; their
#    jiffies timers' lateness and their wakeups computed here with awk from
#    the raw lines; replayed "as Linux would" at the recorded setting, the
#    tool must come within 10 % of what the trace shows;
#  - the exact wheel (--wheel dynhz): no timer early, none more than one
#    tick late; Linux's wheel is the default;
#  - synthetic loads (tests/hzadvise/synth.c) where the advice must flip;
#  - --retune (HZ changed mid-replay) against the fixed settings and the
#    fixed replays of each stretch of the trace;
#  - bad input and bad options: one line, exit status 2, no crash.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh

out=build/hzadvise-check
mkdir -p "$out"
CC=${CC:-gcc}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
bin=$out/hzadvise

build() {
	make --no-print-directory SAN=1 lib >"$out/build.log" 2>&1 &&
		$CC -std=gnu11 -Wall -Wextra -Werror -O1 -g $SAN -Iinclude tools/hzadvise/*.c \
			"$(make --no-print-directory SAN=1 print-builddir)/libdynhz.a" -lm -o "$bin" \
			>>"$out/build.log" 2>&1 &&
		$CC -std=gnu11 -Wall -Wextra -Werror -O2 tests/hzadvise/synth.c -o "$out/synth" \
			>>"$out/build.log" 2>&1 &&
		make --no-print-directory hzadvise >>"$out/build.log" 2>&1
}
if ! build; then
	tail -20 "$out/build.log" >&2
	record fail "hzadvise: builds (ASan+UBSan, -Werror)"
	exit 0
fi
record pass "hzadvise: builds (ASan+UBSan, -Werror)"

# The map, the histogram and Linux's wheel against simple references.
if $CC -std=gnu11 -Wall -Wextra -Werror -O1 -g $SAN -Iinclude tests/hzadvise/test_units.c \
	tools/hzadvise/map.c tools/hzadvise/hist.c tools/hzadvise/wheel.c -o "$out/test_units" \
	>"$out/units.log" 2>&1; then
	"$out/test_units" >"$out/units.out" 2>"$out/units.err"
	while read -r verdict name; do
		[ "$verdict" = pass ] && report "hzadvise: $name" || report "hzadvise: $name" "$(cat "$out/units.err")"
	done <"$out/units.out"
	[ -s "$out/units.out" ] || record fail "hzadvise: test_units printed nothing"
else
	tail -5 "$out/units.log" >&2
	record fail "hzadvise: test_units builds"
fi
[ -x build/tools/hzadvise ] && report "hzadvise: plain make builds build/tools/hzadvise" ||
	report "hzadvise: plain make builds build/tools/hzadvise" "no build/tools/hzadvise"

# field NAME LINE: the value of NAME= on a source:/setting: line.
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
# within A B PCT: |A - B| <= PCT % of B.
within() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= p / 100 * (b < 0 ? -b : b)) }'; }

# Lateness of the trace's jiffies timers, from the raw lines: now= of each
# expiry less the expires= of the start before it, in ticks of the given
# HZ, printed as "p50_us p99_us" (the q-quantile is the smallest value
# with at least q of them at or below it, as the tool reads its own).
observed_lateness() { # file hz
	xz -dc "$1" | awk '
	/ timer_start: / { t = $0; sub(/.*timer=/, "", t); sub(/ .*/, "", t)
		e = $0; sub(/.* expires=/, "", e); sub(/ .*/, "", e); ex[t] = e }
	/ timer_expire_entry: / { t = $0; sub(/.*timer=/, "", t); sub(/ .*/, "", t)
		if (!(t in ex)) next
		n = $0; sub(/.* now=/, "", n); sub(/ .*/, "", n)
		l = n - ex[t]; if (l < 0) l = 0; print l; delete ex[t] }' | sort -n |
		awk -v hz="$2" '{ v[++k] = $1 }
		END { i50 = int(k * 0.5 + 0.999999); i99 = int(k * 0.99 + 0.999999)
			printf "%d %d\n", v[i50] * 1e6 / hz, v[i99] * 1e6 / hz }'
}

# Wakeups from the raw lines: runs of hrtimer expiries on one CPU closer
# than 30 us are one interrupt.
observed_wakeups() { # file
	xz -dc "$1" | awk '/ hrtimer_expire_entry: / {
		c = $0; sub(/^[^[]*\[/, "", c); sub(/\].*/, "", c)
		ts = $0; sub(/: hrtimer_expire_entry.*/, "", ts); sub(/.* /, "", ts)
		t = ts * 1e6; if (!(c in last) || t - last[c] > 30) n++; last[c] = t }
		END { print n }'
}

for f in tests/data/traces/*.txt.xz; do
	name=$(basename "$f" .txt.xz)
	log=$out/$name.log
	"$bin" -v "$f" >"$log.linux" 2>"$log.linux.err"
	rc_linux=$?
	"$bin" --wheel dynhz "$f" >"$log" 2>"$log.err"
	rc=$?
	"$bin" -q --wheel linux "$f" 2>/dev/null | cmp -s - <(grep -E '^(source|setting|observed-program|program|observed-thread|thread|check|recommend|cmdline):' "$log.linux") &&
		report "hzadvise: $name: Linux's wheel is the default" ||
		report "hzadvise: $name: Linux's wheel is the default" "--wheel linux differs from no option"
	src=$(grep '^source:' "$log")
	hz=$(field hz "$src")
	mode=$(field mode "$src")
	span=$(field span_s "$src")
	want_hz=$(xz -dc "$f" | head -1 | sed -n 's/.*config_hz=\([0-9]*\).*/\1/p')

	p=()
	[ $rc -eq 0 ] && [ $rc_linux -eq 0 ] || p+=("exit status $rc / $rc_linux: $(head -2 "$log.err" "$log.linux.err")")
	[ "$hz" = "$want_hz" ] || p+=("inferred hz=$hz, the recording machine had $want_hz")
	report "hzadvise: $name: HZ inferred = the recorder's ($want_hz)" "${p[@]}"

	events=$(xz -dc "$f" | grep -cE ': (timer_start|timer_cancel|timer_expire_entry|hrtimer_start|hrtimer_cancel|hrtimer_expire_entry|tick_stop): ')
	[ "$(field events "$src")" = "$events" ] && [ "$(field unknown "$src")" = 0 ] &&
		report "hzadvise: $name: events=$events as grep counts, unknown=0" ||
		report "hzadvise: $name: events=$events as grep counts, unknown=0" "$src"

	# The mode: tickless where the trace shows tick_stop; periodic only
	# where no CPU's tick ever skipped a jiffy (2.5 ticks between expiries).
	stops=$(xz -dc "$f" | grep -c 'tick_stop: success=1')
	maxgap=$(xz -dc "$f" | awk '/ hrtimer_expire_entry: .*function=tick_/ {
		c = $0; sub(/^[^[]*\[/, "", c); sub(/\].*/, "", c)
		ts = $0; sub(/: hrtimer_expire_entry.*/, "", ts); sub(/.* /, "", ts)
		if (c in last && ts - last[c] > m) m = ts - last[c]; last[c] = ts }
		END { printf "%d\n", m * 1e6 }')
	if [ "$stops" -gt 0 ]; then want_mode=nohz; else
		[ "$maxgap" -le $((2500000 / want_hz)) ] && want_mode=periodic || want_mode=nohz
	fi
	[ "$mode" = "$want_mode" ] && report "hzadvise: $name: mode=$want_mode (tick_stop: $stops, longest tick gap $maxgap us)" ||
		report "hzadvise: $name: mode=$want_mode (tick_stop: $stops, longest tick gap $maxgap us)" "tool says $mode"

	# As Linux would, at the recorded setting: the trace's own wakeups.
	lsrc=$(grep '^source:' "$log.linux")
	rec=$(grep "^setting: hz=$hz mode=$mode " "$log.linux")
	obs=$(observed_wakeups "$f")
	obs_s=$(awk -v n="$obs" -v s="$span" 'BEGIN { printf "%.1f", n / s }')
	got=$(field wakeups_per_s "$rec")
	p=()
	within "$(field wakeups_per_s "$lsrc")" "$obs_s" 1 || p+=("source says $(field wakeups_per_s "$lsrc")/s, awk counts $obs_s/s")
	within "$got" "$obs_s" 10 || p+=("replay $got/s against $obs_s/s observed")
	report "hzadvise: $name: replay at hz=$hz $mode within 10 % of the observed $obs_s wakeups/s ($got)" "${p[@]}"

	# ... and the observed lateness: p50 within 10 %, p99 within a factor 1.5.
	read -r o50 o99 < <(observed_lateness "$f" "$hz")
	g50=$(field late_p50_us "$rec")
	g99=$(field late_p99_us "$rec")
	p=()
	within "$g50" "$o50" 10 || p+=("p50 $g50 us, observed $o50 us")
	awk -v g="$g99" -v o="$o99" 'BEGIN { exit !(g <= 1.5 * o && o <= 1.5 * g) }' ||
		p+=("p99 $g99 us, observed $o99 us")
	report "hzadvise: $name: replay lateness p50 $g50/$o50 us, p99 $g99/$o99 us (replay/observed)" "${p[@]}"

	# Linux's wheel, as the replay files timers, is the kernel's own.
	m=$(sed -n 's/.*bucket_expiry= matched \([0-9]*\) of \([0-9]*\);.*/\1 \2/p' "$log.linux.err")
	read -r matched checked <<<"$m"
	[ -n "$checked" ] && [ "$checked" -gt 0 ] && [ $((matched * 1000)) -ge $((checked * 995)) ] &&
		report "hzadvise: $name: Linux's bucket_expiry= as wheel.c computes it ($matched of $checked)" ||
		report "hzadvise: $name: Linux's bucket_expiry= as wheel.c computes it ($matched of $checked)" "$m"

	# dynhz's exact wheel: never early, at most one tick late, every setting.
	p=()
	grep -q 'ran early' "$log.err" && p+=("$(grep 'ran early' "$log.err" | head -1)")
	while read -r line; do
		h=$(field hz "$line")
		max=$(field late_max_us "$line")
		[ "$max" -le $((1000000 / h + 1)) ] || p+=("hz=$h: late_max_us=$max > one tick")
	done < <(grep '^setting:' "$log")
	# HZ 100, 250, 300, 1000 (the recorded 250 among them), periodic and tickless
	[ "$(grep -c '^setting:' "$log")" -eq 8 ] || p+=("not 8 settings")
	report "hzadvise: $name: exact wheel: never early, at most one tick late" "${p[@]}"

	# The advice, and the kernel command line that boots it.
	line=$(grep '^recommend:' "$log.linux")
	cmd=$(grep '^cmdline:' "$log.linux")
	head=${line%% reason=*}
	want_cmd="cmdline: hz=$(field hz "$head") nohz=$([ "$(field mode "$head")" = nohz ] && echo on || echo off)"
	[[ $line =~ ^recommend:\ hz=[0-9]+\ mode=(periodic|nohz)\ noise=[01]\ reason=\".+\"$ ]] && [ "$cmd" = "$want_cmd" ] &&
		report "hzadvise: $name: ${line%% reason=*}, $cmd" || report "hzadvise: $name: recommends" "${line:-none} / ${cmd:-no cmdline} (want $want_cmd)"
	echo "$name: ${line}" >>"$out/recommendations.txt"
done

# The idle trace: a periodic 1000 Hz tick costs energy, tickless idle at the
# recorded HZ is the reference (1.0000).
log=$out/idle.log.linux
r1000=$(field energy_rel "$(grep '^setting: hz=1000 mode=periodic ' "$log")")
r250=$(field energy_rel "$(grep '^setting: hz=250 mode=nohz ' "$log")")
awk -v a="$r1000" -v b="$r250" 'BEGIN { exit !(a > 1.2 && b == 1) }' &&
	report "hzadvise: idle: periodic 1000 Hz costs energy ($r1000 of tickless 250)" ||
	report "hzadvise: idle: periodic 1000 Hz costs energy ($r1000 of tickless 250)" "$r1000 / $r250"

# Where the advice must flip (synth.c; recorded at 1000 Hz tickless).
# sleeps: a task's schedule_timeout(1) loop; at H it asks for the next
# jiffy and, with level 0's round-up, runs one tick of H behind it, so it
# wakes H / 2 times a second, late by 1e6 / H us: within a budget B only
# H >= 1e6 / B, and the fewest wakeups is the lowest such H. The budget
# is --max-late-us (2000 unless told; 100 % of its 0.5 ms ask is less).
# idle, aligned, spread: kernel timers of 1 s and more, at distinct
# milliseconds or all on one: on the exact wheel the same wakeups at every
# HZ tickless, so no difference: the recorded setting, noise=1. Where the
# recorded setting is itself the best, that is no noise (noise=0).
flips=(
	"sleeps||hz=1000 mode=nohz noise=0 reason=\"hz=1000 tickless, as recorded, has the fewest"
	"sleeps|--max-late-us 1500|hz=1000 mode=nohz"
	"sleeps|--max-late-us 5000|hz=250 mode=nohz noise=0"
	"sleeps|--max-late-us 20000|hz=100 mode=nohz noise=0"
	"idle|--wheel dynhz|hz=1000 mode=nohz noise=1"
	"aligned|--wheel dynhz|hz=1000 mode=nohz noise=1"
	"spread|--wheel dynhz|hz=1000 mode=nohz noise=1"
)
for fl in "${flips[@]}"; do
	IFS='|' read -r load opt want <<<"$fl"
	"$out/synth" "$load" >"$out/$load.txt"
	# shellcheck disable=SC2086
	line=$("$bin" -q $opt "$out/$load.txt" 2>&1 | grep '^recommend:')
	[[ $line == "recommend: "*"$want"* ]] && report "hzadvise: synthetic $load, $opt: $want" ||
		report "hzadvise: synthetic $load, $opt: $want" "got: $line"
done
# The sleeps load's advice names the program whose timeouts rule out the lower HZ.
line=$("$bin" -q "$out/sleeps.txt" 2>&1 | grep '^recommend:')
[[ $line == *"lower settings are out: task-100's timeouts"*"at hz=100"* ]] &&
	report "hzadvise: synthetic sleeps: the advice names task-100, late at hz=100" ||
	report "hzadvise: synthetic sleeps: the advice names task-100, late at hz=100" "$line"
# The udp load (synth.c): the sleeps loop (schedule_timeout(1)), woken
# every 50 ms by a datagram just before the tick that runs its timeout,
# so the timer runs before the task does. The wakeup (sched_waking) ends
# the sleep; the expiry after it is no timeout. At H a sleep started in
# jiffy J runs at the tick of J + 2 (level 0's round-up): the loop fires
# every 2 ticks of H, and after a datagram at w (the task sleeping again
# at r = w + d, d < 0.3 ms) its k-th timeout runs at most 2k ticks after r
# and more than 2k - 1 after it. With a tick of P ms, the k-th comes
# before the next datagram (w + 50 ms) when 2kP < 50 - d (H 100: k <= 2;
# H 250: k <= 6) and after it when (2k - 1)P >= 50 (k = 3, 7); at H 1000
# the 24th runs in time and the 25th is the tick the next datagram
# precedes, as recorded. So 2, 6 and 24 timeouts per 50 ms: 40, 120, 480
# a second (the trace's two edges move them by 0.1 at most).
# Without the wakeup lines the loop runs free: 1 per 2 ticks, 50, 125, 500.
# The same counts with the trace clock 105.034 ms behind CLOCK_MONOTONIC
# (as the Linux port's under QEMU): each expiry's now= is then ahead of its
# timestamp, and the offset measured from them places the jiffy grid.
"$out/synth" udp >"$out/udp.txt"
"$out/synth" udp -105034000 >"$out/udp-behind.txt"
grep -v ' sched_waking: ' "$out/udp.txt" >"$out/udp-nowake.txt"
for c in "udp:100:40 250:120 1000:480" "udp-behind:100:40 250:120 1000:480" \
	"udp-nowake:100:50 250:125 1000:500"; do
	f=${c%%:*} p=()
	"$bin" -q --hz 100,250,1000 "$out/$f.txt" >"$out/$f.out" 2>&1 || p+=("exit status $?")
	for hw in ${c#*:}; do
		got=$(field fires_per_s "$(grep "^program: hz=${hw%%:*} mode=nohz name=task-100 " "$out/$f.out")")
		awk -v g="$got" -v w="${hw#*:}" 'BEGIN { d = g - w; exit !(g != "" && d <= 0.25 && d >= -0.25) }' ||
			p+=("hz=${hw%%:*}: task-100 fires $got/s, want ${hw#*:}")
	done
	report "hzadvise: synthetic $f: task-100's timeouts at 100/250/1000 Hz ${c#*:}" "${p[@]}"
done
# The trace clock measured against CLOCK_MONOTONIC, ahead and behind: synth
# logs each tick's hrtimer_expire_entry 4 us after the now= it carries, so
# the least timestamp - now is the offset it was given plus 4 us.
for c in "udp:5.000" "udp-behind:-105030.000"; do
	got=$(field clock_offset_us "$(grep '^source:' "$out/${c%%:*}.out")")
	[ "$got" = "${c#*:}" ] && report "hzadvise: synthetic ${c%%:*}: the trace clock minus CLOCK_MONOTONIC is ${c#*:} us" ||
		report "hzadvise: synthetic ${c%%:*}: the trace clock minus CLOCK_MONOTONIC is ${c#*:} us" "got '$got'"
done
# The synthetic idle load: 1000 Hz inferred, its wakeups as synth made them.
src=$("$bin" -q "$out/idle.txt" | grep '^source:')
ticks=$(grep -c 'function=tick_nohz_handler' "$out/idle.txt")
awk -v w="$(field wakeups_per_s "$src")" -v s="$(field span_s "$src")" -v n="$ticks" \
	'BEGIN { d = w * s - n; exit !(d < 0.1 * s + 1 && d > -0.1 * s - 1) }' &&
	[ "$(field hz "$src")" = 1000 ] && report "hzadvise: synthetic idle: hz=1000, $ticks wakeups" ||
	report "hzadvise: synthetic idle: hz=1000, $ticks wakeups" "$src"
# The older formats: the HZ tests/data/README.md gives for each.
for sf in v4_14_trace:1000 v6_6_trace_cmd:250 v6_8_pipe:300; do
	src=$("$bin" -q "tests/data/traces/synthetic/${sf%%:*}.txt" 2>&1 | grep '^source:')
	[ "$(field hz "$src")" = "${sf##*:}" ] && report "hzadvise: ${sf%%:*}: hz=${sf##*:}" ||
		report "hzadvise: ${sf%%:*}: hz=${sf##*:}" "${src:-no source line}"
done

# The same trace read as .xz, .gz, plain and from stdin: the same lines.
xz -dc tests/data/traces/net.txt.xz >"$out/net.txt"
gzip -c "$out/net.txt" >"$out/net.txt.gz"
"$bin" -q "$out/net.txt" >"$out/net.plain"
"$bin" -q "$out/net.txt.gz" >"$out/net.gz.out"
"$bin" -q - <"$out/net.txt" >"$out/net.stdin"
p=()
cmp -s "$out/net.plain" "$out/net.gz.out" || p+=(".gz differs")
cmp -s "$out/net.plain" "$out/net.stdin" || p+=("stdin differs")
"$bin" -q tests/data/traces/net.txt.xz | cmp -s - "$out/net.plain" || p+=(".xz differs")
report "hzadvise: .xz, .gz, plain and stdin give the same lines" "${p[@]}"

# --csv: a header, one row per setting and CPU and one summed; the summed
# rows say what the setting: lines say.
"$bin" -q --csv "$out/net.csv" "$out/net.txt" >"$out/net.csv.out"
p=()
rows=$(($(wc -l <"$out/net.csv") - 1))
[ "$rows" -eq 24 ] || p+=("$rows rows, want 8 settings x (2 CPUs + all)")
while IFS=, read -r h m c w _; do
	[ "$c" = all ] || continue
	want=$(field wakeups_per_s "$(grep "^setting: hz=$h mode=$m " "$out/net.csv.out")")
	within "$w" "$want" 0.1 || p+=("hz=$h $m: csv $w, line $want")
done <"$out/net.csv"
report "hzadvise: --csv rows match the setting: lines" "${p[@]}"

# The lean spool (replay.c): the first fixed setting's replay of a CPU
# leaves out the busy marks for the next settings, and hands them the busy
# time. Every figure must be what the whole spool gives, text and CSV, on
# each real trace and a synthetic load (HZADVISE_LEAN=0: every replay reads
# the whole spool).
p=()
for t in tests/data/traces/*.xz tests/data/traces/synthetic/*.txt; do
	n=$(basename "${t%%.*}")
	"$bin" --csv "$out/lean-$n.csv" "$t" >"$out/lean-$n.out" 2>&1
	HZADVISE_LEAN=0 "$bin" --csv "$out/whole-$n.csv" "$t" >"$out/whole-$n.out" 2>&1
	cmp -s "$out/lean-$n.out" "$out/whole-$n.out" || p+=("$n: the report differs")
	cmp -s "$out/lean-$n.csv" "$out/whole-$n.csv" || p+=("$n: the CSV differs")
	grep -q "^setting: " "$out/lean-$n.out" || p+=("$n: no setting: line")
done
report "hzadvise: the lean spool gives what the whole spool gives" "${p[@]}"

# --plot: PNG and SVG of the three figures.
rm -rf "$out/plot"
p=()
"$bin" -q --plot "$out/plot" "$out/net.txt" >/dev/null 2>"$out/plot.err" || p+=("$(cat "$out/plot.err")")
for fig in wakeups lateness residency; do
	head -c 4 "$out/plot/$fig.png" 2>/dev/null | grep -q PNG || p+=("$fig.png is not a PNG")
	grep -q '<svg' "$out/plot/$fig.svg" 2>/dev/null || p+=("$fig.svg is not an SVG")
done
report "hzadvise: --plot writes PNG and SVG figures" "${p[@]}"

# The figures a person reads at a glance: the observed point marked in the
# wakeups plot, one legend entry per setting in the lateness CDF (colour
# by HZ, dashes for periodic) and the observed distribution beside them.
p=()
grep -q "title 'observed (hz=250 periodic)'" "$out/plot/plot.gp" || p+=("wakeups: no observed point")
n=$(grep -o "title 'hz=[0-9]* \(periodic\|tickless\)'" "$out/plot/plot.gp" | sort -u | wc -l)
[ "$n" -eq 8 ] || p+=("lateness: $n distinct settings in the legend, want 8")
grep -q "with steps lw 3 lc rgb 'black' title 'observed'" "$out/plot/plot.gp" || p+=("lateness: no observed CDF")
report "hzadvise: --plot: the observed point marked, one legend entry per setting" "${p[@]}"

# --html: one self-contained page (no script, nothing fetched: the only
# URL is SVG's namespace) with the command line the advice's cmdline: line
# says, and the two figures inline with the same marks.
p=()
"$bin" --html "$out/net.html" "$out/net.txt" >"$out/net.html.out" 2>"$out/net.html.err" || p+=("exit status $?: $(head -2 "$out/net.html.err")")
cmd=$(sed -n 's/^cmdline: //p' "$out/net.html.out")
grep -q "Boot with <code>$cmd</code>" "$out/net.html" || p+=("no \"Boot with $cmd\"")
[ "$(grep -c '<svg' "$out/net.html")" -eq 2 ] || p+=("not 2 inline SVG figures")
grep -qiE '<script|<img|<link|<iframe| src=| href=|url\(' "$out/net.html" && p+=("refers outside itself: $(grep -oiE '<script|<img|<link|<iframe| src=| href=|url\(' "$out/net.html" | head -1)")
[ "$(grep -o 'http[^'"'"'" ]*' "$out/net.html" | sort -u)" = "http://www.w3.org/2000/svg" ] || p+=("a URL other than SVG's namespace")
grep -q '>observed (hz=250 periodic)</text>' "$out/net.html" || p+=("wakeups figure: no observed point")
n=$(grep -o '>hz=[0-9]* \(periodic\|tickless\)</text>' "$out/net.html" | sort -u | wc -l)
[ "$n" -eq 8 ] || p+=("lateness figure: $n settings in the legend, want 8")
report "hzadvise: --html: one self-contained page, the advice's command line, both figures" "${p[@]}"

# --retune: HZ changed mid-replay by the core (dynhz_host_retune). The
# references are replays the retune path does not compute: the fixed-HZ
# settings, and the fixed-HZ replays of each stretch of the trace cut here
# with awk. On the exact wheel, whose bounds are the core's own.
bin_rt() { "$bin" --wheel dynhz "$@"; }
# csv_sum CSV HZ MODE COL: column COL (4 wakeups/s, 5 ticks/s) of one
# setting, summed over its per-CPU rows.
csv_sum() { awk -F, -v h="$2" -v m="$3" -v k="$4" '$1 == h && $2 == m && $3 != "all" { s += $k } END { printf "%.6f\n", s }' "$1"; }
# stretch FILE FROM TO: the events from FROM to TO s after the first (the header kept).
stretch() {
	awk -v a="$2" -v b="$3" '/^#/ { print; next }
		{ t = $0; sub(/: [a-z_]+: .*/, "", t); sub(/.* /, "", t); t += 0
		if (!f) f = t; if (t >= f + a && t < f + b) print }' "$1"
}
# same LINE1 LINE2: setting lines equal but for their hz= field.
same() { [ -n "$1" ] && [ "$(sed 's/hz=[^ ]* //' <<<"$1")" = "$(sed 's/hz=[^ ]* //' <<<"$2")" ]; }
: >"$out/retune.txt"
# bounded GOT WANT SPAN SLACK: |GOT - WANT| rates, in events over SPAN s, within SLACK events.
bounded() { awk -v g="$1" -v w="$2" -v s="$3" -v k="$4" 'BEGIN { d = (g - w) * s; if (d < 0) d = -d; exit !(d <= k) }'; }

for f in tests/data/traces/*.txt.xz; do
	name=$(basename "$f" .txt.xz)
	raw=$out/rt-$name.txt
	xz -dc "$f" >"$raw"
	src=$(grep '^source:' "$out/$name.log")
	mode=$(field mode "$src")
	span=$(field span_s "$src")
	ncpu=$(xz -dc "$f" | head -1 | sed -n 's/.* cpus=\([0-9]*\).*/\1/p')

	# (a) A schedule whose only change is at T=0 boots at that HZ; a change
	# to the HZ in force changes nothing: both as the fixed setting.
	bin_rt -q --hz 250,100 --retune 0:100 "$raw" >"$out/rt-$name.0" 2>&1
	bin_rt -q --hz 250 --retune "$(awk -v s="$span" 'BEGIN { printf "%.3f", s / 3 }')":250 "$raw" >"$out/rt-$name.same" 2>&1
	p=()
	same "$(grep "^setting: hz=100 mode=$mode " "$out/rt-$name.0")" "$(grep '^setting: hz=100@0 ' "$out/rt-$name.0")" ||
		p+=("0:100 differs from fixed 100: $(grep '^setting: hz=100' "$out/rt-$name.0")")
	same "$(grep "^setting: hz=250 mode=$mode " "$out/rt-$name.same")" "$(grep '^setting: hz=250@0>250@' "$out/rt-$name.same")" ||
		p+=("250 -> 250 differs from fixed 250: $(grep '^setting: hz=250' "$out/rt-$name.same")")
	report "hzadvise: $name: --retune 0:100, and 250 -> 250 mid-trace, = the fixed setting" "${p[@]}"

	# (b) 1000 -> 100 at the middle: the fixed 1000 replay of the first
	# stretch plus the fixed 100 replay of the second, in events. Slack: per
	# CPU, the change's own tick and a wakeup either side of the cut; the
	# gap between the stretches (events in it belong to neither) at 1000/s;
	# and 0.5 % for what the cut moves (coalescing, a cancel cut off).
	half=$(awk -v s="$span" 'BEGIN { printf "%.3f", int(s / 2 * 1000) / 1000 }')
	bin_rt -q -v --hz 1000,100 --retune "$half:100" --csv "$out/rt-$name.csv" "$raw" >"$out/rt-$name.out" 2>"$out/rt-$name.err"
	rc=$?
	stretch "$raw" 0 "$half" >"$out/rt-$name.a"
	stretch "$raw" "$half" 1e9 >"$out/rt-$name.b"
	bin_rt -q --hz 1000 --csv "$out/rt-$name.a.csv" "$out/rt-$name.a" >"$out/rt-$name.a.out" 2>&1
	bin_rt -q --hz 100 --csv "$out/rt-$name.b.csv" "$out/rt-$name.b" >"$out/rt-$name.b.out" 2>&1
	sa=$(field span_s "$(grep '^source:' "$out/rt-$name.a.out")")
	sb=$(field span_s "$(grep '^source:' "$out/rt-$name.b.out")")
	line=$(grep '^setting: hz=1000@0>100@' "$out/rt-$name.out")
	p=()
	[ $rc -eq 0 ] || p+=("exit $rc: $(head -2 "$out/rt-$name.err")")
	for k in 4:wakeups_per_s 5:ticks_per_s; do
		want=$(awk -v a="$(csv_sum "$out/rt-$name.a.csv" 1000 "$mode" "${k%%:*}")" \
			-v b="$(csv_sum "$out/rt-$name.b.csv" 100 "$mode" "${k%%:*}")" \
			-v sa="$sa" -v sb="$sb" -v s="$span" 'BEGIN { printf "%.3f", (a * sa + b * sb) / s }')
		slack=$(awk -v w="$want" -v s="$span" -v sa="$sa" -v sb="$sb" -v n="$ncpu" \
			'BEGIN { printf "%.1f", 3 * n + (s - sa - sb) * 1000 * n + 0.005 * w * s }')
		got=$(field "${k#*:}" "$line")
		bounded "$got" "$want" "$span" "$slack" ||
			p+=("${k#*:} $got, stretches replayed fixed say $want (slack $slack events)")
		echo "$name: 1000->100@$half ${k#*:} $got, stretches $want" >>"$out/retune.txt"
	done
	report "hzadvise: $name: 1000 -> 100 at $half s = fixed 1000 then fixed 100 on each stretch" "${p[@]}"

	# (c) Never early; late by at most the old tick and the new one (a timer
	# pending across the change had its old-HZ jiffy; the core rounds that
	# up to a new one). Many changes: at most the sum of their ticks.
	bin_rt -q -v --hz 24 --retune 2:10000,4:24,6:300,8:1000,9:19 "$raw" >"$out/rt-$name.many" 2>"$out/rt-$name.many.err"
	p=()
	grep -q 'ran early' "$out/rt-$name.err" "$out/rt-$name.many.err" && p+=("$(grep -h 'ran early' "$out/rt-$name.err" "$out/rt-$name.many.err" | head -1)")
	max=$(field late_max_us "$line")
	[ "$max" -le $((1000 + 10000 + 1)) ] || p+=("1000 -> 100: late_max_us=$max > 1 ms + 10 ms")
	max=$(field late_max_us "$(grep '^setting: hz=24@0>' "$out/rt-$name.many")")
	bound=$(awk 'BEGIN { printf "%d", 1e6 / 24 + 1e6 / 10000 + 1e6 / 24 + 1e6 / 300 + 1e6 / 1000 + 1e6 / 19 + 1 }')
	[ -n "$max" ] && [ "$max" -le "$bound" ] || p+=("24..19: late_max_us=$max > $bound")
	report "hzadvise: $name: --retune: never early, late at most the ticks it crossed" "${p[@]}"
done

# (b) on synthetic loads, steady by construction: the fixed settings'
# per-CPU figures weighted by the time each HZ ran (T and span - T).
for load in sleeps spread; do
	[ -f "$out/$load.txt" ] || "$out/synth" "$load" >"$out/$load.txt"
	span=$(field span_s "$(bin_rt -q --hz 100 "$out/$load.txt" | grep '^source:')")
	t=$(awk -v s="$span" 'BEGIN { printf "%.3f", int(s * 400) / 1000 }')
	bin_rt -q --hz 1000,100 --retune "$t:100" --csv "$out/rt-$load.csv" "$out/$load.txt" >"$out/rt-$load.out" 2>"$out/rt-$load.err"
	line=$(grep '^setting: hz=1000@0>100@' "$out/rt-$load.out")
	p=()
	grep -q 'ran early' "$out/rt-$load.err" && p+=("$(grep 'ran early' "$out/rt-$load.err")")
	for k in 4:wakeups_per_s 5:ticks_per_s; do
		want=$(awk -v a="$(csv_sum "$out/rt-$load.csv" 1000 nohz "${k%%:*}")" \
			-v b="$(csv_sum "$out/rt-$load.csv" 100 nohz "${k%%:*}")" -v t="$t" -v s="$span" \
			'BEGIN { printf "%.3f", (a * t + b * (s - t)) / s }')
		got=$(field "${k#*:}" "$line")
		# Slack: the change's tick, and each of spread's 20 timers once (a window of T s holds T or T + 1 of its firings).
		bounded "$got" "$want" "$span" 22 || p+=("${k#*:} $got, fixed weighted $want")
		echo "synthetic $load: 1000->100@$t ${k#*:} $got, weighted $want" >>"$out/retune.txt"
	done
	[ "$(field late_max_us "$line")" -le 11001 ] || p+=("late_max_us $(field late_max_us "$line") > 1 ms + 10 ms")
	report "hzadvise: synthetic $load: 1000 -> 100 at $t s = fixed figures weighted by time" "${p[@]}"
done

# --retune-auto: a power daemon's policy (HZ B after a second busy more
# than 10 %, I otherwise). The changes it made (-v) must follow the rule
# from the busy shares it printed, and replaying them as a --retune
# schedule must give the same figures; B = I never changes anything.
for name in build idle; do
	raw=$out/rt-$name.txt
	bin_rt -q -v --hz 1000,100 --retune-auto 1000:100 "$raw" >"$out/auto-$name.out" 2>"$out/auto-$name.err"
	mode=$(field mode "$(grep '^source:' "$out/auto-$name.out")")
	p=()
	grep -q 'ran early' "$out/auto-$name.err" && p+=("$(grep 'ran early' "$out/auto-$name.err")")
	# The rule: from 100 Hz, each second's busy share sets the next's HZ.
	while read -r cpu busy sched; do
		want=$(awk -v b="$busy" 'BEGIN { n = split(b, v, ","); hz = 100; s = ""
			for (i = 1; i <= n; i++) { h = v[i] > 10 ? 1000 : 100
				if (h != hz) { s = s (s == "" ? "" : ",") i ":" h; hz = h } }
			print s == "" ? "none" : s }')
		[ "$sched" = "$want" ] || p+=("$cpu: changes $sched, the rule says $want")
	done < <(sed -n 's/^hzadvise: auto:1000:100 \(cpu[0-9]*\) busy_pct=\([^ ]*\) retune=\(.*\)/\1 \2 \3/p' "$out/auto-$name.err")
	[ "$(grep -c 'busy_pct=' "$out/auto-$name.err")" -ge 1 ] || p+=("no busy_pct= line with -v")
	# Every CPU made the same changes on these traces: as --retune, the same figures.
	sched=$(sed -n 's/.* retune=//p' "$out/auto-$name.err" | sort -u)
	if [ "$(wc -l <<<"$sched")" -eq 1 ] && [ "$sched" != none ]; then
		bin_rt -q --hz 100 --retune "$sched" "$raw" >"$out/auto-$name.rt" 2>&1
		same "$(grep '^setting: hz=auto:1000:100 ' "$out/auto-$name.out")" "$(grep '^setting: hz=100@0>' "$out/auto-$name.rt")" ||
			p+=("differs from --retune $sched: $(grep -h -e '^setting: hz=auto' -e '^setting: hz=100@0' "$out/auto-$name.out" "$out/auto-$name.rt")")
	else
		p+=("the CPUs changed HZ differently: $sched")
	fi
	bin_rt -q --hz 250 --retune-auto 250:250 "$raw" >"$out/auto-$name.same" 2>&1
	same "$(grep "^setting: hz=250 mode=$mode " "$out/auto-$name.same")" "$(grep '^setting: hz=auto:250:250 ' "$out/auto-$name.same")" ||
		p+=("auto:250:250 differs from fixed 250")
	report "hzadvise: $name: --retune-auto 1000:100 follows its rule, = --retune $(tr '\n' ' ' <<<"$sched")" "${p[@]}"
done

# Bad input: one line on stderr naming the problem, exit status 2, no crash
# (ASan would abort with another status).
: >"$out/empty.txt"
printf 'garbage\n\0\1\2binary\n' >"$out/binary.txt"
{ xz -dc tests/data/traces/net.txt.xz | head -100; printf '  task-1 [000] d..1.  7065.971389: timer_start: timer=00'; } >"$out/truncated.txt"
head -c 20000 tests/data/traces/net.txt.xz >"$out/truncated.txt.xz"
bad=(
	"empty input|$out/empty.txt|no timer events"
	"binary input|$out/binary.txt|line 2"
	"foreign text|README.md|not an ftrace timer trace"
	"truncated .xz|$out/truncated.txt.xz|xz"
	"no such file|$out/nonexistent.txt|No such file"
	"--hz 5|--hz 5 $out/net.txt|--hz"
	"--hz abc|--hz abc $out/net.txt|--hz"
	"--wheel foo|--wheel foo $out/net.txt|--wheel"
	"--idle-loop maybe|--idle-loop maybe $out/net.txt|--idle-loop"
	"--cstates C1:1|--cstates C1:1 $out/net.txt|--cstates"
	"--max-late-us -1|--max-late-us -1 $out/net.txt|--max-late-us"
	"--retune 5:100,3:250|--retune 5:100,3:250 $out/net.txt|must increase"
	"--retune 5:100,5:250|--retune 5:100,5:250 $out/net.txt|must increase"
	"--retune 5:5|--retune 5:5 $out/net.txt|19 to 10000"
	"--retune 5:10001|--retune 5:10001 $out/net.txt|19 to 10000"
	"--retune 5:100.5|--retune 5:100.5 $out/net.txt|19 to 10000"
	"--retune -1:100|--retune -1:100 $out/net.txt|not T:HZ"
	"--retune abc|--retune abc $out/net.txt|not T:HZ"
	"--retune 5|--retune 5 $out/net.txt|not T:HZ"
	"--retune 5:100,|--retune 5:100, $out/net.txt|empty item"
	"--retune (no value)|$out/net.txt --retune|needs a value"
	"--retune-auto 1000|--retune-auto 1000 $out/net.txt|BUSY_HZ:IDLE_HZ"
	"--retune-auto 1000:5|--retune-auto 1000:5 $out/net.txt|19 to 10000"
	"--retune-auto 1000:100:5|--retune-auto 1000:100:5 $out/net.txt|19 to 10000"
	"--bogus|--bogus $out/net.txt|unknown option"
	"two traces|$out/net.txt $out/net.txt|one trace"
	"no trace||usage"
)
for b in "${bad[@]}"; do
	IFS='|' read -r what args want <<<"$b"
	# shellcheck disable=SC2086
	"$bin" -q $args >"$out/bad.out" 2>"$out/bad.err"
	rc=$?
	p=()
	[ $rc -eq 2 ] || p+=("exit status $rc")
	grep -q -- "$want" "$out/bad.err" || p+=("stderr lacks \"$want\": $(head -2 "$out/bad.err")")
	[ "$what" = "no trace" ] || [ "$(wc -l <"$out/bad.err")" -eq 1 ] || p+=("not one line: $(head -3 "$out/bad.err")")
	report "hzadvise: $what: one line, exit 2" "${p[@]}"
done

# Input that is partly bad is read, and what was wrong said in one line
# each: a last line cut short (the recorder stopped mid-line) skipped; a
# malformed event line in the middle skipped and counted, the first one
# named; events whose timestamp went back on their CPU dropped, counted per
# CPU. The events read are those grep counts in what is left.
evgrep=': (timer_start|timer_cancel|timer_expire_entry|hrtimer_start|hrtimer_cancel|hrtimer_expire_entry|tick_stop): '
robust() { # what file want-stderr want-events
	local src rc
	"$bin" -q "$2" >"$out/robust.out" 2>"$out/robust.err"
	rc=$?
	src=$(grep '^source:' "$out/robust.out")
	p=()
	[ $rc -eq 0 ] || p+=("exit status $rc: $(head -2 "$out/robust.err")")
	grep -q -- "$3" "$out/robust.err" || p+=("stderr lacks \"$3\": $(head -2 "$out/robust.err")")
	[ "$(wc -l <"$out/robust.err")" -eq 1 ] || p+=("not one line: $(head -3 "$out/robust.err")")
	[ "$(field events "$src")" = "$4" ] || p+=("events=$(field events "$src"), want $4")
	report "hzadvise: $1: read, one line on stderr" "${p[@]}"
}
robust "truncated last line" "$out/truncated.txt" "the last line is cut short" \
	"$(head -100 "$out/net.txt" | grep -cE "$evgrep")"
xz -dc tests/data/traces/net.txt.xz | head -400 |
	awk 'NR == 150 { sub(/expires=[0-9]+/, "expires=12x4") } NR == 151 { sub(/timer=/, "timer") } { print }' >"$out/badlines.txt"
robust "2 bad lines" "$out/badlines.txt" "skipped 2 bad lines (first: line 150: " \
	"$(head -400 "$out/net.txt" | sed -n '150,151!p' | grep -cE "$evgrep")"
# Three lines of CPU 1 moved 50 ms back in time (each alone: the next
# line is later again); CPU 0 untouched.
xz -dc tests/data/traces/net.txt.xz | head -2000 | awk '
	/ \[001\] / && NR > 1000 && k < 3 && NR % 7 == 0 && match($0, / [0-9]+\.[0-9]+: /) {
		ts = substr($0, RSTART + 1, RLENGTH - 3)
		$0 = substr($0, 1, RSTART) sprintf("%.6f", ts - 0.05) substr($0, RSTART + RLENGTH - 2); k++ }
	{ print }' >"$out/back.txt"
robust "timestamps back on CPU 1" "$out/back.txt" "3 events went back in time on their CPU: dropped (cpu 1: 3, first: cpu 1: " \
	"$(($(head -2000 "$out/net.txt" | grep -cE "$evgrep") - 3))"

# Timers started on one CPU for another's wheel (timer_start cpu=) are
# replayed on the CPU that runs them: 12 started on CPU 0 for CPU 3,
# fired there; CPU 3 has no event of its own before them.
awk 'BEGIN { init = 4294967296 - 300 * 250
	for (i = 0; i < 12; i++) {
		j = init + 25000 + 10 * i; t = (j - init) / 250 + 0.0001
		printf "  task-100 [000] d..1. %.6f: timer_start: timer=%016x function=f expires=%.0f [timeout=25] cpu=3 idx=0 flags=\n", t, 4096 + i, j + 25
		e[i] = j + 26
	}
	for (i = 0; i < 12; i++) {
		t = (e[i] - init) / 250 + 0.00002
		printf "  <idle>-0 [003] d.s2. %.6f: timer_cancel: timer=%016x\n", t, 4096 + i
		printf "  <idle>-0 [003] ..s1. %.6f: timer_expire_entry: timer=%016x function=f now=%.0f baseclk=%.0f\n", t, 4096 + i, e[i], e[i]
	}
}' | sort -s -k4,4n >"$out/remote.txt"
"$bin" -q --csv "$out/remote.csv" --hz 250 "$out/remote.txt" >"$out/remote.out" 2>"$out/remote.err"
rc=$?
p=()
[ $rc -eq 0 ] || p+=("exit $rc: $(head -2 "$out/remote.err")")
fired3=$(awk -F, '$1 == 250 && $2 == "periodic" && $3 == "3" { print $9 }' "$out/remote.csv")
fired0=$(awk -F, '$1 == 250 && $2 == "periodic" && $3 == "0" { print $9 }' "$out/remote.csv")
[ "$fired3" = 12 ] && [ "$fired0" = 0 ] || p+=("fired on cpu3: '$fired3', on cpu0: '$fired0' (want 12 and 0)")
report "hzadvise: timers started for another CPU's wheel run there" "${p[@]}"

# Budgets per thread and per size of timeout (issue 43): tests/hzadvise/udp2.c,
# one process whose client thread waits 1 ms with SO_RCVTIMEO while its
# server thread waits 200 ms, recorded on a Linux 6.18 VM at 250 Hz
# (tests/data/traces/real/udp2.txt.xz, with record.sh's stacks). From the
# raw lines, here: each udp2 thread's process_timeout timeouts; the
# client is the thread whose median is 1 tick, and the comm's median, the
# old budget, is the server's 50 ticks. A 1-tick timeout runs at least
# one tick of H after the jiffy it asked for (Linux's level 0 rounds up
# one jiffy), so within the 2 ms budget only H >= 500: of the candidates,
# 1000. The reason names the client thread and what it waits in.
if $CC -std=gnu11 -Wall -Wextra -Werror -O2 -pthread tests/hzadvise/udp2.c -o "$out/udp2" >"$out/udp2.log" 2>&1; then
	report "hzadvise: tests/hzadvise/udp2.c builds warning-free"
else
	report "hzadvise: tests/hzadvise/udp2.c builds warning-free" "$(head -5 "$out/udp2.log")"
fi
f=tests/data/traces/real/udp2.txt.xz
xz -dc "$f" | awk '/ timer_start: .*function=process_timeout/ && /^ *udp2-/ {
	t = $0; sub(/.*timeout=/, "", t); sub(/\].*/, "", t); p = $1; sub(/.*-/, "", p); print p, t }' >"$out/udp2.asks"
med() { sort -n | awk '{ v[++n] = $1 } END { print v[int((n + 1) / 2)] }'; }
client=$(awk '{ print $1 }' "$out/udp2.asks" | sort -u | while read -r pid; do
	echo "$(awk -v p="$pid" '$1 == p { print $2 }' "$out/udp2.asks" | med) $pid"; done | sort -n | head -1)
comm_med=$(awk '{ print $2 }' "$out/udp2.asks" | med)
cpid=${client#* }
"$bin" "$f" >"$out/udp2.out" 2>"$out/udp2.err"
line=$(grep '^recommend:' "$out/udp2.out")
rhz=$(field hz "${line%% reason=*}")
p=()
[ "${client%% *}" = 1 ] && [ "$comm_med" = 50 ] || p+=("the trace is not the case: client median ${client%% *}, comm median $comm_med")
[ -n "$rhz" ] && [ "$rhz" -ge 500 ] || p+=("recommends hz=$rhz")
[[ $line == *"udp2 thread $cpid's timeouts (recvfrom with SO_RCVTIMEO, median 1 recorded tick"* ]] ||
	p+=("the reason does not name thread $cpid and recvfrom with SO_RCVTIMEO: $line")
report "hzadvise: udp2: hz=$rhz (>= 500), for the 1 ms client thread $cpid, not the comm's median of $comm_med ticks" "${p[@]}"
# Its thread: lines: late past 2 ms at 100, 250 and 300 Hz, within at 1000.
p=()
for hw in 100:yes 250:yes 300:yes 1000:no; do
	tl=$(grep "^thread: hz=${hw%%:*} mode=nohz name=udp2 pid=$cpid " "$out/udp2.out")
	[ "$(field late "$tl")" = "${hw#*:}" ] && [ "$(field judged "$tl")" = yes ] || p+=("hz=${hw%%:*}: ${tl:-no thread: line}")
	[ "$(field budget_us "$tl")" = 2000 ] || p+=("hz=${hw%%:*}: budget_us $(field budget_us "$tl"), want 2000")
done
report "hzadvise: udp2: client thread late past 2 ms below 1000 Hz only" "${p[@]}"

# Without sched events (issue 43, item 1): never silently 20-30 % off. The
# replay at the recorded setting is within 15 % of the wakeups the trace
# shows, or the check: line says rerecord=yes with a bound at least as
# wide as its distance. The reference is counted here: synth's own count
# of the ticks it wrote, and for the real traces awk over the raw lines
# (real.sh).
# ok15 OFF BOUND REREC: within 15 %, or flagged with a bound that covers it.
ok15() { awk -v o="$1" -v b="$2" -v r="$3" 'BEGIN { if (o < 0) o = -o; exit !(o <= 15 || (r == "yes" && b >= o)) }'; }
"$out/synth" bursts >"$out/bursts.txt"
grep -vE ' (sched_switch|cpu_idle): ' "$out/bursts.txt" >"$out/bursts-n.txt"
grep -v 'hrtimer_start: .*function=tick_nohz_handler' "$out/bursts-n.txt" >"$out/bursts-nx.txt"
want=$(awk '/^# ticks / { printf "%.1f", $3 / 20 }' "$out/bursts.txt")
for c in "bursts:with sched events" "bursts-n:without, by the rule" "bursts-nx:without, and without the idle exits"; do
	f=${c%%:*}
	"$bin" -q "$out/$f.txt" >"$out/$f.out" 2>&1
	chk=$(grep '^check:' "$out/$f.out")
	off=$(awk -v r="$(field replayed_per_s "$chk")" -v o="$want" 'BEGIN { printf "%.1f", 100 * (r - o) / o }')
	p=()
	ok15 "$off" "$(field bound_pct "$chk")" "$(field rerecord "$chk")" || p+=("$chk; $want ticks/s written")
	case $f in
	# Busy and idle known, the replay gives the ticks written (it gave
	# 13 % more while bursts began and ended on jiffy boundaries, a tie
	# of nanoseconds the trace cannot settle); by the rule, within 5 %.
	bursts) awk -v o="$off" 'BEGIN { exit !(o <= 2 && o >= -2) }' || p+=("with sched events, $off % off") ;;
	bursts-n) awk -v o="$off" 'BEGIN { exit !(o <= 5 && o >= -5) }' || p+=("the rule is $off % off") ;;
	bursts-nx)
		[ "$(field rerecord "$chk")" = yes ] || p+=("not flagged: $chk")
		grep -q '^recommend: .*re-record with tools/hzadvise/record.sh' "$out/$f.out" || p+=("the advice does not say to re-record")
		;;
	esac
	report "hzadvise: synthetic bursts, $c: replay $off % off the $want wakeups/s written, or flagged" "${p[@]}"
done
# A sched_switch missing from the trace (on the project's VM, some of the
# switches away from one process's threads are): the task column of the
# events after it says the idle task runs. synth bursts with every other
# switch into the idle task deleted must replay as the whole trace does
# (within 1 %: the same busy and idle); before the task column was read,
# 47 % more wakeups, the CPU busy to the replay until the next burst.
awk '/ sched_switch: prev_comm=task prev_pid=300 .*next_pid=0 / { if (++n % 2) next } { print }' \
	"$out/bursts.txt" >"$out/bursts-lost.txt"
a=$(field replayed_per_s "$(grep '^check:' "$out/bursts.out")")
b=$(field replayed_per_s "$("$bin" -q "$out/bursts-lost.txt" | grep '^check:')")
lost=$(($(grep -c ' sched_switch: ' "$out/bursts.txt") - $(grep -c ' sched_switch: ' "$out/bursts-lost.txt")))
[ "$lost" -gt 1000 ] && [ -n "$a" ] && within "$b" "$a" 1 &&
	report "hzadvise: $lost switches into idle missing: replay $b as the whole trace's $a wakeups/s" ||
	report "hzadvise: $lost switches into idle missing: replay $b as the whole trace's $a wakeups/s" "want within 1 %"
# The idle loop without a governor (Linux 6.12's do_idle() with no cpuidle
# driver, or one idle state: QEMU guests, the project's VM): the tick runs
# once more after each idle entry and stops only after it ran in idle.
# synth holds writes such a machine at 1000 Hz; at 100 and 250 Hz the
# ticks are counted here with awk from its idle exits and entries: every
# jiffy boundary after an idle exit up to the first one after the next
# idle entry. The same trace replayed as a governor's machine must miss
# them (the test can fail).
"$out/synth" holds >"$out/holds.txt"
holds_ref() { # HZ: ticks/s as Linux's idle loop without a governor makes them
	awk -v hz="$1" -v off=1000 '
		BEGIN { n = 0 }
		/^#/ { next }
		{
			for (f = 1; f <= NF; f++)
				if ($f ~ /^[0-9]+\.[0-9]+:$/) {
					t = substr($f, 1, length($f) - 1) * 1e9 - off
					break
				}
			if (!nl++)
				first = t
			last = t
		}
		/hrtimer_start:.*tick_nohz_handler/ && /<idle>/ { s[n] = t }
		/ sched_switch: .*next_comm=swapper/ { e[n++] = t }
		END {
			tick = int(1e9 / hz + 0.5)
			prev = -1
			for (k = 0; k < n; k++) {
				b = (int(s[k] / tick) + 1) * tick
				if (b <= prev)
					b = prev + tick
				for (nb = (int(e[k] / tick) + 1) * tick; b <= nb; b += tick) {
					c++
					prev = b
				}
			}
			printf "%.1f", c / ((last - first) / 1e9)
		}' "$out/holds.txt"
}
"$bin" -q --hz 100,250,1000 "$out/holds.txt" >"$out/holds.out" 2>&1
"$bin" -q --hz 100,250,1000 --idle-loop governor "$out/holds.txt" >"$out/holds-gov.out" 2>&1
p=()
grep -q '^source: .* idle_loop=hold ' "$out/holds.out" || p+=("not read as hold: $(grep '^source:' "$out/holds.out")")
for h in 100 250 1000; do
	ref=$(holds_ref $h)
	got=$(field ticks_per_s "$(grep "^setting: hz=$h mode=nohz " "$out/holds.out")")
	gov=$(field ticks_per_s "$(grep "^setting: hz=$h mode=nohz " "$out/holds-gov.out")")
	within "$got" "$ref" 1 || p+=("hz=$h: $got ticks/s, awk $ref")
	# At 1000 Hz the recorded ticks are replayed either way, and at 100 Hz
	# a burst ends in nearly every tick: 250 Hz tells the two apart.
	[ $h = 250 ] || continue
	! within "$gov" "$ref" 20 || p+=("hz=$h as a governor's machine: $gov, within 20 % of $ref")
	w250="$got against $ref (a governor's $gov)"
done
report "hzadvise: synth holds: the tick after each idle entry at 100, 250, 1000 Hz as awk counts it (250: $w250)" "${p[@]}"
# Which idle loop: the recorder's cpuidle= word first (one state or none:
# hold), else the trace's own tick stops (a stop with a task run since the
# last tick: a governor's), else hold.
p=()
idle_of() { "$bin" -q "$1" 2>/dev/null | sed -n 's/^source: .* idle_loop=\([a-z]*\) .*/\1/p'; }
word() { sed "1s|\$| cpuidle=$1|" "$2"; }
word intel_idle/4 "$out/holds.txt" >"$out/holds-w4.txt"
word none/0 "$out/bursts.txt" >"$out/bursts-w0.txt"
word acpi_idle/1 "$out/bursts.txt" >"$out/bursts-w1.txt"
word 'x' "$out/holds.txt" >"$out/holds-wx.txt"
for c in "holds.txt hold" "bursts.txt governor" "bursts-n.txt governor" "holds-w4.txt governor" \
	"bursts-w0.txt hold" "bursts-w1.txt hold" "holds-wx.txt hold"; do
	read -r f w <<<"$c"
	[ "$(idle_of "$out/$f")" = "$w" ] || p+=("$f: $(idle_of "$out/$f"), want $w")
done
[ "$("$bin" -q --idle-loop hold "$out/bursts.txt" | sed -n 's/^source: .* idle_loop=\([a-z]*\) .*/\1/p')" = hold ] ||
	p+=("--idle-loop hold not taken")
report "hzadvise: the idle loop from the recorder's cpuidle= word, else the trace's tick stops" "${p[@]}"
# --hz without the recorded HZ: the recorded setting is replayed all the
# same, so the replay is always checked (this test used to expect the
# re-record flag for a setting "not replayed", and passed only while the
# rule was more than 5 % off on synth bursts).
"$bin" -q --hz 100,250 "$out/bursts-n.txt" >"$out/bursts-nohz.out"
chk=$(grep '^check:' "$out/bursts-nohz.out")
grep -q '^setting: hz=1000 mode=nohz ' "$out/bursts-nohz.out" &&
	within "$(field replayed_per_s "$chk")" "$want" 5 && [ "$(field rerecord "$chk")" = no ] &&
	report "hzadvise: --hz without the recorded HZ: the recorded setting replayed and checked" ||
	report "hzadvise: --hz without the recorded HZ: the recorded setting replayed and checked" "$chk"
# The real traces, both ways (tests/hzadvise/real.sh: awk's count of the
# raw lines against the replay at the recorded setting); those recorded
# both ways at once (tests/hzadvise/traces/) three ways. With their sched
# events within 3 % (the asyncio trace was 6.4 % high before the task
# column told of the switches missing from it).
shopt -s nullglob
traces=(tests/data/traces/real/*.txt.xz tests/hzadvise/traces/*.txt.xz)
shopt -u nullglob
bash tests/hzadvise/real.sh "${traces[@]}" >"$out/real.txt" 2>&1
while read -r name way obs rep off bound rerec cmd dev; do
	p=()
	[ -n "$rep" ] && ok15 "$off" "$bound" "$rerec" || p+=("replay $rep/s against $obs/s observed ($off %), bound $bound %, rerecord=$rerec")
	[ "$way" != full ] || awk -v o="$off" 'BEGIN { exit !(o <= 3 && o >= -3) }' ||
		p+=("with sched events, $off % off (want within 3 %)")
	report "hzadvise: real $name ($way): replay $off % off the observed $obs wakeups/s, or flagged" "${p[@]}"
done <"$out/real.txt"
# Every trace read, each way: 2 rows for a trace alone, 3 for one with its
# .n twin (the held-out idle set among them: node, idled, mosquitto-idle,
# memcached-idle).
want_rows=0
for f in "${traces[@]}"; do
	[[ $f == *.n.txt.xz ]] && continue
	[ -e "${f%.txt.xz}.n.txt.xz" ] && want_rows=$((want_rows + 3)) || want_rows=$((want_rows + 2))
done
[ "$(wc -l <"$out/real.txt")" -eq "$want_rows" ] && [ "$want_rows" -ge 14 ] &&
	report "hzadvise: real traces: $want_rows rows, every trace read each way" ||
	report "hzadvise: real traces: $want_rows rows, every trace read each way" "$(wc -l <"$out/real.txt") rows"
# A trace recorded both ways at once: the stripped one and record.sh -n's
# replay alike (within 2 %; their seconds differ by the readers' start and
# stop), and so does each one's own awk count.
awk '$2 == "strip" { s[$1] = $4; so[$1] = $3 } $2 == "n" { n[$1] = $4; no[$1] = $3 }
	END { for (t in n) print t, s[t], n[t], so[t], no[t] }' "$out/real.txt" | sort >"$out/real-n.txt"
while read -r name s n so no; do
	f=$(ls tests/hzadvise/traces/"$name".txt.xz)
	read -r ns nn os on < <(bash tests/hzadvise/strip-vs-n.sh "$f" "${f%.txt.xz}.n.txt.xz")
	p=()
	within "$s" "$n" 2 && within "$so" "$no" 2 || p+=("replayed $s and $n, observed $so and $no")
	awk -v a="$ns" -v b="$nn" -v x="$os" -v y="$on" 'BEGIN { exit !(a > 100 && b > 100 &&
		x <= 0.001 * a + 2 && y <= 0.001 * b + 2) }' || p+=("events: $ns and $nn, $os and $on apart")
	report "hzadvise: real $name: stripped is record.sh -n's ($os and $on of $ns events apart), replays $s and $n/s" "${p[@]}"
done <"$out/real-n.txt"
[ -s "$out/real-n.txt" ] || record fail "hzadvise: no trace recorded both ways at once in tests/hzadvise/traces"

# Stripping a trace's sched events is what record.sh -n records (issue 43,
# item 1: the "without" traces are made so). Where this machine can record
# (root, tracefs with the timer events): record.sh with its default events
# and record.sh -n over the same 2 s, each in a tracefs instance of its own
# (-i), under a loop of 10 ms sleeps; the first stripped must hold the
# second's events (tests/hzadvise/strip-vs-n.sh: timestamps and flags
# aside, a tenth of a percent of them may differ as the two instances'
# writes interleave), the instances must be gone after, and -i with an
# instance that exists is refused in one line.
T=/sys/kernel/tracing
if [ "$(id -u)" -eq 0 ] && [ -w "$T/tracing_on" ] && [ -d "$T/instances" ] &&
	[ -e "$T/events/timer/timer_start/enable" ]; then
	bash -c 'while :; do sleep 0.01; done' &
	loop=$!
	bash tools/hzadvise/record.sh -i "hzcheck-$$-n" -n -d 2 -o "$out/rec-n.txt" 2>"$out/rec-n.log" &
	nrec=$!
	bash tools/hzadvise/record.sh -i "hzcheck-$$" -d 2 -o "$out/rec-full.txt" 2>"$out/rec-full.log"
	rc=$?
	wait $nrec
	rcn=$?
	kill $loop
	p=()
	[ $rc -eq 0 ] && [ $rcn -eq 0 ] || p+=("record.sh exited $rc and $rcn: $(cat "$out/rec-full.log" "$out/rec-n.log")")
	read -r ns nn os on < <(bash tests/hzadvise/strip-vs-n.sh "$out/rec-full.txt" "$out/rec-n.txt")
	grep -q ' sched_switch: ' "$out/rec-full.txt" || p+=("no sched_switch in the default recording")
	! grep -qE ' (sched_switch|cpu_idle): ' "$out/rec-n.txt" || p+=("sched_switch or cpu_idle in the -n recording")
	awk -v a="$ns" -v b="$nn" -v x="$os" -v y="$on" 'BEGIN { exit !(a > 100 && b > 100 &&
		x <= 0.001 * a + 2 && y <= 0.001 * b + 2) }' ||
		p+=("stripped: $ns events, -n: $nn; only stripped $os, only -n $on")
	[ ! -e "$T/instances/hzcheck-$$" ] && [ ! -e "$T/instances/hzcheck-$$-n" ] || p+=("an instance was left")
	report "hzadvise: record.sh stripped is record.sh -n ($ns and $nn events, $os and $on apart)" "${p[@]}"
	mkdir "$T/instances/hzcheck-$$"
	msg=$(bash tools/hzadvise/record.sh -i "hzcheck-$$" -d 1 -o "$out/rec-x.txt" 2>&1)
	rc=$?
	rmdir "$T/instances/hzcheck-$$"
	[ $rc -ne 0 ] && [ "$(wc -l <<<"$msg")" = 1 ] && [[ $msg == *"exists already"* ]] &&
		report "hzadvise: record.sh -i with an instance that exists: one line" ||
		report "hzadvise: record.sh -i with an instance that exists: one line" "exit $rc: $msg"
	# Stopped by SIGTERM: the instance removed within 5 s, the top level untouched.
	before=$(cat "$T/set_event" "$T/tracing_on")
	sleeps=$(pgrep -x -f 'sleep 3600' | sort)
	bash tools/hzadvise/record.sh -i "hzcheck-$$-t" -d 0 -o "$out/rec-t.txt" 2>"$out/rec-t.log" &
	rec=$!
	sleep 1.5
	kill -TERM $rec
	for _ in $(seq 50); do
		[ -e "$T/instances/hzcheck-$$-t" ] || kill -0 $rec 2>/dev/null || break
		sleep 0.1
	done
	wait $rec
	rc=$?
	p=()
	[ $rc -eq 143 ] || p+=("exit $rc, want 143")
	[ ! -e "$T/instances/hzcheck-$$-t" ] || p+=("the instance was left")
	[ "$(cat "$T/set_event" "$T/tracing_on")" = "$before" ] || p+=("the top level's events or tracing_on changed")
	grep -q ' hrtimer_expire_entry: ' "$out/rec-t.txt" || p+=("no events kept in the file")
	# Nothing of it left running (its sleep held a caller's pipe for an hour).
	left=$(comm -13 <(echo "$sleeps") <(pgrep -x -f 'sleep 3600' | sort))
	[ -z "$left" ] || { p+=("its sleep is left: pid $left"); kill $left; }
	report "hzadvise: record.sh -i stopped by SIGTERM: instance removed, top level untouched" "${p[@]}"
else
	echo "hzadvise: no tracefs instances here (or not root): record.sh -i not run"
fi

# The HTML report in a real browser (headless Chromium, installed with
# apt-get when missing): red where the text says late, every legend inside
# its figure, the re-record warning where the check: line asks for one
# (tests/hzadvise/html-check.sh). The udp2 trace has late cells, the
# stripped synth bursts without its idle exits the warning.
bash tests/hzadvise/html-check.sh "$bin" "$out/html" tests/data/traces/real/udp2.txt.xz \
	"$out/bursts-nx.txt" tests/data/traces/net.txt.xz >"$out/html.txt" 2>&1
while read -r verdict _ name rest; do
	case $verdict in
	pass) report "hzadvise: --html in Chromium: ${name%:} ($rest)" ;;
	skip) echo "hzadvise: --html in Chromium: skipped: $name $rest" ;;
	*) report "hzadvise: --html in Chromium: ${name%:}" "$rest" ;;
	esac
done <"$out/html.txt"
[ -s "$out/html.txt" ] || record fail "hzadvise: --html in Chromium: html-check.sh printed nothing"

# The clang static analyzer finds nothing in tools/hzadvise (issue 43,
# item 5): scan-build (Debian's clang-tools, which scripts/deps.sh
# installs for make check) over every file, as hzadvise is built.
if command -v scan-build >/dev/null && command -v clang >/dev/null; then
	rm -rf "$out/scan" && mkdir -p "$out/scan"
	(cd "$out/scan" && scan-build -o "$PWD/report" --status-bugs clang -std=gnu11 -Wall -Wextra -O1 \
		-I"$OLDPWD/include" -c "$OLDPWD"/tools/hzadvise/*.c) >"$out/scan.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] && report "hzadvise: scan-build finds no bug in tools/hzadvise" ||
		report "hzadvise: scan-build finds no bug in tools/hzadvise" "$(grep -E 'warning:|bugs found' "$out/scan.log" | head -5)"
else
	echo "hzadvise: scan-build not installed (apt-get install clang-tools): not run"
fi
