#!/bin/sh
# BusyBox's sh as init (tests/shell/check.sh boots it as /test.sh): each
# case prints an "@name" line, then what check.sh compares with facts the
# script cannot make up (128 + the signal number, the clock, the count of
# forks it made). No case decides for itself: check.sh judges.
cd /

# Centiseconds of a "seconds.hundredths" value (no leading-zero octal).
cs() {
	echo $((${1%.*} * 100 + 1${1#*.} - 100))
}

# What /proc says, without a fork: MemFree in kB, the forks since boot.
memfree() {
	while read -r k v u; do
		[ "$k" = MemFree: ] && mem=$v
	done </proc/meminfo
}
forks() {
	while read -r k v; do
		[ "$k" = processes ] && nforks=$v
	done </proc/stat
}

echo "@times-before"
times
echo "@time"
time /burn.sh 2>&1
echo "@times-after"
times

echo "@pipe"
cat /proc/stat | grep cpu

echo "@top"
sh -c 'while :; do :; done' &
busy=$!
echo "busy $busy"
sleep 1
top -bn1
kill -KILL $busy
wait $busy
echo "busy-status $?"

echo "@kill"
for sig in TERM KILL USR1 HUP; do
	sleep 100 &
	p=$!
	sleep 0.1
	read -r t0 x </proc/uptime
	kill -$sig $p
	wait $p
	st=$?
	read -r t1 x </proc/uptime
	gone=yes
	[ -d /proc/$p ] && gone=no
	echo "$sig $(kill -l $sig 2>/dev/null) $st $(($(cs "$t1") - $(cs "$t0"))) $gone"
done

echo "@forks"
i=0
while [ $i -lt 50 ]; do
	(exit 3)
	/bin/true
	i=$((i + 1))
done
memfree
m0=$mem
forks
f0=$nforks
i=0
while [ $i -lt 100 ]; do
	(exit 3)
	/bin/true
	i=$((i + 1))
done
forks
f1=$nforks
memfree
m1=$mem
z=0
n=0
for s in /proc/[0-9]*/stat; do
	read -r pid comm state rest <"$s" || continue
	n=$((n + 1))
	[ "$state" = Z ] && z=$((z + 1))
done
echo "memfree $m0 $m1"
echo "forks $f0 $f1"
echo "procs $n zombies $z"
echo "@cmdline"
cat /proc/cmdline
echo "@dynhz"
cat /proc/dynhz
echo "@timer_list"
cat /proc/timer_list
echo "@end"
