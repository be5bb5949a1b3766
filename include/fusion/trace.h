/* SPDX-License-Identifier: MIT */
/** @file
 * Nucleus tracepoints.  Every scheduling event the nucleus makes is
 * described by one record handed to a sink (the sim backend's event log,
 * a test, later the trace tool).  With no sink installed a tracepoint
 * costs one predictable branch.
 */
#ifndef FUSION_TRACE_H
#define FUSION_TRACE_H

#include <fusion/types.h>

/** The tracepoints. */
enum nk_trace_event {
	NK_TRACE_SWITCH,  /**< thread = next, object = previous thread */
	NK_TRACE_READY,	  /**< thread became runnable */
	NK_TRACE_BLOCK,	  /**< thread blocked; object = what it waits for */
	NK_TRACE_WAKE,	  /**< thread woken by object (arg = wake reason) */
	NK_TRACE_TIMEOUT, /**< thread's wait on object timed out */
	NK_TRACE_TIMER,	  /**< timer object fired */
	NK_TRACE_PRIO,	  /**< thread's effective priority is now arg */
	NK_TRACE_START,	  /**< thread started */
	NK_TRACE_EXIT,	  /**< thread terminated */
	NK_TRACE_SUSPEND, /**< suspend count of thread raised to arg */
	NK_TRACE_RESUME,  /**< suspend count of thread lowered to arg */
	NK_TRACE_RELAX,	  /**< thread left primary mode (arg = reason) */
	NK_TRACE_HARDEN,  /**< thread is back in primary mode */
	NK_TRACE_IRQ, /**< domain (thread field) ran its handler for IRQ arg */
	NK_TRACE_MIGRATE,  /**< thread left this CPU for RT CPU arg */
	NK_TRACE_NR_EVENTS /**< the number of events */
};

/** One event, as a sink receives it. */
struct nk_trace_record {
	nk_time_t date;		   /**< backend clock (virtual time on sim) */
	int cpu;		   /**< RT CPU */
	enum nk_trace_event event; /**< what happened */
	const char *thread;	   /**< never NULL */
	const char *object;	   /**< NULL when the event has none */
	long arg;		   /**< per event, above */
};

/** Called with the nucleus lock held: must not call back into the nucleus. */
typedef void (*nk_trace_fn)(void *ctx, const struct nk_trace_record *rec);

/** Lower-case event name ("switch", "ready", ...); "?" if unknown. */
nk_export const char *nk_trace_event_name(enum nk_trace_event event);

/**
 * Format @p rec as one log line (no newline) into @p buf:
 *   "<ns> cpu<N> <event> <thread> [<object>] [<arg>]"
 * Returns the length, as snprintf, or -EINVAL (NULL record or thread
 * name, NULL buffer with a length).
 */
nk_export int nk_trace_format(const struct nk_trace_record *rec, char *buf,
			      size_t len);

#endif
