/* SPDX-License-Identifier: MIT */
/*
 * VxWorks memory partitions over nucleus TLSF heaps, one per pool the
 * program gives.  A block aligned beyond the heaps' 16 bytes is carved
 * from a larger one, with a tag just below it naming the block it lies
 * in, so that memPartFree() finds that block again.
 */
#include "internal.h"

#include <errno.h>

/*
 * The heaps manage pools of the program's memory, at its addresses: a
 * partition serves the process that gave them (or processes that map
 * them at the same address).
 */
struct vx_part {
	struct nk_heap *heaps[VX_MEM_PART_POOLS];
	int nr_pools;
	/* A pool in one process's private memory (not the session's)
	 * holds the heap's block headers: the partition is then that
	 * process's alone. */
	int member;
	bool private_pools;
};

/* Whether the calling process may touch @p's pools.  Lock held. */
static bool part_here(struct nk_instance *nk, const struct vx_part *p)
{
	return !p->private_pools || p->member == nk_instance_member(nk);
}

/* Below a block aligned by memPartAlignedAlloc(). */
struct aligned_tag {
	void *block;	 /* what the heap gave */
	uintptr_t check; /* ALIGNED_MAGIC ^ block: a real tag */
};

#define ALIGNED_MAGIC ((uintptr_t)0x5658414c49474e44ULL)

void vx_part_reclaim(struct nk_instance *nk, void *object)
{
	struct vx_part *p = object;

	for (int i = 0; i < p->nr_pools; i++) {
		nk_heap_destroy(p->heaps[i]);
		nk_free(nk, p->heaps[i]);
	}
	nk_free(nk, p);
}

/* Manage @size bytes at @pool in @p.  Lock held or @p not published. */
static int part_add(struct nk_instance *nk, struct vx_part *p, char *pool,
		    unsigned int size)
{
	struct nk_heap *heap;

	bool shared = nk_instance_memory_shared(nk, pool, size);

	if (pool == NULL)
		return S_memLib_INVALID_NBYTES;
	if (p->nr_pools == VX_MEM_PART_POOLS)
		return S_memLib_NOT_ENOUGH_MEMORY;
	/* Another process's pool, where this one's are not everybody's. */
	if ((!shared || p->private_pools) && p->nr_pools &&
	    p->member != nk_instance_member(nk))
		return S_objLib_OBJ_UNAVAILABLE;
	heap = nk_alloc(nk, sizeof(*heap));
	if (heap == NULL)
		return S_memLib_NOT_ENOUGH_MEMORY;
	if (nk_heap_init(heap, pool, size)) {
		nk_free(nk, heap);
		return S_memLib_INVALID_NBYTES;
	}
	if (p->nr_pools == 0)
		p->member = nk_instance_member(nk);
	p->private_pools = p->private_pools || !shared;
	p->heaps[p->nr_pools++] = heap;
	return 0;
}

PART_ID memPartCreate(char *pPool, unsigned int poolSize)
{
	struct nk_instance *nk;
	struct vx_part *p;
	uintptr_t id;
	int ret;

	ret = vx_object_alloc(sizeof(*p), &nk, (void **)&p);
	if (ret == 0) {
		ret = part_add(nk, p, pPool, poolSize);
		if (ret == 0)
			ret = skin_publish(skin_state(&vxworks_skin), VX_PART,
					   NULL, p, &id);
		if (ret)
			vx_part_reclaim(nk, p);
	}
	vx_status(ret);
	return ret ? NULL : (PART_ID)id;
}

/* The system partition starts without a pool: memAddToPool() gives it. */
PART_ID memSysPartIdGet(void)
{
	struct nk_instance *nk;
	struct vx_state *vs;
	struct vx_part *p;
	int ret = vx_enter(&nk, &vs);

	if (ret) {
		vx_fail(ret);
		return NULL;
	}
	nk_lock(nk);
	if (vs->sys_part == 0) {
		p = nk_alloc(nk, sizeof(*p));
		ret = p ? skin_register_locked(&vs->skin, VX_PART, NULL, p,
					       &vs->sys_part)
			: S_memLib_NOT_ENOUGH_MEMORY;
		if (ret)
			nk_free(nk, p);
	}
	nk_unlock(nk);
	vx_status(ret);
	return ret ? NULL : (PART_ID)vs->sys_part;
}

STATUS memAddToPool(char *pPool, unsigned int poolSize)
{
	PART_ID sys = memSysPartIdGet();

	return sys ? memPartAddToPool(sys, pPool, poolSize) : ERROR;
}

/*
 * Enter at task level, lock and find partition @id: lock held on 0.
 * Another process's partition over its private memory is unavailable.
 */
static int part_get(PART_ID id, struct nk_instance **nk, struct vx_part **p)
{
	int ret = vx_enter_task_level(NULL, NULL);

	if (ret == 0)
		ret = vx_get(VX_PART, id, nk, (void **)p);
	if (ret == 0 && !part_here(*nk, *p)) {
		nk_unlock(*nk);
		ret = S_objLib_OBJ_UNAVAILABLE;
	}
	return ret;
}

STATUS memPartAddToPool(PART_ID partId, char *pPool, unsigned int poolSize)
{
	struct nk_instance *nk;
	struct vx_part *p;
	int ret = part_get(partId, &nk, &p);

	if (ret)
		return vx_fail(ret);
	ret = part_add(nk, p, pPool, poolSize);
	nk_unlock(nk);
	return vx_status(ret);
}

/* A block of @size bytes from any pool of @p.  Lock held. */
static void *part_alloc(struct vx_part *p, size_t size)
{
	void *block;

	for (int i = 0; i < p->nr_pools; i++)
		if (nk_heap_alloc(p->heaps[i], size, &block) == 0)
			return block;
	return NULL;
}

void *memPartAlignedAlloc(PART_ID partId, unsigned int nBytes,
			  unsigned int alignment)
{
	struct nk_instance *nk;
	struct vx_part *p;
	struct aligned_tag *tag;
	uintptr_t start;
	void *block;
	int ret;

	if (alignment == 0 || (alignment & (alignment - 1))) {
		vx_fail(S_memLib_INVALID_NBYTES);
		return NULL;
	}
	ret = part_get(partId, &nk, &p);
	if (ret) {
		vx_fail(ret);
		return NULL;
	}
	if (alignment <= NK_HEAP_ALIGN) {
		block = part_alloc(p, nBytes ? nBytes : 1);
	} else {
		block =
		    part_alloc(p, (size_t)nBytes + alignment + sizeof(*tag));
		if (block) {
			start =
			    ((uintptr_t)block + sizeof(*tag) + alignment - 1) &
			    ~((uintptr_t)alignment - 1);
			tag = (struct aligned_tag *)start - 1;
			tag->block = block;
			tag->check = ALIGNED_MAGIC ^ (uintptr_t)block;
			block = (void *)start;
		}
	}
	nk_unlock(nk);
	if (block == NULL)
		vx_fail(S_memLib_NOT_ENOUGH_MEMORY);
	return block;
}

void *memPartAlloc(PART_ID partId, unsigned int nBytes)
{
	return memPartAlignedAlloc(partId, nBytes, NK_HEAP_ALIGN);
}

/* Free @ptr, which lies in @heap: a block, or an aligned one.  Errors:
 * S_memLib_BLOCK_ERROR.  Lock held. */
static int heap_release(struct nk_heap *heap, char *ptr)
{
	struct aligned_tag *tag = (struct aligned_tag *)ptr - 1;

	if (nk_heap_free(heap, ptr) == 0)
		return 0;
	if ((uintptr_t)ptr % _Alignof(struct aligned_tag) ||
	    (char *)tag < (char *)heap->base ||
	    tag->check != (ALIGNED_MAGIC ^ (uintptr_t)tag->block) ||
	    (char *)tag->block > ptr || nk_heap_free(heap, tag->block))
		return S_memLib_BLOCK_ERROR;
	tag->check = 0;
	return 0;
}

STATUS memPartFree(PART_ID partId, char *pBlock)
{
	struct nk_instance *nk;
	struct vx_part *p;
	int ret = part_get(partId, &nk, &p);

	if (ret)
		return vx_fail(ret);
	ret = pBlock ? S_memLib_BLOCK_ERROR : 0;
	for (int i = 0; pBlock && i < p->nr_pools; i++) {
		struct nk_heap *heap = p->heaps[i];

		if (pBlock >= (char *)heap->base &&
		    pBlock < (char *)heap->base + heap->size) {
			ret = heap_release(heap, pBlock);
			break;
		}
	}
	nk_unlock(nk);
	return vx_status(ret);
}

/* @p's figures over all its pools.  Lock held. */
static void part_stats(const struct vx_part *p, MEM_PART_STATS *st)
{
	struct nk_heap_stats hs;

	*st = (MEM_PART_STATS){0};
	for (int i = 0; i < p->nr_pools; i++) {
		nk_heap_stats(p->heaps[i], &hs);
		st->numBytesFree += hs.free;
		st->numBlocksFree += hs.nr_free;
		if (hs.largest_free > st->maxBlockSizeFree)
			st->maxBlockSizeFree = hs.largest_free;
		st->numBytesAlloc += hs.used;
		st->numBlocksAlloc += hs.nr_used;
	}
}

void vx_part_describe(const void *object, struct nk_object_info *info)
{
	MEM_PART_STATS st;

	/* Its pools are out of this process's reach: not shown. */
	if (!part_here(fusion_runtime_peek(), object))
		return;
	part_stats(object, &st);
	info->count = (long)st.numBytesAlloc;
	info->capacity = (long)(st.numBytesAlloc + st.numBytesFree);
}

STATUS memPartInfoGet(PART_ID partId, MEM_PART_STATS *ppartStats)
{
	struct nk_instance *nk;
	struct vx_part *p;
	int ret;

	if (ppartStats == NULL)
		return vx_fail(EINVAL);
	ret = part_get(partId, &nk, &p);
	if (ret)
		return vx_fail(ret);
	part_stats(p, ppartStats);
	nk_unlock(nk);
	return OK;
}
