// SPDX-License-Identifier: MIT
/*
 * The 8254 programmable interval timer, channel 0, wired to IRQ 0.
 *
 * Periodic ticks: the counter reloads itself from the divisor in hardware,
 * so the tick period is exactly divisor / 1193182 s with no software in the
 * loop; that fraction is what we report as the jiffy, not the 1/HZ that was
 * asked for.
 *
 * We use mode 3 (square wave) rather than mode 2 (rate generator): both
 * have the same period, but mode 2's output is low for a single input
 * clock, and QEMU under -icount sleep=off can step over that 838 ns pulse
 * (one tick lost at HZ=19 about a second after boot, found by the
 * self-test). Mode 3's output is low for half the period, and the interrupt
 * comes on its rising edge, once per period, for odd divisors too.
 *
 * Periodic again while running (HZ changed at runtime): the control word
 * and divisor restart the count at once with the new period; the restart
 * may raise the output (an edge at once), which restart_edge() drops, and
 * ticks still owed to the old rate are not counted in the new one.
 *
 * One-shot (tickless idle): mode 0 counts 16 bits, 54.9 ms at most. Where
 * a local APIC is there (pit_idle_use_lapic()), the PIT stops instead while
 * idle and the LAPIC timer, one-shot up to seconds, raises the PIT's event;
 * mode 0 stays for machines without one.
 */
#include <kernel/arch.h>
#include <asm/i8254.h>
#include <asm/pic.h>
#include <asm/io.h>
#include <asm/tsc.h>
#include <asm/lapic.h>
#include <dynhz/errno.h>
#include <dynhz/time64.h>

#define PIT_CH0 0x40
#define PIT_CMD 0x43
#define PIT_IRQ 0
/* channel 0, low byte then high byte, binary; the mode in bits 1-3 */
#define PIT_CMD_CH0(mode) (0x30 | ((mode) << 1))
#define PIT_MODE_ONESHOT  0 /* interrupt on terminal count */
#define PIT_MODE_RATE	  2 /* rate generator: periodic, a one-clock pulse */
#define PIT_MODE_SQUARE	  3 /* square wave: periodic, half high, half low */

u64 arch_tick_start_tsc;
u64 arch_tick_irq_tsc;

static void pit_load(unsigned int mode, unsigned int count)
{
	outb(PIT_CMD, PIT_CMD_CH0(mode));
	outb(PIT_CH0, (u8)count);
	outb(PIT_CH0, (u8)(count >> 8));
}

/* A control word alone resets the channel, which then waits for a count: stopped. */
static void pit_stop(void)
{
	pic_mask(PIT_IRQ);
	outb(PIT_CMD, PIT_CMD_CH0(PIT_MODE_ONESHOT));
}

/*
 * Lost ticks. Under emulation a guest that falls behind (QEMU -icount
 * shift=auto on a busy host slows its instructions down) can take longer
 * than a 100 us tick to answer one, and the PIC merges the next edge into
 * the pending one. The TSC tells how many periods really passed: the
 * interrupt counts floor((now - ref) / p) ticks, where ref is the time of
 * the last counted edge, never later than its interrupt. With p slightly
 * longer than the true period (rounded up, plus 10 ppm for the TSC's
 * calibration), the count can come out short (a tick is then missing, as
 * without this), never long: no tick is counted before it happens.
 */
static struct {
	bool periodic;
	bool fresh; /* started with the LAPIC timer for idle, no interrupt since */
	u64 ref;    /* TSC at (or just after) the last counted edge */
	u64 p;	    /* TSC counts per period, rounded up with margin */
	unsigned long lost;
	unsigned long starts; /* periodic starts: a restart ends the old rate's ticks */
} track;

static unsigned long periods_since_ref(u64 now)
{
	unsigned long k = 1; /* an interrupt is at least one period */

	if (now - track.ref >= 2 * track.p)
		k = (unsigned long)((now - track.ref) / track.p);
	track.ref += k * track.p;
	if (track.ref > now)
		track.ref = now; /* an edge is never after its interrupt */
	return k;
}

/*
 * The PIT stopped for idle may leave its output low, and the mode 3 control
 * word that restarts it sets it high: that edge, or one latched while IRQ
 * 0 was masked, is an interrupt as soon as the PIT runs again. The first
 * real edge comes a whole period after the restart (track.ref, read before
 * the load; track.p is above the period by far less than 1/32 of it).
 */
static bool restart_edge(u64 now)
{
	bool early = now - track.ref < track.p - track.p / 32;

	track.fresh = false;
	return early;
}

static void pit_interrupt(void *data)
{
	struct clock_event_device *dev = data;
	unsigned long k = 1, starts = track.starts;

	if (track.periodic) {
		u64 now = rdtsc();

		arch_tick_irq_tsc = now;
		if (unlikely(track.fresh) && restart_edge(now))
			return;
		k = periods_since_ref(now);
	}

	track.lost += k - 1;
	/* A tick that changes HZ restarts the PIT: what is left was the old rate's. */
	while (k-- && track.starts == starts)
		if (likely(dev->event_handler))
			dev->event_handler(dev);
}

unsigned long pit_lost_ticks(void)
{
	return track.lost;
}

static void track_start(unsigned int div, u64 ref)
{
	u64 counts = tsc_hz() * div;

	track.p = (counts + PIT_FREQ - 1) / PIT_FREQ;
	track.p += track.p / 100000 + 1;
	track.ref = ref;
	track.periodic = tsc_hz() != 0;
	track.fresh = false;
}

/* The LAPIC timer as the one-shot device while idle. */
static struct {
	bool on;
	bool armed;			 /* a one-shot event is due */
	bool pit_stopped;		 /* the PIT is stopped for it already */
	struct clock_event_device proxy; /* receives the LAPIC timer's interrupt */
} idle;

/* Only an event that is still due is the PIT's: a stale one is dropped. */
static void pit_idle_event(struct clock_event_device *proxy)
{
	struct clock_event_device *dev = &pit_clockevent;

	(void)proxy;
	if (!idle.armed)
		return;
	idle.armed = false;
	if (likely(dev->event_handler))
		dev->event_handler(dev);
}

static void idle_disarm(void)
{
	if (!idle.on)
		return;
	idle.armed = false;
	lapic_clockevent.set_state_shutdown(&lapic_clockevent);
}

void pit_idle_use_lapic(void)
{
	idle.proxy.name = "pit-idle";
	idle.proxy.event_handler = pit_idle_event;
	lapic_timer_route(&idle.proxy);
	/* The one-shot counter is the LAPIC timer's (the core derives the ns). */
	pit_clockevent.freq_hz = lapic_clockevent.freq_hz;
	pit_clockevent.min_delta_ticks = lapic_clockevent.min_delta_ticks;
	pit_clockevent.max_delta_ticks = lapic_clockevent.max_delta_ticks;
	idle.on = true;
}

bool pit_idle_on_lapic(void)
{
	return idle.on;
}

static int pit_tick_period(struct clock_event_device *dev, unsigned int hz,
			   struct dz_tick_period *period)
{
	(void)dev;
	if (hz < DZ_HZ_MIN || hz > DZ_HZ_MAX)
		return -DZ_ERANGE;
	*period = (struct dz_tick_period){ pit_divisor(hz), PIT_FREQ };
	return 0;
}

static int pit_set_periodic(struct clock_event_device *dev, unsigned int hz,
			    struct dz_tick_period *period)
{
	unsigned int div;
	bool running = track.periodic;
	u64 now;

	if (hz < DZ_HZ_MIN || hz > DZ_HZ_MAX)
		return -DZ_ERANGE;
	div = pit_divisor(hz);
	idle_disarm();
	/*
	 * Read before the load: tick n then comes no earlier than n periods
	 * after it (counting starts at the next input clock), which a one-shot
	 * device as exact as the LAPIC timer, ending idle, can tell apart.
	 */
	now = rdtsc();
	pit_load(PIT_MODE_SQUARE, div);
	idle.pit_stopped = false;
	/*
	 * Started again after tickless idle, at a jiffy boundary of the same
	 * grid: the first start still tells where tick n is.
	 */
	if (!arch_tick_start_tsc)
		arch_tick_start_tsc = now;
	track_start(div, now);
	/* Out of idle, or a new rate on a running PIT: an edge at once may be the restart's. */
	track.fresh = idle.on || running;
	track.starts++;
	irq_register(PIT_IRQ, pit_interrupt, dev);
	*period = pit_period(hz);
	return 0;
}

static int pit_set_next_event_ns(struct clock_event_device *dev, u64 delta_ns)
{
	u64 count;

	if (idle.on) {
		/*
		 * Stopped and masked: the stopped counter may still raise its
		 * output once (QEMU does), and that edge, latched by the PIC,
		 * comes as the restart's (restart_edge()), not as a wakeup.
		 */
		track.periodic = false;
		/* In high resolution this runs at every event: stop the PIT once. */
		if (!idle.pit_stopped)
			pit_stop();
		idle.pit_stopped = true;
		idle.armed = true;
		return lapic_clockevent.set_next_event_ns(&lapic_clockevent, delta_ns);
	}
	if (delta_ns > dev->max_delta_ns)
		delta_ns = dev->max_delta_ns;
	/* Rounded up: an event is never early. */
	count = (delta_ns * PIT_FREQ + NSEC_PER_SEC - 1) / NSEC_PER_SEC;
	if (count < 1)
		count = 1;
	if (count > PIT_DIVISOR_MAX)
		count = PIT_DIVISOR_MAX;
	track.periodic = false;
	pit_load(PIT_MODE_ONESHOT, (unsigned int)count);
	irq_register(PIT_IRQ, pit_interrupt, dev);
	return 0;
}

static int pit_shutdown(struct clock_event_device *dev)
{
	(void)dev;
	idle_disarm();
	track.periodic = false;
	pit_stop();
	idle.pit_stopped = true;
	return 0;
}

struct clock_event_device pit_clockevent = {
	.name = "pit",
	.features = CLOCK_EVT_FEAT_PERIODIC | CLOCK_EVT_FEAT_ONESHOT,
	.set_state_periodic = pit_set_periodic,
	.tick_period = pit_tick_period,
	.set_next_event_ns = pit_set_next_event_ns,
	.set_state_shutdown = pit_shutdown,
	/* mode 0: one input clock to the 16-bit counter's reach */
	.freq_hz = PIT_FREQ,
	.min_delta_ticks = 1,
	.max_delta_ticks = PIT_DIVISOR_MAX,
};

struct measure {
	unsigned int every, last, seen;
	u64 (*sample)(void);
	u64 *out;
};

/*
 * The sample is taken first thing, on the same path at every tick: under
 * QEMU -icount each instruction is a slice of guest time, so even a branch
 * taken differently before the sample would skew the window.
 */
static void measure_interrupt(void *data)
{
	struct measure *m = data;
	u64 v = m->sample();

	if (m->seen % m->every == 0 && m->seen <= m->last)
		m->out[m->seen / m->every] = v;
	m->seen++;
}

void pit_measure(unsigned int windows, unsigned int ticks, unsigned int divisor,
		 u64 (*sample)(void), u64 *out)
{
	struct measure m = { ticks, windows * ticks, 0, sample, out };
	unsigned long flags = dz_irq_save();

	pit_load(PIT_MODE_SQUARE, divisor);
	irq_register(PIT_IRQ, measure_interrupt, &m);
	while (*(volatile unsigned int *)&m.seen <= m.last) {
		safe_halt();
		local_irq_disable();
	}
	pit_stop();
	irq_register(PIT_IRQ, NULL, NULL);
	pic_mask(PIT_IRQ);
	dz_irq_restore(flags);
}

static u64 median3(u64 a, u64 b, u64 c)
{
	u64 lo = a < b ? a : b, hi = a < b ? b : a;

	return c < lo ? lo : c > hi ? hi : c;
}

/* One window may be skewed, not two: the median of three drops it. */
u64 pit_calibrate(u64 (*sample)(void), bool down)
{
	u64 out[PIT_CAL_WINDOWS + 1], rate[PIT_CAL_WINDOWS];
	u64 window = (u64)PIT_CAL_TICKS * PIT_CAL_DIVISOR; /* in PIT input clocks */

	pit_measure(PIT_CAL_WINDOWS, PIT_CAL_TICKS, PIT_CAL_DIVISOR, sample, out);
	for (unsigned int i = 0; i < PIT_CAL_WINDOWS; i++) {
		u64 d = down ? out[i] - out[i + 1] : out[i + 1] - out[i];

		/* d counts in window / PIT_FREQ s: in kHz, rounded to nearest */
		rate[i] = (d * PIT_FREQ / 1000 + window / 2) / window;
	}
	return median3(rate[0], rate[1], rate[2]) * 1000;
}
