/* SPDX-License-Identifier: MIT */
/*
 * pSOS semaphores: counting, SM_NOWAIT, timeouts at exact dates, FIFO
 * and priority queueing, a V that preempts, deletion with waiters
 * (ERR_SKILLD to them, ERR_TATSDEL to the deleter), ident, bad IDs.
 */
#include "psos_test.h"

struct pender {
	unsigned long smid;
	unsigned long timeout;
	const char *name;
};

static void body_p(void *arg)
{
	struct pender *p = arg;
	unsigned long ret = sm_p(p->smid, SM_WAIT, p->timeout);

	note("%s:%lx", p->name, ret);
}

TEST(count_and_nowait)
{
	unsigned long s;

	CHECK_EQ(sm_create("S", 2, SM_FIFO, &s), 0);
	CHECK_EQ(sm_p(s, SM_NOWAIT, 0), 0);
	CHECK_EQ(sm_p(s, SM_NOWAIT, 0), 0);
	CHECK_EQ(sm_p(s, SM_NOWAIT, 0), ERR_NOSEM);
	CHECK_EQ(sm_v(s), 0);
	CHECK_EQ(sm_p(s, SM_WAIT, 5), 0);
	CHECK_EQ(sm_delete(s), 0);
	CHECK_EQ(sm_create("S", 0, 0, NULL), ERR_OBJID);
}

TEST(timeout_exact)
{
	unsigned long s;
	long long t0;

	CHECK_EQ(sm_create("S", 0, SM_FIFO, &s), 0);
	log_start();
	t0 = ms_now();
	CHECK_EQ(sm_p(s, SM_WAIT, 3), ERR_TIMEOUT);
	if (on_sim())
		CHECK_EQ(ms_now() - t0, 30);
	CHECK_EQ(sm_delete(s), 0);
}

static void order(unsigned long flags, const char *expected)
{
	struct pender p[3] = {{.name = "a"}, {.name = "b"}, {.name = "c"}};
	unsigned long s;

	CHECK_EQ(sm_create("S", 0, flags, &s), 0);
	for (int i = 0; i < 3; i++)
		p[i].smid = s;
	log_start();
	spawn_waiters(body_p, &p[0], &p[1], &p[2]);
	/* Each V preempts main for the waiter it wakes. */
	for (int i = 0; i < 3; i++)
		CHECK_EQ(sm_v(s), 0);
	check_log(expected);
	CHECK_EQ(sm_delete(s), 0);
}

TEST(fifo_order)
{
	order(SM_FIFO, "a:0@0 b:0@0 c:0@0");
}

TEST(priority_order)
{
	order(SM_PRIOR, "b:0@0 c:0@0 a:0@0");
}

TEST(delete_with_waiters)
{
	struct pender a = {.name = "a"}, b = {.name = "b", .timeout = 5};
	unsigned long s;

	CHECK_EQ(sm_create("S", 0, SM_PRIOR, &s), 0);
	a.smid = b.smid = s;
	log_start();
	spawn("A", 10, 0, body_p, &a);
	spawn("B", 20, 0, body_p, &b);
	note("delete");
	CHECK_EQ(sm_delete(s), ERR_TATSDEL);
	check_log("delete@0 b:43@0 a:43@0");
	CHECK_EQ(sm_delete(s), ERR_OBJID);
	CHECK_EQ(sm_create("S", 0, 0, &s), 0);
	CHECK_EQ(sm_delete(s), 0);
}

TEST(ident)
{
	unsigned long s1, s2, found = 0;

	CHECK_EQ(sm_create("SEM1", 0, 0, &s1), 0);
	CHECK_EQ(sm_create("SEM2", 0, 0, &s2), 0);
	CHECK_EQ(sm_ident("SEM2", 0, &found), 0);
	CHECK_EQ(found, s2);
	CHECK_EQ(sm_ident("SEM1xx", 0, &found), 0);
	CHECK_EQ(found, s1);
	CHECK_EQ(sm_ident("SEM3", 0, &found), ERR_OBJNF);
	CHECK_EQ(sm_ident("SEM1", 2, &found), ERR_NODENO);
	CHECK_EQ(sm_ident(NULL, 0, &found), ERR_OBJID);
	CHECK_EQ(sm_ident("SEM1", 0, NULL), ERR_OBJID);
	/* A task of that name is not a semaphore. */
	CHECK_EQ(t_ident("SEM1", 0, &found), ERR_OBJNF);
	CHECK_EQ(sm_delete(s1), 0);
	CHECK_EQ(sm_delete(s2), 0);
}

TEST(object_table_full)
{
	static unsigned long ids[5000];
	size_t n = 0;
	unsigned long ret;

	/* The registry holds 4096 entries: the table fills up. */
	while ((ret = sm_create("FULL", 0, 0, &ids[n])) == 0 && n < 4999)
		n++;
	CHECK_EQ(ret, ERR_OBJTFULL);
	CHECK(n > 4000);
	while (n > 0)
		CHECK_EQ(sm_delete(ids[--n]), 0);
	CHECK_EQ(sm_create("S", 0, 0, &ids[0]), 0);
	CHECK_EQ(sm_delete(ids[0]), 0);
}

TEST(bad_sem_ids)
{
	unsigned long tid;

	for (size_t i = 0; i < NR_BAD_IDS; i++) {
		CHECK_EQ(sm_p(bad_ids[i], SM_NOWAIT, 0), ERR_OBJID);
		CHECK_EQ(sm_p(bad_ids[i], SM_WAIT, 1), ERR_OBJID);
		CHECK_EQ(sm_v(bad_ids[i]), ERR_OBJID);
		CHECK_EQ(sm_delete(bad_ids[i]), ERR_OBJID);
	}
	CHECK_EQ(t_ident(NULL, 0, &tid), 0);
	CHECK_EQ(sm_v(tid), ERR_OBJTYPE);
	CHECK_EQ(sm_p(tid, 0, 0), ERR_OBJTYPE);
	CHECK_EQ(sm_delete(tid), ERR_OBJTYPE);
}

static void *plain_p(void *arg)
{
	unsigned long *s = arg;

	s[1] = sm_p(s[0], SM_WAIT, 0);
	s[2] = sm_v(s[0]);
	return NULL;
}

TEST(outside_tasks)
{
	unsigned long s[3] = {0, 1, 1};

	CHECK_EQ(sm_create("S", 0, 0, &s[0]), 0);
	run_plain_thread(plain_p, s);
	CHECK_EQ(s[1], ERR_SSFN);
	CHECK_EQ(s[2], 0);
	CHECK_EQ(sm_p(s[0], SM_NOWAIT, 0), 0);
	CHECK_EQ(sm_delete(s[0]), 0);
}

TESTS(T(count_and_nowait), T(timeout_exact), T(fifo_order), T(priority_order),
      T(delete_with_waiters), T(ident), T(object_table_full), T(bad_sem_ids),
      T(outside_tasks));
