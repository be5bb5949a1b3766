/*
 * Intrusive red-black tree: worst-case O(log n) insert and erase with no
 * allocation, so timer queues stay deterministic.  The leftmost node is
 * cached, making "earliest timer" O(1).  Not thread-safe: callers
 * serialise (the nucleus lock).
 */
#ifndef FUSION_RBTREE_H
#define FUSION_RBTREE_H

#include <stdbool.h>
#include <stddef.h>

struct nk_rbnode {
	struct nk_rbnode *parent, *left, *right;
	int red;
};

struct nk_rbtree {
	struct nk_rbnode *root;
	struct nk_rbnode *leftmost;
	size_t count;
};

/* Strict weak order: negative when @a sorts before @b. */
typedef int (*nk_rbcompare_t)(const struct nk_rbnode *a,
			      const struct nk_rbnode *b);

void nk_rbtree_init(struct nk_rbtree *tree);
/* Insert @node; equal keys go after existing ones (FIFO among equals). */
void nk_rbtree_insert(struct nk_rbtree *tree, struct nk_rbnode *node,
		      nk_rbcompare_t compare);
/* Remove @node, which must be in @tree. */
void nk_rbtree_erase(struct nk_rbtree *tree, struct nk_rbnode *node);
struct nk_rbnode *nk_rbtree_next(const struct nk_rbnode *node);

static inline struct nk_rbnode *nk_rbtree_first(const struct nk_rbtree *tree)
{
	return tree->leftmost;
}

static inline bool nk_rbtree_empty(const struct nk_rbtree *tree)
{
	return tree->root == NULL;
}

#endif
