/*
 * Wait records, for the objects whose waiters each carry a request of
 * their own (a mask, a size, a buffer) and are served one by one:
 * events, queues, buffers, heaps.
 *
 * Each waiter sleeps alone on the private synch of a record queued on
 * one of the object's wait lists in service order; a waker walks the
 * list, fills in the record of each waiter it serves and wakes it.
 * Records belong to the object, never to a waiter's stack, and stay
 * linked until their waiter runs again: a waiter served, timed out or
 * unblocked puts its record back on the spare list itself, one whose
 * task was deleted meanwhile leaves it linked without a sleeper, and
 * wakers skip such records.  Deleting the object frees every record.
 *
 * Records are made with the object and recycled: a waiter allocates
 * one only beyond ALCHEMY_WAIT_SPARE simultaneous waits, since malloc
 * may enter Linux and switch a live task to secondary mode.
 */
#ifndef ALCHEMY_WAIT_H
#define ALCHEMY_WAIT_H

#include "internal.h"

#pragma GCC visibility push(hidden)

#define ALCHEMY_WAIT_SPARE 4

/* The head of every record; the class's request follows. */
struct alchemy_wait {
	struct nk_list link;   /* a wait list of the object, or its spares */
	struct nk_synch synch; /* the waiter sleeps here, alone */
	int prio;	       /* its priority when it started waiting */
};

/*
 * The first member of the control block of an object whose waiters
 * use records: the record services find it at the object's address.
 */
struct alchemy_waitable {
	struct nk_list spare;	      /* records free for the next waits */
	size_t size;		      /* of this class's records */
	char name[XNOBJECT_NAME_LEN]; /* of the records' synchs */
};

/*
 * Prepare @wa for records of @size bytes, named after the object
 * (@name, or the class name when anonymous), and stock its spares.
 * On error (-ENOMEM) the caller frees @wa as below.  Lock NOT held.
 */
int alchemy_waitable_init(struct nk_instance *nk, struct alchemy_waitable *wa,
			  enum alchemy_class_id id, const char *name,
			  size_t size);
/*
 * The start of creating such an object: refuse too long a @name
 * (-EINVAL), enter the runtime from a task (-EPERM from anything else)
 * and allocate a zeroed control block of @size bytes into *@object
 * (-ENOMEM).  Lock NOT held.
 */
int alchemy_waitable_alloc(const char *name, size_t size,
			   struct nk_instance **nk, void **object);
/*
 * The end of it: prepare the waitable at the head of @object for
 * records of @record bytes, let @setup allocate and lay out the rest,
 * then publish @object under @name into *@handle.  On any error,
 * @release frees all of it, whatever was allocated so far.  Lock NOT
 * held.
 */
int alchemy_waitable_create(
    struct nk_instance *nk, enum alchemy_class_id id, const char *name,
    size_t record, void *object, int (*setup)(void *object),
    void (*release)(struct nk_instance *nk, void *object), uintptr_t *handle);
/*
 * Free the records of @list; their sleepers wake with -EIDRM (the
 * caller reschedules).  Lock held or not (it is recursive).
 */
void alchemy_wait_drop(struct nk_instance *nk, struct nk_list *list);
/*
 * Give the object behind *@handle one more spare record, allocated
 * with the lock dropped; the object is looked up again into *@object.
 * Returns with the lock held, or an error (-ENOMEM, those of
 * alchemy_get()) without it.  Lock held on entry.
 */
int alchemy_wait_restock(enum alchemy_class_id id, const uintptr_t *handle,
			 struct nk_instance **nk, void **object);
/*
 * Take a spare record of @wa (NULL if none: restock, then check again
 * whether to wait, as the lock was dropped) and queue it on
 * @list for the caller: by priority then arrival with @by_prio, else
 * in arrival order.  Lock held.
 */
struct alchemy_wait *alchemy_wait_queue(struct nk_instance *nk,
					struct alchemy_waitable *wa,
					struct nk_list *list, bool by_prio);
/*
 * Sleep on @w until a waker serves it, or per @to.  Lock held, on
 * return too.  When the object (@object, behind @handle) is still
 * there, @w goes back to its spares and may be read until the lock is
 * released.  When it was deleted meanwhile, nothing of it may be
 * touched: the wait ends with its own error, or -EIDRM if it was
 * served (what it was given went with the object).
 */
int alchemy_wait_sleep(enum alchemy_class_id id, uintptr_t handle, void *object,
		       struct alchemy_wait *w, struct alchemy_timeout to);
/* Whether a waiter sleeps on @w.  Lock held. */
static inline bool alchemy_wait_asleep(struct alchemy_wait *w)
{
	return nk_synch_nr_waiters(&w->synch) > 0;
}
/* The waiters asleep on the records of @list.  Lock held. */
int alchemy_wait_count(struct nk_list *list);

#pragma GCC visibility pop

#endif
