/* SPDX-License-Identifier: MIT */
/*
 * Fusion's tracepoints as an LTTng-UST provider "fusion": one event per
 * line of <fusion/trace_points.h>, each with the record's fields (cpu,
 * thread, object, detail, arg).  Read by LTTng's macros several times
 * (LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ), hence no include guard of
 * the usual kind.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER fusion

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./tp.h"

#if !defined(FUSION_TRACE_LTTNG_TP_H) ||                                       \
    defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define FUSION_TRACE_LTTNG_TP_H

#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT_CLASS(
    fusion, record,
    LTTNG_UST_TP_ARGS(int, cpu, const char *, thread, const char *, object,
		      const char *, detail, long, arg),
    LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(int, cpu, cpu)
			    lttng_ust_field_string(thread, thread)
				lttng_ust_field_string(object, object)
				    lttng_ust_field_string(detail, detail)
					lttng_ust_field_integer(long, arg,
								arg)))

#define NK_TRACEPOINT(id, name, cat, th, ob, de, ar, tx)                       \
	LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(                                   \
	    fusion, record, fusion, name,                                      \
	    LTTNG_UST_TP_ARGS(int, cpu, const char *, thread, const char *,    \
			      object, const char *, detail, long, arg))
#include <fusion/trace_points.h>
#undef NK_TRACEPOINT

#endif

#include <lttng/tracepoint-event.h>
