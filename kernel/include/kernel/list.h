/* SPDX-License-Identifier: MIT */
/* A circular doubly linked list with a sentinel head, as Linux's list_head. */
#ifndef KERNEL_LIST_H
#define KERNEL_LIST_H

#include <dynhz/types.h>

/* The structure that contains ptr, its member named member. */
#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name)     \
	{                        \
		&(name), &(name) \
	}
#define list_entry(ptr, type, member) container_of(ptr, type, member)

static inline void INIT_LIST_HEAD(struct list_head *h)
{
	h->next = h;
	h->prev = h;
}

static inline bool list_empty(const struct list_head *h)
{
	return h->next == h;
}

static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	n->prev = h->prev;
	n->next = h;
	h->prev->next = n;
	h->prev = n;
}

/* Unlinks n and leaves it pointing at itself, so a second del is harmless. */
static inline void list_del_init(struct list_head *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	INIT_LIST_HEAD(n);
}

#endif
