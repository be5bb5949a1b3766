/* SPDX-License-Identifier: MIT */
/** @file
 * Alchemy memory heaps (Xenomai 3 API): blocks of any size from a pool
 * of @p heapsize bytes fixed at creation, in bounded time (the nucleus
 * TLSF heap).  @p heapsize is what the blocks may add up to, as in
 * Xenomai (a 16 KiB heap serves two 8 KiB blocks): a block costs its
 * size rounded up to 16 bytes; the allocator's own overhead comes on
 * top (enough for blocks of 512 bytes on average).  A request the pool cannot
 * satisfy may wait until other tasks free enough memory; waiters are served in
 * FIFO (H_FIFO) or priority (H_PRIO) order, each release granting every waiter
 * whose request then fits.
 *
 * With H_SINGLE the whole pool is one block: every rt_heap_alloc()
 * returns its address (size 0 or @p heapsize), and rt_heap_free() of it
 * does nothing.
 */
#ifndef FUSION_ALCHEMY_HEAP_H
#define FUSION_ALCHEMY_HEAP_H

#include <alchemy/alchemy.h>
#include <alchemy/timer.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Creation modes. */
#define H_FIFO 0x0   /**< waiters in arrival order */
#define H_PRIO 0x1   /**< waiters by priority */
#define H_SINGLE 0x4 /**< the pool is one block */

/** A descriptor; a zeroed, stale or forged one is refused. */
typedef struct RT_HEAP {
	uintptr_t handle; /**< class tag and registry handle, never a pointer */
} RT_HEAP;

/** What rt_heap_inquire() reports. */
typedef struct RT_HEAP_INFO {
	int nwaiters;	  /**< tasks waiting for memory */
	int mode;	  /**< creation mode */
	size_t heapsize;  /**< as created */
	size_t usablemem; /**< what blocks may add up to: heapsize */
	size_t usedmem;	  /**< usable bytes of the blocks allocated */
	char name[XNOBJECT_NAME_LEN]; /**< its name */
} RT_HEAP_INFO;

#define rt_heap_create alchemy_rt_heap_create
#define rt_heap_delete alchemy_rt_heap_delete
#define rt_heap_alloc_timed alchemy_rt_heap_alloc_timed
#define rt_heap_alloc_until alchemy_rt_heap_alloc_until
#define rt_heap_alloc alchemy_rt_heap_alloc
#define rt_heap_free alchemy_rt_heap_free
#define rt_heap_inquire alchemy_rt_heap_inquire
#define rt_heap_bind alchemy_rt_heap_bind
#define rt_heap_unbind alchemy_rt_heap_unbind

/**
 * Create a heap of @p heapsize bytes (1 .. 2 GiB - 1).  Errors: -EINVAL
 * (NULL heap, bad size, unknown mode bits, name too long), -EEXIST,
 * -ENOMEM, -EPERM (from an alarm handler; any Linux thread may create).
 */
int rt_heap_create(RT_HEAP *heap, const char *name, size_t heapsize, int mode);
/** Delete @p heap: waiters wake with -EIDRM; its blocks vanish.  -EINVAL. */
int rt_heap_delete(RT_HEAP *heap);
/** @{ */
/**
 * Allocate @p size bytes into *@p blockp, waiting for memory until
 * @p abs_timeout (NULL: forever; {0, 0}: not at all), @p timeout ticks
 * (TM_INFINITE, TM_NONBLOCK) or the date @p timeout (_until).
 * Errors: -EINVAL (bad descriptor, NULL @p blockp, @p size 0, or for
 * H_SINGLE a @p size other than 0 and @p heapsize; malformed timespec),
 * -EWOULDBLOCK, -ETIMEDOUT, -EINTR, -EIDRM, -EPERM (cannot wait in
 * this context).
 */
int rt_heap_alloc_timed(RT_HEAP *heap, size_t size,
			const struct timespec *abs_timeout, void **blockp);
int rt_heap_alloc_until(RT_HEAP *heap, size_t size, RTIME timeout,
			void **blockp);
int rt_heap_alloc(RT_HEAP *heap, size_t size, RTIME timeout, void **blockp);
/** @} */
/**
 * Release @p block to @p heap, then grant waiting requests that fit.
 * Errors: -EINVAL (bad descriptor, not a live block of @p heap).
 */
int rt_heap_free(RT_HEAP *heap, void *block);
/** Status of @p heap.  -EINVAL (bad descriptor, NULL info). */
int rt_heap_inquire(RT_HEAP *heap, RT_HEAP_INFO *info);
/** Find a heap by name, as rt_queue_bind. */
int rt_heap_bind(RT_HEAP *heap, const char *name, RTIME timeout);
/** Forget the binding (the object lives on).  -EINVAL (NULL descriptor). */
int rt_heap_unbind(RT_HEAP *heap);

#ifdef __cplusplus
}
#endif

#endif
