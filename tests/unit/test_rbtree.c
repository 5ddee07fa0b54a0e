// SPDX-License-Identifier: MIT
/*
 * The red-black tree of lib/rbtree.c against a sorted array: random
 * inserts and erases (of the first node, any node, or by
 * dz_rb_erase_first(); equal keys kept in insertion order); after each,
 * the in-order walk must be the array, dz_rb_first() its first, and the
 * rules must hold: the root black, no red node with a red child, as many
 * black nodes on every path down, and a height within 2 log2(n + 1);
 * dz_rb_drain() visits every node once, children first.
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

#include "rbtree.h"

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

static bool rb_before(const struct dz_rb_node *a, const struct dz_rb_node *b)
{
	return item_before(item_of((struct dz_rb_node *)a), item_of((struct dz_rb_node *)b));
}

static void insert(struct item *it)
{
	unsigned int i;

	it->seq = ++seq;
	dz_rb_insert(&root, &it->rb, rb_before);
	it->in = true;
	for (i = count; i > 0 && item_before(it, model[i - 1]); i--)
		model[i] = model[i - 1];
	model[i] = it;
	count++;
}

static void erase(struct item *it)
{
	unsigned int i = 0;

	dz_rb_erase(&root, &it->rb, rb_before);
	it->in = false;
	while (model[i] != it)
		i++;
	memmove(&model[i], &model[i + 1], (count - i - 1) * sizeof(model[0]));
	count--;
}

static bool black(const struct dz_rb_node *n)
{
	return !n || !(n->right_red & 1);
}

/* Black height of n's subtree, checking the rules on the way; -1 if broken. */
static int check(const struct dz_rb_node *n, int depth, int *max_depth)
{
	int l, r;

	if (!n)
		return depth > *max_depth ? (*max_depth = depth, 1) : 1;
	if (!black(n) && !black(n->left))
		return -1;
	l = check(n->left, depth + 1, max_depth);
	r = check(dz_rb_right(n), depth + 1, max_depth);
	if (l < 0 || l != r)
		return -1;
	return l + black(n);
}

static unsigned int walked;

static void walk(struct dz_rb_node *n)
{
	if (!n)
		return;
	walk(n->left);
	assert_true(walked < count);
	assert_ptr_equal(item_of(n), model[walked]);
	walked++;
	walk(dz_rb_right(n));
}

/* dz_rb_walk(): the same order as the model, and it stops when told. */
static unsigned int visited, stop_after;

static bool visit(const struct dz_rb_node *n, void *arg)
{
	(void)arg;
	assert_true(visited < count);
	assert_ptr_equal(item_of((struct dz_rb_node *)n), model[visited]);
	return ++visited != stop_after;
}

static void verify(void)
{
	int depth = 0, log2 = 0;

	walked = 0;
	walk(root.node);
	assert_int_equal(walked, count);
	visited = 0;
	stop_after = 0;
	assert_true(dz_rb_walk(&root, visit, NULL));
	assert_int_equal(visited, count);
	if (count) {
		visited = 0;
		stop_after = count / 2 + 1;
		assert_false(dz_rb_walk(&root, visit, NULL));
		assert_int_equal(visited, stop_after);
	}
	assert_ptr_equal(item_of(dz_rb_first(&root)), count ? model[0] : NULL);
	assert_true(black(root.node));
	assert_true(check(root.node, 0, &depth) > 0);
	while ((1U << log2) < count + 1)
		log2++;
	assert_true(depth <= 2 * log2 + 1);
}

static unsigned int drained;

static void drain_one(struct dz_rb_node *n, void *arg)
{
	struct item *it = item_of(n);

	(void)arg;
	assert_true(it->in);
	it->in = false;
	drained++;
	/* Its children were visited before it: its memory may be reused. */
	memset(n, 0xa5, sizeof(*n));
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
		} else if (r < 15 && count) {
			erase(model[0]); /* the first, as a timer queue does */
		} else if (r < 30 && count) {
			struct item *f = model[0];

			assert_ptr_equal(item_of(dz_rb_erase_first(&root)), f);
			f->in = false;
			memmove(&model[0], &model[1], (count - 1) * sizeof(model[0]));
			count--;
		} else {
			erase(it);
		}
		if (step % 97 == 0 || count < 4)
			verify();
	}
	while (count > N / 2)
		erase(model[ref_rand(&rng) % count]);
	verify();
	/* The rest drained: every node once. */
	drained = 0;
	dz_rb_drain(&root, drain_one, NULL);
	assert_int_equal(drained, count);
	assert_null(root.node);
	for (unsigned int i = 0; i < N; i++)
		assert_false(items[i].in);
	count = 0;
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
