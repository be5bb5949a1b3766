/* SPDX-License-Identifier: MIT */
/* The agent's JSON replies, written into a growing buffer: see debug.h. */
#include "debug.h"
#include "../../nucleus/json.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void sim_reply_reset(struct sim_reply *r)
{
	r->len = 0;
	r->failed = false;
	if (r->text)
		r->text[0] = '\0';
}

void sim_reply_free(struct sim_reply *r)
{
	free(r->text);
	memset(r, 0, sizeof(*r));
}

static bool reserve(struct sim_reply *r, size_t more)
{
	size_t cap = r->cap ? r->cap : 4096;
	char *text;

	if (r->failed)
		return false;
	while (cap < r->len + more + 1)
		cap *= 2;
	if (cap == r->cap)
		return true;
	text = realloc(r->text, cap);
	if (text == NULL) {
		r->failed = true;
		return false;
	}
	r->text = text;
	r->cap = cap;
	return true;
}

void sim_reply_printf(struct sim_reply *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !reserve(r, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(r->text + r->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	r->len += (size_t)n;
}

void sim_reply_string(struct sim_reply *r, const char *s)
{
	if (s == NULL) {
		sim_reply_printf(r, "null");
		return;
	}
	if (!reserve(r, NK_JSON_QUOTED_MAX(strlen(s))))
		return;
	r->len += nk_json_quote(r->text + r->len, r->cap - r->len, s);
}

void sim_reply_event(struct sim_reply *r, const struct nk_trace_record *rec)
{
	sim_reply_printf(r, "{\"date\":%lld,\"cpu\":%d,\"kind\":",
			 (long long)rec->date, rec->cpu);
	sim_reply_string(r, nk_trace_event_name(rec->event));
	sim_reply_printf(r, ",\"thread\":");
	sim_reply_string(r, rec->thread);
	sim_reply_printf(r, ",\"object\":");
	sim_reply_string(r, rec->object);
	if (rec->detail) {
		sim_reply_printf(r, ",\"detail\":");
		sim_reply_string(r, rec->detail);
	}
	sim_reply_printf(r, ",\"arg\":%ld}", rec->arg);
}
