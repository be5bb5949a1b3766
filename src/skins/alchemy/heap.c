/* SPDX-License-Identifier: MIT */
/*
 * Alchemy heaps over the nucleus TLSF heap.
 *
 * As in Xenomai, @heapsize is what the blocks may add up to: a 16 KiB
 * heap serves two 8 KiB blocks.  The heap keeps that budget itself (a
 * block costs its usable size), and the pool under it has room on top
 * for the nucleus's header per block (for blocks of HEAP_UNIT bytes on
 * average; a crowd of smaller ones may run out of headers first) and
 * for the TLSF search, which looks for a free block up to 1/16 larger
 * than the request.
 *
 * A task that waits for memory sleeps with its request as wait context
 * (skin.h) in service order (arrival, or priority then arrival with
 * H_PRIO), and rt_heap_free() allocates on behalf of each waiter in
 * that order, waking those it served with their block in hand.  A
 * block granted to a waiter whose task is deleted before it runs stays
 * in use until the heap is deleted, as in Xenomai.
 */
#include "internal.h"

#include <alchemy/heap.h>

#include <stdlib.h>
#include <string.h>

#define HEAP_MAX_SIZE ((size_t)1 << 31)
#define HEAP_UNIT 512

struct heap_wait {
	size_t size; /* request */
	void *block; /* out: granted block */
};

struct alchemy_heap {
	struct nk_synch synch; /* waiters, with a struct heap_wait */
	struct nk_heap heap;
	void *pool;
	size_t heapsize;
	size_t inuse; /* usable bytes of the blocks allocated */
	int mode;
	void *single; /* H_SINGLE: the block, once allocated */
};

void alchemy_heap_describe(const void *object, struct nk_object_info *info)
{
	const struct alchemy_heap *h = object;

	info->count = (long)h->inuse;
	info->capacity = (long)h->heapsize;
	info->waiters = &h->synch;
}

/* The nucleus's header per block, measured on a fresh heap. */
static size_t heap_header(void)
{
	_Alignas(NK_HEAP_ALIGN) char probe[16 * NK_HEAP_ALIGN];
	struct nk_heap_stats stats;
	struct nk_heap heap;

	if (nk_heap_init(&heap, probe, sizeof(probe)) ||
	    nk_heap_stats(&heap, &stats))
		return 4 * NK_HEAP_ALIGN;
	nk_heap_destroy(&heap);
	/* A fresh heap is one free block: what it lacks is one header. */
	return stats.size - stats.free;
}

/* The pool under a heap of @heapsize usable bytes (see above). */
static size_t pool_bytes(size_t heapsize)
{
	return heapsize + heapsize / NK_HEAP_SL_COUNT +
	       (heapsize / HEAP_UNIT + 2) * heap_header() + NK_HEAP_ALIGN;
}

/*
 * Also what a failed creation releases: a heap never set up is zeroed,
 * which nk_heap_destroy() refuses harmlessly.  Lock held or not.
 */
void alchemy_heap_reclaim(struct nk_instance *nk, void *object)
{
	struct alchemy_heap *h = object;

	nk_heap_destroy(&h->heap);
	skin_wait_destroy(nk, &h->synch);
	nk_journal_data(h->pool, 0, false);
	nk_free(nk, h->pool);
	nk_free(nk, h);
}

/* The wait queue, and the pool with room for the block headers. */
static int heap_prepare(struct nk_instance *nk, void *object, const char *wname)
{
	struct alchemy_heap *h = object;
	size_t bytes = pool_bytes(h->heapsize);
	int ret = skin_wait_init(nk, &h->synch, wname, h->mode & H_PRIO);

	if (ret)
		return ret;
	h->pool = nk_alloc(nk, bytes);
	if (h->pool == NULL || nk_heap_init(&h->heap, h->pool, bytes))
		return -ENOMEM;
	nk_journal_data(h->pool, bytes, true);
	return 0;
}

int rt_heap_create(RT_HEAP *heap, const char *name, size_t heapsize, int mode)
{
	struct alchemy_heap *h;
	struct nk_instance *nk;
	int ret;

	if (heap == NULL || heapsize == 0 || heapsize >= HEAP_MAX_SIZE ||
	    (mode & ~(H_PRIO | H_SINGLE)) != 0)
		return -EINVAL;
	ret = alchemy_waitable_alloc(name, sizeof(*h), &nk, (void **)&h);
	if (ret)
		return ret;
	h->heapsize = heapsize;
	h->mode = mode;
	return skin_create(alchemy(), ALCHEMY_HEAP, name, h, heap_prepare,
			   alchemy_heap_reclaim, &heap->handle);
}

int rt_heap_delete(RT_HEAP *heap)
{
	return alchemy_delete(ALCHEMY_HEAP, alchemy_handle(heap), NULL);
}

/*
 * A block of @size bytes within the budget, into *@blockp; -EWOULDBLOCK
 * when the budget or the pool cannot serve it now.  Lock held.
 */
static int heap_take(struct alchemy_heap *h, size_t size, void **blockp)
{
	size_t got;
	void *block;

	if (size > h->heapsize - h->inuse ||
	    nk_heap_alloc(&h->heap, size, &block))
		return -EWOULDBLOCK;
	/* Rounded up to the alignment, or left whole when a split would
	 * leave a scrap: that is what the block costs. */
	if (nk_heap_size(&h->heap, block, &got) ||
	    got > h->heapsize - h->inuse) {
		nk_heap_free(&h->heap, block);
		return -EWOULDBLOCK;
	}
	h->inuse += got;
	*blockp = block;
	return 0;
}

/* Whatever does not need to wait.  -EWOULDBLOCK: it would. */
static int heap_try(struct alchemy_heap *h, size_t size, void **blockp)
{
	if (!(h->mode & H_SINGLE)) {
		if (size == 0)
			return -EINVAL;
		return heap_take(h, size, blockp);
	}
	if (size != 0 && size != h->heapsize)
		return -EINVAL;
	/* Sized to fit: cannot fail on the pristine heap. */
	if (h->single == NULL &&
	    nk_heap_alloc(&h->heap, h->heapsize, &h->single))
		return -ENOMEM;
	h->inuse = h->heapsize;
	*blockp = h->single;
	return 0;
}

/* The common body of the three alloc forms. */
static int heap_alloc(RT_HEAP *heap, size_t size, struct skin_timeout to,
		      void **blockp)
{
	struct heap_wait w = {.size = size};
	struct alchemy_heap *h;
	struct nk_instance *nk;
	int ret;

	if (to.error)
		return to.error;
	if (blockp == NULL)
		return -EINVAL;
	ret = alchemy_get(ALCHEMY_HEAP, alchemy_handle(heap), &nk, (void **)&h);
	if (ret)
		return ret;
	ret = heap_try(h, size, blockp);
	if (ret == -EWOULDBLOCK && !skin_nonblocking(to)) {
		ret = skin_wait_sleep_locked(alchemy(), ALCHEMY_HEAP,
					     heap->handle, h, &h->synch, &w,
					     sizeof(w), to);
		if (ret == 0)
			*blockp = w.block;
	}
	nk_unlock(nk);
	return ret;
}

int rt_heap_alloc_timed(RT_HEAP *heap, size_t size,
			const struct timespec *abs_timeout, void **blockp)
{
	return heap_alloc(heap, size, skin_timespec(abs_timeout), blockp);
}

int rt_heap_alloc_until(RT_HEAP *heap, size_t size, RTIME timeout,
			void **blockp)
{
	return heap_alloc(heap, size, alchemy_abs(timeout), blockp);
}

int rt_heap_alloc(RT_HEAP *heap, size_t size, RTIME timeout, void **blockp)
{
	return heap_alloc(heap, size, alchemy_rel(timeout), blockp);
}

/* Allocate a waiter's block, if its request fits now.  Lock held. */
static bool heap_serve(struct nk_thread *waiter, void *ctx, void *arg)
{
	struct alchemy_heap *h = arg;
	struct heap_wait *w = ctx;

	(void)waiter;
	return heap_take(h, w->size, &w->block) == 0;
}

int rt_heap_free(RT_HEAP *heap, void *block)
{
	struct alchemy_heap *h;
	struct nk_instance *nk;
	size_t size;
	int ret;

	if (block == NULL)
		return -EINVAL;
	ret = alchemy_get(ALCHEMY_HEAP, alchemy_handle(heap), &nk, (void **)&h);
	if (ret)
		return ret;
	if (h->mode & H_SINGLE) {
		/* The one block stays: freeing it is a no-op. */
		if (block != h->single)
			ret = -EINVAL;
	} else if (nk_heap_size(&h->heap, block, &size) ||
		   nk_heap_free(&h->heap, block)) {
		ret = -EINVAL;
	} else {
		h->inuse -= size;
		if (skin_wait_serve_locked(&h->synch, heap_serve, h, true))
			nk_sched_run(nk);
	}
	nk_unlock(nk);
	return ret;
}

int rt_heap_inquire(RT_HEAP *heap, RT_HEAP_INFO *info)
{
	struct alchemy_heap *h;
	struct nk_instance *nk;
	int ret;

	if (info == NULL)
		return -EINVAL;
	ret = alchemy_get(ALCHEMY_HEAP, alchemy_handle(heap), &nk, (void **)&h);
	if (ret)
		return ret;
	info->nwaiters = (int)nk_synch_nr_waiters(&h->synch);
	info->mode = h->mode;
	info->heapsize = h->heapsize;
	info->usablemem = h->heapsize;
	info->usedmem = h->inuse;
	alchemy_name(heap->handle, info->name);
	nk_unlock(nk);
	return 0;
}

int rt_heap_bind(RT_HEAP *heap, const char *name, RTIME timeout)
{
	return alchemy_bind(ALCHEMY_HEAP, alchemy_handle(heap), name, timeout);
}

int rt_heap_unbind(RT_HEAP *heap)
{
	return skin_unbind(alchemy_handle(heap));
}
