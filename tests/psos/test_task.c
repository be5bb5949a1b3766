/* SPDX-License-Identifier: MIT */
/*
 * pSOS tasks: creation errors, start and preemption, priorities,
 * ident by name, deletion (of another, of self), suspension, notepad
 * registers, t_mode (T_NOPREEMPT, T_TSLICE round robin at exact
 * dates), t_restart, bad and wrong-class IDs.
 */
#include "psos_test.h"

static void body_note(void *arg)
{
	note("%s", (const char *)arg);
}

static void body_sleep(void *arg)
{
	note("%s", (const char *)arg);
	CHECK_EQ(tm_wkafter(2), 0);
	note("%s-woke", (const char *)arg);
}

TEST(create_errors)
{
	unsigned long tid;

	CHECK_EQ(t_create("T", 0, 4096, 0, 0, &tid), ERR_PRIOR);
	CHECK_EQ(t_create("T", 256, 4096, 0, 0, &tid), ERR_PRIOR);
	CHECK_EQ(t_create("T", 10, 100, 100, 0, &tid), ERR_TINYSTK);
	CHECK_EQ(t_create("T", 10, ~0UL, 2, 0, &tid), ERR_TINYSTK);
	CHECK_EQ(t_create("T", 10, 4096, 0, 0, NULL), ERR_OBJID);
	CHECK_EQ(t_create("T", 10, 4096, 0, T_GLOBAL | T_FPU, &tid), 0);
	CHECK_EQ(t_start(tid, 0, NULL, NULL), ERR_SSFN);
	CHECK_EQ(t_delete(tid), 0);
	CHECK_EQ(t_delete(tid), ERR_OBJID);
	CHECK_EQ(t_start(tid, 0, task_entry, NULL), ERR_OBJID);
}

TEST(start_preempts_main)
{
	unsigned long tid, args[4] = {(uintptr_t)body_sleep, (uintptr_t) "a"};

	log_start();
	CHECK_EQ(t_create("A", 10, 4096, 0, 0, &tid), 0);
	note("created");
	CHECK_EQ(t_start(tid, 0, task_entry, args), 0);
	note("started");
	CHECK_EQ(t_start(tid, 0, task_entry, args), ERR_ACTIVE);
	settle(3);
	check_log("created@0 a@0 started@0 a-woke@20");
	/* It returned from its entry: deleted, its ID stale. */
	CHECK_EQ(t_suspend(tid), ERR_OBJID);
}

TEST(priority_order_and_setpri)
{
	unsigned long a, b, old = 0;

	log_start();
	CHECK_EQ(t_create("A", 10, 4096, 0, 0, &a), 0);
	CHECK_EQ(t_create("B", 20, 4096, 0, 0, &b), 0);
	CHECK_EQ(t_setpri(a, 30, &old), 0);
	CHECK_EQ(old, 10);
	CHECK_EQ(t_setpri(a, 0, &old), 0);
	CHECK_EQ(old, 30);
	CHECK_EQ(t_setpri(a, 256, &old), ERR_SETPRI);
	/* Both dormant: main holds the CPU until it waits. */
	CHECK_EQ(t_suspend(a), ERR_NACTIVE);
	{
		unsigned long args_a[4] = {(uintptr_t)body_note,
					   (uintptr_t) "a"},
			      args_b[4] = {(uintptr_t)body_note,
					   (uintptr_t) "b"};

		CHECK_EQ(t_mode(T_NOPREEMPT, T_NOPREEMPT, NULL), 0);
		CHECK_EQ(t_start(b, 0, task_entry, args_b), 0);
		CHECK_EQ(t_start(a, 0, task_entry, args_a), 0);
		note("main");
		CHECK_EQ(t_mode(T_NOPREEMPT, T_PREEMPT, &old), 0);
		CHECK_EQ(old, T_NOPREEMPT);
	}
	check_log("main@0 a@0 b@0");
}

static void body_raise(void *arg)
{
	unsigned long low, old = 0,
			   args[4] = {(uintptr_t)body_note, (uintptr_t) "low"};

	(void)arg;
	CHECK_EQ(t_create("LOW", 10, 4096, 0, 0, &low), 0);
	CHECK_EQ(t_start(low, 0, task_entry, args), 0);
	note("started");
	/* Raised above the caller, it runs at once. */
	CHECK_EQ(t_setpri(low, 30, &old), 0);
	note("raised:%lu", old);
}

TEST(setpri_preempts)
{
	log_start();
	spawn("HIGH", 20, 0, body_raise, NULL);
	check_log("started@0 low@0 raised:10@0");
}

TEST(ident)
{
	unsigned long a, b, found = 0, self = 0;

	CHECK_EQ(t_create("ABCDEF", 10, 4096, 0, 0, &a), 0);
	/* Only four characters count. */
	CHECK_EQ(t_ident("ABCDxyz", 0, &found), 0);
	CHECK_EQ(found, a);
	CHECK_EQ(t_ident("ABC", 0, &found), ERR_OBJNF);
	CHECK_EQ(t_ident("ABCD", 1, &found), ERR_NODENO);
	CHECK_EQ(t_ident("ABCD", 0, NULL), ERR_OBJID);
	/* Duplicates are allowed. */
	CHECK_EQ(t_create("ABCD", 10, 4096, 0, 0, &b), 0);
	CHECK(b != a);
	CHECK_EQ(t_ident(NULL, 0, &self), 0);
	CHECK(self != 0 && self != a && self != b);
	CHECK_EQ(t_ident("", 0, &found), 0);
	CHECK_EQ(found, self);
	CHECK_EQ(t_delete(a), 0);
	CHECK_EQ(t_ident("ABCD", 0, &found), 0);
	CHECK_EQ(found, b);
	CHECK_EQ(t_delete(b), 0);
	CHECK_EQ(t_ident("ABCD", 0, &found), ERR_OBJNF);
}

TEST(long_names)
{
	struct psos_config cfg = {
	    .kc_ticks2sec = 100, .kc_ticks2slice = 10, .long_names = 1};
	unsigned long a, found = 0;

	CHECK_EQ(psos_configure(&cfg), 0);
	CHECK_EQ(t_create("sensor_task", 10, 4096, 0, 0, &a), 0);
	CHECK_EQ(t_ident("sens", 0, &found), ERR_OBJNF);
	CHECK_EQ(t_ident("sensor_task", 0, &found), 0);
	CHECK_EQ(found, a);
	CHECK_EQ(t_delete(a), 0);
	cfg.long_names = 0;
	CHECK_EQ(psos_configure(&cfg), 0);
	CHECK_EQ(psos_configure(NULL), ERR_OBJID);
	cfg.kc_ticks2sec = 0;
	CHECK_EQ(psos_configure(&cfg), ERR_ILLTICKS);
	cfg.kc_ticks2sec = 100;
	cfg.kc_ticks2slice = 0;
	CHECK_EQ(psos_configure(&cfg), ERR_ILLTICKS);
}

static void body_suicide(void *arg)
{
	note("%s", (const char *)arg);
	CHECK_EQ(t_delete(0), 0);
	note("not-reached");
}

static void body_forever(void *arg)
{
	note("%s", (const char *)arg);
	CHECK_EQ(tm_wkafter(1000000), 0);
	note("not-reached");
}

TEST(delete_self_and_other)
{
	unsigned long a, b;

	log_start();
	a = spawn("A", 10, 0, body_suicide, "a");
	b = spawn("B", 10, 0, body_forever, "b");
	CHECK_EQ(t_delete(b), 0);
	settle(1);
	check_log("a@0 b@0");
	CHECK_EQ(t_delete(a), ERR_OBJID);
	CHECK_EQ(t_delete(b), ERR_OBJID);
}

TEST(suspend_resume)
{
	unsigned long a;

	log_start();
	a = spawn("A", 10, 0, body_sleep, "a");
	CHECK_EQ(t_suspend(a), 0);
	CHECK_EQ(t_suspend(a), ERR_SUSP);
	/* Its sleep ends while suspended: it runs once resumed. */
	settle(5);
	note("resume");
	CHECK_EQ(t_resume(a), 0);
	CHECK_EQ(t_resume(a), ERR_OBJID);
	check_log("a@0 resume@50 a-woke@50");
}

static void body_regs(void *arg)
{
	unsigned long v = 0;

	(void)arg;
	CHECK_EQ(t_getreg(0, 3, &v), 0);
	note("reg3=%lu", v);
	CHECK_EQ(t_setreg(0, 4, v + 1), 0);
}

TEST(registers)
{
	unsigned long a, v = 0, args[4] = {(uintptr_t)body_regs, 0};

	log_start();
	CHECK_EQ(t_create("REGS", 10, 4096, 0, 0, &a), 0);
	CHECK_EQ(t_setreg(a, 3, 42), 0);
	CHECK_EQ(t_getreg(a, 3, &v), 0);
	CHECK_EQ(v, 42);
	CHECK_EQ(t_setreg(a, 16, 1), ERR_REGNUM);
	CHECK_EQ(t_getreg(a, 16, &v), ERR_REGNUM);
	CHECK_EQ(t_getreg(a, 0, NULL), ERR_OBJID);
	CHECK_EQ(t_setreg(0, 15, 7), 0);
	CHECK_EQ(t_getreg(0, 15, &v), 0);
	CHECK_EQ(v, 7);
	CHECK_EQ(t_start(a, 0, task_entry, args), 0);
	check_log("reg3=42@0");
}

static unsigned long np_sem;

static void body_hi(void *arg)
{
	(void)arg;
	note("hi");
	CHECK_EQ(sm_p(np_sem, SM_WAIT, 0), 0);
	note("hi-got");
}

static void body_nopreempt(void *arg)
{
	unsigned long old = 1;

	(void)arg;
	note("np-start");
	spawn("HI", 50, 0, body_hi, NULL);
	note("np-still");
	/* A wait lets the more urgent task run; afterwards the caller is
	 * still not preemptible: the task it readies waits for it. */
	CHECK_EQ(tm_wkafter(1), 0);
	note("np-back");
	CHECK_EQ(sm_v(np_sem), 0);
	note("np-gave");
	CHECK_EQ(t_mode(T_NOPREEMPT, T_PREEMPT, &old), 0);
	note("np-end");
	CHECK_EQ(old, T_NOPREEMPT);
}

TEST(nopreempt)
{
	CHECK_EQ(sm_create("NPS", 0, SM_FIFO, &np_sem), 0);
	log_start();
	spawn("NP", 10, T_NOPREEMPT, body_nopreempt, NULL);
	settle(2);
	check_log("np-start@0 np-still@0 hi@0 np-back@10 np-gave@10 "
		  "hi-got@10 np-end@10");
	CHECK_EQ(sm_delete(np_sem), 0);
}

static void body_nopreempt_spin(void *arg)
{
	(void)arg;
	note("np-start");
	spawn("HI", 50, 0, body_sleep, "hi");
	CHECK_EQ(tm_wkafter(1), 0);
	note("np-back");
	nk_consume(test_runtime(), 15 * 1000000);
	note("np-spun");
	CHECK_EQ(t_mode(T_NOPREEMPT, T_PREEMPT, NULL), 0);
	note("np-end");
}

TEST(nopreempt_defers_a_timer_wake)
{
	if (!on_sim())
		return; /* CPU time on live is not virtual */
	log_start();
	spawn("NP", 10, T_NOPREEMPT, body_nopreempt_spin, NULL);
	settle(5);
	/* hi woke at 20 ms but ran only when np turned preemption on. */
	check_log("np-start@0 hi@0 np-back@10 np-spun@25 hi-woke@25 "
		  "np-end@25");
}

static void body_spin(void *arg)
{
	for (int i = 0; i < 3; i++) {
		note("%s%d", (const char *)arg, i);
		nk_consume(test_runtime(), 50 * 1000000);
	}
}

TEST(timeslice_round_robin)
{
	unsigned long mode = 0;

	if (!on_sim())
		return; /* CPU time on live is not virtual */
	log_start();
	CHECK_EQ(t_mode(T_NOPREEMPT, T_NOPREEMPT, NULL), 0);
	spawn("A", 10, T_TSLICE, body_spin, "a");
	spawn("B", 10, T_TSLICE, body_spin, "b");
	CHECK_EQ(t_mode(T_NOPREEMPT, 0, NULL), 0);
	/* Slices of 10 ticks (100 ms) alternate the two equals. */
	check_log("a0@0 a1@50 b0@100 b1@150 a2@200 b2@250");
	CHECK_EQ(t_mode(0, 0, &mode), 0);
	CHECK_EQ(mode, 0);
}

static void body_restart(unsigned long count, unsigned long a1,
			 unsigned long a2, unsigned long a3)
{
	(void)a1;
	(void)a2;
	(void)a3;
	note("run%lu", count);
	CHECK_EQ(tm_wkafter(1000), 0);
}

TEST(restart)
{
	unsigned long a, args[4] = {1, 0, 0, 0}, again[4] = {2, 0, 0, 0};

	log_start();
	CHECK_EQ(t_create("R", 10, 4096, 0, 0, &a), 0);
	CHECK_EQ(t_restart(a, again), ERR_NACTIVE);
	CHECK_EQ(t_start(a, 0, body_restart, args), 0);
	CHECK_EQ(t_setpri(a, 20, NULL), 0);
	CHECK_EQ(tm_wkafter(3), 0);
	CHECK_EQ(t_restart(a, again), 0);
	{
		unsigned long prio = 0;

		/* Its t_create priority again, the same ID. */
		CHECK_EQ(t_setpri(a, 0, &prio), 0);
		CHECK_EQ(prio, 10);
	}
	CHECK_EQ(t_delete(a), 0);
	check_log("run1@0 run2@30");
}

static void body_restart_self(unsigned long count, unsigned long a1,
			      unsigned long a2, unsigned long a3)
{
	unsigned long again[4] = {count + 1, 0, 0, 0}, v = 0;

	(void)a1;
	(void)a2;
	(void)a3;
	CHECK_EQ(t_getreg(0, 0, &v), 0);
	note("run%lu:%lu", count, v);
	CHECK_EQ(t_setreg(0, 0, v + 10), 0);
	if (count < 3) {
		CHECK_EQ(tm_wkafter(1), 0);
		t_restart(0, again);
		note("not-reached");
	}
}

TEST(restart_self)
{
	unsigned long a, args[4] = {1, 0, 0, 0};

	log_start();
	CHECK_EQ(t_create("RS", 10, 4096, 0, 0, &a), 0);
	CHECK_EQ(t_start(a, 0, body_restart_self, args), 0);
	settle(3);
	/* Same ID throughout; the notepad registers survive. */
	check_log("run1:0@0 run2:10@10 run3:20@20");
	CHECK_EQ(t_delete(a), ERR_OBJID);
}

TEST(bad_task_ids)
{
	unsigned long v, smid;

	for (size_t i = 0; i < NR_BAD_IDS; i++) {
		unsigned long id = bad_ids[i];

		if (id == 0)
			continue; /* 0 is the caller */
		CHECK_EQ(t_start(id, 0, task_entry, NULL), ERR_OBJID);
		CHECK_EQ(t_restart(id, NULL), ERR_OBJID);
		CHECK_EQ(t_delete(id), ERR_OBJID);
		CHECK_EQ(t_suspend(id), ERR_OBJID);
		CHECK_EQ(t_resume(id), ERR_OBJID);
		CHECK_EQ(t_setpri(id, 10, &v), ERR_OBJID);
		CHECK_EQ(t_getreg(id, 0, &v), ERR_OBJID);
		CHECK_EQ(t_setreg(id, 0, 0), ERR_OBJID);
		CHECK_EQ(ev_send(id, 1), ERR_OBJID);
	}
	CHECK_EQ(t_start(0, 0, task_entry, NULL), ERR_OBJID);
	/* A semaphore's ID is not a task's. */
	CHECK_EQ(sm_create("S", 0, 0, &smid), 0);
	CHECK_EQ(t_suspend(smid), ERR_OBJTYPE);
	CHECK_EQ(ev_send(smid, 1), ERR_OBJTYPE);
	CHECK_EQ(sm_delete(smid), 0);
	CHECK_EQ(t_suspend(smid), ERR_OBJID);
}

static void *plain_thread(void *arg)
{
	unsigned long *ret = arg, v;

	ret[0] = t_mode(0, 0, &v);
	ret[1] = t_ident(NULL, 0, &v);
	ret[2] = tm_wkafter(1);
	ret[3] = ev_receive(1, 0, 0, &v);
	return NULL;
}

TEST(outside_tasks)
{
	unsigned long ret[4] = {1, 1, 1, 1};

	test_runtime();
	run_plain_thread(plain_thread, ret);
	CHECK_EQ(ret[0], ERR_SSFN);
	CHECK_EQ(ret[1], ERR_OBJID);
	CHECK_EQ(ret[2], ERR_SSFN);
	CHECK_EQ(ret[3], ERR_SSFN);
}

TESTS(T(create_errors), T(start_preempts_main), T(priority_order_and_setpri),
      T(setpri_preempts), T(ident), T(long_names), T(delete_self_and_other),
      T(suspend_resume), T(registers), T(nopreempt),
      T(nopreempt_defers_a_timer_wake), T(timeslice_round_robin), T(restart),
      T(restart_self), T(bad_task_ids), T(outside_tasks));
