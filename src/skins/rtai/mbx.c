/* SPDX-License-Identifier: MIT */
/*
 * RTAI mailboxes: a ring of bytes in the object itself (nk_alloc()
 * memory, no pointer), two binary nucleus semaphores that make senders
 * and receivers take turns, and two wait queues where the sender in
 * turn waits for room and the receiver in turn for bytes.  Only the
 * holder of a turn waits on its queue, so each put wakes the one
 * receiver that may wait and each get the one sender.
 */
#include "internal.h"

#include <rtai/rtai_mbx.h>

#include <string.h>

struct rtai_mbx {
	struct rtai_named named; /* first: rt_named_mbx_init() uses */
	int size;		 /* bytes the ring holds */
	int fifo;		 /* FIFO_Q: turns in arrival order */
	int head;		 /* first byte to receive */
	int avbs;		 /* bytes in the ring */
	struct nk_sem send_turn, recv_turn;
	struct nk_synch room, data;
	char ring[];
};

void rtai_mbx_describe(const void *object, struct nk_object_info *info)
{
	const struct rtai_mbx *m = object;

	info->count = m->avbs;
	info->capacity = m->size;
	info->waiters = &m->data;
	info->senders = &m->room;
}

static int mbx_setup(struct nk_instance *nk, void *object, const char *wname)
{
	struct rtai_mbx *m = object;
	unsigned int order = m->fifo ? NK_SYNCH_FIFO : NK_SYNCH_PRIO;
	int ret;

	ret = nk_sem_init(nk, &m->send_turn, wname, 1, 1, order);
	if (ret == 0)
		ret = nk_sem_init(nk, &m->recv_turn, wname, 1, 1, order);
	if (ret == 0)
		ret = nk_synch_init(nk, &m->room, wname, NK_SYNCH_FIFO, 0);
	if (ret == 0)
		ret = nk_synch_init(nk, &m->data, wname, NK_SYNCH_FIFO, 0);
	return ret;
}

void rtai_mbx_reclaim(struct nk_instance *nk, void *object)
{
	struct rtai_mbx *m = object;

	/* Without rescheduling: the waiters run once it is unregistered. */
	nk_synch_destroy_locked(&m->send_turn.synch);
	nk_synch_destroy_locked(&m->recv_turn.synch);
	nk_synch_destroy_locked(&m->room);
	nk_synch_destroy_locked(&m->data);
	nk_free(nk, m);
}

static void *mbx_create(const char *key, int size, int qtype)
{
	struct nk_instance *nk;
	struct rtai_mbx *m;
	uintptr_t handle;

	if (size <= 0 || (qtype != PRIO_Q && qtype != FIFO_Q) ||
	    rtai_enter(&nk))
		return NULL;
	m = nk_alloc(nk, sizeof(*m) + (size_t)size);
	if (m == NULL)
		return NULL;
	m->size = size;
	m->fifo = qtype == FIFO_Q;
	m->named.uses = 1;
	if (skin_create(rtai(), RTAI_MBX, key, m, mbx_setup, rtai_mbx_reclaim,
			&handle))
		return NULL;
	return rtai_ptr(handle);
}

MBX *rt_typed_mbx_init(unsigned long name, int size, int qtype)
{
	char key[RTAI_NAME_CHARS + 1];

	rtai_name(name, key);
	return mbx_create(key, size, qtype);
}

MBX *rt_mbx_init(unsigned long name, int size)
{
	return rt_typed_mbx_init(name, size, PRIO_Q);
}

MBX *rt_typed_named_mbx_init(const char *name, int size, int qtype)
{
	return rtai_named_init(RTAI_MBX, name, mbx_create, size, qtype);
}

MBX *rt_named_mbx_init(const char *name, int size)
{
	return rt_typed_named_mbx_init(name, size, PRIO_Q);
}

int rt_named_mbx_delete(MBX *mbx)
{
	return rtai_named_delete(RTAI_MBX, mbx);
}

int rt_mbx_delete(MBX *mbx)
{
	return rtai_object_delete(RTAI_MBX, mbx);
}

/* Append up to @n bytes of @src: how many went in.  Lock held. */
static int ring_put(struct rtai_mbx *m, const char *src, int n)
{
	int done = 0;

	while (done < n && m->avbs < m->size) {
		int tail = (m->head + m->avbs) % m->size;
		/* Free bytes run to the end, or up to the head. */
		int k = tail >= m->head ? m->size - tail : m->head - tail;

		if (k > n - done)
			k = n - done;
		memcpy(m->ring + tail, src + done, (size_t)k);
		m->avbs += k;
		done += k;
	}
	return done;
}

/* Copy up to @n bytes into @dst, removing them with @consume: how many.
 * Lock held. */
static int ring_get(struct rtai_mbx *m, char *dst, int n, bool consume)
{
	int done = 0, head = m->head, avbs = m->avbs;

	while (done < n && avbs > 0) {
		int k = m->size - head < avbs ? m->size - head : avbs;

		if (k > n - done)
			k = n - done;
		memcpy(dst + done, m->ring + head, (size_t)k);
		head = (head + k) % m->size;
		avbs -= k;
		done += k;
	}
	if (consume) {
		m->head = head;
		m->avbs = avbs;
	}
	return done;
}

/* Find @mbx and check the buffer: lock held on success only. */
static int mbx_get(MBX *mbx, const void *msg, int msg_size,
		   struct nk_instance **nk, struct rtai_mbx **m)
{
	uintptr_t handle = rtai_handle(mbx);
	int ret;

	ret = skin_get(&rtai_skin, RTAI_MBX, &handle, nk, (void **)m);
	if (ret == 0 && (msg_size < 0 || (msg == NULL && msg_size > 0))) {
		nk_unlock(*nk);
		ret = -EINVAL;
	}
	return ret;
}

/*
 * Send (@send) or receive the whole of @buf, waiting for the turn, then
 * for room or bytes, up to one deadline @to.  0 or an RTE_* code.
 */
static int mbx_xfer(MBX *mbx, char *buf, int size, struct skin_timeout to,
		    bool send)
{
	struct nk_instance *nk;
	struct rtai_mbx *m;
	struct nk_sem *turn;
	bool turned;
	int ret;

	ret = mbx_get(mbx, buf, size, &nk, &m);
	if (ret)
		return ret;
	to = skin_deadline(nk, to);
	turn = send ? &m->send_turn : &m->recv_turn;
	ret = nk_sem_take_locked(turn, to.value, to.mode);
	turned = ret == 0;
	while (ret == 0 && size > 0) {
		int n = send ? ring_put(m, buf, size)
			     : ring_get(m, buf, size, true);

		if (n == 0) {
			ret = nk_synch_sleep(send ? &m->room : &m->data,
					     to.value, to.mode);
			continue;
		}
		buf += n;
		size -= n;
		nk_synch_flush(send ? &m->data : &m->room, NK_WAKE_OK);
	}
	/* Deleted meanwhile: the turn went with the mailbox. */
	if (turned && ret != -EIDRM)
		(void)nk_sem_give_locked(turn);
	nk_sched_run(nk);
	nk_unlock(nk);
	/* A bounded wait whose date passed without waiting. */
	return skin_error(&rtai_skin, ret == -EWOULDBLOCK ? -ETIMEDOUT : ret);
}

/*
 * Send or receive without waiting: what fits now (@whole: all or
 * nothing).  Returns the bytes not moved, or an error.
 */
static int mbx_try(MBX *mbx, char *buf, int size, bool send, bool whole)
{
	struct nk_instance *nk;
	struct rtai_mbx *m;
	struct nk_sem *turn;
	int ret, room;

	ret = mbx_get(mbx, buf, size, &nk, &m);
	if (ret)
		return ret;
	turn = send ? &m->send_turn : &m->recv_turn;
	/* Another sender (receiver) in the middle of its message: none. */
	if (nk_sem_take_locked(turn, 0, NK_RELATIVE) == 0) {
		room = send ? m->size - m->avbs : m->avbs;
		if (!whole || size <= room)
			size -= send ? ring_put(m, buf, size)
				     : ring_get(m, buf, size, true);
		nk_synch_flush(send ? &m->data : &m->room, NK_WAKE_OK);
		(void)nk_sem_give_locked(turn);
		nk_sched_run(nk);
	}
	nk_unlock(nk);
	return size;
}

int rt_mbx_send(MBX *mbx, void *msg, int msg_size)
{
	return mbx_xfer(mbx, msg, msg_size, skin_infinite(), true);
}

int rt_mbx_send_wp(MBX *mbx, void *msg, int msg_size)
{
	return mbx_try(mbx, msg, msg_size, true, false);
}

int rt_mbx_send_if(MBX *mbx, void *msg, int msg_size)
{
	return mbx_try(mbx, msg, msg_size, true, true);
}

int rt_mbx_send_until(MBX *mbx, void *msg, int msg_size, RTIME time)
{
	return mbx_xfer(mbx, msg, msg_size, rtai_timeout(time, true), true);
}

int rt_mbx_send_timed(MBX *mbx, void *msg, int msg_size, RTIME delay)
{
	return mbx_xfer(mbx, msg, msg_size, rtai_timeout(delay, false), true);
}

int rt_mbx_receive(MBX *mbx, void *msg, int msg_size)
{
	return mbx_xfer(mbx, msg, msg_size, skin_infinite(), false);
}

int rt_mbx_receive_wp(MBX *mbx, void *msg, int msg_size)
{
	return mbx_try(mbx, msg, msg_size, false, false);
}

int rt_mbx_receive_if(MBX *mbx, void *msg, int msg_size)
{
	return mbx_try(mbx, msg, msg_size, false, true);
}

int rt_mbx_receive_until(MBX *mbx, void *msg, int msg_size, RTIME time)
{
	return mbx_xfer(mbx, msg, msg_size, rtai_timeout(time, true), false);
}

int rt_mbx_receive_timed(MBX *mbx, void *msg, int msg_size, RTIME delay)
{
	return mbx_xfer(mbx, msg, msg_size, rtai_timeout(delay, false), false);
}

int rt_mbx_evdrp(MBX *mbx, void *msg, int msg_size)
{
	struct nk_instance *nk;
	struct rtai_mbx *m;
	int ret;

	ret = mbx_get(mbx, msg, msg_size, &nk, &m);
	if (ret)
		return ret;
	ret = msg_size - ring_get(m, msg, msg_size, false);
	nk_unlock(nk);
	return ret;
}

int rt_mbx_ovrwr_send(MBX *mbx, void *msg, int msg_size)
{
	struct nk_instance *nk;
	struct rtai_mbx *m;
	int ret, drop;

	ret = mbx_get(mbx, msg, msg_size, &nk, &m);
	if (ret)
		return ret;
	if (msg_size > m->size) {
		nk_unlock(nk);
		return msg_size;
	}
	/* Make room by forgetting the oldest bytes. */
	drop = msg_size - (m->size - m->avbs);
	if (drop > 0) {
		m->head = (m->head + drop) % m->size;
		m->avbs -= drop;
	}
	ring_put(m, msg, msg_size);
	nk_synch_flush(&m->data, NK_WAKE_OK);
	nk_sched_run(nk);
	nk_unlock(nk);
	return 0;
}
