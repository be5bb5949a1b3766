/* SPDX-License-Identifier: MIT */
/*
 * pSOS calls from interrupt context (a nucleus timer handler, as a
 * clock ISR would make them): what may not wait there is refused with
 * ERR_SSFN, what pSOS allows in an ISR works (sm_v, ev_send, q_send,
 * non-blocking receives, tm_get, tm_tick).
 */
#include "psos_test.h"

struct isr_calls {
	unsigned long smid, qid, tid;
	unsigned long ret[12];
	int fired;
};

static void isr(struct nk_timer *timer)
{
	struct isr_calls *c = timer->cookie;
	unsigned long msg[4] = {7}, got, d, t, k;
	void *buf;

	c->ret[0] = sm_p(c->smid, SM_WAIT, 0);
	c->ret[1] = sm_p(c->smid, SM_NOWAIT, 0);
	c->ret[2] = sm_v(c->smid);
	c->ret[3] = q_receive(c->qid, Q_WAIT, 0, msg);
	c->ret[4] = q_send(c->qid, msg);
	c->ret[5] = ev_receive(1, EV_ANY, 0, &got);
	c->ret[6] = ev_send(c->tid, 0x4);
	c->ret[7] = tm_wkafter(1);
	c->ret[8] = t_mode(0, 0, &got);
	c->ret[9] = tm_get(&d, &t, &k);
	c->ret[10] = tm_tick();
	c->ret[11] = rn_getseg(bad_ids[1], 16, RN_WAIT, 0, &buf);
	c->fired++;
}

TEST(calls_from_a_handler)
{
	struct isr_calls c = {0};
	struct nk_timer timer;
	unsigned long msg[4] = {0}, got = 0;

	CHECK_EQ(sm_create("S", 0, 0, &c.smid), 0);
	CHECK_EQ(q_create("Q", 0, 0, &c.qid), 0);
	CHECK_EQ(t_ident(NULL, 0, &c.tid), 0);
	CHECK_EQ(tm_set(2030 << 16 | 1 << 8 | 1, 0, 0), 0);
	CHECK_EQ(nk_timer_init(test_runtime(), &timer, "isr", 0, isr, &c), 0);
	CHECK_EQ(nk_timer_start(&timer, 1000000, 0, NK_RELATIVE), 0);
	CHECK_EQ(ev_receive(0x4, EV_ALL, margin(10), &got), 0);
	CHECK_EQ(got, 0x4);
	CHECK_EQ(c.fired, 1);
	CHECK_EQ(c.ret[0], ERR_SSFN);
	CHECK_EQ(c.ret[1], ERR_NOSEM);
	CHECK_EQ(c.ret[2], 0);
	CHECK_EQ(c.ret[3], ERR_SSFN);
	CHECK_EQ(c.ret[4], 0);
	CHECK_EQ(c.ret[5], ERR_SSFN);
	CHECK_EQ(c.ret[6], 0);
	CHECK_EQ(c.ret[7], ERR_SSFN);
	CHECK_EQ(c.ret[8], ERR_SSFN);
	CHECK_EQ(c.ret[9], 0);
	CHECK_EQ(c.ret[10], 0);
	CHECK_EQ(c.ret[11], ERR_OBJID);
	/* What the handler gave is there. */
	CHECK_EQ(sm_p(c.smid, SM_NOWAIT, 0), 0);
	CHECK_EQ(q_receive(c.qid, Q_NOWAIT, 0, msg), 0);
	CHECK_EQ(msg[0], 7);
	CHECK_EQ(nk_timer_destroy(&timer), 0);
	CHECK_EQ(sm_delete(c.smid), 0);
	CHECK_EQ(q_delete(c.qid), 0);
}

TESTS(T(calls_from_a_handler));
