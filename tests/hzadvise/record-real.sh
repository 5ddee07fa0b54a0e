#!/bin/bash
# How the real traces of tests/data/traces/real/ were recorded (issue 43):
# programs nobody here wrote, from Debian's packages, each under a client,
# on this project's development VM, with tools/hzadvise/record.sh's
# default events (sched_switch, cpu_idle, the wakeups and the stacks of
# tasks' schedule_timeout sleeps). The same recording without its
# sched_switch and cpu_idle lines is what `record.sh -n` (or trace-cmd
# record -e timer) gives: tests/hzadvise/real.sh strips them, so each
# trace is read both ways from one recording.
#
#	record-real.sh NAME [SECONDS] [OUTDIR]
#
# NAME: memcached, lighttpd, daemons, build (the training set), mosquitto,
# redis, desktop (held out), loops, asyncio (the issue's own two cases).
# Needs root, tracefs and the packages named below (apt-get install
# memcached lighttpd mosquitto mosquitto-clients chrony rsyslog cron
# redis-server chromium curl python3). Writes OUTDIR/NAME.txt.xz.
set -u
cd "$(dirname "$0")/../.." || exit 1
name=${1:?usage: record-real.sh NAME [SECONDS] [OUTDIR]}
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
	# 100 ms through its socket), cron.
	printf 'local stratum 10\nallow 127.0.0.1\ndriftfile %s/drift\ncmdport 0\n' "$work" >"$work/chrony.conf"
	bg chronyd -d -x -f "$work/chrony.conf"
	printf 'module(load="imuxsock" SysSock.Name="%s/log")\n*.* %s/messages\n' "$work" "$work" >"$work/rsyslog.conf"
	bg rsyslogd -n -f "$work/rsyslog.conf" -i "$work/rsyslog.pid"
	bg cron -f
	sleep 0.5
	bg bash -c "while :; do logger -u $work/log hzreal tick; sleep 0.1; done"
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
*)
	echo "record-real.sh: $name: no such workload" >&2
	exit 2
	;;
esac
sleep 1
bash tools/hzadvise/record.sh -d "$secs" -o "$work/$name.txt" || exit 1
# What was running besides: the load, for the table.
echo "# load: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$work/$name.txt"
xz -9e -c "$work/$name.txt" >"$dir/$name.txt.xz"
echo "record-real.sh: $dir/$name.txt.xz: $(($(wc -l <"$work/$name.txt") - 2)) lines, $(wc -c <"$dir/$name.txt.xz") bytes"
