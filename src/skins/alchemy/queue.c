/*
 * Alchemy message queues over a nucleus heap (the message pool) and
 * nucleus synchs (one per waiting receiver).
 *
 * A message is a pool block: a header, then the payload the user sees.
 * Its reference count says who may free it: 1 while the sender owns it
 * (after rt_queue_alloc), 0 while it sits in the queue, one per
 * receiver holding it after a receive (a broadcast shares one block
 * among all the receivers it woke).  Readers never hold a reference:
 * the payload is copied into their buffer, by the sender when it finds
 * them waiting (then the message needs no pool space at all).
 *
 * Each waiting receiver sleeps alone on the private synch of a record
 * linked on the queue in service order (arrival, or priority then
 * arrival with Q_PRIO).  The sender fills the record of the receiver
 * it wakes, so the hand-over is atomic under the nucleus lock.
 * Records belong to the queue, never to a waiter's stack: a task
 * deleted while it waits leaves its record behind (its synch has no
 * sleeper any more, and senders skip it) until the queue is deleted.
 * Records are made with the queue and recycled: only a queue with more
 * simultaneous waiters than it was made for allocates in a wait.
 */
#include <alchemy/queue.h>

#include "internal.h"

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

/* Wait records made with the queue, enough for most uses. */
#define QUEUE_SPARE_RECORDS 4

struct queue_wait {
	struct nk_list link;   /* queue's waiters (service order) or spare */
	struct nk_synch synch; /* the receiver sleeps here, alone */
	int prio;	       /* its priority when it started waiting */
	bool reader;	       /* rt_queue_read: copy into buf */
	void *buf;	       /* reader's buffer */
	size_t bufsz;	       /* and its size */
	struct queue_msg *msg; /* out, receivers: the message */
	ssize_t result;	       /* out: size received or bytes copied */
};

struct alchemy_queue {
	struct nk_list waiters; /* struct queue_wait, next served first */
	struct nk_list spare;	/* records free for the next waits */
	struct nk_heap heap;
	void *pool;
	struct nk_list msgs; /* queued messages, head first */
	unsigned int mcount;
	size_t qlimit;
	size_t poolsize;
	int mode;
	char name[XNOBJECT_NAME_LEN];
};

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
 * A record for one more waiter.  Allocated where a mode switch does no
 * harm (creation), or, past the records made there, by the waiter
 * itself: malloc may enter Linux and relax it.
 */
static struct queue_wait *record_alloc(struct nk_instance *nk, const char *name)
{
	struct queue_wait *w = malloc(sizeof(*w));

	if (w && nk_synch_init(nk, &w->synch, name, NK_SYNCH_FIFO, 0)) {
		free(w);
		w = NULL;
	}
	return w;
}

/* Free a list of records; sleepers wake with -EIDRM.  Lock held. */
static void records_free(struct nk_list *list)
{
	while (!nk_list_empty(list)) {
		struct queue_wait *w =
		    nk_list_first_entry(list, struct queue_wait, link);

		nk_list_del(&w->link);
		nk_synch_destroy_locked(&w->synch);
		free(w);
	}
}

static void queue_free(struct alchemy_queue *q)
{
	free(q->pool);
	free(q);
}

int rt_queue_create(RT_QUEUE *queue, const char *name, size_t poolsize,
		    size_t qlimit, int mode)
{
	struct nk_instance *nk;
	struct alchemy_queue *q;
	size_t bytes;
	int ret;

	if (queue == NULL || poolsize == 0 || (mode & ~Q_PRIO) != 0)
		return -EINVAL;
	if (name && strlen(name) >= XNOBJECT_NAME_LEN)
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	/* As Xenomai: objects are made by tasks, not foreign threads. */
	if (nk_thread_self(nk) == NULL)
		return -EPERM;
	bytes = pool_bytes(poolsize, qlimit);
	if (bytes == 0)
		return -ENOMEM;
	q = calloc(1, sizeof(*q));
	if (q == NULL)
		return -ENOMEM;
	q->pool = malloc(bytes);
	if (q->pool == NULL || nk_heap_init(&q->heap, q->pool, bytes)) {
		queue_free(q);
		return -ENOMEM;
	}
	nk_list_init(&q->waiters);
	nk_list_init(&q->spare);
	nk_list_init(&q->msgs);
	q->qlimit = qlimit;
	q->poolsize = poolsize;
	q->mode = mode;
	strcpy(q->name, name && name[0] ? name : "queue");
	for (int i = 0; i < QUEUE_SPARE_RECORDS; i++) {
		struct queue_wait *w = record_alloc(nk, q->name);

		if (w == NULL) {
			ret = -ENOMEM;
			break;
		}
		nk_list_add_before(&w->link, &q->spare);
	}

	nk_lock(nk);
	if (ret == 0)
		ret = alchemy_register(ALCHEMY_QUEUE, name, q, &queue->handle);
	if (ret)
		records_free(&q->spare);
	nk_unlock(nk);
	if (ret)
		queue_free(q);
	return ret;
}

/* Enter the skin, lock, and find the queue; on error, unlocked. */
static int queue_get(RT_QUEUE *queue, struct nk_instance **nk,
		     struct alchemy_queue **q)
{
	int ret;

	if (queue == NULL)
		return -EINVAL;
	ret = alchemy_enter(nk);
	if (ret)
		return ret;
	nk_lock(*nk);
	ret = alchemy_lookup(ALCHEMY_QUEUE, queue->handle, (void **)q);
	if (ret)
		nk_unlock(*nk);
	return ret;
}

int rt_queue_delete(RT_QUEUE *queue)
{
	struct nk_instance *nk;
	struct alchemy_queue *q;
	int ret;

	ret = queue_get(queue, &nk, &q);
	if (ret)
		return ret;
	alchemy_unregister(ALCHEMY_QUEUE, queue->handle);
	records_free(&q->waiters);
	records_free(&q->spare);
	nk_heap_destroy(&q->heap);
	queue_free(q);
	nk_sched_run(nk);
	nk_unlock(nk);
	return 0;
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
	return msg;
}

/* Give the block back once nobody refers to it any more. */
static void msg_release(struct alchemy_queue *q, struct queue_msg *msg)
{
	if (msg->refcount == 0 && !msg->queued)
		nk_heap_free(&q->heap, msg);
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

	if (queue_get(queue, &nk, &q))
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
	ret = queue_get(queue, &nk, &q);
	if (ret)
		return ret;
	msg = msg_of(q, buf, NULL);
	/* A queued message belongs to the queue, not to the caller. */
	if (msg == NULL || msg->refcount == 0) {
		ret = -EINVAL;
	} else {
		msg->refcount--;
		msg_release(q, msg);
	}
	nk_unlock(nk);
	return ret;
}

static bool waiting(struct queue_wait *w)
{
	return nk_synch_nr_waiters(&w->synch) > 0;
}

/* Receivers actually asleep (records of deleted tasks do not count). */
static unsigned int nr_waiting(struct alchemy_queue *q, bool *readers_only)
{
	unsigned int n = 0;
	struct nk_list *pos;

	*readers_only = true;
	nk_list_for_each(pos, &q->waiters)
	{
		struct queue_wait *w =
		    nk_list_entry(pos, struct queue_wait, link);

		if (waiting(w)) {
			n++;
			*readers_only = *readers_only && w->reader;
		}
	}
	return n;
}

/*
 * Give a message (@size bytes at @data, in @msg if not NULL) to @w: a
 * copy for a reader, a reference for a receiver.
 */
static ssize_t hand_over(struct queue_wait *w, struct queue_msg *msg,
			 const void *data, size_t size)
{
	if (w->reader) {
		if (size > w->bufsz)
			size = w->bufsz;
		if (size)
			memcpy(w->buf, data, size);
		return (ssize_t)size;
	}
	msg->refcount++;
	w->msg = msg;
	return (ssize_t)size;
}

/*
 * Deliver to the next receiver, or to all with Q_BROADCAST; returns how
 * many woke.  @msg may be NULL only when every waiter is a reader.
 */
static int deliver(struct alchemy_queue *q, struct queue_msg *msg,
		   const void *data, size_t size, int mode)
{
	struct nk_list *pos, *tmp;
	int n = 0;

	nk_list_for_each_safe(pos, tmp, &q->waiters)
	{
		struct queue_wait *w =
		    nk_list_entry(pos, struct queue_wait, link);

		/* No sleeper: timed out (it unlinks itself) or deleted. */
		if (nk_synch_wakeup_one(&w->synch) == NULL)
			continue;
		nk_list_del(&w->link);
		w->result = hand_over(w, msg, data, size);
		n++;
		if (!(mode & Q_BROADCAST))
			break;
	}
	return n;
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
	bool readers_only;
	size_t capacity;
	int ret;

	if (buf == NULL || (mode & ~(Q_URGENT | Q_BROADCAST)) != 0)
		return -EINVAL;
	ret = queue_get(queue, &nk, &q);
	if (ret)
		return ret;
	msg = msg_of(q, buf, &capacity);
	/* Not owned (queued, freed) or shared and queued again already. */
	if (msg == NULL || msg->refcount == 0 || msg->queued ||
	    size > capacity) {
		ret = -EINVAL;
	} else if (!(mode & Q_BROADCAST) && queue_full(q) &&
		   nr_waiting(q, &readers_only) == 0) {
		ret = -ENOMEM;
	} else {
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
	unsigned int nwaiters;
	bool readers_only;
	int ret;

	if ((buf == NULL && size > 0) ||
	    (mode & ~(Q_URGENT | Q_BROADCAST)) != 0)
		return -EINVAL;
	ret = queue_get(queue, &nk, &q);
	if (ret)
		return ret;
	nwaiters = nr_waiting(q, &readers_only);
	if (nwaiters == 0 && (mode & Q_BROADCAST)) {
		ret = 0; /* nobody to broadcast to: nothing to keep */
		goto out;
	}
	if (nwaiters == 0 && queue_full(q)) {
		ret = -ENOMEM;
		goto out;
	}
	/* Readers get a copy straight from @buf; receivers need a block. */
	if (nwaiters == 0 || !readers_only) {
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
static ssize_t take_queued(struct alchemy_queue *q, struct queue_wait *req)
{
	struct queue_msg *msg =
	    nk_list_first_entry(&q->msgs, struct queue_msg, link);
	ssize_t ret;

	nk_list_del(&msg->link);
	msg->queued = 0;
	q->mcount--;
	ret = hand_over(req, msg, msg_payload(msg), msg->size);
	msg_release(q, msg);
	return ret;
}

static void wait_enqueue(struct alchemy_queue *q, struct queue_wait *w)
{
	struct nk_list *pos;

	if (q->mode & Q_PRIO) {
		nk_list_for_each(pos, &q->waiters)
		{
			if (nk_list_entry(pos, struct queue_wait, link)->prio <
			    w->prio) {
				nk_list_add_before(&w->link, pos);
				return;
			}
		}
	}
	nk_list_add_before(&w->link, &q->waiters);
}

/*
 * Sleep on a spare record until a sender serves it.  Lock held, on
 * return too.  The queue may be gone when we run again: deleted (the
 * record went with it, unless a sender had taken it off the list:
 * then it is ours to free).
 */
static ssize_t queue_block(struct nk_instance *nk, uintptr_t handle,
			   struct alchemy_queue *q, struct queue_wait *req,
			   nk_time_t timeout, enum nk_tmode tmode)
{
	struct queue_wait *w =
	    nk_list_first_entry(&q->spare, struct queue_wait, link);
	void *again;
	int ret;

	nk_list_del(&w->link);
	w->reader = req->reader;
	w->buf = req->buf;
	w->bufsz = req->bufsz;
	w->msg = NULL;
	w->prio = nk_thread_effective_priority(nk_thread_self(nk));
	wait_enqueue(q, w);
	ret = nk_synch_sleep(&w->synch, timeout, tmode);
	if (alchemy_lookup(ALCHEMY_QUEUE, handle, &again) || again != q) {
		if (ret)
			return ret;
		nk_synch_destroy_locked(&w->synch);
		free(w);
		return -EIDRM;
	}
	if (ret == 0) {
		req->msg = w->msg;
		req->result = w->result;
	} else {
		nk_list_del(&w->link);
	}
	nk_list_add_before(&w->link, &q->spare);
	return ret ? ret : req->result;
}

/* The common body of every receive and read form. */
static ssize_t queue_take(RT_QUEUE *queue, struct queue_wait *req,
			  nk_time_t timeout, enum nk_tmode tmode)
{
	struct queue_wait *fresh = NULL;
	char name[XNOBJECT_NAME_LEN];
	struct nk_instance *nk;
	struct alchemy_queue *q;
	ssize_t ret;

	for (;;) {
		ret = queue_get(queue, &nk, &q);
		if (ret)
			break;
		if (fresh)
			nk_list_add_before(&fresh->link, &q->spare);
		fresh = NULL;
		if (!nk_list_empty(&q->msgs)) {
			ret = take_queued(q, req);
		} else if (alchemy_nonblock(timeout, tmode)) {
			ret = -EWOULDBLOCK;
		} else if (!nk_list_empty(&q->spare)) {
			ret = queue_block(nk, queue->handle, q, req, timeout,
					  tmode);
		} else {
			/* Allocate outside the lock, then start over. */
			strcpy(name, q->name);
			nk_unlock(nk);
			fresh = record_alloc(nk, name);
			if (fresh == NULL)
				return -ENOMEM;
			continue;
		}
		nk_unlock(nk);
		break;
	}
	/* The queue went away while we allocated. */
	if (fresh) {
		nk_synch_destroy(&fresh->synch);
		free(fresh);
	}
	return ret;
}

static ssize_t queue_receive(RT_QUEUE *queue, void **bufp, nk_time_t timeout,
			     enum nk_tmode tmode)
{
	struct queue_wait req = {.reader = false};
	ssize_t ret;

	if (bufp == NULL)
		return -EINVAL;
	ret = queue_take(queue, &req, timeout, tmode);
	if (ret >= 0)
		*bufp = msg_payload(req.msg);
	return ret;
}

ssize_t rt_queue_receive_timed(RT_QUEUE *queue, void **bufp,
			       const struct timespec *abs_timeout)
{
	enum nk_tmode tmode;
	nk_time_t timeout;
	int ret;

	ret = alchemy_timespec(abs_timeout, &timeout, &tmode);
	if (ret)
		return ret;
	return queue_receive(queue, bufp, timeout, tmode);
}

ssize_t rt_queue_receive_until(RT_QUEUE *queue, void **bufp, RTIME timeout)
{
	enum nk_tmode tmode;
	nk_time_t nkto;

	alchemy_abs(timeout, &nkto, &tmode);
	return queue_receive(queue, bufp, nkto, tmode);
}

ssize_t rt_queue_receive(RT_QUEUE *queue, void **bufp, RTIME timeout)
{
	enum nk_tmode tmode;
	nk_time_t nkto;

	alchemy_rel(timeout, &nkto, &tmode);
	return queue_receive(queue, bufp, nkto, tmode);
}

static ssize_t queue_read(RT_QUEUE *queue, void *buf, size_t size,
			  nk_time_t timeout, enum nk_tmode tmode)
{
	struct queue_wait req = {.reader = true, .buf = buf, .bufsz = size};
	struct nk_instance *nk;
	struct alchemy_queue *q;
	int ret;

	if (buf == NULL && size > 0)
		return -EINVAL;
	if (size > 0)
		return queue_take(queue, &req, timeout, tmode);
	/* As Xenomai: an empty read consumes nothing. */
	ret = queue_get(queue, &nk, &q);
	if (ret == 0)
		nk_unlock(nk);
	return ret;
}

ssize_t rt_queue_read_timed(RT_QUEUE *queue, void *buf, size_t size,
			    const struct timespec *abs_timeout)
{
	enum nk_tmode tmode;
	nk_time_t timeout;
	int ret;

	ret = alchemy_timespec(abs_timeout, &timeout, &tmode);
	if (ret)
		return ret;
	return queue_read(queue, buf, size, timeout, tmode);
}

ssize_t rt_queue_read_until(RT_QUEUE *queue, void *buf, size_t size,
			    RTIME timeout)
{
	enum nk_tmode tmode;
	nk_time_t nkto;

	alchemy_abs(timeout, &nkto, &tmode);
	return queue_read(queue, buf, size, nkto, tmode);
}

ssize_t rt_queue_read(RT_QUEUE *queue, void *buf, size_t size, RTIME timeout)
{
	enum nk_tmode tmode;
	nk_time_t nkto;

	alchemy_rel(timeout, &nkto, &tmode);
	return queue_read(queue, buf, size, nkto, tmode);
}

int rt_queue_flush(RT_QUEUE *queue)
{
	struct nk_instance *nk;
	struct alchemy_queue *q;
	int ret;

	ret = queue_get(queue, &nk, &q);
	if (ret)
		return ret;
	ret = (int)q->mcount;
	while (!nk_list_empty(&q->msgs)) {
		struct queue_msg *msg =
		    nk_list_first_entry(&q->msgs, struct queue_msg, link);

		nk_list_del(&msg->link);
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
	bool readers_only;
	int ret;

	if (info == NULL)
		return -EINVAL;
	ret = queue_get(queue, &nk, &q);
	if (ret)
		return ret;
	nk_heap_stats(&q->heap, &stats);
	info->nwaiters = (int)nr_waiting(q, &readers_only);
	info->nmessages = (int)q->mcount;
	info->mode = q->mode;
	info->qlimit = q->qlimit;
	info->poolsize = q->poolsize;
	info->usedmem = stats.used;
	alchemy_name(ALCHEMY_QUEUE, queue->handle, info->name);
	nk_unlock(nk);
	return 0;
}

int rt_queue_bind(RT_QUEUE *queue, const char *name, RTIME timeout)
{
	struct nk_instance *nk;
	enum nk_tmode tmode;
	nk_time_t nkto;
	int ret;

	if (queue == NULL)
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	alchemy_rel(timeout, &nkto, &tmode);
	nk_lock(nk);
	ret = alchemy_bind(ALCHEMY_QUEUE, name, &queue->handle, nkto, tmode);
	nk_unlock(nk);
	return ret;
}

int rt_queue_unbind(RT_QUEUE *queue)
{
	if (queue == NULL)
		return -EINVAL;
	queue->handle = 0;
	return 0;
}
