#!/bin/sh
# shellcheck shell=dash
# bbload: a workload of programs nobody here wrote, BusyBox's own (issue
# 43, item 4), in the Linux port's guest (/sbin/bbload of the advisor's
# initramfs, tests/advisor-linux/check.sh). POSIX sh: BusyBox's ash.
#
#	bbload start	start them, in the background
#	bbload -t S	check they all run, wait S seconds, check again;
#			"bbload: done" (guest-record.sh runs this while it records)
#	bbload stop	stop them
#
# The programs, each run by its path (/bin/NAME, a link to busybox) so
# that its comm is its name (BusyBox's ash runs an applet named without a
# path as /proc/self/exe: comm "exe"):
#   httpd   serving a page on 127.0.0.1:8080, and a wget of it every
#           20 ms (the loop sleeps with usleep: comm "usleep");
#   nc      a listener on 127.0.0.1:9000 (its input a FIFO that never
#           ends: at the end of its input nc closes), and a client fed one line per
#           turn of a shell loop that waits 20 ms for a line that never
#           comes (ash's read -t: a poll timeout, comm "sh");
#   ping    -i 0.02 of 127.0.0.1 (its interval is an ITIMER_REAL);
#   syslogd logging to a file, and a logger line every 100 ms (the loop
#           sleeps with sleep: comm "sleep");
#   crond   with one job a minute.
# The rates are such that in 20 s of recording the timers of usleep, sh
# and ping fire some 700 times or more (compare.sh -S judges a p99 from
# above from 688 firings on).
# Their pids are kept in /tmp/bbload/pids (each its own session, so that
# stop takes a loop and the child it waits for).
set -u
d=/tmp/bbload
case ${1:-} in
start)
	mkdir -p $d/www $d/cron
	echo "bbload page" >$d/www/index.html
	echo "* * * * * /bin/true" >$d/cron/root
	rm -f $d/fifo $d/quiet $d/pids
	mkfifo $d/fifo
	bg() {
		/bin/setsid "$@" </dev/null >/dev/null 2>&1 &
		echo $! >>$d/pids
	}
	bg /bin/httpd -f -p 127.0.0.1:8080 -h $d/www
	mkfifo $d/quiet
	bg /bin/sh -c "exec /bin/nc -l -p 9000 <>$d/quiet"
	bg /bin/syslogd -n -O $d/messages
	bg /bin/crond -f -c $d/cron
	# The servers listen before their clients start.
	/bin/usleep 200000
	bg /bin/sh -c "while :; do /bin/wget -q -O /dev/null http://127.0.0.1:8080/index.html; /bin/usleep 20000; done"
	bg /bin/sh -c "while :; do read -t 0.02 x <>$d/fifo; echo line; done | /bin/nc 127.0.0.1 9000"
	bg /bin/ping -q -i 0.02 127.0.0.1
	bg /bin/sh -c "while :; do /bin/logger -t bbload tick; /bin/sleep 0.1; done"
	/bin/usleep 500000
	;;
-t)
	secs=${2:?bbload -t SECONDS}
	/bin/sleep "$secs"
	rc=0
	grep -q "bbload: tick" $d/messages 2>/dev/null || { echo "bbload: no logger line in syslogd's file"; rc=1; }
	for n in httpd syslogd crond ping; do
		pidof $n >/dev/null || { echo "bbload: $n is not running"; rc=1; }
	done
	[ "$(pidof nc | wc -w)" -ge 2 ] || { echo "bbload: nc, listener and client, not both running"; rc=1; }
	[ $rc = 0 ] && echo "bbload: done"
	exit $rc
	;;
stop)
	[ -r $d/pids ] || exit 0
	for p in $(cat $d/pids); do kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null; done
	;;
*)
	echo "usage: bbload start | -t SECONDS | stop" >&2
	exit 2
	;;
esac
