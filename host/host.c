// SPDX-License-Identifier: MIT
/*
 * The hosted port: console on stdout, panics abort, no interrupts to mask,
 * and a simulated 8254 PIT: channel 0 in periodic mode as the clock-event
 * device, and its 1193182 Hz input clock, counted, as the clocksource.
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

unsigned long dz_irq_save(void)
{
	return 0;
}

void dz_irq_restore(unsigned long flags)
{
	(void)flags;
}

/* The simulated PIT: time moves only when a test delivers ticks. */
static struct {
	u64 cycles;	      /* input clocks since boot */
	unsigned int divisor; /* input clocks per tick */
	bool periodic;
} sim;

static int sim_pit_set_periodic(struct clock_event_device *dev, unsigned int hz,
				struct dz_tick_period *period)
{
	(void)dev;
	if (hz < HZ_MIN || hz > HZ_MAX)
		return -DZ_ERANGE;
	sim.divisor = dz_pit_divisor(hz);
	sim.periodic = true;
	*period = dz_pit_period(hz);
	return 0;
}

static int sim_pit_shutdown(struct clock_event_device *dev)
{
	(void)dev;
	sim.periodic = false;
	return 0;
}

static struct clock_event_device sim_pit = {
	.name = "pit",
	.features = CLOCK_EVT_FEAT_PERIODIC,
	.set_state_periodic = sim_pit_set_periodic,
	.set_state_shutdown = sim_pit_shutdown,
};

/*
 * A 32-bit counter of the input clock: it wraps every hour of simulated
 * time, so timekeeping's handling of wraps is exercised by every long run.
 */
static u64 sim_clock_read(struct clocksource *cs)
{
	return sim.cycles & cs->mask;
}

static struct clocksource sim_clock = {
	.name = "pit",
	.read = sim_clock_read,
	.mask = 0xffffffffULL,
};

static int boot(const char *cmdline, bool report)
{
	sim.cycles = 0;
	/* As the kernel does: the clocksource first, then time. */
	if (clocksource_register(&sim_clock, PIT_FREQ))
		dz_panic("host: cannot register the simulated PIT clock");
	if (report)
		return dz_time_init(cmdline, &sim_pit);
	return dz_time_init_quiet(cmdline, &sim_pit);
}

int dynhz_boot(const char *cmdline)
{
	return boot(cmdline, true);
}

int dynhz_boot_quiet(const char *cmdline)
{
	return boot(cmdline, false);
}

static void sim_check_booted(void)
{
	if (tick_device() != &sim_pit || !sim.periodic)
		dz_panic("host: ticks delivered before dynhz_boot()");
}

/* One interrupt of channel 0: the counter moves on, then the handler runs. */
static void sim_tick(void)
{
	sim.cycles += sim.divisor;
	sim_pit.event_handler(&sim_pit);
}

void dynhz_host_run_ticks(unsigned long n)
{
	sim_check_booted();
	while (n--)
		sim_tick();
}

void dynhz_host_advance_ticks(u64 n)
{
	sim_check_booted();
	while (n) {
		u64 k = dz_tick_idle_max();

		if (k > n)
			k = n;
		if (k) {
			sim.cycles += k * sim.divisor;
			dz_tick_skip(k);
			n -= k;
		} else {
			sim_tick();
			n--;
		}
	}
}
