/* SPDX-License-Identifier: MIT */
/* Time units and the timespec64 of the kernel API. */
#ifndef DYNHZ_TIME64_H
#define DYNHZ_TIME64_H

#include <dynhz/types.h>

#define MSEC_PER_SEC  1000UL
#define USEC_PER_MSEC 1000UL
#define USEC_PER_SEC  1000000UL
#define NSEC_PER_USEC 1000UL
#define NSEC_PER_MSEC 1000000UL
#define NSEC_PER_SEC  1000000000ULL

struct timespec64 {
	s64 tv_sec;
	long tv_nsec;
};

#endif
