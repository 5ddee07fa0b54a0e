// SPDX-License-Identifier: MIT
/*
 * The red-black tree of include/dynhz/rbtree.h: the textbook algorithms
 * (a red node has black children; every path from a node down to a leaf
 * has as many black nodes), with NULL leaves, which count as black.
 */
#include <dynhz/rbtree.h>

#define RB_BLACK ((uintptr_t)1)

static inline bool is_red(const struct dz_rb_node *n)
{
	return n && !(n->parent_color & RB_BLACK);
}

static inline void set_black(struct dz_rb_node *n)
{
	n->parent_color |= RB_BLACK;
}

static inline void set_red(struct dz_rb_node *n)
{
	n->parent_color &= ~RB_BLACK;
}

static inline void set_parent(struct dz_rb_node *n, struct dz_rb_node *p)
{
	n->parent_color = (uintptr_t)p | (n->parent_color & RB_BLACK);
}

/* Whatever pointed at old (its parent's child pointer, or the root) points at new. */
static inline void replace_child(struct dz_rb_root *root, struct dz_rb_node *parent,
				 struct dz_rb_node *old, struct dz_rb_node *new)
{
	if (!parent)
		root->node = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
}

/* x's right child r takes x's place; x becomes r's left child. */
static void rotate_left(struct dz_rb_root *root, struct dz_rb_node *x)
{
	struct dz_rb_node *r = x->right, *p = dz_rb_parent(x);

	x->right = r->left;
	if (r->left)
		set_parent(r->left, x);
	set_parent(r, p);
	replace_child(root, p, x, r);
	r->left = x;
	set_parent(x, r);
}

/* The mirror image. */
static void rotate_right(struct dz_rb_root *root, struct dz_rb_node *x)
{
	struct dz_rb_node *l = x->left, *p = dz_rb_parent(x);

	x->left = l->right;
	if (l->right)
		set_parent(l->right, x);
	set_parent(l, p);
	replace_child(root, p, x, l);
	l->right = x;
	set_parent(x, l);
}

void dz_rb_insert_fixup(struct dz_rb_root *root, struct dz_rb_node *n)
{
	struct dz_rb_node *p;

	/* n is red; only a red parent breaks the rules. */
	while ((p = dz_rb_parent(n)) && is_red(p)) {
		struct dz_rb_node *g = dz_rb_parent(p); /* exists: the root is black */
		bool left = p == g->left;
		struct dz_rb_node *uncle = left ? g->right : g->left;

		if (is_red(uncle)) {
			/* Push the red up: the grandparent may now break the rules. */
			set_black(p);
			set_black(uncle);
			set_red(g);
			n = g;
			continue;
		}
		/* A black uncle: at most two rotations end it. */
		if (n == (left ? p->right : p->left)) {
			if (left)
				rotate_left(root, p);
			else
				rotate_right(root, p);
			n = p;
			p = dz_rb_parent(n);
		}
		set_black(p);
		set_red(g);
		if (left)
			rotate_right(root, g);
		else
			rotate_left(root, g);
		break;
	}
	set_black(root->node);
}

/* n's subtree's first node. */
static struct dz_rb_node *leftmost(struct dz_rb_node *n)
{
	while (n->left)
		n = n->left;
	return n;
}

/* One black too few on the paths through x (maybe NULL), a child of parent. */
static void erase_fixup(struct dz_rb_root *root, struct dz_rb_node *x, struct dz_rb_node *parent)
{
	while (x != root->node && !is_red(x)) {
		bool left = x == parent->left;
		struct dz_rb_node *w = left ? parent->right : parent->left; /* not NULL */

		if (is_red(w)) {
			/* Make the sibling black, by a rotation at the parent. */
			set_black(w);
			set_red(parent);
			if (left)
				rotate_left(root, parent);
			else
				rotate_right(root, parent);
			w = left ? parent->right : parent->left;
		}
		if (!is_red(w->left) && !is_red(w->right)) {
			/* The sibling's side gives a black up too: the lack moves up. */
			set_red(w);
			x = parent;
			parent = dz_rb_parent(x);
			continue;
		}
		/* A red nephew: one or two rotations end it. */
		if (left ? !is_red(w->right) : !is_red(w->left)) {
			set_black(left ? w->left : w->right);
			set_red(w);
			if (left)
				rotate_right(root, w);
			else
				rotate_left(root, w);
			w = left ? parent->right : parent->left;
		}
		/* w takes the parent's colour, the parent and the far nephew black. */
		w->parent_color = (w->parent_color & ~RB_BLACK) | (parent->parent_color & RB_BLACK);
		set_black(parent);
		set_black(left ? w->right : w->left);
		if (left)
			rotate_left(root, parent);
		else
			rotate_right(root, parent);
		x = root->node;
		break;
	}
	if (x)
		set_black(x);
}

void dz_rb_erase(struct dz_rb_root *root, struct dz_rb_node *n)
{
	struct dz_rb_node *parent = dz_rb_parent(n), *x, *x_parent;
	bool removed_black;

	if (!n->left || !n->right) {
		/* At most one child: it takes n's place. */
		x = n->left ? n->left : n->right;
		x_parent = parent;
		removed_black = !is_red(n);
		if (x)
			set_parent(x, parent);
		replace_child(root, parent, n, x);
	} else {
		/* Two children: n's successor y (no left child) takes n's place and colour. */
		struct dz_rb_node *y = leftmost(n->right);

		removed_black = !is_red(y);
		x = y->right;
		if (dz_rb_parent(y) == n) {
			x_parent = y;
		} else {
			x_parent = dz_rb_parent(y);
			x_parent->left = x;
			if (x)
				set_parent(x, x_parent);
			y->right = n->right;
			set_parent(y->right, y);
		}
		y->left = n->left;
		set_parent(y->left, y);
		y->parent_color = n->parent_color; /* n's parent and colour */
		replace_child(root, parent, n, y);
	}
	if (removed_black)
		erase_fixup(root, x, x_parent);
}

struct dz_rb_node *dz_rb_first(const struct dz_rb_root *root)
{
	return root->node ? leftmost(root->node) : NULL;
}

struct dz_rb_node *dz_rb_next(const struct dz_rb_node *n)
{
	const struct dz_rb_node *p;

	if (n->right)
		return leftmost(n->right);
	/* Up until we come from a left child. */
	while ((p = dz_rb_parent(n)) && n == p->right)
		n = p;
	return (struct dz_rb_node *)p;
}
