/* SPDX-License-Identifier: MIT */
/*
 * A map from a timer's address (as the trace prints it) to a value, with
 * open addressing and deletion by backward shift: it holds the timers
 * pending now, so memory follows them, not the trace's length.
 */
#ifndef HZADVISE_MAP_H
#define HZADVISE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct map_slot {
	uint64_t key;
	uint64_t val;
	bool used;
};

struct map {
	struct map_slot *slot;
	size_t cap, n; /* cap a power of two */
};

void map_init(struct map *m);
void map_free(struct map *m);
/* The value's address, or NULL. */
uint64_t *map_get(struct map *m, uint64_t key);
/* Inserts or replaces. */
void map_put(struct map *m, uint64_t key, uint64_t val);
bool map_del(struct map *m, uint64_t key);

#endif
