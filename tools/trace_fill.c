/* SPDX-License-Identifier: MIT */
/* Queue and semaphore fill from service calls: see trace_fill.h. */
#include "trace_fill.h"

#include <fusion/fusion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* When a call did what its name says, by its result. */
enum fill_ok {
	OK_ZERO,     /* 0 (a status) */
	OK_NONNEG,   /* >= 0 (a size, a number of tasks woken) */
	OK_POSITIVE, /* > 0: RTAI's rt_sem_wait_if() took a unit */
	OK_COUNT,    /* RTAI: a count, not an RTE_* code */
};

/* RTAI's error codes are above RTE_BASE (rtai_lxrt.h). */
#define RTAI_RTE_BASE 0x3FFFFF00L

struct fill_rule {
	const char *skin;
	const char *service;
	const char *kind;
	int delta; /* 0: a reset */
	enum fill_ok ok;
};

static const struct fill_rule rules[] = {
    {"alchemy", "rt_sem_create", "sem", 0, OK_ZERO},
    {"alchemy", "rt_sem_v", "sem", 1, OK_ZERO},
    {"alchemy", "rt_sem_p", "sem", -1, OK_ZERO},
    {"alchemy", "rt_sem_p_timed", "sem", -1, OK_ZERO},
    {"alchemy", "rt_sem_p_until", "sem", -1, OK_ZERO},
    {"alchemy", "rt_queue_create", "queue", 0, OK_ZERO},
    {"alchemy", "rt_queue_flush", "queue", 0, OK_NONNEG},
    {"alchemy", "rt_queue_send", "queue", 1, OK_NONNEG},
    {"alchemy", "rt_queue_write", "queue", 1, OK_NONNEG},
    {"alchemy", "rt_queue_receive", "queue", -1, OK_NONNEG},
    {"alchemy", "rt_queue_receive_timed", "queue", -1, OK_NONNEG},
    {"alchemy", "rt_queue_receive_until", "queue", -1, OK_NONNEG},
    {"alchemy", "rt_queue_read", "queue", -1, OK_NONNEG},
    {"alchemy", "rt_queue_read_timed", "queue", -1, OK_NONNEG},
    {"alchemy", "rt_queue_read_until", "queue", -1, OK_NONNEG},
    {"alchemy", "rt_pipe_create", "pipe", 0, OK_NONNEG},
    {"alchemy", "rt_pipe_write", "pipe", 1, OK_NONNEG},
    {"alchemy", "rt_pipe_read", "pipe", -1, OK_NONNEG},
    {"alchemy", "rt_pipe_read_timed", "pipe", -1, OK_NONNEG},
    {"alchemy", "rt_pipe_read_until", "pipe", -1, OK_NONNEG},
    {"vxworks", "semBCreate", "sem", 0, OK_ZERO},
    {"vxworks", "semCCreate", "sem", 0, OK_ZERO},
    {"vxworks", "semGive", "sem", 1, OK_ZERO},
    {"vxworks", "semTake", "sem", -1, OK_ZERO},
    {"vxworks", "msgQCreate", "msgq", 0, OK_ZERO},
    {"vxworks", "msgQSend", "msgq", 1, OK_ZERO},
    {"vxworks", "msgQReceive", "msgq", -1, OK_NONNEG},
    {"psos", "sm_create", "sem", 0, OK_ZERO},
    {"psos", "sm_v", "sem", 1, OK_ZERO},
    {"psos", "sm_p", "sem", -1, OK_ZERO},
    {"psos", "q_create", "queue", 0, OK_ZERO},
    {"psos", "q_vcreate", "queue", 0, OK_ZERO},
    {"psos", "q_send", "queue", 1, OK_ZERO},
    {"psos", "q_urgent", "queue", 1, OK_ZERO},
    {"psos", "q_vsend", "queue", 1, OK_ZERO},
    {"psos", "q_vurgent", "queue", 1, OK_ZERO},
    {"psos", "q_receive", "queue", -1, OK_ZERO},
    {"psos", "q_vreceive", "queue", -1, OK_ZERO},
    {"rtai", "rt_typed_sem_init", "sem", 0, OK_ZERO},
    {"rtai", "rt_sem_init", "sem", 0, OK_ZERO},
    {"rtai", "rt_typed_named_sem_init", "sem", 0, OK_ZERO},
    {"rtai", "rt_named_sem_init", "sem", 0, OK_ZERO},
    {"rtai", "rt_sem_signal", "sem", 1, OK_ZERO},
    {"rtai", "rt_sem_wait", "sem", -1, OK_COUNT},
    {"rtai", "rt_sem_wait_until", "sem", -1, OK_COUNT},
    {"rtai", "rt_sem_wait_timed", "sem", -1, OK_COUNT},
    {"rtai", "rt_sem_wait_if", "sem", -1, OK_POSITIVE},
    {"rtai", "rt_typed_mbx_init", "mbx", 0, OK_ZERO},
    {"rtai", "rt_mbx_init", "mbx", 0, OK_ZERO},
    {"rtai", "rt_typed_named_mbx_init", "mbx", 0, OK_ZERO},
    {"rtai", "rt_named_mbx_init", "mbx", 0, OK_ZERO},
    {"rtai", "rt_mbx_send", "mbx", 1, OK_ZERO},
    {"rtai", "rt_mbx_send_if", "mbx", 1, OK_ZERO},
    {"rtai", "rt_mbx_send_until", "mbx", 1, OK_ZERO},
    {"rtai", "rt_mbx_send_timed", "mbx", 1, OK_ZERO},
    {"rtai", "rt_mbx_receive", "mbx", -1, OK_ZERO},
    {"rtai", "rt_mbx_receive_if", "mbx", -1, OK_ZERO},
    {"rtai", "rt_mbx_receive_until", "mbx", -1, OK_ZERO},
    {"rtai", "rt_mbx_receive_timed", "mbx", -1, OK_ZERO},
};

static bool succeeded(enum fill_ok ok, long result)
{
	switch (ok) {
	case OK_ZERO:
		return result == 0;
	case OK_NONNEG:
		return result >= 0;
	case OK_POSITIVE:
		return result > 0 && result < RTAI_RTE_BASE;
	case OK_COUNT:
		break;
	}
	return result < RTAI_RTE_BASE;
}

/* The rule of a call of @service of @skin returning @result; NULL when
 * the call changes no fill (another service, or one that failed). */
static const struct fill_rule *rule_of(const char *skin, const char *service,
				       long result)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct fill_rule *r = &rules[i];

		if (strcmp(r->skin, skin) == 0 &&
		    strcmp(r->service, service) == 0)
			return succeeded(r->ok, result) ? r : NULL;
	}
	return NULL;
}

struct fill {
	char object[TRACE_TEXT_MAX];
	long level;
	long handed; /* takes handed a unit whose give is still to come */
};

struct woken {
	char thread[TRACE_THREAD_MAX];
	bool since_call; /* woken since its last service call */
};

struct fill_tracker {
	struct fill *fills;
	size_t nr_fills, cap_fills;
	struct woken *threads;
	size_t nr_threads, cap_threads;
};

/* Grow *@v (of @size bytes each) to hold one more; false: no memory. */
static bool grow(void **v, size_t size, size_t nr, size_t *cap)
{
	void *p;

	if (nr < *cap)
		return true;
	p = realloc(*v, (*cap ? *cap * 2 : 16) * size);
	if (p == NULL)
		return false;
	*v = p;
	*cap = *cap ? *cap * 2 : 16;
	return true;
}

static struct fill *fill_of(struct fill_tracker *t, const char *object)
{
	struct fill *f;

	for (size_t i = 0; i < t->nr_fills; i++)
		if (strcmp(t->fills[i].object, object) == 0)
			return &t->fills[i];
	if (!grow((void **)&t->fills, sizeof(*f), t->nr_fills, &t->cap_fills))
		return NULL;
	f = &t->fills[t->nr_fills++];
	memset(f, 0, sizeof(*f));
	snprintf(f->object, sizeof(f->object), "%s", object);
	return f;
}

static struct woken *thread_of(struct fill_tracker *t, const char *thread)
{
	struct woken *w;

	for (size_t i = 0; i < t->nr_threads; i++)
		if (strcmp(t->threads[i].thread, thread) == 0)
			return &t->threads[i];
	if (!grow((void **)&t->threads, sizeof(*w), t->nr_threads,
		  &t->cap_threads))
		return NULL;
	w = &t->threads[t->nr_threads++];
	memset(w, 0, sizeof(*w));
	snprintf(w->thread, sizeof(w->thread), "%s", thread);
	return w;
}

struct fill_tracker *fill_tracker_new(void)
{
	return calloc(1, sizeof(struct fill_tracker));
}

void fill_tracker_free(struct fill_tracker *t)
{
	if (t == NULL)
		return;
	free(t->fills);
	free(t->threads);
	free(t);
}

/* The new level of @f after a call of @r by a thread woken or not. */
static void apply(struct fill *f, const struct fill_rule *r, bool woken)
{
	if (r->delta == 0) {
		f->level = f->handed = 0;
	} else if (r->delta > 0 && f->handed > 0) {
		f->handed--; /* its take already went by */
	} else if (r->delta < 0 && woken && f->level <= 0) {
		f->handed++; /* its give is still to come */
	} else {
		f->level += r->delta;
	}
}

int fill_tracker_event(struct fill_tracker *t, const struct trace_event *e,
		       struct fill_sample *s)
{
	const struct fill_rule *r;
	struct woken *w = thread_of(t, e->thread);
	struct fill *f;
	bool woken;

	if (w == NULL)
		return -1;
	if (e->event == NK_TRACE_WAKE) {
		w->since_call = e->arg == NK_WAKE_OK;
		return 0;
	}
	if (!nk_trace_is_service(e->event))
		return 0;
	woken = w->since_call;
	w->since_call = false;
	r = rule_of(nk_tracepoint_info(e->event)->name, e->object,
		    (long)e->arg);
	if (r == NULL)
		return 0;
	f = fill_of(t, e->detail);
	if (f == NULL)
		return -1;
	apply(f, r, woken);
	snprintf(s->name, sizeof(s->name), "%s %s", r->kind, e->detail);
	s->level = f->level;
	return 1;
}
