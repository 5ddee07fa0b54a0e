// SPDX-License-Identifier: MIT
/*
 * The tree of include/dynhz/rbtree.h: a red-black tree (a red node has
 * black children; every path from a node down to a leaf crosses as many
 * black nodes: the height is at most 2 log2(n + 1)), the textbook
 * bottom-up algorithms, with NULL leaves, which count as black. A node has
 * no parent pointer: the walk down from the root that finds a node's place
 * (or the node) keeps its ancestors in an array on the stack, and the
 * repairs on the way back up read them there. Insert's repair stops at the
 * first black parent, erase's at the first red node or after at most three
 * rotations: O(1) amortized above the walk. An erased node with two
 * children trades places (not contents: the node is the object) with its
 * successor first.
 */
#include "rbtree.h"

#define RED	  ((uintptr_t)1)
#define MAX_DEPTH DZ_RB_MAX_DEPTH

typedef struct dz_rb_node node;

static inline node *R(const node *n)
{
	return dz_rb_right(n);
}

static inline void set_right(node *n, node *r)
{
	n->right_red = (uintptr_t)r | (n->right_red & RED);
}

static inline bool red(const node *n)
{
	return n && (n->right_red & RED);
}

static inline void set_red(node *n, bool r)
{
	n->right_red = (n->right_red & ~RED) | (r ? RED : 0);
}

/* Whatever pointed at old (parent's child pointer, or the root) points at new. */
static inline void replace_child(struct dz_rb_root *root, node *parent, node *old, node *new)
{
	if (!parent)
		root->node = new;
	else if (parent->left == old)
		parent->left = new;
	else
		set_right(parent, new);
}

/* x's right child takes its place under parent; x becomes its left child. */
static void rotate_left(struct dz_rb_root *root, node *x, node *parent)
{
	node *r = R(x);

	set_right(x, r->left);
	r->left = x;
	replace_child(root, parent, x, r);
}

/* The mirror image. */
static void rotate_right(struct dz_rb_root *root, node *x, node *parent)
{
	node *l = x->left;

	x->left = R(l);
	set_right(l, x);
	replace_child(root, parent, x, l);
}

/*
 * n, red, has just been linked below p[i - 1] (its ancestors are p[0]
 * (the root) to p[i - 1]): only a red parent breaks the rules.
 */
static void insert_fixup(struct dz_rb_root *root, node *n, node **p, int i)
{
	/* A red parent is not the root (i >= 2): the root stays black. */
	while (i >= 2 && red(p[i - 1])) {
		node *par = p[i - 1], *g = p[i - 2];
		node *gg = i >= 3 ? p[i - 3] : NULL;
		bool left = par == g->left;
		node *uncle = left ? R(g) : g->left;

		if (red(uncle)) {
			/* Push the red up: the grandparent may now break the rules. */
			set_red(par, false);
			set_red(uncle, false);
			set_red(g, true);
			n = g;
			i -= 2;
			continue;
		}
		/* A black uncle: one or two rotations end it. */
		if (n == (left ? R(par) : par->left)) {
			if (left)
				rotate_left(root, par, g);
			else
				rotate_right(root, par, g);
			par = n;
		}
		set_red(par, false);
		set_red(g, true);
		if (left)
			rotate_right(root, g, gg);
		else
			rotate_left(root, g, gg);
		break;
	}
	set_red(root->node, false);
}

void dz_rb_insert_at(struct dz_rb_root *root, node *n, node **p, int i, bool left)
{
	n->left = NULL;
	n->right_red = RED;
	if (!i)
		root->node = n;
	else if (left)
		p[i - 1]->left = n;
	else
		set_right(p[i - 1], n);
	insert_fixup(root, n, p, i);
}

void dz_rb_insert(struct dz_rb_root *root, node *n, dz_rb_before before)
{
	node *p[MAX_DEPTH], *h = root->node;
	int i = 0;
	bool left = false;

	while (h) {
		p[i++] = h;
		left = before(n, h);
		h = left ? h->left : R(h);
	}
	dz_rb_insert_at(root, n, p, i, left);
}

/*
 * One black too few on the paths through x (maybe NULL), the left child
 * (xleft) or the right one of p[i]; p[0] to p[i] are its ancestors, with
 * room for one more (a rotation puts the sibling above the parent).
 */
static void erase_fixup(struct dz_rb_root *root, node *x, bool xleft, node **p, int i)
{
	while (i >= 0 && !red(x)) {
		node *par = p[i], *gpar = i ? p[i - 1] : NULL;
		node *w = xleft ? R(par) : par->left; /* not NULL: it holds a black */

		if (red(w)) {
			/* Make the sibling black, by a rotation at the parent. */
			set_red(w, false);
			set_red(par, true);
			if (xleft)
				rotate_left(root, par, gpar);
			else
				rotate_right(root, par, gpar);
			p[i] = w;
			p[++i] = par;
			gpar = w;
			w = xleft ? R(par) : par->left;
		}
		if (!red(w->left) && !red(R(w))) {
			/* The sibling's side gives a black up too: the lack moves up. */
			set_red(w, true);
			x = par;
			if (--i >= 0)
				xleft = x == p[i]->left;
			continue;
		}
		/* A red nephew: one or two rotations end it. */
		if (xleft ? !red(R(w)) : !red(w->left)) {
			set_red(xleft ? w->left : R(w), false);
			set_red(w, true);
			if (xleft)
				rotate_right(root, w, par);
			else
				rotate_left(root, w, par);
			w = xleft ? R(par) : par->left;
		}
		/* w takes the parent's colour, the parent and the far nephew black. */
		set_red(w, red(par));
		set_red(par, false);
		set_red(xleft ? R(w) : w->left, false);
		if (xleft)
			rotate_left(root, par, gpar);
		else
			rotate_right(root, par, gpar);
		return;
	}
	if (x)
		set_red(x, false);
}

/*
 * n is at depth d (its ancestors p[0] to p[d - 1]) and has at most one
 * child, or the caller made it so: its child takes its place.
 */
static void unlink(struct dz_rb_root *root, node *n, node **p, int d)
{
	node *child = n->left ? n->left : R(n), *parent = d ? p[d - 1] : NULL;
	bool left = parent && parent->left == n;

	replace_child(root, parent, n, child);
	if (!red(n))
		erase_fixup(root, child, left, p, d - 1);
}

void dz_rb_erase(struct dz_rb_root *root, node *n, dz_rb_before before)
{
	node *p[MAX_DEPTH + 1], *h = root->node;
	int d = 0;

	while (h != n) {
		p[d++] = h;
		h = before(n, h) ? h->left : R(h);
	}
	if (n->left && R(n)) {
		/*
		 * Its successor y (the first of its right subtree: no left
		 * child) and n trade places and colours; then n has at most
		 * one child, at y's old depth k.
		 */
		node *nl = n->left, *nr = R(n), *y = nr, *yr;
		uintptr_t cn = n->right_red & RED, cy;
		int k = d + 1;

		p[d] = n;
		while (y->left) {
			p[k++] = y;
			y = y->left;
		}
		yr = R(y);
		cy = y->right_red & RED;
		replace_child(root, d ? p[d - 1] : NULL, n, y);
		y->left = nl;
		if (y == nr) {
			y->right_red = (uintptr_t)n | cn;
		} else {
			y->right_red = (uintptr_t)nr | cn;
			p[k - 1]->left = n;
		}
		n->left = NULL;
		n->right_red = (uintptr_t)yr | cy;
		p[d] = y;
		d = k;
	}
	unlink(root, n, p, d);
}

node *dz_rb_erase_first(struct dz_rb_root *root)
{
	node *p[MAX_DEPTH + 1], *n = root->node;
	int d = 0;

	if (!n)
		return NULL;
	while (n->left) {
		p[d++] = n;
		n = n->left;
	}
	unlink(root, n, p, d);
	return n;
}

node *dz_rb_first(const struct dz_rb_root *root)
{
	node *n = root->node;

	if (n)
		while (n->left)
			n = n->left;
	return n;
}

static void drain(node *n, void (*fn)(node *n, void *arg), void *arg)
{
	while (n) {
		node *l = n->left, *r = R(n);

		drain(l, fn, arg);
		fn(n, arg);
		n = r;
	}
}

static bool walk(const node *n, bool (*fn)(const node *n, void *arg), void *arg)
{
	for (; n; n = R(n))
		if (!walk(n->left, fn, arg) || !fn(n, arg))
			return false;
	return true;
}

bool dz_rb_walk(const struct dz_rb_root *root, bool (*fn)(const node *n, void *arg), void *arg)
{
	return walk(root->node, fn, arg);
}

void dz_rb_drain(struct dz_rb_root *root, void (*fn)(node *n, void *arg), void *arg)
{
	node *n = root->node;

	root->node = NULL;
	drain(n, fn, arg);
}
