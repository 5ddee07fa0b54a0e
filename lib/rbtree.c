// SPDX-License-Identifier: MIT
/*
 * The tree of include/dynhz/rbtree.h: a left-leaning red-black tree, the
 * 2-3 tree kept as a binary one (Sedgewick): a red link binds a node to
 * its parent as one 3-node, red links lean left, no node has two red
 * links, and every path from the root down to a leaf crosses as many black
 * links, so the height is at most 2 log2(n + 1). Insert and erase walk
 * down from the root (recursively: the depth is that height) and restore
 * the rules on the way back up. Written for an intrusive node: an erased
 * node with two children is replaced by its successor node, not by its
 * successor's contents.
 */
#include <dynhz/rbtree.h>

#define RED ((uintptr_t)1)

typedef struct dz_rb_node node;

static inline node *right(const node *h)
{
	return dz_rb_right(h);
}

static inline bool red(const node *h)
{
	return h && (h->right_red & RED);
}

static inline void set_right(node *h, node *r)
{
	h->right_red = (uintptr_t)r | (h->right_red & RED);
}

static inline void set_red(node *h, bool r)
{
	h->right_red = (h->right_red & ~RED) | (r ? RED : 0);
}

/* h's right child takes its place (and colour); h becomes its red left child. */
static node *rotate_left(node *h)
{
	node *x = right(h);

	set_right(h, x->left);
	x->left = h;
	set_red(x, red(h));
	set_red(h, true);
	return x;
}

/* The mirror image. */
static node *rotate_right(node *h)
{
	node *x = h->left;

	h->left = right(x);
	set_right(x, h);
	set_red(x, red(h));
	set_red(h, true);
	return x;
}

/* Splits (or, erasing, forms) a 4-node: h and its children change colour. */
static void flip(node *h)
{
	set_red(h, !red(h));
	set_red(h->left, !red(h->left));
	set_red(right(h), !red(right(h)));
}

/* The rules again at h, on the way up. */
static node *balance(node *h)
{
	if (red(right(h)) && !red(h->left))
		h = rotate_left(h);
	if (red(h->left) && red(h->left->left))
		h = rotate_right(h);
	if (red(h->left) && red(right(h)))
		flip(h);
	return h;
}

static node *insert(node *h, node *n, dz_rb_before before)
{
	if (!h)
		return n;
	if (before(n, h))
		h->left = insert(h->left, n, before);
	else
		set_right(h, insert(right(h), n, before));
	return balance(h);
}

void dz_rb_insert(struct dz_rb_root *root, node *n, dz_rb_before before)
{
	n->left = NULL;
	n->right_red = RED;
	root->node = insert(root->node, n, before);
	set_red(root->node, false);
}

/* Erasing on the left: h's left child must not be a 2-node, borrow from the right. */
static node *move_red_left(node *h)
{
	flip(h);
	if (red(right(h)->left)) {
		set_right(h, rotate_right(right(h)));
		h = rotate_left(h);
		flip(h);
	}
	return h;
}

/* The mirror image. */
static node *move_red_right(node *h)
{
	flip(h);
	if (red(h->left->left)) {
		h = rotate_right(h);
		flip(h);
	}
	return h;
}

/* Takes the first node out of h's subtree; *first gets it. */
static node *erase_first(node *h, node **first)
{
	if (!h->left) {
		*first = h;
		return NULL;
	}
	if (!red(h->left) && !red(h->left->left))
		h = move_red_left(h);
	h->left = erase_first(h->left, first);
	return balance(h);
}

static node *erase(node *h, node *n, dz_rb_before before)
{
	if (h != n && before(n, h)) {
		if (!red(h->left) && !red(h->left->left))
			h = move_red_left(h);
		h->left = erase(h->left, n, before);
	} else {
		if (red(h->left))
			h = rotate_right(h);
		if (h == n && !right(h))
			return NULL;
		if (!red(right(h)) && !red(right(h)->left))
			h = move_red_right(h);
		if (h == n) {
			/* Its successor, out of its right subtree, takes its place. */
			node *s, *r = erase_first(right(h), &s);

			s->left = h->left;
			s->right_red = (uintptr_t)r | (h->right_red & RED);
			h = s;
		} else {
			set_right(h, erase(right(h), n, before));
		}
	}
	return balance(h);
}

void dz_rb_erase(struct dz_rb_root *root, node *n, dz_rb_before before)
{
	node *r = root->node;

	/* The root as a 3-node's red half, so that erasing below it never runs short. */
	if (!red(r->left) && !red(right(r)))
		set_red(r, true);
	root->node = erase(r, n, before);
	if (root->node)
		set_red(root->node, false);
}

node *dz_rb_first(const struct dz_rb_root *root)
{
	node *h = root->node;

	if (h)
		while (h->left)
			h = h->left;
	return h;
}

static void drain(node *h, void (*fn)(node *n, void *arg), void *arg)
{
	while (h) {
		node *l = h->left, *r = right(h);

		drain(l, fn, arg);
		fn(h, arg);
		h = r;
	}
}

void dz_rb_drain(struct dz_rb_root *root, void (*fn)(node *n, void *arg), void *arg)
{
	node *h = root->node;

	root->node = NULL;
	drain(h, fn, arg);
}
