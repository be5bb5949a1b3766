/* SPDX-License-Identifier: MIT */
/** @file
 * Alchemy message queues (Xenomai 3 API): variable-sized messages
 * carried in buffers of a pool fixed at creation.
 *
 * Zero-copy use: rt_queue_alloc() a buffer, fill it, rt_queue_send() it;
 * the receiver gets the buffer itself from rt_queue_receive() and gives
 * it back with rt_queue_free().  Copying use: rt_queue_write() and
 * rt_queue_read().  A message sent with Q_BROADCAST is shared by every
 * receiver waiting at that moment (reference counted: each frees its
 * reference); readers get their own copy.  A message that finds nobody
 * waiting is queued (Q_NORMAL: at the tail, Q_URGENT: at the head),
 * except a Q_BROADCAST one, which is discarded.
 *
 * Receivers wait in FIFO (Q_FIFO) or priority (Q_PRIO) order.  With a
 * @p qlimit, sending to a queue that holds @p qlimit messages fails with
 * -ENOMEM; the pool is then sized so that @p qlimit messages of
 * @p poolsize / @p qlimit bytes fit at once.  Without (Q_UNLIMITED), the
 * pool is @p poolsize plus 5% for the per-message overhead.
 */
#ifndef FUSION_ALCHEMY_QUEUE_H
#define FUSION_ALCHEMY_QUEUE_H

#include <alchemy/alchemy.h>
#include <alchemy/timer.h>

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Creation modes. */
#define Q_FIFO 0x0   /**< receivers wait in arrival order */
#define Q_PRIO 0x1   /**< receivers wait by priority */
#define Q_SHARED 0x0 /**< compatibility only */

#define Q_UNLIMITED 0 /**< no limit on queued messages */

/** Send modes. */
#define Q_NORMAL 0x0
#define Q_URGENT 0x1	/**< queue at the head (LIFO) */
#define Q_BROADCAST 0x2 /**< to every waiting receiver */

/** A descriptor; a zeroed, stale or forged one is refused. */
typedef struct RT_QUEUE {
	uintptr_t handle; /**< class tag and registry handle, never a pointer */
} RT_QUEUE;

/** What rt_queue_inquire() reports. */
typedef struct RT_QUEUE_INFO {
	int nwaiters;	 /**< tasks waiting for a message */
	int nmessages;	 /**< messages queued */
	int mode;	 /**< creation mode */
	size_t qlimit;	 /**< as created (Q_UNLIMITED: none) */
	size_t poolsize; /**< as created */
	size_t usedmem;	 /**< pool bytes in use, overhead included */
	char name[XNOBJECT_NAME_LEN]; /**< its name */
} RT_QUEUE_INFO;

#define rt_queue_create alchemy_rt_queue_create
#define rt_queue_delete alchemy_rt_queue_delete
#define rt_queue_alloc alchemy_rt_queue_alloc
#define rt_queue_free alchemy_rt_queue_free
#define rt_queue_send alchemy_rt_queue_send
#define rt_queue_write alchemy_rt_queue_write
#define rt_queue_receive_timed alchemy_rt_queue_receive_timed
#define rt_queue_receive_until alchemy_rt_queue_receive_until
#define rt_queue_receive alchemy_rt_queue_receive
#define rt_queue_read_timed alchemy_rt_queue_read_timed
#define rt_queue_read_until alchemy_rt_queue_read_until
#define rt_queue_read alchemy_rt_queue_read
#define rt_queue_flush alchemy_rt_queue_flush
#define rt_queue_inquire alchemy_rt_queue_inquire
#define rt_queue_bind alchemy_rt_queue_bind
#define rt_queue_unbind alchemy_rt_queue_unbind

/**
 * Create a queue.  Errors: -EINVAL (NULL queue, @p poolsize 0, unknown
 * mode bits, name too long), -EEXIST (name in use), -ENOMEM, -EPERM
 * (from an alarm handler; any Linux thread may create).
 */
int rt_queue_create(RT_QUEUE *queue, const char *name, size_t poolsize,
		    size_t qlimit, int mode);
/**
 * Delete @p queue: waiting receivers wake with -EIDRM; queued messages
 * and the pool are released (buffers still held become invalid).
 * Errors: -EINVAL (bad descriptor).
 */
int rt_queue_delete(RT_QUEUE *queue);
/**
 * A message buffer of @p size bytes (0 is valid) from the pool, or NULL
 * (bad descriptor, pool exhausted).
 */
void *rt_queue_alloc(RT_QUEUE *queue, size_t size);
/**
 * Release a buffer got from rt_queue_alloc() or rt_queue_receive().
 * Errors: -EINVAL (bad descriptor, not a buffer of this queue, or one
 * the caller does not own: queued, already freed).
 */
int rt_queue_free(RT_QUEUE *queue, void *buf);
/**
 * Send the buffer @p buf (from rt_queue_alloc, owned by the caller) as a
 * message of @p size bytes; the caller no longer owns it on success.
 * Returns the number of receivers woken (0: queued, or discarded for
 * Q_BROADCAST).  Errors: -EINVAL (bad descriptor, NULL or invalid
 * buffer, @p size above its capacity, unknown mode bits), -ENOMEM
 * (@p qlimit messages already queued: the caller keeps the buffer).
 */
int rt_queue_send(RT_QUEUE *queue, const void *buf, size_t size, int mode);
/**
 * Send a copy of @p size bytes at @p buf.  Returns as rt_queue_send().
 * Errors: -EINVAL (bad descriptor, NULL @p buf with @p size > 0, unknown
 * mode bits), -ENOMEM (queue limit reached, or the pool cannot hold
 * the copy).
 */
int rt_queue_write(RT_QUEUE *queue, const void *buf, size_t size, int mode);
/** @{ */
/**
 * Take the next message: its buffer into *@p bufp (free it with
 * rt_queue_free), its size as the return value.  Waits until
 * @p abs_timeout (NULL: forever; {0, 0}: not at all), @p timeout ticks
 * (TM_INFINITE, TM_NONBLOCK) or the date @p timeout (_until).
 * Errors: -EINVAL (bad descriptor, NULL @p bufp, malformed timespec),
 * -EWOULDBLOCK, -ETIMEDOUT, -EINTR (rt_task_unblock), -EIDRM (deleted
 * while waiting), -EPERM (cannot wait in this context).
 */
ssize_t rt_queue_receive_timed(RT_QUEUE *queue, void **bufp,
			       const struct timespec *abs_timeout);
ssize_t rt_queue_receive_until(RT_QUEUE *queue, void **bufp, RTIME timeout);
ssize_t rt_queue_receive(RT_QUEUE *queue, void **bufp, RTIME timeout);
/** @} */
/** @{ */
/**
 * Copy the next message into @p buf (@p size bytes: a longer message is
 * truncated) and release it.  Returns the bytes copied; @p size 0
 * returns 0 at once.  Errors: as rt_queue_receive, -EINVAL for a NULL
 * @p buf.
 */
ssize_t rt_queue_read_timed(RT_QUEUE *queue, void *buf, size_t size,
			    const struct timespec *abs_timeout);
ssize_t rt_queue_read_until(RT_QUEUE *queue, void *buf, size_t size,
			    RTIME timeout);
ssize_t rt_queue_read(RT_QUEUE *queue, void *buf, size_t size, RTIME timeout);
/** @} */
/** Discard every queued message; returns how many.  -EINVAL. */
int rt_queue_flush(RT_QUEUE *queue);
/** Status of @p queue.  -EINVAL (bad descriptor, NULL info). */
int rt_queue_inquire(RT_QUEUE *queue, RT_QUEUE_INFO *info);
/**
 * Find a queue by name, waiting up to @p timeout for its creation.
 * Errors: -EINVAL, -EWOULDBLOCK, -ETIMEDOUT, -EINTR, -EPERM.
 */
int rt_queue_bind(RT_QUEUE *queue, const char *name, RTIME timeout);
/** Forget the binding (the queue lives on).  -EINVAL (NULL queue). */
int rt_queue_unbind(RT_QUEUE *queue);

#ifdef __cplusplus
}
#endif

#endif
