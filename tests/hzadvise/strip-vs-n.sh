#!/bin/bash
# strip-vs-n: is a trace with its sched_switch and cpu_idle lines stripped
# what `record.sh -n` records? Both traces were recorded over the same
# seconds of one machine (record.sh -i, one instance each): the events of
# the first, stripped, against the events of the second, as "cpu event
# payload" (timestamps, the flags column and timer_start's [timeout=]
# aside: the two instances stamp one event a microsecond apart, and the
# need-resched flag may be set, and jiffies move on, between the two
# writes: timeout= is expires less jiffies as each write reads them),
# within the seconds both cover (less 10 ms at each end, as each reader
# starts and stops on its own).
#
#	strip-vs-n.sh FULL N
#
# Prints "STRIPPED N_EVENTS ONLY_STRIPPED ONLY_N"; exit status 2 when a
# trace cannot be read or holds no events.
[ $# -eq 2 ] || { echo "usage: strip-vs-n.sh FULL N" >&2; exit 2; }
tmp=$(mktemp -d /tmp/strip-vs-n.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
events() { # file strip: "ts cpu event: payload", one an event
	xz -dcf "$1" | awk -v strip="$2" '/^#/ { next }
		strip && / (sched_switch|cpu_idle): / { next }
		{ if (!match($0, / [0-9]+\.[0-9]+: [a-z_]+: /)) next
		  ev = substr($0, RSTART + 1); ts = ev; sub(/: .*/, "", ts); sub(/^[^ ]* /, "", ev)
		  c = $0; sub(/^[^[]*\[/, "", c); sub(/\].*/, "", c)
		  sub(/ \[timeout=-?[0-9]+\]/, "", ev)
		  print ts, c, ev }'
}
events "$1" 1 >"$tmp/a" && events "$2" 0 >"$tmp/b" || exit 2
[ -s "$tmp/a" ] && [ -s "$tmp/b" ] || { echo "strip-vs-n.sh: no events in $1 or $2" >&2; exit 2; }
# The common seconds: from the later first event to the earlier last one.
lo=$(sort -n -k1,1 "$tmp/a" | head -1 | cut -d' ' -f1; sort -n -k1,1 "$tmp/b" | head -1 | cut -d' ' -f1)
hi=$(sort -n -k1,1 "$tmp/a" | tail -1 | cut -d' ' -f1; sort -n -k1,1 "$tmp/b" | tail -1 | cut -d' ' -f1)
lo=$(sort -n <<<"$lo" | tail -1)
hi=$(sort -n <<<"$hi" | head -1)
for x in a b; do
	awk -v lo="$lo" -v hi="$hi" '$1 >= lo + 0.01 && $1 <= hi - 0.01 { $1 = ""; print }' "$tmp/$x" |
		sort >"$tmp/$x.s"
done
echo "$(wc -l <"$tmp/a.s") $(wc -l <"$tmp/b.s") $(comm -23 "$tmp/a.s" "$tmp/b.s" | wc -l)" \
	"$(comm -13 "$tmp/a.s" "$tmp/b.s" | wc -l)"
