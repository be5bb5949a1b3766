/* SPDX-License-Identifier: MIT */
/*
 * Two-level segregated-fit (TLSF) heap.
 *
 * Every block starts with a header and is followed in memory by its
 * physical successor; the last block ends where the heap ends.  Free blocks
 * sit on one of FL_MAX x SL_COUNT free lists, indexed by the size class of
 * their payload: the first level is the power of two, the second level
 * splits each power of two into SL_COUNT equal ranges.  Two bitmaps say
 * which lists are non-empty, so finding a large enough block is a couple of
 * find-first-set instructions, never a walk.
 *
 * Each header records its physical predecessor, so a freed block merges with
 * both neighbours in O(1) and no two free blocks are ever adjacent.
 */
#include <fusion/heap.h>
#include "journal.h"

#include <string.h>

#define NK_HEAP_MAGIC 0x48454150u /* "HEAP" */
#define NK_HEAP_DEAD 0x44454144u  /* "DEAD": destroyed */

/* Low bit of the size word: the block is free (sizes are multiples of 16). */
#define NK_BLOCK_FREE ((size_t)1)
#define NK_BLOCK_SIZE_MASK (~(size_t)(NK_HEAP_ALIGN - 1))

/*
 * Tag stored in every live header.  It is mixed with the header address and
 * the heap address, so a header copied elsewhere, a stale header of a merged
 * block or a pointer into another heap's block does not pass for a block.
 */
#define NK_BLOCK_TAG ((uintptr_t)0x5a17c0de6b10c4a5ull)

struct nk_heap_block {
	struct nk_heap_block *prev_phys; /* NULL for the first block */
	size_t size_flags;		 /* payload bytes | NK_BLOCK_FREE */
	uintptr_t tag;
	uintptr_t reserved; /* keeps the payload NK_HEAP_ALIGN-aligned */
	/* Only meaningful while the block is free: they live in the payload. */
	struct nk_heap_block *next_free;
	struct nk_heap_block *prev_free;
};

/* Header bytes before the payload; the free links are payload. */
#define HDR_SIZE offsetof(struct nk_heap_block, next_free)
/* The smallest payload must hold the two free-list links. */
#define MIN_PAYLOAD                                                            \
	((sizeof(struct nk_heap_block) - HDR_SIZE + NK_HEAP_ALIGN - 1) &       \
	 NK_BLOCK_SIZE_MASK)

_Static_assert(HDR_SIZE % NK_HEAP_ALIGN == 0,
	       "header breaks payload alignment");
_Static_assert(NK_HEAP_SL_COUNT <= 32, "sl_bitmap is 32 bits wide");
_Static_assert(NK_HEAP_FL_MAX < 64, "fl_bitmap is 64 bits wide");

#define ALIGN_LOG2 4 /* log2(NK_HEAP_ALIGN) */
_Static_assert(1 << ALIGN_LOG2 == NK_HEAP_ALIGN, "ALIGN_LOG2 out of date");

/*
 * Below SMALL_SIZE, first-level class 0 is split linearly in steps of
 * NK_HEAP_ALIGN; from there on, class fl holds [2^(fl + FL_SHIFT - 1),
 * 2^(fl + FL_SHIFT)).
 */
#define FL_SHIFT (NK_HEAP_SL_LOG2 + ALIGN_LOG2)
#define SMALL_SIZE ((size_t)1 << FL_SHIFT)
/* Largest payload whose class index stays below NK_HEAP_FL_MAX. */
#define BLOCK_MAX                                                              \
	(((uint64_t)1 << (NK_HEAP_FL_MAX + FL_SHIFT - 1)) - NK_HEAP_ALIGN)

static inline size_t block_size(const struct nk_heap_block *b)
{
	return b->size_flags & NK_BLOCK_SIZE_MASK;
}

static inline bool block_is_free(const struct nk_heap_block *b)
{
	return b->size_flags & NK_BLOCK_FREE;
}

static inline uintptr_t block_tag(const struct nk_heap *heap,
				  const struct nk_heap_block *b)
{
	return NK_BLOCK_TAG ^ (uintptr_t)b ^ ((uintptr_t)heap << 3);
}

static inline void *block_payload(struct nk_heap_block *b)
{
	return (char *)b + HDR_SIZE;
}

static inline char *heap_end(const struct nk_heap *heap)
{
	return (char *)heap->base + heap->size;
}

/* Physical successor, or NULL for the last block. */
static inline struct nk_heap_block *block_next(const struct nk_heap *heap,
					       struct nk_heap_block *b)
{
	char *next = (char *)block_payload(b) + block_size(b);

	return next < heap_end(heap) ? (struct nk_heap_block *)next : NULL;
}

static inline unsigned int fls_size(size_t x)
{
	return (unsigned int)(sizeof(unsigned long long) * 8 - 1) -
	       (unsigned int)__builtin_clzll((unsigned long long)x);
}

/* Class of a block of @size bytes (a multiple of NK_HEAP_ALIGN). */
static inline void mapping_insert(size_t size, unsigned int *fl,
				  unsigned int *sl)
{
	if (size < SMALL_SIZE) {
		*fl = 0;
		*sl = (unsigned int)(size >> ALIGN_LOG2);
	} else {
		unsigned int msb = fls_size(size);

		*fl = msb - (FL_SHIFT - 1);
		*sl = (unsigned int)(size >> (msb - NK_HEAP_SL_LOG2)) ^
		      NK_HEAP_SL_COUNT;
	}
}

static inline bool heap_ok(const struct nk_heap *heap)
{
	return heap && heap->magic == NK_HEAP_MAGIC;
}

/*
 * Notes for the journal of a shared instance's lock (fusion/journal.h):
 * a block's header, with its free links while it is free (only then are
 * they the heap's, not its user's), the heap's counts and bitmaps, and
 * the head of a free list, each before it changes.
 */
static void note_block(struct nk_heap_block *b)
{
	if (b)
		nk_journal_obj(b);
}

static void note_header(struct nk_heap_block *b)
{
	if (b)
		nk_journal_save(b, HDR_SIZE);
}

static void note_counts(struct nk_heap *heap)
{
	nk_journal_save(&heap->used, offsetof(struct nk_heap, free_lists) -
					 offsetof(struct nk_heap, used));
}

static void list_insert(struct nk_heap *heap, struct nk_heap_block *b)
{
	unsigned int fl, sl;
	struct nk_heap_block **head;

	mapping_insert(block_size(b), &fl, &sl);
	head = &heap->free_lists[fl][sl];
	note_block(b);
	note_block(*head);
	nk_journal_obj(head);
	note_counts(heap);
	b->prev_free = NULL;
	b->next_free = *head;
	if (*head)
		(*head)->prev_free = b;
	*head = b;
	heap->sl_bitmap[fl] |= 1u << sl;
	heap->fl_bitmap |= 1ull << fl;
	heap->nr_free++;
}

static void list_remove(struct nk_heap *heap, struct nk_heap_block *b)
{
	unsigned int fl, sl;

	mapping_insert(block_size(b), &fl, &sl);
	note_block(b);
	note_block(b->next_free);
	note_block(b->prev_free);
	nk_journal_obj(&heap->free_lists[fl][sl]);
	note_counts(heap);
	if (b->next_free)
		b->next_free->prev_free = b->prev_free;
	if (b->prev_free) {
		b->prev_free->next_free = b->next_free;
	} else {
		heap->free_lists[fl][sl] = b->next_free;
		if (!b->next_free) {
			heap->sl_bitmap[fl] &= ~(1u << sl);
			if (!heap->sl_bitmap[fl])
				heap->fl_bitmap &= ~(1ull << fl);
		}
	}
	heap->nr_free--;
}

/*
 * Good fit: the first non-empty list at or above class (fl, sl).  The caller
 * rounded the request up to a class boundary, so any block found fits.
 */
static struct nk_heap_block *find_suitable(struct nk_heap *heap,
					   unsigned int fl, unsigned int sl)
{
	uint32_t sl_map = heap->sl_bitmap[fl] & (~0u << sl);

	if (!sl_map) {
		uint64_t fl_map = heap->fl_bitmap & (~0ull << (fl + 1));

		if (!fl_map)
			return NULL;
		fl = (unsigned int)__builtin_ctzll(fl_map);
		sl_map = heap->sl_bitmap[fl];
	}
	return heap->free_lists[fl][__builtin_ctz(sl_map)];
}

/*
 * Map @ptr to the header of a block of @heap, checking everything O(1) can:
 * bounds, alignment, the header tag and that both physical neighbours point
 * back at it.  NULL if @ptr is not a block start.
 */
static struct nk_heap_block *ptr_to_block(struct nk_heap *heap, void *ptr)
{
	char *p = ptr, *base = heap->base, *end = heap_end(heap);
	struct nk_heap_block *b, *prev, *next;
	size_t size;

	if (!p || p < base + HDR_SIZE || p >= end ||
	    ((uintptr_t)p & (NK_HEAP_ALIGN - 1)))
		return NULL;
	b = (struct nk_heap_block *)(p - HDR_SIZE);
	if (b->tag != block_tag(heap, b))
		return NULL;
	size = block_size(b);
	if (size < MIN_PAYLOAD || size > (size_t)(end - p))
		return NULL;
	prev = b->prev_phys;
	if (!prev) {
		if ((char *)b != base)
			return NULL;
	} else {
		if ((char *)prev < base || (char *)prev >= (char *)b ||
		    ((uintptr_t)prev & (NK_HEAP_ALIGN - 1)) ||
		    prev->tag != block_tag(heap, prev) ||
		    block_next(heap, prev) != b)
			return NULL;
	}
	next = block_next(heap, b);
	if (next &&
	    (next->tag != block_tag(heap, next) || next->prev_phys != b))
		return NULL;
	return b;
}

/* Is @b a plausible header address inside @heap (before dereferencing)? */
static bool check_addr(const struct nk_heap *heap,
		       const struct nk_heap_block *b)
{
	const char *p = (const char *)b;

	return p >= (char *)heap->base &&
	       p + HDR_SIZE + MIN_PAYLOAD <= heap_end(heap) &&
	       !((uintptr_t)p & (NK_HEAP_ALIGN - 1));
}

int nk_heap_init(struct nk_heap *heap, void *mem, size_t size)
{
	uintptr_t start, end;
	struct nk_heap_block *b;

	if (!heap || !mem)
		return -EINVAL;
	/* Trim both ends to the alignment; reject wrap-around. */
	start = ((uintptr_t)mem + NK_HEAP_ALIGN - 1) &
		~(uintptr_t)(NK_HEAP_ALIGN - 1);
	if (start < (uintptr_t)mem || size > UINTPTR_MAX - (uintptr_t)mem)
		return -EINVAL;
	end = ((uintptr_t)mem + size) & ~(uintptr_t)(NK_HEAP_ALIGN - 1);
	if (end <= start || end - start < HDR_SIZE + MIN_PAYLOAD)
		return -EINVAL;
	size = end - start;
	/* One block cannot exceed the class table: manage the first part. */
	if ((uint64_t)size - HDR_SIZE > BLOCK_MAX)
		size = (size_t)(BLOCK_MAX + HDR_SIZE);

	memset(heap, 0, sizeof(*heap));
	heap->base = (void *)start;
	heap->size = size;

	b = heap->base;
	b->prev_phys = NULL;
	b->size_flags = (size - HDR_SIZE) | NK_BLOCK_FREE;
	b->tag = block_tag(heap, b);
	b->reserved = 0;
	list_insert(heap, b);
	heap->magic = NK_HEAP_MAGIC;
	return 0;
}

int nk_heap_destroy(struct nk_heap *heap)
{
	struct nk_heap_block *b, *prev = NULL;
	char *end;

	if (!heap_ok(heap))
		return -EINVAL;
	/*
	 * Wipe the tags too (defence in depth on top of the neighbour checks)
	 * so that a heap later built over the same memory cannot take a stale
	 * pointer for one of its blocks.  O(blocks); stops at the first
	 * damaged header rather than trusting it.
	 */
	end = heap_end(heap);
	for (b = heap->base; b; prev = b, b = block_next(heap, b)) {
		if (!check_addr(heap, b) || b->tag != block_tag(heap, b) ||
		    b->prev_phys != prev ||
		    block_size(b) > (size_t)(end - (char *)block_payload(b)))
			break;
		b->tag = 0;
	}
	heap->magic = NK_HEAP_DEAD;
	heap->base = NULL;
	heap->size = 0;
	return 0;
}

int nk_heap_alloc(struct nk_heap *heap, size_t size, void **out)
{
	struct nk_heap_block *b = NULL, *rest, *next;
	unsigned int fl, sl;
	size_t adj, avail;

	if (out)
		*out = NULL;
	if (!heap_ok(heap) || !out || !size)
		return -EINVAL;
	/* Checked before rounding, so the round-up cannot overflow. */
	if ((uint64_t)size > BLOCK_MAX || size > SIZE_MAX - NK_HEAP_ALIGN)
		return -ENOMEM;
	adj = (size + NK_HEAP_ALIGN - 1) & NK_BLOCK_SIZE_MASK;
	if (adj < MIN_PAYLOAD)
		adj = MIN_PAYLOAD;

	/*
	 * Round the request up to the next class boundary: every block in
	 * that class or above is large enough, so the head of the first
	 * non-empty list from there on fits, found via the bitmaps.
	 */
	if (adj >= SMALL_SIZE) {
		size_t round =
		    ((size_t)1 << (fls_size(adj) - NK_HEAP_SL_LOG2)) - 1;

		mapping_insert(adj + round, &fl, &sl);
	} else {
		mapping_insert(adj, &fl, &sl);
	}
	if (fl < NK_HEAP_FL_MAX)
		b = find_suitable(heap, fl, sl);
	/*
	 * The round-up misses blocks of the request's own class that are big
	 * enough; try that list's head too (still O(1)).  Thus a request
	 * succeeds exactly when it fits the head of the highest non-empty
	 * list, which is what nk_heap_stats() reports as largest_free.
	 */
	if (!b) {
		mapping_insert(adj, &fl, &sl);
		b = heap->free_lists[fl][sl];
		if (b && block_size(b) < adj)
			b = NULL;
	}
	if (!b)
		return -ENOMEM;

	list_remove(heap, b);
	avail = block_size(b);
	/* Split off the tail when it can stand as a block of its own. */
	if (avail - adj >= HDR_SIZE + MIN_PAYLOAD) {
		rest = (struct nk_heap_block *)((char *)block_payload(b) + adj);
		note_block(rest);
		rest->prev_phys = b;
		rest->size_flags = (avail - adj - HDR_SIZE) | NK_BLOCK_FREE;
		rest->tag = block_tag(heap, rest);
		rest->reserved = 0;
		next = block_next(heap, rest);
		note_header(next);
		if (next)
			next->prev_phys = rest;
		/* @rest's successor is in use (free blocks never touch). */
		list_insert(heap, rest);
		avail = adj;
	}
	b->size_flags = avail;
	heap->used += HDR_SIZE + avail;
	heap->nr_used++;
	*out = block_payload(b);
	nk_journal_fresh(*out, avail);
	return 0;
}

int nk_heap_free(struct nk_heap *heap, void *ptr)
{
	struct nk_heap_block *b, *prev, *next;
	size_t size;

	if (!heap_ok(heap))
		return -EINVAL;
	b = ptr_to_block(heap, ptr);
	if (!b || block_is_free(b))
		return -EINVAL;

	size = block_size(b);
	note_header(b);
	note_counts(heap);
	heap->used -= HDR_SIZE + size;
	heap->nr_used--;

	/* Absorbed headers lose their tag: a stale pointer is then refused. */
	prev = b->prev_phys;
	if (prev && block_is_free(prev)) {
		list_remove(heap, prev);
		size += block_size(prev) + HDR_SIZE;
		prev->size_flags = size;
		b->tag = 0;
		b = prev;
	}
	next = block_next(heap, b);
	note_header(b);
	note_header(next);
	if (next && block_is_free(next)) {
		list_remove(heap, next);
		size += block_size(next) + HDR_SIZE;
		b->size_flags = size;
		next->tag = 0;
		next = block_next(heap, b);
	}
	note_header(next);
	if (next)
		next->prev_phys = b;
	b->size_flags = size | NK_BLOCK_FREE;
	list_insert(heap, b);
	return 0;
}

int nk_heap_size(struct nk_heap *heap, void *ptr, size_t *size)
{
	struct nk_heap_block *b;

	if (!heap_ok(heap) || !size)
		return -EINVAL;
	b = ptr_to_block(heap, ptr);
	if (!b || block_is_free(b))
		return -EINVAL;
	*size = block_size(b);
	return 0;
}

int nk_heap_stats(struct nk_heap *heap, struct nk_heap_stats *stats)
{
	if (!heap_ok(heap) || !stats)
		return -EINVAL;
	stats->size = heap->size;
	stats->used = heap->used;
	stats->nr_used = heap->nr_used;
	stats->nr_free = heap->nr_free;
	/* Every byte is in a used block, a free payload or a free header. */
	stats->free = heap->size - heap->used - heap->nr_free * HDR_SIZE;
	stats->largest_free = 0;
	if (heap->fl_bitmap) {
		/* See nk_heap_alloc(): the head of the top list bounds it. */
		unsigned int fl =
		    63u - (unsigned int)__builtin_clzll(heap->fl_bitmap);
		unsigned int sl =
		    31u - (unsigned int)__builtin_clz(heap->sl_bitmap[fl]);

		stats->largest_free = block_size(heap->free_lists[fl][sl]);
	}
	return 0;
}

int nk_heap_check(struct nk_heap *heap)
{
	struct nk_heap_block *b, *prev = NULL;
	size_t used = 0, nr_used = 0, nr_free = 0, total = 0, listed = 0;
	char *end;

	if (!heap_ok(heap))
		return -EINVAL;
	end = heap_end(heap);

	/* Physical walk: tags, back links, sizes, no adjacent free blocks. */
	for (b = heap->base; b; prev = b, b = block_next(heap, b)) {
		size_t size;

		if (!check_addr(heap, b) || b->tag != block_tag(heap, b) ||
		    b->prev_phys != prev)
			return -EFAULT;
		size = block_size(b);
		if (size < MIN_PAYLOAD ||
		    size > (size_t)(end - (char *)block_payload(b)) ||
		    (b->size_flags & ~NK_BLOCK_SIZE_MASK & ~NK_BLOCK_FREE))
			return -EFAULT;
		total += HDR_SIZE + size;
		if (block_is_free(b)) {
			if (prev && block_is_free(prev))
				return -EFAULT;
			nr_free++;
		} else {
			used += HDR_SIZE + size;
			nr_used++;
		}
	}
	if (total != heap->size || used != heap->used ||
	    nr_used != heap->nr_used || nr_free != heap->nr_free)
		return -EFAULT;

	/* Free lists: match the bitmaps, hold free blocks of their class. */
	if (heap->fl_bitmap >> NK_HEAP_FL_MAX)
		return -EFAULT;
	for (unsigned int fl = 0; fl < NK_HEAP_FL_MAX; fl++) {
		if (!!(heap->fl_bitmap & (1ull << fl)) != !!heap->sl_bitmap[fl])
			return -EFAULT;
		if (heap->sl_bitmap[fl] >> (NK_HEAP_SL_COUNT - 1) >> 1)
			return -EFAULT;
		for (unsigned int sl = 0; sl < NK_HEAP_SL_COUNT; sl++) {
			struct nk_heap_block *lprev = NULL;

			b = heap->free_lists[fl][sl];
			if (!!(heap->sl_bitmap[fl] & (1u << sl)) != !!b)
				return -EFAULT;
			for (; b; lprev = b, b = b->next_free) {
				unsigned int bfl, bsl;

				/* Bounded: a cycle would outgrow nr_free. */
				if (++listed > nr_free ||
				    !check_addr(heap, b) ||
				    b->tag != block_tag(heap, b) ||
				    !block_is_free(b) || b->prev_free != lprev)
					return -EFAULT;
				mapping_insert(block_size(b), &bfl, &bsl);
				if (bfl != fl || bsl != sl)
					return -EFAULT;
			}
		}
	}
	return listed == nr_free ? 0 : -EFAULT;
}

bool nk_heap_block_at(struct nk_heap *heap, const void *addr, void **payload,
		      size_t *size)
{
	if ((const char *)addr < (char *)heap->base)
		return false;
	for (struct nk_heap_block *b = heap->base; b; b = block_next(heap, b))
		if ((const char *)addr <
		    (char *)block_payload(b) + block_size(b)) {
			*payload = block_payload(b);
			*size = block_size(b);
			return !block_is_free(b);
		}
	return false;
}
