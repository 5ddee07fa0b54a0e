// SPDX-License-Identifier: MIT
#include <stdlib.h>

#include "map.h"

static size_t hash(uint64_t k, size_t cap)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)k & (cap - 1);
}

static void alloc_slots(struct map *m, size_t cap)
{
	m->slot = calloc(cap, sizeof(*m->slot));
	if (!m->slot)
		abort();
	m->cap = cap;
	m->n = 0;
}

void map_init(struct map *m)
{
	alloc_slots(m, 64);
}

void map_free(struct map *m)
{
	free(m->slot);
	m->slot = NULL;
	m->cap = m->n = 0;
}

static struct map_slot *find(const struct map *m, uint64_t key)
{
	size_t i = hash(key, m->cap);

	while (m->slot[i].used && m->slot[i].key != key)
		i = (i + 1) & (m->cap - 1);
	return &m->slot[i];
}

uint64_t *map_get(struct map *m, uint64_t key)
{
	struct map_slot *s = find(m, key);

	return s->used ? &s->val : NULL;
}

static void grow(struct map *m)
{
	struct map_slot *old = m->slot;
	size_t cap = m->cap;

	alloc_slots(m, cap * 2);
	for (size_t i = 0; i < cap; i++)
		if (old[i].used)
			map_put(m, old[i].key, old[i].val);
	free(old);
}

void map_put(struct map *m, uint64_t key, uint64_t val)
{
	struct map_slot *s;

	if (2 * (m->n + 1) > m->cap)
		grow(m);
	s = find(m, key);
	if (!s->used) {
		s->used = true;
		s->key = key;
		m->n++;
	}
	s->val = val;
}

/* Moves later members of the probe run back into the hole, so lookups never stop early. */
bool map_del(struct map *m, uint64_t key)
{
	size_t mask = m->cap - 1, i = (size_t)(find(m, key) - m->slot), j = i;

	if (!m->slot[i].used)
		return false;
	for (;;) {
		size_t home;

		m->slot[i].used = false;
		do {
			j = (j + 1) & mask;
			if (!m->slot[j].used) {
				m->n--;
				return true;
			}
			home = hash(m->slot[j].key, m->cap);
			/* j may move to i only if its home is not in (i, j] cyclically. */
		} while (i <= j ? (i < home && home <= j) : (i < home || home <= j));
		m->slot[i] = m->slot[j];
		i = j;
	}
}
