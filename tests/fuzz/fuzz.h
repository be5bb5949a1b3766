/* SPDX-License-Identifier: MIT */
/*
 * The API-sequence fuzzer (fuzz_api): a few tasks make random calls of
 * one API on a shared pool of objects, in virtual time (sim), and every
 * return code must be one that the API's header documents for the call.
 *
 * An API plugs in as one struct fuzz_api: a table of operations (each
 * draws its arguments, makes one call and lists the codes the header
 * documents for it) and four hooks: set the world up and start the
 * tasks, let virtual time pass in the watcher (main), get stuck workers
 * going again, end what is left.
 * The generic part (world.c) runs the tasks' loops, checks each code and
 * watches for progress; the runner (fuzz_api.c) runs each seed twice in
 * child processes and compares their sim logs.  A skin's table is
 * api_<skin>.c; tests/fuzz/CMakeLists.txt finds it by that name.
 */
#ifndef FUSION_TESTS_FUZZ_H
#define FUSION_TESTS_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Worker tasks at most (the pool's task slots), and alarm contexts. */
#define FUZZ_MAX_TASKS 8
#define FUZZ_MAX_IRQ 4

/* xorshift64*: small, seeded, the same on every machine. */
struct fuzz_rng {
	uint64_t s;
};

static inline void fuzz_rng_seed(struct fuzz_rng *r, uint64_t seed)
{
	/* Never zero, the one state xorshift cannot leave. */
	r->s = seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
	if (r->s == 0)
		r->s = 1;
}

static inline uint64_t fuzz_next(struct fuzz_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dull;
}

/* Uniform in 0 .. @n - 1 (@n > 0). */
static inline uint32_t fuzz_below(struct fuzz_rng *r, uint32_t n)
{
	return (uint32_t)((fuzz_next(r) >> 32) % n);
}

/* True with probability @percent / 100. */
static inline bool fuzz_chance(struct fuzz_rng *r, uint32_t percent)
{
	return fuzz_below(r, 100) < percent;
}

struct fuzz_world;

/* A caller: a worker task, or an alarm/timer handler (irq true). */
struct fuzz_task {
	struct fuzz_world *w;
	int slot;
	bool irq;
	bool alive; /* a worker that has not ended (as far as we know) */
	struct fuzz_rng rng;
	long ops;	/* calls made */
	char args[192]; /* the current call's arguments, for reports */
	char tmo[24];	/* fuzz_timeout()'s text of a number */
};

/* Operation flags. */
#define FUZZ_COUNT 0x1 /* a result > 0 (a size, a count) is a success */
#define FUZZ_IRQ 0x2   /* may be called from a handler */

struct fuzz_op {
	const char *name; /* the call, as the API names it */
	unsigned int weight;
	unsigned int flags;
	/* Draw arguments (fuzz_args() them), call, return the result. */
	long (*call)(struct fuzz_task *t);
	const int *codes; /* the -errno codes documented, 0-terminated */
};

/* The codes an operation may return, from the header's comment. */
#define FUZZ_CODES(...) ((const int[]){__VA_ARGS__, 0})

struct fuzz_api {
	const char *name;
	const struct fuzz_op *ops;
	size_t nr_ops;
	/* Create the pool, start w->nr_tasks workers (fuzz_task_run). */
	int (*setup)(struct fuzz_world *w);
	/* In the watcher: let one watch period of virtual time pass. */
	void (*idle)(struct fuzz_world *w);
	/* In the watcher, after a period without progress: break every
	 * worker's wait and resume it, so that the run goes on. */
	void (*rescue)(struct fuzz_world *w);
	/* End the workers still there, stop the handlers. */
	void (*teardown)(struct fuzz_world *w);
};

struct fuzz_world {
	const struct fuzz_api *api;
	uint64_t seed;
	int nr_tasks;	     /* workers started by setup */
	long budget;	     /* worker calls left */
	long irq_budget;     /* handler calls left */
	unsigned long done;  /* calls finished: the watcher's progress */
	bool stopping;	     /* teardown: workers make no more calls */
	bool verbose;	     /* print per-call statistics at the end */
	bool trace;	     /* print every call and its result */
	struct fuzz_rng rng; /* setup's draws */
	struct fuzz_task tasks[FUZZ_MAX_TASKS];
	struct fuzz_task irqs[FUZZ_MAX_IRQ];
	unsigned long (*stats)[2]; /* per op: successes, errors */
};

/*
 * An API's table, from the file's ops[] and its hooks setup(), idle(),
 * rescue() and teardown(): FUZZ_API_TABLE(alchemy) defines
 * fuzz_api_alchemy.
 */
#define FUZZ_API_TABLE(api)                                                    \
	const struct fuzz_api fuzz_api_##api = {                               \
	    .name = #api,                                                      \
	    .ops = ops,                                                        \
	    .nr_ops = sizeof(ops) / sizeof(ops[0]),                            \
	    .setup = setup,                                                    \
	    .idle = idle,                                                      \
	    .rescue = rescue,                                                  \
	    .teardown = teardown,                                              \
	}

/* Every API the fuzzer knows (the generated fuzz_apis.h lists them). */
#define FUZZ_API(name) extern const struct fuzz_api fuzz_api_##name;
#include "fuzz_apis.h"
#undef FUZZ_API

/*
 * Run seed @w->seed of @w->api in this process (the sim backend and its
 * log already chosen by the environment).  Returns 0; a documented-code
 * violation prints the call and ends the process with status 1.
 */
int fuzz_world_run(struct fuzz_world *w);

/* A worker's body: calls until the budget is spent or teardown. */
void fuzz_task_run(struct fuzz_task *t);

/* A worker slot not alive (for a task to spawn into), or -1. */
int fuzz_free_slot(const struct fuzz_world *w);

/* A handler's turn: up to @n calls of FUZZ_IRQ operations. */
void fuzz_irq_run(struct fuzz_task *t, int n);

/* Describe the current call's arguments (printf format), after what
 * was said of them already. */
void fuzz_args(struct fuzz_task *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Relative timeouts in ns: non-blocking, small, infinite or extreme;
 * @text names it.  @nonblock and @infinite are the API's constants. */
uint64_t fuzz_timeout(struct fuzz_task *t, uint64_t nonblock, uint64_t infinite,
		      const char **text);

/* A size: 0, small, around @limit, or extreme. */
size_t fuzz_size(struct fuzz_task *t, size_t limit);

#endif
