/* SPDX-License-Identifier: MIT */
/*
 * RTAI shared memory: a named block is an object of its own class in
 * the RTAI name space, its bytes following its header in one nk_alloc()
 * block, so that a session can share it as it shares every object.
 * rt_malloc() is the instance's allocator.
 */
#include "internal.h"

#include <rtai/rtai_shm.h>

#include <stddef.h>

struct rtai_shm {
	struct rtai_named named; /* first: its uses */
	int size;
	max_align_t data[]; /* the user's bytes, aligned as malloc's */
};

/* Its size as its capacity; no count. */
void rtai_shm_describe(const void *object, struct nk_object_info *info)
{
	const struct rtai_shm *m = object;

	info->capacity = m->size;
}

void rtai_shm_reclaim(struct nk_instance *nk, void *object)
{
	nk_free(nk, object);
}

/* rtai_named_init()'s creation of @size bytes (@unused). */
static void *shm_create(const char *key, int size, int unused)
{
	struct nk_instance *nk;
	struct rtai_shm *m;
	uintptr_t handle;

	if (size <= 0 || rtai_enter(&nk))
		return NULL;
	(void)unused;
	m = nk_alloc(nk, sizeof(*m) + (size_t)size);
	if (m == NULL)
		return NULL;
	m->named.uses = 1;
	m->size = size;
	if (skin_publish(rtai(), RTAI_SHM, key, m, &handle)) {
		nk_free(nk, m);
		return NULL;
	}
	return rtai_ptr(handle);
}

void *rt_shm_alloc(unsigned long name, int size, int suprt)
{
	char key[RTAI_NAME_CHARS + 1];
	struct nk_instance *nk;
	struct rtai_shm *m;
	void *adr;

	(void)suprt;
	rtai_name(name, key);
	adr =
	    key[0] ? rtai_named_init(RTAI_SHM, key, shm_create, size, 0) : NULL;
	if (adr == NULL)
		return NULL;
	/* The block behind the handle: it lives while this use lasts. */
	if (skin_get(&rtai_skin, RTAI_SHM, &(uintptr_t){rtai_handle(adr)}, &nk,
		     (void **)&m))
		return NULL;
	nk_unlock(nk);
	return m->data;
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
