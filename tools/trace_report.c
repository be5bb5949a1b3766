/* SPDX-License-Identifier: MIT */
/*
 * fusion trace report: per thread its CPU time, switches and wake-up
 * latencies; the latency distribution; the longest waits per object;
 * priority inversions (how long an urgent thread waited for a less
 * urgent owner, boosted or not); mode switches and their causes.
 */
#include "trace_cmd.h"
#include "trace_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OBJECTS 256
#define NR_BUCKETS 7

/* Wake-up latency buckets: below 1 us, 10 us... and 10 ms or more. */
static const int64_t bucket_limit[NR_BUCKETS - 1] = {
    1000, 10000, 100000, 1000000, 10000000, 100000000,
};
static const char *const bucket_name[NR_BUCKETS] = {
    "< 1 us",  "< 10 us",  "< 100 us",	"< 1 ms",
    "< 10 ms", "< 100 ms", ">= 100 ms",
};

struct object_waits {
	char name[TRACE_TEXT_MAX];
	unsigned long waits;
	int64_t longest;
	char longest_thread[TRACE_THREAD_MAX];
};

struct report {
	unsigned long buckets[NR_BUCKETS];
	struct object_waits objects[MAX_OBJECTS];
	int nr_objects;
	unsigned long marks, services, service_errors;
};

static void on_wakeup(void *ctx, const struct tthread *t, int64_t date, int cpu)
{
	struct report *r = ctx;
	int64_t lat = date - t->ready_at;
	int b = 0;

	(void)cpu;
	while (b < NR_BUCKETS - 1 && lat >= bucket_limit[b])
		b++;
	r->buckets[b]++;
}

static void on_wait(void *ctx, const struct tthread *t, const char *object,
		    int64_t start, int64_t date)
{
	struct report *r = ctx;
	struct object_waits *o = NULL;

	for (int i = 0; i < r->nr_objects && o == NULL; i++)
		if (strcmp(r->objects[i].name, object) == 0)
			o = &r->objects[i];
	if (o == NULL) {
		if (r->nr_objects == MAX_OBJECTS)
			return;
		o = &r->objects[r->nr_objects++];
		snprintf(o->name, sizeof(o->name), "%s", object);
	}
	if (o->waits++ == 0 || date - start > o->longest) {
		o->longest = date - start;
		snprintf(o->longest_thread, sizeof(o->longest_thread), "%s",
			 t->name);
	}
}

static void on_boost(void *ctx, const struct tthread *t, int64_t date)
{
	(void)ctx;
	printf("  %-16s (prio %d) held %s for a waiter of prio %d: %.3f us, "
	       "from %.3f us\n",
	       t->name, t->base_prio, t->boost_cause, t->boost_prio,
	       (double)(date - t->boosted_since) / 1e3,
	       (double)t->boosted_since / 1e3);
}

static void on_event(void *ctx, const struct trace_event *e)
{
	struct report *r = ctx;

	if (e->event == NK_TRACE_MARK)
		r->marks++;
	if (nk_trace_is_service(e->event)) {
		r->services++;
		r->service_errors += e->arg < 0;
	}
}

static int by_longest(const void *a, const void *b)
{
	const struct object_waits *x = a, *y = b;

	return x->longest < y->longest ? 1 : x->longest > y->longest ? -1 : 0;
}

static void print_threads(const struct tmodel *m)
{
	printf("\nthread           cpu time (us)  switches  wake-ups  latency "
	       "min/avg/max (us)\n");
	for (int i = 0; i < tmodel_nr_threads(m); i++) {
		const struct tthread *t = tmodel_thread(m, i);

		printf("%-16s %13.3f %9lu %9lu", t->name,
		       (double)t->cpu_time / 1e3, t->switches, t->nr_lat);
		if (t->nr_lat)
			printf("  %.3f/%.3f/%.3f", (double)t->lat_min / 1e3,
			       (double)t->lat_sum / 1e3 / (double)t->nr_lat,
			       (double)t->lat_max / 1e3);
		printf("\n");
	}
}

static void print_modes(const struct tmodel *m)
{
	static const char *const reasons[8] = {"?", "explicit", "syscall", "3",
					       "4", "5",	"6",	   "7"};

	bool any = false;

	printf("\nmode switches\n");
	for (int i = 0; i < tmodel_nr_threads(m); i++) {
		const struct tthread *t = tmodel_thread(m, i);
		unsigned long relaxes = 0;

		for (int k = 0; k < 8; k++)
			relaxes += t->relax[k];
		if (relaxes + t->harden == 0)
			continue;
		printf("  %-16s relax %lu (", t->name, relaxes);
		for (int k = 0, first = 1; k < 8; k++)
			if (t->relax[k]) {
				printf("%s%s %lu", first ? "" : ", ",
				       reasons[k], t->relax[k]);
				first = 0;
			}
		printf("), harden %lu\n", t->harden);
		any = true;
	}
	if (!any)
		printf("  (none)\n");
}

int fusion_trace_report(const struct trace_log *log)
{
	static const struct tmodel_hooks hooks = {
	    .wakeup = on_wakeup,
	    .wait = on_wait,
	    .boost = on_boost,
	    .event = on_event,
	};
	struct report *r = calloc(1, sizeof(*r));
	struct tmodel *m;

	if (r == NULL)
		return -1;
	printf("%zu events on %d CPUs, %llu lost, %.3f us\n", log->nr,
	       log->nr_cpus, (unsigned long long)log->lost,
	       log->nr ? (double)(log->events[log->nr - 1].date -
				  log->events[0].date) /
			     1e3
		       : 0.0);
	printf("\npriority inversions (an owner boosted for a waiter)\n");
	m = tmodel_run(log, &hooks, r);
	if (m == NULL) {
		free(r);
		return -1;
	}
	print_threads(m);
	printf("\nwake-up latency (ready to running)\n");
	for (int b = 0; b < NR_BUCKETS; b++)
		printf("  %-10s %lu\n", bucket_name[b], r->buckets[b]);
	qsort(r->objects, (size_t)r->nr_objects, sizeof(r->objects[0]),
	      by_longest);
	printf("\nlongest waits per object\n");
	for (int i = 0; i < r->nr_objects; i++)
		printf("  %-16s %12.3f us by %-16s (%lu waits)\n",
		       r->objects[i].name, (double)r->objects[i].longest / 1e3,
		       r->objects[i].longest_thread, r->objects[i].waits);
	print_modes(m);
	printf("\nmarks %lu, service calls %lu (%lu failed)\n", r->marks,
	       r->services, r->service_errors);
	tmodel_free(m);
	free(r);
	return 0;
}
