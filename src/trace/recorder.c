/* SPDX-License-Identifier: MIT */
/* The built-in recorder: see recorder.h. */
#include "recorder.h"
#include "config.h"
#include "ctf.h"
#include "names.h"
#include "ring.h"
#include "sort.h"
#include "../backend/common/options.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define READY_SLOTS 256 /* threads followed by the latency trigger */

/* The LTTng-UST provider module (src/trace/lttng/), if built. */
#ifdef FUSION_LTTNG_MODULE
static const char lttng_module[] = FUSION_LTTNG_MODULE;
#else
static const char lttng_module[] = "";
#endif

/* When a thread became ready, for the latency trigger. */
struct ready_slot {
	const char *thread; /* the record's name pointer: stable per thread */
	nk_time_t date;	    /* -1: running or not followed */
};

struct trace_recorder {
	struct trace_config cfg;
	char backend[16];
	int nr_cpus;
	bool attached; /* to an instance that was made: it has a trace */
	nk_trace_fn next;
	void *next_ctx;
	bool event_on[NK_TRACE_NR_EVENTS];
	/* FUSION_TRACE=lttng: the provider's sink, instead of the rings. */
	void (*lttng)(const struct nk_trace_record *rec);
	atomic_bool
	    frozen; /* a trigger tripped: the rings keep what led to it */
	struct ready_slot ready[READY_SLOTS];
	/* The writing thread, when a signal or a trigger may ask for it. */
	bool has_writer;
	pthread_t writer;
	sem_t kick;
	atomic_bool stopping;
	pthread_mutex_t write_lock; /* one write at a time */
	char why[128];		    /* what tripped, for the message */
	struct trace_names *names;  /* the rings' numbers' names */
	struct trace_ring *rings[];
};

/* SIGUSR2 reaches the recorder that asked for it last. */
static _Atomic(struct trace_recorder *) signal_recorder;
static struct sigaction signal_saved;

/* Write the trace out; the events lost in *@lost. */
static int recorder_write(struct trace_recorder *tr, uint64_t *lost)
{
	struct trace_stream *streams;
	struct trace_rec **copies;
	int ret = 0;

	streams = calloc((size_t)tr->nr_cpus, sizeof(*streams));
	copies = calloc((size_t)tr->nr_cpus, sizeof(*copies));
	if (streams == NULL || copies == NULL) {
		free(streams);
		free(copies);
		return -ENOMEM;
	}
	*lost = 0;
	pthread_mutex_lock(&tr->write_lock);
	for (int cpu = 0; cpu < tr->nr_cpus && ret == 0; cpu++) {
		size_t cap = trace_ring_capacity(tr->rings[cpu]);

		copies[cpu] = malloc(cap * sizeof(**copies));
		if (copies[cpu] == NULL) {
			ret = -ENOMEM;
			break;
		}
		streams[cpu].events = copies[cpu];
		streams[cpu].nr = trace_ring_copy(tr->rings[cpu], copies[cpu],
						  &streams[cpu].lost);
		/* On live, an IRQ's record may follow a later-dated one. */
		*lost += streams[cpu].lost;
		ret = trace_recs_sort(copies[cpu], streams[cpu].nr);
	}
	if (ret == 0)
		ret = trace_ctf_write(tr->cfg.out, tr->backend, streams,
				      tr->nr_cpus, tr->names);
	pthread_mutex_unlock(&tr->write_lock);
	for (int cpu = 0; cpu < tr->nr_cpus; cpu++)
		free(copies[cpu]);
	free(copies);
	free(streams);
	if (ret)
		fprintf(stderr, "fusion: trace: cannot write %s: %s\n",
			tr->cfg.out, strerror(-ret));
	return ret;
}

static void *writer_main(void *arg)
{
	struct trace_recorder *tr = arg;
	uint64_t lost;

	for (;;) {
		while (sem_wait(&tr->kick) && errno == EINTR)
			;
		if (atomic_load(&tr->stopping))
			return NULL;
		if (recorder_write(tr, &lost) == 0 && tr->why[0])
			fprintf(stderr, "fusion: trace: %s: written to %s\n",
				tr->why, tr->cfg.out);
	}
}

static void on_signal(int sig)
{
	struct trace_recorder *tr = atomic_load(&signal_recorder);

	(void)sig;
	if (tr)
		sem_post(&tr->kick); /* async-signal-safe */
}

static struct ready_slot *ready_find(struct trace_recorder *tr,
				     const char *thread, bool add)
{
	size_t h = ((uintptr_t)thread >> 4) % READY_SLOTS;

	for (size_t i = 0; i < READY_SLOTS; i++) {
		struct ready_slot *s = &tr->ready[(h + i) % READY_SLOTS];

		if (s->thread == thread)
			return s;
		if (s->thread == NULL) {
			if (!add)
				return NULL;
			s->thread = thread;
			return s;
		}
	}
	return NULL;
}

/* Record @rec in its CPU's ring, its names as numbers. */
static void put(struct trace_recorder *tr, const struct nk_trace_record *rec)
{
	struct trace_rec r = {
	    .date = rec->date,
	    .arg = rec->arg,
	    .thread = trace_names_note(tr->names, rec->thread_id, rec->thread),
	    .object = trace_names_note(tr->names, rec->object_id, rec->object),
	    .detail = trace_names_note(tr->names, 0, rec->detail),
	    .event = (uint16_t)rec->event,
	    .cpu = (uint16_t)rec->cpu,
	};

	trace_ring_put(tr->rings[rec->cpu], &r);
}

/*
 * The latency trigger: a thread switched in later than the threshold
 * after it became ready freezes the rings, with a mark saying so as
 * their last event, and wakes the writer.  Called for sched events,
 * which the nucleus lock serialises.
 */
static void check_latency(struct trace_recorder *tr,
			  const struct nk_trace_record *rec)
{
	struct ready_slot *s;
	nk_time_t late;

	if (rec->event == NK_TRACE_READY) {
		s = ready_find(tr, rec->thread, true);
		if (s)
			s->date = rec->date;
		return;
	}
	if (rec->event != NK_TRACE_SWITCH)
		return;
	s = ready_find(tr, rec->thread, false);
	if (s == NULL || s->date < 0)
		return;
	late = rec->date - s->date;
	s->date = -1;
	if (late <= tr->cfg.latency)
		return;
	snprintf(tr->why, sizeof(tr->why),
		 "wake-up latency of %s was %lld ns (above %lld)", rec->thread,
		 (long long)late, (long long)tr->cfg.latency);
	struct nk_trace_record mark = {
	    .date = rec->date,
	    .cpu = rec->cpu,
	    .event = NK_TRACE_MARK,
	    .thread = rec->thread,
	    .thread_id = rec->thread_id,
	    .object = "latency trigger",
	};
	put(tr, &mark);
	atomic_store(&tr->frozen, true);
	sem_post(&tr->kick);
}

static void recorder_sink(void *ctx, const struct nk_trace_record *rec)
{
	struct trace_recorder *tr = ctx;

	if (tr->next)
		tr->next(tr->next_ctx, rec);
	if ((unsigned int)rec->event >= NK_TRACE_NR_EVENTS ||
	    !tr->event_on[rec->event] || rec->cpu < 0 ||
	    rec->cpu >= tr->nr_cpus ||
	    atomic_load_explicit(&tr->frozen, memory_order_relaxed))
		return;
	if (tr->lttng) {
		tr->lttng(rec);
		return;
	}
	put(tr, rec);
	if (tr->cfg.latency)
		check_latency(tr, rec);
}

static void recorder_free(struct trace_recorder *tr)
{
	for (int cpu = 0; cpu < tr->nr_cpus; cpu++)
		trace_ring_destroy(tr->rings[cpu]);
	trace_names_destroy(tr->names);
	sem_destroy(&tr->kick);
	pthread_mutex_destroy(&tr->write_lock);
	free(tr);
}

/*
 * Load the provider module and find its sink.  Never unloaded: LTTng
 * may still hold its probes when the instance ends.
 */
static int open_lttng(struct trace_recorder *tr)
{
	void *module;

	if (lttng_module[0] == '\0') {
		fprintf(stderr, "fusion: FUSION_TRACE=lttng: this build has no "
				"LTTng-UST provider (liblttng-ust-dev missing "
				"when it was built)\n");
		return -EINVAL;
	}
	module = dlopen(lttng_module, RTLD_NOW | RTLD_LOCAL);
	if (module)
		*(void **)&tr->lttng = dlsym(module, "fusion_lttng_sink");
	if (tr->lttng == NULL) {
		fprintf(stderr, "fusion: FUSION_TRACE=lttng: %s\n", dlerror());
		return -EINVAL;
	}
	return 0;
}

static int start_writer(struct trace_recorder *tr)
{
	struct sigaction sa = {.sa_handler = on_signal};
	int ret;

	ret = pthread_create(&tr->writer, NULL, writer_main, tr);
	if (ret)
		return -ret;
	tr->has_writer = true;
	if (tr->cfg.signal) {
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESTART;
		atomic_store(&signal_recorder, tr);
		sigaction(SIGUSR2, &sa, &signal_saved);
	}
	return 0;
}

int trace_recorder_open(const char *backend, int nr_cpus,
			struct trace_recorder **out)
{
	struct be_options opts = {0};
	struct trace_recorder *tr;
	size_t bytes;
	int ret;

	*out = NULL;
	if (be_option_get(BE_OPT_TRACE, &opts))
		return -EINVAL;
	if (opts.trace.categories == 0)
		return 0;
	tr = calloc(1, sizeof(*tr) + (size_t)nr_cpus * sizeof(tr->rings[0]));
	if (tr == NULL)
		return -ENOMEM;
	tr->cfg = opts.trace;
	snprintf(tr->backend, sizeof(tr->backend), "%s", backend);
	tr->nr_cpus = nr_cpus;
	for (int ev = 0; ev < NK_TRACE_NR_EVENTS; ev++)
		tr->event_on[ev] = tr->cfg.categories &
				   (1u << nk_tracepoint_info(ev)->category);
	sem_init(&tr->kick, 0, 0);
	pthread_mutex_init(&tr->write_lock, NULL);
	if (tr->cfg.lttng) {
		ret = open_lttng(tr);
		if (ret == 0)
			*out = tr;
		else
			recorder_free(tr);
		return ret;
	}
	tr->names = trace_names_create();
	if (tr->names == NULL) {
		recorder_free(tr);
		return -ENOMEM;
	}
	bytes = (size_t)tr->cfg.size_mib << 20;
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		tr->rings[cpu] = trace_ring_create(bytes, tr->cfg.flight);
		if (tr->rings[cpu] == NULL) {
			recorder_free(tr);
			return -ENOMEM;
		}
	}
	if ((tr->cfg.signal || tr->cfg.latency) && start_writer(tr)) {
		recorder_free(tr);
		return -ENOMEM;
	}
	*out = tr;
	return 0;
}

void trace_recorder_attach(struct trace_recorder *tr, nk_trace_fn *fn,
			   void **ctx)
{
	if (tr == NULL)
		return;
	tr->attached = true;
	tr->next = *fn;
	tr->next_ctx = *ctx;
	*fn = recorder_sink;
	*ctx = tr;
}

void trace_recorder_close(struct trace_recorder *tr)
{
	uint64_t lost = 0;

	if (tr == NULL)
		return;
	if (tr->has_writer) {
		if (tr->cfg.signal) {
			/* Unpublished first: a signal arriving meanwhile
			 * finds no recorder. */
			atomic_store(&signal_recorder, NULL);
			sigaction(SIGUSR2, &signal_saved, NULL);
		}
		atomic_store(&tr->stopping, true);
		sem_post(&tr->kick);
		pthread_join(tr->writer, NULL);
	}
	if (tr->attached && !tr->lttng && recorder_write(tr, &lost) == 0) {
		if (lost)
			fprintf(stderr,
				"fusion: trace: %llu events lost (buffers "
				"full: a larger size=MIB, or flight to keep "
				"the last ones)\n",
				(unsigned long long)lost);
		if (trace_names_lost(tr->names))
			fprintf(
			    stderr,
			    "fusion: trace: %llu texts (marks, service "
			    "objects, names) took older ones' places, "
			    "whose first mentions show as \"?\"\n",
			    (unsigned long long)trace_names_lost(tr->names));
	}
	recorder_free(tr);
}
