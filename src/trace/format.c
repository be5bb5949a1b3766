/* SPDX-License-Identifier: MIT */
/* Trace records in their one-line text form (the sim event log). */
#include <fusion/trace.h>

#include <stdarg.h>
#include <stdio.h>

static const char *const event_names[NK_TRACE_NR_EVENTS] = {
    [NK_TRACE_SWITCH] = "switch",   [NK_TRACE_READY] = "ready",
    [NK_TRACE_BLOCK] = "block",	    [NK_TRACE_WAKE] = "wake",
    [NK_TRACE_TIMEOUT] = "timeout", [NK_TRACE_TIMER] = "timer",
    [NK_TRACE_PRIO] = "prio",	    [NK_TRACE_START] = "start",
    [NK_TRACE_EXIT] = "exit",	    [NK_TRACE_SUSPEND] = "suspend",
    [NK_TRACE_RESUME] = "resume",   [NK_TRACE_RELAX] = "relax",
    [NK_TRACE_HARDEN] = "harden",   [NK_TRACE_IRQ] = "irq",
    [NK_TRACE_MIGRATE] = "migrate",
};

const char *nk_trace_event_name(enum nk_trace_event event)
{
	if ((unsigned int)event >= NK_TRACE_NR_EVENTS)
		return "?";
	return event_names[event];
}

/* Which events carry a meaningful argument in the text form. */
static bool event_has_arg(enum nk_trace_event ev)
{
	return ev == NK_TRACE_PRIO || ev == NK_TRACE_WAKE ||
	       ev == NK_TRACE_SUSPEND || ev == NK_TRACE_RESUME ||
	       ev == NK_TRACE_START || ev == NK_TRACE_READY ||
	       ev == NK_TRACE_RELAX || ev == NK_TRACE_IRQ;
}

/* snprintf at offset *@n of @buf, keeping *@n the would-be length. */
static void __attribute__((format(printf, 4, 5)))
append(char *buf, size_t len, int *n, const char *fmt, ...)
{
	size_t off = (size_t)*n < len ? (size_t)*n : len;
	va_list ap;
	int m;

	va_start(ap, fmt);
	m = vsnprintf(buf + off, len - off, fmt, ap);
	va_end(ap);
	if (m > 0)
		*n += m;
}

int nk_trace_format(const struct nk_trace_record *rec, char *buf, size_t len)
{
	int n = 0;

	if (rec == NULL || rec->thread == NULL || (buf == NULL && len))
		return -EINVAL;
	append(buf, len, &n, "%lld cpu%d %s %s", (long long)rec->date, rec->cpu,
	       nk_trace_event_name(rec->event), rec->thread);
	if (rec->event == NK_TRACE_SWITCH && rec->object)
		append(buf, len, &n, " (from %s)", rec->object);
	else if (rec->object)
		append(buf, len, &n, " %s", rec->object);
	if (event_has_arg(rec->event))
		append(buf, len, &n, " %ld", rec->arg);
	return n;
}
