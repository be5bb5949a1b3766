/* SPDX-License-Identifier: MIT */
/** @file
 * The interrupt pipeline, after Adeos/I-pipe, in user space.
 *
 * Every interrupt of an instance (the timer of each RT CPU, device and
 * file-descriptor sources, signals, virtual IRQs raised in software) is
 * offered to the domains in priority order.  Per domain and IRQ a mode
 * says whether the domain handles it, passes it down, both, or discards
 * it; a domain without a handler for an IRQ passes it down.
 *
 * Domains:
 *   head  the nucleus (highest priority).  Its handlers, and those of any
 *         domain registered above root, run in interrupt context: in the
 *         RT CPU's interrupt thread, nucleus lock held.  They may ready
 *         threads; a blocking call there fails with -EPERM.
 *   root  the Linux side of the application (priority 0).  Its handlers,
 *         and those of domains registered below it, run in an ordinary
 *         thread of the process (live) or when every RT thread is blocked
 *         (sim: Linux is the idle task), without the nucleus lock.
 *
 * Each domain has a stall bit per RT CPU.  An IRQ that reaches a stalled
 * domain is logged, and the log is replayed in arrival order when the
 * domain unstalls.  The head domain's stall is the nucleus's "interrupts
 * off": the timer IRQ itself waits while the head is stalled.
 *
 * Unless stated, functions return 0 or a negative errno and may be called
 * from any context, nucleus lock held or not.
 */
#ifndef FUSION_PIPELINE_H
#define FUSION_PIPELINE_H

#include <fusion/types.h>

/** IRQ numbers: timers first, then sources, then virtual IRQs. */
#define IPIPE_NR_IRQS 1024
#define IPIPE_TIMER_IRQ(cpu) ((unsigned int)(cpu)) /**< cpu < NK_MAX_CPUS */
#define IPIPE_FIRST_SOURCE_IRQ 64		   /**< 64..511: sources */
#define IPIPE_FIRST_VIRQ 512			   /**< 512..1023: virtual */

#define IPIPE_HEAD_PRIORITY 1000000 /**< the head domain: the nucleus */
#define IPIPE_ROOT_PRIORITY 0	    /**< the root domain: the Linux side */

/* Per-domain IRQ modes. */
#define IPIPE_HANDLE 0x1  /**< run the domain's handler */
#define IPIPE_PASS 0x2	  /**< offer the IRQ to the next domain */
#define IPIPE_DISCARD 0x0 /**< neither: the IRQ stops here, unhandled */

struct ipipe_domain;

/** A domain's handler of @p irq, with the cookie it was installed with. */
typedef void (*ipipe_handler_t)(unsigned int irq, void *cookie);

/** What ipipe_irq_stats() reports per IRQ and domain. */
struct ipipe_irq_stats {
	unsigned long hits;	  /**< arrivals offered to the domain */
	unsigned long handled;	  /**< handler runs */
	unsigned long propagated; /**< passed to the next domain */
	unsigned long logged;	  /**< arrivals while the domain was stalled */
	unsigned long discarded;  /**< stopped here, unhandled */
	unsigned long lost;	  /**< the pending log was full */
	nk_time_t worst_ns;	  /**< longest handler run (backend clock) */
};

/** @{ */
/** The built-in domains of @p nk (NULL on a bad instance). */
nk_export struct ipipe_domain *ipipe_head_domain(struct nk_instance *nk);
nk_export struct ipipe_domain *ipipe_root_domain(struct nk_instance *nk);
/** @} */

/**
 * Register a domain at @p priority (strictly between root and head: runs in
 * interrupt context; below root: in root context).
 * Errors: -EINVAL (bad instance, NULL out, priority at or above head's,
 * name too long), -EEXIST (priority taken), -ENOMEM.
 */
nk_export int ipipe_register_domain(struct nk_instance *nk, const char *name,
				    int priority, struct ipipe_domain **out);
/**
 * Remove a registered domain and its handlers.  Errors: -EINVAL (bad
 * domain, or head/root), -EBUSY (IRQs pending in its log).
 */
nk_export int ipipe_unregister_domain(struct ipipe_domain *domain);

/**
 * Install (@p handler non-NULL) or remove (@p handler NULL) the domain's
 * handler for @p irq, with @p mode (IPIPE_HANDLE, IPIPE_PASS, both, or
 * IPIPE_DISCARD).  A mode without IPIPE_HANDLE needs no handler.
 * Removing a handler drops the arrivals of @p irq still in the domain's
 * log (as Adeos discards them): they are never replayed.
 * Errors: -EINVAL (bad domain, irq out of range or not allocated, mode
 * bits, HANDLE without a handler), -EBUSY (a handler is installed:
 * remove it first), -EPERM (the head domain's timer IRQs belong to the
 * nucleus).
 */
nk_export int ipipe_virtualize_irq(struct ipipe_domain *domain,
				   unsigned int irq, ipipe_handler_t handler,
				   void *cookie, unsigned int mode);

/** Stall @p domain on RT CPU @p cpu; returns the previous state (0 or 1). */
nk_export int ipipe_stall(struct ipipe_domain *domain, int cpu);
/** Unstall and replay the log in arrival order. */
nk_export int ipipe_unstall(struct ipipe_domain *domain, int cpu);
/** Set the stall state to @p state (from ipipe_stall): nests. */
nk_export int ipipe_restore(struct ipipe_domain *domain, int cpu, int state);
/** 1 if stalled, 0 if not. */
nk_export int ipipe_test_stall(struct ipipe_domain *domain, int cpu);
/** Arrivals waiting in @p domain's log on @p cpu. */
nk_export int ipipe_pending(struct ipipe_domain *domain, int cpu);

/** @{ */
/** Virtual IRQs.  Errors: -EINVAL, -EAGAIN (none left); free: -EBUSY
 * while a handler is installed for it. */
nk_export int ipipe_alloc_virq(struct nk_instance *nk, unsigned int *irq);
nk_export int ipipe_free_virq(struct nk_instance *nk, unsigned int irq);
/** @} */

/**
 * Raise @p irq (a virtual IRQ, or any allocated IRQ to simulate it) on RT
 * CPU @p cpu.  A head-side handler runs at once in interrupt context (on a
 * thread of @p cpu: before this call returns, preempting the caller if it
 * readies a more urgent thread); root-side handlers run later in root
 * context.  Errors: -EINVAL (bad instance, irq not allocated, bad cpu).
 */
nk_export int ipipe_trigger_irq(struct nk_instance *nk, unsigned int irq,
				int cpu);

/** Statistics of @p irq in @p domain.  Errors: -EINVAL. */
nk_export int ipipe_irq_stats(struct ipipe_domain *domain, unsigned int irq,
			      struct ipipe_irq_stats *stats);

/** Interrupt sources: what raises a source IRQ. */
enum ipipe_source_kind {
	IPIPE_SRC_FD,	/**< fd: readable (eventfd, socket, pipe) */
	IPIPE_SRC_UIO,	/**< path: /dev/uioN (read count, write 1 to unmask) */
	IPIPE_SRC_GPIO, /**< path: /dev/gpiochipN, line, edges */
	IPIPE_SRC_SIGNAL, /**< signo */
	IPIPE_SRC_SCRIPT, /**< name: a scripted source of the sim scenario */
};

/** @{ */
/** ipipe_source.edges (GPIO) */
#define IPIPE_GPIO_RISING 0x1
#define IPIPE_GPIO_FALLING 0x2
/** @} */

/** What ipipe_attach_source() attaches. */
struct ipipe_source {
	enum ipipe_source_kind kind; /**< which fields below count */
	int fd;			     /**< FD */
	const char *path;	     /**< UIO, GPIO */
	unsigned int line;	     /**< GPIO: the line of the chip */
	unsigned int edges;	     /**< GPIO: IPIPE_GPIO_* */
	int signo;		     /**< SIGNAL */
	const char *name;	     /**< SCRIPT */
};

/**
 * Attach a source on RT CPU @p cpu; its IRQ number goes to *@p irq.
 *
 * An fd raises the IRQ each time new data arrives (an edge: the handler
 * reads what is there, and should drain it; use a non-blocking fd; data
 * left unread may raise it once more later, as a level would); UIO
 * is acknowledged (its count read) by the pipeline and unmasked after
 * the handlers; GPIO line events are read by the handler from
 * ipipe_source_fd(); a signal raises the IRQ once per delivery.  A
 * source IRQ that no domain handles is held back until a handler is
 * installed, then raised again if its fd has data.  live supports every
 * kind but SCRIPT, sim only SCRIPT.
 * Errors: -EINVAL (bad instance, cpu, NULL fields, unknown kind),
 * -ENOTSUP (kind not available on this backend), -EAGAIN (no IRQ
 * number left), -EEXIST (signal or script name already attached),
 * -ENOENT (no such scripted name in the scenario), errors of open() and
 * of the device's ioctl.
 */
nk_export int ipipe_attach_source(struct nk_instance *nk,
				  const struct ipipe_source *source, int cpu,
				  unsigned int *irq);
/** The fd a source IRQ watches (GPIO: the line-event fd).  -EINVAL. */
nk_export int ipipe_source_fd(struct nk_instance *nk, unsigned int irq);
/** @{ */
/**
 * Keep source @p irq masked until
 as many ipipe_unlock_irq() calls: for a
 * handler that cannot take what its source holds now (a full buffer),
 * so that the source does not raise it again meanwhile.  Unlocking a
 * source the storm guard masked (ipipe_irq_masked) enables it again and
 * starts its budget afresh; that comes before the handler's own locks.
 * Errors: -EINVAL (not a source IRQ; unlock: neither locked nor masked).
 */
nk_export int ipipe_lock_irq(struct nk_instance *nk, unsigned int irq);
nk_export int ipipe_unlock_irq(struct nk_instance *nk, unsigned int irq);
/** @} */

/**
 * Interrupt storms.  Every timer and source IRQ has a budget per window
 * of the backend's clock (virtual time on sim): at most @p arrivals
 * arrivals, and at most @p handler_ns spent in its handlers, within
 * @p window_ns from the first arrival of the window.  An arrival beyond
 * the budget is a storm, reported once on stderr (the IRQ, its source,
 * its rate):
 *   - a source IRQ is masked (its fd is no longer watched, a UIO device
 *     stays masked): its arrivals stop until ipipe_unlock_irq();
 *   - a timer IRQ, which the nucleus cannot do without, is deferred to
 *     the end of the window, and so at every window while the storm
 *     lasts: periodic timers count the periods they missed as overruns.
 * Virtual IRQs raised in software (ipipe_trigger_irq) have no budget.
 * A zero field sets no limit of that kind; @p window_ns 0 turns the guard
 * off.  The defaults are the IPIPE_BUDGET_* values below.
 */
struct ipipe_budget {
	nk_time_t window_ns;	/**< the window; 0: no guard */
	unsigned long arrivals; /**< arrivals per window; 0: any */
	nk_time_t handler_ns;	/**< handler time per window; 0: any */
};

#define IPIPE_BUDGET_WINDOW_NS 10000000 /**< 10 ms... */
#define IPIPE_BUDGET_ARRIVALS 1000	/**< ...a sustained 100 kHz... */
#define IPIPE_BUDGET_HANDLER_NS 5000000 /**< ...or half the CPU */
/** A deferred timer waits for the window's end: it stays bounded. */
#define IPIPE_BUDGET_WINDOW_MAX_NS 60000000000LL

/**
 * Set the budget of every timer and source IRQ of @p nk; the next arrival
 * is counted against it.  Errors: -EINVAL (bad instance, NULL, negative
 * times, a window over IPIPE_BUDGET_WINDOW_MAX_NS).
 */
nk_export int ipipe_set_budget(struct nk_instance *nk,
			       const struct ipipe_budget *budget);
/**
 * 1 if the storm guard masked source @p irq (until ipipe_unlock_irq), 0
 * if not.  Errors: -EINVAL (not an allocated IRQ).
 */
nk_export int ipipe_irq_masked(struct nk_instance *nk, unsigned int irq);

/**
 * Detach a source IRQ.  Errors: -EINVAL (not a source IRQ), -EBUSY
 * (a domain still has a handler for it: remove the handlers first).
 */
nk_export int ipipe_detach_source(struct nk_instance *nk, unsigned int irq);

#endif
