/* SPDX-License-Identifier: MIT */
/*
 * Alchemy message queues over a nucleus heap (the message pool) and a
 * nucleus synch (the waiting receivers).
 *
 * A message is a pool block: a header, then the payload the user sees.
 * Its reference count says who may free it: 1 while the sender owns it
 * (after rt_queue_alloc), 0 while it sits in the queue, one per
 * receiver holding it after a receive (a broadcast shares one block
 * among all the receivers it woke).  Readers never hold a reference:
 * the payload is copied into their buffer, by the sender when it finds
 * them waiting (then the message needs no pool space at all).
 *
 * Each waiting receiver sleeps with its request as wait context
 * (skin.h) in service order (arrival, or priority then arrival with
 * Q_PRIO).  The sender fills the request of the receiver it wakes, so
 * the hand-over is atomic under the nucleus lock.  A message handed to
 * a receiver whose task is deleted before it runs keeps its reference:
 * its block stays in use until the queue is deleted.
 */
#include "internal.h"

#include <alchemy/queue.h>

#include <stdlib.h>
#include <string.h>

struct queue_msg {
	struct nk_list link; /* in the queue while queued */
	size_t size;	     /* payload bytes sent */
	unsigned int refcount;
	unsigned int queued;
};

/* The payload must keep the pool's alignment. */
_Static_assert(sizeof(struct queue_msg) % NK_HEAP_ALIGN == 0,
	       "message header breaks payload alignment");

/*
 * Bound on what the nucleus heap spends per block (its header and the
 * rounding of the size): the pool gets this much extra per message
 * it must be able to hold.
 */
#define QUEUE_BLOCK_OVERHEAD 64

/* What a receiver asks for, and gets: its wait context. */
struct queue_req {
	bool reader;	       /* rt_queue_read: copy into buf */
	void *buf;	       /* reader's buffer */
	size_t bufsz;	       /* and its size */
	struct queue_msg *msg; /* out, receivers: the message */
	ssize_t result;	       /* out: size received or bytes copied */
};

struct alchemy_queue {
	struct nk_synch synch; /* receivers, with a struct queue_req */
	struct nk_heap heap;
	void *pool;
	struct nk_list msgs; /* queued messages, head first */
	unsigned int mcount;
	size_t qlimit;
	size_t poolsize;
	int mode;
};

void alchemy_queue_describe(const void *object, struct nk_object_info *info)
{
	const struct alchemy_queue *q = object;

	info->count = (long)q->mcount;
	info->capacity = q->qlimit == Q_UNLIMITED ? 0 : (long)q->qlimit;
	info->waiters = &q->synch;
}

static void *msg_payload(struct queue_msg *msg)
{
	return msg + 1;
}

/* Pool bytes that hold what rt_queue_create() promises, 0 on overflow. */
static size_t pool_bytes(size_t poolsize, size_t qlimit)
{
	size_t per_msg, bytes;

	if (qlimit == Q_UNLIMITED) {
		bytes = poolsize + poolsize / 20;
		if (bytes < poolsize ||
		    bytes > SIZE_MAX - 2 * QUEUE_BLOCK_OVERHEAD)
			return 0;
		return bytes + 2 * QUEUE_BLOCK_OVERHEAD;
	}
	per_msg = poolsize / qlimit;
	if (per_msg >
	    SIZE_MAX - sizeof(struct queue_msg) - QUEUE_BLOCK_OVERHEAD)
		return 0;
	per_msg += sizeof(struct queue_msg) + QUEUE_BLOCK_OVERHEAD;
	if (qlimit > (SIZE_MAX - QUEUE_BLOCK_OVERHEAD) / per_msg)
		return 0;
	return qlimit * per_msg + QUEUE_BLOCK_OVERHEAD;
}

/*
 * Also what a failed creation releases: a pool never set up is zeroed,
 * which nk_heap_destroy() refuses harmlessly.  The messages are pool
 * blocks: they go with it.  Lock held or not.
 */
void alchemy_queue_reclaim(struct nk_instance *nk, void *object)
{
	struct alchemy_queue *q = object;

	nk_heap_destroy(&q->heap);
	skin_wait_destroy(nk, &q->synch);
	nk_free(nk, q->pool);
	nk_free(nk, q);
}

/* The wait queue and the pool. */
static int queue_prepare(struct nk_instance *nk, void *object,
			 const char *wname)
{
	struct alchemy_queue *q = object;
	size_t bytes = pool_bytes(q->poolsize, q->qlimit);
	int ret = skin_wait_init(nk, &q->synch, wname, q->mode & Q_PRIO);

	if (ret)
		return ret;
	/* bytes 0: a pool the process cannot have. */
	q->pool = bytes ? nk_alloc(nk, bytes) : NULL;
	if (q->pool == NULL || nk_heap_init(&q->heap, q->pool, bytes))
		return -ENOMEM;
	return 0;
}

int rt_queue_create(RT_QUEUE *queue, const char *name, size_t poolsize,
		    size_t qlimit, int mode)
{
	struct nk_instance *nk;
	struct alchemy_queue *q;
	int ret;

	if (queue == NULL || poolsize == 0 || (mode & ~Q_PRIO) != 0)
		return -EINVAL;
	ret = alchemy_waitable_alloc(name, sizeof(*q), &nk, (void **)&q);
	if (ret)
		return ret;
	nk_list_init(&q->msgs);
	q->qlimit = qlimit;
	q->poolsize = poolsize;
	q->mode = mode;
	return skin_create(alchemy(), ALCHEMY_QUEUE, name, q, queue_prepare,
			   alchemy_queue_reclaim, &queue->handle);
}

int rt_queue_delete(RT_QUEUE *queue)
{
	return alchemy_delete(ALCHEMY_QUEUE, alchemy_handle(queue), NULL);
}

static struct queue_msg *msg_alloc(struct alchemy_queue *q, size_t size)
{
	struct queue_msg *msg;

	if (size > SIZE_MAX - sizeof(*msg) ||
	    nk_heap_alloc(&q->heap, sizeof(*msg) + size, (void **)&msg))
		return NULL;
	msg->size = size;
	msg->refcount = 0;
	msg->queued = 0;
	nk_list_init(&msg->link);
	/* The payload is the user's, written and read without the lock. */
	nk_journal_data(msg + 1, size, true);
	return msg;
}

/* Give the block back once nobody refers to it any more. */
static void msg_release(struct alchemy_queue *q, struct queue_msg *msg)
{
	if (msg->refcount == 0 && !msg->queued) {
		nk_journal_data(msg + 1, 0, false);
		nk_heap_free(&q->heap, msg);
	}
}

/*
 * The message whose payload is @buf, and the payload capacity, or NULL
 * when @buf is not a live block of @q.  Arithmetic on integers: @buf
 * may be anything.
 */
static struct queue_msg *msg_of(struct alchemy_queue *q, const void *buf,
				size_t *capacity)
{
	uintptr_t p = (uintptr_t)buf;
	size_t size;

	if (p < sizeof(struct queue_msg))
		return NULL;
	p -= sizeof(struct queue_msg);
	if (nk_heap_size(&q->heap, (void *)p, &size))
		return NULL;
	if (capacity)
		*capacity = size - sizeof(struct queue_msg);
	return (struct queue_msg *)p;
}

void *rt_queue_alloc(RT_QUEUE *queue, size_t size)
{
	struct nk_instance *nk;
	struct alchemy_queue *q;
	struct queue_msg *msg;

	if (alchemy_get(ALCHEMY_QUEUE, alchemy_handle(queue), &nk, (void **)&q))
		return NULL;
	msg = msg_alloc(q, size);
	if (msg)
		msg->refcount = 1;
	nk_unlock(nk);
	return msg ? msg_payload(msg) : NULL;
}

int rt_queue_free(RT_QUEUE *queue, void *buf)
{
	struct nk_instance *nk;
	struct alchemy_queue *q;
	struct queue_msg *msg;
	int ret;

	if (buf == NULL)
		return -EINVAL;
	ret =
	    alchemy_get(ALCHEMY_QUEUE, alchemy_handle(queue), &nk, (void **)&q);
	if (ret)
		return ret;
	msg = msg_of(q, buf, NULL);
	/* A queued message belongs to the queue, not to the caller. */
	if (msg == NULL || msg->refcount == 0) {
		ret = -EINVAL;
	} else {
		nk_journal_obj(msg);
		msg->refcount--;
		msg_release(q, msg);
	}
	nk_unlock(nk);
	return ret;
}

/* Whether every waiting receiver is a reader (rt_queue_read). */
static bool readers_only(struct alchemy_queue *q)
{
	struct nk_thread *t = NULL;

	while ((t = nk_synch_next_waiter(&q->synch, t)) != NULL) {
		struct queue_req *req = nk_synch_waiter_ctx(t);

		if (!req->reader)
			return false;
	}
	return true;
}

/*
 * Give a message (@size bytes at @data, in @msg if not NULL) to @req,
 * waiter @to's (NULL: the caller's): a copy into its buffer for a
 * reader (in the waiter's process), a reference for a receiver.
 */
static ssize_t hand_over(struct nk_thread *to, struct queue_req *req,
			 struct queue_msg *msg, const void *data, size_t size)
{
	if (req->reader) {
		int ret;

		if (size > req->bufsz)
			size = req->bufsz;
		ret = to ? nk_thread_copy_to(to, req->buf, data, size) : 0;
		if (to == NULL && size)
			memcpy(req->buf, data, size);
		return ret ? ret : (ssize_t)size;
	}
	nk_journal_obj(msg);
	msg->refcount++;
	req->msg = msg;
	return (ssize_t)size;
}

/* A message on its way to the waiting receivers. */
struct delivery {
	struct queue_msg *msg;
	const void *data;
	size_t size;
};

static bool deliver_one(struct nk_thread *waiter, void *ctx, void *arg)
{
	struct queue_req *req = ctx;
	struct delivery *d = arg;

	req->result = hand_over(waiter, req, d->msg, d->data, d->size);
	return true;
}

/*
 * Deliver to the next receiver, or to all with Q_BROADCAST; returns how
 * many woke.  @msg may be NULL only when every waiter is a reader.
 */
static int deliver(struct alchemy_queue *q, struct queue_msg *msg,
		   const void *data, size_t size, int mode)
{
	struct delivery d = {.msg = msg, .data = data, .size = size};

	return skin_wait_serve_locked(&q->synch, deliver_one, &d,
				      mode & Q_BROADCAST);
}

static bool queue_full(struct alchemy_queue *q)
{
	return q->qlimit != Q_UNLIMITED && q->mcount >= q->qlimit;
}

/*
 * Deliver @msg (sender's reference already dropped) or queue it when
 * nobody waits; a Q_BROADCAST message nobody took is discarded.
 */
static int post(struct nk_instance *nk, struct alchemy_queue *q,
		struct queue_msg *msg, const void *data, size_t size, int mode)
{
	int n = deliver(q, msg, data, size, mode);

	if (n == 0 && !(mode & Q_BROADCAST)) {
		nk_journal_obj(msg);
		msg->queued = 1;
		if (mode & Q_URGENT)
			nk_list_add_after(&msg->link, &q->msgs);
		else
			nk_list_add_before(&msg->link, &q->msgs);
		q->mcount++;
	} else if (msg) {
		msg_release(q, msg);
	}
	nk_sched_run(nk);
	return n;
}

int rt_queue_send(RT_QUEUE *queue, const void *buf, size_t size, int mode)
{
	struct nk_instance *nk;
	struct alchemy_queue *q;
	struct queue_msg *msg;
	size_t capacity;
	int ret;

	if (buf == NULL || (mode & ~(Q_URGENT | Q_BROADCAST)) != 0)
		return -EINVAL;
	ret =
	    alchemy_get(ALCHEMY_QUEUE, alchemy_handle(queue), &nk, (void **)&q);
	if (ret)
		return ret;
	msg = msg_of(q, buf, &capacity);
	/* Not owned (queued, freed) or shared and queued again already. */
	if (msg == NULL || msg->refcount == 0 || msg->queued ||
	    size > capacity) {
		ret = -EINVAL;
	} else if (!(mode & Q_BROADCAST) && queue_full(q) &&
		   nk_synch_nr_waiters(&q->synch) == 0) {
		ret = -ENOMEM;
	} else {
		nk_journal_obj(msg);
		msg->refcount--;
		msg->size = size;
		ret = post(nk, q, msg, buf, size, mode);
	}
	nk_unlock(nk);
	return ret;
}

int rt_queue_write(RT_QUEUE *queue, const void *buf, size_t size, int mode)
{
	struct queue_msg *msg = NULL;
	struct nk_instance *nk;
	struct alchemy_queue *q;
	int nwaiters;
	int ret;

	if ((buf == NULL && size > 0) ||
	    (mode & ~(Q_URGENT | Q_BROADCAST)) != 0)
		return -EINVAL;
	ret =
	    alchemy_get(ALCHEMY_QUEUE, alchemy_handle(queue), &nk, (void **)&q);
	if (ret)
		return ret;
	nwaiters = (int)nk_synch_nr_waiters(&q->synch);
	if (nwaiters == 0 && (mode & Q_BROADCAST)) {
		ret = 0; /* nobody to broadcast to: nothing to keep */
		goto out;
	}
	if (nwaiters == 0 && queue_full(q)) {
		ret = -ENOMEM;
		goto out;
	}
	/* Waiting readers need no block, but what the pool could never
	 * hold is refused all the same (they would copy that much). */
	if (size > pool_bytes(q->poolsize, q->qlimit)) {
		ret = -ENOMEM;
		goto out;
	}
	/* Readers get a copy straight from @buf; receivers need a block. */
	if (nwaiters == 0 || !readers_only(q)) {
		msg = msg_alloc(q, size);
		if (msg == NULL) {
			ret = -ENOMEM;
			goto out;
		}
		if (size)
			memcpy(msg_payload(msg), buf, size);
	}
	ret = post(nk, q, msg, buf, size, mode);
out:
	nk_unlock(nk);
	return ret;
}

/* Take the head message for @req (the caller, who did not wait). */
static ssize_t take_queued(struct alchemy_queue *q, struct queue_req *req)
{
	struct queue_msg *msg =
	    nk_list_first_entry(&q->msgs, struct queue_msg, link);
	ssize_t ret;

	nk_list_del(&msg->link);
	nk_journal_obj(msg);
	msg->queued = 0;
	q->mcount--;
	ret = hand_over(NULL, req, msg, msg_payload(msg), msg->size);
	msg_release(q, msg);
	return ret;
}

/* The common body of every receive and read form. */
static ssize_t queue_take(RT_QUEUE *queue, struct queue_req *req,
			  struct skin_timeout to)
{
	struct alchemy_queue *q;
	struct nk_instance *nk;
	ssize_t ret;

	ret =
	    alchemy_get(ALCHEMY_QUEUE, alchemy_handle(queue), &nk, (void **)&q);
	if (ret)
		return ret;
	if (!nk_list_empty(&q->msgs)) {
		ret = take_queued(q, req);
	} else if (skin_nonblocking(to)) {
		ret = -EWOULDBLOCK;
	} else {
		ret = skin_wait_sleep_locked(alchemy(), ALCHEMY_QUEUE,
					     queue->handle, q, &q->synch, req,
					     sizeof(*req), to);
		if (ret == 0)
			ret = req->result;
	}
	nk_unlock(nk);
	return ret;
}

static ssize_t queue_receive(RT_QUEUE *queue, void **bufp,
			     struct skin_timeout to)
{
	struct queue_req req = {.reader = false};
	ssize_t ret;

	if (to.error)
		return to.error;
	if (bufp == NULL)
		return -EINVAL;
	ret = queue_take(queue, &req, to);
	if (ret >= 0)
		*bufp = msg_payload(req.msg);
	return ret;
}

ssize_t rt_queue_receive_timed(RT_QUEUE *queue, void **bufp,
			       const struct timespec *abs_timeout)
{
	return queue_receive(queue, bufp, skin_timespec(abs_timeout));
}

ssize_t rt_queue_receive_until(RT_QUEUE *queue, void **bufp, RTIME timeout)
{
	return queue_receive(queue, bufp, alchemy_abs(timeout));
}

ssize_t rt_queue_receive(RT_QUEUE *queue, void **bufp, RTIME timeout)
{
	return queue_receive(queue, bufp, alchemy_rel(timeout));
}

static ssize_t queue_read(RT_QUEUE *queue, void *buf, size_t size,
			  struct skin_timeout to)
{
	struct queue_req req = {.reader = true, .buf = buf, .bufsz = size};
	struct nk_instance *nk;
	struct alchemy_queue *q;
	int ret;

	if (to.error)
		return to.error;
	if (buf == NULL && size > 0)
		return -EINVAL;
	if (size > 0)
		return queue_take(queue, &req, to);
	/* As Xenomai: an empty read consumes nothing. */
	ret =
	    alchemy_get(ALCHEMY_QUEUE, alchemy_handle(queue), &nk, (void **)&q);
	if (ret == 0)
		nk_unlock(nk);
	return ret;
}

ssize_t rt_queue_read_timed(RT_QUEUE *queue, void *buf, size_t size,
			    const struct timespec *abs_timeout)
{
	return queue_read(queue, buf, size, skin_timespec(abs_timeout));
}

ssize_t rt_queue_read_until(RT_QUEUE *queue, void *buf, size_t size,
			    RTIME timeout)
{
	return queue_read(queue, buf, size, alchemy_abs(timeout));
}

ssize_t rt_queue_read(RT_QUEUE *queue, void *buf, size_t size, RTIME timeout)
{
	return queue_read(queue, buf, size, alchemy_rel(timeout));
}

int rt_queue_flush(RT_QUEUE *queue)
{
	struct nk_instance *nk;
	struct alchemy_queue *q;
	int ret;

	ret =
	    alchemy_get(ALCHEMY_QUEUE, alchemy_handle(queue), &nk, (void **)&q);
	if (ret)
		return ret;
	ret = (int)q->mcount;
	while (!nk_list_empty(&q->msgs)) {
		struct queue_msg *msg =
		    nk_list_first_entry(&q->msgs, struct queue_msg, link);

		nk_list_del(&msg->link);
		nk_journal_obj(msg);
		msg->queued = 0;
		msg_release(q, msg);
	}
	q->mcount = 0;
	nk_unlock(nk);
	return ret;
}

int rt_queue_inquire(RT_QUEUE *queue, RT_QUEUE_INFO *info)
{
	struct nk_heap_stats stats;
	struct nk_instance *nk;
	struct alchemy_queue *q;
	int ret;

	if (info == NULL)
		return -EINVAL;
	ret =
	    alchemy_get(ALCHEMY_QUEUE, alchemy_handle(queue), &nk, (void **)&q);
	if (ret)
		return ret;
	nk_heap_stats(&q->heap, &stats);
	info->nwaiters = (int)nk_synch_nr_waiters(&q->synch);
	info->nmessages = (int)q->mcount;
	info->mode = q->mode;
	info->qlimit = q->qlimit;
	info->poolsize = q->poolsize;
	info->usedmem = stats.used;
	alchemy_name(queue->handle, info->name);
	nk_unlock(nk);
	return 0;
}

int rt_queue_bind(RT_QUEUE *queue, const char *name, RTIME timeout)
{
	return alchemy_bind(ALCHEMY_QUEUE, alchemy_handle(queue), name,
			    timeout);
}

int rt_queue_unbind(RT_QUEUE *queue)
{
	return skin_unbind(alchemy_handle(queue));
}
