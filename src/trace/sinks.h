/* SPDX-License-Identifier: MIT */
/*
 * Whether any instance of the process records anything: a tracepoint
 * outside the nucleus (a skin's service call), which must otherwise
 * find the runtime instance and ask it, first reads this count of
 * instances with a trace sink, so that it costs a load and a branch
 * when nothing records, as the nucleus's own tracepoints do.  A hint:
 * a sink installed a moment later may miss an event, as any
 * tracepoint racing it would.
 */
#ifndef FUSION_TRACE_SINKS_H
#define FUSION_TRACE_SINKS_H

#include <stdbool.h>

#pragma GCC visibility push(hidden)

extern int trace_sinks;

static inline bool trace_any_sink(void)
{
	return __atomic_load_n(&trace_sinks, __ATOMIC_RELAXED) != 0;
}

/* An instance's sink goes from installed (@had) or not to @has. */
static inline void trace_sinks_change(bool had, bool has)
{
	if (had != has)
		__atomic_add_fetch(&trace_sinks, has ? 1 : -1,
				   __ATOMIC_RELAXED);
}

#pragma GCC visibility pop

#endif
