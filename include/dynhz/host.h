/* SPDX-License-Identifier: MIT */
/*
 * The hosted port: the core running as an ordinary program, on simulated
 * clock devices, for tests, benchmarks and tools.
 */
#ifndef DYNHZ_HOST_H
#define DYNHZ_HOST_H

#include <dynhz/types.h>
#include <dynhz/hz.h>

/* The simulated PIT's input clock, as the 8254's: it is also the clocksource. */
#ifdef CONFIG_HZ
#define DYNHZ_HOST_CLOCK_HZ ((u32)CONFIG_CLOCK_HZ) /* what the constants were made for */
#else
#define DYNHZ_HOST_CLOCK_HZ 1193182U
#endif

/* The exact tick the simulated PIT makes at hz: nearest divisor / 1193182 s. */
struct dz_tick_period dynhz_host_pit_period(unsigned int hz);

/*
 * Another input clock for the simulated device and clocksource, from the
 * next dynhz_boot() on (DYNHZ_HOST_CLOCK_HZ until then): a tool that
 * replays a Linux machine's trace gives 1000000000, so that the tick is
 * Linux's, TICK_NSEC, exactly. Every HZ has exact conversions on any such
 * clock. The counter stays 32 bits wide. -DZ_EINVAL below 1000 Hz.
 */
int dynhz_host_set_clock_hz(u32 freq_hz);

/**
 * dynhz_host_set_oneshot() - give the simulated device a one-shot mode or not
 * @oneshot: from the next dynhz_boot() on (it has one until told otherwise)
 *
 * Without one, the tick stays periodic: no tickless idle, hrtimers at tick
 * resolution ("hrtimer: tick resolution (pit has no one-shot)").
 */
void dynhz_host_set_oneshot(bool oneshot);

/* The exact tick the simulated device makes at hz, on the clock of the last boot. */
struct dz_tick_period dynhz_host_period(unsigned int hz);

/*
 * Called at every interrupt of the simulated device, with the clock
 * (dynhz_host_cycles()) at the interrupt, before the core's handler runs;
 * NULL for none. For tools that watch when the CPU is woken.
 */
void dynhz_host_set_irq_hook(void (*hook)(u64 cycles, void *arg), void *arg);

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
 * Delivers the simulated device's interrupts, as the kernel gets them,
 * until n more jiffies have begun: jiffies moves, timers run, the
 * simulated clock counts the divisor per tick. Periodic, that is n
 * interrupts; one-shot (high resolution), the tick's n plus those of the
 * hrtimers due meanwhile. After dynhz_boot().
 */
void dynhz_host_run_ticks(unsigned long n);

/*
 * The same n ticks, fast: stretches in which nothing is due (no timer to
 * run or cascade, no clock wrap to fold) pass at once, the others tick by
 * tick. Timers run at exactly the same jiffies as with dynhz_host_run_ticks;
 * a simulated day takes microseconds when few timers are pending.
 */
void dynhz_host_advance_ticks(u64 n);

/*
 * Up to n of the coming ticks at once, when nothing is due in them (as
 * dynhz_host_advance_ticks() finds them): returns how many passed (0: the
 * next tick has work to do, or the tick is stopped), and the input clock
 * of the first in *first; the others follow one tick period apart. Their
 * interrupts are not delivered: the caller, which asked for the gap to
 * pass unseen, accounts for them itself (a replay that only counts them).
 */
u64 dynhz_host_skip_ticks(u64 n, u64 *first);

/*
 * Lets ns of simulated time pass with the CPU idle, as the kernel's idle
 * loop does: with nohz=on (the default) the tick stops and the simulated
 * device fires only for timers (jiffies catch up from the clock at each
 * wakeup); with nohz=off the periodic tick goes on. Timers run on the way;
 * at the end the CPU is busy again and the tick resumes at the next jiffy.
 * Interrupts of the device are counted in dz_tick_stats().
 */
void dynhz_host_idle(u64 ns);

/*
 * Lets ns of simulated time pass, idle or busy, without the other state
 * change dynhz_host_idle() makes at its end: idle, the CPU halts (the tick
 * stops with nohz=on) and stays idle at the end; busy, a stopped tick
 * resumes first (as when the idle loop runs a thread), then the device's
 * interrupts come as they fall due. A replay of a real CPU alternates the two.
 */
void dynhz_host_pass(u64 ns, bool idle);

/**
 * dynhz_host_stall() - let time pass with interrupts off
 * @ns: simulated time
 *
 * An interrupt of the device that falls due meanwhile waits, and the next
 * call that delivers interrupts (dynhz_host_pass(0, false), say) delivers
 * it, late, at the time then; a periodic device's missed ticks come then
 * one by one, as a driver that counts lost ticks delivers them. For
 * benchmarks that let every timer fall due and run them in one interrupt.
 */
void dynhz_host_stall(u64 ns);

/**
 * dynhz_host_retune() - change HZ mid-run, as the kernel's `hz N` does
 * @hz: the new rate
 *
 * The CPU is busy from now on (a stopped tick resumes, as when a thread
 * runs), and the simulated device's interrupts are delivered until the
 * next tick has applied the change: the time moves at most one tick (and
 * the hrtimers' interrupts before it). The simulated PIT then divides by
 * the divisor of the new rate. Returns as dz_hz_retune() (include/dynhz/
 * retune.h): 0, -DZ_ERANGE with the hz= message, -DZ_EPERM in a constant
 * build. After dynhz_boot().
 */
int dynhz_host_retune(unsigned int hz);

/*
 * Input clocks of the simulated PIT since dynhz_boot(): the true time. In
 * a callback (or the hook above), the time of the interrupt that runs it.
 */
u64 dynhz_host_cycles(void);

/*
 * Host output goes to stdout unless silenced (tests silence it and read
 * the last line printed instead).
 */
void dynhz_host_set_quiet(bool quiet);
const char *dynhz_host_last_line(void);

#endif
