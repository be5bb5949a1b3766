/* SPDX-License-Identifier: MIT */
/*
 * RTAI event bits and condition variables: tests and exit changes,
 * waiters served in priority order by one signal, the masks reported,
 * timeouts at exact dates (sim), deletion, condition waits releasing
 * and retaking their mutex, bad input.
 */
#include "rtai_test.h"

#include <rtai/rtai_bits.h>
#include <rtai/rtai_sem.h>

static BITS *flags;

struct bwait {
	const char *name;
	int prio;
	int test;
	unsigned long tmask;
	int exit;
	unsigned long emask;
	RTIME delay; /* 0: no timeout */
	int ret;
	unsigned long got;
};

static void bits_waiter(void *arg)
{
	struct bwait *w = arg;

	CHECK(rt_task_init(0, w->prio, 0, 0) != NULL);
	w->ret = w->delay
		     ? rt_bits_wait_timed(flags, w->test, w->tmask, w->exit,
					  w->emask, w->delay, &w->got)
		     : rt_bits_wait(flags, w->test, w->tmask, w->exit, w->emask,
				    &w->got);
	note("%s:%lx", w->name, rt_get_bits(flags));
}

TEST(waits_and_signals)
{
	struct bwait all = {"all", 10, ALL_SET, 0x3, CLR_BITS, 0x1, 0, 1, 0};
	struct bwait any = {"any", 20, ANY_SET, 0x6, SET_BITS, 0x8, 0, 1, 0};
	struct bwait clr = {"clr", 30, ALL_CLR, 0x1, NOP_BITS, 0, 0, 1, 0};
	long a, b, c;

	main_task();
	flags = rt_bits_init(nam2num("FLAGS"), 0x1);
	CHECK(flags != NULL);
	log_start();
	a = start(bits_waiter, &all);
	b = start(bits_waiter, &any);
	c = start(bits_waiter, &clr);
	/* 0x11: nobody yet. */
	CHECK_EQ(rt_bits_signal(flags, SET_BITS, 0x10), 0x11);
	note("set1");
	/* 0x13: "all" leaves clearing bit 0, "any" (bits 1-2) leaves
	 * setting bit 3, and then bit 0 is clear for "clr". */
	CHECK_EQ(rt_bits_signal(flags, SET_BITS, 0x2), 0x1a);
	finish(a);
	finish(b);
	finish(c);
	check_log("set1@0 all:1a@0 any:1a@0 clr:1a@0");
	CHECK_EQ(all.got, 0x13);
	CHECK_EQ(any.got, 0x12);
	CHECK_EQ(clr.got, 0x1a);
	CHECK_EQ(all.ret, 0);
	CHECK_EQ(rt_get_bits(flags), 0x1a);
	CHECK_EQ(rt_bits_reset(flags, 0xf0), 0x1a);
	CHECK_EQ(rt_bits_signal(flags, CLR_BITS, 0x30), 0xc0);
	CHECK_EQ(rt_bits_signal(flags, NOP_BITS, 0x1), 0xc0);
	CHECK_EQ(rt_bits_delete(flags), 0);
}

TEST(if_timeouts_deletion)
{
	struct bwait t = {"timed", 10, ALL_SET, 0x1, NOP_BITS, 0, 2 * MS, 1, 0};
	struct bwait d = {"deleted", 11, ANY_SET, 0x1, NOP_BITS, 0, 0, 1, 0};
	unsigned long got = 0;
	long a, b;

	main_task();
	flags = rt_bits_init(0, 0x4);
	CHECK_EQ(rt_bits_wait_if(flags, ANY_SET, 0x1, NOP_BITS, 0, &got), 0);
	CHECK_EQ(got, 0x4);
	CHECK_EQ(rt_bits_wait_if(flags, ANY_CLR, 0x5, SET_BITS, 0x1, &got), 1);
	CHECK_EQ(got, 0x4);
	CHECK_EQ(rt_get_bits(flags), 0x5);
	CHECK_EQ(rt_bits_wait(flags, ALL_SET, 0x5, CLR_BITS, 0x5, &got), 0);
	CHECK_EQ(got, 0x5);
	CHECK_EQ(rt_bits_wait_until(flags, ALL_SET, 0x1, NOP_BITS, 0,
				    rt_get_time(), &got),
		 RTE_TIMOUT);
	CHECK_EQ(rt_bits_wait_timed(flags, ALL_SET, 0x1, NOP_BITS, 0, 0, NULL),
		 RTE_TIMOUT);
	log_start();
	a = start(bits_waiter, &t);
	b = start(bits_waiter, &d);
	CHECK_EQ(rt_sleep(3 * MS), 0);
	CHECK_EQ(rt_bits_delete(flags), 0);
	finish(a);
	finish(b);
	CHECK_EQ(t.ret, RTE_TIMOUT);
	CHECK_EQ(d.ret, RTE_OBJREM);
	check_log("timed:0@2000000 deleted:0@3000000");
}

TEST(bits_bad_input)
{
	BITS *gone = rt_bits_init(0, 0);
	BITS *bads[] = {NULL, (BITS *)0x10, (BITS *)UINTPTR_MAX,
			(BITS *)main_task(), gone};
	unsigned long got = 7;

	CHECK_EQ(rt_bits_delete(gone), 0);
	for (unsigned int i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		BITS *b = bads[i];

		CHECK_EQ(rt_bits_delete(b), RTE_OBJINV);
		CHECK_EQ(rt_get_bits(b), 0);
		CHECK_EQ(rt_bits_reset(b, 1), 0);
		CHECK_EQ(rt_bits_signal(b, SET_BITS, 1), 0);
		CHECK_EQ(rt_bits_wait(b, ALL_SET, 1, NOP_BITS, 0, &got),
			 RTE_OBJINV);
		CHECK_EQ(rt_bits_wait_if(b, ALL_SET, 1, NOP_BITS, 0, &got),
			 RTE_OBJINV);
		CHECK_EQ(
		    rt_bits_wait_until(b, ALL_SET, 1, NOP_BITS, 0, 0, &got),
		    RTE_OBJINV);
		CHECK_EQ(
		    rt_bits_wait_timed(b, ALL_SET, 1, NOP_BITS, 0, 1, &got),
		    RTE_OBJINV);
	}
	CHECK_EQ(got, 7);
	flags = rt_bits_init(0, 1);
	/* Compound tests and SET_CLR_BITS are not supported. */
	CHECK_EQ(rt_bits_wait(flags, 4, 1, NOP_BITS, 0, &got), RTE_OBJINV);
	CHECK_EQ(rt_bits_wait(flags, -1, 1, NOP_BITS, 0, &got), RTE_OBJINV);
	CHECK_EQ(rt_bits_wait(flags, ALL_SET, 1, 2, 0, &got), RTE_OBJINV);
	CHECK_EQ(rt_bits_signal(flags, 2, 1), 0);
	CHECK_EQ(rt_get_bits(flags), 1);
	CHECK_EQ(rt_bits_delete(flags), 0);
}

/* --- conditions --- */

static CND *cond;
static SEM *lock;
static int shared;

struct cwait {
	const char *name;
	int prio;
	RTIME delay;
	int ret;
};

static void cond_waiter(void *arg)
{
	struct cwait *w = arg;

	CHECK(rt_task_init(0, w->prio, 0, 0) != NULL);
	CHECK_EQ(rt_sem_wait(lock), 1);
	while (shared == 0 && w->ret != RTE_TIMOUT)
		w->ret = w->delay ? rt_cond_wait_timed(cond, lock, w->delay)
				  : rt_cond_wait(cond, lock);
	note("%s:%d", w->name, rt_get_inher_prio(NULL));
	CHECK_EQ(rt_sem_signal(lock), 0);
}

TEST(condition_waits)
{
	struct cwait a = {"a", 10, 0, 1}, b = {"b", 20, 0, 1};
	struct cwait t = {"t", 30, MS, 1};
	long ia, ib, it;

	main_task();
	cond = rt_cond_init(nam2num("COND"));
	lock = rt_typed_sem_init(0, RESEM_RECURS, RES_SEM);
	CHECK(cond != NULL && lock != NULL);
	shared = 0;
	log_start();
	ia = start(cond_waiter, &a);
	ib = start(cond_waiter, &b);
	it = start(cond_waiter, &t);
	/* All three wait, the lock free: a signal nobody waits for is
	 * lost, but these wait. */
	CHECK_EQ(rt_sem_count(lock), 1);
	CHECK_EQ(rt_sleep(2 * MS), 0);
	CHECK_EQ(rt_sem_wait(lock), 1);
	shared = 1;
	CHECK_EQ(rt_cond_broadcast(cond), 0);
	note("bcast");
	CHECK_EQ(rt_sem_signal(lock), 0);
	finish(ia);
	finish(ib);
	finish(it);
	check_log("t:30@1000000 bcast@2000000 a:10@2000000 b:20@2000000");
	CHECK_EQ(t.ret, RTE_TIMOUT);
	CHECK_EQ(a.ret, 0);
	CHECK_EQ(b.ret, 0);
	/* Nobody waits: a signal is lost. */
	CHECK_EQ(rt_cond_signal(cond), 0);
	CHECK_EQ(rt_sem_count(cond), 0);
	/* Not the owner of the RES_SEM. */
	CHECK_EQ(rt_cond_wait(cond, lock), RTE_PERM);
	CHECK_EQ(rt_cond_wait_until(cond, lock, 0), RTE_PERM);
	/* A binary semaphore as the mutex. */
	CHECK_EQ(rt_sem_delete(lock), 0);
	lock = rt_typed_sem_init(0, 1, BIN_SEM);
	CHECK_EQ(rt_sem_wait(lock), 1);
	CHECK_EQ(rt_cond_wait_timed(cond, lock, MS), RTE_TIMOUT);
	CHECK_EQ(rt_sem_count(lock), 0);
	CHECK_EQ(rt_sem_signal(lock), 0);
	CHECK_EQ(rt_cond_wait(lock, lock), RTE_OBJINV);
	CHECK_EQ(rt_cond_wait(cond, cond), RTE_OBJINV);
	CHECK_EQ(rt_cond_wait(cond, NULL), RTE_OBJINV);
	CHECK_EQ(rt_cond_wait(NULL, lock), RTE_OBJINV);
	CHECK_EQ(rt_cond_signal(NULL), RTE_OBJINV);
	CHECK_EQ(rt_cond_broadcast(NULL), RTE_OBJINV);
	CHECK_EQ(rt_cond_wait_timed(NULL, lock, 1), RTE_OBJINV);
	CHECK_EQ(rt_cond_delete(cond), 0);
	CHECK_EQ(rt_cond_delete(cond), RTE_OBJINV);
	CHECK_EQ(rt_sem_delete(lock), 0);
}

TESTS(T(waits_and_signals), T(if_timeouts_deletion), T(bits_bad_input),
      T(condition_waits));
