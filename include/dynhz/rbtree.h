/* SPDX-License-Identifier: MIT */
/*
 * An intrusive red-black tree: the node lives in the object (an hrtimer),
 * so the tree needs no memory of its own. The caller walks down from the
 * root with its own order, links the new node where the walk ended
 * (dz_rb_link()) and lets dz_rb_insert_fixup() rebalance; dz_rb_erase()
 * takes any node out. Both are O(log n) in the worst case, with at most
 * three rotations. The parent pointer and the colour share a word.
 */
#ifndef DYNHZ_RBTREE_H
#define DYNHZ_RBTREE_H

#include <dynhz/types.h>

struct dz_rb_node {
	uintptr_t parent_color; /* the parent, | 1 when black */
	struct dz_rb_node *left, *right;
};

struct dz_rb_root {
	struct dz_rb_node *node;
};

static inline struct dz_rb_node *dz_rb_parent(const struct dz_rb_node *n)
{
	return (struct dz_rb_node *)(n->parent_color & ~(uintptr_t)1);
}

/* Puts a new red node n at *link, a NULL child pointer of parent (NULL: the root). */
static inline void dz_rb_link(struct dz_rb_node *n, struct dz_rb_node *parent,
			      struct dz_rb_node **link)
{
	n->parent_color = (uintptr_t)parent;
	n->left = NULL;
	n->right = NULL;
	*link = n;
}

/* Rebalances after dz_rb_link(). */
void dz_rb_insert_fixup(struct dz_rb_root *root, struct dz_rb_node *n);

/* Takes n out of the tree (its fields then mean nothing). */
void dz_rb_erase(struct dz_rb_root *root, struct dz_rb_node *n);

/* The first node in order (NULL for an empty tree), and the one after n (NULL: none). */
struct dz_rb_node *dz_rb_first(const struct dz_rb_root *root);
struct dz_rb_node *dz_rb_next(const struct dz_rb_node *n);

#endif
