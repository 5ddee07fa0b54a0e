#!/bin/bash
# The console as a person uses it (run by `make check`): `make run`'s own
# boot (scripts/run-kernel.sh on a terminal: no -icount, guest time is
# real time) in a tmux pane, keys typed with send-keys, the screen read
# back with capture-pane. At HZ 24, 100, 1000 and 10000, two at a time:
#
#   demo     /init's demonstration reaches BusyBox's prompt; its
#            `time sleep 1` says real 1 to 9.99 s, never less (real time:
#            a loaded host makes it longer)
#   keys     echo $((6*7)) gives 42; backspace (echo dynhx, BSpace, z:
#            dynhz), Left (echo ab, Left, X: aXb) and Up (the last line
#            again) edit the line
#   ctrl-c   Ctrl-C ends a foreground sleep 100 at once (back at the
#            prompt within 5 s), status 130 (128 + SIGINT)
#   ctrl-\   Ctrl-\ ends one with SIGQUIT: status 131, the kernel's line
#            for a core-dump signal
#   cat      cat in canonical mode: a line typed with a backspace comes
#            back edited; Ctrl-D ends cat
#   poweroff BusyBox's poweroff stops QEMU cleanly (run-kernel.sh exits 0)
#
# Each result needs what the screen shows AND the boot's exit status.
#
#	tests/console/check.sh [name-regex]
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

qemu_suite console "$1"
if ! command -v tmux >/dev/null; then
	record fail "console: tmux is not installed (scripts/deps.sh check)"
	exit 0
fi
if ! make --no-print-directory kernel initramfs >"$out/build.log" 2>&1; then
	record fail "console: make kernel initramfs"
	tail -5 "$out/build.log" >&2
	exit 0
fi
kernel=$(make --no-print-directory print-kernel)
printf 'set -g history-limit 50000\n' >"$out/tmux.conf"
# One tmux server per boot, on its own socket: two boots starting a shared
# server at once raced (one got "server exited unexpectedly"), and a name
# that begins another's (hz1000, hz10000) must never pick the wrong pane.
# Each boot's subshell sets sock.
tm() { tmux -L "$sock" -f "$out/tmux.conf" "$@"; }

# BusyBox's prompt (PS1 of /etc/shrc); capture-pane drops trailing blanks.
PROMPT='^dynhz:[^ ]*#( |$)'

# screen S: the pane's whole history, wrapped lines joined, without the
# empty rows below the cursor.
screen() {
	tm capture-pane -p -J -S - -t "$1" 2>/dev/null |
		awk '{ l[NR] = $0 } NF { last = NR } END { for (i = 1; i <= last; i++) print l[i] }'
}

# wait_for S REGEX SECONDS: until the screen has a line matching REGEX
# (after the line count $mark), or the time is up (status 1).
wait_for() {
	local end=$((SECONDS + $3))
	while [ $SECONDS -le $end ]; do
		screen "$1" | tail -n +"$((mark + 1))" | grep -Eq -- "$2" && return 0
		sleep 0.2
	done
	return 1
}

# set_mark S: the line count now, for wait_for to look after.
set_mark() {
	mark=$(screen "$1" | wc -l)
}

# keys S KEY...: typed with a pause, as a person's keys come one by one.
keys() {
	local s=$1
	shift
	for k in "$@"; do
		tm send-keys -t "$s" "$k"
		sleep 0.1
	done
}

# One boot, driven: each step writes "name ok" or "name fail why" to $res.
# The boot is under timeout (--foreground: QEMU keeps the terminal, as it
# has it under make run); the pane, and its tmux server, go at the end.
session() { # session name hz
	local s=$1 hz=$2 res=$out/$1.res t0
	: >"$res"
	step() { echo "$1 $2" >>"$res"; }
	tm new-session -d -s "$s" -x 120 -y 40 \
		"timeout --foreground 300 bash scripts/run-kernel.sh $kernel 'hz=$hz' build/x86/initramfs.cpio; echo EXIT=\$?; sleep 600"
	mark=0
	if wait_for "$s" "$PROMPT" 90 && screen "$s" | grep -Eq '^real[[:space:]]+0m [1-9]\.[0-9][0-9]s$'; then
		step demo ok
	else
		step demo "fail no prompt, or no 'real 0m N.NNs' (N from 1 to 9) from time sleep 1"
		return
	fi
	set_mark "$s"
	keys "$s" 'echo $((6*7))' Enter
	wait_for "$s" '^42$' 10 || step keys "fail echo \$((6*7)) did not give 42"
	set_mark "$s"
	keys "$s" 'echo dynhx' BSpace z Enter
	wait_for "$s" '^dynhz$' 10 || step keys "fail backspace: no 'dynhz'"
	set_mark "$s"
	keys "$s" 'echo ab' Left X Enter
	wait_for "$s" '^aXb$' 10 || step keys "fail Left: no 'aXb'"
	set_mark "$s"
	keys "$s" Up Enter
	wait_for "$s" '^aXb$' 10 || step keys "fail Up: the last line did not come back"
	grep -q '^keys fail' "$res" || step keys ok

	set_mark "$s"
	keys "$s" 'sleep 100' Enter
	sleep 1
	t0=$SECONDS
	keys "$s" C-c
	if wait_for "$s" "$PROMPT" 5; then
		set_mark "$s"
		keys "$s" 'echo status=$?' Enter
		wait_for "$s" '^status=130$' 10 && step ctrl-c "ok $((SECONDS - t0))" ||
			step ctrl-c "fail no status=130 after Ctrl-C"
	else
		step ctrl-c "fail sleep 100 still running 5 s after Ctrl-C"
	fi

	set_mark "$s"
	keys "$s" 'sleep 100' Enter
	sleep 1
	keys "$s" 'C-\'
	if wait_for "$s" 'signal: pid [0-9]+ \(sleep\) killed by SIGQUIT$' 5 &&
		wait_for "$s" "$PROMPT" 5; then
		set_mark "$s"
		keys "$s" 'echo status=$?' Enter
		wait_for "$s" '^status=131$' 10 && step ctrl-bs ok ||
			step ctrl-bs "fail no status=131 after Ctrl-\\"
	else
		step ctrl-bs "fail no SIGQUIT line and prompt 5 s after Ctrl-\\"
	fi

	set_mark "$s"
	keys "$s" cat Enter 'abc' BSpace d Enter
	if wait_for "$s" '^abd$' 10 && [ "$(screen "$s" | tail -n +"$((mark + 1))" | grep -c '^abd$')" -ge 2 ]; then
		keys "$s" C-d
		wait_for "$s" "$PROMPT" 5 && step cat ok || step cat "fail Ctrl-D did not end cat"
	else
		step cat "fail the line did not come back as abd (echo, then cat's copy)"
	fi

	set_mark "$s"
	keys "$s" poweroff Enter
	if wait_for "$s" '^EXIT=' 20 && screen "$s" | grep -q '^EXIT=0$' &&
		screen "$s" | grep -q '^reboot: Power down$'; then
		step poweroff ok
	else
		step poweroff "fail no 'reboot: Power down' and EXIT=0"
	fi
}

cases=("hz24 24" "hz100 100" "hz1000 1000" "hz10000 10000")
running=0
for c in "${cases[@]}"; do
	read -r name hz <<<"$c"
	[[ $name =~ $filter ]] || continue
	(
		sock=dynhz-console-$$-$name
		trap 'tm kill-server 2>/dev/null' EXIT
		session "$name" "$hz"
		screen "$name" >"$out/$name.log"
	) &
	throttle
done
wait

for c in "${cases[@]}"; do
	read -r name hz <<<"$c"
	[[ $name =~ $filter ]] || continue
	shown=0
	for chk in demo keys ctrl-c ctrl-bs cat poweroff; do
		res=$(grep -m1 "^$chk " "$out/$name.res" 2>/dev/null)
		res=${res#"$chk "}
		if [[ $res == ok* ]]; then
			report "console: $chk [$name]"
			continue
		fi
		report "console: $chk [$name]" "${res:-no result (an earlier step failed)}"
		if [ $shown = 0 ]; then
			echo "---- the screen's last lines ($out/$name.log)" >&2
			tail -15 "$out/$name.log" >&2
			shown=1
		fi
	done
done
