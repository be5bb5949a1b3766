/* SPDX-License-Identifier: MIT */
/*
 * pSOS regions: creation checks, segments in whole units from the
 * lowest address, returns checked exactly, waiters served as segments
 * come back (each that fits, in FIFO or priority order), timeouts,
 * deletion (RN_DEL, ERR_SEGINUSE, ERR_RNKILLD and ERR_TATRNDEL), bad
 * IDs.
 */
#include "psos_test.h"

/* The region starts 128 bytes in, so that addresses before it exist. */
static long pool[1024];
#define mem ((long *)((char *)pool + 128))

struct getter {
	unsigned long rnid, size, timeout;
	const char *name;
	void *seg;
};

static void body_get(void *arg)
{
	struct getter *g = arg;
	unsigned long ret =
	    rn_getseg(g->rnid, g->size, RN_WAIT, g->timeout, &g->seg);

	note("%s:%lx:%ld", g->name, ret,
	     ret ? -1L : (long)((char *)g->seg - (char *)mem));
}

TEST(create_checks)
{
	unsigned long rn, asiz;

	CHECK_EQ(rn_create("R", NULL, 4096, 64, 0, &rn, &asiz), ERR_RNADDR);
	CHECK_EQ(rn_create("R", (char *)mem + 1, 4096, 64, 0, &rn, &asiz),
		 ERR_RNADDR);
	CHECK_EQ(rn_create("R", mem, 4096, 0, 0, &rn, &asiz), ERR_UNITSIZE);
	CHECK_EQ(rn_create("R", mem, 4096, 8, 0, &rn, &asiz), ERR_UNITSIZE);
	CHECK_EQ(rn_create("R", mem, 4096, 48, 0, &rn, &asiz), ERR_UNITSIZE);
	CHECK_EQ(rn_create("R", mem, 32768UL * 16, 16, 0, &rn, &asiz),
		 ERR_TINYUNIT);
	CHECK_EQ(rn_create("R", mem, 32, 64, 0, &rn, &asiz), ERR_TINYRN);
	CHECK_EQ(rn_create("R", mem, 4096, 64, 0, NULL, &asiz), ERR_OBJID);
	CHECK_EQ(rn_create("R", mem, 4096, 64, 0, &rn, NULL), ERR_OBJID);
	CHECK_EQ(rn_create("RGN1", mem, 4100, 64, 0, &rn, &asiz), 0);
	CHECK_EQ(asiz, 4096);
	{
		unsigned long found;

		CHECK_EQ(rn_ident("RGN1", &found), 0);
		CHECK_EQ(found, rn);
		CHECK_EQ(rn_ident("RGN2", &found), ERR_OBJNF);
	}
	CHECK_EQ(rn_delete(rn), 0);
}

TEST(segments_and_returns)
{
	unsigned long rn, asiz;
	void *a, *b, *c, *d;

	CHECK_EQ(rn_create("R", mem, 1024, 64, 0, &rn, &asiz), 0);
	CHECK_EQ(rn_getseg(rn, 0, RN_NOWAIT, 0, &a), ERR_ZERO);
	CHECK_EQ(rn_getseg(rn, 1025, RN_NOWAIT, 0, &a), ERR_TOOBIG);
	CHECK_EQ(rn_getseg(rn, 1, RN_NOWAIT, 0, NULL), ERR_OBJID);
	CHECK_EQ(rn_getseg(rn, 1, RN_NOWAIT, 0, &a), 0);
	CHECK_EQ(rn_getseg(rn, 65, RN_NOWAIT, 0, &b), 0);
	CHECK_EQ(rn_getseg(rn, 64, RN_NOWAIT, 0, &c), 0);
	CHECK(a == (void *)mem);
	CHECK((char *)b == (char *)mem + 64);
	CHECK((char *)c == (char *)mem + 192);
	CHECK_EQ(rn_getseg(rn, 832, RN_NOWAIT, 0, &d), ERR_NOSEG);
	CHECK_EQ(rn_getseg(rn, 768, RN_NOWAIT, 0, &d), 0);
	CHECK_EQ(rn_retseg(rn, (char *)b + 64), ERR_SEGADDR);
	CHECK_EQ(rn_retseg(rn, (char *)b + 8), ERR_SEGADDR);
	CHECK_EQ(rn_retseg(rn, (char *)mem + 1024), ERR_NOTINRN);
	CHECK_EQ(rn_retseg(rn, (char *)mem - 64), ERR_NOTINRN);
	CHECK_EQ(rn_retseg(rn, b), 0);
	CHECK_EQ(rn_retseg(rn, b), ERR_SEGFREE);
	/* The freed hole is taken again first. */
	CHECK_EQ(rn_getseg(rn, 100, RN_NOWAIT, 0, &b), 0);
	CHECK((char *)b == (char *)mem + 64);
	CHECK_EQ(rn_delete(rn), ERR_SEGINUSE);
	CHECK_EQ(rn_retseg(rn, a), 0);
	CHECK_EQ(rn_retseg(rn, b), 0);
	CHECK_EQ(rn_retseg(rn, c), 0);
	CHECK_EQ(rn_retseg(rn, d), 0);
	CHECK_EQ(rn_delete(rn), 0);
}

static void waiters(unsigned long flags, const char *expected)
{
	struct getter big = {.size = 512, .name = "big"},
		      s1 = {.size = 64, .name = "s1"},
		      s2 = {.size = 64, .name = "s2"};
	unsigned long rn, asiz;
	void *all, *half;

	CHECK_EQ(rn_create("R", mem, 1024, 64, flags, &rn, &asiz), 0);
	CHECK_EQ(rn_getseg(rn, 512, RN_NOWAIT, 0, &half), 0);
	CHECK_EQ(rn_getseg(rn, 512, RN_NOWAIT, 0, &all), 0);
	big.rnid = s1.rnid = s2.rnid = rn;
	log_start();
	spawn("BIG", 10, 0, body_get, &big);
	spawn("S1", 20, 0, body_get, &s1);
	spawn("S2", 30, 0, body_get, &s2);
	note("ret");
	CHECK_EQ(rn_retseg(rn, half), 0);
	note("ret2");
	CHECK_EQ(rn_retseg(rn, all), 0);
	check_log(expected);
	CHECK_EQ(rn_retseg(rn, s1.seg), 0);
	CHECK_EQ(rn_retseg(rn, s2.seg), 0);
	CHECK_EQ(rn_retseg(rn, big.seg), 0);
	CHECK_EQ(rn_delete(rn), 0);
}

TEST(fifo_waiters)
{
	/* big, first in line, takes the returned half whole; s1 and s2
	 * wait for the second return (s1 served first, s2 runs first). */
	waiters(RN_FIFO, "ret@0 big:0:0@0 ret2@0 s2:0:576@0 s1:0:512@0");
}

TEST(priority_waiters)
{
	/* s2 and s1 go first and leave big too little: it waits for the
	 * second return and takes the lowest run that fits. */
	waiters(RN_PRIOR, "ret@0 s2:0:0@0 s1:0:64@0 ret2@0 big:0:128@0");
}

TEST(timeout_and_delete)
{
	struct getter a = {.size = 64, .timeout = 2, .name = "a"},
		      b = {.size = 64, .name = "b"};
	unsigned long rn, asiz;
	void *all;

	CHECK_EQ(rn_create("R", mem, 1024, 64, RN_DEL, &rn, &asiz), 0);
	CHECK_EQ(rn_getseg(rn, 1024, RN_NOWAIT, 0, &all), 0);
	a.rnid = b.rnid = rn;
	log_start();
	spawn_timeout_then_waiter(body_get, &a, &b, 3);
	/* RN_DEL: deleted with a segment out. */
	CHECK_EQ(rn_delete(rn), ERR_TATRNDEL);
	check_log("a:1:-1@20 delete@30 b:26:-1@30");
	CHECK_EQ(rn_retseg(rn, all), ERR_OBJID);
}

static void body_hold(void *arg)
{
	struct getter *g = arg;

	CHECK_EQ(rn_getseg(g->rnid, g->size, RN_NOWAIT, 0, &g->seg), 0);
	CHECK_EQ(t_delete(0), 0);
}

TEST(segments_outlive_their_task)
{
	struct getter g = {.size = 100};
	unsigned long rn, asiz;

	CHECK_EQ(rn_create("R", mem, 1024, 64, 0, &rn, &asiz), 0);
	g.rnid = rn;
	spawn("HOLD", 10, 0, body_hold, &g);
	/* Segments belong to nobody: a deleted task's stay allocated. */
	CHECK_EQ(rn_delete(rn), ERR_SEGINUSE);
	CHECK_EQ(rn_retseg(rn, g.seg), 0);
	CHECK_EQ(rn_delete(rn), 0);
}

TEST(bad_region_ids)
{
	void *seg;
	unsigned long smid;

	for (size_t i = 0; i < NR_BAD_IDS; i++) {
		CHECK_EQ(rn_getseg(bad_ids[i], 16, RN_NOWAIT, 0, &seg),
			 ERR_OBJID);
		CHECK_EQ(rn_getseg(bad_ids[i], 16, RN_WAIT, 1, &seg),
			 ERR_OBJID);
		CHECK_EQ(rn_retseg(bad_ids[i], mem), ERR_OBJID);
		CHECK_EQ(rn_delete(bad_ids[i]), ERR_OBJID);
	}
	CHECK_EQ(sm_create("S", 0, 0, &smid), 0);
	CHECK_EQ(rn_retseg(smid, mem), ERR_OBJTYPE);
	CHECK_EQ(sm_delete(smid), 0);
	CHECK_EQ(rn_ident(NULL, &smid), ERR_OBJID);
}

TESTS(T(create_checks), T(segments_and_returns), T(fifo_waiters),
      T(priority_waiters), T(timeout_and_delete),
      T(segments_outlive_their_task), T(bad_region_ids));
