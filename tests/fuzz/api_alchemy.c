/* SPDX-License-Identifier: MIT */
/*
 * The Alchemy skin's table for the API-sequence fuzzer: every service of
 * include/alchemy/ on a pool of a few objects per class, each call with
 * the codes its header comment documents.
 *
 * Descriptors are mostly pool slots, live or stale (deleted and not
 * re-created), sometimes zeroed, forged (random bits, or another
 * class's handle) or NULL.  Data goes to and from per-caller buffers of
 * FUZZ_DATA bytes, and no object is created bigger than that, so an
 * extreme size is always the callee's to refuse, never a real overflow
 * of ours.  A buffer the skin gave (queue, heap) is written right after
 * it is obtained, and only then: later it may have been freed with its
 * object, but it is still passed back, to test the skin's checks.
 */
#include "fuzz.h"

#include <alchemy/alarm.h>
#include <alchemy/buffer.h>
#include <alchemy/cond.h>
#include <alchemy/event.h>
#include <alchemy/heap.h>
#include <alchemy/mutex.h>
#include <alchemy/pipe.h>
#include <alchemy/queue.h>
#include <alchemy/sem.h>
#include <alchemy/task.h>

#include <stdio.h>
#include <string.h>

#define NR 3		      /* slots per class */
#define FUZZ_DATA (64 * 1024) /* per-caller data buffer */
#define WATCH_NS 1000000      /* the watcher's period: 1 ms */
#define CALLERS (FUZZ_MAX_TASKS + FUZZ_MAX_IRQ)

static struct {
	RT_TASK task[FUZZ_MAX_TASKS];
	RT_SEM sem[NR];
	RT_MUTEX mutex[NR];
	RT_COND cond[NR];
	RT_EVENT event[NR];
	RT_QUEUE queue[NR];
	RT_BUFFER buffer[NR];
	RT_HEAP heap[NR];
	RT_ALARM alarm[NR];
	RT_PIPE pipe[NR];
} pool;

/* What a caller holds between calls. */
struct caller {
	RT_TASK scratch[2]; /* zeroed, forged and bound descriptors */
	char desc[2][48];   /* their text */
	int next;	    /* scratch in turn */
	char name[48];
	void *qbuf; /* last buffer from rt_queue_alloc/receive */
	void *block;
	uintptr_t qbuf_of, block_of; /* handles of their queue and heap */
	int flowid;
	char data[FUZZ_DATA];
};

static struct caller callers[CALLERS];

static struct caller *me(struct fuzz_task *t)
{
	return &callers[t->irq ? FUZZ_MAX_TASKS + t->slot : t->slot];
}

/*
 * Memory of a deleted queue or heap is forgotten: its addresses may
 * fall in the next object's memory, or not, as the allocator places
 * it, and a call on them would make the two runs differ.
 */
static void forget_memory_of(uintptr_t handle)
{
	for (size_t i = 0; i < CALLERS; i++) {
		if (callers[i].qbuf_of == handle)
			callers[i].qbuf = NULL;
		if (callers[i].block_of == handle)
			callers[i].block = NULL;
	}
}

/* Every class's slots: a forged descriptor may copy another's handle. */
static const struct {
	const char *name;
	void *slots;
	size_t size;
	int nr;
} classes[] = {
    {"task", pool.task, sizeof(RT_TASK), FUZZ_MAX_TASKS},
    {"sem", pool.sem, sizeof(RT_SEM), NR},
    {"mutex", pool.mutex, sizeof(RT_MUTEX), NR},
    {"cond", pool.cond, sizeof(RT_COND), NR},
    {"event", pool.event, sizeof(RT_EVENT), NR},
    {"queue", pool.queue, sizeof(RT_QUEUE), NR},
    {"buffer", pool.buffer, sizeof(RT_BUFFER), NR},
    {"heap", pool.heap, sizeof(RT_HEAP), NR},
    {"alarm", pool.alarm, sizeof(RT_ALARM), NR},
    {"pipe", pool.pipe, sizeof(RT_PIPE), NR},
};

enum cls { TASK, SEM, MUTEX, COND, EVENT, QUEUE, BUFFER, HEAP, ALARM, PIPE };

static void *slot(enum cls c, int i)
{
	return (char *)classes[c].slots + (size_t)i * classes[c].size;
}

/*
 * A descriptor of class @c for a call, its text in *@text.  @null_ok:
 * NULL may be drawn (it means "the caller" for some task services).
 */
static void *pick(struct fuzz_task *t, enum cls c, bool null_ok,
		  const char **text)
{
	struct caller *k = me(t);
	int n = k->next++ & 1, i;
	RT_TASK *s = &k->scratch[n];
	char *d = k->desc[n];
	uint32_t r = fuzz_below(&t->rng, 100);

	*text = d;
	if (r < 88) {
		i = (int)fuzz_below(&t->rng, (uint32_t)classes[c].nr);
		snprintf(d, sizeof(k->desc[0]), "%s[%d]", classes[c].name, i);
		return slot(c, i);
	}
	memset(s, 0, sizeof(*s));
	if (r < 91 && null_ok) {
		*text = "NULL";
		return NULL;
	}
	if (r < 94) {
		snprintf(d, sizeof(k->desc[0]), "zeroed");
	} else if (r < 97) {
		s->handle = (uintptr_t)fuzz_next(&t->rng);
		snprintf(d, sizeof(k->desc[0]), "forged %#lx",
			 (unsigned long)s->handle);
	} else {
		enum cls o = (enum cls)fuzz_below(&t->rng, PIPE + 1);

		i = (int)fuzz_below(&t->rng, (uint32_t)classes[o].nr);
		memcpy(&s->handle, slot(o, i), sizeof(s->handle));
		snprintf(d, sizeof(k->desc[0]), "%s[%d] as %s", classes[o].name,
			 i, classes[c].name);
	}
	return s;
}

/* The slot a creation writes to (NULL now and then). */
static void *target(struct fuzz_task *t, enum cls c, const char **text)
{
	return pick(t, c, true, text);
}

/* NULL, "", one of a few names of @c (so they collide), or too long. */
static const char *pick_name(struct fuzz_task *t, enum cls c)
{
	char *name = me(t)->name;

	switch (fuzz_below(&t->rng, 8)) {
	case 0:
		return NULL;
	case 1:
		return "";
	case 2:
		memset(name, 'n', XNOBJECT_NAME_LEN);
		name[XNOBJECT_NAME_LEN] = '\0';
		return name;
	default:
		snprintf(name, sizeof(me(t)->name), "%s%u", classes[c].name,
			 fuzz_below(&t->rng, NR));
		return name;
	}
}

/* Mode bits: one of @valid, or stray bits. */
static int pick_mode(struct fuzz_task *t, const int *valid, int nr)
{
	if (fuzz_chance(&t->rng, 5))
		return (int)fuzz_next(&t->rng);
	return valid[fuzz_below(&t->rng, (uint32_t)nr)];
}

#define PICK_MODE(t, ...)                                                      \
	pick_mode(t, (const int[]){__VA_ARGS__},                               \
		  sizeof((const int[]){__VA_ARGS__}) / sizeof(int))

/* A size for a creation: 0, up to @limit, or extreme (never fits). */
static size_t create_size(struct fuzz_task *t, size_t limit)
{
	switch (fuzz_below(&t->rng, 12)) {
	case 0:
		return 0;
	case 1:
		return SIZE_MAX - fuzz_below(&t->rng, 64);
	case 2:
		return (size_t)1 << 62;
	default:
		return 1 + fuzz_below(&t->rng, (uint32_t)limit);
	}
}

/* A size for data at a caller's buffer: never past FUZZ_DATA unless
 * extreme, which the callee must refuse before copying. */
static size_t data_size(struct fuzz_task *t)
{
	size_t size = fuzz_size(t, 256);

	return size > FUZZ_DATA && size < SIZE_MAX / 2 ? FUZZ_DATA : size;
}

/*
 * The three forms of a wait: relative (rt_x), a date (rt_x_until) and a
 * timespec (rt_x_timed), with their arguments drawn.
 */
struct wait {
	int form;
	RTIME tmo;
	struct timespec ts;
	const struct timespec *tsp;
};

static void draw_wait(struct fuzz_task *t, struct wait *wt, char *text,
		      size_t len)
{
	RTIME now = rt_timer_read();
	const char *tt;

	wt->form = (int)fuzz_below(&t->rng, 3);
	wt->tmo = fuzz_timeout(t, TM_NONBLOCK, TM_INFINITE, &tt);
	if (wt->form == 0) {
		snprintf(text, len, "timeout %s", tt);
		return;
	}
	if (wt->tmo != TM_NONBLOCK && wt->tmo != TM_INFINITE &&
	    wt->tmo < (1ull << 62))
		wt->tmo = fuzz_chance(&t->rng, 20) ? now / 2 : now + wt->tmo;
	if (wt->form == 1) {
		snprintf(text, len, "until %llu (now %llu)",
			 (unsigned long long)wt->tmo, (unsigned long long)now);
		return;
	}
	wt->tsp = &wt->ts;
	switch (fuzz_below(&t->rng, 6)) {
	case 0:
		wt->tsp = NULL;
		break;
	case 1:
		wt->ts = (struct timespec){0, 0};
		break;
	case 2:
		wt->ts = (struct timespec){(time_t)fuzz_next(&t->rng),
					   (long)fuzz_next(&t->rng)};
		break;
	default:
		wt->ts = (struct timespec){(time_t)(wt->tmo / 1000000000),
					   (long)(wt->tmo % 1000000000)};
		break;
	}
	if (wt->tsp)
		snprintf(text, len, "timespec {%lld, %ld}",
			 (long long)wt->ts.tv_sec, wt->ts.tv_nsec);
	else
		snprintf(text, len, "timespec NULL");
}

/* Call the form of the wait @wt drew: EXPR(args..., timeout). */
#define WAITED(wt, rel, until, timed)                                          \
	((wt).form == 0	  ? (long)(rel)                                        \
	 : (wt).form == 1 ? (long)(until)                                      \
			  : (long)(timed))

/* Data to or from a caller's buffer, with a wait: rt_x, _until, _timed. */
#define DATA_WAIT_OP(name, CLS, TYPE, call)                                    \
	static long name(struct fuzz_task *t)                                  \
	{                                                                      \
		const char *d;                                                 \
		char text[64];                                                 \
		TYPE *desc = pick(t, CLS, true, &d);                           \
		bool none = fuzz_chance(&t->rng, 5);                           \
		void *buf = none ? NULL : me(t)->data;                         \
		size_t size = data_size(t);                                    \
		struct wait wt = {0};                                          \
		draw_wait(t, &wt, text, sizeof(text));                         \
		fuzz_args(t, "%s, %s, %zu, %s", d, none ? "NULL" : "data",     \
			  size, text);                                         \
		return WAITED(wt, call(desc, buf, size, wt.tmo),               \
			      call##_until(desc, buf, size, wt.tmo),           \
			      call##_timed(desc, buf, size, wt.tsp));          \
	}

DATA_WAIT_OP(queue_read, QUEUE, RT_QUEUE, rt_queue_read)
DATA_WAIT_OP(buffer_write, BUFFER, RT_BUFFER, rt_buffer_write)
DATA_WAIT_OP(buffer_read, BUFFER, RT_BUFFER, rt_buffer_read)
DATA_WAIT_OP(pipe_read, PIPE, RT_PIPE, rt_pipe_read)

/* Tasks. */

static void task_entry(void *arg)
{
	fuzz_task_run(arg);
}

static long task_spawn(struct fuzz_task *t)
{
	static const int prios[] = {-1, 100, 1000, INT32_MIN};
	int i = fuzz_free_slot(t->w), prio, stk, mode;
	const char *name = pick_name(t, TASK);
	RT_TASK *task = i < 0 ? &me(t)->scratch[0] : &pool.task[i];
	long ret;

	prio = fuzz_chance(&t->rng, 90) ? 1 + (int)fuzz_below(&t->rng, 99)
					: prios[fuzz_below(&t->rng, 4)];
	stk = fuzz_chance(&t->rng, 95) ? 0 : -1;
	mode = PICK_MODE(t, 0, 0, 0, T_JOINABLE, T_JOINABLE, T_LOCK, T_WARNSW,
			 T_CPU(0), T_CPU(7));
	fuzz_args(t, "slot %d, %s, stk %d, prio %d, mode %#x", i,
		  name ? name : "NULL", stk, prio, mode);
	if (i < 0)
		return rt_task_create(task, name, stk, prio, mode);
	t->w->tasks[i].alive = true;
	ret = rt_task_spawn(task, name, stk, prio, mode, task_entry,
			    &t->w->tasks[i]);
	if (ret)
		t->w->tasks[i].alive = false;
	return ret;
}

/* The worker slot @task names, or -1. */
static int task_slot(RT_TASK *task)
{
	if (task == NULL)
		return -1;
	for (int i = 0; i < FUZZ_MAX_TASKS; i++)
		if (task == &pool.task[i])
			return i;
	return -1;
}

static long task_delete(struct fuzz_task *t)
{
	const char *d;
	RT_TASK *task = pick(t, TASK, true, &d);
	int i = task ? task_slot(task) : t->slot;
	bool self = task == NULL || rt_task_same(task, rt_task_self());
	long ret;

	fuzz_args(t, "%s", d);
	/* Deleting oneself does not return. */
	if (self)
		t->alive = false;
	ret = rt_task_delete(task);
	if (self)
		t->alive = true;
	if (ret == 0 && i >= 0)
		t->w->tasks[i].alive = false;
	return ret;
}

static long task_join(struct fuzz_task *t)
{
	const char *d;
	RT_TASK *task = pick(t, TASK, false, &d);

	fuzz_args(t, "%s", d);
	return rt_task_join(task);
}

/*
 * A one-descriptor call: rt_<cls>_<what>(desc).  NULL may be drawn,
 * except for a task from a handler (NULL is the caller there).
 */
#define SIMPLE_OP(cls, CLS, TYPE, what)                                        \
	static long cls##_##what(struct fuzz_task *t)                          \
	{                                                                      \
		const char *d;                                                 \
		TYPE *desc = pick(t, CLS, CLS != TASK || !t->irq, &d);         \
		fuzz_args(t, "%s", d);                                         \
		return rt_##cls##_##what(desc);                                \
	}

SIMPLE_OP(task, TASK, RT_TASK, suspend)
SIMPLE_OP(task, TASK, RT_TASK, resume)
SIMPLE_OP(task, TASK, RT_TASK, unblock)

/* A task target: NULL (the caller) only from a task. */
static RT_TASK *task_target(struct fuzz_task *t, const char **d)
{
	return pick(t, TASK, !t->irq, d);
}

static long task_set_priority(struct fuzz_task *t)
{
	const char *d;
	RT_TASK *task = task_target(t, &d);
	int prio = fuzz_chance(&t->rng, 90) ? (int)fuzz_below(&t->rng, 100)
					    : (int)fuzz_next(&t->rng);

	fuzz_args(t, "%s, %d", d, prio);
	return rt_task_set_priority(task, prio);
}

static long task_slice(struct fuzz_task *t)
{
	const char *d, *q;
	RT_TASK *task = task_target(t, &d);
	RTIME quantum = fuzz_timeout(t, TM_NONBLOCK, 0, &q);

	fuzz_args(t, "%s, %s", d, q);
	return rt_task_slice(task, quantum);
}

static long task_inquire(struct fuzz_task *t)
{
	const char *d;
	RT_TASK *task = task_target(t, &d);
	RT_TASK_INFO info;
	bool probe = fuzz_chance(&t->rng, 20);

	fuzz_args(t, "%s, %s", d, probe ? "NULL" : "info");
	return rt_task_inquire(task, probe ? NULL : &info);
}

static long task_set_affinity(struct fuzz_task *t)
{
	const char *d;
	RT_TASK *task = task_target(t, &d);
	uint64_t bits = fuzz_next(&t->rng) & 0xff;
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	for (int cpu = 0; cpu < 8; cpu++)
		if (bits & (1u << cpu))
			CPU_SET(cpu, &cpus);
	fuzz_args(t, "%s, {%#llx}", d, (unsigned long long)bits);
	return rt_task_set_affinity(task,
				    fuzz_chance(&t->rng, 5) ? NULL : &cpus);
}

static long task_set_periodic(struct fuzz_task *t)
{
	const char *d;
	RT_TASK *task = task_target(t, &d);
	RTIME now = rt_timer_read(), idate, period;

	switch (fuzz_below(&t->rng, 5)) {
	case 0:
		idate = TM_NOW;
		break;
	case 1:
		idate = now / 2;
		break;
	case 4:
		idate = (RTIME)fuzz_next(&t->rng);
		break;
	default:
		idate = now + fuzz_below(&t->rng, 1000000);
		break;
	}
	switch (fuzz_below(&t->rng, 4)) {
	case 0:
		period = TM_INFINITE;
		break;
	case 3:
		period = (RTIME)fuzz_next(&t->rng);
		break;
	default:
		period = 1000 + fuzz_below(&t->rng, 1000000);
		break;
	}
	fuzz_args(t, "%s, %llu, %llu", d, idate, period);
	return rt_task_set_periodic(task, idate, period);
}

static long task_wait_period(struct fuzz_task *t)
{
	unsigned long overruns;

	return rt_task_wait_period(fuzz_chance(&t->rng, 50) ? &overruns : NULL);
}

static long task_sleep(struct fuzz_task *t)
{
	const char *d;
	RTIME delay = fuzz_timeout(t, 0, TM_NONBLOCK, &d);

	fuzz_args(t, "%s", d);
	return rt_task_sleep(delay);
}

static long task_sleep_until(struct fuzz_task *t)
{
	char text[64];
	struct wait wt = {0};

	draw_wait(t, &wt, text, sizeof(text));
	fuzz_args(t, "%llu", wt.tmo);
	return rt_task_sleep_until(wt.tmo);
}

static long task_yield(struct fuzz_task *t)
{
	(void)t;
	return rt_task_yield();
}

static long task_set_mode(struct fuzz_task *t)
{
	int clr = PICK_MODE(t, 0, T_LOCK, T_WARNSW, T_LOCK | T_WARNSW);
	int set = PICK_MODE(t, 0, 0, 0, T_LOCK, T_WARNSW, T_CONFORMING);
	int old;

	fuzz_args(t, "%#x, %#x", clr, set);
	return rt_task_set_mode(clr, set,
				fuzz_chance(&t->rng, 50) ? &old : NULL);
}

static long task_send(struct fuzz_task *t)
{
	const char *d;
	char text[64];
	RT_TASK *task = pick(t, TASK, false, &d);
	struct caller *k = me(t);
	RT_TASK_MCB s = {.data = k->data, .size = (ssize_t)data_size(t)};
	RT_TASK_MCB r = {.data = k->data, .size = (ssize_t)data_size(t)};
	RT_TASK_MCB *rp = fuzz_chance(&t->rng, 20) ? NULL : &r;
	struct wait wt = {0};

	s.opcode = (int)fuzz_below(&t->rng, 4);
	if (fuzz_chance(&t->rng, 10))
		s.data = NULL;
	draw_wait(t, &wt, text, sizeof(text));
	fuzz_args(t, "%s, size %zd%s, reply %zd%s, %s", d, s.size,
		  s.data ? "" : " NULL", r.size, rp ? "" : " NULL", text);
	return WAITED(wt, rt_task_send(task, &s, rp, wt.tmo),
		      rt_task_send_until(task, &s, rp, wt.tmo),
		      rt_task_send_timed(task, &s, rp, wt.tsp));
}

static long task_receive(struct fuzz_task *t)
{
	char text[64];
	struct caller *k = me(t);
	RT_TASK_MCB r = {.data = k->data, .size = (ssize_t)data_size(t)};
	struct wait wt = {0};
	long ret;

	draw_wait(t, &wt, text, sizeof(text));
	fuzz_args(t, "size %zd, %s", r.size, text);
	ret = WAITED(wt, rt_task_receive(&r, wt.tmo),
		     rt_task_receive_until(&r, wt.tmo),
		     rt_task_receive_timed(&r, wt.tsp));
	if (ret > 0)
		k->flowid = (int)ret;
	return ret;
}

static long task_reply(struct fuzz_task *t)
{
	struct caller *k = me(t);
	int flowid =
	    fuzz_chance(&t->rng, 80) ? k->flowid : (int)fuzz_next(&t->rng);
	RT_TASK_MCB s = {.data = k->data, .size = (ssize_t)data_size(t)};

	fuzz_args(t, "flow %d, size %zd", flowid, s.size);
	return rt_task_reply(flowid, fuzz_chance(&t->rng, 20) ? NULL : &s);
}

/*
 * Bind and unbind: into a scratch descriptor, or (not for tasks, whose
 * slots the workers own) into a pool slot, which then names whatever
 * the name found.
 */
#define BIND_OPS(cls, CLS, TYPE)                                               \
	static long cls##_bind(struct fuzz_task *t)                            \
	{                                                                      \
		const char *d, *name = pick_name(t, CLS);                      \
		TYPE *desc = CLS == TASK ? (TYPE *)&me(t)->scratch[0]          \
					 : (TYPE *)target(t, CLS, &d);         \
		RTIME tmo = fuzz_timeout(t, TM_NONBLOCK, TM_INFINITE, &d);     \
		fuzz_args(t, "%s, %s", name ? name : "NULL", d);               \
		return rt_##cls##_bind(desc, name, tmo);                       \
	}                                                                      \
	static long cls##_unbind(struct fuzz_task *t)                          \
	{                                                                      \
		TYPE copy, *desc = fuzz_chance(&t->rng, 10) ? NULL : &copy;    \
		const char *d;                                                 \
		memcpy(&copy, pick(t, CLS, false, &d), sizeof(copy));          \
		fuzz_args(t, "copy of %s", d);                                 \
		return rt_##cls##_unbind(desc);                                \
	}

/* Inquire and delete, for classes whose delete needs nothing more. */
#define COMMON_OPS(cls, CLS, TYPE, INFO)                                       \
	static long cls##_inquire(struct fuzz_task *t)                         \
	{                                                                      \
		const char *d;                                                 \
		TYPE *desc = pick(t, CLS, true, &d);                           \
		INFO info;                                                     \
		bool none = fuzz_chance(&t->rng, 5);                           \
		fuzz_args(t, "%s, %s", d, none ? "NULL" : "info");             \
		return rt_##cls##_inquire(desc, none ? NULL : &info);          \
	}                                                                      \
	static long cls##_delete(struct fuzz_task *t)                          \
	{                                                                      \
		const char *d;                                                 \
		TYPE *desc = pick(t, CLS, true, &d);                           \
		uintptr_t handle = desc ? desc->handle : 0;                    \
		long ret;                                                      \
		fuzz_args(t, "%s", d);                                         \
		ret = rt_##cls##_delete(desc);                                 \
		if (ret == 0)                                                  \
			forget_memory_of(handle);                              \
		return ret;                                                    \
	}

BIND_OPS(task, TASK, RT_TASK)
BIND_OPS(sem, SEM, RT_SEM)
BIND_OPS(mutex, MUTEX, RT_MUTEX)
BIND_OPS(cond, COND, RT_COND)
BIND_OPS(event, EVENT, RT_EVENT)
BIND_OPS(queue, QUEUE, RT_QUEUE)
BIND_OPS(buffer, BUFFER, RT_BUFFER)
BIND_OPS(heap, HEAP, RT_HEAP)
BIND_OPS(pipe, PIPE, RT_PIPE)
COMMON_OPS(sem, SEM, RT_SEM, RT_SEM_INFO)
COMMON_OPS(mutex, MUTEX, RT_MUTEX, RT_MUTEX_INFO)
COMMON_OPS(cond, COND, RT_COND, RT_COND_INFO)
COMMON_OPS(event, EVENT, RT_EVENT, RT_EVENT_INFO)
COMMON_OPS(queue, QUEUE, RT_QUEUE, RT_QUEUE_INFO)
COMMON_OPS(buffer, BUFFER, RT_BUFFER, RT_BUFFER_INFO)
COMMON_OPS(heap, HEAP, RT_HEAP, RT_HEAP_INFO)
COMMON_OPS(alarm, ALARM, RT_ALARM, RT_ALARM_INFO)

SIMPLE_OP(sem, SEM, RT_SEM, v)
SIMPLE_OP(sem, SEM, RT_SEM, broadcast)
SIMPLE_OP(mutex, MUTEX, RT_MUTEX, release)
SIMPLE_OP(cond, COND, RT_COND, signal)
SIMPLE_OP(cond, COND, RT_COND, broadcast)
SIMPLE_OP(queue, QUEUE, RT_QUEUE, flush)
SIMPLE_OP(buffer, BUFFER, RT_BUFFER, clear)
SIMPLE_OP(alarm, ALARM, RT_ALARM, stop)

/* Semaphores, mutexes, condition variables, events. */

static long sem_create(struct fuzz_task *t)
{
	static const unsigned long counts[] = {0, 0, 1, 3, ULONG_MAX};
	const char *d, *name = pick_name(t, SEM);
	RT_SEM *sem = target(t, SEM, &d);
	unsigned long count = counts[fuzz_below(&t->rng, 5)];
	int mode = PICK_MODE(t, S_FIFO, S_PRIO, S_PULSE, S_PRIO | S_PULSE);

	fuzz_args(t, "%s, %s, %lu, %#x", d, name ? name : "NULL", count, mode);
	return rt_sem_create(sem, name, count, mode);
}

static long sem_p(struct fuzz_task *t)
{
	const char *d;
	char text[64];
	RT_SEM *sem = pick(t, SEM, true, &d);
	struct wait wt = {0};

	draw_wait(t, &wt, text, sizeof(text));
	fuzz_args(t, "%s, %s", d, text);
	return WAITED(wt, rt_sem_p(sem, wt.tmo), rt_sem_p_until(sem, wt.tmo),
		      rt_sem_p_timed(sem, wt.tsp));
}

static long mutex_create(struct fuzz_task *t)
{
	const char *d, *name = pick_name(t, MUTEX);
	RT_MUTEX *mutex = target(t, MUTEX, &d);

	fuzz_args(t, "%s, %s", d, name ? name : "NULL");
	return rt_mutex_create(mutex, name);
}

static long mutex_acquire(struct fuzz_task *t)
{
	const char *d;
	char text[64];
	RT_MUTEX *mutex = pick(t, MUTEX, true, &d);
	struct wait wt = {0};

	draw_wait(t, &wt, text, sizeof(text));
	fuzz_args(t, "%s, %s", d, text);
	return WAITED(wt, rt_mutex_acquire(mutex, wt.tmo),
		      rt_mutex_acquire_until(mutex, wt.tmo),
		      rt_mutex_acquire_timed(mutex, wt.tsp));
}

static long cond_create(struct fuzz_task *t)
{
	const char *d, *name = pick_name(t, COND);
	RT_COND *cond = target(t, COND, &d);

	fuzz_args(t, "%s, %s", d, name ? name : "NULL");
	return rt_cond_create(cond, name);
}

static long cond_wait(struct fuzz_task *t)
{
	const char *c, *m;
	char text[64];
	RT_COND *cond = pick(t, COND, true, &c);
	RT_MUTEX *mutex = pick(t, MUTEX, true, &m);
	struct wait wt = {0};

	draw_wait(t, &wt, text, sizeof(text));
	fuzz_args(t, "%s, %s, %s", c, m, text);
	return WAITED(wt, rt_cond_wait(cond, mutex, wt.tmo),
		      rt_cond_wait_until(cond, mutex, wt.tmo),
		      rt_cond_wait_timed(cond, mutex, wt.tsp));
}

static long event_create(struct fuzz_task *t)
{
	const char *d, *name = pick_name(t, EVENT);
	RT_EVENT *event = target(t, EVENT, &d);
	unsigned int value = (unsigned int)fuzz_next(&t->rng) & 0xf;
	int mode = PICK_MODE(t, EV_FIFO, EV_PRIO);

	fuzz_args(t, "%s, %s, %#x, %#x", d, name ? name : "NULL", value, mode);
	return rt_event_create(event, name, value, mode);
}

static unsigned int event_mask(struct fuzz_task *t)
{
	return fuzz_chance(&t->rng, 10) ? (unsigned int)fuzz_next(&t->rng)
					: 1u << fuzz_below(&t->rng, 4);
}

static long event_signal(struct fuzz_task *t)
{
	const char *d;
	RT_EVENT *event = pick(t, EVENT, true, &d);
	unsigned int mask = event_mask(t);

	fuzz_args(t, "%s, %#x", d, mask);
	return rt_event_signal(event, mask);
}

static long event_clear(struct fuzz_task *t)
{
	const char *d;
	RT_EVENT *event = pick(t, EVENT, true, &d);
	unsigned int mask = event_mask(t), old;

	fuzz_args(t, "%s, %#x", d, mask);
	return rt_event_clear(event, mask,
			      fuzz_chance(&t->rng, 50) ? &old : NULL);
}

static long event_wait(struct fuzz_task *t)
{
	const char *d;
	char text[64];
	RT_EVENT *event = pick(t, EVENT, true, &d);
	unsigned int mask = fuzz_chance(&t->rng, 10) ? 0 : event_mask(t), got;
	unsigned int *gotp = fuzz_chance(&t->rng, 50) ? &got : NULL;
	int mode = PICK_MODE(t, EV_ANY, EV_ALL);
	struct wait wt = {0};

	draw_wait(t, &wt, text, sizeof(text));
	fuzz_args(t, "%s, %#x, %#x, %s", d, mask, mode, text);
	return WAITED(wt, rt_event_wait(event, mask, gotp, mode, wt.tmo),
		      rt_event_wait_until(event, mask, gotp, mode, wt.tmo),
		      rt_event_wait_timed(event, mask, gotp, mode, wt.tsp));
}

/* Queues. */

static long queue_create(struct fuzz_task *t)
{
	static const size_t limits[] = {Q_UNLIMITED, 1, 4, SIZE_MAX};
	const char *d, *name = pick_name(t, QUEUE);
	RT_QUEUE *queue = target(t, QUEUE, &d);
	size_t poolsize = create_size(t, 8192);
	size_t qlimit = limits[fuzz_below(&t->rng, 4)];
	int mode = PICK_MODE(t, Q_FIFO, Q_PRIO);

	fuzz_args(t, "%s, %s, %zu, %zu, %#x", d, name ? name : "NULL", poolsize,
		  qlimit, mode);
	return rt_queue_create(queue, name, poolsize, qlimit, mode);
}

static long queue_alloc(struct fuzz_task *t)
{
	const char *d;
	RT_QUEUE *queue = pick(t, QUEUE, true, &d);
	size_t size = fuzz_size(t, 512);
	void *buf = rt_queue_alloc(queue, size);

	fuzz_args(t, "%s, %zu: %s", d, size, buf ? "buffer" : "NULL");
	if (buf) {
		memset(buf, 0x5a, size < 64 ? size : 64);
		me(t)->qbuf = buf;
		me(t)->qbuf_of = queue->handle;
	}
	return 0;
}

/* A buffer to give back: the last one got, inside it, ours, or NULL. */
static void *queue_buffer(struct fuzz_task *t, const char **text)
{
	struct caller *k = me(t);

	switch (fuzz_below(&t->rng, 8)) {
	case 0:
		*text = "NULL";
		return NULL;
	case 1:
		*text = "not from the queue";
		return k->data;
	case 2:
		*text = "inside the last buffer";
		return k->qbuf ? (char *)k->qbuf + 8 : NULL;
	default:
		*text = "the last buffer";
		return k->qbuf;
	}
}

static long queue_free(struct fuzz_task *t)
{
	const char *d, *b;
	RT_QUEUE *queue = pick(t, QUEUE, true, &d);
	void *buf = queue_buffer(t, &b);
	long ret;

	fuzz_args(t, "%s, %s", d, b);
	ret = rt_queue_free(queue, buf);
	if (ret == 0 && buf == me(t)->qbuf)
		me(t)->qbuf = NULL;
	return ret;
}

static int queue_send_mode(struct fuzz_task *t)
{
	return PICK_MODE(t, Q_NORMAL, Q_URGENT, Q_BROADCAST);
}

static long queue_send(struct fuzz_task *t)
{
	const char *d, *b;
	RT_QUEUE *queue = pick(t, QUEUE, true, &d);
	void *buf = queue_buffer(t, &b);
	size_t size = fuzz_size(t, 64);
	int mode = queue_send_mode(t);
	long ret;

	fuzz_args(t, "%s, %s, %zu, %#x", d, b, size, mode);
	ret = rt_queue_send(queue, buf, size, mode);
	if (ret >= 0 && buf == me(t)->qbuf)
		me(t)->qbuf = NULL;
	return ret;
}

static long queue_write(struct fuzz_task *t)
{
	const char *d;
	RT_QUEUE *queue = pick(t, QUEUE, true, &d);
	bool none = fuzz_chance(&t->rng, 5);
	size_t size = data_size(t);
	int mode = queue_send_mode(t);

	fuzz_args(t, "%s, %s, %zu, %#x", d, none ? "NULL" : "data", size, mode);
	return rt_queue_write(queue, none ? NULL : me(t)->data, size, mode);
}

static long queue_receive(struct fuzz_task *t)
{
	const char *d;
	char text[64];
	RT_QUEUE *queue = pick(t, QUEUE, true, &d);
	void *buf = NULL, **bufp = fuzz_chance(&t->rng, 5) ? NULL : &buf;
	struct wait wt = {0};
	long ret;

	draw_wait(t, &wt, text, sizeof(text));
	fuzz_args(t, "%s, %s, %s", d, bufp ? "&buf" : "NULL", text);
	ret = WAITED(wt, rt_queue_receive(queue, bufp, wt.tmo),
		     rt_queue_receive_until(queue, bufp, wt.tmo),
		     rt_queue_receive_timed(queue, bufp, wt.tsp));
	if (ret >= 0) {
		me(t)->qbuf = buf;
		me(t)->qbuf_of = queue->handle;
	}
	return ret;
}

/* Buffers. */

static long buffer_create(struct fuzz_task *t)
{
	const char *d, *name = pick_name(t, BUFFER);
	RT_BUFFER *bf = target(t, BUFFER, &d);
	size_t size = create_size(t, 4096);
	int mode = PICK_MODE(t, B_FIFO, B_PRIO);

	fuzz_args(t, "%s, %s, %zu, %#x", d, name ? name : "NULL", size, mode);
	return rt_buffer_create(bf, name, size, mode);
}

/* Heaps. */

static long heap_create(struct fuzz_task *t)
{
	const char *d, *name = pick_name(t, HEAP);
	RT_HEAP *heap = target(t, HEAP, &d);
	size_t size = create_size(t, 16384);
	int mode = PICK_MODE(t, H_FIFO, H_PRIO, H_SINGLE, H_PRIO | H_SINGLE);

	fuzz_args(t, "%s, %s, %zu, %#x", d, name ? name : "NULL", size, mode);
	return rt_heap_create(heap, name, size, mode);
}

static long heap_alloc(struct fuzz_task *t)
{
	const char *d;
	char text[64];
	RT_HEAP *heap = pick(t, HEAP, true, &d);
	size_t size = fuzz_size(t, 4096);
	void *block = NULL, **blockp = fuzz_chance(&t->rng, 5) ? NULL : &block;
	struct wait wt = {0};
	long ret;

	draw_wait(t, &wt, text, sizeof(text));
	fuzz_args(t, "%s, %zu, %s", d, size, text);
	ret = WAITED(wt, rt_heap_alloc(heap, size, wt.tmo, blockp),
		     rt_heap_alloc_until(heap, size, wt.tmo, blockp),
		     rt_heap_alloc_timed(heap, size, wt.tsp, blockp));
	if (ret == 0 && block) {
		memset(block, 0xa5, size < 64 ? size : 64);
		me(t)->block = block;
		me(t)->block_of = heap->handle;
	}
	return ret;
}

static long heap_free(struct fuzz_task *t)
{
	const char *d, *b;
	RT_HEAP *heap = pick(t, HEAP, true, &d);
	struct caller *k = me(t);
	void *block;
	long ret;

	switch (fuzz_below(&t->rng, 6)) {
	case 0:
		b = "NULL";
		block = NULL;
		break;
	case 1:
		b = "not from the heap";
		block = k->data;
		break;
	case 2:
		b = "inside the last block";
		block = k->block ? (char *)k->block + 16 : NULL;
		break;
	default:
		b = "the last block";
		block = k->block;
		break;
	}
	fuzz_args(t, "%s, %s", d, b);
	ret = rt_heap_free(heap, block);
	/* Freed: a waiter may own it now, and write to it. */
	if (ret == 0 && block == k->block)
		k->block = NULL;
	return ret;
}

/* Alarms: the handler makes a few calls as a handler caller. */

static void alarm_handler(void *arg)
{
	struct fuzz_task *t = arg;

	fuzz_irq_run(t, 1 + (int)fuzz_below(&t->rng, 3));
}

static long alarm_create(struct fuzz_task *t)
{
	const char *d, *name = pick_name(t, ALARM);
	RT_ALARM *alarm = target(t, ALARM, &d);
	struct fuzz_task *h = &t->w->irqs[fuzz_below(&t->rng, FUZZ_MAX_IRQ)];
	bool none = fuzz_chance(&t->rng, 5);

	fuzz_args(t, "%s, %s, %s", d, name ? name : "NULL",
		  none ? "NULL" : "handler");
	return rt_alarm_create(alarm, name, none ? NULL : alarm_handler, h);
}

static long alarm_start(struct fuzz_task *t)
{
	const char *d, *v;
	RT_ALARM *alarm = pick(t, ALARM, true, &d);
	RTIME value = fuzz_timeout(t, 0, TM_NONBLOCK, &v);
	/* At least 10 us apart: handlers must leave the tasks time. */
	RTIME interval = fuzz_chance(&t->rng, 50)
			     ? TM_INFINITE
			     : 10000 + fuzz_below(&t->rng, 1000000);

	fuzz_args(t, "%s, %s, %llu", d, v, interval);
	return rt_alarm_start(alarm, value, interval);
}

/* Pipes (the Linux side stays closed). */

static long pipe_create(struct fuzz_task *t)
{
	static const size_t pools[] = {0, 64, 1024, SIZE_MAX};
	const char *d, *name = pick_name(t, PIPE);
	RT_PIPE *pipe = target(t, PIPE, &d);
	int minor = fuzz_chance(&t->rng, 60)
			? P_MINOR_AUTO
			: (int)fuzz_below(&t->rng, P_MINOR_COUNT + 4) - 2;
	size_t poolsize = pools[fuzz_below(&t->rng, 4)];

	fuzz_args(t, "%s, %s, %d, %zu", d, name ? name : "NULL", minor,
		  poolsize);
	return rt_pipe_create(pipe, name, minor, poolsize);
}

static long pipe_delete(struct fuzz_task *t)
{
	const char *d;
	RT_PIPE *pipe = pick(t, PIPE, true, &d);

	fuzz_args(t, "%s", d);
	return rt_pipe_delete(pipe);
}

static long pipe_write(struct fuzz_task *t)
{
	const char *d;
	RT_PIPE *pipe = pick(t, PIPE, true, &d);
	bool none = fuzz_chance(&t->rng, 5), stream = fuzz_chance(&t->rng, 30);
	void *buf = none ? NULL : me(t)->data;
	size_t size = data_size(t);
	int mode = PICK_MODE(t, P_NORMAL, P_URGENT);

	fuzz_args(t, "%s, %s, %zu, %s %#x", d, none ? "NULL" : "data", size,
		  stream ? "stream" : "mode", mode);
	return stream ? rt_pipe_stream(pipe, buf, size)
		      : rt_pipe_write(pipe, buf, size, mode);
}

/* The documented codes, by header comment. */
#define E_CREATE FUZZ_CODES(-EINVAL, -EEXIST, -ENOMEM, -EPERM)
#define E_BAD FUZZ_CODES(-EINVAL)
#define E_WAIT                                                                 \
	FUZZ_CODES(-EINVAL, -EWOULDBLOCK, -ETIMEDOUT, -EINTR, -EIDRM, -EPERM)
#define E_BIND FUZZ_CODES(-EINVAL, -EWOULDBLOCK, -ETIMEDOUT, -EINTR, -EPERM)

static const struct fuzz_op ops[] = {
    {"rt_task_spawn", 4, 0, task_spawn, FUZZ_CODES(-EINVAL, -EEXIST, -ENOMEM)},
    {"rt_task_delete", 2, 0, task_delete, FUZZ_CODES(-EINVAL, -EPERM)},
    {"rt_task_join", 1, 0, task_join,
     FUZZ_CODES(-EINVAL, -EDEADLK, -EPERM, -EINTR)},
    {"rt_task_suspend", 3, FUZZ_IRQ, task_suspend, FUZZ_CODES(-EINVAL, -EPERM)},
    {"rt_task_resume", 5, FUZZ_IRQ, task_resume, FUZZ_CODES(-EINVAL, -EPERM)},
    {"rt_task_unblock", 4, FUZZ_IRQ, task_unblock, E_BAD},
    {"rt_task_set_priority", 3, FUZZ_IRQ, task_set_priority,
     FUZZ_CODES(-EINVAL, -EPERM)},
    {"rt_task_slice", 1, 0, task_slice, FUZZ_CODES(-EINVAL, -EPERM)},
    {"rt_task_inquire", 2, FUZZ_IRQ, task_inquire, FUZZ_CODES(-EINVAL, -EPERM)},
    {"rt_task_set_affinity", 1, 0, task_set_affinity, E_BAD},
    {"rt_task_set_periodic", 2, FUZZ_IRQ, task_set_periodic,
     FUZZ_CODES(-EINVAL, -ETIMEDOUT)},
    {"rt_task_wait_period", 2, 0, task_wait_period,
     FUZZ_CODES(-EWOULDBLOCK, -ETIMEDOUT, -EINTR, -EPERM)},
    {"rt_task_sleep", 3, 0, task_sleep, FUZZ_CODES(-EINTR, -EPERM)},
    {"rt_task_sleep_until", 2, 0, task_sleep_until,
     FUZZ_CODES(-ETIMEDOUT, -EINTR, -EPERM)},
    {"rt_task_yield", 2, 0, task_yield, FUZZ_CODES(-EPERM)},
    {"rt_task_set_mode", 1, 0, task_set_mode, FUZZ_CODES(-EINVAL, -EPERM)},
    {"rt_task_send", 3, FUZZ_COUNT, task_send,
     FUZZ_CODES(-EINVAL, -ENOBUFS, -EWOULDBLOCK, -ETIMEDOUT, -EIDRM, -EINTR,
		-EPERM)},
    {"rt_task_receive", 3, FUZZ_COUNT, task_receive,
     FUZZ_CODES(-EINVAL, -ENOBUFS, -EWOULDBLOCK, -ETIMEDOUT, -EINTR, -EPERM)},
    {"rt_task_reply", 3, 0, task_reply,
     FUZZ_CODES(-EINVAL, -ENXIO, -ENOBUFS, -EPERM)},
    {"rt_task_bind", 1, 0, task_bind, E_BIND},
    {"rt_task_unbind", 1, 0, task_unbind, E_BAD},
    {"rt_sem_create", 3, 0, sem_create, E_CREATE},
    {"rt_sem_delete", 2, 0, sem_delete, E_BAD},
    {"rt_sem_p", 6, 0, sem_p, E_WAIT},
    {"rt_sem_v", 6, FUZZ_IRQ, sem_v, FUZZ_CODES(-EINVAL, -EOVERFLOW)},
    {"rt_sem_broadcast", 2, FUZZ_IRQ, sem_broadcast, E_BAD},
    {"rt_sem_inquire", 1, FUZZ_IRQ, sem_inquire, E_BAD},
    {"rt_sem_bind", 1, 0, sem_bind, E_BIND},
    {"rt_sem_unbind", 1, 0, sem_unbind, E_BAD},
    {"rt_mutex_create", 3, 0, mutex_create, E_CREATE},
    {"rt_mutex_delete", 2, 0, mutex_delete, FUZZ_CODES(-EINVAL, -EBUSY)},
    {"rt_mutex_acquire", 6, 0, mutex_acquire,
     FUZZ_CODES(-EINVAL, -EWOULDBLOCK, -ETIMEDOUT, -EINTR, -EIDRM, -EPERM,
		-EDEADLK)},
    {"rt_mutex_release", 6, 0, mutex_release, FUZZ_CODES(-EINVAL, -EPERM)},
    {"rt_mutex_inquire", 1, FUZZ_IRQ, mutex_inquire, E_BAD},
    {"rt_mutex_bind", 1, 0, mutex_bind, E_BIND},
    {"rt_mutex_unbind", 1, 0, mutex_unbind, E_BAD},
    {"rt_cond_create", 2, 0, cond_create, E_CREATE},
    {"rt_cond_delete", 2, 0, cond_delete, FUZZ_CODES(-EINVAL, -EBUSY)},
    {"rt_cond_signal", 3, FUZZ_IRQ, cond_signal, E_BAD},
    {"rt_cond_broadcast", 2, FUZZ_IRQ, cond_broadcast, E_BAD},
    {"rt_cond_wait", 4, 0, cond_wait, E_WAIT},
    {"rt_cond_inquire", 1, FUZZ_IRQ, cond_inquire, E_BAD},
    {"rt_cond_bind", 1, 0, cond_bind, E_BIND},
    {"rt_cond_unbind", 1, 0, cond_unbind, E_BAD},
    {"rt_event_create", 2, 0, event_create, E_CREATE},
    {"rt_event_delete", 2, 0, event_delete, E_BAD},
    {"rt_event_signal", 4, FUZZ_IRQ, event_signal, E_BAD},
    {"rt_event_clear", 2, FUZZ_IRQ, event_clear, E_BAD},
    {"rt_event_wait", 4, 0, event_wait, E_WAIT},
    {"rt_event_inquire", 1, FUZZ_IRQ, event_inquire, E_BAD},
    {"rt_event_bind", 1, 0, event_bind, E_BIND},
    {"rt_event_unbind", 1, 0, event_unbind, E_BAD},
    {"rt_queue_create", 2, 0, queue_create, E_CREATE},
    {"rt_queue_delete", 2, 0, queue_delete, E_BAD},
    {"rt_queue_alloc", 3, FUZZ_IRQ, queue_alloc, E_BAD},
    {"rt_queue_free", 2, FUZZ_IRQ, queue_free, E_BAD},
    {"rt_queue_send", 3, FUZZ_IRQ | FUZZ_COUNT, queue_send,
     FUZZ_CODES(-EINVAL, -ENOMEM)},
    {"rt_queue_write", 3, FUZZ_IRQ | FUZZ_COUNT, queue_write,
     FUZZ_CODES(-EINVAL, -ENOMEM)},
    {"rt_queue_receive", 3, FUZZ_COUNT, queue_receive, E_WAIT},
    {"rt_queue_read", 3, FUZZ_COUNT, queue_read, E_WAIT},
    {"rt_queue_flush", 1, FUZZ_IRQ | FUZZ_COUNT, queue_flush, E_BAD},
    {"rt_queue_inquire", 1, FUZZ_IRQ, queue_inquire, E_BAD},
    {"rt_queue_bind", 1, 0, queue_bind, E_BIND},
    {"rt_queue_unbind", 1, 0, queue_unbind, E_BAD},
    {"rt_buffer_create", 2, 0, buffer_create, E_CREATE},
    {"rt_buffer_delete", 2, 0, buffer_delete, E_BAD},
    {"rt_buffer_write", 4, FUZZ_COUNT, buffer_write, E_WAIT},
    {"rt_buffer_read", 4, FUZZ_COUNT, buffer_read, E_WAIT},
    {"rt_buffer_clear", 1, FUZZ_IRQ, buffer_clear, E_BAD},
    {"rt_buffer_inquire", 1, FUZZ_IRQ, buffer_inquire, E_BAD},
    {"rt_buffer_bind", 1, 0, buffer_bind, E_BIND},
    {"rt_buffer_unbind", 1, 0, buffer_unbind, E_BAD},
    {"rt_heap_create", 2, 0, heap_create, E_CREATE},
    {"rt_heap_delete", 2, 0, heap_delete, E_BAD},
    {"rt_heap_alloc", 4, 0, heap_alloc, E_WAIT},
    {"rt_heap_free", 3, FUZZ_IRQ, heap_free, E_BAD},
    {"rt_heap_inquire", 1, FUZZ_IRQ, heap_inquire, E_BAD},
    {"rt_heap_bind", 1, 0, heap_bind, E_BIND},
    {"rt_heap_unbind", 1, 0, heap_unbind, E_BAD},
    {"rt_alarm_create", 2, 0, alarm_create, E_CREATE},
    {"rt_alarm_delete", 1, 0, alarm_delete, FUZZ_CODES(-EINVAL, -EPERM)},
    {"rt_alarm_start", 3, FUZZ_IRQ, alarm_start, E_BAD},
    {"rt_alarm_stop", 2, FUZZ_IRQ, alarm_stop, E_BAD},
    {"rt_alarm_inquire", 1, FUZZ_IRQ, alarm_inquire, E_BAD},
    {"rt_pipe_create", 2, FUZZ_COUNT, pipe_create,
     FUZZ_CODES(-EINVAL, -ENODEV, -EBUSY, -EEXIST, -ENOMEM)},
    {"rt_pipe_delete", 1, 0, pipe_delete, E_BAD},
    {"rt_pipe_read", 3, FUZZ_COUNT, pipe_read,
     FUZZ_CODES(-EINVAL, -ENOBUFS, -EWOULDBLOCK, -ETIMEDOUT, -EINTR, -EIDRM,
		-EPERM)},
    {"rt_pipe_write", 3, FUZZ_IRQ | FUZZ_COUNT, pipe_write,
     FUZZ_CODES(-EINVAL, -ENOMEM)},
    {"rt_pipe_bind", 1, 0, pipe_bind, E_BIND},
    {"rt_pipe_unbind", 1, 0, pipe_unbind, E_BAD},
};

/* Every slot holds an object at first (workers delete and re-create). */
static int populate(struct fuzz_world *w)
{
	int ret = 0;

	for (int i = 0; i < NR && ret == 0; i++)
		ret = rt_sem_create(&pool.sem[i], NULL, (unsigned long)i, S_PRIO) ?:
		      rt_mutex_create(&pool.mutex[i], NULL) ?:
		      rt_cond_create(&pool.cond[i], NULL) ?:
		      rt_event_create(&pool.event[i], NULL, 0, EV_PRIO) ?:
		      rt_queue_create(&pool.queue[i], NULL, 4096, Q_UNLIMITED,
				      Q_FIFO) ?:
		      rt_buffer_create(&pool.buffer[i], NULL, 1024, B_PRIO) ?:
		      rt_heap_create(&pool.heap[i], NULL, 8192, H_PRIO) ?:
		      rt_alarm_create(&pool.alarm[i], NULL, alarm_handler,
				      &w->irqs[i % FUZZ_MAX_IRQ]);
	return ret ?: rt_pipe_create(&pool.pipe[0], NULL, P_MINOR_AUTO, 0) < 0;
}

static int setup(struct fuzz_world *w)
{
	/* Main becomes the watcher task, below every worker. */
	if (rt_task_shadow(NULL, "watcher", 0, 0) || populate(w))
		return -1;
	/* All created before any runs: a worker may spawn into free slots. */
	for (int i = 0; i < w->nr_tasks; i++) {
		char name[24];

		snprintf(name, sizeof(name), "worker%d", i);
		w->tasks[i].alive = true;
		if (rt_task_create(&pool.task[i], name, 0,
				   1 + (int)fuzz_below(&w->rng, 99),
				   fuzz_chance(&w->rng, 30) ? T_JOINABLE : 0))
			return -1;
	}
	/* The first ones started may delete the others meanwhile. */
	for (int i = 0; i < w->nr_tasks; i++)
		if (rt_task_start(&pool.task[i], task_entry, &w->tasks[i]))
			w->tasks[i].alive = false;
	return 0;
}

static void idle(struct fuzz_world *w)
{
	(void)w;
	/* -EINTR when a forged descriptor happened to name the watcher. */
	(void)rt_task_sleep(WATCH_NS);
}

static void rescue(struct fuzz_world *w)
{
	for (int i = 0; i < FUZZ_MAX_TASKS; i++) {
		if (!w->tasks[i].alive)
			continue;
		/* Suspensions nest (a few deep at most, in a run). */
		for (int n = 0; n < 16; n++)
			(void)rt_task_resume(&pool.task[i]);
		(void)rt_task_unblock(&pool.task[i]);
	}
}

static void teardown(struct fuzz_world *w)
{
	for (int i = 0; i < NR; i++)
		(void)rt_alarm_delete(&pool.alarm[i]);
	for (int i = 0; i < FUZZ_MAX_TASKS; i++)
		if (w->tasks[i].alive)
			(void)rt_task_delete(&pool.task[i]);
}

FUZZ_API_TABLE(alchemy);
