/* SPDX-License-Identifier: MIT */
/*
 * The agent's event history: the last SIM_HISTORY_EVENTS events, copied
 * (a record's names may not outlive it), for `print events`.
 */
#include "debug.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sim_history_init(struct sim_history *h)
{
	h->ring = calloc(SIM_HISTORY_EVENTS, sizeof(*h->ring));
	if (h->ring == NULL)
		return -ENOMEM;
	h->cap = SIM_HISTORY_EVENTS;
	h->first = 0;
	h->count = 0;
	h->dropped = 0;
	return 0;
}

void sim_history_free(struct sim_history *h)
{
	free(h->ring);
	h->ring = NULL;
}

/* @src, cut to a name's size: at every event, so no snprintf. */
static void copy_name(char dst[NK_NAME_MAX], const char *src)
{
	size_t len = src ? strnlen(src, NK_NAME_MAX - 1) : 0;

	memcpy(dst, src ? src : "", len);
	dst[len] = '\0';
}

void sim_history_put(struct sim_history *h, const struct nk_trace_record *rec)
{
	struct sim_event *e;

	if (h->count == h->cap) {
		h->first = (h->first + 1) % h->cap;
		h->count--;
		h->dropped++;
	}
	e = &h->ring[(h->first + h->count++) % h->cap];
	e->date = rec->date;
	e->cpu = rec->cpu;
	e->event = rec->event;
	e->arg = rec->arg;
	e->has_object = rec->object != NULL;
	e->has_detail = rec->detail != NULL;
	copy_name(e->thread, rec->thread);
	copy_name(e->object, rec->object);
	copy_name(e->detail, rec->detail);
}

void sim_history_print(const struct sim_history *h, nk_time_t since,
		       struct sim_reply *r)
{
	const char *sep = "";

	sim_reply_printf(r, ",\"dropped\":%lu,\"events\":[", h->dropped);
	for (size_t i = 0; i < h->count; i++) {
		const struct sim_event *e = &h->ring[(h->first + i) % h->cap];
		struct nk_trace_record rec = {
		    .date = e->date,
		    .cpu = e->cpu,
		    .event = e->event,
		    .thread = e->thread,
		    .object = e->has_object ? e->object : NULL,
		    .detail = e->has_detail ? e->detail : NULL,
		    .arg = e->arg,
		};

		if (e->date < since)
			continue;
		sim_reply_printf(r, "%s", sep);
		sim_reply_event(r, &rec);
		sep = ",";
	}
	sim_reply_printf(r, "]");
}
