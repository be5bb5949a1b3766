/* SPDX-License-Identifier: MIT */
/* Trace records in their one-line text form (the sim event log). */
#include <fusion/trace.h>

#include <stdarg.h>
#include <stdio.h>

const char *nk_trace_event_name(enum nk_trace_event event)
{
	const struct nk_tracepoint *tp = nk_tracepoint_info(event);

	return tp ? tp->name : "?";
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
	const struct nk_tracepoint *tp;
	int n = 0;

	if (rec == NULL || rec->thread == NULL || (buf == NULL && len))
		return -EINVAL;
	tp = nk_tracepoint_info(rec->event);
	append(buf, len, &n, "%lld cpu%d %s %s", (long long)rec->date, rec->cpu,
	       nk_trace_event_name(rec->event), rec->thread);
	if (rec->event == NK_TRACE_SWITCH && rec->object)
		append(buf, len, &n, " (from %s)", rec->object);
	else if (rec->object)
		append(buf, len, &n, " %s", rec->object);
	if (rec->detail)
		append(buf, len, &n, " %s", rec->detail);
	if (tp && tp->text_arg)
		append(buf, len, &n, " %ld", rec->arg);
	return n;
}
