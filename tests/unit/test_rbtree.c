// SPDX-License-Identifier: MIT
/*
 * The red-black tree of lib/rbtree.c against a sorted array: random
 * inserts and erases (of the first node, of any node, duplicates kept in
 * insertion order); after each, the in-order walk (dz_rb_first/dz_rb_next)
 * must be the array, and the rules must hold: the root black, no red node
 * with a red child, as many black nodes on every path down, every child's
 * parent pointer right, and a height within 2 log2(n + 1).
 *
 * DYNHZ_SEED=n changes the seed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <dynhz/rbtree.h>

#include "ref.h"

#define N 600

struct item {
	struct dz_rb_node rb;
	unsigned int key, seq;
	bool in;
};

static struct item items[N];
static struct dz_rb_root root;
static struct item *model[N]; /* the items in the tree, in order */
static unsigned int count, seq;
static u64 rng;

static bool item_before(const struct item *a, const struct item *b)
{
	return a->key < b->key || (a->key == b->key && a->seq < b->seq);
}

static struct item *item_of(struct dz_rb_node *n)
{
	return n ? (struct item *)((char *)n - offsetof(struct item, rb)) : NULL;
}

static void insert(struct item *it)
{
	struct dz_rb_node **link = &root.node, *parent = NULL;
	unsigned int i;

	it->seq = ++seq;
	while (*link) {
		parent = *link;
		link = item_before(it, item_of(parent)) ? &parent->left : &parent->right;
	}
	dz_rb_link(&it->rb, parent, link);
	dz_rb_insert_fixup(&root, &it->rb);
	it->in = true;
	for (i = count; i > 0 && item_before(it, model[i - 1]); i--)
		model[i] = model[i - 1];
	model[i] = it;
	count++;
}

static void erase(struct item *it)
{
	unsigned int i = 0;

	dz_rb_erase(&root, &it->rb);
	it->in = false;
	while (model[i] != it)
		i++;
	memmove(&model[i], &model[i + 1], (count - i - 1) * sizeof(model[0]));
	count--;
}

static bool black(const struct dz_rb_node *n)
{
	return !n || (n->parent_color & 1);
}

/* Black height of n's subtree, checking the rules on the way; -1 if broken. */
static int check(const struct dz_rb_node *n, const struct dz_rb_node *parent, int depth,
		 int *max_depth)
{
	int l, r;

	if (!n)
		return depth > *max_depth ? (*max_depth = depth, 1) : 1;
	if (dz_rb_parent(n) != parent)
		return -1;
	if (!black(n) && (!black(n->left) || !black(n->right)))
		return -1;
	l = check(n->left, n, depth + 1, max_depth);
	r = check(n->right, n, depth + 1, max_depth);
	if (l < 0 || l != r)
		return -1;
	return l + black(n);
}

static void verify(void)
{
	struct dz_rb_node *n = dz_rb_first(&root);
	int depth = 0, log2 = 0;

	for (unsigned int i = 0; i < count; i++, n = dz_rb_next(n))
		assert_ptr_equal(item_of(n), model[i]);
	assert_null(n);
	assert_true(!root.node || black(root.node));
	assert_true(check(root.node, NULL, 0, &depth) > 0);
	while ((1U << log2) < count + 1)
		log2++;
	assert_true(depth <= 2 * log2 + 1);
}

static void test_random(void **state)
{
	const char *s = getenv("DYNHZ_SEED");

	(void)state;
	rng = s ? strtoull(s, NULL, 0) : 0x2b7e1516u;
	memset(&root, 0, sizeof(root));
	count = 0;
	for (unsigned int step = 0; step < 200000; step++) {
		struct item *it = &items[ref_rand(&rng) % N];
		unsigned int r = (unsigned int)(ref_rand(&rng) % 100);

		if (!it->in) {
			/* Narrow keys some of the time: many equal ones. */
			it->key = (unsigned int)(ref_rand(&rng) % (r < 30 ? 8 : 100000));
			insert(it);
		} else if (r < 30 && count) {
			erase(model[0]); /* the first, as a timer queue does */
		} else {
			erase(it);
		}
		if (step % 97 == 0 || count < 4)
			verify();
	}
	while (count)
		erase(model[ref_rand(&rng) % count]);
	verify();
	assert_null(root.node);
}

/* Sorted input, both ways: the worst case for an unbalanced tree. */
static void test_sorted(void **state)
{
	(void)state;
	for (int dir = 0; dir < 2; dir++) {
		memset(&root, 0, sizeof(root));
		count = 0;
		for (unsigned int i = 0; i < N; i++) {
			items[i].key = dir ? N - i : i;
			insert(&items[i]);
		}
		verify();
		for (unsigned int i = 0; i < N; i++)
			erase(model[0]);
		verify();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sorted),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
