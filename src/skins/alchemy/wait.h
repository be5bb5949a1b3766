/*
 * Waiting on the objects whose waiters each carry a request of their
 * own (a mask, a size, a buffer) and are served one by one: events,
 * queues, buffers, heaps.
 *
 * Each wait queue of such an object is one nucleus synch, FIFO or by
 * priority per the object's mode.  A waiter describes its request in a
 * context on its own stack and sleeps with it (nk_synch_sleep_ctx); a
 * waker walks the queue in order, writes the result into the context
 * of each waiter it serves (the flags, message, block or byte count it
 * grants) and wakes it, all under the nucleus lock, so the hand-over is
 * atomic.  A waiter leaves the queue on any wake-up (served, timed out,
 * unblocked, its task deleted): wakers never see it again.
 *
 * What a waker granted is the waiter's once the waker wakes it.  If the
 * waiter's task is deleted before it runs, the grant is not taken back:
 * as in Xenomai, a heap block or a queue message stays in use until the
 * object is deleted.  If the object is deleted first, the wait ends
 * with -EIDRM: what the waiter was given went with the object.
 */
#ifndef ALCHEMY_WAIT_H
#define ALCHEMY_WAIT_H

#include "internal.h"

#pragma GCC visibility push(hidden)

/*
 * The start of creating such an object: refuse too long a @name
 * (-EINVAL), enter the runtime (-EPERM from an alarm handler)
 * and allocate a zeroed control block of @size bytes into *@object
 * (-ENOMEM).  Lock NOT held.
 */
int alchemy_waitable_alloc(const char *name, size_t size,
			   struct nk_instance **nk, void **object);
/*
 * The end of it: let @setup prepare the wait queues, named @wname (the
 * object's name, or its class's for an anonymous one: every wait
 * names its object in traces and deadlock reports), and allocate the
 * rest of @object, then publish it under @name into *@handle.  On any
 * error, @release frees all of it, whatever was prepared so far (a
 * zeroed synch is no synch: destroying it does nothing).  Lock NOT held.
 */
int alchemy_waitable_create(
    struct nk_instance *nk, enum alchemy_class_id id, const char *name,
    void *object,
    int (*setup)(struct nk_instance *nk, void *object, const char *wname),
    void (*release)(struct nk_instance *nk, void *object), uintptr_t *handle);
/* Prepare a wait queue named @name: by priority with @by_prio, else FIFO. */
int alchemy_wait_init(struct nk_instance *nk, struct nk_synch *synch,
		      const char *name, bool by_prio);
/*
 * Invalidate a wait queue, its waiters waking with -EIDRM (the caller
 * reschedules); nothing for a zeroed one.  Lock held or not.
 */
void alchemy_wait_destroy(struct nk_instance *nk, struct nk_synch *synch);
/*
 * Sleep on @synch, a wait queue of @object (behind @handle), with the
 * request @ctx, until a waker serves it or per @to.  Returns 0 when
 * served and @object is still there (@ctx holds the result), -EIDRM
 * when it was served but the object was deleted before the caller ran
 * (nothing of it may be touched), else the wait's own error.  Lock
 * held, on return too.
 */
int alchemy_wait_sleep(enum alchemy_class_id id, uintptr_t handle, void *object,
		       struct nk_synch *synch, void *ctx,
		       struct alchemy_timeout to);
/*
 * Offer each waiter of @synch, in queue order, to @serve, which fills
 * in its context @ctx and returns true if it serves it; those served
 * are woken, and with @all false the walk stops at the first.  Returns
 * how many woke (the caller reschedules).  Lock held.
 */
int alchemy_wait_serve(struct nk_synch *synch,
		       bool (*serve)(void *ctx, void *arg), void *arg,
		       bool all);

#pragma GCC visibility pop

#endif
