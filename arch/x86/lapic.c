// SPDX-License-Identifier: MIT
/*
 * The local APIC timer as a clock-event device.
 *
 * Its input is the bus clock, whose rate is not announced, so we measure
 * it against the PIT. Periodic mode of the APIC timer reloads a whole
 * number of counts, which cannot express 1/HZ exactly (at 1 GHz and
 * HZ=333, a tick is 3003003.003 counts); so we run it one-shot and aim
 * every tick at a TSC deadline that advances by the exact tick period, the
 * fractional TSC count carried from tick to tick. Lateness of one
 * interrupt then never accumulates, and the reported jiffy is exactly the
 * period asked for: 1/HZ s, or in the constant build the compile-time
 * period the conversion constants were made for.
 */
#include <kernel/arch.h>
#include <asm/lapic.h>
#include <asm/tsc.h>
#include <asm/i8254.h>
#include <asm/irq.h>
#include <asm/io.h>
#include <dynhz/jiffies.h>
#include <dynhz/errno.h>
#include <dynhz/printk.h>
#include <dynhz/time64.h>
#include <dynhz/conv.h>

#define MSR_APIC_BASE	 0x1b
#define APIC_BASE_ENABLE (1U << 11)
#define CPUID1_EDX_APIC	 (1U << 9)

#define APIC_TPR	0x080
#define APIC_EOI	0x0b0
#define APIC_SVR	0x0f0
#define APIC_LVT_TIMER	0x320
#define APIC_LVT_LINT0	0x350
#define APIC_LVT_LINT1	0x360
#define APIC_LVT_ERROR	0x370
#define APIC_TIMER_INIT 0x380
#define APIC_TIMER_CUR	0x390
#define APIC_TIMER_DIV	0x3e0

#define APIC_SVR_ENABLE	 (1U << 8)
#define APIC_LVT_MASKED	 (1U << 16)
#define APIC_DM_NMI	 (4U << 8)
#define APIC_DM_EXTINT	 (7U << 8)
#define APIC_TIMER_DIV_1 0xb

static uintptr_t apic_base;
static u64 timer_rate;	   /* Hz, divide-by-1 */
static u64 counts_per_tsc; /* timer counts per TSC count, 32.32 fixed point, rounded up */
static u64 counts_per_ns;  /* timer counts per ns, 32.32 fixed point, rounded up */
static unsigned long spurious;

/* The periodic tick, on TSC deadlines. */
static struct {
	bool periodic;
	u64 deadline;  /* TSC count of the next tick */
	u64 step;      /* whole TSC counts per tick ... */
	u64 frac, den; /* ... plus frac/den of one */
	u64 carry;     /* accumulated fraction, < den */
} tick;

static u32 apic_read(unsigned int reg)
{
	return mmio_read32(apic_base + reg);
}

static void apic_write(unsigned int reg, u32 v)
{
	mmio_write32(apic_base + reg, v);
}

u64 lapic_timer_hz(void)
{
	return timer_rate;
}

/* Starts a one-shot countdown that ends no earlier than the TSC deadline. */
static void program_deadline(u64 deadline)
{
	u64 now = rdtsc(), delta = deadline > now ? deadline - now : 0;
	u64 hi, lo = dz_mul64(delta, counts_per_tsc, &hi);
	u64 count = (hi << 32) | (lo >> 32);

	count += (lo & 0xffffffffU) != 0; /* rounded up: never early */
	if (count == 0)
		count = 1; /* already due: fire at once, the tick is not lost */
	if (count > U32_MAX)
		count = U32_MAX;
	apic_write(APIC_TIMER_INIT, (u32)count);
}

static void advance_deadline(void)
{
	tick.deadline += tick.step;
	tick.carry += tick.frac;
	if (tick.carry >= tick.den) {
		tick.carry -= tick.den;
		tick.deadline++;
	}
}

/*
 * Back to periodic after tickless idle: the same deadline grid, from its
 * first deadline after now (in strides of 1024 ticks first: an idle
 * stretch can be millions of ticks long).
 */
static void resume_deadlines(void)
{
	u64 now = rdtsc();

	while (now > tick.deadline && now - tick.deadline > 1024 * (tick.step + 1)) {
		tick.deadline += 1024 * tick.step;
		tick.carry += 1024 * tick.frac;
		tick.deadline += tick.carry / tick.den;
		tick.carry %= tick.den;
	}
	while (tick.deadline <= now)
		advance_deadline();
}

static void lapic_timer_interrupt(struct irq_frame *f, void *data)
{
	struct clock_event_device *dev = data;

	(void)f;
	if (tick.periodic) {
		advance_deadline();
		program_deadline(tick.deadline);
	}
	apic_write(APIC_EOI, 0);
	if (likely(dev->event_handler))
		dev->event_handler(dev);
}

static void lapic_spurious_interrupt(struct irq_frame *f, void *data)
{
	(void)f;
	(void)data;
	spurious++; /* no EOI for a spurious interrupt */
}

static int lapic_tick_period(struct clock_event_device *dev, unsigned int hz,
			     struct dz_tick_period *period)
{
	(void)dev;
	if (hz < DZ_HZ_MIN || hz > DZ_HZ_MAX || !tsc_hz())
		return -DZ_ERANGE;
#ifdef CONFIG_HZ
	*period = (struct dz_tick_period){ DZ_TC_PERIOD_NUM, DZ_TC_PERIOD_DEN };
#else
	*period = (struct dz_tick_period){ 1, hz };
#endif
	return 0;
}

static int lapic_set_periodic(struct clock_event_device *dev, unsigned int hz,
			      struct dz_tick_period *period)
{
	unsigned long flags;
	u64 counts;

	(void)dev;
	if (hz < DZ_HZ_MIN || hz > DZ_HZ_MAX || !tsc_hz())
		return -DZ_ERANGE;
#ifdef CONFIG_HZ
	*period = (struct dz_tick_period){ DZ_TC_PERIOD_NUM, DZ_TC_PERIOD_DEN };
#else
	*period = (struct dz_tick_period){ 1, hz };
#endif
	/* TSC counts per tick: tsc_hz * num / den, the remainder carried. */
	counts = tsc_hz() * period->num;
	flags = dz_irq_save();
	if (tick.den == period->den && tick.step == counts / period->den && tick.deadline) {
		resume_deadlines();
		tick.periodic = true;
		apic_write(APIC_LVT_TIMER, LAPIC_TIMER_VECTOR);
		program_deadline(tick.deadline);
		dz_irq_restore(flags);
		return 0;
	}
	tick.step = counts / period->den;
	tick.frac = counts % period->den;
	tick.den = period->den;
	tick.carry = 0;
	tick.periodic = true;
	arch_tick_start_tsc = rdtsc();
	tick.deadline = arch_tick_start_tsc + tick.step;
	apic_write(APIC_LVT_TIMER, LAPIC_TIMER_VECTOR); /* one-shot, unmasked */
	program_deadline(tick.deadline);
	dz_irq_restore(flags);
	return 0;
}

static int lapic_set_next_event_ns(struct clock_event_device *dev, u64 delta_ns)
{
	u64 count;

	(void)dev;
	/*
	 * The core keeps delta_ns within the limits it derived from
	 * max_delta_ticks (for the PIT's idle proxy too, which has the same
	 * numbers): below 2^32 ns, so the product fits in 64 bits; the count
	 * is clamped anyway. A multiply, not a 64-bit division: in high
	 * resolution this runs at every tick. Rounded up twice (the rate and
	 * the count): never early, late by less than a count.
	 */
	count = (delta_ns * counts_per_ns + 0xffffffffULL) >> 32;
	tick.periodic = false;
	apic_write(APIC_LVT_TIMER, LAPIC_TIMER_VECTOR);
	apic_write(APIC_TIMER_INIT, count < 1 ? 1 : count > U32_MAX ? U32_MAX : (u32)count);
	return 0;
}

static int lapic_shutdown(struct clock_event_device *dev)
{
	(void)dev;
	tick.periodic = false;
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED | LAPIC_TIMER_VECTOR);
	apic_write(APIC_TIMER_INIT, 0);
	return 0;
}

struct clock_event_device lapic_clockevent = {
	.name = "lapic",
	.features = CLOCK_EVT_FEAT_PERIODIC | CLOCK_EVT_FEAT_ONESHOT,
	.set_state_periodic = lapic_set_periodic,
	.tick_period = lapic_tick_period,
	.set_next_event_ns = lapic_set_next_event_ns,
	.set_state_shutdown = lapic_shutdown,
};

static u64 cal_sample(void)
{
	return apic_read(APIC_TIMER_CUR);
}

/* Counts the timer's input clock against the PIT (whose interrupt stays in use). */
static void calibrate(void)
{
	u64 khz, start = rdtsc();

	apic_write(APIC_TIMER_DIV, APIC_TIMER_DIV_1);
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED | LAPIC_TIMER_VECTOR);
	apic_write(APIC_TIMER_INIT, U32_MAX);
	timer_rate = pit_calibrate(cal_sample, true);
	apic_write(APIC_TIMER_INIT, 0);
	khz = timer_rate / 1000;
	counts_per_tsc = ((timer_rate << 32) + tsc_hz() - 1) / tsc_hz();
	counts_per_ns = ((timer_rate << 32) + NSEC_PER_SEC - 1) / NSEC_PER_SEC;
	lapic_clockevent.freq_hz = timer_rate;
	lapic_clockevent.min_delta_ticks = 1;
	lapic_clockevent.max_delta_ticks = U32_MAX;
	dz_printk("lapic: timer %llu.%03llu MHz, calibrated against the PIT in %llu us\n",
		  (unsigned long long)(khz / 1000), (unsigned long long)(khz % 1000),
		  (unsigned long long)(tsc_to_ns(rdtsc() - start) / 1000));
}

void lapic_timer_route(struct clock_event_device *dev)
{
	vector_register(LAPIC_TIMER_VECTOR, lapic_timer_interrupt, dev);
}

bool lapic_init(void)
{
	u32 a, b, c, d;

	cpuid(1, &a, &b, &c, &d);
	if (!(d & CPUID1_EDX_APIC) || !tsc_hz())
		return false;
	wrmsr(MSR_APIC_BASE, rdmsr(MSR_APIC_BASE) | APIC_BASE_ENABLE);
	apic_base = (uintptr_t)(rdmsr(MSR_APIC_BASE) & 0xfffff000U);
	vector_register(LAPIC_TIMER_VECTOR, lapic_timer_interrupt, &lapic_clockevent);
	vector_register(LAPIC_SPURIOUS_VECTOR, lapic_spurious_interrupt, NULL);
	apic_write(APIC_SVR, APIC_SVR_ENABLE | LAPIC_SPURIOUS_VECTOR);
	apic_write(APIC_TPR, 0);
	/* The 8259 keeps delivering IRQs through LINT0, as in virtual-wire mode. */
	apic_write(APIC_LVT_LINT0, APIC_DM_EXTINT);
	apic_write(APIC_LVT_LINT1, APIC_DM_NMI);
	apic_write(APIC_LVT_ERROR, APIC_LVT_MASKED);
	calibrate();
	return true;
}
