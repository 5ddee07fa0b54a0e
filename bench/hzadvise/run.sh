#!/bin/bash
# bench/hzadvise: how fast build/tools/hzadvise replays a trace, and what
# memory it takes as the trace grows. The issue's target: at least 5 M
# events/s per setting, so that an hour of trace at all default settings
# (HZ 100, 250, 300, 1000, periodic and nohz: 8) takes under a minute;
# memory bounded by the timers pending, not by the trace's length.
#
# Traces: the four real ones (tests/data/traces), each as recorded and 10
# times end to end, build and net 100 times, and net for an hour
# (HZB_SECONDS, default 3600), made by bench/hzadvise/stretch.c (each copy
# shifted by a whole number of ticks and of wheel granules, the timers'
# addresses kept) into build/bench/hzadvise/ (2.6 GB; kept, and made again
# only when the stretcher or the real trace is newer). Each
# trace is run HZB_REPS times (default 3), all in turn; the table has the
# medians of the -v lines: parse speed (lines read / s) and replay speed
# per setting (events replayed at every setting / the time of them all),
# wall time and peak RSS (/usr/bin/time). Then, under callgrind (net, 1x
# and 10x): instructions per line read and per event replayed, and the
# fixed cost of a replay. HZB_CALLGRIND=0 leaves callgrind out. Writes
# build/bench/hzadvise.txt (one line per run). Fails only if hzadvise does.
set -eo pipefail
cd "$(dirname "$0")/../.."
export LC_ALL=C

out=build/bench/hzadvise
bin=build/tools/hzadvise
reps=${HZB_REPS:-3}
secs=${HZB_SECONDS:-3600}
rec_bytes=32 # sizeof(struct rec), tools/hzadvise/hzadvise.h: one spooled event
mkdir -p "$out/runs"
rm -f "$out"/runs/*

if ! make --no-print-directory bench-hzadvise >"$out/make.log" 2>&1; then
	tail -30 "$out/make.log" >&2
	echo "hzadvise: build failed (log: $out/make.log)" >&2
	exit 1
fi

step() { # step what command...: runs one part, says how long it took (on stderr)
	local what=$1 start=$SECONDS
	shift
	"$@"
	echo "hzadvise: $what: $((SECONDS - start)) s" >&2
}

fresh() { # fresh FILE DEP...: FILE exists and is newer than every DEP
	local f=$1 d
	shift
	[ -f "$f" ] || return 1
	for d in "$@"; do
		[ "$f" -nt "$d" ] || return 1
	done
}

# stretch NAME SRC ARGS...: $out/NAME.txt, SRC written as stretch ARGS says.
stretch() {
	local name=$1 src=$2
	shift 2
	fresh "$out/$name.txt" "$src" "$out/stretch" && return 0
	if ! "$out/stretch" "$@" "$src" >"$out/$name.tmp" 2>"$out/$name.stretch"; then
		cat "$out/$name.stretch" >&2
		echo "hzadvise: stretch failed for $name" >&2
		exit 1
	fi
	mv "$out/$name.tmp" "$out/$name.txt"
}

# rows: name|file; the order of the table.
rows=()
make_traces() {
	local t
	for t in idle build sleeps net; do
		fresh "$out/$t.txt" "tests/data/traces/$t.txt.xz" ||
			xz -dc "tests/data/traces/$t.txt.xz" >"$out/$t.txt"
		stretch "$t-x10" "$out/$t.txt" 10
		rows+=("$t|$out/$t.txt" "$t x10|$out/$t-x10.txt")
	done
	stretch build-x100 "$out/build.txt" 100
	stretch net-x100 "$out/net.txt" 100
	stretch net-long "$out/net.txt" -d "$secs"
	rows+=("build x100|$out/build-x100.txt" "net x100|$out/net-x100.txt"
		"net ${secs}s|$out/net-long.txt")
}

# run NAME FILE REP: one timed run; appends its figures to $out/runs.txt.
run() {
	local name=$1 file=$2 rep=$3 base
	base="$out/runs/${name// /_}.$rep"
	if ! /usr/bin/time -f 'time: rss_kb=%M wall_s=%e' -o "$base.time" \
		"$bin" -v -q "$file" >"$base.out" 2>"$base.err"; then
		tail -5 "$base.err" >&2
		echo "hzadvise: failed on $file (log: $base.err)" >&2
		exit 1
	fi
	awk -v name="$name" -v rep="$rep" '
		/^hzadvise: read / { lines = $3; read_s = $6; pre = $13 }
		/^hzadvise: replayed / { events = $3; settings = substr($5, 2); replay_s = $8 }
		/^source: / { for (i = 2; i <= NF; i++) if ($i ~ /^span_s=/) span = substr($i, 8) }
		/^time: / { rss = substr($2, 8); wall = substr($3, 8) }
		END {
			if (lines == "" || events == "" || span == "" || rss == "") {
				print "hzadvise: " name ": no -v lines to read" >"/dev/stderr"
				exit 1
			}
			printf "%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s\n", name, rep, span, lines, read_s,
				events, settings, replay_s, rss, wall, pre
		}' "$base.err" "$base.out" "$base.time" >>"$out/runs.txt"
}

runs() {
	local rep r
	: >"$out/runs.txt"
	for rep in $(seq "$reps"); do
		for r in "${rows[@]}"; do
			run "${r%%|*}" "${r#*|}" "$rep"
		done
	done
}

# callgrind NAME FILE: the instructions of source_read and replay_cpu (all
# they call included), the lines and events of the run, on one line.
callgrind() {
	local name=$1 file=$2 cg=$out/cg-${1// /_}
	if ! valgrind --tool=callgrind --callgrind-out-file="$cg.out" "$bin" -v "$file" \
		>"$cg.log" 2>&1; then
		tail -20 "$cg.log" >&2
		echo "hzadvise: callgrind failed (log: $cg.log)" >&2
		exit 1
	fi
	awk -v name="$name" -f bench/callgrind-names.awk -f bench/hzadvise/cg.awk "$cg.log" "$cg.out" >>"$out/ir.txt"
}

callgrinds() {
	callgrind net "$out/net.txt"
	callgrind "net x10" "$out/net-x10.txt"
}

step "traces" make_traces
step "$reps runs of ${#rows[@]} traces" runs
: >"$out/ir.txt"
if [ "${HZB_CALLGRIND:-1}" != 0 ] && command -v valgrind >/dev/null; then
	step "callgrind" callgrinds
fi
cp "$out/runs.txt" build/bench/hzadvise.txt

# "stretch: K copies, shift S ns = J jiffies at HZ H (granule G)"
read -r _ copies _ _ shift_ns _ _ shift_j _ _ _ hz _ granule <"$out/net-long.stretch"
echo "hzadvise's replay: speed and memory, $bin -v -q, the median of $reps runs, at the"
echo "default 8 settings (HZ 100, 250, 300, 1000 x periodic, nohz). Traces: tests/data/"
echo "traces as recorded and written end to end xN by bench/hzadvise/stretch; net ${secs}s is"
echo "$copies copies, each $((shift_ns / 1000000)) ms = $shift_j jiffies at HZ $hz after the one" \
	"before"
echo "(a multiple of ${granule%)} jiffies, the granule of the deepest wheel level its timers use)."
echo
awk -v target=5 -v wall_target=60 -v bound=1.5 -v rec_bytes="$rec_bytes" \
	-v long="net ${secs}s" -v tmpfs="$(stat -f -c %T /tmp 2>/dev/null || echo '?')" \
	-f bench/hzadvise/report.awk "$out/runs.txt" "$out/ir.txt"
echo "Runs: build/bench/hzadvise.txt (name|rep|span_s|lines|read_s|events|settings|replay_s|"
echo "rss_kb|wall_s|pending before), traces and logs: $out/"
echo
bash bench/hzadvise/item7.sh
