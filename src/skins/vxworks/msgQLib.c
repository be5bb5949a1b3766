/* SPDX-License-Identifier: MIT */
/*
 * VxWorks message queues: a ring of fixed-size slots in the queue's own
 * memory, and two wait queues (receivers, senders) ordered as the
 * queue's options say.  Receivers wait only while the ring is empty,
 * senders only while it is full, so a send serves the first waiting
 * receiver directly (copied into its buffer under the lock), and a
 * receive that frees a slot moves the first waiting sender's message
 * into the ring.  A waiter's buffer is in its own process, another one
 * in a session: the copies go through nk_thread_copy_to() and _from().  Every
 * message is thus handed over exactly once, and normal messages keep their
 * order; urgent ones enter at the head.
 */
#include "internal.h"

#include <errno.h>
#include <string.h>

struct vx_msgq {
	int max_msgs;
	UINT max_len;
	size_t slot_size; /* a UINT length, then max_len bytes */
	char *slots;	  /* max_msgs slots */
	int head, count;  /* the ring */
	struct nk_synch receivers, senders;
	int options;
};

void vx_msgq_describe(const void *object, struct nk_object_info *info)
{
	const struct vx_msgq *q = object;

	info->count = q->count;
	info->capacity = q->max_msgs;
	info->waiters = &q->receivers;
	info->senders = &q->senders;
}

/* What a waiting receiver asks for, and is given. */
struct recv_req {
	char *buf;
	UINT max;
	UINT got;
	int err; /* the copy into @buf failed: a nucleus -errno */
};

/* What a waiting sender offers. */
struct send_req {
	const char *buf;
	UINT len;
	bool urgent;
	int err; /* the copy from @buf failed: a nucleus -errno */
};

static char *slot_at(struct vx_msgq *q, int index)
{
	return q->slots + (size_t)index * q->slot_size;
}

/* Put a message of @from (NULL: the caller) in the ring, which has
 * room; a message that could not be read from @from is not put.
 * Returns 0 or the copy's -errno.  Lock held. */
static int ring_put(struct vx_msgq *q, struct nk_thread *from,
		    const struct send_req *m)
{
	int index = m->urgent ? (q->head + q->max_msgs - 1) % q->max_msgs
			      : (q->head + q->count) % q->max_msgs;
	char *slot = slot_at(q, index);
	int ret = 0;

	nk_journal_save(slot, sizeof(UINT) + m->len);
	if (from)
		ret = nk_thread_copy_from(from, slot + sizeof(UINT), m->buf,
					  m->len);
	else if (m->len)
		memcpy(slot + sizeof(UINT), m->buf, m->len);
	if (ret)
		return ret;
	memcpy(slot, &m->len, sizeof(m->len));
	if (m->urgent)
		q->head = index;
	q->count++;
	return 0;
}

/* Take the head message into @r; the ring is not empty.  Lock held. */
static void ring_get(struct vx_msgq *q, struct recv_req *r)
{
	char *slot = slot_at(q, q->head);
	UINT len;

	memcpy(&len, slot, sizeof(len));
	r->got = len < r->max ? len : r->max;
	if (r->got)
		memcpy(r->buf, slot + sizeof(UINT), r->got);
	q->head = (q->head + 1) % q->max_msgs;
	q->count--;
}

/* A send to a waiting receiver (skin_wait_serve_locked()). */
static bool serve_receiver(struct nk_thread *waiter, void *ctx, void *arg)
{
	struct recv_req *r = ctx;
	const struct send_req *m = arg;

	r->got = m->len < r->max ? m->len : r->max;
	r->err = nk_thread_copy_to(waiter, r->buf, m->buf, r->got);
	return true;
}

/* A waiting sender's message into the slot just freed: a sender whose
 * buffer could not be read leaves the slot as it was. */
static bool serve_sender(struct nk_thread *waiter, void *ctx, void *arg)
{
	struct send_req *m = ctx;
	struct vx_msgq *q = arg;

	m->err = ring_put(q, waiter, m);
	return true;
}

static int msgq_setup(struct nk_instance *nk, void *object, const char *wname)
{
	struct vx_msgq *q = object;
	bool prio = q->options & MSG_Q_PRIORITY;
	int ret = skin_wait_init(nk, &q->receivers, wname, prio);

	if (ret == 0)
		ret = skin_wait_init(nk, &q->senders, wname, prio);
	/* Beyond the limit, refused before asking for it. */
	if (ret == 0 &&
	    (uint64_t)q->max_msgs * q->slot_size > VX_MSGQ_MAX_BYTES)
		ret = -ENOMEM;
	if (ret == 0) {
		q->slots = nk_alloc(nk, (size_t)q->max_msgs * q->slot_size);
		if (q->slots == NULL)
			ret = -ENOMEM;
	}
	return vx_error(ret);
}

void vx_msgq_reclaim(struct nk_instance *nk, void *object)
{
	struct vx_msgq *q = object;

	nk_synch_destroy_locked(&q->receivers);
	nk_synch_destroy_locked(&q->senders);
	nk_free(nk, q->slots);
	nk_free(nk, q);
}

MSG_Q_ID msgQCreate(int maxMsgs, int maxMsgLength, int options)
{
	struct nk_instance *nk;
	struct vx_msgq *q;
	uintptr_t id;
	int ret;

	if (options & ~MSG_Q_PRIORITY)
		ret = S_msgQLib_INVALID_QUEUE_TYPE;
	else if (maxMsgLength < 0)
		ret = S_msgQLib_INVALID_MSG_LENGTH;
	else if (maxMsgs < 1)
		ret = EINVAL;
	else
		ret = vx_object_alloc(sizeof(*q), &nk, (void **)&q);
	if (ret == 0) {
		q->max_msgs = maxMsgs;
		q->max_len = (UINT)maxMsgLength;
		q->slot_size = sizeof(UINT) + (size_t)maxMsgLength;
		q->options = options;
		ret = vx_create(VX_MSGQ, q, msgq_setup, vx_msgq_reclaim, &id);
	}
	vx_status(ret);
	return ret ? NULL : (MSG_Q_ID)id;
}

STATUS msgQDelete(MSG_Q_ID msgQId)
{
	return vx_status(vx_delete(VX_MSGQ, msgQId));
}

/* msgQSend() with the queue @q found, lock held. */
static int msgq_send(struct nk_instance *nk, struct vx_msgq *q, uintptr_t id,
		     struct send_req *m, int timeout)
{
	struct skin *sk = skin_state(&vxworks_skin);
	struct skin_timeout to;
	int ret;

	if (nk_in_interrupt(nk) && timeout != NO_WAIT)
		return S_msgQLib_NON_ZERO_TIMEOUT_AT_INT_LEVEL;
	if (m->len > q->max_len || (m->buf == NULL && m->len))
		return S_msgQLib_INVALID_MSG_LENGTH;
	if (skin_wait_serve_locked(&q->receivers, serve_receiver, m, false)) {
		nk_sched_run(nk);
		return 0;
	}
	if (q->count < q->max_msgs)
		return ring_put(q, NULL, m);
	/* Full: wait until a receive moves the message into the ring. */
	to = vx_timeout(sk, timeout);
	if (skin_nonblocking(to))
		return S_objLib_OBJ_UNAVAILABLE;
	ret = skin_wait_sleep_locked(sk, VX_MSGQ, id, q, &q->senders, m,
				     sizeof(*m), to);
	return vx_error(ret ? ret : m->err);
}

/* A send or a receive, for vx_wait(). */
struct msgq_call {
	MSG_Q_ID id;
	struct send_req m;
	struct recv_req r;
};

static int msgq_send_call(void *arg, int timeout)
{
	struct msgq_call *c = arg;
	struct nk_instance *nk;
	struct vx_msgq *q;
	int ret = vx_get(VX_MSGQ, c->id, &nk, (void **)&q);

	if (ret)
		return ret;
	ret = msgq_send(nk, q, (uintptr_t)c->id, &c->m, timeout);
	nk_unlock(nk);
	return ret;
}

STATUS msgQSend(MSG_Q_ID msgQId, const char *buffer, UINT nBytes, int timeout,
		int priority)
{
	struct msgq_call c = {
	    .id = msgQId, .m = {buffer, nBytes, priority == MSG_PRI_URGENT}};

	if (priority != MSG_PRI_NORMAL && priority != MSG_PRI_URGENT)
		return vx_fail(EINVAL);
	return vx_status(vx_wait(msgq_send_call, &c, timeout));
}

/* msgQReceive() with the queue @q found, lock held. */
static int msgq_receive(struct nk_instance *nk, struct vx_msgq *q, uintptr_t id,
			struct recv_req *r, int timeout)
{
	struct skin *sk = skin_state(&vxworks_skin);
	struct skin_timeout to;
	int ret;

	if (r->buf == NULL && r->max)
		return S_msgQLib_INVALID_MSG_LENGTH;
	if (q->count > 0) {
		ring_get(q, r);
		if (skin_wait_serve_locked(&q->senders, serve_sender, q, false))
			nk_sched_run(nk);
		return 0;
	}
	/* Empty: wait until a send hands a message over. */
	to = vx_timeout(sk, timeout);
	if (skin_nonblocking(to))
		return S_objLib_OBJ_UNAVAILABLE;
	ret = skin_wait_sleep_locked(sk, VX_MSGQ, id, q, &q->receivers, r,
				     sizeof(*r), to);
	return vx_error(ret ? ret : r->err);
}

static int msgq_receive_call(void *arg, int timeout)
{
	struct msgq_call *c = arg;
	struct nk_instance *nk;
	struct vx_msgq *q;
	int ret = vx_enter_task_level(NULL, NULL);

	if (ret == 0)
		ret = vx_get(VX_MSGQ, c->id, &nk, (void **)&q);
	if (ret)
		return ret;
	ret = msgq_receive(nk, q, (uintptr_t)c->id, &c->r, timeout);
	nk_unlock(nk);
	return ret;
}

int msgQReceive(MSG_Q_ID msgQId, char *buffer, UINT maxNBytes, int timeout)
{
	struct msgq_call c = {.id = msgQId, .r = {buffer, maxNBytes, 0}};
	int ret = vx_wait(msgq_receive_call, &c, timeout);

	return ret ? vx_fail(ret) : (int)c.r.got;
}

int msgQNumMsgs(MSG_Q_ID msgQId)
{
	struct nk_instance *nk;
	struct vx_msgq *q;
	int ret;

	ret = vx_get(VX_MSGQ, msgQId, &nk, (void **)&q);
	if (ret)
		return vx_fail(ret);
	ret = q->count;
	nk_unlock(nk);
	return ret;
}
