#!/bin/bash
# The real traces of tests/data/traces/real/ (tests/hzadvise/record-real.sh),
# each read twice: as recorded (sched_switch and cpu_idle: busy and idle
# from the trace) and with those lines stripped (what record.sh -n gives:
# busy and idle by the rule). One row per trace and way:
#
#   trace way observed replayed off_pct bound_pct rerecord advice maxdev_pct
#
# observed: the trace's wakeups/s counted here with awk from the raw lines
# (hrtimer expiries, a run closer than 30 us on one CPU counted once), not
# by hzadvise; replayed: hzadvise's replay at the recorded setting; off:
# their distance; bound and rerecord: what hzadvise says of its own
# figures (check: line); advice: its cmdline; maxdev: for the stripped
# way, the largest distance of a setting's wakeups from the same
# setting's replay with the sched events (a measure of the rule, used to
# set the model's bound on the training traces only).
#
# A trace recorded both ways at once (record-real.sh -b) has a sibling
# NAME.n.txt.xz, what record.sh -n recorded over the same seconds: it is
# read too, as the way "n" (observed from its own lines).
#
#	real.sh [HZADVISE] TRACE...
cd "$(dirname "$0")/../.." || exit 1
bin=build/tools/hzadvise
if [ $# -gt 0 ] && [ -x "$1" ] && [ ! -d "$1" ] && [[ $1 != *.xz ]]; then
	bin=$1
	shift
fi
tmp=$(mktemp -d /tmp/hzreal-eval.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
observed() { # file: wakeups/s from the raw lines
	awk '/ hrtimer_expire_entry: / {
		c = $0; sub(/^[^[]*\[/, "", c); sub(/\].*/, "", c)
		ts = $0; sub(/: hrtimer_expire_entry.*/, "", ts); sub(/.* /, "", ts)
		t = ts * 1e6; if (!(c in last) || t - last[c] > 30) n++; last[c] = t
		if (!any || ts < lo) lo = ts; if (ts > hi) hi = ts; any = 1 }
		/: (timer_|hrtimer_|tick_stop)/ { ts = $0; sub(/: [a-z_]+: .*/, "", ts); sub(/.* /, "", ts)
		if (!seen || ts < first) first = ts; if (ts > last_ts) last_ts = ts; seen = 1 }
		END { printf "%.1f\n", n / (last_ts - first) }' "$1"
}

for f in "$@"; do
	[[ $f == *.n.txt.xz ]] && continue
	name=$(basename "$f" .txt.xz)
	ways="full strip"
	xz -dc "$f" >"$tmp/full.txt"
	grep -vE ' (sched_switch|cpu_idle): ' "$tmp/full.txt" >"$tmp/strip.txt"
	"$bin" -q "$tmp/full.txt" >"$tmp/full.out" 2>/dev/null
	"$bin" -q "$tmp/strip.txt" >"$tmp/strip.out" 2>/dev/null
	if [ -e "${f%.txt.xz}.n.txt.xz" ]; then
		ways="full strip n"
		xz -dc "${f%.txt.xz}.n.txt.xz" >"$tmp/n.txt"
		"$bin" -q "$tmp/n.txt" >"$tmp/n.out" 2>/dev/null
	fi
	for way in $ways; do
		obs=$(observed "$tmp/$way.txt")
		chk=$(grep '^check:' "$tmp/$way.out")
		rep=$(field replayed_per_s "$chk")
		off=$(awk -v r="$rep" -v o="$obs" 'BEGIN { printf "%+.1f", 100 * (r - o) / o }')
		dev=-
		if [ $way != full ]; then
			dev=$(join <(grep '^setting:' "$tmp/full.out" | awk '{ print $2 "/" $3, $4 }' | sort) \
				<(grep '^setting:' "$tmp/$way.out" | awk '{ print $2 "/" $3, $4 }' | sort) |
				awk '{ a = $2; sub(/.*=/, "", a); b = $3; sub(/.*=/, "", b)
					d = 100 * (b - a) / a; if (d < 0) d = -d; if (d > m) m = d }
					END { printf "%.1f", m }')
		fi
		cmd=$(sed -n 's/^cmdline: //p' "$tmp/$way.out")
		echo "$name $way $obs $rep $off $(field bound_pct "$chk") $(field rerecord "$chk") ${cmd// /,} $dev"
	done
done
