/* SPDX-License-Identifier: MIT */
/** @file
 * RTAI shared memory: named blocks that every caller of the same name
 * gets (counted uses, freed with the last), and allocations from the
 * real-time heap.  Memory comes from the instance (nk_alloc()), zeroed:
 * in a session, every process gets one name's block at one address.
 */
#ifndef FUSION_RTAI_SHM_H
#define FUSION_RTAI_SHM_H

#include "rtai_lxrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @{ */
/** rt_shm_alloc()'s kinds of memory: accepted, all the same here. */
#define USE_VMALLOC 0
#define USE_GFP_KERNEL 1
#define USE_GFP_ATOMIC 2
#define USE_GFP_DMA 3
/** @} */

#define rt_shm_alloc rtai_rt_shm_alloc
#define rt_shm_free rtai_rt_shm_free
#define rt_named_malloc rtai_rt_named_malloc
#define rt_named_free rtai_rt_named_free
#define rt_malloc rtai_rt_malloc
#define rt_free rtai_rt_free
#define rt_heap_open rtai_rt_heap_open
#define rt_halloc rtai_rt_halloc
#define rt_hfree rtai_rt_hfree

/**
 * The block named @p name: one more use of it if it exists (its size
 * stays), else a new zeroed one of @p size bytes.  NULL: @p name 0,
 * @p size <= 0 for a new block, a name taken by another kind of object,
 * no memory.  @p suprt is accepted and unused.
 */
void *rt_shm_alloc(unsigned long name, int size, int suprt);
/** One use less of the block named @p name, freed with the last:
 * returns its size, 0 if there is no such block. */
int rt_shm_free(unsigned long name);
/** rt_shm_alloc() in the real-time heap: the same blocks here. */
void *rt_named_malloc(unsigned long name, int size);
/** One use less of the named block at @p addr (nothing for an address
 * that is not one). */
void rt_named_free(void *addr);
/** @p size zeroed bytes of the real-time heap, NULL if none (or
 * @p size <= 0). */
void *rt_malloc(int size);
/** Free what rt_malloc() gave (NULL: nothing). */
void rt_free(void *addr);

/**
 * The heap named @p name: a named block of @p size bytes (as
 * rt_shm_alloc(), and freed as it is, rt_heap_close()) that rt_halloc()
 * allocates from, in every process of a session alike; the caller's
 * rt_halloc() and rt_hfree() use it from now on.  Returns its first
 * byte.  NULL: as rt_shm_alloc(), or @p name is a block that is no heap
 * (or the other way round).
 */
void *rt_heap_open(unsigned long name, int size, int suprt);
/** @p size bytes of the heap this process opened last (not zeroed),
 * else of the real-time heap (rt_malloc()); NULL if none is free, or
 * @p size <= 0. */
void *rt_halloc(int size);
/** Free what rt_halloc() gave (NULL: nothing). */
void rt_hfree(void *addr);
/** One use less of heap @p name (its address is not needed). */
#define rt_heap_close(name, adr) rt_shm_free(name)

/** LXRT's shorthand: rt_shm_alloc() of vmalloc'ed memory. */
#define rtai_malloc(name, size) rt_shm_alloc(name, size, USE_VMALLOC)
/** LXRT's shorthand: rt_shm_free() (the address is not needed). */
#define rtai_free(name, adr) rt_shm_free(name)

#ifdef __cplusplus
}
#endif

#endif
