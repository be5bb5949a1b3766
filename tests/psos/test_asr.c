/* SPDX-License-Identifier: MIT */
/*
 * pSOS asynchronous signals: no ASR (ERR_NOASR), an ASR sent to itself
 * runs before as_send returns, a waiting task runs its ASR when its
 * wait ends and before the call returns, T_NOASR holds signals until
 * it is cleared, signals accumulate, as_return leaves the ASR, and
 * as_return outside one.
 */
#include "psos_test.h"

static void asr_note(unsigned long signals)
{
	note("asr:%lx", signals);
}

static void asr_return_early(unsigned long signals)
{
	note("asr:%lx", signals);
	as_return();
	note("not-reached");
}

TEST(no_asr_and_self)
{
	unsigned long self;

	CHECK_EQ(t_ident(NULL, 0, &self), 0);
	CHECK_EQ(as_send(self, 1), ERR_NOASR);
	CHECK_EQ(as_return(), ERR_NOTINASR);
	log_start();
	CHECK_EQ(as_catch(asr_note, 0), 0);
	CHECK_EQ(as_send(self, 0x5), 0);
	note("sent");
	/* Held off by T_NOASR, delivered as it is cleared, accumulated. */
	CHECK_EQ(t_mode(T_NOASR, T_NOASR, NULL), 0);
	CHECK_EQ(as_send(self, 0x1), 0);
	CHECK_EQ(as_send(self, 0x2), 0);
	note("held");
	CHECK_EQ(t_mode(T_NOASR, T_ASR, NULL), 0);
	note("released");
	CHECK_EQ(as_catch(asr_return_early, 0), 0);
	CHECK_EQ(as_send(self, 0x8), 0);
	note("back");
	CHECK_EQ(as_catch(NULL, 0), 0);
	CHECK_EQ(as_send(self, 1), ERR_NOASR);
	check_log("asr:5@0 sent@0 held@0 asr:3@0 released@0 asr:8@0 back@0");
	for (size_t i = 0; i < NR_BAD_IDS; i++)
		CHECK_EQ(as_send(bad_ids[i], 1), ERR_OBJID);
}

struct waiter {
	unsigned long smid;
};

static void body_wait(void *arg)
{
	struct waiter *w = arg;

	CHECK_EQ(as_catch(asr_note, T_NOASR), 0);
	note("wait");
	note("p:%lx", sm_p(w->smid, SM_WAIT, 0));
}

TEST(delivered_when_wait_ends)
{
	struct waiter w;
	unsigned long tid;

	CHECK_EQ(sm_create("S", 0, 0, &w.smid), 0);
	log_start();
	tid = spawn("W", 10, 0, body_wait, &w);
	CHECK_EQ(as_send(tid, 0x40), 0);
	note("sent");
	CHECK_EQ(tm_wkafter(2), 0);
	/* Still waiting: the ASR runs once the task is dispatched. */
	note("v");
	CHECK_EQ(sm_v(w.smid), 0);
	check_log("wait@0 sent@0 v@20 asr:40@20 p:0@20");
	CHECK_EQ(sm_delete(w.smid), 0);
}

static void *plain(void *arg)
{
	unsigned long *ret = arg;

	ret[0] = as_catch(asr_note, 0);
	ret[1] = as_return();
	return NULL;
}

TEST(outside_tasks)
{
	unsigned long ret[2] = {1, 1};

	test_runtime();
	run_plain_thread(plain, ret);
	CHECK_EQ(ret[0], ERR_SSFN);
	CHECK_EQ(ret[1], ERR_NOTINASR);
}

TESTS(T(no_asr_and_self), T(delivered_when_wait_ends), T(outside_tasks));
