/* SPDX-License-Identifier: MIT */
/* What the core's own files (and its unit tests) share about HZ setup. */
#ifndef DYNHZ_HZ_INTERNAL_H
#define DYNHZ_HZ_INTERNAL_H

#include <dynhz/hz.h>

/* Forgets hz setup, as before boot: the debug build's HZ then traps. */
void dz_hz_forget(void);

#endif
