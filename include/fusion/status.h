/* SPDX-License-Identifier: MIT */
/** @file
 * The status of an instance in one snapshot: every thread (skins,
 * priorities, state, what it waits for, CPU, switches, mode switches,
 * CPU time), the time each RT CPU left to Linux, every IRQ each
 * pipeline domain handled with its worst handler time, and every object
 * of its skins (count, owner, waiters).  What `fusion ps
 * PID` and `fusion top PID` show of a running program; the runtime
 * takes it on their request (src/runtime/status.c).
 */
#ifndef FUSION_STATUS_H
#define FUSION_STATUS_H

#include <fusion/instance.h>
#include <fusion/types.h>

#include <sys/types.h>

#define NK_STATUS_SKINS 48 /**< skin names of a thread, comma-separated */
#define NK_STATUS_STATE 12 /**< a state word, NUL included */
#define NK_STATUS_CLASS 16 /**< a skin's or a class's name, NUL included */

/** One thread. */
struct nk_status_thread {
	char name[NK_NAME_MAX];	     /**< the thread's name */
	char skins[NK_STATUS_SKINS]; /**< "alchemy,vxworks"; "" for none */
	/** "running", "ready", "waiting" (on @c waits), "sleeping",
	 * "suspended", "dormant" or "exited". */
	char state[NK_STATUS_STATE];
	char waits[NK_NAME_MAX]; /**< what it waits for, "" for nothing */
	int base_prio;		 /**< its own priority */
	int prio;		 /**< its effective one (inheritance) */
	int cpu;		 /**< its RT CPU */
	bool relaxed;		 /**< in secondary mode (under Linux) */
	pid_t tid;		 /**< its Linux thread, 0 if none (sim: 0) */
	unsigned long switches;	 /**< times switched in */
	unsigned long mode_switches; /**< primary to secondary */
	nk_time_t exec_time;	     /**< ns it was current */
};

/** One IRQ of one domain that has run its handler. */
struct nk_status_irq {
	unsigned int irq;	  /**< its number */
	char domain[NK_NAME_MAX]; /**< the domain that handled it */
	unsigned long handled;	  /**< handler runs */
	nk_time_t worst_ns;	  /**< longest one */
};

/** The instance. */
struct nk_status {
	nk_time_t date;		 /**< of the snapshot, on the backend clock */
	int nr_cpus;		 /**< its RT CPUs */
	unsigned int nr_threads; /**< all of them, even past max_threads */
	unsigned int nr_irqs;	 /**< all of them, even past max_irqs */
	/** Per RT CPU: ns it was left to Linux (no nucleus thread ran). */
	nk_time_t idle_time[NK_MAX_CPUS];
};

/** One object of a skin, as the skin describes it. */
struct nk_status_object {
	char skin[NK_STATUS_CLASS]; /**< "alchemy" */
	char cls[NK_STATUS_CLASS];  /**< its class: "sem", "queue" */
	char name[NK_NAME_MAX];	    /**< "" when anonymous */
	long count;		    /**< value, depth, messages; -1: none */
	long capacity;		    /**< the most it holds; 0: unbounded */
	char owner[NK_NAME_MAX];    /**< the owning thread, "" for none */
	unsigned int waiters;	    /**< threads waiting to take, receive */
	unsigned int senders;	    /**< threads waiting for room */
};

/**
 * Snapshot @p nk into @p st, its first @p max_threads threads (in
 * creation order; of an instance several processes of a session share,
 * the caller's process's) into @p threads and its first @p max_irqs IRQs into
 * @p irqs (either array may be NULL with a zero count).  Holds the
 * nucleus lock for the copy only: no system call, no allocation.
 * Errors: -EINVAL (bad instance, NULL @p st, NULL array with a count).
 * Context: any.
 */
nk_export int nk_instance_status(struct nk_instance *nk, struct nk_status *st,
				 struct nk_status_thread *threads,
				 unsigned int max_threads,
				 struct nk_status_irq *irqs,
				 unsigned int max_irqs);

/**
 * The objects of @p nk's skins, in the order the skins registered and
 * each skin's own: the first @p max into @p objects (NULL with a zero
 * @p max), how many there are into *@p total.  Names longer than the
 * fields are cut.  Holds the nucleus lock for the copy only, in steps
 * of 16 objects (a walk whose objects came or went between two steps
 * starts again: each object is listed once): no system call, no
 * allocation.
 * Errors: -EINVAL (bad instance, NULL @p total, NULL array with a count).
 * Context: any.
 */
nk_export int nk_instance_objects(struct nk_instance *nk,
				  struct nk_status_object *objects,
				  unsigned int max, unsigned int *total);

#endif
