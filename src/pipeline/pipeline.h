/* SPDX-License-Identifier: MIT */
/*
 * Interrupt pipeline internals.  All pipeline state is under the nucleus
 * lock (the backend's); handlers of head-side domains run with it held.
 *
 * The pipeline sits below the nucleus: it uses the backend directly and
 * reaches the nucleus only through the handlers the nucleus registered
 * (struct ipipe_host).  The instance is an opaque cookie handed back to
 * them; the nucleus checks it and implements the instance-level API of
 * fusion/pipeline.h over the functions below (src/nucleus/irq.c).
 */
#ifndef FUSION_PIPELINE_INTERNAL_H
#define FUSION_PIPELINE_INTERNAL_H

#include <fusion/backend.h>
#include <fusion/list.h>
#include <fusion/pipeline.h>

#define IPIPE_LOG_SIZE 1024 /* arrivals a stalled domain keeps per CPU */

enum ipipe_irq_kind {
	IPIPE_IRQ_FREE = 0,
	IPIPE_IRQ_TIMER,
	IPIPE_IRQ_SOURCE,
	IPIPE_IRQ_VIRQ,
};

struct ipipe_entry {
	ipipe_handler_t handler;
	void *cookie;
	unsigned int mode;
	struct ipipe_irq_stats stats;
};

/* The storm guard's account of one timer or source IRQ (storm.c). */
struct ipipe_storm {
	nk_time_t start;	/* of the current window */
	unsigned long arrivals; /* in it */
	nk_time_t handler_ns;	/* spent in its handlers in it */
	bool reported;		/* this storm was reported */
	bool masked;		/* a source: until ipipe_unlock_irq() */
};

/*
 * What the pipeline keeps of one IRQ, on a cache line of its own: an
 * arrival reads and writes this line, not a line in each of six tables
 * a page or more apart, which an idle CPU finds cold.
 */
struct ipipe_irq {
	unsigned char kind; /* enum ipipe_irq_kind */
	bool parked;	    /* a source raised with no handler */
	bool held;	    /* parked or locked since the last end */
	/* Handler runs still owed for a source IRQ: it is unmasked at 0. */
	unsigned int inflight;
	unsigned int locks;	  /* ipipe_lock_irq() depth */
	struct ipipe_storm storm; /* timers and sources: the budgeted IRQs */
} __attribute__((aligned(64)));

#define IPIPE_SOURCE_NAME 48 /* what a source is, for the storm report */

/* Arrivals in order, as a ring. */
struct ipipe_log {
	unsigned int first;
	unsigned int count;
	unsigned int irqs[IPIPE_LOG_SIZE];
};

/* A domain on one RT CPU: whether it is stalled and what it logged
 * meanwhile, on one line before the ring. */
struct ipipe_domain_cpu {
	bool stalled;
	struct ipipe_log log;
};

struct ipipe_domain {
	unsigned int magic;
	struct ipipe *pipe;
	struct nk_list link; /* in ipipe.domains, by decreasing priority */
	int priority;
	bool root_side; /* handlers run in root context */
	char name[NK_NAME_MAX];
	struct ipipe_domain_cpu *cpus; /* per RT CPU */
	struct ipipe_entry irqs[IPIPE_NR_IRQS];
};

/* What the nucleus registers: the only calls up from the pipeline. */
struct ipipe_host {
	/* The head domain's handler of every CPU's timer IRQ (cookie: the
	 * instance, IRQ number = the CPU). */
	ipipe_handler_t timer;
	/*
	 * Head-side handlers of @cpu are due (ipipe_post): if the caller
	 * is @cpu's current thread in primary mode, it enters interrupt
	 * context for them to run at once on its stack, and says so (true).
	 * Lock held.
	 */
	bool (*irq_enter)(struct nk_instance *nk, int cpu);
	/* They ended: leave interrupt context and reschedule (a handler may
	 * have readied a more urgent thread).  Lock held. */
	void (*irq_exit)(struct nk_instance *nk, int cpu);
};

struct ipipe {
	struct nk_instance *nk; /* cookie for the host's handlers */
	const struct ipipe_host *host;
	const struct nk_backend_ops *be;
	void *be_priv;
	int nr_cpus;
	int member;	   /* this process's, in the instance (its timers') */
	nk_trace_fn trace; /* the instance's trace sink (ipipe_set_trace) */
	void *trace_ctx;
	struct nk_list domains;
	struct ipipe_domain *head, *root;
	/* A bit per IRQ whose kind is not free (ipipe_set_kind): a walk
	 * over the IRQs in use reads these words, not every record. */
	uint64_t in_use[IPIPE_NR_IRQS / 64];
	bool *syncing;	    /* per RT CPU: head-side handlers running */
	nk_time_t *started; /* per CPU: the running handler's start */
	struct ipipe_budget budget;
	struct ipipe_irq irqs[IPIPE_NR_IRQS];
	char source_name[IPIPE_FIRST_VIRQ][IPIPE_SOURCE_NAME];
};

/*
 * Have @d's log on @cpu replayed: head-side domains in interrupt context
 * (at once for a caller running on @cpu), root-side ones in root context.
 * Lock held.
 */
void ipipe_post(struct ipipe_domain *d, int cpu);
/*
 * Are head-side handlers running on some CPU (interrupt context)?  Lock
 * held: the one who holds it is then the one running them.
 */
bool ipipe_head_syncing(struct ipipe *pipe);
/* Offer @irq, arrived on @cpu, to every domain in order.  Lock held. */
void ipipe_raise(struct ipipe *pipe, int cpu, unsigned int irq);
/* A source IRQ's handler run completed (or was dropped).  Lock held. */
void ipipe_irq_done(struct ipipe *pipe, unsigned int irq);

/*
 * The storm guard (storm.c), lock held.  admit: may @irq, a timer or
 * source IRQ arriving from the backend on @cpu at @now, go through?  A
 * storm masks a source or defers a timer, and the arrival is dropped.
 * charge: its handlers ran for @ns.  unmask: enable a source the guard
 * masked (false if it was not).  reset: forget a released IRQ.
 */
bool ipipe_storm_admit(struct ipipe *pipe, int cpu, unsigned int irq,
		       nk_time_t now);
void ipipe_storm_charge(struct ipipe *pipe, unsigned int irq, nk_time_t ns);
bool ipipe_storm_unmask(struct ipipe *pipe, unsigned int irq);
void ipipe_storm_reset(struct ipipe *pipe, unsigned int irq);

/* @irq's kind, and its bit of in_use. */
static inline void ipipe_set_kind(struct ipipe *pipe, unsigned int irq,
				  enum ipipe_irq_kind kind)
{
	uint64_t bit = 1ull << (irq % 64);

	pipe->irqs[irq].kind = (unsigned char)kind;
	if (kind == IPIPE_IRQ_FREE)
		pipe->in_use[irq / 64] &= ~bit;
	else
		pipe->in_use[irq / 64] |= bit;
}

/*
 * This process's pipeline of instance @nk (on backend @be, @be_priv,
 * @nr_cpus RT CPUs; @member the process's number in the instance),
 * calling up through @host only.  Returns 0 or -ENOMEM.
 */
int ipipe_create(struct nk_instance *nk, const struct ipipe_host *host,
		 const struct nk_backend_ops *be, void *be_priv, int nr_cpus,
		 int member, struct ipipe **out);
void ipipe_destroy(struct ipipe *pipe);
/* The sink IRQ records go to (NULL: none), as the instance's.  Lock held. */
void ipipe_set_trace(struct ipipe *pipe, nk_trace_fn fn, void *ctx);

/*
 * The instance-level API of fusion/pipeline.h, on the pipeline itself:
 * same arguments (the instance checked by the caller), errors and
 * contexts as documented there.
 */
int ipipe_domain_register(struct ipipe *pipe, const char *name, int priority,
			  struct ipipe_domain **out);
int ipipe_virq_alloc(struct ipipe *pipe, unsigned int *irq);
int ipipe_virq_free(struct ipipe *pipe, unsigned int irq);
int ipipe_irq_trigger(struct ipipe *pipe, unsigned int irq, int cpu);
int ipipe_source_attach(struct ipipe *pipe, const struct ipipe_source *src,
			int cpu, unsigned int *irq);
int ipipe_source_detach(struct ipipe *pipe, unsigned int irq);
int ipipe_source_watched_fd(struct ipipe *pipe, unsigned int irq);
int ipipe_source_lock(struct ipipe *pipe, unsigned int irq, bool lock);
int ipipe_budget_set(struct ipipe *pipe, const struct ipipe_budget *budget);
int ipipe_storm_masked(struct ipipe *pipe, unsigned int irq);

/*
 * The date the handler running on @cpu started: its IRQ's arrival when
 * it ran at once, else the date its replay began.  A handler's date
 * without a clock read of its own.  Lock held, from that handler.
 */
static inline nk_time_t ipipe_handler_start(const struct ipipe *pipe, int cpu)
{
	return pipe->started[cpu];
}

/* Backend entry points (struct nk_backend_handlers, via the nucleus).
 * An arrival is dated @now, the backend's reading. */
void ipipe_handle_timer(struct ipipe *pipe, int cpu, nk_time_t now);
void ipipe_handle_irq(struct ipipe *pipe, int cpu, unsigned int irq,
		      nk_time_t now);
void ipipe_handle_sync(struct ipipe *pipe, int cpu);
void ipipe_handle_root(struct ipipe *pipe);

/* The nucleus lock, taken from the backend (recursive). */
static inline void ipipe_lock(struct ipipe *pipe)
{
	pipe->be->lock(pipe->be_priv);
}

static inline void ipipe_unlock(struct ipipe *pipe)
{
	pipe->be->unlock(pipe->be_priv);
}

#endif
