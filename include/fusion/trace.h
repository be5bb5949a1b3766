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

/** The tracepoints, numbered in the order of <fusion/trace_points.h>. */
enum nk_trace_event {
/* NK_TRACE_SWITCH, NK_TRACE_READY..., generated: */
/** @cond */
#define NK_TRACEPOINT(id, name, cat, thread, object, detail, arg, text)        \
	NK_TRACE_##id,
#include <fusion/trace_points.h>
#undef NK_TRACEPOINT
	/** @endcond */
	NK_TRACE_NR_EVENTS /**< the number of events */
};

/** Categories: each tracepoint belongs to one, switched on as a whole. */
enum nk_trace_category {
	NK_TRACE_CAT_SCHED,   /**< switch, ready, block, wake, prio... */
	NK_TRACE_CAT_THREAD,  /**< create, start, exit */
	NK_TRACE_CAT_MODE,    /**< relax, harden, watchdog */
	NK_TRACE_CAT_IRQ,     /**< irq, irq_exit */
	NK_TRACE_CAT_TIMER,   /**< timer */
	NK_TRACE_CAT_SERVICE, /**< service calls: nk_trace_user() */
	NK_TRACE_CAT_MARK,    /**< fusion_trace_mark() */
	NK_TRACE_CAT_ALCHEMY, /**< a skin's service calls: Alchemy's */
	NK_TRACE_CAT_VXWORKS, /**< VxWorks's */
	NK_TRACE_CAT_PSOS,    /**< pSOS's */
	NK_TRACE_CAT_RTAI,    /**< RTAI's */
	NK_TRACE_NR_CATEGORIES
};

/** Why a switch left the previous thread (its record's argument). */
enum nk_trace_switch_reason {
	NK_TRACE_PREEMPTED, /**< still runnable: preempted or yielded */
	NK_TRACE_BLOCKED,   /**< waits (object, delay) */
	NK_TRACE_SUSPENDED, /**< suspended */
	NK_TRACE_RELAXED,   /**< left primary mode */
	NK_TRACE_EXITED,    /**< terminated */
};

/** What a tracepoint is: its line of <fusion/trace_points.h>. */
struct nk_tracepoint {
	const char *name;		 /**< "switch" */
	enum nk_trace_category category; /**< its category */
	const char *thread;		 /**< field names; NULL: unused */
	const char *object;		 /**< ... */
	const char *detail;		 /**< ... */
	const char *arg;		 /**< ... */
	bool text_arg;			 /**< the text form shows arg */
};

/** The description of @p event; NULL if there is no such event. */
nk_export const struct nk_tracepoint *
nk_tracepoint_info(enum nk_trace_event event);

/** Lower-case category name ("sched", ...); "?" if unknown. */
nk_export const char *nk_trace_category_name(enum nk_trace_category cat);

/**
 * Whether @p event is a service call (NK_TRACE_SERVICE or a skin's:
 * thread, service name, object, result).
 */
nk_export bool nk_trace_is_service(enum nk_trace_event event);

/** One event, as a sink receives it. */
struct nk_trace_record {
	nk_time_t date;		   /**< backend clock (virtual time on sim) */
	int cpu;		   /**< RT CPU */
	enum nk_trace_event event; /**< what happened */
	const char *thread;	   /**< never NULL */
	const char *object;	   /**< NULL when the event has none */
	const char *detail;	   /**< NULL when the event has none */
	long arg;		   /**< per event, above */
	/** @p thread's and @p object's numbers, unique in the instance
	 * while they live (a recorder keeps each name once, by number);
	 * 0: the name is text (a mark's, a constant) with no number. */
	unsigned int thread_id;
	unsigned int object_id; /**< ... */
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

struct nk_instance;

/**
 * Whether anything records @p nk's events (a sink is installed): lets
 * a tracepoint skip preparing its fields.  Any context.
 */
nk_export bool nk_trace_active(struct nk_instance *nk);

/**
 * Record @p event, a service call (nk_trace_is_service) or NK_TRACE_MARK,
 * with @p object,
 * @p detail (may be NULL) and @p arg, for the calling thread of @p nk
 * ("irq" in interrupt context, "linux" in a thread the nucleus does not
 * know).  Costs a branch when @p nk records nothing.  Returns 0, or
 * -EINVAL (bad instance, another event, NULL @p object).  Any context
 * (it takes the nucleus lock).
 */
nk_export int nk_trace_user(struct nk_instance *nk, enum nk_trace_event event,
			    const char *object, const char *detail, long arg);

/**
 * An application's mark in the trace of the process's instance
 * (fusion_runtime): the text, formatted as printf's, cut at NK_NAME_MAX - 1
 * bytes (31).
 * Returns 0, -EINVAL (NULL @p fmt) or -ESRCH (no instance yet).  Any
 * context.
 */
nk_export int fusion_trace_mark(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

#endif
