/* SPDX-License-Identifier: MIT */
/*
 * The links the core's public structures embed (a timer in a wheel slot,
 * an hrtimer in a tree or a slot): their types only. The lists and the
 * tree that use them are the core's own business (time/hlist.h,
 * time/rbtree.h).
 */
#ifndef DYNHZ_NODE_H
#define DYNHZ_NODE_H

#include <dynhz/types.h>

/* On a list with a one-pointer head (as Linux's hlist); pprev NULL: on none. */
struct dz_hlist_node {
	struct dz_hlist_node *next;
	struct dz_hlist_node **pprev;
};

struct dz_hlist_head {
	struct dz_hlist_node *first;
};

/* In a red-black tree: no parent, the colour is the low bit of the right child. */
struct dz_rb_node {
	struct dz_rb_node *left;
	uintptr_t right_red;
};

struct dz_rb_root {
	struct dz_rb_node *node;
};

/* The structure that contains ptr as its member named member (from_timer()). */
#define dz_container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

#endif
