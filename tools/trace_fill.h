/* SPDX-License-Identifier: MIT */
/*
 * How full an object is, as its service calls in a trace tell: a call
 * that puts a message or a unit in adds one, a call that takes one out
 * takes one, a creation (or a flush) starts again from empty.  A take
 * by a thread woken since its last call, with nothing counted in the
 * object, was handed its message or unit by a give recorded later (a
 * call is recorded when it returns): neither counts.  Counted from the
 * calls, not read from the object: a semaphore created with units, or
 * before the trace began, shows units given minus units taken.
 * Messages and units, not bytes.
 */
#ifndef FUSION_TOOL_TRACE_FILL_H
#define FUSION_TOOL_TRACE_FILL_H

#include "trace/ctf.h"

/* A new level of an object: its counter's name ("queue 0x200001001"). */
struct fill_sample {
	char name[TRACE_TEXT_MAX + 16];
	long level;
};

struct fill_tracker;

/* An empty tracker; NULL when out of memory. */
struct fill_tracker *fill_tracker_new(void);
void fill_tracker_free(struct fill_tracker *t);

/*
 * Take in @e (every event of the trace but switches and IRQs, in
 * order).  Returns 1 with the object's new level in *@s when @e changed
 * a fill, 0 when it did not, -1 when out of memory.
 */
int fill_tracker_event(struct fill_tracker *t, const struct trace_event *e,
		       struct fill_sample *s);

#endif
