#!/bin/sh
# shellcheck shell=dash
# /sbin/run-checks of the advisor's Linux initramfs (tests/advisor-linux/
# check.sh makes it): /init runs it when the command line has a check=
# word (linux/rootfs/init), then powers off. It records one timer trace
# of the workloads (/sbin/guest-record, /sbin/hzworkload) and prints it on
# the console, named by hzw_name= (default trace) and hzw_t= seconds long
# (default 8), both from the kernel command line. The workload is
# /sbin/hzworkload (the project's own), or with hzw_load=busybox BusyBox's
# programs (/sbin/bbload: httpd and wget, nc, ping, syslogd and logger,
# crond), started before the recording and stopped after it.
secs=8 name=trace load=hzworkload
for w in $(cat /proc/cmdline); do
	case $w in
	hzw_t=*) secs=${w#hzw_t=} ;;
	hzw_name=*) name=${w#hzw_name=} ;;
	hzw_load=*) load=${w#hzw_load=} ;;
	esac
done
# The UDP workload talks over 127.0.0.1: the loopback, which /init leaves down.
busybox ifconfig lo 127.0.0.1 up 2>/dev/null || busybox ip link set lo up 2>/dev/null
echo "advisor-linux: recording $name for $secs s at hz=$(cat /proc/sys/kernel/hz 2>/dev/null || echo ?)"
if [ "$load" = busybox ]; then
	/sbin/bbload start
	/sbin/guest-record -t "$secs" -n "$name" -w /sbin/bbload
	/sbin/bbload stop
else
	/sbin/guest-record -t "$secs" -n "$name" -w /sbin/hzworkload
fi
echo "advisor-linux: done"
