/* SPDX-License-Identifier: MIT */
/*
 * The whole public API of the dynhz core (the hosted port's is
 * <dynhz/host.h>, a port's side is <dynhz/port.h>).
 */
#ifndef DYNHZ_DYNHZ_H
#define DYNHZ_DYNHZ_H

#include <dynhz/types.h>
#include <dynhz/dztypes.h>
#include <dynhz/node.h>
#include <dynhz/errno.h>
#include <dynhz/hz.h>
#include <dynhz/time64.h>
#include <dynhz/conv.h>
#include <dynhz/jiffies.h>
#include <dynhz/bootparam.h>
#include <dynhz/printk.h>
#include <dynhz/clockevent.h>
#include <dynhz/clocksource.h>
#include <dynhz/ktime.h>
#include <dynhz/timekeeping.h>
#include <dynhz/timer.h>
#include <dynhz/hrtimer.h>
#include <dynhz/ntp.h>
#include <dynhz/tick.h>
#include <dynhz/retune.h>

#endif
