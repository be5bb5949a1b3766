/* SPDX-License-Identifier: MIT */
/*
 * VxWorks taskLib and taskInfo: spawning and its bad input, priorities
 * 0..255 distinct, names, taskDelay at exact tick dates and as a yield,
 * taskLock, suspension, deletion safety, task IDs that are stale,
 * forged or of another kind, and calls from a plain pthread.
 */
#include "vxworks_test.h"

#include <stdlib.h>

/* A task that notes its name (arg: a string) and ends. */
static int note_body(long arg)
{
	step((const char *)arg);
	return 0;
}

TEST(spawn_errors)
{
	CHECK_FAIL(taskSpawn("x", -1, 0, 0, (FUNCPTR)note_body, 0, 0, 0, 0, 0,
			     0, 0, 0, 0, 0),
		   S_taskLib_ILLEGAL_PRIORITY);
	CHECK_FAIL(taskSpawn("x", 256, 0, 0, (FUNCPTR)note_body, 0, 0, 0, 0, 0,
			     0, 0, 0, 0, 0),
		   S_taskLib_ILLEGAL_PRIORITY);
	CHECK_FAIL(taskSpawn("x", 10, 0x10000, 0, (FUNCPTR)note_body, 0, 0, 0,
			     0, 0, 0, 0, 0, 0, 0),
		   S_taskLib_ILLEGAL_OPTIONS);
	CHECK_FAIL(taskSpawn("x", 10, 0, -1, (FUNCPTR)note_body, 0, 0, 0, 0, 0,
			     0, 0, 0, 0, 0),
		   S_taskLib_ILLEGAL_STACK_INFO);
	CHECK_FAIL(taskSpawn("x", 10, 0, 0, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
		   EINVAL);
	/* Nothing was made: the name is free. */
	CHECK_FAIL(taskNameToId("x"), S_taskLib_NAME_NOT_FOUND);
}

/* Ten arguments reach the entry point, in order. */
static long args_sum;
static int args_body(long a1, long a2, long a3, long a4, long a5, long a6,
		     long a7, long a8, long a9, long a10)
{
	args_sum = a1 + 10 * a2 + 100 * a3 + 1000 * a4 + 10000 * a5 +
		   100000 * a6 + 1000000 * a7 + 10000000 * a8 + 100000000 * a9 +
		   1000000000 * a10;
	return 0;
}

TEST(spawn_runs_at_once_with_args)
{
	TASK_ID tid;

	tid = taskSpawn("args", 100, VX_FP_TASK | VX_NO_STACK_FILL, 100000,
			(FUNCPTR)args_body, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1);
	CHECK(tid != ERROR);
	/* More urgent than main: it ran to its end already. */
	CHECK_EQ(args_sum, 1987654321L);
	CHECK_FAIL(taskIdVerify(tid), S_objLib_OBJ_ID_ERROR);
}

TEST(priority_order_and_range)
{
	TASK_ID low, high;
	int prio;

	log_start();
	CHECK_EQ(taskLock(), OK);
	spawn("p30", 30, (FUNCPTR)note_body, (long)"p30");
	spawn("p0", 0, (FUNCPTR)note_body, (long)"p0");
	spawn("p255", 255, (FUNCPTR)note_body, (long)"p255");
	spawn("p10", 10, (FUNCPTR)note_body, (long)"p10");
	spawn("p254", 254, (FUNCPTR)note_body, (long)"p254");
	step("main");
	CHECK_EQ(taskUnlock(), OK);
	/* p255 is main's equal: it runs when main yields. */
	step("unlocked");
	CHECK_EQ(taskDelay(0), OK);
	check_log("main p0 p10 p30 p254 unlocked p255");

	/* Every priority is kept as it is: none is squeezed. */
	CHECK_EQ(taskPriorityGet(0, &prio), OK);
	CHECK_EQ(prio, 255);
	CHECK_EQ(taskLock(), OK);
	low = spawn("low", 200, (FUNCPTR)note_body, (long)"low");
	high = spawn("high", 199, (FUNCPTR)note_body, (long)"high");
	for (int p = 0; p <= 255; p++) {
		CHECK_EQ(taskPrioritySet(low, p), OK);
		CHECK_EQ(taskPriorityGet(low, &prio), OK);
		CHECK_EQ(prio, p);
	}
	CHECK_EQ(taskPrioritySet(low, 1), OK);
	CHECK_EQ(taskPrioritySet(high, 0), OK);
	CHECK_FAIL(taskPrioritySet(high, 256), S_taskLib_ILLEGAL_PRIORITY);
	CHECK_FAIL(taskPrioritySet(high, -1), S_taskLib_ILLEGAL_PRIORITY);
	CHECK_FAIL(taskPriorityGet(high, NULL), EINVAL);
	trail[0] = '\0';
	CHECK_EQ(taskUnlock(), OK);
	check_log("high low");
}

TEST(names)
{
	TASK_ID a, b, anon1, anon2, lng;
	char expect[32];

	CHECK_EQ(taskLock(), OK);
	a = spawn("twin", 50, (FUNCPTR)note_body, (long)"a");
	b = spawn("twin", 50, (FUNCPTR)note_body, (long)"b");
	anon1 = spawn(NULL, 50, (FUNCPTR)note_body, (long)"c");
	anon2 = spawn("", 50, (FUNCPTR)note_body, (long)"d");
	lng = spawn("a_name_much_longer_than_thirty_one_characters", 50,
		    (FUNCPTR)note_body, (long)"e");
	CHECK(a != b);
	/* Tasks may share a name; the first spawned is found by it. */
	CHECK_EQ(taskNameToId("twin"), a);
	CHECK_STR(taskName(b), "twin");
	/* Anonymous tasks are "tN", N counting them. */
	CHECK_EQ(taskName(anon1)[0], 't');
	snprintf(expect, sizeof(expect), "t%ld",
		 strtol(taskName(anon1) + 1, NULL, 10) + 1);
	CHECK_STR(taskName(anon2), expect);
	CHECK_EQ(taskNameToId(taskName(anon2)), anon2);
	/* Long names are cut to 31 characters, and found so. */
	CHECK_STR(taskName(lng), "a_name_much_longer_than_thirty_");
	CHECK_EQ(taskNameToId("a_name_much_longer_than_thirty_one_characters"),
		 lng);
	CHECK_STR(taskName(0), "main");
	CHECK_EQ(taskNameToId("main"), taskIdSelf());
	CHECK_FAIL(taskNameToId("nobody"), S_taskLib_NAME_NOT_FOUND);
	CHECK_FAIL(taskNameToId(NULL), S_taskLib_NAME_NOT_FOUND);
	CHECK_FAIL(taskNameToId(""), S_taskLib_NAME_NOT_FOUND);
	CHECK_EQ(taskUnlock(), OK);
	/* Ended: the names are free, the IDs stale. */
	CHECK_FAIL(taskNameToId("twin"), S_taskLib_NAME_NOT_FOUND);
	CHECK_NULL(taskName(a), S_objLib_OBJ_ID_ERROR);
}

static int forever_body(long arg)
{
	(void)arg;
	for (;;)
		taskDelay(1000);
	return 0;
}

TEST(bad_ids)
{
	SEM_ID sem = semBCreate(SEM_Q_FIFO, SEM_EMPTY);
	TASK_ID gone = spawn("gone", 10, (FUNCPTR)note_body, (long)"gone");
	TASK_ID bads[] = {gone, 0x12345678, -5, (TASK_ID)sem,
			  (TASK_ID)0x7fffffffffffffffL};
	TASK_DESC desc;
	int prio;

	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		TASK_ID t = bads[i];

		CHECK_FAIL(taskDelete(t), S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(taskDeleteForce(t), S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(taskSuspend(t), S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(taskResume(t), S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(taskPrioritySet(t, 10), S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(taskPriorityGet(t, &prio), S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(taskIdVerify(t), S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(taskGetInfo(t, &desc), S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(errnoOfTaskGet(t), S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(errnoOfTaskSet(t, 1), S_objLib_OBJ_ID_ERROR);
		CHECK_NULL(taskName(t), S_objLib_OBJ_ID_ERROR);
		CHECK_NULL(taskTcb(t), S_objLib_OBJ_ID_ERROR);
		CHECK_EQ(taskIsReady(t), FALSE);
		CHECK_EQ(taskIsSuspended(t), FALSE);
	}
	CHECK_FAIL(taskIdVerify(0), S_objLib_OBJ_ID_ERROR);
	CHECK_FAIL(taskGetInfo(0, NULL), EINVAL);
	CHECK_EQ(semDelete(sem), OK);
}

TEST(delay_dates_and_yield)
{
	TASK_ID peer;
	ULONG t0;

	log_start();
	t0 = tickGet();
	CHECK_EQ(taskDelay(5), OK);
	note("d5");
	/* On live, a loaded machine may wake us a tick or more late. */
	if (on_sim())
		CHECK_EQ(tickGet() - t0, 5);
	else
		CHECK(tickGet() - t0 >= 5);
	/* Off a tick boundary, a delay of 1 ends at the next one. */
	CHECK_EQ(nk_consume(test_runtime(), 300000), 0);
	CHECK_EQ(taskDelay(1), OK);
	note("d1");
	/* 0 yields to main's equals only. */
	peer = spawn("peer", 255, (FUNCPTR)note_body, (long)"peer");
	step("before");
	CHECK_EQ(taskDelay(0), OK);
	step("after");
	check_log("d5@5 d1@6 before peer after");
	CHECK_FAIL(taskIdVerify(peer), S_objLib_OBJ_ID_ERROR);
}

static SEM_ID lock_sem;

TEST(lock_defers_and_waits_release_it)
{
	log_start();
	CHECK_EQ(taskLock(), OK);
	CHECK_EQ(taskLock(), OK);
	spawn("urgent", 10, (FUNCPTR)note_body, (long)"urgent");
	step("locked");
	CHECK_EQ(taskUnlock(), OK);
	step("still");
	/* What need not wait keeps the lock: nobody runs. */
	lock_sem = semBCreate(SEM_Q_FIFO, SEM_FULL);
	CHECK_EQ(semTake(lock_sem, WAIT_FOREVER), OK);
	step("took");
	/* A wait lets the others run meanwhile, as on VxWorks, and the
	 * task has its lock back when it runs again. */
	CHECK_FAIL(semTake(lock_sem, 5), S_objLib_OBJ_TIMEOUT);
	note("timeout");
	spawn("second", 10, (FUNCPTR)note_body, (long)"second");
	step("relocked");
	CHECK_EQ(taskDelay(2), OK);
	note("delayed");
	CHECK_EQ(nk_sched_lock_depth(test_runtime()), 1);
	spawn("third", 10, (FUNCPTR)note_body, (long)"third");
	step("unlock");
	CHECK_EQ(taskUnlock(), OK);
	/* Unlocking unlocked does nothing. */
	CHECK_EQ(taskUnlock(), OK);
	check_log("locked still took urgent timeout@5 relocked second "
		  "delayed@7 unlock third");
	CHECK_EQ(semDelete(lock_sem), OK);
}

static int ticker_body(long arg)
{
	(void)arg;
	for (;;) {
		note("tick");
		taskDelay(2);
	}
	return 0;
}

static int self_suspend_body(long arg)
{
	(void)arg;
	note("suspending");
	taskSuspend(0);
	note("resumed");
	return 0;
}

TEST(suspend_resume)
{
	TASK_ID t;

	log_start();
	t = spawn("ticker", 20, (FUNCPTR)ticker_body, 0);
	CHECK_EQ(taskDelay(3), OK);
	CHECK_EQ(taskSuspend(t), OK);
	CHECK_EQ(taskSuspend(t), OK); /* no nesting */
	CHECK_EQ(taskIsSuspended(t), TRUE);
	CHECK_EQ(taskIsReady(t), FALSE);
	CHECK_EQ(taskDelay(5), OK);
	note("resume");
	CHECK_EQ(taskResume(t), OK);
	CHECK_EQ(taskIsSuspended(t), FALSE);
	CHECK_EQ(taskResume(t), OK); /* not suspended: nothing */
	CHECK_EQ(taskDelay(1), OK);
	CHECK_EQ(taskDelete(t), OK);
	/* The delay that ended while suspended runs at the resume.  On
	 * live, how often it ticks before and after depends on the load. */
	if (on_sim()) {
		check_log("tick@0 tick@2 resume@8 tick@8");
	} else {
		CHECK(strstr(trail, "tick resume tick") != NULL);
	}

	trail[0] = '\0';
	t = spawn("selfsusp", 20, (FUNCPTR)self_suspend_body, 0);
	CHECK_EQ(taskIsSuspended(t), TRUE);
	CHECK_EQ(taskDelay(2), OK);
	CHECK_EQ(taskResume(t), OK);
	check_log("suspending@9 resumed@11");
}

static SEM_ID safe_sem;

static int safe_body(long arg)
{
	(void)arg;
	CHECK_EQ(taskSafe(), OK);
	CHECK_EQ(taskSafe(), OK);
	note("safe");
	CHECK_EQ(semTake(safe_sem, WAIT_FOREVER), OK);
	CHECK_EQ(taskUnsafe(), OK);
	note("half");
	CHECK_EQ(taskUnsafe(), OK);
	note("unsafe");
	taskDelay(100);
	note("never");
	return 0;
}

static int giver_body(long arg)
{
	(void)arg;
	taskDelay(5);
	note("give");
	semGive(safe_sem);
	return 0;
}

TEST(deletion_safety)
{
	TASK_ID t;

	log_start();
	safe_sem = semBCreate(SEM_Q_FIFO, SEM_EMPTY);
	t = spawn("safe", 10, (FUNCPTR)safe_body, 0);
	spawn("giver", 20, (FUNCPTR)giver_body, 0);
	note("delete");
	CHECK_EQ(taskDelete(t), OK);
	note("deleted");
	check_log("safe@0 delete@0 give@5 half@5 unsafe@5 deleted@5");
	CHECK_FAIL(taskIdVerify(t), S_objLib_OBJ_ID_ERROR);

	/* Forced: at once. */
	trail[0] = '\0';
	t = spawn("safe", 10, (FUNCPTR)safe_body, 0);
	CHECK_EQ(taskDeleteForce(t), OK);
	note("forced");
	check_log("safe@5 forced@5");
	CHECK_FAIL(taskIdVerify(t), S_objLib_OBJ_ID_ERROR);
	CHECK_EQ(semDelete(safe_sem), OK);

	/* taskUnsafe without taskSafe does nothing. */
	CHECK_EQ(taskUnsafe(), OK);
}

static int self_delete_body(long arg)
{
	(void)arg;
	CHECK_EQ(taskSafe(), OK);
	note("self");
	/* A safe task may delete itself. */
	taskDelete(0);
	note("never");
	return 0;
}

static int exit_body(long arg)
{
	note("exit");
	taskExit((int)arg);
	note("never");
	return 0;
}

TEST(self_delete_and_exit)
{
	log_start();
	CHECK_FAIL(
	    taskIdVerify(spawn("selfdel", 10, (FUNCPTR)self_delete_body, 0)),
	    S_objLib_OBJ_ID_ERROR);
	CHECK_FAIL(taskIdVerify(spawn("exit", 10, (FUNCPTR)exit_body, 3)),
		   S_objLib_OBJ_ID_ERROR);
	check_log("self@0 exit@0");
}

static int restart_runs;

static int restartable_body(long arg)
{
	note("run%d:%ld", ++restart_runs, arg);
	/* The second run restarts itself once more. */
	if (restart_runs == 2)
		taskRestart(0);
	taskDelay(1000);
	return 0;
}

TEST(restart)
{
	TASK_ID t;
	int prio;

	log_start();
	t = spawn("again", 30, (FUNCPTR)restartable_body, 7);
	CHECK_EQ(taskPrioritySet(t, 40), OK);
	CHECK_EQ(taskDelay(2), OK);
	CHECK_EQ(taskRestart(t), OK);
	/* The same ID, name and priority, from the entry again. */
	CHECK_EQ(taskIdVerify(t), OK);
	CHECK_EQ(taskNameToId("again"), t);
	CHECK_STR(taskName(t), "again");
	CHECK_EQ(taskPriorityGet(t, &prio), OK);
	CHECK_EQ(prio, 40);
	check_log("run1:7@0 run2:7@2 run3:7@2");
	CHECK_EQ(taskDelete(t), OK);
	CHECK_FAIL(taskIdVerify(t), S_objLib_OBJ_ID_ERROR);
	CHECK_FAIL(taskRestart(t), S_objLib_OBJ_ID_ERROR);
	CHECK_FAIL(taskRestart(0x4242), S_objLib_OBJ_ID_ERROR);
	/* main was never spawned: nothing to restart it from. */
	CHECK_FAIL(taskRestart(0), S_taskLib_ILLEGAL_OPERATION);
}

static TASK_ID seen_self;

static int self_id_body(long arg)
{
	(void)arg;
	seen_self = taskIdSelf();
	step("ran");
	return 0;
}

TEST(init_and_activate)
{
	static WIND_TCB tcb;
	static char stack[4096];
	TASK_ID tid = (TASK_ID)(uintptr_t)&tcb;

	CHECK_FAIL(taskInit(NULL, "i", 20, 0, stack, sizeof(stack),
			    (FUNCPTR)self_id_body, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			    0),
		   EINVAL);
	CHECK_FAIL(taskInit(&tcb, "i", 256, 0, stack, sizeof(stack),
			    (FUNCPTR)self_id_body, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			    0),
		   S_taskLib_ILLEGAL_PRIORITY);
	CHECK_FAIL(taskInit(&tcb, "i", 20, 0, stack, sizeof(stack), NULL, 0, 0,
			    0, 0, 0, 0, 0, 0, 0, 0),
		   EINVAL);
	/* Not made yet: its address is no ID. */
	CHECK_FAIL(taskActivate(tid), S_objLib_OBJ_ID_ERROR);
	log_start();
	CHECK_EQ(taskInit(&tcb, "inited", 20, VX_FP_TASK, stack, sizeof(stack),
			  (FUNCPTR)self_id_body, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
		 OK);
	CHECK_STR(tcb.name, "inited");
	CHECK_EQ(tcb.options, VX_FP_TASK);
	/* The ID is the control block's address, as on VxWorks. */
	CHECK_EQ(taskIdVerify(tid), OK);
	CHECK_EQ(taskNameToId("inited"), tid);
	CHECK_STR(taskName(tid), "inited");
	step("before");
	CHECK_EQ(taskActivate(tid), OK);
	check_log("before ran");
	CHECK_EQ(seen_self, tid);
	CHECK_FAIL(taskIdVerify(tid), S_objLib_OBJ_ID_ERROR);
	CHECK_FAIL(taskActivate(tid), S_objLib_OBJ_ID_ERROR);

	CHECK_EQ(taskInit(&tcb, NULL, 20, 0, NULL, 0, (FUNCPTR)forever_body, 0,
			  0, 0, 0, 0, 0, 0, 0, 0, 0),
		 OK);
	CHECK_EQ(taskName(tid)[0], 't');
	CHECK_EQ(taskActivate(tid), OK);
	CHECK_FAIL(taskActivate(tid), S_taskLib_ILLEGAL_OPERATION);
	CHECK_EQ(taskRestart(tid), OK);
	CHECK_EQ(taskIdVerify(tid), OK);
	CHECK_EQ(taskDelete(tid), OK);
	CHECK_FAIL(taskIdVerify(tid), S_objLib_OBJ_ID_ERROR);
	/* Made and deleted without ever running. */
	CHECK_EQ(taskInit(&tcb, "idle", 20, 0, NULL, 0, (FUNCPTR)forever_body,
			  0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
		 OK);
	CHECK_EQ(taskDelete(tid), OK);
	CHECK_FAIL(taskIdVerify(tid), S_objLib_OBJ_ID_ERROR);
}

TEST(info_and_tcb)
{
	TASK_DESC d;
	WIND_TCB *tcb;
	TASK_ID t;

	t = taskSpawn("info", 42, VX_FP_TASK, 300000, (FUNCPTR)forever_body, 0,
		      0, 0, 0, 0, 0, 0, 0, 0, 0);
	CHECK(t != ERROR);
	CHECK_EQ(taskGetInfo(t, &d), OK);
	CHECK_EQ(d.td_id, t);
	CHECK_STR(d.td_name, "info");
	CHECK_EQ(d.td_priority, 42);
	CHECK_EQ(d.td_status, WIND_DELAY);
	CHECK_EQ(d.td_options, VX_FP_TASK);
	CHECK(d.td_entry == (FUNCPTR)forever_body);
	CHECK_EQ(d.td_stackSize, 300000);
	CHECK_EQ(taskSuspend(t), OK);
	CHECK_EQ(taskGetInfo(t, &d), OK);
	CHECK_EQ(d.td_status, WIND_DELAY | WIND_SUSPEND);
	tcb = taskTcb(t);
	CHECK(tcb != NULL);
	CHECK_STR(tcb->name, "info");
	CHECK_EQ(tcb->options, VX_FP_TASK);
	CHECK(taskTcb(0) != NULL);
	CHECK_STR(taskTcb(0)->name, "main");
	CHECK_EQ(taskGetInfo(0, &d), OK);
	CHECK_EQ(d.td_status, WIND_READY);
	CHECK_EQ(d.td_priority, 255);
	CHECK_EQ(taskIsReady(0), TRUE);
	CHECK_EQ(taskIdDefault(0), 0);
	CHECK_EQ(taskIdDefault(t), t);
	CHECK_EQ(taskIdDefault(0), t);
	CHECK_EQ(taskDelete(t), OK);
}

/* What a plain pthread gets from the task services. */
static void *plain_body(void *arg)
{
	int prio;

	(void)arg;
	CHECK_EQ(taskIdSelf(), 0);
	CHECK_FAIL(taskDelay(1), S_objLib_OBJ_ID_ERROR);
	CHECK_FAIL(taskLock(), S_objLib_OBJ_ID_ERROR);
	CHECK_FAIL(taskSafe(), S_objLib_OBJ_ID_ERROR);
	CHECK_FAIL(taskPriorityGet(0, &prio), S_objLib_OBJ_ID_ERROR);
	CHECK_EQ(intContext(), FALSE);
	return NULL;
}

TEST(plain_pthread)
{
	run_plain_thread(plain_body, NULL);
}

TESTS(T(spawn_errors), T(spawn_runs_at_once_with_args),
      T(priority_order_and_range), T(names), T(bad_ids),
      T(delay_dates_and_yield), T(lock_defers_and_waits_release_it),
      T(suspend_resume), T(deletion_safety), T(self_delete_and_exit),
      T(restart), T(init_and_activate), T(info_and_tcb), T(plain_pthread));
