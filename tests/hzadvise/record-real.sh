#!/bin/bash
# How the real traces of tests/data/traces/real/ and tests/hzadvise/traces/
# were recorded (issue 43): programs nobody here wrote, from Debian's
# packages, each under a client, on this project's development VM, with
# tools/hzadvise/record.sh's default events (sched_switch, cpu_idle, the
# wakeups and the stacks of tasks' schedule_timeout sleeps).
#
#	record-real.sh [-b] [-w SECONDS] [-t PCT] NAME [SECONDS] [OUTDIR]
#
# NAME: memcached, lighttpd, daemons, build (the training set), mosquitto,
# redis, desktop (held out), loops, asyncio (the issue's own two cases);
# for the idle machine (tests/hzadvise/traces/): loops, asyncio (training),
# node, idled, mosquitto-idle, memcached-idle (held out).
# Needs root, tracefs and the packages named below (apt-get install
# memcached lighttpd mosquitto mosquitto-clients chrony rsyslog cron
# redis-server chromium curl python3 nodejs). Writes OUTDIR/NAME.txt.xz.
#
#	-b	both ways at once: a second record.sh -n runs beside the first,
#		each in a tracefs instance of its own, over the same seconds,
#		into OUTDIR/NAME.n.txt.xz; the first trace with its
#		sched_switch and cpu_idle lines stripped must hold the same
#		events as the second (tests/hzadvise/strip-vs-n.sh): the
#		line "strip-vs-n:" says how many differ
#	-w S	first wait up to S seconds for an idle machine (the CPUs
#		PCT % idle over 2 s, -t, default 80), so that the tick stops
#		as on the issue's; the trailer line says how idle it was
#		while recording
set -u
cd "$(dirname "$0")/../.." || exit 1
both=0
wait_idle=0
idle_want=80
while getopts "bw:t:" opt; do
	case $opt in
	b) both=1 ;;
	w) wait_idle=$OPTARG ;;
	t) idle_want=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
name=${1:?usage: record-real.sh [-b] [-w SECONDS] [-t PCT] NAME [SECONDS] [OUTDIR]}
secs=${2:-6}
dir=${3:-tests/data/traces/real}
work=$(mktemp -d /tmp/hzreal.XXXXXX)
mkdir -p "$dir"
pids=()

# bg CMD...: started in its own session, stopped with its children at the end.
bg() {
	setsid "$@" >>"$work/log" 2>&1 </dev/null &
	pids+=($!)
}
stop() {
	local p
	for p in "${pids[@]}"; do
		kill -TERM -- -"$p" 2>/dev/null
	done
	sleep 0.5
	for p in "${pids[@]}"; do
		kill -KILL -- -"$p" 2>/dev/null
	done
	rm -rf "$work"
}
trap stop EXIT

# idle_pct S: the share of the CPUs' time idle over the next S seconds.
idle_pct() {
	local a b
	a=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
	sleep "$1"
	b=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
	awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " ")
		printf "%d\n", 100 * (y[1] - x[1]) / (y[2] - x[2] + 1e-9) }'
}
if [ "$wait_idle" -gt 0 ]; then
	end=$((SECONDS + wait_idle))
	until [ "$(idle_pct 2)" -ge "$idle_want" ]; do
		[ $SECONDS -lt $end ] || { echo "record-real.sh: the machine was not idle within $wait_idle s" >&2; exit 3; }
	done
fi
t0=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)

# daemons PERIOD: chronyd, rsyslogd with a logger line every PERIOD s
# through its own socket (not $work/log, which every bg appends to), cron.
daemons() {
	printf 'local stratum 10\nallow 127.0.0.1\ndriftfile %s/drift\ncmdport 0\n' "$work" >"$work/chrony.conf"
	bg chronyd -d -x -f "$work/chrony.conf"
	printf 'module(load="imuxsock" SysSock.Name="%s/syslog.sock")\n*.* %s/messages\n' "$work" "$work" >"$work/rsyslog.conf"
	bg rsyslogd -n -f "$work/rsyslog.conf" -i "$work/rsyslog.pid"
	bg cron -f
	sleep 0.5
	bg bash -c "while :; do logger -u $work/syslog.sock hzreal tick; sleep $1; done"
}

case $name in
memcached)
	# memcached, and a client on one connection: a set and a get every 5 ms.
	bg memcached -u root -l 127.0.0.1 -p 11311 -U 0 -t 2
	sleep 0.5
	bg bash -c 'exec 3<>/dev/tcp/127.0.0.1/11311
		while :; do printf "set k 0 0 1\r\nx\r\nget k\r\n" >&3
			read -r _ <&3; read -r _ <&3; read -r _ <&3; read -r _ <&3; sleep 0.005; done'
	;;
lighttpd)
	# lighttpd, a curl every 20 ms, and a keep-alive client asking every 100 ms.
	mkdir -p "$work/www"
	head -c 2000 /dev/zero | tr '\0' x >"$work/www/index.html"
	printf 'server.document-root = "%s"\nserver.port = 18080\nserver.bind = "127.0.0.1"\n' \
		"$work/www" >"$work/lighttpd.conf"
	bg lighttpd -D -f "$work/lighttpd.conf"
	sleep 0.5
	bg bash -c 'while :; do curl -s -o /dev/null http://127.0.0.1:18080/index.html; sleep 0.02; done'
	bg bash -c 'exec 3<>/dev/tcp/127.0.0.1/18080
		while :; do printf "GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n" >&3
			head -c 2200 <&3 >/dev/null; sleep 0.1; done'
	;;
daemons)
	# Daemons of an idle server: chronyd, rsyslogd (a logger line every
	# 100 ms through its socket), cron. (Until 2026-12-07 rsyslogd's
	# socket was $work/log, the file every bg appends to: rsyslogd put its
	# socket in the file's place, cron and the logger loop failed to
	# start, and tests/data/traces/real/daemons.txt.xz holds none of
	# these daemons' events.)
	daemons 0.1
	;;
build)
	# A build: gcc and make, two jobs, on a copy of this project's core.
	mkdir -p "$work/src"
	cp -r Makefile mk include time host lib scripts "$work/src/" 2>/dev/null
	bg bash -c "cd '$work/src' && for v in HZ= CONFIG_HZ=250 DEBUG=1 CONFIG_HZ=1000 M32=1; do
		nice -n 19 make -j2 \$v lib >/dev/null 2>&1; done"
	;;
mosquitto)
	# mosquitto, a subscriber (keep-alive 5 s), a publisher process every
	# 50 ms and one publisher fed a line every 10 ms.
	bg mosquitto -p 11883
	sleep 0.5
	bg mosquitto_sub -p 11883 -t a -t b -k 5
	bg bash -c 'while :; do mosquitto_pub -p 11883 -t a -m x; sleep 0.05; done'
	bg bash -c 'while :; do echo y; sleep 0.01; done | mosquitto_pub -p 11883 -t b -l'
	;;
redis)
	# redis-server (its own 10 Hz cron), and redis-cli fed a PING every 5 ms.
	bg redis-server --port 16379 --save '' --appendonly no
	sleep 0.5
	bg bash -c 'while :; do echo PING; sleep 0.005; done | redis-cli -p 16379 >/dev/null'
	;;
desktop)
	# A desktop-like mix: a browser showing an animated page with a 16 ms
	# JavaScript timer, top refreshing twice a second, and a clock loop.
	cat >"$work/anim.html" <<'EOF'
<!DOCTYPE html><html><body><div id=d style="width:50px;height:50px;background:red;position:absolute"></div>
<script>let x = 0; setInterval(() => { x = (x + 2) % 400; document.getElementById('d').style.left = x + 'px'; }, 16);</script>
</body></html>
EOF
	bg chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
		--user-data-dir="$work/chrome" --remote-debugging-port=0 "file://$work/anim.html"
	bg top -b -d 0.5
	bg bash -c 'while :; do date >/dev/null; sleep 1; done'
	sleep 2
	;;
loops)
	# The issue's first case: shell loops sleeping 0.1 to 3 s.
	for d in 0.1 0.25 0.5 0.7 1 1.5 2 3; do
		bg bash -c "while :; do sleep $d; done"
	done
	;;
asyncio)
	# The issue's second case: one asyncio loop of 15 tasks sleeping 10 ms to 1 s.
	bg python3 -c '
import asyncio, random
async def task(p):
    while True:
        await asyncio.sleep(p)
async def main():
    r = random.Random(1)
    ps = [0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0] + [r.uniform(0.01, 1.0) for _ in range(8)]
    await asyncio.gather(*(task(p) for p in ps))
asyncio.run(main())'
	;;
node)
	# A libuv loop (node): 12 timers of 10 ms to 2 s, each set again as it fires.
	bg node -e '
let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const ps = [10, 25, 50, 100, 250, 500, 1000, 2000];
for (let i = 0; i < 4; i++) ps.push(Math.floor(10 + rnd() * 990));
for (const p of ps) { const f = () => setTimeout(f, p); f(); }'
	;;
idled)
	# The daemons of an idle server: chronyd, rsyslogd (a logger line
	# every second through its socket), cron. (Until 2026-12-07 this
	# said "and a bash read -t 2 loop" too; daemons() never had one.)
	daemons 1
	;;
mosquitto-idle)
	# mosquitto, a subscriber (keep-alive 5 s), a publisher fed a line every 0.5 s.
	bg mosquitto -p 11884
	sleep 0.5
	bg mosquitto_sub -p 11884 -t b -k 5
	bg bash -c 'while :; do echo y; sleep 0.5; done | mosquitto_pub -p 11884 -t b -l'
	;;
memcached-idle)
	# memcached (its own 1 s clock), a client with a get every 200 ms.
	bg memcached -u root -l 127.0.0.1 -p 11312 -U 0 -t 2
	sleep 0.5
	bg bash -c 'exec 3<>/dev/tcp/127.0.0.1/11312
		while :; do printf "set k 0 0 1\r\nx\r\nget k\r\n" >&3
			read -r _ <&3; read -r _ <&3; read -r _ <&3; read -r _ <&3; sleep 0.2; done'
	;;
*)
	echo "record-real.sh: $name: no such workload" >&2
	exit 2
	;;
esac
sleep 1
# Every program of the workload still running, or no trace: one that
# failed to start would leave a trace of something else under its name.
for p in "${pids[@]}"; do
	if ! kill -0 "$p" 2>/dev/null; then
		echo "record-real.sh: $name: a program of the workload exited before the recording:" \
			"$(tail -1 "$work/log" 2>/dev/null)" >&2
		exit 1
	fi
done
if [ $both -eq 1 ]; then
	# Two recordings of the same seconds, each in its own tracefs instance.
	bash tools/hzadvise/record.sh -i "hzreal-$$-n" -n -d "$secs" -o "$work/$name.n.txt" &
	nrec=$!
	bash tools/hzadvise/record.sh -i "hzreal-$$" -d "$secs" -o "$work/$name.txt" || exit 1
	wait $nrec || exit 1
else
	bash tools/hzadvise/record.sh -d "$secs" -o "$work/$name.txt" || exit 1
fi
# What was running besides: the load and how idle the CPUs were, for the table.
t1=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
idle=$(awk -v a="$t0" -v b="$t1" 'BEGIN { split(a, x, " "); split(b, y, " ")
	printf "%d", 100 * (y[1] - x[1]) / (y[2] - x[2] + 1e-9) }')
for f in "$work/$name.txt" $([ $both -eq 1 ] && echo "$work/$name.n.txt"); do
	echo "# load: $(cut -d' ' -f1-3 /proc/loadavg) idle_pct=$idle" >>"$f"
done
if [ $both -eq 1 ]; then
	# The stripped trace against the -n one (tests/hzadvise/strip-vs-n.sh).
	read -r ns nn os on < <(bash tests/hzadvise/strip-vs-n.sh "$work/$name.txt" "$work/$name.n.txt")
	echo "strip-vs-n: $name: $ns events stripped, $nn with -n, $os only stripped, $on only -n"
	xz -9e -c "$work/$name.n.txt" >"$dir/$name.n.txt.xz"
fi
xz -9e -c "$work/$name.txt" >"$dir/$name.txt.xz"
echo "record-real.sh: $dir/$name.txt.xz: $(($(wc -l <"$work/$name.txt") - 2)) lines, $(wc -c <"$dir/$name.txt.xz") bytes, idle $idle %"
