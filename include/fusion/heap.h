/* SPDX-License-Identifier: MIT */
/** @file
 * Deterministic memory heap: a two-level segregated-fit allocator (TLSF)
 * over a block the caller supplies.  Allocation and release are O(1) and
 * never call the system allocator; adjacent free blocks coalesce at once.
 *
 * A heap is not locked: callers serialise access (skins hold the nucleus
 * lock around it).  Callable from any context.
 */
#ifndef FUSION_HEAP_H
#define FUSION_HEAP_H

#include <fusion/types.h>

/** Alignment of every block returned by nk_heap_alloc(). */
#define NK_HEAP_ALIGN 16
/**
 * First-level classes: class 0 holds blocks below 2^(NK_HEAP_SL_LOG2 + 4)
 * bytes, class i >= 1 holds [2^(i + 7), 2^(i + 8)), so a block is at most
 * 2^(NK_HEAP_FL_MAX + 7) bytes; a larger memory block is partly managed.
 */
#define NK_HEAP_FL_MAX 40
#define NK_HEAP_SL_LOG2 4 /**< log2 of the second-level classes per class */
#define NK_HEAP_SL_COUNT (1 << NK_HEAP_SL_LOG2) /**< second-level classes */

struct nk_heap_block;

/** A TLSF heap, embedded by its user; set up by nk_heap_init(). */
struct nk_heap {
	unsigned int magic; /**< tells a live heap from a stale one */
	void *base;	    /**< the first managed byte */
	size_t size;	    /**< usable bytes managed, after alignment */
	size_t used;	    /**< bytes handed out, block overhead included */
	size_t nr_used;	    /**< blocks currently allocated */
	size_t nr_free;	    /**< blocks on the free lists */
	uint64_t fl_bitmap; /**< first-level classes with a free block */
	uint32_t sl_bitmap[NK_HEAP_FL_MAX]; /**< the same per second level */
	/** Free blocks per class. */
	struct nk_heap_block *free_lists[NK_HEAP_FL_MAX][NK_HEAP_SL_COUNT];
};

/** What nk_heap_stats() reports. */
struct nk_heap_stats {
	size_t size; /**< bytes managed */
	size_t used; /**< bytes allocated, overhead included */
	size_t free; /**< bytes free, overhead of free blocks excluded */
	size_t
	    largest_free; /**< largest single allocation that would succeed */
	size_t nr_used;	  /**< blocks allocated */
	size_t nr_free;	  /**< free blocks (fragments) */
};

/**
 * Initialise @p heap over [@p mem, @p mem + @p size).
 * Errors: -EINVAL (NULL heap or mem, size too small for one block).
 */
nk_export int nk_heap_init(struct nk_heap *heap, void *mem, size_t size);

/** Forget @p heap; its memory is the caller's again.  -EINVAL on a bad heap. */
nk_export int nk_heap_destroy(struct nk_heap *heap);

/**
 * Allocate @p size bytes (aligned to NK_HEAP_ALIGN) into *@p out.
 * Errors: -EINVAL (bad heap, NULL out, size 0), -ENOMEM (no block large
 * enough: *@p out is left NULL).
 */
nk_export int nk_heap_alloc(struct nk_heap *heap, size_t size, void **out);

/**
 * Release @p ptr, which nk_heap_alloc() returned from this heap.
 * Errors: -EINVAL (bad heap, pointer outside the heap or not a block
 * start, block already free).  The heap is left intact on error.
 */
nk_export int nk_heap_free(struct nk_heap *heap, void *ptr);

/** Usable size of the allocated block @p ptr into *@p size; errors as free. */
nk_export int nk_heap_size(struct nk_heap *heap, void *ptr, size_t *size);

/** Fill *@p stats.  Errors: -EINVAL (bad heap or NULL stats). */
nk_export int nk_heap_stats(struct nk_heap *heap, struct nk_heap_stats *stats);

/**
 * Walk every block and check the heap's invariants (free lists match the
 * bitmaps, no two adjacent free blocks, sizes add up).  Returns 0, or
 * -EFAULT when the heap is corrupt, -EINVAL for a bad heap.  O(n): for
 * tests and debugging.
 */
nk_export int nk_heap_check(struct nk_heap *heap);

#endif
