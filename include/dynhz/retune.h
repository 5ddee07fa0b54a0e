/* SPDX-License-Identifier: MIT */
/*
 * HZ changed at runtime (DESIGN §12): a new tick rate applied at a tick
 * boundary, every jiffies-valued state re-expressed in the new unit.
 *
 * What the core re-expresses itself: the timer wheel (each pending timer
 * from its remaining real time, rounded up in new jiffies), the conversion
 * constants (one generation, swapped through one pointer), tickless idle's
 * grid and the tick device's period. The kernel re-expresses the rest
 * (scheduler timeslice, sleeping schedule_timeout()s, driver parameters)
 * from hooks registered with dz_hz_retune_hook().
 */
#ifndef DYNHZ_RETUNE_H
#define DYNHZ_RETUNE_H

#include <dynhz/types.h>
#include <dynhz/hz.h>

/**
 * dz_hz_retune() - change HZ on a running system
 * @hz: the new tick rate
 *
 * Process context, interrupts enabled. The change happens at a tick
 * boundary: it is applied from the tick handler and the caller waits at
 * most one tick (the hosted port, which has no concurrency, applies it at
 * once, at the boundary of the current jiffy). Logs
 * "hz: 1000 -> 100 at jiffies J, N timers re-expressed" and prints the
 * `time:` report line again.
 *
 * Return: 0 once HZ is @hz (changing to the current HZ is a no-op that
 * returns 0); -DZ_ERANGE outside 19..10000, with the same one-line message
 * as the hz= boot parameter and nothing changed; -DZ_EPERM in the constant
 * build, one line ("hz: constant build, HZ is N"); -DZ_EINVAL if the tick
 * device cannot make the rate or the core has no exact conversions for the
 * period it makes (nothing changed but the phase of the tick); -DZ_EBUSY
 * before the tick runs or while another change waits for its tick.
 */
int dz_hz_retune(unsigned int hz);

/**
 * dz_hz_retune_str() - parse like hz= ("300"), then dz_hz_retune()
 * @s: the text, as written to /proc/sys/kernel/hz or typed at the shell
 *
 * Return: as dz_hz_retune(); -DZ_EINVAL (not a number) with the hz= boot
 * parameter's message, nothing changed.
 */
int dz_hz_retune_str(const char *s);

/* What one change did, for the hooks. */
struct dz_retune_info {
	unsigned int old_hz, new_hz;
	struct dz_tick_period old_period, new_period; /* exact, as the device reported */
	unsigned long jiffies; /* the boundary: the last tick of the old rate */
	unsigned long timers;  /* jiffies timers the core re-expresses (pending at the boundary) */
	u32 generation;	       /* new generation, counts changes since boot */
};

#define DZ_RETUNE_HOOKS_MAX 8

/**
 * dz_hz_retune_hook() - be told of every change of HZ
 * @hook: called at the boundary with interrupts off, after the core
 *        re-expressed its own state (wheel, tickless grid, constants,
 *        device period) and before the first tick of the new rate; for
 *        the kernel's own jiffies-valued state
 *
 * Return: 0, or -DZ_EBUSY when DZ_RETUNE_HOOKS_MAX hooks are registered.
 */
int dz_hz_retune_hook(void (*hook)(const struct dz_retune_info *info));

/**
 * dz_retune_jiffies() - a remaining count of old jiffies as new jiffies
 * @info: the change
 * @old_delta: jiffies of the old rate still to wait, counted from the boundary
 *
 * Return: the smallest count of new jiffies whose real time is at least
 * that of @old_delta old ones (rounded up: never early in real time);
 * saturates at MAX_JIFFY_OFFSET.
 */
unsigned long dz_retune_jiffies(const struct dz_retune_info *info, unsigned long old_delta);

/*
 * A remaining count of new jiffies as old ones, rounded down (the old
 * jiffies that have fully passed): for the wheel while it moves timers.
 */
unsigned long dz_retune_old_jiffies(const struct dz_retune_info *info, unsigned long new_delta);

/* Timers moved per batch after a change, interrupts off for each batch. */
#define DZ_RETUNE_BATCH 128

/**
 * dz_hz_retune_defer_timers() - let the caller move the timers
 * @defer: true: dz_hz_retune() returns once the change is applied, and the
 *         timers pending at the boundary stay where they were filed, in
 *         old jiffies, until dz_hz_retune_migrate() moves them (the tick
 *         still runs each on time); false (the default): dz_hz_retune()
 *         moves them itself, in batches, before it returns
 *
 * For a kernel that moves them from a worker of its own, and for
 * measurements. A change still waiting for its timers moves them first.
 */
void dz_hz_retune_defer_timers(bool defer);

/**
 * dz_hz_retune_migrate() - move timers of the last change of HZ
 * @max: at most this many, interrupts off while they move
 *
 * Each is re-expressed from what remained of it at the boundary, rounded
 * up in new jiffies (never early). Process context, interrupts enabled.
 *
 * Return: true while timers of the old rate remain.
 */
bool dz_hz_retune_migrate(unsigned int max);

/* Changes of HZ since boot (0 until the first). */
u32 dz_hz_generation(void);

/**
 * dz_hz_retune_set_wait() - how dz_hz_retune() waits for the tick
 * @wait: called in a loop until the change is applied, with interrupts
 *        enabled; NULL (the default) spins. The kernel may halt until the
 *        next interrupt (sti; hlt), without entering tickless idle, which
 *        would stop the very tick it waits for; the hosted port delivers
 *        the simulated device's next interrupt.
 */
void dz_hz_retune_set_wait(void (*wait)(void));

#endif
