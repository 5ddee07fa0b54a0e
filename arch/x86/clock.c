// SPDX-License-Identifier: MIT
/*
 * The clocks of the PC for the kernel (arch_clock_init() of
 * <kernel/arch.h>): the TSC, measured against the PIT, as the
 * clocksource, and the tick device: the PIT (clockevent=pit, the default),
 * with the local APIC timer, if there is one, as its one-shot while idle;
 * or the local APIC timer alone (clockevent=lapic). The kernel hands the
 * device to the core (kernel/time/clock.c).
 */
#include <kernel/arch.h>
#include <asm/i8254.h>
#include <asm/lapic.h>
#include <asm/tsc.h>
#include <dynhz/bootparam.h>
#include <dynhz/tick.h>
#include <dynhz/printk.h>

static bool param_value_is(const struct dz_param *p, const char *v)
{
	return p->val && p->val_len == strlen(v) && !memcmp(p->val, v, p->val_len);
}

/* The PIT ticks; while idle, the local APIC timer (if any) is its one-shot. */
static struct clock_event_device *pit_with_lapic_idle(void)
{
	if (lapic_init())
		pit_idle_use_lapic();
	return &pit_clockevent;
}

/* clockevent=pit|lapic; anything else is reported and the PIT is used. */
static struct clock_event_device *choose_clockevent(const char *cmdline)
{
	static const char *const names[] = { "clockevent", NULL };
	struct dz_param p;

	if (!dz_cmdline_find(cmdline, names, &p) || param_value_is(&p, "pit"))
		return pit_with_lapic_idle();
	if (param_value_is(&p, "lapic")) {
		if (lapic_init())
			return &lapic_clockevent;
		dz_printk("clockevent=lapic: no local APIC, using pit\n");
		return &pit_clockevent;
	}
	/* The value is the user's: shown escaped and bounded, on one line. */
	dz_param_report(&p, p.val_len ? "not a clock-event device (pit, lapic)" : "empty value",
			"pit");
	return pit_with_lapic_idle();
}

struct clock_event_device *arch_clock_init(const char *cmdline)
{
	tsc_init();
	return choose_clockevent(cmdline);
}

bool arch_tick_idle_on_lapic(void)
{
	return pit_idle_on_lapic() && dz_tick_device() == &pit_clockevent;
}
