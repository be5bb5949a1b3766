/* SPDX-License-Identifier: MIT */
/*
 * VxWorks semLib: binary, counting and mutex semaphores; options and
 * bad IDs; NO_WAIT, timeouts at exact tick dates; FIFO and priority
 * queueing; preemption by a give and its deferral under taskLock;
 * semFlush; deletion waking waiters; recursive mutexes, owner-only give,
 * priority inheritance (transitive), SEM_DELETE_SAFE.
 */
#include "vxworks_test.h"

struct pender {
	SEM_ID sem;
	int timeout;
	const char *name;
	STATUS ret;
	int err;
};

static int pender_body(long arg)
{
	struct pender *p = (struct pender *)arg;

	p->ret = semTake(p->sem, p->timeout);
	p->err = errnoGet();
	note("%s", p->name);
	return 0;
}

static TASK_ID pend(struct pender *p, SEM_ID sem, const char *name, int prio,
		    int timeout)
{
	p->sem = sem;
	p->timeout = timeout;
	p->name = name;
	p->ret = 1;
	return spawn(name, prio, (FUNCPTR)pender_body, (long)p);
}

TEST(create_errors)
{
	CHECK_NULL(semBCreate(0x10, SEM_EMPTY), S_semLib_INVALID_OPTION);
	CHECK_NULL(semBCreate(SEM_DELETE_SAFE, SEM_EMPTY),
		   S_semLib_INVALID_OPTION);
	CHECK_NULL(semBCreate(2, SEM_EMPTY), S_semLib_INVALID_QUEUE_TYPE);
	CHECK_NULL(semBCreate(3, SEM_FULL), S_semLib_INVALID_QUEUE_TYPE);
	CHECK_NULL(semBCreate(SEM_Q_FIFO, (SEM_B_STATE)2),
		   S_semLib_INVALID_STATE);
	CHECK_NULL(semBCreate(SEM_Q_FIFO, (SEM_B_STATE)-1),
		   S_semLib_INVALID_STATE);
	CHECK_NULL(semCCreate(SEM_INVERSION_SAFE, 0), S_semLib_INVALID_OPTION);
	CHECK_NULL(semCCreate(SEM_Q_FIFO, -1), EINVAL);
	CHECK_NULL(semMCreate(SEM_INVERSION_SAFE), S_semLib_INVALID_OPTION);
	CHECK_NULL(semMCreate(0x100), S_semLib_INVALID_OPTION);
	CHECK_NULL(semMCreate(2), S_semLib_INVALID_QUEUE_TYPE);
}

TEST(bad_ids)
{
	SEM_ID gone = semBCreate(SEM_Q_FIFO, SEM_FULL);
	MSG_Q_ID q = msgQCreate(1, 1, MSG_Q_FIFO);
	SEM_ID bads[] = {NULL,
			 gone,
			 (SEM_ID)0x1234,
			 (SEM_ID)q,
			 (SEM_ID)UINTPTR_MAX,
			 (SEM_ID)(uintptr_t)taskIdSelf()};

	CHECK_EQ(semDelete(gone), OK);
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		CHECK_FAIL(semTake(bads[i], NO_WAIT), S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(semTake(bads[i], WAIT_FOREVER),
			   S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(semGive(bads[i]), S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(semFlush(bads[i]), S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(semDelete(bads[i]), S_objLib_OBJ_ID_ERROR);
	}
	CHECK_EQ(msgQDelete(q), OK);
}

TEST(binary_and_counting)
{
	SEM_ID b = semBCreate(SEM_Q_FIFO, SEM_EMPTY);
	SEM_ID c = semCCreate(SEM_Q_PRIORITY, 2);

	CHECK(b != NULL && c != NULL);
	CHECK_FAIL(semTake(b, NO_WAIT), S_objLib_OBJ_UNAVAILABLE);
	/* A full binary semaphore stays full. */
	CHECK_EQ(semGive(b), OK);
	CHECK_EQ(semGive(b), OK);
	CHECK_EQ(semTake(b, NO_WAIT), OK);
	CHECK_FAIL(semTake(b, NO_WAIT), S_objLib_OBJ_UNAVAILABLE);
	CHECK_EQ(semTake(c, NO_WAIT), OK);
	CHECK_EQ(semTake(c, WAIT_FOREVER), OK);
	CHECK_FAIL(semTake(c, NO_WAIT), S_objLib_OBJ_UNAVAILABLE);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(semGive(c), OK);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(semTake(c, NO_WAIT), OK);
	CHECK_FAIL(semTake(c, NO_WAIT), S_objLib_OBJ_UNAVAILABLE);
	CHECK_EQ(semDelete(b), OK);
	CHECK_EQ(semDelete(c), OK);
	CHECK_FAIL(semDelete(b), S_objLib_OBJ_ID_ERROR);
}

TEST(timeouts)
{
	SEM_ID s = semBCreate(SEM_Q_FIFO, SEM_EMPTY);
	struct pender p;

	log_start();
	CHECK_FAIL(semTake(s, 5), S_objLib_OBJ_TIMEOUT);
	note("t5");
	/* Off a boundary: the timeout ends on the n-th tick from now. */
	CHECK_EQ(nk_consume(test_runtime(), 400000), 0);
	CHECK_FAIL(semTake(s, 2), S_objLib_OBJ_TIMEOUT);
	note("t2");
	/* Served before its timeout: at the give (on live, a timeout
	 * roomy enough for main's three ticks on a slow build). */
	pend(&p, s, "p", 10, on_sim() ? 10 : 1000);
	CHECK_EQ(taskDelay(3), OK);
	note("give");
	CHECK_EQ(semGive(s), OK);
	check_log("t5@5 t2@7 give@10 p@10");
	CHECK_EQ(p.ret, OK);
	CHECK_EQ(semDelete(s), OK);
}

/* The default clock: 60 ticks per second, a tick of 16666666 ns. */
TEST(default_rate_timeout)
{
	SEM_ID s = semBCreate(SEM_Q_FIFO, SEM_EMPTY);
	nk_time_t t0;

	CHECK_EQ(sysClkRateSet(60), OK);
	CHECK_EQ(taskDelay(1), OK);
	t0 = now_ns();
	CHECK_FAIL(semTake(s, 3), S_objLib_OBJ_TIMEOUT);
	if (on_sim())
		CHECK_EQ(now_ns() - t0, 3 * (1000000000LL / 60));
	CHECK_EQ(semDelete(s), OK);
}

static void queueing(int order, const char *expect)
{
	SEM_ID s = semBCreate(order, SEM_EMPTY);
	struct pender p[3];

	log_start();
	pend(&p[0], s, "p30", 30, WAIT_FOREVER);
	pend(&p[1], s, "p10", 10, WAIT_FOREVER);
	pend(&p[2], s, "p20", 20, WAIT_FOREVER);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(semGive(s), OK);
	check_log(expect);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(p[i].ret, OK);
	CHECK_EQ(semDelete(s), OK);
}

TEST(fifo_and_priority_queueing)
{
	queueing(SEM_Q_FIFO, "p30@0 p10@0 p20@0");
	queueing(SEM_Q_PRIORITY, "p10@0 p20@0 p30@0");
}

TEST(give_preempts_unless_locked)
{
	SEM_ID s = semCCreate(SEM_Q_FIFO, 0);
	struct pender p;

	log_start();
	pend(&p, s, "woke", 10, WAIT_FOREVER);
	step("give");
	CHECK_EQ(semGive(s), OK);
	step("back");
	pend(&p, s, "woke2", 10, WAIT_FOREVER);
	CHECK_EQ(taskLock(), OK);
	step("give2");
	CHECK_EQ(semGive(s), OK);
	step("back2");
	CHECK_EQ(taskUnlock(), OK);
	check_log("give woke@0 back give2 back2 woke2@0");
	CHECK_EQ(semDelete(s), OK);
}

TEST(flush)
{
	SEM_ID s = semBCreate(SEM_Q_PRIORITY, SEM_EMPTY);
	SEM_ID m = semMCreate(SEM_Q_FIFO);
	struct pender p[3];

	log_start();
	pend(&p[0], s, "a", 30, WAIT_FOREVER);
	pend(&p[1], s, "b", 10, WAIT_FOREVER);
	pend(&p[2], s, "c", 20, on_sim() ? 50 : 1000);
	CHECK_EQ(semFlush(s), OK);
	check_log("b@0 c@0 a@0");
	for (int i = 0; i < 3; i++)
		CHECK_EQ(p[i].ret, OK);
	/* The state is unchanged: still empty. */
	CHECK_FAIL(semTake(s, NO_WAIT), S_objLib_OBJ_UNAVAILABLE);
	CHECK_EQ(semFlush(s), OK);
	CHECK_FAIL(semFlush(m), S_semLib_INVALID_OPERATION);
	CHECK_EQ(semDelete(s), OK);
	CHECK_EQ(semDelete(m), OK);
}

TEST(delete_wakes_waiters)
{
	SEM_ID s = semCCreate(SEM_Q_FIFO, 0);
	SEM_ID m = semMCreate(SEM_Q_PRIORITY);
	struct pender p[3];

	log_start();
	CHECK_EQ(semTake(m, NO_WAIT), OK);
	pend(&p[0], s, "a", 30, WAIT_FOREVER);
	pend(&p[1], s, "b", 10, 100);
	pend(&p[2], m, "m", 20, WAIT_FOREVER);
	CHECK_EQ(taskDelay(2), OK);
	CHECK_EQ(semDelete(s), OK);
	CHECK_EQ(semDelete(m), OK);
	check_log("b@2 a@2 m@2");
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(p[i].ret, ERROR);
		CHECK_EQ(p[i].err, S_objLib_OBJ_DELETED);
	}
}

static int bad_give_body(long arg)
{
	SEM_ID m = (SEM_ID)arg;

	CHECK_FAIL(semGive(m), S_semLib_INVALID_OPERATION);
	return 0;
}

TEST(mutex_recursion_and_ownership)
{
	SEM_ID m = semMCreate(SEM_Q_PRIORITY | SEM_INVERSION_SAFE);

	CHECK(m != NULL);
	CHECK_FAIL(semGive(m), S_semLib_INVALID_OPERATION);
	CHECK_EQ(semTake(m, WAIT_FOREVER), OK);
	CHECK_EQ(semTake(m, NO_WAIT), OK);
	CHECK_EQ(semTake(m, 5), OK);
	spawn("thief", 10, (FUNCPTR)bad_give_body, (long)m);
	CHECK_EQ(semGive(m), OK);
	CHECK_EQ(semGive(m), OK);
	CHECK_EQ(semGive(m), OK);
	CHECK_FAIL(semGive(m), S_semLib_INVALID_OPERATION);
	CHECK_EQ(semDelete(m), OK);
}

static SEM_ID m1, m2;

/*
 * How long a holder keeps a mutex: @ticks on sim, and on live room for
 * what main does meanwhile on a slow build (the journal's audit, a
 * Debug build, a loaded machine).
 */
static int held(int ticks)
{
	return on_sim() ? ticks : 200;
}

static int holder_body(long arg)
{
	(void)arg;
	CHECK_EQ(semTake(m1, WAIT_FOREVER), OK);
	note("L-holds");
	taskDelay(held(10));
	note("L-gives");
	CHECK_EQ(semGive(m1), OK);
	note("L-done");
	return 0;
}

static int middle_body(long arg)
{
	(void)arg;
	CHECK_EQ(semTake(m2, WAIT_FOREVER), OK);
	note("M-holds");
	CHECK_EQ(semTake(m1, WAIT_FOREVER), OK);
	note("M-got");
	CHECK_EQ(semGive(m1), OK);
	CHECK_EQ(semGive(m2), OK);
	return 0;
}

static int high_body(long arg)
{
	(void)arg;
	note("H-waits");
	CHECK_EQ(semTake(m2, WAIT_FOREVER), OK);
	note("H-got");
	CHECK_EQ(semGive(m2), OK);
	return 0;
}

TEST(inheritance_is_transitive)
{
	TASK_ID low, mid;
	int prio;

	m1 = semMCreate(SEM_Q_PRIORITY | SEM_INVERSION_SAFE);
	m2 = semMCreate(SEM_Q_PRIORITY | SEM_INVERSION_SAFE);
	log_start();
	low = spawn("L", 50, (FUNCPTR)holder_body, 0);
	mid = spawn("M", 40, (FUNCPTR)middle_body, 0);
	CHECK_EQ(taskPriorityGet(low, &prio), OK);
	CHECK_EQ(prio, 40);
	spawn("H", 10, (FUNCPTR)high_body, 0);
	/* H waits for M, which waits for L: L runs at H's priority. */
	CHECK_EQ(taskPriorityGet(low, &prio), OK);
	CHECK_EQ(prio, 10);
	CHECK_EQ(taskPriorityGet(mid, &prio), OK);
	CHECK_EQ(prio, 10);
	CHECK_EQ(taskDelay(2 * held(10)), OK);
	check_log("L-holds@0 M-holds@0 H-waits@0 L-gives@10 M-got@10 "
		  "H-got@10 L-done@10");
	CHECK_EQ(semDelete(m1), OK);
	CHECK_EQ(semDelete(m2), OK);
}

/* Without SEM_INVERSION_SAFE, the holder keeps its priority. */
TEST(no_inheritance_without_option)
{
	TASK_ID low;
	int prio;

	m1 = semMCreate(SEM_Q_PRIORITY);
	m2 = semMCreate(SEM_Q_PRIORITY);
	low = spawn("L", 50, (FUNCPTR)holder_body, 0);
	spawn("M", 40, (FUNCPTR)middle_body, 0);
	CHECK_EQ(taskPriorityGet(low, &prio), OK);
	CHECK_EQ(prio, 50);
	CHECK_EQ(taskDelay(2 * held(10)), OK);
	CHECK_EQ(semDelete(m1), OK);
	CHECK_EQ(semDelete(m2), OK);
}

static int safe_holder_body(long arg)
{
	SEM_ID m = (SEM_ID)arg;

	CHECK_EQ(semTake(m, WAIT_FOREVER), OK);
	CHECK_EQ(semTake(m, WAIT_FOREVER), OK);
	note("holds");
	taskDelay(held(4));
	CHECK_EQ(semGive(m), OK);
	note("nested");
	CHECK_EQ(semGive(m), OK);
	note("gave");
	taskDelay(100);
	return 0;
}

TEST(delete_safe_mutex)
{
	SEM_ID m = semMCreate(SEM_Q_FIFO | SEM_DELETE_SAFE);
	TASK_ID t;

	log_start();
	t = spawn("holder", 10, (FUNCPTR)safe_holder_body, (long)m);
	note("delete");
	CHECK_EQ(taskDelete(t), OK);
	note("deleted");
	check_log("holds@0 delete@0 nested@4 gave@4 deleted@4");

	/* Deleting the mutex ends the safety it gave. */
	trail[0] = '\0';
	t = spawn("holder", 10, (FUNCPTR)safe_holder_body, (long)m);
	CHECK_EQ(semDelete(m), OK);
	CHECK_EQ(taskDelete(t), OK);
	note("deleted");
	check_log("holds@4 deleted@4");
}

static int take_and_delete(long arg)
{
	SEM_ID m = (SEM_ID)arg;

	CHECK_EQ(semTake(m, WAIT_FOREVER), OK);
	note("took");
	CHECK_EQ(semDelete(m), OK);
	note("deleted");
	return 0;
}

/* The next owner runs at the give and deletes the mutex before the
 * giver returns: the give touches it no more (the sanitizer build
 * checks). */
TEST(give_to_a_deleter)
{
	SEM_ID m =
	    semMCreate(SEM_Q_PRIORITY | SEM_DELETE_SAFE | SEM_INVERSION_SAFE);

	log_start();
	CHECK_EQ(semTake(m, WAIT_FOREVER), OK);
	spawn("deleter", 10, (FUNCPTR)take_and_delete, (long)m);
	note("give");
	CHECK_EQ(semGive(m), OK);
	note("back");
	check_log("give@0 took@0 deleted@0 back@0");
	CHECK_FAIL(semGive(m), S_objLib_OBJ_ID_ERROR);
}

static SEM_ID isr_b, isr_m;
static int isr_results[4];

static void isr_routine(long arg)
{
	(void)arg;
	isr_results[0] = semGive(isr_b);
	isr_results[1] = semTake(isr_b, NO_WAIT) == ERROR ? errnoGet() : 0;
	isr_results[2] = semGive(isr_m) == ERROR ? errnoGet() : 0;
	isr_results[3] = semFlush(isr_b);
}

TEST(interrupt_context)
{
	WDOG_ID wd = wdCreate();

	isr_b = semBCreate(SEM_Q_FIFO, SEM_EMPTY);
	isr_m = semMCreate(SEM_Q_FIFO);
	CHECK_EQ(semTake(isr_m, NO_WAIT), OK);
	CHECK_EQ(wdStart(wd, 1, FN(isr_routine), 0), OK);
	CHECK_EQ(semTake(isr_b, WAIT_FOREVER), OK);
	CHECK_EQ(isr_results[0], OK);
	CHECK_EQ(isr_results[1], S_intLib_NOT_ISR_CALLABLE);
	CHECK_EQ(isr_results[2], S_intLib_NOT_ISR_CALLABLE);
	CHECK_EQ(isr_results[3], OK);
	CHECK_EQ(semGive(isr_m), OK);
	CHECK_EQ(semDelete(isr_b), OK);
	CHECK_EQ(semDelete(isr_m), OK);
	CHECK_EQ(wdDelete(wd), OK);
}

TESTS(T(create_errors), T(bad_ids), T(binary_and_counting), T(timeouts),
      T(default_rate_timeout), T(fifo_and_priority_queueing),
      T(give_preempts_unless_locked), T(flush), T(delete_wakes_waiters),
      T(mutex_recursion_and_ownership), T(inheritance_is_transitive),
      T(no_inheritance_without_option), T(delete_safe_mutex),
      T(give_to_a_deleter), T(interrupt_context));
