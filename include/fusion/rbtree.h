/* SPDX-License-Identifier: MIT */
/** @file
 * Intrusive red-black tree: worst-case O(log n) insert and erase with no
 * allocation, so timer queues stay deterministic.  The leftmost node is
 * cached, making "earliest timer" O(1).  Not thread-safe: callers
 * serialise (the nucleus lock).
 */
#ifndef FUSION_RBTREE_H
#define FUSION_RBTREE_H

#include <stdbool.h>
#include <stddef.h>

/** A node, embedded in the item it sorts. */
struct nk_rbnode {
	/** @{ */
	/** Links; NULL: none. */
	struct nk_rbnode *parent, *left, *right;
	/** @} */
	int red; /**< colour */
};

/** A tree. */
struct nk_rbtree {
	struct nk_rbnode *root;	    /**< NULL when empty */
	struct nk_rbnode *leftmost; /**< first in order, NULL when empty */
	size_t count;		    /**< nodes in the tree */
};

/** Strict weak order: negative when @p a sorts before @p b. */
typedef int (*nk_rbcompare_t)(const struct nk_rbnode *a,
			      const struct nk_rbnode *b);

/** Make @p tree empty. */
void nk_rbtree_init(struct nk_rbtree *tree);
/** Insert @p node; equal keys go after existing ones (FIFO among equals). */
void nk_rbtree_insert(struct nk_rbtree *tree, struct nk_rbnode *node,
		      nk_rbcompare_t compare);
/** Remove @p node, which must be in @p tree. */
void nk_rbtree_erase(struct nk_rbtree *tree, struct nk_rbnode *node);
/** The node after @p node in order, NULL after the last. */
struct nk_rbnode *nk_rbtree_next(const struct nk_rbnode *node);

/** The first node in order, NULL when empty: O(1). */
static inline struct nk_rbnode *nk_rbtree_first(const struct nk_rbtree *tree)
{
	return tree->leftmost;
}

/** Whether @p tree has no node. */
static inline bool nk_rbtree_empty(const struct nk_rbtree *tree)
{
	return tree->root == NULL;
}

#endif
