/* SPDX-License-Identifier: MIT */
/*
 * The hosted port: the core running as an ordinary program, on simulated
 * clock devices, for tests, benchmarks and tools.
 */
#ifndef DYNHZ_HOST_H
#define DYNHZ_HOST_H

#include <dynhz/types.h>

/*
 * Boots the core as the kernel would: reads hz= / HZ= from cmdline (NULL
 * is an empty command line), sets HZ on a simulated 8254 PIT in periodic
 * mode, computes every derived constant, starts jiffies at INITIAL_JIFFIES
 * and prints the setup report. Returns 0, -DZ_EINVAL (bad number: HZ 250)
 * or -DZ_ERANGE (out of range: nearest bound); the boot goes on either way.
 * May be called again to boot afresh.
 */
int dynhz_boot(const char *cmdline);

/* Like dynhz_boot, with no report: for tests that boot thousands of times. */
int dynhz_boot_quiet(const char *cmdline);

/*
 * Host output goes to stdout unless silenced (tests silence it and read
 * the last line printed instead).
 */
void dynhz_host_set_quiet(bool quiet);
const char *dynhz_host_last_line(void);

#endif
