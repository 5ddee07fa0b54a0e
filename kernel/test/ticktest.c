// SPDX-License-Identifier: MIT
/*
 * ticktest=<ticks>: what the timer tick costs a busy CPU (bench/tickcost,
 * tests/tickcost, the default tick cost of tools/hzadvise).
 *
 * Under QEMU's -icount shift=N,sleep=off every guest instruction is 2^N ns
 * of virtual time and the TSC counts that time (1 GHz), so a TSC delta is
 * an exact, repeatable instruction count. The CPU's own interrupt delivery
 * is no instruction and costs nothing there; what we count is the software
 * path: entry stub, dispatch, the PIT's handler, the core's tick, the
 * scheduler's tick hook, the interrupt's exit (sched_irq_exit()), iret.
 *
 *  1. Calibration, interrupts off: guest cycles per instruction (a dec/jnz
 *     loop of known length), and the cycles of one turn of the gap loop.
 *  2. Empty ticks: the gap loop reads the TSC over and over; a turn that
 *     took longer than a bare one was interrupted, and the excess is the
 *     interrupt's cost. <ticks> of them, none with a timer due.
 *  3. Timers due: k = 1, 10, 100 timers armed for one jiffy; the gap of
 *     that tick, less an empty one, divided by k.
 *  4. Throughput: a CPU-bound loop over <ticks> ticks against the same
 *     loop with interrupts off (the upper bound): the loss in percent.
 *
 * With nohz=on the loop keeps the CPU busy, so the tick is periodic all
 * the same: tickless idle saves nothing to a busy CPU, which these figures
 * show. The loop runs in a kernel thread; a tick that interrupts ring 3
 * takes the same path here (only system calls switch the CPU accounting).
 */
#include <kernel/kernel.h>
#include <kernel/test.h>
#include <kernel/sched.h>
#include <kernel/arch.h>
#include <dynhz/bootparam.h>
#include <dynhz/jiffies.h>
#include <dynhz/timer.h>
#include <dynhz/tick.h>
#include <dynhz/hz.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>
#include <dynhz/time64.h>
#include <dynhz/conv.h>

#define TICKTEST_DEFAULT 100 /* ticks per measurement */
#define TICKTEST_MAX	 10000
#define GAP_TURN_INSNS	 8  /* instructions of one turn of gap_spin() */
#define GAP_MARGIN_INSNS 32 /* a turn this much longer than a bare one was interrupted */
#define DUE_MAX		 100
#define DUE_REPS	 3
#define DUE_AHEAD	 3 /* jiffies: the timers are armed well before their tick */
#define SPIN_BLOCK	 256
#define REF_BLOCKS_LOG	 12 /* the reference loop: 2^12 blocks, 1M iterations */

static unsigned long test_ticks = TICKTEST_DEFAULT;

/* ticktest=<ticks>, read at boot so that a bad value is reported whatever runs. */
void ticktest_setup(const char *cmdline)
{
	static const char *const names[] = { "ticktest", NULL };
	struct dz_param p;

	if (dz_cmdline_find(cmdline, names, &p) && p.val)
		dz_param_uint(&p, 1, TICKTEST_MAX, TICKTEST_DEFAULT, &test_ticks);
}

/* What calibration found, and the figures of the run. */
static struct {
	u64 cpki;	 /* guest cycles per 1000 instructions */
	u32 turn;	 /* cycles of one bare turn of gap_spin() */
	u32 thr;	 /* a turn longer than this was interrupted */
	u64 turn_budget; /* turns per tick period, with room to spare */
	bool exact;	 /* the two calibrations agree: under -icount */
	u32 empty;	 /* cycles of an empty tick: median */
	u64 empty_sum;	 /* ... their sum, for the mean */
	u32 empty_min, empty_max;
	u32 empty_n;	   /* empty ticks measured */
	u32 odd;	   /* ticks missing or not one jiffy, timers that did not run */
	u64 others;	   /* timers of the kernel's own that ran among the empty ticks */
	u32 due[3];	   /* cycles of a tick with 1, 10, 100 timers due: medians */
	u64 loss_ppb;	   /* throughput lost to the tick, parts per billion */
	u64 lost_per_tick; /* cycles the loop lost per tick */
	u64 ref_rate;	   /* loop iterations per second, interrupts off */
} tt;

/*
 * Spins reading the TSC until one turn takes longer than thr cycles (an
 * interrupt came in it) or *budget turns have gone by. Returns the cycles
 * of the last turn (its low 32 bits: a turn is far shorter than 4 s); *span
 * gets the cycles from the first TSC read to the last. Written out so that
 * a turn is always the same GAP_TURN_INSNS instructions, whatever the
 * compiler does around it.
 */
static u32 gap_spin(u32 thr, u64 *budget, u32 *span)
{
	u32 delta, prev, start, n = *budget > U32_MAX ? U32_MAX : (u32)*budget;

	__asm__ volatile("rdtsc\n\t"
			 "mov %%eax, %[prev]\n\t"
			 "mov %%eax, %[start]\n"
			 "1:\trdtsc\n\t"
			 "mov %%eax, %%ecx\n\t"
			 "sub %[prev], %%eax\n\t"
			 "mov %%ecx, %[prev]\n\t"
			 "cmp %[thr], %%eax\n\t"
			 "ja 2f\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n"
			 "2:"
			 : "=&a"(delta), [prev] "=&r"(prev), [n] "+r"(n), [start] "=m"(start)
			 : [thr] "r"(thr)
			 : "ecx", "edx", "cc", "memory");
	*budget = n;
	*span = prev - start;
	return delta;
}

/* Cycles of `turns` bare turns of gap_spin() (and a constant), interrupts off. */
static u64 gap_turns_cycles(u64 turns)
{
	u32 span;

	gap_spin(U32_MAX, &turns, &span);
	return span;
}

/* Cycles of a dec/jnz loop of 2 * n instructions (and a constant): all in one asm. */
static u64 decloop_cycles(u32 n)
{
	u32 lo0, hi0, lo1, hi1;

	__asm__ volatile("rdtsc\n\t"
			 "mov %%eax, %[lo0]\n\t"
			 "mov %%edx, %[hi0]\n"
			 "1:\tdec %[n]\n\t"
			 "jnz 1b\n\t"
			 "rdtsc"
			 : "=a"(lo1), "=d"(hi1), [lo0] "=&r"(lo0), [hi0] "=&r"(hi0), [n] "+r"(n)
			 :
			 : "cc");
	return (((u64)hi1 << 32) | lo1) - (((u64)hi0 << 32) | lo0);
}

/*
 * Each measure is taken at two lengths: the difference leaves out the
 * constant cost around the loop. Under -icount both are exact, and the
 * turn is GAP_TURN_INSNS instructions of cpki cycles each.
 */
static void calibrate(void)
{
	unsigned long flags = dz_irq_save();
	const u32 n = 100000;
	u64 dec = decloop_cycles(2 * n) - decloop_cycles(n);
	u64 turns = gap_turns_cycles(2 * n) - gap_turns_cycles(n);
	struct dz_tick_period p = dz_hz_period();

	dz_irq_restore(flags);
	tt.cpki = dec * 1000 / (2 * n);
	tt.turn = (u32)(turns / n);
	tt.exact = dec % (2 * n) == 0 && turns % n == 0 &&
		   (u64)tt.turn * 1000 == GAP_TURN_INSNS * tt.cpki;
	tt.thr = tt.turn + (u32)(GAP_MARGIN_INSNS * tt.cpki / 1000);
	/* One tick period in turns, four times over: a lost tick ends the wait. */
	tt.turn_budget = tsc_hz() * p.num / p.den * 4 / (tt.turn ? tt.turn : 1) + 1000;
}

static u64 cycles_to_insns(u64 cycles)
{
	return tt.cpki ? (cycles * 1000 + tt.cpki / 2) / tt.cpki : 0;
}

/* Waits for the next tick, so that a measurement starts just after one. */
static void tick_sync(void)
{
	unsigned long j = jiffies;

	while (jiffies == j)
		cpu_relax();
}

struct gap {
	u32 cycles;	       /* of the interrupt: the turn's excess */
	unsigned long jiffies; /* just after it */
};

/*
 * Records the gaps in the busy loop until one leaves jiffies at `end` or
 * later, at most `max` of them. Returns how many, or 0 if a tick was
 * missing (the budget ran out).
 */
static unsigned int gaps_until(struct gap *g, unsigned int max, unsigned long end)
{
	unsigned int n = 0;

	while (n < max) {
		u64 budget = tt.turn_budget;
		u32 span, d = gap_spin(tt.thr, &budget, &span);

		if (d <= tt.thr)
			return 0;
		g[n].cycles = d - tt.turn;
		g[n].jiffies = jiffies;
		n++;
		if (time_after_eq(g[n - 1].jiffies, end))
			break;
	}
	return n;
}

/* Shell sort: the samples are few thousand, and mostly equal. */
static void sort_u32(u32 *a, unsigned int n)
{
	unsigned int h = 1;

	while (h < n / 3)
		h = 3 * h + 1;
	for (; h; h /= 3)
		for (unsigned int i = h; i < n; i++) {
			u32 v = a[i];
			unsigned int j = i;

			for (; j >= h && a[j - h] > v; j -= h)
				a[j] = a[j - h];
			a[j] = v;
		}
}

static struct gap gaps[TICKTEST_MAX];
static u32 sorted[TICKTEST_MAX];

static u64 timers_expired(void)
{
	struct dz_timer_stats st;

	dz_timer_stats(&st);
	return st.expired;
}

/* Step 2: the ticks of a busy CPU with no timer due. */
static void measure_empty(unsigned int ticks)
{
	u64 expired;
	unsigned long j0;
	unsigned int n, k = 0;

	tick_sync(); /* the ticks held off while calibrating come in first */
	tick_sync();
	j0 = jiffies;
	expired = timers_expired();
	n = gaps_until(gaps, ticks, j0 + ticks);
	/* A timer of the kernel's own makes its tick not empty: the median leaves it out. */
	tt.others = timers_expired() - expired;
	for (unsigned int i = 0; i < n; i++) {
		if (gaps[i].jiffies != j0 + i + 1) {
			tt.odd++;
			continue;
		}
		sorted[k++] = gaps[i].cycles;
	}
	if (n < ticks)
		tt.odd++;
	if (!k)
		return;
	sort_u32(sorted, k);
	tt.empty_n = k;
	tt.empty = sorted[k / 2];
	tt.empty_min = sorted[0];
	tt.empty_max = sorted[k - 1];
	for (unsigned int i = 0; i < k; i++)
		tt.empty_sum += sorted[i];
}

static struct timer_list due_timers[DUE_MAX];
static volatile unsigned int due_ran;

/* A callback that does next to nothing: what is measured is the wheel's work. */
static void due_fn(struct timer_list *t)
{
	(void)t;
	due_ran++;
}

/* One tick with k timers due: its cycles, or 0 if it went wrong. */
static u32 due_once(unsigned int k)
{
	struct gap g[DUE_AHEAD + 2];
	unsigned long flags, at;
	unsigned int n;

	due_ran = 0;
	tick_sync();
	flags = dz_irq_save();
	at = jiffies + DUE_AHEAD;
	for (unsigned int i = 0; i < k; i++)
		mod_timer(&due_timers[i], at);
	dz_irq_restore(flags);
	n = gaps_until(g, ARRAY_SIZE(g), at);
	if (!n || g[n - 1].jiffies != at || due_ran != k)
		return 0;
	return g[n - 1].cycles;
}

static u32 median3(u32 a, u32 b, u32 c)
{
	u32 lo = a < b ? a : b, hi = a < b ? b : a;

	return c < lo ? lo : c > hi ? hi : c;
}

/* Step 3: 1, 10 and 100 timers due in one tick, DUE_REPS times each. */
static void measure_due(void)
{
	static const unsigned int ks[] = { 1, 10, DUE_MAX };

	for (unsigned int i = 0; i < DUE_MAX; i++)
		timer_setup(&due_timers[i], due_fn, 0);
	for (unsigned int i = 0; i < ARRAY_SIZE(ks); i++) {
		u32 r[DUE_REPS];

		for (unsigned int rep = 0; rep < DUE_REPS; rep++)
			r[rep] = due_once(ks[i]);
		if (!r[0] || !r[1] || !r[2])
			tt.odd++;
		tt.due[i] = median3(r[0], r[1], r[2]);
	}
}

static volatile u32 spin_sink;

/*
 * The CPU-bound loop: blocks of xorshift steps until jiffies reaches
 * `until` or max_blocks are done. The reference run and the measured run
 * both come here, so they run the very same instructions per block.
 */
__attribute__((noinline)) static u64 spin_run(unsigned long until, u64 max_blocks)
{
	u32 x = 2463534242U;
	u64 blocks = 0;

	while (time_before(jiffies, until) && blocks < max_blocks) {
		for (unsigned int i = 0; i < SPIN_BLOCK; i++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
		}
		blocks++;
	}
	spin_sink = x;
	return blocks;
}

/* Cycles of `blocks` blocks with interrupts off (and a constant). */
static u64 spin_ref(u64 blocks)
{
	unsigned long flags = dz_irq_save();
	u64 t0 = rdtsc();

	spin_run(jiffies + 1, blocks); /* jiffies stand still */
	t0 = rdtsc() - t0;
	dz_irq_restore(flags);
	return t0;
}

/*
 * Step 4: the loop over `ticks` ticks against the loop with interrupts
 * off. The reference runs 2^12 and 2^13 blocks: the difference is 2^12
 * blocks with the cost of starting and stopping left out.
 */
static void measure_loop(unsigned int ticks)
{
	u64 t0, ref, blocks, cycles, hi, lo, expect;
	unsigned long j0;

	ref = spin_ref(2ULL << REF_BLOCKS_LOG) - spin_ref(1ULL << REF_BLOCKS_LOG);
	tick_sync(); /* the ticks held off above come in first */
	tick_sync();
	j0 = jiffies;
	t0 = rdtsc();
	blocks = spin_run(j0 + ticks, U64_MAX);
	cycles = rdtsc() - t0;
	/* What the blocks would have taken with no tick: blocks * ref / 2^12. */
	lo = dz_mul64(blocks, ref, &hi);
	expect = (hi << (64 - REF_BLOCKS_LOG)) | (lo >> REF_BLOCKS_LOG);
	if (cycles > expect) {
		tt.loss_ppb = (cycles - expect) * 1000000000ULL / cycles;
		tt.lost_per_tick = (cycles - expect) / ticks;
	}
	tt.ref_rate = ref ? (SPIN_BLOCK << REF_BLOCKS_LOG) * tsc_hz() / ref : 0;
}

static const char *mode_name(void)
{
	return dz_tick_nohz_active() ? "nohz" : "periodic";
}

/* An integer count of thousandths as "i.fff". */
static void put_milli(const char *name, u64 milli)
{
	dz_printk(" %s=%llu.%03llu", name, (unsigned long long)(milli / 1000),
		  (unsigned long long)(milli % 1000));
}

static void report_calibration(void)
{
	struct dz_tick_period p = dz_hz_period();

	dz_printk("ticktest: calibration tsc_khz=%llu", (unsigned long long)(tsc_hz() / 1000));
	put_milli("cycles_per_insn", tt.cpki);
	dz_printk(" turn_cycles=%u icount=%s tick_ps=%llu\n", tt.turn, tt.exact ? "exact" : "no",
		  (unsigned long long)(p.num * 1000000000000ULL / p.den));
}

static void report_empty(void)
{
	u64 mean_milli = tt.empty_n ? cycles_to_insns(tt.empty_sum * 1000 / tt.empty_n) : 0;

	dz_printk("ticktest: empty hz=%u mode=%s ticks=%u insns=%llu cycles=%u "
		  "min_insns=%llu max_insns=%llu other_timers=%llu",
		  HZ, mode_name(), tt.empty_n, (unsigned long long)cycles_to_insns(tt.empty),
		  tt.empty, (unsigned long long)cycles_to_insns(tt.empty_min),
		  (unsigned long long)cycles_to_insns(tt.empty_max), (unsigned long long)tt.others);
	put_milli("mean_insns", mean_milli);
	dz_printk("\n");
}

static void report_due(void)
{
	static const unsigned int ks[] = { 1, 10, DUE_MAX };

	for (unsigned int i = 0; i < ARRAY_SIZE(ks); i++) {
		u64 extra = tt.due[i] > tt.empty ? tt.due[i] - tt.empty : 0;

		dz_printk("ticktest: due hz=%u mode=%s timers=%u insns=%llu cycles=%u "
			  "extra_insns=%llu\n",
			  HZ, mode_name(), ks[i], (unsigned long long)cycles_to_insns(tt.due[i]),
			  tt.due[i], (unsigned long long)cycles_to_insns(extra));
	}
}

/* Instructions per due timer, in thousandths: the slope from 1 to 100 timers. */
static u64 per_timer_milli(void)
{
	if (tt.due[2] <= tt.due[0])
		return 0;
	return cycles_to_insns((u64)(tt.due[2] - tt.due[0]) * 1000) / (DUE_MAX - 1);
}

static void report_loop(unsigned int ticks)
{
	u64 rate = tt.ref_rate * (1000000000ULL - tt.loss_ppb) / 1000000000ULL;

	dz_printk("ticktest: loop hz=%u mode=%s ticks=%u iters_per_s=%llu ref_iters_per_s=%llu "
		  "loss_ppb=%llu lost_insns_per_tick=%llu\n",
		  HZ, mode_name(), ticks, (unsigned long long)rate, (unsigned long long)tt.ref_rate,
		  (unsigned long long)tt.loss_ppb,
		  (unsigned long long)cycles_to_insns(tt.lost_per_tick));
}

/* The one line bench/tickcost collects, in two writes: a printk holds 255 characters. */
static void report_summary(void)
{
	dz_printk("ticktest: hz=%u mode=%s empty_insns=%llu empty_cycles=%u", HZ, mode_name(),
		  (unsigned long long)cycles_to_insns(tt.empty), tt.empty);
	put_milli("due_insns_per_timer", per_timer_milli());
	dz_printk(" due1_insns=%llu due100_insns=%llu loop_loss_pct=%llu.%06llu odd=%u\n",
		  (unsigned long long)cycles_to_insns(tt.due[0]),
		  (unsigned long long)cycles_to_insns(tt.due[2]),
		  (unsigned long long)(tt.loss_ppb / 10000000),
		  (unsigned long long)(tt.loss_ppb % 10000000 / 10), tt.odd);
}

int ticktest_run(void)
{
	unsigned int ticks = (unsigned int)test_ticks;
	bool ok;

	thread_doing("ticktest");
	calibrate();
	report_calibration();
	/* Elsewhere the TSC runs on its own, and a turn's excess is not an interrupt's. */
	if (!tt.exact) {
		dz_printk("ticktest: not under QEMU -icount: nothing measured\n");
		return 1;
	}
	measure_empty(ticks);
	measure_due();
	measure_loop(ticks);
	report_empty();
	report_due();
	report_loop(ticks);
	report_summary();
	ok = !tt.odd && tt.empty_n == ticks;
	dz_printk("ticktest: %s\n", ok ? "ok" : "FAILED");
	return !ok;
}
