// SPDX-License-Identifier: MIT
/*
 * Tickless idle, seen from the kernel: the wakeup figures of `stat` and of
 * the boot report (the idle check of tests/nohz is kernel/test/idletest.c).
 */
#include <kernel/clock.h>
#include <dynhz/tick.h>
#include <dynhz/timekeeping.h>
#include <dynhz/jiffies.h>
#include <dynhz/printk.h>

/* Per second over ns, in thousandths. */
static u64 per_sec_milli(u64 n, u64 ns)
{
	return ns ? n * 1000 * NSEC_PER_SEC / ns : 0;
}

void clock_report_wakeups(const char *who)
{
	struct dz_tick_stats st;
	u64 ns = ktime_get_ns(), r;

	dz_tick_stats(&st);
	r = per_sec_milli(st.interrupts, ns);
	dz_printk("%s: %llu timer interrupts and %llu idle entries in %llu.%03llu s: "
		  "%llu.%03llu wakeups/s (HZ=%u, nohz=%s, tick stopped %llu times)\n",
		  who, (unsigned long long)st.interrupts, (unsigned long long)st.idle_entries,
		  (unsigned long long)(ns / NSEC_PER_SEC),
		  (unsigned long long)(ns % NSEC_PER_SEC / NSEC_PER_MSEC),
		  (unsigned long long)(r / 1000), (unsigned long long)(r % 1000), HZ,
		  dz_tick_nohz_active() ? "on" : "off", (unsigned long long)st.stops);
}
