/* SPDX-License-Identifier: MIT */
#include "harness.h"

#include <fusion/rbtree.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

struct item {
	struct nk_rbnode node;
	int key;
	/* Insertion order, to check FIFO among equal keys. */
	unsigned long seq;
	bool in_tree;
	bool seen;
};

static struct item *item_of(const struct nk_rbnode *node)
{
	return (struct item *)((char *)node - offsetof(struct item, node));
}

static int item_compare(const struct nk_rbnode *a, const struct nk_rbnode *b)
{
	int ka = item_of(a)->key, kb = item_of(b)->key;

	return (ka > kb) - (ka < kb);
}

static unsigned long next_seq;

static void insert_item(struct nk_rbtree *tree, struct item *it)
{
	it->seq = next_seq++;
	it->in_tree = true;
	nk_rbtree_insert(tree, &it->node, item_compare);
}

static void erase_item(struct nk_rbtree *tree, struct item *it)
{
	nk_rbtree_erase(tree, &it->node);
	it->in_tree = false;
}

/*
 * Returns the black height of @node's subtree (NULL leaves count as one),
 * or -1 on any violation.  @depth tracks the deepest path seen.
 */
static int check_subtree(const struct nk_rbnode *node,
			 const struct nk_rbnode *parent, int level, int *depth,
			 size_t *count)
{
	int lh, rh;

	if (!node) {
		if (level > *depth)
			*depth = level;
		return 1;
	}
	if (node->parent != parent)
		return -1;
	if (node->red && (node->left && node->left->red))
		return -1;
	if (node->red && (node->right && node->right->red))
		return -1;
	(*count)++;
	lh = check_subtree(node->left, node, level + 1, depth, count);
	rh = check_subtree(node->right, node, level + 1, depth, count);
	if (lh < 0 || rh < 0 || lh != rh)
		return -1;
	return lh + !node->red;
}

/*
 * Full structural check: RB colouring, parent links, count, cached
 * leftmost, sort order with FIFO among equals (by seq), and that the
 * height stays within the 2*log2(n+1) red-black bound.
 */
static bool rbtree_valid(const struct nk_rbtree *tree)
{
	const struct nk_rbnode *node, *first;
	const struct item *prev = NULL, *cur;
	size_t count = 0, walked = 0;
	int depth = 0;
	uint64_t n1;

	if (!tree->root)
		return tree->leftmost == NULL && tree->count == 0 &&
		       nk_rbtree_empty(tree);
	if (nk_rbtree_empty(tree))
		return false;
	if (tree->root->red || tree->root->parent)
		return false;
	if (check_subtree(tree->root, NULL, 0, &depth, &count) < 0)
		return false;
	if (count != tree->count)
		return false;

	first = tree->root;
	while (first->left)
		first = first->left;
	if (tree->leftmost != first || nk_rbtree_first(tree) != first)
		return false;

	for (node = first; node; node = nk_rbtree_next(node)) {
		cur = item_of(node);
		if (prev && (prev->key > cur->key ||
			     (prev->key == cur->key && prev->seq >= cur->seq)))
			return false;
		prev = cur;
		if (++walked > count)
			return false;
	}
	if (walked != count)
		return false;

	/* depth <= 2*log2(n+1)  <=>  2^depth <= (n+1)^2 */
	n1 = (uint64_t)count + 1;
	if (depth >= 64 || (UINT64_C(1) << depth) > n1 * n1)
		return false;
	return true;
}

static int tree_height(const struct nk_rbnode *node)
{
	int lh, rh;

	if (!node)
		return 0;
	lh = tree_height(node->left);
	rh = tree_height(node->right);
	return 1 + (lh > rh ? lh : rh);
}

/* Floor of 2*log2(n+1), computed exactly on integers. */
static int height_bound(size_t n)
{
	uint64_t sq = ((uint64_t)n + 1) * ((uint64_t)n + 1);
	int h = 0;

	while (h < 63 && (UINT64_C(1) << (h + 1)) <= sq)
		h++;
	return h;
}

static bool node_cleared(const struct item *it)
{
	return !it->node.parent && !it->node.left && !it->node.right;
}

TEST(empty_tree)
{
	struct nk_rbtree tree;

	nk_rbtree_init(&tree);
	CHECK(nk_rbtree_empty(&tree));
	CHECK(nk_rbtree_first(&tree) == NULL);
	CHECK_EQ(tree.count, 0);
	CHECK(rbtree_valid(&tree));
}

TEST(single_node)
{
	struct nk_rbtree tree;
	struct item it = {.key = 7};

	nk_rbtree_init(&tree);
	insert_item(&tree, &it);
	CHECK(!nk_rbtree_empty(&tree));
	CHECK(nk_rbtree_first(&tree) == &it.node);
	CHECK(nk_rbtree_next(&it.node) == NULL);
	CHECK(rbtree_valid(&tree));
	erase_item(&tree, &it);
	CHECK(nk_rbtree_empty(&tree));
	CHECK(nk_rbtree_first(&tree) == NULL);
	CHECK(node_cleared(&it));
	CHECK(rbtree_valid(&tree));
}

#define SMALL 1000

static struct item items[SMALL];

/* Validate @tree and that iteration visits exactly @n nodes. */
static void check_order(struct nk_rbtree *tree, size_t n)
{
	const struct nk_rbnode *node;
	size_t i = 0;

	CHECK(rbtree_valid(tree));
	CHECK_EQ(tree->count, n);
	CHECK(tree_height(tree->root) <= height_bound(n));
	for (node = nk_rbtree_first(tree); node; node = nk_rbtree_next(node))
		i++;
	CHECK_EQ(i, n);
}

TEST(ascending_insert)
{
	struct nk_rbtree tree;
	const struct nk_rbnode *node;
	int i;

	nk_rbtree_init(&tree);
	for (i = 0; i < SMALL; i++) {
		items[i] = (struct item){.key = i};
		insert_item(&tree, &items[i]);
		CHECK(nk_rbtree_first(&tree) == &items[0].node);
	}
	check_order(&tree, SMALL);
	i = 0;
	for (node = nk_rbtree_first(&tree); node; node = nk_rbtree_next(node))
		CHECK(item_of(node) == &items[i++]);
}

TEST(descending_insert)
{
	struct nk_rbtree tree;
	const struct nk_rbnode *node;
	int i;

	nk_rbtree_init(&tree);
	for (i = 0; i < SMALL; i++) {
		items[i] = (struct item){.key = SMALL - i};
		insert_item(&tree, &items[i]);
		/* Every new node is the new minimum. */
		CHECK(nk_rbtree_first(&tree) == &items[i].node);
	}
	check_order(&tree, SMALL);
	i = SMALL - 1;
	for (node = nk_rbtree_first(&tree); node; node = nk_rbtree_next(node))
		CHECK(item_of(node) == &items[i--]);
}

TEST(equal_keys_fifo)
{
	struct nk_rbtree tree;
	const struct nk_rbnode *node;
	int i;

	nk_rbtree_init(&tree);
	for (i = 0; i < SMALL; i++) {
		items[i] = (struct item){.key = 42};
		insert_item(&tree, &items[i]);
		/* A later equal key never displaces the first one. */
		CHECK(nk_rbtree_first(&tree) == &items[0].node);
	}
	check_order(&tree, SMALL);
	i = 0;
	for (node = nk_rbtree_first(&tree); node; node = nk_rbtree_next(node))
		CHECK(item_of(node) == &items[i++]);
}

TEST(mixed_equal_keys_fifo)
{
	struct nk_rbtree tree;
	const struct nk_rbnode *node;
	const struct item *prev = NULL, *cur;
	int i;

	nk_rbtree_init(&tree);
	/* Interleave three keys so equal peers land in different subtrees. */
	for (i = 0; i < SMALL; i++) {
		items[i] = (struct item){.key = (i * 7) % 3};
		insert_item(&tree, &items[i]);
	}
	check_order(&tree, SMALL);
	for (node = nk_rbtree_first(&tree); node; node = nk_rbtree_next(node)) {
		cur = item_of(node);
		if (prev && prev->key == cur->key)
			CHECK(prev < cur);
		prev = cur;
	}

	/* Removing the head of a run exposes the next one in FIFO order. */
	erase_item(&tree, item_of(nk_rbtree_first(&tree)));
	CHECK(rbtree_valid(&tree));
	cur = item_of(nk_rbtree_first(&tree));
	CHECK_EQ(cur->key, 0);
	for (i = 0; i < SMALL; i++)
		if (items[i].in_tree && items[i].key == 0)
			break;
	CHECK(cur == &items[i]);
}

/* Build keys 0..n-1 so the shape is fixed and erase cases are reachable. */
static void build(struct nk_rbtree *tree, int n)
{
	int i;

	nk_rbtree_init(tree);
	for (i = 0; i < n; i++) {
		items[i] = (struct item){.key = i};
		insert_item(tree, &items[i]);
	}
}

/* After erasing @gone, iteration must yield every other key in order. */
static void check_without(struct nk_rbtree *tree, int n, const bool *gone)
{
	const struct nk_rbnode *node = nk_rbtree_first(tree);
	int i;

	CHECK(rbtree_valid(tree));
	for (i = 0; i < n; i++) {
		if (gone[i])
			continue;
		CHECK(node != NULL);
		CHECK_EQ(item_of(node)->key, i);
		node = nk_rbtree_next(node);
	}
	CHECK(node == NULL);
}

TEST(erase_leftmost)
{
	struct nk_rbtree tree;
	bool gone[64] = {false};
	int i;

	build(&tree, 64);
	for (i = 0; i < 64; i++) {
		CHECK(nk_rbtree_first(&tree) == &items[i].node);
		erase_item(&tree, &items[i]);
		CHECK(node_cleared(&items[i]));
		gone[i] = true;
		CHECK_EQ(tree.count, 63 - i);
		check_without(&tree, 64, gone);
	}
	CHECK(nk_rbtree_empty(&tree));
	CHECK(nk_rbtree_first(&tree) == NULL);
}

TEST(erase_root)
{
	struct nk_rbtree tree;
	bool gone[64] = {false};
	struct item *it;
	int i;

	build(&tree, 64);
	for (i = 0; i < 64; i++) {
		it = item_of(tree.root);
		erase_item(&tree, it);
		CHECK(node_cleared(it));
		gone[it->key] = true;
		check_without(&tree, 64, gone);
	}
	CHECK(nk_rbtree_empty(&tree));
}

static struct nk_rbnode *find_leaf(struct nk_rbnode *node)
{
	while (node->left || node->right)
		node = node->right ? node->right : node->left;
	return node;
}

TEST(erase_leaf)
{
	struct nk_rbtree tree;
	bool gone[64] = {false};
	struct item *it;
	int i;

	build(&tree, 64);
	for (i = 0; i < 64; i++) {
		it = item_of(find_leaf(tree.root));
		CHECK(!it->node.left && !it->node.right);
		erase_item(&tree, it);
		CHECK(node_cleared(it));
		gone[it->key] = true;
		check_without(&tree, 64, gone);
	}
	CHECK(nk_rbtree_empty(&tree));
}

/* Any non-root node with two children, preferring deep ones. */
static struct nk_rbnode *find_two_children(struct nk_rbnode *node)
{
	struct nk_rbnode *found;

	if (!node || !node->left || !node->right)
		return NULL;
	found = find_two_children(node->left);
	if (!found)
		found = find_two_children(node->right);
	if (!found && node->parent)
		found = node;
	return found;
}

TEST(erase_two_children)
{
	struct nk_rbtree tree;
	bool gone[256] = {false};
	struct nk_rbnode *node;
	struct item *it;
	int erased = 0;

	build(&tree, 256);
	while ((node = find_two_children(tree.root))) {
		CHECK(node->left && node->right && node->parent);
		it = item_of(node);
		erase_item(&tree, it);
		CHECK(node_cleared(it));
		gone[it->key] = true;
		erased++;
		check_without(&tree, 256, gone);
	}
	CHECK(erased > 10);
	/* The root with two children goes through the same path. */
	node = tree.root;
	CHECK(node->left && node->right);
	it = item_of(node);
	erase_item(&tree, it);
	gone[it->key] = true;
	check_without(&tree, 256, gone);
}

static uint64_t rng_state;

static uint64_t xorshift64(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

#define POOL 4096
#define KEYS 512
#define OPS 100000

static struct item pool[POOL];
/* Reference: live and free item indices, plus per-key population. */
static int live[POOL], nr_live;
static int spare[POOL], nr_spare;
static size_t key_count[KEYS];

/* Compare the tree contents against the reference, item by item. */
static bool matches_reference(const struct nk_rbtree *tree)
{
	const struct nk_rbnode *node;
	size_t per_key[KEYS] = {0};
	struct item *it;
	int i;

	if (tree->count != (size_t)nr_live)
		return false;
	for (i = 0; i < POOL; i++)
		pool[i].seen = false;
	for (node = nk_rbtree_first(tree); node; node = nk_rbtree_next(node)) {
		it = item_of(node);
		if (!it->in_tree || it->seen)
			return false;
		it->seen = true;
		per_key[it->key]++;
	}
	for (i = 0; i < nr_live; i++)
		if (!pool[live[i]].seen)
			return false;
	for (i = 0; i < KEYS; i++)
		if (per_key[i] != key_count[i])
			return false;
	return true;
}

TEST(random_ops)
{
	struct nk_rbtree tree;
	int op, idx, slot, insert_pct;
	size_t max_count = 0;
	bool insert;

	rng_state = 0x9e3779b97f4a7c15ULL;
	nk_rbtree_init(&tree);
	memset(pool, 0, sizeof(pool));
	memset(key_count, 0, sizeof(key_count));
	nr_live = 0;
	nr_spare = POOL;
	for (idx = 0; idx < POOL; idx++)
		spare[idx] = idx;

	for (op = 0; op < OPS; op++) {
		/* Alternate growth and shrink phases to sweep many sizes. */
		insert_pct = (op / 10000) % 2 ? 30 : 75;
		insert = (int)(xorshift64() % 100) < insert_pct;
		if (nr_spare == 0)
			insert = false;
		if (nr_live == 0)
			insert = true;

		if (insert) {
			slot = (int)(xorshift64() % (uint64_t)nr_spare);
			idx = spare[slot];
			spare[slot] = spare[--nr_spare];
			live[nr_live++] = idx;
			pool[idx].key = (int)(xorshift64() % KEYS);
			insert_item(&tree, &pool[idx]);
			key_count[pool[idx].key]++;
		} else {
			slot = (int)(xorshift64() % (uint64_t)nr_live);
			idx = live[slot];
			live[slot] = live[--nr_live];
			spare[nr_spare++] = idx;
			erase_item(&tree, &pool[idx]);
			CHECK(node_cleared(&pool[idx]));
			key_count[pool[idx].key]--;
		}
		if (tree.count > max_count)
			max_count = tree.count;

		if (op % 1000 == 999) {
			CHECK(rbtree_valid(&tree));
			CHECK(matches_reference(&tree));
			CHECK(tree_height(tree.root) <=
			      height_bound(tree.count));
		}
	}
	CHECK(rbtree_valid(&tree));
	CHECK(matches_reference(&tree));
	CHECK(tree_height(tree.root) <= height_bound(tree.count));
	/* The phases must actually have exercised a large tree. */
	CHECK(max_count > POOL / 2);

	/* Drain in random order; the tree must stay valid to the end. */
	while (nr_live) {
		slot = (int)(xorshift64() % (uint64_t)nr_live);
		idx = live[slot];
		live[slot] = live[--nr_live];
		erase_item(&tree, &pool[idx]);
		key_count[pool[idx].key]--;
		if (nr_live % 257 == 0) {
			CHECK(rbtree_valid(&tree));
			CHECK(matches_reference(&tree));
		}
	}
	CHECK(nk_rbtree_empty(&tree));
	CHECK(nk_rbtree_first(&tree) == NULL);
	CHECK_EQ(tree.count, 0);
}

TESTS(T(empty_tree), T(single_node), T(ascending_insert), T(descending_insert),
      T(equal_keys_fifo), T(mixed_equal_keys_fifo), T(erase_leftmost),
      T(erase_root), T(erase_leaf), T(erase_two_children), T(random_ops));
