/*
 * Alchemy heaps over the nucleus TLSF heap.
 *
 * The pool is sized so that one block of @heapsize bytes fits the empty
 * heap exactly (the nucleus spends a header per block): the header size
 * is measured on the pool itself, then the heap is laid over just the
 * bytes it needs.
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
/* Room for the header of the one block, measured later, and alignment. */
#define HEAP_SLACK (8 * NK_HEAP_ALIGN)

struct heap_wait {
	size_t size; /* request */
	void *block; /* out: granted block */
};

struct alchemy_heap {
	struct nk_synch synch; /* waiters, with a struct heap_wait */
	struct nk_heap heap;
	void *pool;
	size_t heapsize;
	size_t usable;
	int mode;
	void *single; /* H_SINGLE: the block, once allocated */
};

/* Lay the heap over @h->pool so that @h->heapsize bytes fit at once. */
static int heap_setup(struct alchemy_heap *h, size_t bytes)
{
	size_t want =
	    (h->heapsize + NK_HEAP_ALIGN - 1) & ~(size_t)(NK_HEAP_ALIGN - 1);
	struct nk_heap_stats stats;
	uintptr_t base = (uintptr_t)h->pool;
	size_t skew = (NK_HEAP_ALIGN - base % NK_HEAP_ALIGN) % NK_HEAP_ALIGN;

	if (nk_heap_init(&h->heap, h->pool, bytes) ||
	    nk_heap_stats(&h->heap, &stats))
		return -ENOMEM;
	/* A fresh heap is one free block: what it lacks is one header. */
	bytes = skew + want + (stats.size - stats.free);
	nk_heap_destroy(&h->heap);
	if (nk_heap_init(&h->heap, h->pool, bytes) ||
	    nk_heap_stats(&h->heap, &stats) || stats.largest_free < want)
		return -ENOMEM;
	h->usable = stats.largest_free;
	return 0;
}

/* Free what creation allocated.  Lock held or not. */
static void heap_release(struct nk_instance *nk, void *object)
{
	struct alchemy_heap *h = object;

	skin_wait_destroy(nk, &h->synch);
	free(h->pool);
	free(h);
}

/* The wait queue, and the pool with room for the block headers. */
static int heap_prepare(struct nk_instance *nk, void *object)
{
	struct alchemy_heap *h = object;

	int ret = skin_wait_init(nk, &h->synch, NULL, h->mode & H_PRIO);

	if (ret)
		return ret;
	h->pool = malloc(h->heapsize + HEAP_SLACK);
	if (h->pool == NULL || heap_setup(h, h->heapsize + HEAP_SLACK))
		return -ENOMEM;
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
			   heap_release, &heap->handle);
}

static int heap_destroy(struct nk_instance *nk, void *object)
{
	struct alchemy_heap *h = object;

	nk_heap_destroy(&h->heap);
	heap_release(nk, h);
	return 0;
}

int rt_heap_delete(RT_HEAP *heap)
{
	return alchemy_delete(ALCHEMY_HEAP, alchemy_handle(heap), heap_destroy);
}

/* Whatever does not need to wait.  -EWOULDBLOCK: it would. */
static int heap_try(struct alchemy_heap *h, size_t size, void **blockp)
{
	if (!(h->mode & H_SINGLE)) {
		if (size == 0)
			return -EINVAL;
		return nk_heap_alloc(&h->heap, size, blockp) ? -EWOULDBLOCK : 0;
	}
	if (size != 0 && size != h->heapsize)
		return -EINVAL;
	/* Sized to fit: cannot fail on the pristine heap. */
	if (h->single == NULL &&
	    nk_heap_alloc(&h->heap, h->heapsize, &h->single))
		return -ENOMEM;
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
		ret =
		    skin_wait_sleep_locked(alchemy(), ALCHEMY_HEAP,
					   heap->handle, h, &h->synch, &w, to);
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
static bool heap_serve(void *ctx, void *arg)
{
	struct alchemy_heap *h = arg;
	struct heap_wait *w = ctx;

	return nk_heap_alloc(&h->heap, w->size, &w->block) == 0;
}

int rt_heap_free(RT_HEAP *heap, void *block)
{
	struct alchemy_heap *h;
	struct nk_instance *nk;
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
	} else if (nk_heap_free(&h->heap, block)) {
		ret = -EINVAL;
	} else if (skin_wait_serve_locked(&h->synch, heap_serve, h, true)) {
		nk_sched_run(nk);
	}
	nk_unlock(nk);
	return ret;
}

int rt_heap_inquire(RT_HEAP *heap, RT_HEAP_INFO *info)
{
	struct nk_heap_stats stats;
	struct alchemy_heap *h;
	struct nk_instance *nk;
	int ret;

	if (info == NULL)
		return -EINVAL;
	ret = alchemy_get(ALCHEMY_HEAP, alchemy_handle(heap), &nk, (void **)&h);
	if (ret)
		return ret;
	info->nwaiters = (int)nk_synch_nr_waiters(&h->synch);
	nk_heap_stats(&h->heap, &stats);
	info->mode = h->mode;
	info->heapsize = h->heapsize;
	info->usablemem = h->usable;
	info->usedmem = stats.used;
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
