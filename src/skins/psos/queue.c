/* SPDX-License-Identifier: MIT */
/*
 * pSOS message queues, fixed (q_*: four unsigned longs) and variable
 * (q_v*: up to maxlen bytes): one object, told apart by its kind, so
 * that the other family's calls get ERR_VARQ / ERR_NOTVARQ.
 *
 * A message sent while receivers wait is copied straight into the
 * first one's buffer (its wait context) and never queued.  Queued
 * messages sit in buffers: the queue's own (Q_PRIBUF, and every
 * variable queue: maxnum of them from creation) or taken from the
 * instance's memory as messages come (Q_SYSBUF).
 */
#include "internal.h"

#include <string.h>

#define Q_FIXED_LEN (4 * sizeof(unsigned long))

struct q_msg {
	struct nk_list link;
	unsigned long len;
	unsigned char data[];
};

struct psos_queue {
	struct psos_object obj;
	unsigned long flags;
	unsigned long maxlen;
	unsigned long limit; /* most messages queued; 0 with nolimit */
	bool nolimit;
	unsigned long nbufs; /* buffers of its own */
	unsigned long count; /* messages queued */
	struct nk_list msgs;
	struct nk_list free; /* its own buffers, unused */
	struct nk_synch receivers;
};

void psos_queue_describe(const void *object, struct nk_object_info *info)
{
	const struct psos_queue *q = object;

	info->name = q->obj.name;
	info->count = (long)q->count;
	info->capacity = q->nolimit ? 0 : (long)q->limit;
	info->waiters = &q->receivers;
}

/* A receiver's buffer: what a sender fills in. */
struct q_wait {
	void *buf; /* in the waiter's process */
	unsigned long len;
	int err; /* the copy into @buf failed: a nucleus -errno */
};

/* Also what a failed creation releases (zeroed lists: nothing). */
void psos_queue_reclaim(struct nk_instance *nk, void *object)
{
	struct psos_queue *q = object;
	struct nk_list *lists[] = {&q->msgs, &q->free};

	nk_synch_destroy_locked(&q->receivers);
	for (int i = 0; i < 2; i++) {
		while (!nk_list_empty(lists[i])) {
			struct nk_list *l = lists[i]->next;

			nk_list_del(l);
			nk_free(nk, nk_list_entry(l, struct q_msg, link));
		}
	}
	nk_free(nk, q);
}

/* Its own buffers, its receivers' queue. */
static int queue_setup(struct nk_instance *nk, void *object, const char *wname)
{
	struct psos_queue *q = object;

	nk_list_init(&q->msgs);
	nk_list_init(&q->free);
	for (unsigned long i = 0; i < q->nbufs; i++) {
		struct q_msg *m = nk_alloc(nk, sizeof(*m) + q->maxlen);

		if (m == NULL)
			return ERR_NOMGB;
		nk_list_add_before(&m->link, &q->free);
	}
	return skin_wait_init(nk, &q->receivers, wname, q->flags & Q_PRIOR);
}

static unsigned long queue_create(const char *name,
				  const struct psos_queue *init,
				  unsigned long *qid)
{
	return psos_create(PSOS_QUEUE, name, init, sizeof(*init), queue_setup,
			   ERR_NOQCB, qid);
}

unsigned long q_create(const char *name, unsigned long count,
		       unsigned long flags, unsigned long *qid)
{
	const struct psos_queue init = {.flags = flags,
					.maxlen = Q_FIXED_LEN,
					.limit = count,
					.nolimit = !(flags & Q_LIMIT),
					.nbufs =
					    (flags & Q_PRIBUF) ? count : 0};

	return queue_create(name, &init, qid);
}

unsigned long q_vcreate(const char *name, unsigned long flags,
			unsigned long maxnum, unsigned long maxlen,
			unsigned long *qid)
{
	const struct psos_queue init = {.obj.kind = PSOS_OBJ_VARQ,
					.flags = flags,
					.maxlen = maxlen,
					.limit = maxnum,
					.nbufs = maxnum};

	if (maxlen == 0)
		return ERR_MSGSIZ;
	return queue_create(name, &init, qid);
}

/* The family's code for a queue of the other family. */
static unsigned long queue_family(struct psos_queue *q, unsigned int kind)
{
	if (q->obj.kind == kind)
		return SUCCESS;
	return kind == PSOS_OBJ_VARQ ? ERR_NOTVARQ : ERR_VARQ;
}

/* Find a queue of family @kind; lock held on success only. */
static unsigned long queue_get(unsigned long qid, unsigned int kind,
			       struct nk_instance **nk, struct psos_queue **q)
{
	unsigned long ret = psos_get(PSOS_QUEUE, qid, nk, (void **)q);

	if (ret == 0) {
		ret = queue_family(*q, kind);
		if (ret)
			nk_unlock(*nk);
	}
	return ret;
}

static unsigned long queue_check(void *object, unsigned int kind, bool *keep)
{
	struct psos_queue *q = object;
	unsigned long ret = queue_family(q, kind);

	if (ret) {
		*keep = true;
		return ret;
	}
	if (nk_synch_nr_waiters(&q->receivers))
		return ERR_TATQDEL;
	return q->count ? ERR_MATQDEL : SUCCESS;
}

static unsigned long queue_check_fixed(void *object, bool *keep)
{
	return queue_check(object, 0, keep);
}

static unsigned long queue_check_var(void *object, bool *keep)
{
	return queue_check(object, PSOS_OBJ_VARQ, keep);
}

unsigned long q_delete(unsigned long qid)
{
	return psos_delete(PSOS_QUEUE, qid, queue_check_fixed);
}

unsigned long q_vdelete(unsigned long qid)
{
	return psos_delete(PSOS_QUEUE, qid, queue_check_var);
}

unsigned long q_ident(const char *name, unsigned long node, unsigned long *qid)
{
	return psos_ident(PSOS_QUEUE, 0, name, node, qid);
}

unsigned long q_vident(const char *name, unsigned long node, unsigned long *qid)
{
	return psos_ident(PSOS_QUEUE, PSOS_OBJ_VARQ, name, node, qid);
}

/* What a sender offers each receiver it serves. */
struct q_offer {
	const void *buf;
	unsigned long len;
};

static bool queue_serve(struct nk_thread *waiter, void *ctx, void *arg)
{
	struct q_wait *w = ctx;
	const struct q_offer *o = arg;

	w->err = nk_thread_copy_to(waiter, w->buf, o->buf, o->len);
	w->len = o->len;
	return true;
}

/* q_send/q_urgent and their q_v forms.  Context: any. */
static unsigned long queue_post(unsigned long qid, unsigned int kind,
				const void *buf, unsigned long len, bool urgent)
{
	struct q_offer o = {.buf = buf, .len = len};
	struct nk_instance *nk;
	struct psos_queue *q;
	struct q_msg *m = NULL;
	unsigned long ret;

	ret = queue_get(qid, kind, &nk, &q);
	if (ret)
		return ret;
	if (buf == NULL)
		ret = ERR_OBJID;
	else if (len > q->maxlen)
		ret = ERR_MSGSIZ;
	if (ret ||
	    skin_wait_serve_locked(&q->receivers, queue_serve, &o, false)) {
		nk_sched_run(nk);
		nk_unlock(nk);
		return ret;
	}
	if (!q->nolimit && q->count >= q->limit) {
		ret = ERR_QFULL;
	} else if (!nk_list_empty(&q->free)) {
		m = nk_list_first_entry(&q->free, struct q_msg, link);
		nk_list_del(&m->link);
	} else if (kind == PSOS_OBJ_VARQ || (q->flags & Q_PRIBUF)) {
		ret = ERR_NOMGB;
	} else {
		m = nk_alloc(nk, sizeof(*m) + q->maxlen);
		ret = m ? SUCCESS : ERR_NOMGB;
	}
	if (m) {
		nk_journal_save(m, sizeof(*m) + len);
		memcpy(m->data, buf, len);
		m->len = len;
		if (urgent)
			nk_list_add_after(&m->link, &q->msgs);
		else
			nk_list_add_before(&m->link, &q->msgs);
		q->count++;
	}
	nk_unlock(nk);
	return ret;
}

unsigned long q_send(unsigned long qid, unsigned long msgbuf[4])
{
	return queue_post(qid, 0, msgbuf, Q_FIXED_LEN, false);
}

unsigned long q_urgent(unsigned long qid, unsigned long msgbuf[4])
{
	return queue_post(qid, 0, msgbuf, Q_FIXED_LEN, true);
}

unsigned long q_vsend(unsigned long qid, void *msgbuf, unsigned long msglen)
{
	return queue_post(qid, PSOS_OBJ_VARQ, msgbuf, msglen, false);
}

unsigned long q_vurgent(unsigned long qid, void *msgbuf, unsigned long msglen)
{
	return queue_post(qid, PSOS_OBJ_VARQ, msgbuf, msglen, true);
}

static unsigned long queue_broadcast(unsigned long qid, unsigned int kind,
				     const void *buf, unsigned long len,
				     unsigned long *count)
{
	struct q_offer o = {.buf = buf, .len = len};
	struct nk_instance *nk;
	struct psos_queue *q;
	unsigned long ret;

	ret = queue_get(qid, kind, &nk, &q);
	if (ret)
		return ret;
	if (buf == NULL || count == NULL)
		ret = ERR_OBJID;
	else if (len > q->maxlen)
		ret = ERR_MSGSIZ;
	else
		*count = (unsigned long)skin_wait_serve_locked(
		    &q->receivers, queue_serve, &o, true);
	nk_sched_run(nk);
	nk_unlock(nk);
	return ret;
}

unsigned long q_broadcast(unsigned long qid, unsigned long msgbuf[4],
			  unsigned long *count)
{
	return queue_broadcast(qid, 0, msgbuf, Q_FIXED_LEN, count);
}

unsigned long q_vbroadcast(unsigned long qid, void *msgbuf,
			   unsigned long msglen, unsigned long *count)
{
	return queue_broadcast(qid, PSOS_OBJ_VARQ, msgbuf, msglen, count);
}

/* Take the first queued message into @w.  Lock held. */
static void queue_take(struct nk_instance *nk, struct psos_queue *q,
		       struct q_wait *w)
{
	struct q_msg *m = nk_list_first_entry(&q->msgs, struct q_msg, link);

	nk_list_del(&m->link);
	q->count--;
	memcpy(w->buf, m->data, m->len);
	w->len = m->len;
	/* A buffer of its own goes back to the queue. */
	if (q->obj.kind == PSOS_OBJ_VARQ || (q->flags & Q_PRIBUF))
		nk_list_add_before(&m->link, &q->free);
	else
		nk_free(nk, m);
}

static unsigned long queue_receive(unsigned long qid, unsigned int kind,
				   unsigned long flags, unsigned long timeout,
				   void *buf, unsigned long buflen,
				   unsigned long *len)
{
	struct q_wait w = {.buf = buf};
	struct skin_timeout to = skin_infinite();
	struct nk_instance *nk;
	struct psos_task *self = NULL;
	struct psos_queue *q;
	unsigned long ret;
	int err = 0;

	for (;;) {
		ret = queue_get(qid, kind, &nk, &q);
		if (ret)
			break;
		if (buf == NULL) {
			ret = ERR_OBJID;
		} else if (buflen < q->maxlen) {
			ret = ERR_BUFSIZ;
		} else if (!nk_list_empty(&q->msgs)) {
			queue_take(nk, q, &w);
		} else if (flags & Q_NOWAIT) {
			ret = ERR_NOMSG;
		} else {
			if (psos_wait_prepare(nk, &self, &to, timeout)) {
				nk_unlock(nk);
				continue;
			}
			err = skin_wait_sleep_locked(&psos()->skin, PSOS_QUEUE,
						     qid, q, &q->receivers, &w,
						     sizeof(w), to);
			ret = psos_wait_error(err ? err : w.err, ERR_QKILLD);
		}
		nk_unlock(nk);
		break;
	}
	psos_wait_end(nk, self);
	if (ret == 0 && len)
		*len = w.len;
	return ret;
}

unsigned long q_receive(unsigned long qid, unsigned long flags,
			unsigned long timeout, unsigned long msgbuf[4])
{
	return queue_receive(qid, 0, flags, timeout, msgbuf, Q_FIXED_LEN, NULL);
}

unsigned long q_vreceive(unsigned long qid, unsigned long flags,
			 unsigned long timeout, void *msgbuf,
			 unsigned long buflen, unsigned long *msglen)
{
	if (msglen == NULL)
		return ERR_OBJID;
	return queue_receive(qid, PSOS_OBJ_VARQ, flags, timeout, msgbuf, buflen,
			     msglen);
}
