/* SPDX-License-Identifier: MIT */
/* NTP's side of the boot (time/ only). */
#ifndef DYNHZ_NTP_INTERNAL_H
#define DYNHZ_NTP_INTERNAL_H

/*
 * At every boot, after the hrtimer queue is reset: Linux's state after
 * boot (default tick, no frequency, no offset, time constant 2), the rate
 * one second a second.
 */
void dz_ntp_init(void);

#endif
