/* SPDX-License-Identifier: MIT */
/*
 * RTAI shared memory: a named block is an object of its own class in
 * the RTAI name space, its bytes following its header in one nk_alloc()
 * block, so that a session can share it as it shares every object.
 * rt_malloc() is the instance's allocator.  A block rt_heap_open() made
 * is a heap: a TLSF heap over its bytes, whose state is in the block's
 * header, so that every process of a session allocates from it.
 */
#include "internal.h"

#include <rtai/rtai_shm.h>

#include <stddef.h>

struct rtai_shm {
	struct rtai_named named; /* first: its uses */
	int size;
	bool is_heap;	     /* rt_heap_open()'s: @heap manages @data */
	struct nk_heap heap; /* its state, shared with the block */
	max_align_t data[];  /* the user's bytes, aligned as malloc's */
};

/* The heap rt_halloc() takes from: the last this process opened (a
 * handle: the block may have gone since).  Lock held. */
static uintptr_t current_heap;

/* Its size as its capacity; a heap's bytes in use as its count. */
void rtai_shm_describe(const void *object, struct nk_object_info *info)
{
	const struct rtai_shm *m = object;
	struct nk_heap_stats st;

	info->capacity = m->size;
	if (m->is_heap && nk_heap_stats((struct nk_heap *)&m->heap, &st) == 0)
		info->count = (long)st.used;
}

void rtai_shm_reclaim(struct nk_instance *nk, void *object)
{
	struct rtai_shm *m = object;

	if (m->is_heap)
		nk_heap_destroy(&m->heap);
	nk_free(nk, object);
}

/* rtai_named_init()'s creation of @size bytes, a heap with @heap. */
static void *shm_create(const char *key, int size, int heap)
{
	struct nk_instance *nk;
	struct rtai_shm *m;
	uintptr_t handle;

	if (size <= 0 || rtai_enter(&nk))
		return NULL;
	m = nk_alloc(nk, sizeof(*m) + (size_t)size);
	if (m == NULL)
		return NULL;
	m->named.uses = 1;
	m->size = size;
	m->is_heap = heap && nk_heap_init(&m->heap, m->data, (size_t)size) == 0;
	if (m->is_heap != (bool)heap ||
	    skin_publish(rtai(), RTAI_SHM, key, m, &handle)) {
		nk_free(nk, m);
		return NULL;
	}
	return rtai_ptr(handle);
}

/* The handle of the block named @key, or of the block at @addr. */
static int shm_find(struct skin *sk, const char *key, const void *addr,
		    uintptr_t *handle)
{
	struct skin_entry e;
	uint32_t cursor = 0;

	if (key)
		return skin_find_locked(sk, RTAI_SHM, key, handle);
	while (skin_list_locked(sk, RTAI_SHM, &cursor, &e) == 0)
		if (((struct rtai_shm *)e.object)->data == addr) {
			*handle = e.handle;
			return 0;
		}
	return -ESRCH;
}

/* One use less of the block named @key or at @addr: its size, or 0. */
static int shm_release(const char *key, const void *addr)
{
	struct nk_instance *nk;
	struct rtai_shm *m;
	uintptr_t handle;
	struct skin *sk;
	int size = 0;

	if (skin_enter(&rtai_skin, &nk, &sk))
		return 0;
	nk_lock(nk);
	if (shm_find(sk, key, addr, &handle) == 0 &&
	    skin_lookup_locked(sk, RTAI_SHM, handle, (void **)&m) == 0) {
		size = m->size;
		if (--m->named.uses == 0) {
			skin_unregister_locked(sk, handle);
			rtai_shm_reclaim(nk, m);
		}
	}
	nk_unlock(nk);
	return size;
}

/*
 * One use more of the block named @name, made of @size bytes (a heap
 * with @heap) if new: NULL for no name, a block of the other kind, and
 * as rt_shm_alloc().
 */
static struct rtai_shm *shm_open(unsigned long name, int size, bool heap)
{
	char key[RTAI_NAME_CHARS + 1];
	struct nk_instance *nk;
	struct rtai_shm *m;
	uintptr_t handle;
	void *adr;
	bool kind;

	rtai_name(name, key);
	adr = key[0] ? rtai_named_init(RTAI_SHM, key, shm_create, size, heap)
		     : NULL;
	if (adr == NULL)
		return NULL;
	/* The block behind the handle: it lives while this use lasts. */
	handle = rtai_handle(adr);
	if (skin_get(&rtai_skin, RTAI_SHM, &handle, &nk, (void **)&m))
		return NULL;
	kind = m->is_heap == heap;
	if (kind && heap)
		current_heap = handle;
	nk_unlock(nk);
	if (!kind) {
		shm_release(key, NULL);
		return NULL;
	}
	return m;
}

void *rt_shm_alloc(unsigned long name, int size, int suprt)
{
	struct rtai_shm *m = shm_open(name, size, false);

	(void)suprt;
	return m ? m->data : NULL;
}

void *rt_heap_open(unsigned long name, int size, int suprt)
{
	struct rtai_shm *m = shm_open(name, size, true);

	(void)suprt;
	return m ? m->data : NULL;
}

/* The heap this process opened last, if it is still there.  Lock held. */
static struct rtai_shm *heap_current(struct skin *sk)
{
	struct rtai_shm *m;

	return current_heap && skin_lookup_locked(sk, RTAI_SHM, current_heap,
						  (void **)&m) == 0
		   ? m
		   : NULL;
}

void *rt_halloc(int size)
{
	struct nk_instance *nk;
	struct rtai_shm *m;
	struct skin *sk;
	void *block = NULL;

	if (size <= 0 || skin_enter(&rtai_skin, &nk, &sk))
		return NULL;
	nk_lock(nk);
	m = heap_current(sk);
	if (m && nk_heap_alloc(&m->heap, (size_t)size, &block))
		block = NULL;
	nk_unlock(nk);
	return m ? block : rt_malloc(size);
}

void rt_hfree(void *addr)
{
	struct nk_instance *nk;
	struct rtai_shm *m;
	struct skin *sk;
	bool mine;

	if (addr == NULL || skin_enter(&rtai_skin, &nk, &sk))
		return;
	nk_lock(nk);
	m = heap_current(sk);
	mine = m && (char *)addr >= (char *)m->data &&
	       (char *)addr < (char *)m->data + m->size;
	if (mine)
		(void)nk_heap_free(&m->heap, addr);
	nk_unlock(nk);
	if (!mine)
		rt_free(addr);
}

int rt_shm_free(unsigned long name)
{
	char key[RTAI_NAME_CHARS + 1];

	rtai_name(name, key);
	return key[0] ? shm_release(key, NULL) : 0;
}

void *rt_named_malloc(unsigned long name, int size)
{
	return rt_shm_alloc(name, size, USE_VMALLOC);
}

void rt_named_free(void *addr)
{
	if (addr)
		shm_release(NULL, addr);
}

void *rt_malloc(int size)
{
	struct nk_instance *nk;

	if (size <= 0 || rtai_enter(&nk))
		return NULL;
	return nk_alloc(nk, (size_t)size);
}

void rt_free(void *addr)
{
	struct nk_instance *nk;

	if (addr && rtai_enter(&nk) == 0)
		nk_free(nk, addr);
}
