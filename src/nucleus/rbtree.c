/* SPDX-License-Identifier: MIT */
#include <fusion/rbtree.h>
#include <fusion/journal.h>

/*
 * Red-black tree with NULL leaves (which count as black).  Nodes are
 * intrusive, so erase relinks nodes rather than swapping payloads: the
 * caller's containers must never move between trees behind its back.
 */

/* A node about to change, for the journal of a shared instance's lock. */
static inline void mark(struct nk_rbnode *node)
{
	if (node)
		nk_journal_obj(node);
}

static inline void paint(struct nk_rbnode *node, int red)
{
	mark(node);
	node->red = red;
}

static inline bool is_red(const struct nk_rbnode *node)
{
	return node && node->red;
}

/* Point whatever referred to @old (parent link or root) at @new. */
static inline void replace_child(struct nk_rbtree *tree,
				 struct nk_rbnode *parent,
				 struct nk_rbnode *old, struct nk_rbnode *new)
{
	mark(parent);
	if (!parent)
		tree->root = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
}

static void rotate_left(struct nk_rbtree *tree, struct nk_rbnode *x)
{
	struct nk_rbnode *y = x->right;

	mark(x);
	mark(y);
	mark(y->left);
	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	y->parent = x->parent;
	replace_child(tree, x->parent, x, y);
	y->left = x;
	x->parent = y;
}

static void rotate_right(struct nk_rbtree *tree, struct nk_rbnode *x)
{
	struct nk_rbnode *y = x->left;

	mark(x);
	mark(y);
	mark(y->right);
	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	y->parent = x->parent;
	replace_child(tree, x->parent, x, y);
	y->right = x;
	x->parent = y;
}

void nk_rbtree_init(struct nk_rbtree *tree)
{
	tree->root = NULL;
	tree->leftmost = NULL;
	tree->count = 0;
}

static void insert_fixup(struct nk_rbtree *tree, struct nk_rbnode *node)
{
	struct nk_rbnode *parent, *gparent, *uncle;

	/* Only a red-red edge can be broken; push it up until it vanishes. */
	while ((parent = node->parent) && parent->red) {
		/* A red parent is never the root, so the grandparent exists. */
		gparent = parent->parent;
		if (parent == gparent->left) {
			uncle = gparent->right;
			if (is_red(uncle)) {
				/* Recolour: black height unchanged, retry
				 * above. */
				paint(parent, 0);
				paint(uncle, 0);
				paint(gparent, 1);
				node = gparent;
				continue;
			}
			if (node == parent->right) {
				/* Straighten the zig-zag so one rotation ends
				 * it. */
				rotate_left(tree, parent);
				node = parent;
				parent = node->parent;
			}
			paint(parent, 0);
			paint(gparent, 1);
			rotate_right(tree, gparent);
		} else {
			uncle = gparent->left;
			if (is_red(uncle)) {
				paint(parent, 0);
				paint(uncle, 0);
				paint(gparent, 1);
				node = gparent;
				continue;
			}
			if (node == parent->left) {
				rotate_right(tree, parent);
				node = parent;
				parent = node->parent;
			}
			paint(parent, 0);
			paint(gparent, 1);
			rotate_left(tree, gparent);
		}
		break;
	}
	paint(tree->root, 0);
}

nk_hot void nk_rbtree_insert(struct nk_rbtree *tree, struct nk_rbnode *node,
			     nk_rbcompare_t compare)
{
	struct nk_rbnode **link = &tree->root, *parent = NULL;
	bool leftmost = true;

	nk_journal_obj(tree);
	while (*link) {
		parent = *link;
		/*
		 * Equal keys descend right, landing after their peers in
		 * order: timers due at the same date fire in arming order.
		 */
		if (compare(node, parent) < 0) {
			link = &parent->left;
		} else {
			link = &parent->right;
			leftmost = false;
		}
	}

	mark(node);
	mark(parent);
	node->parent = parent;
	node->left = NULL;
	node->right = NULL;
	paint(node, 1);
	*link = node;

	/* Never having turned right means nothing sorts before us. */
	if (leftmost)
		tree->leftmost = node;
	tree->count++;

	insert_fixup(tree, node);
}

/*
 * Restore black heights after a black node was unlinked from under
 * @parent, leaving @node (possibly NULL, hence the explicit parent) one
 * black short.
 */
static void erase_fixup(struct nk_rbtree *tree, struct nk_rbnode *node,
			struct nk_rbnode *parent)
{
	struct nk_rbnode *sibling;

	while (node != tree->root && !is_red(node)) {
		/*
		 * The sibling is non-NULL: its side carries at least one
		 * more black than ours.  A NULL @node compares equal to
		 * parent->left only when it really is the left slot, since
		 * the non-NULL sibling then occupies the right one.
		 */
		if (node == parent->left) {
			sibling = parent->right;
			if (sibling->red) {
				/* Make the sibling black to reach the cases
				 * below. */
				paint(sibling, 0);
				paint(parent, 1);
				rotate_left(tree, parent);
				sibling = parent->right;
			}
			if (!is_red(sibling->left) && !is_red(sibling->right)) {
				/* Shed a black on both sides; deficit moves up.
				 */
				paint(sibling, 1);
				node = parent;
				parent = node->parent;
				continue;
			}
			if (!is_red(sibling->right)) {
				paint(sibling->left, 0);
				paint(sibling, 1);
				rotate_right(tree, sibling);
				sibling = parent->right;
			}
			/* Borrow a black from the sibling's side: done. */
			paint(sibling, parent->red);
			paint(parent, 0);
			paint(sibling->right, 0);
			rotate_left(tree, parent);
			node = tree->root;
			break;
		} else {
			sibling = parent->left;
			if (sibling->red) {
				paint(sibling, 0);
				paint(parent, 1);
				rotate_right(tree, parent);
				sibling = parent->left;
			}
			if (!is_red(sibling->left) && !is_red(sibling->right)) {
				paint(sibling, 1);
				node = parent;
				parent = node->parent;
				continue;
			}
			if (!is_red(sibling->left)) {
				paint(sibling->right, 0);
				paint(sibling, 1);
				rotate_left(tree, sibling);
				sibling = parent->left;
			}
			paint(sibling, parent->red);
			paint(parent, 0);
			paint(sibling->left, 0);
			rotate_right(tree, parent);
			node = tree->root;
			break;
		}
	}
	/* A red node absorbing the deficit just turns black. */
	if (node)
		paint(node, 0);
}

nk_hot void nk_rbtree_erase(struct nk_rbtree *tree, struct nk_rbnode *node)
{
	struct nk_rbnode *child, *parent, *succ;
	bool removed_black;

	nk_journal_obj(tree);
	mark(node);
	/*
	 * The leftmost node has no left child, so its successor is its
	 * right child or its parent: this lookup is O(1) in practice.
	 */
	if (tree->leftmost == node)
		tree->leftmost = nk_rbtree_next(node);

	if (!node->left || !node->right) {
		/* At most one child: splice it into our place. */
		child = node->left ? node->left : node->right;
		parent = node->parent;
		removed_black = !node->red;
		replace_child(tree, parent, node, child);
		mark(child);
		if (child)
			child->parent = parent;
	} else {
		/*
		 * Two children: the successor (leftmost of the right subtree,
		 * so it has no left child) takes our place and colour, and
		 * the hole it leaves is what the fix-up has to repair.
		 */
		succ = node->right;
		while (succ->left)
			succ = succ->left;
		child = succ->right;
		removed_black = !succ->red;
		mark(succ);
		mark(child);
		mark(node->left);
		mark(node->right);
		if (succ->parent == node) {
			parent = succ;
		} else {
			parent = succ->parent;
			mark(parent);
			parent->left = child;
			if (child)
				child->parent = parent;
			succ->right = node->right;
			node->right->parent = succ;
		}
		succ->left = node->left;
		node->left->parent = succ;
		paint(succ, node->red);
		succ->parent = node->parent;
		replace_child(tree, node->parent, node, succ);
	}

	if (removed_black)
		erase_fixup(tree, child, parent);

	tree->count--;
	/* Stale links would let a double erase corrupt the tree silently. */
	node->parent = NULL;
	node->left = NULL;
	node->right = NULL;
	paint(node, 0);
}

struct nk_rbnode *nk_rbtree_next(const struct nk_rbnode *node)
{
	const struct nk_rbnode *parent;

	if (node->right) {
		node = node->right;
		while (node->left)
			node = node->left;
		return (struct nk_rbnode *)node;
	}

	/* Climb until we leave a left subtree; that ancestor comes next. */
	while ((parent = node->parent) && node == parent->right)
		node = parent;
	return (struct nk_rbnode *)parent;
}
