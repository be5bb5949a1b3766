/*
 * Interrupt pipeline internals.  All pipeline state is under the nucleus
 * lock; handlers of head-side domains run with it held.
 */
#ifndef FUSION_PIPELINE_INTERNAL_H
#define FUSION_PIPELINE_INTERNAL_H

#include <fusion/pipeline.h>

#include "../nucleus/internal.h"

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

/* Arrivals in order, as a ring. */
struct ipipe_log {
	unsigned int irqs[IPIPE_LOG_SIZE];
	unsigned int first;
	unsigned int count;
};

struct ipipe_domain {
	unsigned int magic;
	struct ipipe *pipe;
	struct nk_list link; /* in ipipe.domains, by decreasing priority */
	int priority;
	bool root_side; /* handlers run in root context */
	char name[NK_NAME_MAX];
	bool *stalled;	       /* per RT CPU */
	struct ipipe_log *log; /* per RT CPU */
	struct ipipe_entry irqs[IPIPE_NR_IRQS];
};

struct ipipe {
	struct nk_instance *nk;
	struct nk_list domains;
	struct ipipe_domain *head, *root;
	unsigned char kind[IPIPE_NR_IRQS];
	/* Handler runs still owed for a source IRQ: it is unmasked at 0. */
	unsigned int inflight[IPIPE_NR_IRQS];
	unsigned int locks[IPIPE_NR_IRQS]; /* ipipe_lock_irq() depth */
	bool parked[IPIPE_NR_IRQS];	   /* a source raised with no handler */
	bool held[IPIPE_NR_IRQS]; /* parked or locked since the last end */
	bool *syncing;		  /* per RT CPU: head-side handlers running */
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
 * The pipeline of @nk, with @timer_handler (cookie @nk, IRQ number = the
 * CPU) as the head domain's handler of every CPU's timer IRQ: the
 * nucleus registers it, the pipeline never calls up on its own.
 */
int ipipe_create(struct nk_instance *nk, ipipe_handler_t timer_handler,
		 struct ipipe **out);
void ipipe_destroy(struct ipipe *pipe);

/* Backend entry points (struct nk_backend_handlers). */
void ipipe_handle_timer(struct nk_instance *nk, int cpu);
void ipipe_handle_irq(struct nk_instance *nk, int cpu, unsigned int irq);
void ipipe_handle_sync(struct nk_instance *nk, int cpu);
void ipipe_handle_root(struct nk_instance *nk);

#endif
