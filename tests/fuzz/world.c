/* SPDX-License-Identifier: MIT */
/*
 * One seed of the API-sequence fuzzer, in this process: the workers'
 * loops, the check of every return code against the documented ones,
 * and the watcher that ends the run.
 *
 * The watcher is the program's main thread, below every worker: it runs
 * only when all workers wait, lets one watch period of virtual time pass
 * (api->idle) and looks at the progress count.  After a period without
 * progress (every worker waits for ever: suspended, or on an object
 * nobody will signal, which the operations may well create) it breaks
 * their waits (api->rescue).  When the workers are all gone, or still
 * nothing progressed after FUZZ_STUCK rescues, it ends the run
 * (api->teardown).  Its sleep is always pending, so the simulator's
 * deadlock detector never has a reason to end a run: if it does, that
 * is a failure (status 3).
 */
#include "fuzz.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Rescues without progress before the watcher ends the run. */
#define FUZZ_STUCK 5

void fuzz_args(struct fuzz_task *t, const char *fmt, ...)
{
	size_t len = strlen(t->args);
	va_list ap;

	if (len && len + 2 < sizeof(t->args)) {
		strcpy(t->args + len, ", ");
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(t->args + len, sizeof(t->args) - len, fmt, ap);
	va_end(ap);
}

uint64_t fuzz_timeout(struct fuzz_task *t, uint64_t nonblock, uint64_t infinite,
		      const char **text)
{
	static const uint64_t extreme[] = {INT64_MAX, (uint64_t)INT64_MAX + 1,
					   UINT64_MAX - 1, 1ull << 62};
	uint64_t v;

	switch (fuzz_below(&t->rng, 8)) {
	case 0:
	case 1:
		*text = "nonblock";
		return nonblock;
	case 2:
		*text = "infinite";
		return infinite;
	case 3:
		v = extreme[fuzz_below(&t->rng, 4)];
		break;
	default:
		v = 1 + fuzz_below(&t->rng, 2000000);
		break;
	}
	snprintf(t->tmo, sizeof(t->tmo), "%llu", (unsigned long long)v);
	*text = t->tmo;
	return v;
}

size_t fuzz_size(struct fuzz_task *t, size_t limit)
{
	switch (fuzz_below(&t->rng, 10)) {
	case 0:
		return 0;
	case 1:
		return SIZE_MAX - fuzz_below(&t->rng, 64);
	case 2:
		return (size_t)1 << (31 + fuzz_below(&t->rng, 33) % 33);
	case 3:
		return limit + fuzz_below(&t->rng, 3) - 1;
	default:
		return 1 + fuzz_below(&t->rng, (uint32_t)limit);
	}
}

static bool documented(const struct fuzz_op *op, long ret)
{
	if (ret == 0 || (ret > 0 && (op->flags & FUZZ_COUNT)))
		return true;
	for (const int *code = op->codes; *code; code++)
		if (ret == *code)
			return true;
	return false;
}

static void fail(struct fuzz_task *t, const struct fuzz_op *op, long ret)
{
	struct fuzz_world *w = t->w;

	fprintf(stderr,
		"fuzz_api: %s seed %llu: %s %d, call %ld: %s(%s) returned %ld "
		"(%s), not documented (allowed: 0%s",
		w->api->name, (unsigned long long)w->seed,
		t->irq ? "handler" : "task", t->slot, t->ops, op->name, t->args,
		ret, ret < 0 ? strerror((int)-ret) : "a count",
		op->flags & FUZZ_COUNT ? ", > 0" : "");
	for (const int *code = op->codes; *code; code++)
		fprintf(stderr, ", -%s", strerrorname_np(-*code));
	fprintf(stderr, ")\n");
	_exit(1);
}

/* One call of a random operation among those @mask allows. */
static void call_one(struct fuzz_task *t, unsigned int mask)
{
	const struct fuzz_api *api = t->w->api;
	unsigned int total = 0, pick;
	size_t i;
	long ret;

	for (i = 0; i < api->nr_ops; i++)
		if ((api->ops[i].flags & mask) == mask)
			total += api->ops[i].weight;
	pick = fuzz_below(&t->rng, total);
	for (i = 0; i < api->nr_ops; i++) {
		if ((api->ops[i].flags & mask) != mask)
			continue;
		if (pick < api->ops[i].weight)
			break;
		pick -= api->ops[i].weight;
	}
	t->args[0] = '\0';
	t->ops++;
	ret = api->ops[i].call(t);
	if (t->w->trace)
		printf("%s %d, call %ld: %s(%s) = %ld\n",
		       t->irq ? "handler" : "task", t->slot, t->ops,
		       api->ops[i].name, t->args, ret);
	if (!documented(&api->ops[i], ret))
		fail(t, &api->ops[i], ret);
	t->w->stats[i][ret < 0]++;
}

void fuzz_task_run(struct fuzz_task *t)
{
	struct fuzz_world *w = t->w;

	while (!w->stopping && w->budget > 0) {
		w->budget--;
		call_one(t, 0);
		w->done++;
	}
	t->alive = false;
}

void fuzz_irq_run(struct fuzz_task *t, int n)
{
	while (n-- > 0 && !t->w->stopping && t->w->irq_budget > 0) {
		t->w->irq_budget--;
		call_one(t, FUZZ_IRQ);
	}
}

int fuzz_free_slot(const struct fuzz_world *w)
{
	for (int i = 0; i < FUZZ_MAX_TASKS; i++)
		if (!w->tasks[i].alive)
			return i;
	return -1;
}

static bool any_alive(const struct fuzz_world *w)
{
	for (int i = 0; i < FUZZ_MAX_TASKS; i++)
		if (w->tasks[i].alive)
			return true;
	return false;
}

static void print_stats(const struct fuzz_world *w)
{
	for (size_t i = 0; i < w->api->nr_ops; i++)
		printf("%-24s %8lu ok %8lu errors\n", w->api->ops[i].name,
		       w->stats[i][0], w->stats[i][1]);
}

int fuzz_world_run(struct fuzz_world *w)
{
	unsigned long seen;
	int stuck = 0;

	w->stats = calloc(w->api->nr_ops, sizeof(*w->stats));
	if (w->stats == NULL)
		return -ENOMEM;
	fuzz_rng_seed(&w->rng, w->seed);
	for (int i = 0; i < FUZZ_MAX_TASKS; i++) {
		w->tasks[i] = (struct fuzz_task){.w = w, .slot = i};
		fuzz_rng_seed(&w->tasks[i].rng, w->seed * 131 + (uint64_t)i);
	}
	for (int i = 0; i < FUZZ_MAX_IRQ; i++) {
		w->irqs[i] = (struct fuzz_task){.w = w, .slot = i, .irq = true};
		fuzz_rng_seed(&w->irqs[i].rng, w->seed * 137 + (uint64_t)i);
	}
	if (w->api->setup(w)) {
		fprintf(stderr, "fuzz_api: %s: setup failed\n", w->api->name);
		return -EINVAL;
	}
	seen = w->done;
	while (any_alive(w) && stuck < FUZZ_STUCK) {
		w->api->idle(w);
		stuck = w->done == seen ? stuck + 1 : 0;
		seen = w->done;
		if (stuck)
			w->api->rescue(w);
	}
	w->stopping = true;
	w->api->teardown(w);
	if (w->verbose)
		print_stats(w);
	free(w->stats);
	return 0;
}
