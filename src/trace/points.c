/* SPDX-License-Identifier: MIT */
/* The tracepoint table, generated from <fusion/trace_points.h>. */
#include <fusion/trace.h>

static const struct nk_tracepoint points[NK_TRACE_NR_EVENTS] = {
#define NK_TRACEPOINT(id, nm, cat, th, ob, de, ar, tx)                         \
	[NK_TRACE_##id] = {.name = #nm,                                        \
			   .category = NK_TRACE_CAT_##cat,                     \
			   .thread = th,                                       \
			   .object = ob,                                       \
			   .detail = de,                                       \
			   .arg = ar,                                          \
			   .text_arg = tx},
#include <fusion/trace_points.h>
#undef NK_TRACEPOINT
};

static const char *const category_names[NK_TRACE_NR_CATEGORIES] = {
    [NK_TRACE_CAT_SCHED] = "sched",	[NK_TRACE_CAT_THREAD] = "thread",
    [NK_TRACE_CAT_MODE] = "mode",	[NK_TRACE_CAT_IRQ] = "irq",
    [NK_TRACE_CAT_TIMER] = "timer",	[NK_TRACE_CAT_SERVICE] = "service",
    [NK_TRACE_CAT_MARK] = "mark",	[NK_TRACE_CAT_ALCHEMY] = "alchemy",
    [NK_TRACE_CAT_VXWORKS] = "vxworks", [NK_TRACE_CAT_PSOS] = "psos",
    [NK_TRACE_CAT_RTAI] = "rtai",
};

const struct nk_tracepoint *nk_tracepoint_info(enum nk_trace_event event)
{
	if ((unsigned int)event >= NK_TRACE_NR_EVENTS)
		return NULL;
	return &points[event];
}

bool nk_trace_is_service(enum nk_trace_event event)
{
	const struct nk_tracepoint *tp = nk_tracepoint_info(event);

	return tp && (tp->category == NK_TRACE_CAT_SERVICE ||
		      tp->category >= NK_TRACE_CAT_ALCHEMY);
}

const char *nk_trace_category_name(enum nk_trace_category cat)
{
	if ((unsigned int)cat >= NK_TRACE_NR_CATEGORIES)
		return "?";
	return category_names[cat];
}
