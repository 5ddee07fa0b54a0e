/* SPDX-License-Identifier: MIT */
/*
 * A doubly linked list with a one-pointer head, as Linux's hlist: each node
 * points back at the pointer that points at it, so a node unlinks itself
 * in O(1) without knowing its head, and an array of heads (a timer wheel's
 * slots) costs one word per slot. pprev == NULL means "on no list".
 * The core's own (the types are public: <dynhz/node.h>).
 */
#ifndef DYNHZ_TIME_HLIST_H
#define DYNHZ_TIME_HLIST_H

#include <dynhz/node.h>

static inline bool dz_hlist_unhashed(const struct dz_hlist_node *n)
{
	return !n->pprev;
}

static inline bool dz_hlist_empty(const struct dz_hlist_head *h)
{
	return !h->first;
}

static inline void dz_hlist_add_head(struct dz_hlist_node *n, struct dz_hlist_head *h)
{
	struct dz_hlist_node *first = h->first;

	n->next = first;
	if (first)
		first->pprev = &n->next;
	h->first = n;
	n->pprev = &h->first;
}

/* Unlinks n and marks it as on no list. */
static inline void dz_hlist_del_init(struct dz_hlist_node *n)
{
	struct dz_hlist_node *next = n->next;

	*n->pprev = next;
	if (next)
		next->pprev = n->pprev;
	n->next = NULL;
	n->pprev = NULL;
}

/*
 * Unlinks and returns the first node of h, NULL when h is empty: the loops
 * that empty a list take nodes from its head, which they know, rather than
 * through the nodes' back pointers.
 */
static inline struct dz_hlist_node *dz_hlist_pop(struct dz_hlist_head *h)
{
	struct dz_hlist_node *n = h->first;

	if (n) {
		h->first = n->next;
		if (n->next)
			n->next->pprev = &h->first;
		n->next = NULL;
		n->pprev = NULL;
	}
	return n;
}

/* Is n the only node of h? */
static inline bool dz_hlist_is_singular_node(const struct dz_hlist_node *n,
					     const struct dz_hlist_head *h)
{
	return !n->next && n->pprev == &h->first;
}

/* Moves every node of from onto the empty head to; from becomes empty. */
static inline void dz_hlist_move_list(struct dz_hlist_head *from, struct dz_hlist_head *to)
{
	to->first = from->first;
	if (to->first)
		to->first->pprev = &to->first;
	from->first = NULL;
}

#endif
