/* SPDX-License-Identifier: MIT */
/*
 * libfusion-lttng.so: the LTTng-UST provider "fusion" and the sink that
 * fires it, loaded by the recorder (FUSION_TRACE=lttng) with dlopen, so
 * that a program loads liblttng-ust - which registers with the session
 * daemon - only when it asks for it.  `lttng enable-event -u 'fusion:*'`
 * then records Fusion's events with everything else LTTng sees.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "tp.h"

#include <fusion/trace.h>

/* The sink the recorder calls (dlsym), for the categories chosen. */
void fusion_lttng_sink(const struct nk_trace_record *rec);

void fusion_lttng_sink(const struct nk_trace_record *rec)
{
	const char *object = rec->object ? rec->object : "";
	const char *detail = rec->detail ? rec->detail : "";

	switch (rec->event) {
#define NK_TRACEPOINT(id, name, cat, th, ob, de, ar, tx)                       \
	case NK_TRACE_##id:                                                    \
		lttng_ust_tracepoint(fusion, name, rec->cpu, rec->thread,      \
				     object, detail, rec->arg);                \
		break;
#include <fusion/trace_points.h>
#undef NK_TRACEPOINT
	default:
		break;
	}
}
