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
#include <dynhz/host.h>
#include <dynhz/port.h>
#include <dynhz/errno.h>
#include <dynhz/retune.h>

/* The input clock of the simulated device: the PIT's unless a tool chose another. */
static u32 sim_freq = DYNHZ_HOST_CLOCK_HZ, sim_freq_next = DYNHZ_HOST_CLOCK_HZ;

/* The simulated device divides its input clock by the nearest divisor. */
static unsigned int divisor(u32 freq, unsigned int hz)
{
	return (unsigned int)((freq + hz / 2) / hz);
}

struct dz_tick_period dynhz_host_pit_period(unsigned int hz)
{
	struct dz_tick_period p = { divisor(DYNHZ_HOST_CLOCK_HZ, hz), DYNHZ_HOST_CLOCK_HZ };

	return p;
}

struct dz_tick_period dynhz_host_period(unsigned int hz)
{
	struct dz_tick_period p = { divisor(sim_freq, hz), sim_freq };

	return p;
}

int dynhz_host_set_clock_hz(u32 freq_hz)
{
	if (freq_hz < 1000)
		return -DZ_EINVAL;
	sim_freq_next = freq_hz;
	return 0;
}

/* Whether the simulated device has a one-shot mode: from the next boot on. */
static bool sim_oneshot = true, sim_oneshot_next = true;

void dynhz_host_set_oneshot(bool oneshot)
{
	sim_oneshot_next = oneshot;
}

static void (*irq_hook)(u64 cycles, void *arg);
static void *irq_hook_arg;

void dynhz_host_set_irq_hook(void (*hook)(u64 cycles, void *arg), void *arg)
{
	irq_hook = hook;
	irq_hook_arg = arg;
}

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

/*
 * The simulated PIT: time moves only when a test delivers ticks or idles.
 * Periodic, channel 0 interrupts every `divisor` input clocks; one-shot, it
 * counts down a wide counter (a 32-bit count of the same input clock, as a
 * local APIC timer would), so that an idle CPU can sleep for an hour.
 */
static struct {
	u64 cycles;	      /* input clocks since boot */
	unsigned int divisor; /* input clocks per tick */
	bool periodic;
	bool armed; /* an interrupt is coming at `next` */
	u64 next;
} sim;

#define SIM_ONESHOT_MAX 0xffffffffULL /* input clocks */

static int sim_pit_tick_period(struct clock_event_device *dev, unsigned int hz,
			       struct dz_tick_period *period)
{
	(void)dev;
	if (hz < DZ_HZ_MIN || hz > DZ_HZ_MAX)
		return -DZ_ERANGE;
	*period = dynhz_host_period(hz);
	return 0;
}

static int sim_pit_set_periodic(struct clock_event_device *dev, unsigned int hz,
				struct dz_tick_period *period)
{
	(void)dev;
	if (hz < DZ_HZ_MIN || hz > DZ_HZ_MAX)
		return -DZ_ERANGE;
	sim.divisor = divisor(sim_freq, hz);
	sim.periodic = true;
	sim.armed = true;
	sim.next = sim.cycles + sim.divisor;
	*period = dynhz_host_period(hz);
	return 0;
}

/* Rounded up: the event never comes before delta_ns has passed. */
static int sim_pit_set_next_event_ns(struct clock_event_device *dev, u64 delta_ns)
{
	u64 n = delta_ns;

	/* A 1 GHz clock (hzadvise's) counts ns: no division each time the tick is programmed. */
	if (sim_freq != NSEC_PER_SEC)
		n = delta_ns / NSEC_PER_SEC * sim_freq +
		    ((delta_ns % NSEC_PER_SEC) * sim_freq + NSEC_PER_SEC - 1) / NSEC_PER_SEC;
	(void)dev;
	sim.periodic = false;
	sim.armed = true;
	sim.next = sim.cycles + (n ? n : 1);
	return 0;
}

static int sim_pit_shutdown(struct clock_event_device *dev)
{
	(void)dev;
	sim.periodic = false;
	sim.armed = false;
	return 0;
}

static struct clock_event_device sim_pit = {
	.name = "pit",
	.features = CLOCK_EVT_FEAT_PERIODIC | CLOCK_EVT_FEAT_ONESHOT,
	.set_state_periodic = sim_pit_set_periodic,
	.tick_period = sim_pit_tick_period,
	.set_next_event_ns = sim_pit_set_next_event_ns,
	.set_state_shutdown = sim_pit_shutdown,
	/* one-shot: one input clock to a 32-bit count (freq_hz: set at boot) */
	.min_delta_ticks = 1,
	.max_delta_ticks = SIM_ONESHOT_MAX,
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

static void sim_wait_tick(void);

static int boot(const char *cmdline, bool report)
{
	/* The last boot's time stops first: then the clock may change under it. */
	dz_time_exit();
	clocksource_unregister(&sim_clock);
	sim.cycles = 0;
	sim_freq = sim_freq_next;
	sim_oneshot = sim_oneshot_next;
	sim_pit.freq_hz = sim_freq;
	sim_pit.features = CLOCK_EVT_FEAT_PERIODIC | (sim_oneshot ? CLOCK_EVT_FEAT_ONESHOT : 0);
	/* As the kernel does: the clocksource first, then time. */
	if (clocksource_register_hz(&sim_clock, sim_freq))
		dz_panic("host: cannot register the simulated PIT clock");
	/* Registered again: its one-shot limits follow the clock chosen. */
	if (clockevents_register_device(&sim_pit))
		dz_panic("host: cannot register the simulated PIT");
	dz_hz_retune_set_wait(sim_wait_tick);
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
	if (dz_tick_device() != &sim_pit || !sim.armed)
		dz_panic("host: ticks delivered before dynhz_boot()");
}

/* The next interrupt of channel 0: the clock moves to it, then the handler runs. */
static void sim_event(void)
{
	/* Late (after a stall) it comes now: time never goes back. */
	if (sim.next > sim.cycles)
		sim.cycles = sim.next;
	if (irq_hook)
		irq_hook(sim.cycles, irq_hook_arg);
	if (sim.periodic)
		sim.next += sim.divisor;
	else
		sim.armed = false;
	sim_pit.event_handler(&sim_pit);
}

/*
 * Busy: interrupts until n more jiffies have begun. Periodic, each is a
 * tick; one-shot (high resolution), hrtimers' interrupts come between.
 */
void dynhz_host_run_ticks(unsigned long n)
{
	u64 end = dz_tick_count() + n;

	sim_check_booted();
	while ((s64)(end - dz_tick_count()) > 0) {
		if (!sim.armed)
			dz_panic("host: the device is not armed, %llu ticks to go",
				 (unsigned long long)(end - dz_tick_count()));
		sim_event();
	}
}

/*
 * k ticks with nothing to do, at once: the time moves to the k-th. A
 * periodic device's next interrupt moves with it; a one-shot one is
 * programmed again by the core, for the tick after them (then the next
 * interrupt was that of the first of them: nothing came before it).
 */
static void sim_skip(u64 k)
{
	if (sim.periodic) {
		sim.cycles += k * sim.divisor;
		sim.next += k * sim.divisor;
	} else {
		sim.cycles = sim.next + (k - 1) * sim.divisor;
	}
	dz_tick_skip(k);
}

void dynhz_host_advance_ticks(u64 n)
{
	u64 end = dz_tick_count() + n;

	sim_check_booted();
	while ((s64)(end - dz_tick_count()) > 0) {
		u64 k = dz_tick_idle_max(), left = end - dz_tick_count();

		if (k > left)
			k = left;
		if (k)
			sim_skip(k);
		else if (sim.armed)
			sim_event();
		else
			dz_panic("host: the device is not armed, %llu ticks to go",
				 (unsigned long long)left);
	}
}

u64 dynhz_host_skip_ticks(u64 n, u64 *first)
{
	u64 k;

	sim_check_booted();
	if (!sim.armed || !sim.divisor)
		return 0;
	k = dz_tick_idle_max();
	if (k > n)
		k = n;
	if (!k)
		return 0;
	*first = sim.next;
	sim_skip(k);
	return k;
}

/* ns of simulated time in input clocks, rounded down. */
static u64 ns_to_cycles(u64 ns)
{
	/* hzadvise's clock counts ns: no division for each step it takes. */
	if (sim_freq == NSEC_PER_SEC)
		return ns;
	return ns / NSEC_PER_SEC * sim_freq + ns % NSEC_PER_SEC * sim_freq / NSEC_PER_SEC;
}

void dynhz_host_pass(u64 ns, bool idle)
{
	u64 end;

	sim_check_booted();
	end = sim.cycles + ns_to_cycles(ns);
	if (!idle) {
		tick_nohz_idle_exit(); /* a thread runs: the tick resumes, if it was stopped */
		while (sim.armed && sim.next <= end)
			sim_event();
		sim.cycles = end;
		return;
	}
	for (;;) {
		tick_nohz_idle_enter(); /* what the idle loop does before it halts */
		if (!sim.armed || sim.next > end)
			break;
		sim_event();
	}
	sim.cycles = end;
}

void dynhz_host_stall(u64 ns)
{
	sim_check_booted();
	sim.cycles += ns_to_cycles(ns);
}

void dynhz_host_idle(u64 ns)
{
	dynhz_host_pass(ns, true);
	tick_nohz_idle_exit();
}

u64 dynhz_host_cycles(void)
{
	return sim.cycles;
}

/* dz_hz_retune() waits for the tick: here, its interrupt is delivered. */
static void sim_wait_tick(void)
{
	if (!sim.armed)
		dz_panic("host: HZ change waits for a tick, the device is not armed");
	sim_event();
}

int dynhz_host_retune(unsigned int hz)
{
	sim_check_booted();
	tick_nohz_idle_exit();
	return dz_hz_retune(hz);
}
