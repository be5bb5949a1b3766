/* SPDX-License-Identifier: MIT */
/*
 * The recorder's buffer: one ring of fixed-size slots per RT CPU,
 * written by any number of threads at once without a lock (a slot is
 * claimed by an atomic increment) and read by whoever writes the trace
 * out, even while writers go on (a slot overwritten while it is copied
 * is left out and counted as lost).  Never blocks, never calls Linux.
 */
#ifndef FUSION_TRACE_RING_H
#define FUSION_TRACE_RING_H

#include <fusion/trace.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TRACE_THREAD_MAX NK_NAME_MAX
#define TRACE_TEXT_MAX NK_NAME_MAX

/* One event as recorded: names copied, cut to their field's size. */
struct trace_event {
	int64_t date;
	int64_t arg;
	uint16_t event;
	uint16_t cpu;
	char thread[TRACE_THREAD_MAX];
	char object[TRACE_TEXT_MAX];
	char detail[TRACE_TEXT_MAX];
};

struct trace_ring;

/*
 * A ring of @bytes (at least one slot); NULL when out of memory.  When
 * full, an @overwrite ring replaces its oldest event (a flight
 * recorder), another drops the new one.  Either way it counts as lost.
 */
struct trace_ring *trace_ring_create(size_t bytes, bool overwrite);
/* Unmap @ring (NULL: nothing). */
void trace_ring_destroy(struct trace_ring *ring);

/* Record @rec.  Any context, any number of writers at once. */
void trace_ring_put(struct trace_ring *ring, const struct nk_trace_record *rec);

/*
 * Copy the events the ring holds, oldest first, into @out (room for
 * trace_ring_capacity()); returns their number, and in *@lost how many
 * were dropped, overwritten or caught being written.
 */
size_t trace_ring_copy(struct trace_ring *ring, struct trace_event *out,
		       uint64_t *lost);
size_t trace_ring_capacity(const struct trace_ring *ring);

#endif
