// SPDX-License-Identifier: MIT
/*
 * The hosted port: console on stdout, panics abort, and a simulated 8254
 * PIT as the clock-event device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dynhz/dynhz.h>
#include <dynhz/pit.h>
#include <dynhz/port.h>

static bool quiet;
static char last_line[256], cur_line[256];
static size_t cur_len;

void dynhz_host_set_quiet(bool q)
{
	quiet = q;
}

const char *dynhz_host_last_line(void)
{
	return last_line;
}

void dz_port_console_write(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n') {
			cur_line[cur_len] = '\0';
			memcpy(last_line, cur_line, cur_len + 1);
			cur_len = 0;
		} else if (cur_len + 1 < sizeof(cur_line)) {
			cur_line[cur_len++] = s[i];
		}
	}
	if (!quiet)
		fwrite(s, 1, len, stdout);
}

_Noreturn void dz_port_panic_exit(void)
{
	fflush(stdout);
	abort();
}

static int boot(const char *cmdline, bool report)
{
	enum dz_hz_source src;
	unsigned int hz;
	int err;

	err = dz_hz_parse(cmdline ? cmdline : "", &hz, &src);
	dz_hz_setup(hz, src, dz_pit_period(hz), "pit");
	if (report)
		dz_hz_report();
	return err;
}

int dynhz_boot(const char *cmdline)
{
	return boot(cmdline, true);
}

int dynhz_boot_quiet(const char *cmdline)
{
	return boot(cmdline, false);
}
