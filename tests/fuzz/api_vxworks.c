/* SPDX-License-Identifier: MIT */
/*
 * The VxWorks skin's table for the API-sequence fuzzer: taskLib,
 * semLib, msgQLib, wdLib and rngLib on a pool of a few objects per
 * class, each call checked against the statuses its header documents
 * (a call that returns ERROR or NULL reports -errnoGet()).
 *
 * IDs are mostly pool slots, live or stale (deleted and not re-created),
 * sometimes 0, forged (random bits) or another class's.  Watchdog
 * routines are the handler callers.  Workers run at VxWorks priorities
 * 0..254, above the watcher (main, 255); a rescue flushes every
 * semaphore, feeds and drains every queue and resumes every task ever
 * spawned (a worker suspended on its way out is no longer one of the
 * slots), which teardown deletes.
 */
#include "fuzz.h"

#include <vxworks/errnoLib.h>
#include <vxworks/msgQLib.h>
#include <vxworks/rngLib.h>
#include <vxworks/semLib.h>
#include <vxworks/sysLib.h>
#include <vxworks/taskLib.h>
#include <vxworks/wdLib.h>

#include <stdio.h>
#include <string.h>

#define NR 3	      /* slots per class */
#define FUZZ_DATA 256 /* per-caller data buffer */
#define MSG_MAX 64    /* longest message of a pool queue */
#define WATCH_TICKS 1 /* the watcher's period, in ticks */
#define CALLERS (FUZZ_MAX_TASKS + FUZZ_MAX_IRQ)

/* Every task spawned in a run, for rescue and teardown to find. */
#define SPAWNED_MAX 4096

static struct {
	TASK_ID task[FUZZ_MAX_TASKS];
	TASK_ID spawned[SPAWNED_MAX];
	int nr_spawned;
	SEM_ID sem[NR];
	MSG_Q_ID q[NR];
	WDOG_ID wd[NR];
	RING_ID ring[NR];
} pool;

enum cls { TASK, SEM, MSGQ, WD, RING };

static struct {
	char data[FUZZ_DATA];
	char name[48];
} callers[CALLERS];

static char *my_data(struct fuzz_task *t)
{
	return callers[t->irq ? FUZZ_MAX_TASKS + t->slot : t->slot].data;
}

static uintptr_t *slot_of(enum cls c, int i)
{
	switch (c) {
	case TASK:
		return (uintptr_t *)&pool.task[i];
	case SEM:
		return (uintptr_t *)&pool.sem[i];
	case MSGQ:
		return (uintptr_t *)&pool.q[i];
	case WD:
		return (uintptr_t *)&pool.wd[i];
	case RING:
		break;
	}
	return (uintptr_t *)&pool.ring[i];
}

static const char *const class_names[] = {"task", "sem", "msgQ", "wd", "ring"};

/* An ID of class @c for a call, its text appended to the arguments. */
static uintptr_t pick(struct fuzz_task *t, enum cls c)
{
	uint32_t r = fuzz_below(&t->rng, 100);
	int nr = c == TASK ? FUZZ_MAX_TASKS : NR;
	int i = (int)fuzz_below(&t->rng, (uint32_t)nr);
	uintptr_t id;

	if (r < 88) {
		fuzz_args(t, "%s[%d]", class_names[c], i);
		return *slot_of(c, i);
	}
	if (r < 92) {
		fuzz_args(t, "0");
		return 0;
	}
	if (r < 96) {
		id = (uintptr_t)fuzz_next(&t->rng);
		fuzz_args(t, "forged %#lx", (unsigned long)id);
		return id;
	}
	c = (enum cls)((c + 1 + fuzz_below(&t->rng, RING)) % (RING + 1));
	nr = c == TASK ? FUZZ_MAX_TASKS : NR;
	i = (int)fuzz_below(&t->rng, (uint32_t)nr);
	fuzz_args(t, "%s[%d] as another", class_names[c], i);
	return *slot_of(c, i);
}

/* A timeout in ticks: NO_WAIT, WAIT_FOREVER, small or extreme. */
static int pick_ticks(struct fuzz_task *t)
{
	int v;

	switch (fuzz_below(&t->rng, 8)) {
	case 0:
	case 1:
		v = NO_WAIT;
		break;
	case 2:
		v = WAIT_FOREVER;
		break;
	case 3:
		v = fuzz_chance(&t->rng, 50) ? INT32_MAX : INT32_MIN;
		break;
	default:
		v = 1 + (int)fuzz_below(&t->rng, 5);
		break;
	}
	fuzz_args(t, "timeout %d", v);
	return v;
}

/* ERROR (or NULL) as -errno; else the result. */
static long status(long ret)
{
	return ret == ERROR ? -(long)errnoGet() : ret;
}

/* Tasks. */

/* A worker: its slot names it from its first instruction on (the
 * spawner may resume only after it ended). */
static int task_entry(long arg)
{
	struct fuzz_task *t = (struct fuzz_task *)arg;

	pool.task[t->slot] = taskIdSelf();
	fuzz_task_run(t);
	return 0;
}

static void spawned(TASK_ID tid)
{
	if (pool.nr_spawned < SPAWNED_MAX)
		pool.spawned[pool.nr_spawned++] = tid;
}

static long task_spawn(struct fuzz_task *t)
{
	int i = fuzz_free_slot(t->w);
	int prio = fuzz_chance(&t->rng, 90) ? (int)fuzz_below(&t->rng, 255)
					    : (int)fuzz_next(&t->rng);
	int options =
	    fuzz_chance(&t->rng, 90) ? VX_FP_TASK : (int)fuzz_next(&t->rng);
	int stack = fuzz_chance(&t->rng, 95) ? 0 : -1;
	char *name = callers[t->slot].name;
	TASK_ID tid;

	snprintf(name, sizeof(callers[0].name), "w%u", fuzz_below(&t->rng, 4));
	fuzz_args(t, "slot %d, %s, prio %d, options %#x, stack %d", i, name,
		  prio, options, stack);
	if (i < 0)
		return 0;
	t->w->tasks[i].alive = true;
	tid = taskSpawn(name, prio, options, stack, (FUNCPTR)task_entry,
			(long)&t->w->tasks[i], 0, 0, 0, 0, 0, 0, 0, 0, 0);
	if (tid == ERROR) {
		t->w->tasks[i].alive = false;
		return status(ERROR);
	}
	spawned(tid);
	return 0;
}

/* The worker slot of @tid (0: the caller's), or -1. */
static int task_slot(struct fuzz_task *t, uintptr_t tid)
{
	if (tid == 0)
		return t->irq ? -1 : t->slot;
	for (int i = 0; i < FUZZ_MAX_TASKS; i++)
		if ((uintptr_t)pool.task[i] == tid)
			return i;
	return -1;
}

static long task_delete(struct fuzz_task *t)
{
	uintptr_t tid = pick(t, TASK);
	bool force = fuzz_chance(&t->rng, 30);
	int i = task_slot(t, tid);
	bool self = i == t->slot && !t->irq;
	long ret;

	fuzz_args(t, "%s", force ? "force" : "safe");
	/* Deleting oneself does not return. */
	if (self)
		t->alive = false;
	ret = status(force ? taskDeleteForce((TASK_ID)tid)
			   : taskDelete((TASK_ID)tid));
	if (self)
		t->alive = true;
	if (ret == 0 && i >= 0)
		t->w->tasks[i].alive = false;
	return ret;
}

/* A task call on one ID: 0 (the caller) only from a task. */
static TASK_ID task_target(struct fuzz_task *t)
{
	uintptr_t tid = pick(t, TASK);

	return (TASK_ID)(tid == 0 && t->irq ? 1 : tid);
}

static long task_suspend(struct fuzz_task *t)
{
	return status(taskSuspend(task_target(t)));
}

static long task_resume(struct fuzz_task *t)
{
	return status(taskResume(task_target(t)));
}

static long task_priority_set(struct fuzz_task *t)
{
	TASK_ID tid = task_target(t);
	int prio = fuzz_chance(&t->rng, 90) ? (int)fuzz_below(&t->rng, 255)
					    : (int)fuzz_next(&t->rng);

	fuzz_args(t, "%d", prio);
	return status(taskPrioritySet(tid, prio));
}

static long task_info(struct fuzz_task *t)
{
	TASK_DESC desc;
	int prio;
	TASK_ID tid = task_target(t);

	switch (fuzz_below(&t->rng, 4)) {
	case 0:
		return status(taskGetInfo(tid, &desc));
	case 1:
		return status(taskPriorityGet(tid, &prio));
	case 2:
		return status(taskIdVerify(tid));
	default:
		return taskName(tid) ? 0 : -(long)errnoGet();
	}
}

static long task_lock(struct fuzz_task *t)
{
	/* Locks and unlocks come in pairs: a worker ends unlocked. */
	if (taskLock() == ERROR)
		return status(ERROR);
	fuzz_args(t, "%s", "then a call, then taskUnlock");
	t->w->budget--;
	t->ops++;
	(void)taskDelay(fuzz_chance(&t->rng, 50) ? 0 : 1);
	return status(taskUnlock());
}

static long task_safe(struct fuzz_task *t)
{
	return status(fuzz_chance(&t->rng, 50) ? taskSafe() : taskUnsafe());
}

static long task_delay(struct fuzz_task *t)
{
	int ticks = fuzz_chance(&t->rng, 10) ? -(int)fuzz_below(&t->rng, 3) - 2
					     : (int)fuzz_below(&t->rng, 4);

	/* A negative delay other than WAIT_FOREVER sleeps for ever too:
	 * the rescue cannot wake it, so only from handlers (refused). */
	if (ticks < 0 && !t->irq)
		ticks = 2;
	fuzz_args(t, "%d", ticks);
	return status(taskDelay(ticks));
}

/* Semaphores. */

static long sem_create(struct fuzz_task *t)
{
	int i = (int)fuzz_below(&t->rng, NR);
	int options = fuzz_chance(&t->rng, 90) ? (int)fuzz_below(&t->rng, 16)
					       : (int)fuzz_next(&t->rng);
	int kind = (int)fuzz_below(&t->rng, 3), arg;
	SEM_ID s;

	arg = fuzz_chance(&t->rng, 90) ? (int)fuzz_below(&t->rng, 3)
				       : (int)fuzz_next(&t->rng);
	fuzz_args(t, "sem[%d], %c, options %#x, %d", i, "BCM"[kind], options,
		  arg);
	s = kind == 0	? semBCreate(options, (SEM_B_STATE)arg)
	    : kind == 1 ? semCCreate(options, arg)
			: semMCreate(options);
	if (s == NULL)
		return -(long)errnoGet();
	pool.sem[i] = s;
	return 0;
}

static long sem_delete(struct fuzz_task *t)
{
	return status(semDelete((SEM_ID)pick(t, SEM)));
}

static long sem_take(struct fuzz_task *t)
{
	SEM_ID s = (SEM_ID)pick(t, SEM);

	return status(semTake(s, pick_ticks(t)));
}

static long sem_give(struct fuzz_task *t)
{
	return status(semGive((SEM_ID)pick(t, SEM)));
}

static long sem_flush(struct fuzz_task *t)
{
	return status(semFlush((SEM_ID)pick(t, SEM)));
}

/* Message queues. */

static long msgq_create(struct fuzz_task *t)
{
	int i = (int)fuzz_below(&t->rng, NR);
	int msgs = fuzz_chance(&t->rng, 90) ? (int)fuzz_below(&t->rng, 5)
					    : (int)fuzz_next(&t->rng);
	/* Never longer than a caller's buffer, which a send reads. */
	int len = fuzz_chance(&t->rng, 90) ? (int)fuzz_below(&t->rng, MSG_MAX)
					   : -(int)fuzz_below(&t->rng, 1000);
	int options = fuzz_chance(&t->rng, 90) ? (int)fuzz_below(&t->rng, 2)
					       : (int)fuzz_next(&t->rng);
	MSG_Q_ID q;

	fuzz_args(t, "msgQ[%d], %d, %d, %#x", i, msgs, len, options);
	q = msgQCreate(msgs, len, options);
	if (q == NULL)
		return -(long)errnoGet();
	pool.q[i] = q;
	return 0;
}

static long msgq_delete(struct fuzz_task *t)
{
	return status(msgQDelete((MSG_Q_ID)pick(t, MSGQ)));
}

static long msgq_send(struct fuzz_task *t)
{
	MSG_Q_ID q = (MSG_Q_ID)pick(t, MSGQ);
	UINT n = fuzz_chance(&t->rng, 95) ? fuzz_below(&t->rng, MSG_MAX + 2)
					  : (UINT)fuzz_next(&t->rng);
	bool none = fuzz_chance(&t->rng, 3);
	int prio = fuzz_chance(&t->rng, 95) ? (int)fuzz_below(&t->rng, 2)
					    : (int)fuzz_next(&t->rng);
	int ticks = pick_ticks(t);

	/* Never past the caller's buffer: a longer one must be refused. */
	if (n > FUZZ_DATA && n <= MSG_MAX + 1)
		n = FUZZ_DATA;
	fuzz_args(t, "%s, %u, prio %d", none ? "NULL" : "data", n, prio);
	return status(msgQSend(q, none ? NULL : my_data(t), n, ticks, prio));
}

static long msgq_receive(struct fuzz_task *t)
{
	MSG_Q_ID q = (MSG_Q_ID)pick(t, MSGQ);
	UINT max = fuzz_below(&t->rng, FUZZ_DATA + 1);
	bool none = fuzz_chance(&t->rng, 3);
	int ticks = pick_ticks(t);

	fuzz_args(t, "%s, %u", none ? "NULL" : "data", max);
	return status(msgQReceive(q, none ? NULL : my_data(t), max, ticks));
}

static long msgq_num(struct fuzz_task *t)
{
	return status(msgQNumMsgs((MSG_Q_ID)pick(t, MSGQ)));
}

/* Watchdogs: the routine makes a few calls as a handler caller. */

static void wd_routine(long arg)
{
	struct fuzz_task *t = (struct fuzz_task *)arg;

	fuzz_irq_run(t, 1 + (int)fuzz_below(&t->rng, 3));
}

static long wd_create(struct fuzz_task *t)
{
	int i = (int)fuzz_below(&t->rng, NR);
	WDOG_ID wd;

	fuzz_args(t, "wd[%d]", i);
	wd = wdCreate();
	if (wd == NULL)
		return -(long)errnoGet();
	pool.wd[i] = wd;
	return 0;
}

static long wd_delete(struct fuzz_task *t)
{
	return status(wdDelete((WDOG_ID)pick(t, WD)));
}

static long wd_start(struct fuzz_task *t)
{
	WDOG_ID wd = (WDOG_ID)pick(t, WD);
	int delay = fuzz_chance(&t->rng, 95) ? (int)fuzz_below(&t->rng, 4)
					     : (int)fuzz_next(&t->rng);
	struct fuzz_task *h = &t->w->irqs[fuzz_below(&t->rng, FUZZ_MAX_IRQ)];
	bool none = fuzz_chance(&t->rng, 5);

	fuzz_args(t, "%d, %s", delay, none ? "NULL" : "routine");
	return status(wdStart(wd, delay,
			      none ? NULL : (FUNCPTR)(void (*)(void))wd_routine,
			      (long)h));
}

static long wd_cancel(struct fuzz_task *t)
{
	return status(wdCancel((WDOG_ID)pick(t, WD)));
}

/* Rings: counts of bytes, never an error code but for creation. */

static long ring_create(struct fuzz_task *t)
{
	int i = (int)fuzz_below(&t->rng, NR);
	/* Never bigger than a caller's buffer, which a put reads. */
	int n = fuzz_chance(&t->rng, 90) ? (int)fuzz_below(&t->rng, FUZZ_DATA)
					 : -(int)fuzz_below(&t->rng, 1000);
	RING_ID r;

	fuzz_args(t, "ring[%d], %d", i, n);
	r = rngCreate(n);
	if (r == NULL)
		return -(long)errnoGet();
	pool.ring[i] = r;
	return 0;
}

static long ring_io(struct fuzz_task *t)
{
	RING_ID r = (RING_ID)pick(t, RING);
	int n = fuzz_chance(&t->rng, 95) ? (int)fuzz_below(&t->rng, FUZZ_DATA)
					 : (int)fuzz_next(&t->rng);

	fuzz_args(t, "%d", n);
	switch (fuzz_below(&t->rng, 6)) {
	case 0:
		return rngBufPut(r, my_data(t), n);
	case 1:
		return rngBufGet(r, my_data(t), n);
	case 2:
		rngPutAhead(r, 'x', n);
		return rngNBytes(r);
	case 3:
		rngMoveAhead(r, n);
		return rngFreeBytes(r);
	case 4:
		rngFlush(r);
		return rngIsEmpty(r) + rngIsFull(r);
	default:
		rngDelete(r);
		return 0;
	}
}

#define E_ID FUZZ_CODES(-S_objLib_OBJ_ID_ERROR)
#define E_ID_ISR FUZZ_CODES(-S_objLib_OBJ_ID_ERROR, -S_intLib_NOT_ISR_CALLABLE)
#define E_TASK                                                                 \
	FUZZ_CODES(-S_objLib_OBJ_ID_ERROR, -S_intLib_NOT_ISR_CALLABLE,         \
		   -S_memLib_NOT_ENOUGH_MEMORY, -S_objLib_OBJ_UNAVAILABLE)
#define E_WAIT                                                                 \
	FUZZ_CODES(-S_objLib_OBJ_ID_ERROR, -S_intLib_NOT_ISR_CALLABLE,         \
		   -S_objLib_OBJ_UNAVAILABLE, -S_objLib_OBJ_TIMEOUT,           \
		   -S_objLib_OBJ_DELETED, -EDEADLK, -EOVERFLOW)
#define E_CREATE                                                               \
	FUZZ_CODES(-S_intLib_NOT_ISR_CALLABLE, -S_memLib_NOT_ENOUGH_MEMORY,    \
		   -EINVAL)

static const struct fuzz_op ops[] = {
    {"taskSpawn", 2, 0, task_spawn,
     FUZZ_CODES(-S_taskLib_ILLEGAL_PRIORITY, -S_taskLib_ILLEGAL_OPTIONS,
		-S_taskLib_ILLEGAL_STACK_INFO, -S_memLib_NOT_ENOUGH_MEMORY,
		-S_objLib_OBJ_UNAVAILABLE)},
    {"taskDelete", 1, 0, task_delete, E_TASK},
    {"taskSuspend", 2, FUZZ_IRQ, task_suspend, E_TASK},
    {"taskResume", 3, FUZZ_IRQ, task_resume, E_TASK},
    {"taskPrioritySet", 2, FUZZ_IRQ, task_priority_set,
     FUZZ_CODES(-S_objLib_OBJ_ID_ERROR, -S_taskLib_ILLEGAL_PRIORITY,
		-S_intLib_NOT_ISR_CALLABLE)},
    {"taskInfo", 2, FUZZ_IRQ, task_info, E_ID_ISR},
    {"taskLock", 1, 0, task_lock, E_TASK},
    {"taskSafe", 2, 0, task_safe, E_TASK},
    {"taskDelay", 2, FUZZ_IRQ, task_delay, E_TASK},
    {"semCreate", 2, 0, sem_create,
     FUZZ_CODES(-S_semLib_INVALID_OPTION, -S_semLib_INVALID_QUEUE_TYPE,
		-S_semLib_INVALID_STATE, -S_memLib_NOT_ENOUGH_MEMORY,
		-S_intLib_NOT_ISR_CALLABLE, -EINVAL)},
    {"semDelete", 1, FUZZ_IRQ, sem_delete, E_ID_ISR},
    {"semTake", 6, FUZZ_IRQ, sem_take, E_WAIT},
    {"semGive", 6, FUZZ_IRQ, sem_give,
     FUZZ_CODES(-S_objLib_OBJ_ID_ERROR, -S_semLib_INVALID_OPERATION,
		-S_intLib_NOT_ISR_CALLABLE)},
    {"semFlush", 2, FUZZ_IRQ, sem_flush,
     FUZZ_CODES(-S_objLib_OBJ_ID_ERROR, -S_semLib_INVALID_OPERATION)},
    {"msgQCreate", 2, FUZZ_IRQ, msgq_create,
     FUZZ_CODES(-S_msgQLib_INVALID_QUEUE_TYPE, -S_msgQLib_INVALID_MSG_LENGTH,
		-EINVAL, -S_memLib_NOT_ENOUGH_MEMORY,
		-S_intLib_NOT_ISR_CALLABLE)},
    {"msgQDelete", 1, FUZZ_IRQ, msgq_delete, E_ID_ISR},
    {"msgQSend", 6, FUZZ_IRQ, msgq_send,
     FUZZ_CODES(-S_objLib_OBJ_ID_ERROR, -S_msgQLib_INVALID_MSG_LENGTH,
		-S_objLib_OBJ_UNAVAILABLE, -S_objLib_OBJ_TIMEOUT,
		-S_objLib_OBJ_DELETED, -S_msgQLib_NON_ZERO_TIMEOUT_AT_INT_LEVEL,
		-EINVAL)},
    {"msgQReceive", 6, FUZZ_IRQ | FUZZ_COUNT, msgq_receive,
     FUZZ_CODES(-S_objLib_OBJ_ID_ERROR, -S_msgQLib_INVALID_MSG_LENGTH,
		-S_objLib_OBJ_UNAVAILABLE, -S_objLib_OBJ_TIMEOUT,
		-S_objLib_OBJ_DELETED, -S_intLib_NOT_ISR_CALLABLE)},
    {"msgQNumMsgs", 1, FUZZ_IRQ | FUZZ_COUNT, msgq_num, E_ID},
    {"wdCreate", 1, FUZZ_IRQ, wd_create, E_CREATE},
    {"wdDelete", 1, FUZZ_IRQ, wd_delete, E_ID_ISR},
    {"wdStart", 3, FUZZ_IRQ, wd_start,
     FUZZ_CODES(-S_objLib_OBJ_ID_ERROR, -EINVAL)},
    {"wdCancel", 1, FUZZ_IRQ, wd_cancel, E_ID},
    {"rngCreate", 1, FUZZ_IRQ, ring_create, E_CREATE},
    {"rngIO", 3, FUZZ_IRQ | FUZZ_COUNT, ring_io, FUZZ_CODES(-EINVAL)},
};

static int populate(struct fuzz_world *w)
{
	for (int i = 0; i < NR; i++) {
		pool.sem[i] =
		    i == 0 ? semMCreate(SEM_Q_PRIORITY | SEM_INVERSION_SAFE |
					SEM_DELETE_SAFE)
			   : semCCreate(SEM_Q_FIFO, i);
		pool.q[i] = msgQCreate(1 + i, MSG_MAX, i % 2);
		pool.wd[i] = wdCreate();
		pool.ring[i] = rngCreate(16 << i);
		if (!pool.sem[i] || !pool.q[i] || !pool.wd[i] || !pool.ring[i])
			return -1;
		if (wdStart(pool.wd[i], 1 + i,
			    (FUNCPTR)(void (*)(void))wd_routine,
			    (long)&w->irqs[i % FUZZ_MAX_IRQ]))
			return -1;
	}
	return 0;
}

static int setup(struct fuzz_world *w)
{
	/* Main, the watcher, is a task at 255, below every worker. */
	if (sysClkRateSet(1000) || populate(w))
		return -1;
	for (int i = 0; i < w->nr_tasks; i++)
		w->tasks[i].alive = true;
	/* Each runs at once (above main): it may delete later ones. */
	for (int i = 0; i < w->nr_tasks; i++) {
		TASK_ID tid =
		    taskSpawn(NULL, (int)fuzz_below(&w->rng, 255), 0, 0,
			      (FUNCPTR)task_entry, (long)&w->tasks[i], 0, 0, 0,
			      0, 0, 0, 0, 0, 0);

		if (tid == ERROR)
			w->tasks[i].alive = false;
		else
			spawned(tid);
	}
	return 0;
}

static void idle(struct fuzz_world *w)
{
	(void)w;
	(void)taskDelay(WATCH_TICKS);
}

static void rescue(struct fuzz_world *w)
{
	char buf[MSG_MAX];

	for (int i = 0; i < NR; i++) {
		(void)semFlush(pool.sem[i]);
		for (int n = 0; n < 4; n++) {
			(void)msgQSend(pool.q[i], buf, 0, NO_WAIT,
				       MSG_PRI_NORMAL);
			(void)msgQReceive(pool.q[i], buf, sizeof(buf), NO_WAIT);
		}
		(void)msgQSend(pool.q[i], buf, 0, NO_WAIT, MSG_PRI_NORMAL);
	}
	(void)w;
	for (int i = 0; i < pool.nr_spawned; i++)
		(void)taskResume(pool.spawned[i]);
}

static void teardown(struct fuzz_world *w)
{
	for (int i = 0; i < NR; i++)
		(void)wdDelete(pool.wd[i]);
	(void)w;
	for (int i = 0; i < pool.nr_spawned; i++)
		(void)taskDeleteForce(pool.spawned[i]);
}

FUZZ_API_TABLE(vxworks);
