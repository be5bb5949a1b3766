/* SPDX-License-Identifier: MIT */
/*
 * Synchronous message passing between Alchemy tasks.
 *
 * A sender links a request (in its control block: it stays blocked for
 * the whole transaction) into the receiver's pending list and sleeps on
 * its own reply synch until the deadline.  rt_task_receive() hands out the
 * most urgent pending request without removing it (as in Xenomai, the
 * same message comes again until it is replied to, so a receiver whose
 * buffer was too small may retry); rt_task_reply() removes it and wakes
 * the sender.  Whoever ends a transaction early (timeout, unblock,
 * deletion of either side) unlinks the request under the lock.
 */
#include "task_internal.h"

#include <string.h>

int alchemy_task_msg_init(struct nk_instance *nk, struct alchemy_task *t)
{
	int ret;

	nk_list_init(&t->msg_pending);
	ret = nk_synch_init(nk, &t->msg_recv, "receive", NK_SYNCH_FIFO, 0);
	if (ret == 0)
		ret =
		    nk_synch_init(nk, &t->msg_reply, "send", NK_SYNCH_FIFO, 0);
	return ret;
}

void alchemy_task_msg_destroy(struct alchemy_task *t)
{
	nk_synch_destroy_locked(&t->msg_recv);
	nk_synch_destroy_locked(&t->msg_reply);
}

static void msg_unlink(struct alchemy_msg *msg)
{
	/* In its sender's TCB: changed by the receiver too. */
	nk_journal_obj(msg);
	if (msg->receiver) {
		nk_list_del(&msg->link);
		msg->receiver = NULL;
	}
}

void alchemy_task_msg_exit(struct alchemy_task *t)
{
	while (!nk_list_empty(&t->msg_pending)) {
		struct alchemy_msg *msg = nk_list_first_entry(
		    &t->msg_pending, struct alchemy_msg, link);

		msg_unlink(msg);
		nk_synch_flush(&msg->sender->msg_reply, NK_WAKE_DELETED);
	}
	if (t->msg_out) {
		msg_unlink(t->msg_out);
		nk_journal_obj(&t->msg_out);
		t->msg_out = NULL;
	}
}

static bool mcb_bad(const RT_TASK_MCB *mcb)
{
	return mcb->size < 0 || (mcb->size > 0 && mcb->data == NULL);
}

static ssize_t task_send(RT_TASK *task, RT_TASK_MCB *mcb_s, RT_TASK_MCB *mcb_r,
			 struct skin_timeout to)
{
	struct nk_instance *nk;
	struct alchemy_task *self, *t;
	struct alchemy_msg *msg;
	ssize_t ret;

	if (to.error)
		return to.error;
	if (task == NULL || mcb_s == NULL || mcb_bad(mcb_s) ||
	    (mcb_r && mcb_bad(mcb_r)))
		return -EINVAL;
	ret = alchemy_task_current(&nk, &self);
	if (ret)
		return ret;
	/* Refuse before queueing anything: the wait could not happen. */
	if (nk_sched_lock_depth(nk) > 0 && !skin_nonblocking(to))
		return -EPERM;
	nk_lock(nk);
	ret = alchemy_task_lookup(task, &t);
	if (ret)
		goto out;
	if (skin_nonblocking(to)) {
		/* Only a waiting receiver takes it; then wait for the reply. */
		if (nk_synch_nr_waiters(&t->msg_recv) == 0) {
			ret = -EWOULDBLOCK;
			goto out;
		}
		to.value = NK_INFINITE;
	}
	if (++t->flowgen <= 0)
		t->flowgen = 1;
	msg = &self->out;
	*msg = (struct alchemy_msg){
	    .sender = self,
	    .receiver = t,
	    .opcode = mcb_s->opcode,
	    .size = mcb_s->size,
	    .data = mcb_s->data,
	    .rdata = mcb_r ? mcb_r->data : NULL,
	    .rsize = mcb_r ? mcb_r->size : 0,
	    .flowid = t->flowgen,
	};
	nk_list_add_before(&msg->link, &t->msg_pending);
	self->msg_out = msg;
	nk_synch_wakeup_one(&t->msg_recv);
	ret = nk_synch_sleep(&self->msg_reply, to.value, to.mode);
	/* After -EIDRM the receiver is gone; msg was unlinked for us. */
	self->msg_out = NULL;
	msg_unlink(msg);
	if (ret == 0 && mcb_r) {
		mcb_r->opcode = msg->ropcode;
		mcb_r->flowid = msg->flowid;
	}
	if (ret == 0)
		ret = msg->result;
out:
	nk_unlock(nk);
	return ret;
}

ssize_t rt_task_send_timed(RT_TASK *task, RT_TASK_MCB *mcb_s,
			   RT_TASK_MCB *mcb_r,
			   const struct timespec *abs_timeout)
{
	return task_send(task, mcb_s, mcb_r, skin_timespec(abs_timeout));
}

ssize_t rt_task_send_until(RT_TASK *task, RT_TASK_MCB *mcb_s,
			   RT_TASK_MCB *mcb_r, RTIME timeout)
{
	return task_send(task, mcb_s, mcb_r, alchemy_abs(timeout));
}

ssize_t rt_task_send(RT_TASK *task, RT_TASK_MCB *mcb_s, RT_TASK_MCB *mcb_r,
		     RTIME timeout)
{
	return task_send(task, mcb_s, mcb_r, alchemy_rel(timeout));
}

/* The most urgent pending request, the oldest among equals.  Lock held. */
static struct alchemy_msg *msg_first(struct alchemy_task *t)
{
	struct alchemy_msg *best = NULL;
	int best_prio = -1;
	struct nk_list *pos;

	nk_list_for_each(pos, &t->msg_pending) {
		struct alchemy_msg *msg =
		    nk_list_entry(pos, struct alchemy_msg, link);
		int prio = nk_thread_effective_priority(msg->sender->thread);

		if (prio > best_prio) {
			best = msg;
			best_prio = prio;
		}
	}
	return best;
}

static int task_receive(RT_TASK_MCB *mcb_r, struct skin_timeout to)
{
	struct nk_instance *nk;
	struct alchemy_task *self;
	struct alchemy_msg *msg;
	int ret;

	if (to.error)
		return to.error;
	if (mcb_r == NULL || mcb_bad(mcb_r))
		return -EINVAL;
	ret = alchemy_task_current(&nk, &self);
	if (ret)
		return ret;
	nk_lock(nk);
	/* A receive may sleep several times: keep one deadline across. */
	to = skin_deadline(nk, to);
	while ((msg = msg_first(self)) == NULL) {
		if (skin_nonblocking(to)) {
			ret = -EWOULDBLOCK;
			goto out;
		}
		ret = nk_synch_sleep(&self->msg_recv, to.value, to.mode);
		if (ret)
			goto out;
	}
	if (msg->size > mcb_r->size) {
		/* The sender stays queued: retry with a larger buffer. */
		ret = -ENOBUFS;
	} else {
		/* The sender stays queued too if its bytes cannot be read. */
		ret = nk_thread_copy_from(msg->sender->thread, mcb_r->data,
					  msg->data, (size_t)msg->size);
		if (ret)
			goto out;
		mcb_r->opcode = msg->opcode;
		mcb_r->flowid = msg->flowid;
		ret = msg->flowid;
	}
	mcb_r->size = msg->size;
out:
	nk_unlock(nk);
	return ret;
}

int rt_task_receive_timed(RT_TASK_MCB *mcb_r,
			  const struct timespec *abs_timeout)
{
	return task_receive(mcb_r, skin_timespec(abs_timeout));
}

int rt_task_receive_until(RT_TASK_MCB *mcb_r, RTIME timeout)
{
	return task_receive(mcb_r, alchemy_abs(timeout));
}

int rt_task_receive(RT_TASK_MCB *mcb_r, RTIME timeout)
{
	return task_receive(mcb_r, alchemy_rel(timeout));
}

int rt_task_reply(int flowid, RT_TASK_MCB *mcb_s)
{
	struct nk_instance *nk;
	struct alchemy_task *self;
	struct alchemy_msg *msg = NULL;
	struct nk_list *pos;
	ssize_t size;
	int ret;

	ret = alchemy_task_current(&nk, &self);
	if (ret)
		return ret;
	if (flowid <= 0)
		return -EINVAL;
	nk_lock(nk);
	nk_list_for_each(pos, &self->msg_pending) {
		struct alchemy_msg *m =
		    nk_list_entry(pos, struct alchemy_msg, link);

		if (m->flowid == flowid) {
			msg = m;
			break;
		}
	}
	/* As Xenomai: the flow first, so that a reply to no one is -ENXIO
	 * whatever the block holds. */
	if (msg == NULL) {
		ret = -ENXIO;
		goto out;
	}
	if (mcb_s && mcb_bad(mcb_s)) {
		ret = -EINVAL;
		goto out;
	}
	msg_unlink(msg);
	size = mcb_s ? mcb_s->size : 0;
	if (size > msg->rsize) {
		/* The sender gets -ENOBUFS too, and no data. */
		ret = -ENOBUFS;
		msg->result = -ENOBUFS;
	} else {
		/* A reply that cannot be written there fails on both sides. */
		ret =
		    nk_thread_copy_to(msg->sender->thread, msg->rdata,
				      size ? mcb_s->data : NULL, (size_t)size);
		msg->result = ret ? ret : size;
	}
	msg->ropcode = mcb_s ? mcb_s->opcode : 0;
	nk_synch_wakeup_one(&msg->sender->msg_reply);
	nk_sched_run(nk);
out:
	nk_unlock(nk);
	return ret;
}
