#!/bin/bash
# console-trace: the trace tests/advisor-linux/guest-record.sh printed on a
# console, back as trace text.
#
#	console-trace.sh LOG NAME OUT
#
# Reads the lines between "hzadvise-trace: begin NAME FORMAT" and
# "hzadvise-trace: end NAME ..." of LOG (a console log: kernel messages
# amid them are left out, only "hzt:" lines are the trace's; a "\r" the
# serial line adds is dropped), decodes them (gz-base64 or text) into OUT,
# and checks the line count the end marker gives. Fails with one line on
# stderr: no such trace, a FAILED marker, a count that differs, lost
# events.
set -u
[ $# -eq 3 ] || { echo "usage: console-trace.sh LOG NAME OUT" >&2; exit 2; }
log=$1 name=$2 out=$3
[ -r "$log" ] || { echo "console-trace: cannot read $log" >&2; exit 1; }
if grep -aq "^hzadvise-trace: FAILED $name:" "$log"; then
	echo "console-trace: $(grep -a -m1 "^hzadvise-trace: FAILED $name:" "$log" | tr -d '\r')" >&2
	exit 1
fi
begin=$(grep -a -m1 "^hzadvise-trace: begin $name " "$log" | tr -d '\r')
end=$(grep -a -m1 "^hzadvise-trace: end $name " "$log" | tr -d '\r')
if [ -z "$begin" ] || [ -z "$end" ]; then
	echo "console-trace: no trace $name in $log (begin: ${begin:-none}, end: ${end:-none})" >&2
	exit 1
fi
format=${begin##* }
body() {
	awk -v n="$name" '{ sub(/\r$/, "") }
		$0 == "hzadvise-trace: begin " n " " f { on = 1; next }
		on && index($0, "hzadvise-trace: end " n " ") == 1 { exit }
		on && /^hzt:/ { print substr($0, 5) }' f="$format" "$log"
}
case $format in
gz-base64) body | base64 -d | gzip -dc >"$out" ;;
text) body >"$out" ;;
file) cp "$(sed -n 's/.* file=//p' <<<"$end")" "$out" ;;
*) echo "console-trace: $name: unknown format $format" >&2; exit 1 ;;
esac || { echo "console-trace: $name: the $format body does not decode" >&2; exit 1; }
want=$(sed -n 's/.* lines=\([0-9]*\).*/\1/p' <<<"$end")
lost=$(sed -n 's/.* lost=\([0-9]*\).*/\1/p' <<<"$end")
got=$(wc -l <"$out")
[ "$got" = "$want" ] || { echo "console-trace: $name: $got lines, the guest sent $want" >&2; exit 1; }
[ "${lost:-0}" = 0 ] || { echo "console-trace: $name: the ring buffer lost $lost events" >&2; exit 1; }
exit 0
