/* SPDX-License-Identifier: MIT */
/*
 * RTAI intertask messages and RPC.
 *
 * A sender (or caller) describes its message in a request on its own
 * stack and waits with it on the receiver's msgq, in priority order; a
 * receiver with nothing queued waits on its own recvq, where the next
 * sender for it serves it directly.  A call stays queued once received,
 * marked so, until rt_return() finds it there and wakes it with the
 * result: one wait, one deadline, for the whole call.
 *
 * What a sized message carries is copied into nk_alloc() memory, never
 * read from the other task's buffer, and whoever takes it frees it.
 */
#include "internal.h"

#include <rtai/rtai_msg.h>

#include <string.h>

/* A message: a word, or bytes in nk_alloc() memory (data != NULL). */
struct msg {
	unsigned long word;
	char *data;
	int size;
};

/* A sender's or caller's request, while it waits on the receiver. */
struct msg_req {
	uintptr_t from; /* the sender's task handle */
	bool rpc;
	bool received; /* a call taken by the receiver, awaiting return */
	struct msg out;
	struct msg back; /* a call's return */
};

/* A receiver's request on its recvq. */
struct recv_req {
	uintptr_t want; /* the sender it waits for, 0: anybody */
	uintptr_t from;
	bool rpc;
	struct msg got;
};

int rtai_msg_init(struct nk_instance *nk, struct rtai_task *t)
{
	int ret = nk_synch_init(nk, &t->msgq, "msg", NK_SYNCH_PI, 0);

	/* The task owns its queue of senders: as in RTAI, it inherits the
	 * priority of those that wait for it, callers awaiting its return
	 * included (transitively, through the nucleus's inheritance). */
	if (ret == 0)
		ret = nk_synch_try_acquire(&t->msgq, t->thread);
	return ret ? ret
		   : nk_synch_init(nk, &t->recvq, "receive", NK_SYNCH_FIFO, 0);
}

void rtai_msg_exit(struct rtai_task *t)
{
	struct nk_instance *nk = nk_thread_instance(t->thread);

	/* Bytes it had yet to take or to see taken. */
	nk_free(nk, t->msg_out);
	nk_free(nk, t->msg_in);
	nk_free(nk, t->msg_back);
	t->msg_out = t->msg_in = t->msg_back = NULL;
	/* Senders and callers wake with RTE_OBJREM. */
	nk_synch_destroy_locked(&t->msgq);
	nk_synch_destroy_locked(&t->recvq);
}

/* The TCB of @thread, a task waiting on a message queue.  Lock held. */
static struct rtai_task *msg_task(struct nk_thread *thread)
{
	return nk_thread_personality(thread, &rtai_skin.pers);
}

/* An error code as RTAI 5 returns it from a message call. */
static RT_TASK *msg_error(int err)
{
	return rtai_ptr((uintptr_t)(long)err);
}

/*
 * @m as the word @word, or (@buf not NULL) a copy of the @size bytes
 * of @buf in nk memory.  -ENOMEM.  Lock held.
 */
static int msg_make(struct nk_instance *nk, struct msg *m, unsigned long word,
		    const void *buf, int size)
{
	m->word = word;
	m->data = NULL;
	m->size = 0;
	if (buf == NULL)
		return 0;
	m->data = nk_alloc(nk, size > 0 ? (size_t)size : 1);
	if (m->data == NULL)
		return -ENOMEM;
	m->size = size;
	memcpy(m->data, buf, (size_t)size);
	return 0;
}

/* Where a received message or a return goes (each may be NULL). */
struct msg_dest {
	void *word; /* an unsigned long */
	void *buf;  /* at most @size bytes */
	int size;
	int *len; /* the size sent */
};

/*
 * Copy @m into @d; free its bytes unless @keep.  A word sent arrives
 * in a buffer as its bytes, bytes sent in a word as their first ones.
 * Lock held.
 */
static void msg_deliver(struct nk_instance *nk, struct msg *m,
			const struct msg_dest *d, bool keep)
{
	const void *src = m->data ? (const void *)m->data : &m->word;
	int n = m->data ? m->size : (int)sizeof(m->word);

	if (d->word) {
		unsigned long word = m->word;

		if (m->data)
			memcpy(&word, m->data,
			       (size_t)n < sizeof(word) ? (size_t)n
							: sizeof(word));
		memcpy(d->word, &word, sizeof(word));
	}
	if (d->buf && d->size > 0)
		memcpy(d->buf, src, (size_t)(n < d->size ? n : d->size));
	if (d->len)
		*d->len = n;
	if (!keep) {
		nk_free(nk, m->data);
		m->data = NULL;
	}
}

/*
 * The caller's task into *@me and, unless @task is NULL and @any, the
 * task behind @task into *@peer (else NULL).  Lock held on success
 * only.  RTE_OBJINV otherwise.
 */
static int msg_peers(RT_TASK *task, bool any, struct nk_instance **nk,
		     struct rtai_task **me, struct rtai_task **peer)
{
	int ret = rtai_current(nk, me);

	if (ret || (*me)->task == 0)
		return RTE_OBJINV;
	nk_lock(*nk);
	*peer = NULL;
	if ((task || !any) &&
	    skin_lookup_locked(rtai(), RTAI_TASK, rtai_handle(task),
			       (void **)peer)) {
		nk_unlock(*nk);
		return RTE_OBJINV;
	}
	return 0;
}

/* skin_wait_serve_locked(): give the sender's request @arg to a
 * receiver that waits for it. */
static bool serve_receiver(struct nk_thread *waiter, void *ctx, void *arg)
{
	struct recv_req *r = ctx;
	struct msg_req *q = arg;

	(void)waiter;
	if (r->want && r->want != q->from)
		return false;
	r->from = q->from;
	r->rpc = q->rpc;
	r->got = q->out;
	q->out.data = NULL; /* the receiver frees it */
	return true;
}

/* What a send or a call carries: a word, or a buffer. */
struct msg_src {
	unsigned long word;
	const void *buf; /* NULL: the word */
	int size;
};

/*
 * Send @src to @task (a call with @back, the return's destination),
 * per @to; @if_ready: only to a receiver waiting for it.
 */
static RT_TASK *msg_send(RT_TASK *task, const struct msg_src *src,
			 const struct msg_dest *back, struct skin_timeout to,
			 bool if_ready)
{
	struct msg_req q = {.rpc = back != NULL};
	struct nk_instance *nk;
	struct rtai_task *me, *peer;
	uintptr_t peer_handle;
	int ret;

	if (src->size < 0 || (src->buf == NULL && src->size > 0) ||
	    (back && (back->size < 0 || (!back->buf && back->size > 0))))
		return NULL;
	ret = msg_peers(task, false, &nk, &me, &peer);
	if (ret)
		return msg_error(ret);
	ret = msg_make(nk, &q.out, src->word, src->buf, src->size);
	if (ret) {
		nk_unlock(nk);
		return NULL;
	}
	q.from = me->task;
	me->msg_out = q.out.data;
	peer_handle = peer->task;
	to = skin_deadline(nk, to);
	if (skin_wait_serve_locked(&peer->recvq, serve_receiver, &q, false)) {
		/* The receiver's to free now. */
		peer->msg_in = me->msg_out;
		me->msg_out = NULL;
		if (!q.rpc) {
			nk_sched_run(nk);
			nk_unlock(nk);
			return rtai_ptr(peer_handle);
		}
		q.received = true;
	} else if (if_ready) {
		nk_free(nk, q.out.data);
		me->msg_out = NULL;
		nk_unlock(nk);
		return NULL;
	}
	/* @peer may be gone once this returns with an error; ended, it
	 * handed its queue to the first waiter (OWNER_DEAD). */
	me->msg_state = !q.rpc	     ? RT_SCHED_SEND
			: q.received ? RT_SCHED_RETURN
				     : RT_SCHED_RPC;
	ret = nk_synch_sleep_ctx(&peer->msgq, &q, sizeof(q), to.value, to.mode);
	me->msg_state = 0;
	if (ret == NK_WAKE_OWNER_DEAD)
		ret = -EIDRM;
	if (ret == 0 && back)
		msg_deliver(nk, &q.back, back, false);
	me->msg_back = NULL;
	nk_free(nk, q.out.data);
	me->msg_out = NULL;
	nk_unlock(nk);
	if (ret == -EWOULDBLOCK)
		ret = -ETIMEDOUT;
	return ret ? msg_error(skin_error(&rtai_skin, ret))
		   : rtai_ptr(peer_handle);
}

/*
 * The first request on @me's msgq from @from (0: anybody) not received
 * yet (@received: received, awaiting return), or NULL; its thread into
 * *@thread.  Lock held.
 */
static struct msg_req *msg_find(struct rtai_task *me, uintptr_t from,
				bool received, struct nk_thread **thread)
{
	for (struct nk_thread *t = nk_synch_next_waiter(&me->msgq, NULL); t;
	     t = nk_synch_next_waiter(&me->msgq, t)) {
		struct msg_req *q = nk_synch_waiter_ctx(t);

		if (q->received == received && (!from || q->from == from)) {
			*thread = t;
			return q;
		}
	}
	return NULL;
}

/*
 * Receive from @task (NULL: anybody) into @d, per @to; @if_ready: what
 * is there only; @peek: leave it there.
 */
static RT_TASK *msg_receive(RT_TASK *task, const struct msg_dest *d,
			    struct skin_timeout to, bool if_ready, bool peek)
{
	struct recv_req r = {0};
	struct nk_instance *nk;
	struct rtai_task *me, *peer;
	struct nk_thread *sender;
	struct msg_req *q;
	int ret;

	if (d->size < 0 || (d->buf == NULL && d->size > 0))
		return NULL;
	ret = msg_peers(task, true, &nk, &me, &peer);
	if (ret)
		return msg_error(ret);
	r.want = peer ? peer->task : 0;
	q = msg_find(me, r.want, false, &sender);
	if (q) {
		r.from = q->from;
		msg_deliver(nk, &q->out, d, peek);
		/* Taken: the sender has nothing of it to free any more. */
		if (!peek)
			msg_task(sender)->msg_out = NULL;
		if (!peek && q->rpc) {
			q->received = true;
			msg_task(sender)->msg_state = RT_SCHED_RETURN;
		} else if (!peek)
			nk_synch_wakeup_this(&me->msgq, sender);
		nk_sched_run(nk);
		nk_unlock(nk);
		return rtai_ptr(r.from);
	}
	if (if_ready || peek) {
		nk_unlock(nk);
		return NULL;
	}
	to = skin_deadline(nk, to);
	me->msg_state = RT_SCHED_RECEIVE;
	ret = nk_synch_sleep_ctx(&me->recvq, &r, sizeof(r), to.value, to.mode);
	me->msg_state = 0;
	if (ret == 0)
		msg_deliver(nk, &r.got, d, false);
	me->msg_in = NULL;
	nk_unlock(nk);
	if (ret == -EWOULDBLOCK)
		ret = -ETIMEDOUT;
	return ret ? msg_error(skin_error(&rtai_skin, ret)) : rtai_ptr(r.from);
}

/* Answer @task's call with @src.  Lock NOT held. */
static RT_TASK *msg_return(RT_TASK *task, const struct msg_src *src)
{
	struct nk_instance *nk;
	struct rtai_task *me, *peer;
	struct nk_thread *caller;
	struct msg_req *q;
	int ret;

	if (src->size < 0 || (src->buf == NULL && src->size > 0))
		return NULL;
	ret = msg_peers(task, false, &nk, &me, &peer);
	if (ret)
		return msg_error(ret);
	q = msg_find(me, peer->task, true, &caller);
	if (q == NULL ||
	    msg_make(nk, &q->back, src->word, src->buf, src->size)) {
		nk_unlock(nk);
		return NULL;
	}
	msg_task(caller)->msg_back = q->back.data;
	nk_synch_wakeup_this(&me->msgq, caller);
	nk_sched_run(nk);
	nk_unlock(nk);
	return task;
}

/* ---- the API: sends ---- */

RT_TASK *rt_send(RT_TASK *task, unsigned long msg)
{
	struct msg_src src = {msg, NULL, 0};

	return msg_send(task, &src, NULL, skin_infinite(), false);
}

RT_TASK *rt_send_if(RT_TASK *task, unsigned long msg)
{
	struct msg_src src = {msg, NULL, 0};

	return msg_send(task, &src, NULL, skin_nonblock(), true);
}

RT_TASK *rt_send_until(RT_TASK *task, unsigned long msg, RTIME time)
{
	struct msg_src src = {msg, NULL, 0};

	return msg_send(task, &src, NULL, rtai_timeout(time, true), false);
}

RT_TASK *rt_send_timed(RT_TASK *task, unsigned long msg, RTIME delay)
{
	struct msg_src src = {msg, NULL, 0};

	return msg_send(task, &src, NULL, rtai_timeout(delay, false), false);
}

RT_TASK *rt_sendx(RT_TASK *task, void *msg, int size)
{
	struct msg_src src = {0, msg, size};

	return msg_send(task, &src, NULL, skin_infinite(), false);
}

RT_TASK *rt_sendx_if(RT_TASK *task, void *msg, int size)
{
	struct msg_src src = {0, msg, size};

	return msg_send(task, &src, NULL, skin_nonblock(), true);
}

RT_TASK *rt_sendx_until(RT_TASK *task, void *msg, int size, RTIME time)
{
	struct msg_src src = {0, msg, size};

	return msg_send(task, &src, NULL, rtai_timeout(time, true), false);
}

RT_TASK *rt_sendx_timed(RT_TASK *task, void *msg, int size, RTIME delay)
{
	struct msg_src src = {0, msg, size};

	return msg_send(task, &src, NULL, rtai_timeout(delay, false), false);
}

/* ---- calls ---- */

RT_TASK *rt_rpc(RT_TASK *task, unsigned long to_do, void *result)
{
	struct msg_src src = {to_do, NULL, 0};
	struct msg_dest back = {result, NULL, 0, NULL};

	return msg_send(task, &src, &back, skin_infinite(), false);
}

RT_TASK *rt_rpc_if(RT_TASK *task, unsigned long to_do, void *result)
{
	struct msg_src src = {to_do, NULL, 0};
	struct msg_dest back = {result, NULL, 0, NULL};

	/* Only the send is conditional: the return is awaited. */
	return msg_send(task, &src, &back, skin_infinite(), true);
}

RT_TASK *rt_rpc_until(RT_TASK *task, unsigned long to_do, void *result,
		      RTIME time)
{
	struct msg_src src = {to_do, NULL, 0};
	struct msg_dest back = {result, NULL, 0, NULL};

	return msg_send(task, &src, &back, rtai_timeout(time, true), false);
}

RT_TASK *rt_rpc_timed(RT_TASK *task, unsigned long to_do, void *result,
		      RTIME delay)
{
	struct msg_src src = {to_do, NULL, 0};
	struct msg_dest back = {result, NULL, 0, NULL};

	return msg_send(task, &src, &back, rtai_timeout(delay, false), false);
}

RT_TASK *rt_rpcx(RT_TASK *task, void *smsg, void *rmsg, int ssize, int rsize)
{
	struct msg_src src = {0, smsg, ssize};
	struct msg_dest back = {NULL, rmsg, rsize, NULL};

	return msg_send(task, &src, &back, skin_infinite(), false);
}

RT_TASK *rt_rpcx_if(RT_TASK *task, void *smsg, void *rmsg, int ssize, int rsize)
{
	struct msg_src src = {0, smsg, ssize};
	struct msg_dest back = {NULL, rmsg, rsize, NULL};

	return msg_send(task, &src, &back, skin_infinite(), true);
}

RT_TASK *rt_rpcx_until(RT_TASK *task, void *smsg, void *rmsg, int ssize,
		       int rsize, RTIME time)
{
	struct msg_src src = {0, smsg, ssize};
	struct msg_dest back = {NULL, rmsg, rsize, NULL};

	return msg_send(task, &src, &back, rtai_timeout(time, true), false);
}

RT_TASK *rt_rpcx_timed(RT_TASK *task, void *smsg, void *rmsg, int ssize,
		       int rsize, RTIME delay)
{
	struct msg_src src = {0, smsg, ssize};
	struct msg_dest back = {NULL, rmsg, rsize, NULL};

	return msg_send(task, &src, &back, rtai_timeout(delay, false), false);
}

/* ---- receives ---- */

RT_TASK *rt_receive(RT_TASK *task, void *msg)
{
	struct msg_dest d = {msg, NULL, 0, NULL};

	return msg_receive(task, &d, skin_infinite(), false, false);
}

RT_TASK *rt_receive_if(RT_TASK *task, void *msg)
{
	struct msg_dest d = {msg, NULL, 0, NULL};

	return msg_receive(task, &d, skin_nonblock(), true, false);
}

RT_TASK *rt_receive_until(RT_TASK *task, void *msg, RTIME time)
{
	struct msg_dest d = {msg, NULL, 0, NULL};

	return msg_receive(task, &d, rtai_timeout(time, true), false, false);
}

RT_TASK *rt_receive_timed(RT_TASK *task, void *msg, RTIME delay)
{
	struct msg_dest d = {msg, NULL, 0, NULL};

	return msg_receive(task, &d, rtai_timeout(delay, false), false, false);
}

RT_TASK *rt_receivex(RT_TASK *task, void *msg, int size, int *len)
{
	struct msg_dest d = {NULL, msg, size, len};

	return msg_receive(task, &d, skin_infinite(), false, false);
}

RT_TASK *rt_receivex_if(RT_TASK *task, void *msg, int size, int *len)
{
	struct msg_dest d = {NULL, msg, size, len};

	return msg_receive(task, &d, skin_nonblock(), true, false);
}

RT_TASK *rt_receivex_until(RT_TASK *task, void *msg, int size, int *len,
			   RTIME time)
{
	struct msg_dest d = {NULL, msg, size, len};

	return msg_receive(task, &d, rtai_timeout(time, true), false, false);
}

RT_TASK *rt_receivex_timed(RT_TASK *task, void *msg, int size, int *len,
			   RTIME delay)
{
	struct msg_dest d = {NULL, msg, size, len};

	return msg_receive(task, &d, rtai_timeout(delay, false), false, false);
}

RT_TASK *rt_evdrp(RT_TASK *task, void *msg)
{
	struct msg_dest d = {msg, NULL, 0, NULL};

	return msg_receive(task, &d, skin_nonblock(), true, true);
}

RT_TASK *rt_evdrpx(RT_TASK *task, void *msg, int size, int *len)
{
	struct msg_dest d = {NULL, msg, size, len};

	return msg_receive(task, &d, skin_nonblock(), true, true);
}

/* ---- returns ---- */

RT_TASK *rt_return(RT_TASK *task, unsigned long result)
{
	struct msg_src src = {result, NULL, 0};

	return msg_return(task, &src);
}

RT_TASK *rt_returnx(RT_TASK *task, void *msg, int size)
{
	struct msg_src src = {0, msg, size};

	return msg_return(task, &src);
}

int rt_isrpc(RT_TASK *task)
{
	struct nk_instance *nk;
	struct rtai_task *me, *peer;
	struct nk_thread *caller;
	int ret;

	if (task == NULL || msg_peers(task, false, &nk, &me, &peer))
		return 0;
	ret = msg_find(me, peer->task, true, &caller) != NULL;
	nk_unlock(nk);
	return ret;
}
