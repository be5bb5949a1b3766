/* SPDX-License-Identifier: MIT */
/*
 * Events the nucleus does not fire itself: skin service calls and
 * applications' marks, recorded for the calling thread.
 */
#include "sinks.h"
#include "../nucleus/internal.h"

#include <fusion/runtime.h>

#include <stdarg.h>
#include <stdio.h>

int trace_sinks;

bool nk_trace_active(struct nk_instance *nk)
{
	/* A sink installed a moment later may miss this event, as any
	 * tracepoint racing it would. */
	return nk_instance_valid(nk) &&
	       __atomic_load_n(&nk->trace, __ATOMIC_RELAXED) != NULL;
}

int nk_trace_user(struct nk_instance *nk, enum nk_trace_event event,
		  const char *object, const char *detail, long arg)
{
	struct nk_trace_record rec = {
	    .event = event,
	    .object = object,
	    .detail = detail,
	    .arg = arg,
	};
	struct nk_thread *self;

	if (!nk_instance_valid(nk) || object == NULL ||
	    (!nk_trace_is_service(event) && event != NK_TRACE_MARK))
		return -EINVAL;
	if (!nk_trace_active(nk))
		return 0;
	nk_lock_acquire(nk);
	self = nk->be->self(nk->be_priv);
	if (self == NULL || self->nk != nk) {
		rec.thread = "linux";
	} else {
		rec.cpu = self->sched->cpu;
		if (self->sched->irq_depth) {
			rec.thread = "irq";
		} else {
			rec.thread = self->name;
			rec.thread_id = self->trace_id;
		}
	}
	rec.date = nk_clock_now(nk);
	if (nk->trace)
		nk->trace(nk->trace_ctx, &rec);
	nk_lock_release(nk);
	return 0;
}

int fusion_trace_mark(const char *fmt, ...)
{
	struct nk_instance *nk = fusion_runtime_peek();
	char text[NK_NAME_MAX];
	va_list ap;

	if (fmt == NULL)
		return -EINVAL;
	if (nk == NULL)
		return -ESRCH;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	return nk_trace_user(nk, NK_TRACE_MARK, text, NULL, 0);
}
