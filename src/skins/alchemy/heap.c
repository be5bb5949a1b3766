/*
 * Alchemy heaps over the nucleus TLSF heap.
 *
 * The pool is sized so that one block of @heapsize bytes fits the empty
 * heap exactly (the nucleus spends a header per block): the header size
 * is measured on the pool itself, then the heap is laid over just the
 * bytes it needs.
 *
 * A task that waits for memory sleeps alone on the private synch of a
 * record holding its request; records are kept in service order
 * (arrival, or priority then arrival with H_PRIO), and rt_heap_free()
 * allocates on behalf of each waiter in that order, waking those it
 * served with their block in hand.  Records belong to the heap object,
 * never to a waiter's stack (a task deleted while it waits leaves its
 * record with no sleeper, skipped); they are made with the heap and
 * recycled.
 */
#include <alchemy/heap.h>

#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define HEAP_MAX_SIZE ((size_t)1 << 31)
/* Room for the header of the one block, measured later, and alignment. */
#define HEAP_SLACK (8 * NK_HEAP_ALIGN)
/* Wait records made with the heap, enough for most uses. */
#define HEAP_SPARE_RECORDS 4

struct heap_wait {
	struct nk_list link;   /* heap's waiters, or its spare list */
	struct nk_synch synch; /* the waiter sleeps here, alone */
	int prio;	       /* its priority when it started waiting */
	size_t size;	       /* request */
	void *block;	       /* out: granted block */
};

struct alchemy_heap {
	struct nk_list waiters; /* struct heap_wait, service order */
	struct nk_list spare;
	struct nk_heap heap;
	void *pool;
	size_t heapsize;
	size_t usable;
	int mode;
	void *single; /* H_SINGLE: the block, once allocated */
	char name[XNOBJECT_NAME_LEN];
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

/*
 * A wait record.  Made with the heap (a mode switch does no harm
 * there), or, past those, by a waiter itself: malloc may enter Linux
 * and relax it.
 */
static struct heap_wait *heap_record(struct nk_instance *nk, const char *name)
{
	struct heap_wait *w = malloc(sizeof(*w));

	if (w && nk_synch_init(nk, &w->synch, name, NK_SYNCH_FIFO, 0)) {
		free(w);
		w = NULL;
	}
	return w;
}

/* Free a list of records.  Lock held. */
static void heap_records_free(struct nk_list *list)
{
	while (!nk_list_empty(list)) {
		struct heap_wait *w =
		    nk_list_entry(list->prev, struct heap_wait, link);

		nk_list_del(&w->link);
		/* Its sleeper, if any, wakes with -EIDRM. */
		nk_synch_destroy_locked(&w->synch);
		free(w);
	}
}

int rt_heap_create(RT_HEAP *heap, const char *name, size_t heapsize, int mode)
{
	struct alchemy_heap *h;
	struct nk_instance *nk;
	int ret;

	if (heap == NULL || heapsize == 0 || heapsize >= HEAP_MAX_SIZE ||
	    (mode & ~(H_PRIO | H_SINGLE)) != 0)
		return -EINVAL;
	if (name && strlen(name) >= XNOBJECT_NAME_LEN)
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	/* As Xenomai: objects are made by tasks, not foreign threads. */
	if (nk_thread_self(nk) == NULL)
		return -EPERM;
	h = calloc(1, sizeof(*h));
	if (h == NULL)
		return -ENOMEM;
	h->heapsize = heapsize;
	h->mode = mode;
	h->pool = malloc(heapsize + HEAP_SLACK);
	if (h->pool == NULL || heap_setup(h, heapsize + HEAP_SLACK)) {
		free(h->pool);
		free(h);
		return -ENOMEM;
	}
	nk_list_init(&h->waiters);
	nk_list_init(&h->spare);
	strcpy(h->name, name && name[0] ? name : "heap");
	for (int i = 0; i < HEAP_SPARE_RECORDS && ret == 0; i++) {
		struct heap_wait *w = heap_record(nk, h->name);

		if (w)
			nk_list_add_before(&w->link, &h->spare);
		else
			ret = -ENOMEM;
	}

	nk_lock(nk);
	if (ret == 0)
		ret = alchemy_register(ALCHEMY_HEAP, name, h, &heap->handle);
	if (ret)
		heap_records_free(&h->spare);
	nk_unlock(nk);
	if (ret) {
		free(h->pool);
		free(h);
	}
	return ret;
}

/* Enter the skin, lock, and find the heap; on error, unlocked. */
static int heap_get(RT_HEAP *heap, struct nk_instance **nk,
		    struct alchemy_heap **h)
{
	int ret;

	if (heap == NULL)
		return -EINVAL;
	ret = alchemy_enter(nk);
	if (ret)
		return ret;
	nk_lock(*nk);
	ret = alchemy_lookup(ALCHEMY_HEAP, heap->handle, (void **)h);
	if (ret)
		nk_unlock(*nk);
	return ret;
}

int rt_heap_delete(RT_HEAP *heap)
{
	struct alchemy_heap *h;
	struct nk_instance *nk;
	int ret;

	ret = heap_get(heap, &nk, &h);
	if (ret)
		return ret;
	alchemy_unregister(ALCHEMY_HEAP, heap->handle);
	heap_records_free(&h->waiters);
	heap_records_free(&h->spare);
	nk_heap_destroy(&h->heap);
	free(h->pool);
	free(h);
	nk_sched_run(nk);
	nk_unlock(nk);
	return 0;
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

/*
 * Sleep on a spare record until rt_heap_free() grants the request.
 * Lock held, on return too; if the heap is gone, touch nothing of it.
 */
static int heap_wait_block(struct nk_instance *nk, uintptr_t handle,
			   struct alchemy_heap *h, size_t size,
			   nk_time_t timeout, enum nk_tmode tmode,
			   void **blockp)
{
	struct heap_wait *w =
	    nk_list_first_entry(&h->spare, struct heap_wait, link);
	struct nk_list *pos = &h->waiters;
	void *again;
	int ret;

	nk_list_del(&w->link);
	w->size = size;
	w->block = NULL;
	w->prio = nk_thread_effective_priority(nk_thread_self(nk));
	if (h->mode & H_PRIO) {
		for (pos = h->waiters.next; pos != &h->waiters; pos = pos->next)
			if (nk_list_entry(pos, struct heap_wait, link)->prio <
			    w->prio)
				break;
	}
	nk_list_add_before(&w->link, pos);

	ret = nk_synch_sleep(&w->synch, timeout, tmode);
	if (alchemy_lookup(ALCHEMY_HEAP, handle, &again) || again != h) {
		/* The deletion freed the record, unless it was granted. */
		if (ret == 0) {
			nk_synch_destroy_locked(&w->synch);
			free(w);
		}
		return ret ? ret : -EIDRM;
	}
	if (ret == 0)
		*blockp = w->block;
	else
		nk_list_del(&w->link);
	nk_list_add_before(&w->link, &h->spare);
	return ret;
}

/* A spare record for @h, allocated with the lock dropped; re-locks. */
static int heap_spare(RT_HEAP *heap, struct nk_instance **nk,
		      struct alchemy_heap **h)
{
	char name[XNOBJECT_NAME_LEN];
	struct heap_wait *w;
	int ret;

	memcpy(name, (*h)->name, sizeof(name));
	nk_unlock(*nk);
	w = heap_record(*nk, name);
	if (w == NULL)
		return -ENOMEM;
	ret = heap_get(heap, nk, h);
	if (ret == 0)
		nk_list_add_after(&w->link, &(*h)->spare);
	else {
		nk_synch_destroy(&w->synch);
		free(w);
	}
	return ret;
}

/* The common body of the three alloc forms. */
static int heap_alloc(RT_HEAP *heap, size_t size, nk_time_t timeout,
		      enum nk_tmode tmode, void **blockp)
{
	struct alchemy_heap *h;
	struct nk_instance *nk;
	int ret;

	if (blockp == NULL)
		return -EINVAL;
	ret = heap_get(heap, &nk, &h);
	if (ret)
		return ret;
	for (;;) {
		ret = heap_try(h, size, blockp);
		if (ret != -EWOULDBLOCK || alchemy_nonblock(timeout, tmode))
			break;
		if (nk_list_empty(&h->spare)) {
			ret = heap_spare(heap, &nk, &h);
			if (ret)
				return ret;
			continue; /* memory may have come back meanwhile */
		}
		ret = heap_wait_block(nk, heap->handle, h, size, timeout, tmode,
				      blockp);
		break;
	}
	nk_unlock(nk);
	return ret;
}

int rt_heap_alloc_timed(RT_HEAP *heap, size_t size,
			const struct timespec *abs_timeout, void **blockp)
{
	enum nk_tmode tmode;
	nk_time_t timeout;
	int ret;

	ret = alchemy_timespec(abs_timeout, &timeout, &tmode);
	if (ret)
		return ret;
	return heap_alloc(heap, size, timeout, tmode, blockp);
}

int rt_heap_alloc_until(RT_HEAP *heap, size_t size, RTIME timeout,
			void **blockp)
{
	enum nk_tmode tmode;
	nk_time_t nkto;

	alchemy_abs(timeout, &nkto, &tmode);
	return heap_alloc(heap, size, nkto, tmode, blockp);
}

int rt_heap_alloc(RT_HEAP *heap, size_t size, RTIME timeout, void **blockp)
{
	enum nk_tmode tmode;
	nk_time_t nkto;

	alchemy_rel(timeout, &nkto, &tmode);
	return heap_alloc(heap, size, nkto, tmode, blockp);
}

/* Serve the waiters, in order, whose request fits now.  Lock held. */
static bool heap_grant(struct alchemy_heap *h)
{
	struct nk_list *pos, *tmp;
	bool woken = false;

	nk_list_for_each_safe(pos, tmp, &h->waiters)
	{
		struct heap_wait *w =
		    nk_list_entry(pos, struct heap_wait, link);

		/* A sleeper that timed out meanwhile is not served. */
		if (nk_synch_nr_waiters(&w->synch) == 0 ||
		    nk_heap_alloc(&h->heap, w->size, &w->block))
			continue;
		nk_synch_wakeup_one(&w->synch);
		nk_list_del(&w->link);
		woken = true;
	}
	return woken;
}

int rt_heap_free(RT_HEAP *heap, void *block)
{
	struct alchemy_heap *h;
	struct nk_instance *nk;
	int ret;

	if (block == NULL)
		return -EINVAL;
	ret = heap_get(heap, &nk, &h);
	if (ret)
		return ret;
	if (h->mode & H_SINGLE) {
		/* The one block stays: freeing it is a no-op. */
		if (block != h->single)
			ret = -EINVAL;
	} else if (nk_heap_free(&h->heap, block)) {
		ret = -EINVAL;
	} else if (heap_grant(h)) {
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
	struct nk_list *pos;
	int ret;

	if (info == NULL)
		return -EINVAL;
	ret = heap_get(heap, &nk, &h);
	if (ret)
		return ret;
	info->nwaiters = 0;
	nk_list_for_each(pos, &h->waiters)
	{
		info->nwaiters += (int)nk_synch_nr_waiters(
		    &nk_list_entry(pos, struct heap_wait, link)->synch);
	}
	nk_heap_stats(&h->heap, &stats);
	info->mode = h->mode;
	info->heapsize = h->heapsize;
	info->usablemem = h->usable;
	info->usedmem = stats.used;
	alchemy_name(ALCHEMY_HEAP, heap->handle, info->name);
	nk_unlock(nk);
	return 0;
}

int rt_heap_bind(RT_HEAP *heap, const char *name, RTIME timeout)
{
	struct nk_instance *nk;
	enum nk_tmode tmode;
	nk_time_t nkto;
	int ret;

	if (heap == NULL)
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	alchemy_rel(timeout, &nkto, &tmode);
	nk_lock(nk);
	ret = alchemy_bind(ALCHEMY_HEAP, name, &heap->handle, nkto, tmode);
	nk_unlock(nk);
	return ret;
}

int rt_heap_unbind(RT_HEAP *heap)
{
	if (heap == NULL)
		return -EINVAL;
	heap->handle = 0;
	return 0;
}
