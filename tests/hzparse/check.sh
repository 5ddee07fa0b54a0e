#!/bin/bash
# The hzadvise trace reader (tools/hzadvise/trace.c): test_parse.c's cases,
# built with warnings as errors and again under ASan + UBSan, one result per
# case and build; then every trace of tests/data/traces/ (the real ones and
# the synthetic ones in older formats) read whole, with the counts per event
# compared to what grep finds in the same text, an independent count.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh

CC=${CC:-gcc}
out=build/hzparse
mkdir -p "$out"
flags=(-std=gnu11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -g)
src=(tests/hzparse/test_parse.c tools/hzadvise/trace.c)
builds=(plain san)
declare -A bflags=(
	[plain]="-O2"
	[san]="-O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
)

# cases BUILD: runs test_parse, records each "pass NAME" / "fail NAME" it
# prints with the problems (indented lines) printed before it.
cases() {
	local b=$1 bin=$out/test_parse-$1 log=$out/test_parse-$1.log rc verdict name
	local problems=()
	rm -rf "$out/scratch-$b"
	"$bin" "$out/scratch-$b" >"$log" 2>"$log.stderr"
	rc=$?
	while IFS= read -r line; do
		if [[ $line == "  "* ]]; then
			problems+=("$line")
			continue
		fi
		read -r verdict name <<<"$line"
		if [ "$verdict" = pass ]; then
			report "hzparse: $name [$b]"
		else
			report "hzparse: $name [$b]" "${problems[@]:-no detail}"
		fi
		problems=()
	done <"$log"
	# A crash or a sanitizer's stop leaves the cases after it unprinted.
	if [ "$rc" -ne 0 ]; then
		report "hzparse: test_parse ran to its end [$b]" "exit status $rc" \
			"${problems[@]}" "$(tail -20 "$log.stderr")"
	fi
}

for b in "${builds[@]}"; do
	# shellcheck disable=SC2086
	if $CC "${flags[@]}" ${bflags[$b]} "${src[@]}" -o "$out/test_parse-$b" \
		>"$out/build-$b.log" 2>&1; then
		report "hzparse: build [$b]"
		cases "$b"
	else
		report "hzparse: build [$b]" "$(head -20 "$out/build-$b.log")"
	fi
done

# The counts grep finds: event names as ftrace prints them, ": NAME: ".
events=(timer_start timer_cancel timer_expire_entry hrtimer_start hrtimer_cancel
	hrtimer_expire_entry tick_stop sched_switch cpu_idle sched_wakeup sched_waking)
expected() { # text-file format
	local e line="" n
	for e in "${events[@]}"; do
		n=$(grep -c ": $e: " "$1")
		line+=" $e=$n"
	done
	echo "${line# } format=$2 rc=0"
}

# trace FILE FORMAT: the reader's counts against grep's; no error, nothing unknown.
trace() {
	local f=$1 fmt=$2 text got want problems=()
	text=$out/$(basename "$f").txt
	case $f in
	*.xz) xz -dc "$f" >"$text" ;;
	*) cp "$f" "$text" ;;
	esac
	want=$(expected "$text" "$fmt")
	got=$("$out/test_parse-plain" --count "$f" 2>"$out/count.log")
	got=$(echo "$got" | sed 's/^.* comments=[0-9]* //; s/ max_cpu=[0-9]*//')
	[ "$got" = "$want" ] || problems+=("got:  $got" "want: $want" "$(cat "$out/count.log")")
	"$out/test_parse-plain" --count "$f" 2>/dev/null | grep -q ' unknown=0 ' ||
		problems+=("unknown lines")
	report "hzparse: $(basename "$f"): counts as grep's" "${problems[@]}"
}

if [ -x "$out/test_parse-plain" ]; then
	for f in tests/data/traces/*.txt.xz; do
		trace "$f" trace_pipe
	done
	trace tests/data/traces/synthetic/v4_14_trace.txt trace
	trace tests/data/traces/synthetic/v6_6_trace_cmd.txt trace-cmd
	trace tests/data/traces/synthetic/v6_8_pipe.txt trace_pipe
	# The synthetic traces' own figures: the events each was written with.
	for f in v4_14_trace.txt:27 v6_6_trace_cmd.txt:27 v6_8_pipe.txt:27; do
		n=$("$out/test_parse-plain" --count "tests/data/traces/synthetic/${f%%:*}" |
			sed -n 's/.* events=\([0-9]*\) .*/\1/p')
		if [ "$n" = "${f##*:}" ]; then
			report "hzparse: ${f%%:*}: ${f##*:} events"
		else
			report "hzparse: ${f%%:*}: ${f##*:} events" "read $n"
		fi
	done
fi
exit 0
