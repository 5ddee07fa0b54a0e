/* SPDX-License-Identifier: MIT */
/*
 * An intrusive red-black tree: the node lives in the object (an hrtimer),
 * so the tree needs no memory of its own. Two pointers a node and no
 * parent (the colour is the low bit of the right pointer): insert and
 * erase walk down from the root, keeping the ancestors on the stack, and
 * repair on the way back up; O(log n) in the worst case. The order is the
 * caller's: a strict total order (no two nodes equal), as erase finds its
 * node by it. The core's own (the types are public: <dynhz/node.h>).
 */
#ifndef DYNHZ_TIME_RBTREE_H
#define DYNHZ_TIME_RBTREE_H

#include <dynhz/node.h>

/* Is a before b? A strict total order on the nodes of one tree. */
typedef bool (*dz_rb_before)(const struct dz_rb_node *a, const struct dz_rb_node *b);

/**
 * dz_rb_insert() - put a node into the tree
 * @root: the tree
 * @n: the node, not in it
 * @before: the tree's order
 */
void dz_rb_insert(struct dz_rb_root *root, struct dz_rb_node *n, dz_rb_before before);

/* Ancestors a walk down can meet: 2 log2(n + 1) for n below 2^47 nodes. */
#define DZ_RB_MAX_DEPTH 96

/**
 * dz_rb_insert_at() - dz_rb_insert() for a caller that walked down itself
 * @root: the tree
 * @n: the node, not in it
 * @path: path[0] (the root) to path[depth - 1], the nodes it went through
 *	by its own order (inline: no call per comparison)
 * @depth: how many
 * @left: n goes below the last of them, on its left if true
 */
void dz_rb_insert_at(struct dz_rb_root *root, struct dz_rb_node *n, struct dz_rb_node **path,
		     int depth, bool left);

/**
 * dz_rb_erase() - take a node out of the tree
 * @root: the tree
 * @n: the node, in it
 * @before: the tree's order (the walk down finds n by it)
 */
void dz_rb_erase(struct dz_rb_root *root, struct dz_rb_node *n, dz_rb_before before);

/**
 * dz_rb_erase_first() - take the first node out, with no comparison
 * @root: the tree
 *
 * Return: the node, or NULL for an empty tree.
 */
struct dz_rb_node *dz_rb_erase_first(struct dz_rb_root *root);

/**
 * dz_rb_first() - the first node in order
 * @root: the tree
 *
 * Return: the node, or NULL for an empty tree.
 */
struct dz_rb_node *dz_rb_first(const struct dz_rb_root *root);

static inline struct dz_rb_node *dz_rb_right(const struct dz_rb_node *n)
{
	return (struct dz_rb_node *)(n->right_red & ~(uintptr_t)1);
}

/**
 * dz_rb_walk() - visit the nodes in order, leaving the tree as it is
 * @root: the tree
 * @fn: called on every node in order until it returns false; it must not
 *	change the tree
 * @arg: passed to @fn
 *
 * Return: false if @fn stopped the walk. O(n), a stack as deep as the tree.
 */
bool dz_rb_walk(const struct dz_rb_root *root, bool (*fn)(const struct dz_rb_node *n, void *arg),
		void *arg);

/**
 * dz_rb_drain() - empty the tree, node by node
 * @root: the tree
 * @fn: called on every node, children before their parent (so it may reuse
 *	the node's memory)
 * @arg: passed to @fn
 *
 * O(n), a stack as deep as the tree: for a rebuild.
 */
void dz_rb_drain(struct dz_rb_root *root, void (*fn)(struct dz_rb_node *n, void *arg), void *arg);

#endif
