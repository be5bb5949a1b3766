/* SPDX-License-Identifier: MIT */
/*
 * The recorder's buffer: one ring of fixed-size slots per RT CPU,
 * written by one writer at a time (every trace sink runs under the
 * nucleus lock: no atomic read-modify-write is needed to claim a slot)
 * and read without a lock by whoever writes the trace out, even while
 * writing goes on (a slot overwritten while it is copied is left out
 * and counted as lost).  Never blocks, never calls Linux.
 */
#ifndef FUSION_TRACE_RING_H
#define FUSION_TRACE_RING_H

#include <fusion/trace.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * One event as recorded: its fields' names are numbers (names.h), so
 * that recording one copies 32 bytes and no string.
 */
struct trace_rec {
	int64_t date;
	int64_t arg;
	uint32_t thread;
	uint32_t object;
	uint32_t detail;
	uint16_t event;
	uint16_t cpu;
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

/* Record @rec.  Any context; one writer at a time (the nucleus lock). */
void trace_ring_put(struct trace_ring *ring, const struct trace_rec *rec);

/*
 * Copy the events the ring holds, oldest first, into @out (room for
 * trace_ring_capacity()); returns their number, and in *@lost how many
 * were dropped, overwritten or caught being written.
 */
size_t trace_ring_copy(struct trace_ring *ring, struct trace_rec *out,
		       uint64_t *lost);
size_t trace_ring_capacity(const struct trace_ring *ring);

#endif
