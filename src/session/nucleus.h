/* SPDX-License-Identifier: MIT */
/*
 * What the nucleus asks of the session (docs/architecture.md,
 * "Sessions"): a place for an instance.  Its view, process-local, is
 * mapped at the same fixed address in every member, just above the
 * segment; its core and everything it allocates come from a block of
 * the segment, the session's nucleus block.
 */
#ifndef FUSION_SESSION_NUCLEUS_H
#define FUSION_SESSION_NUCLEUS_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

struct session_place {
	void *view; /* zeroed, private, @view_size bytes */
	size_t view_size;
	void *mem; /* the nucleus block: not zeroed */
	size_t size;
};

/*
 * Place an instance whose view takes @view_size bytes in this process's
 * session.  Until threads are shared across processes, one member's
 * instance holds the nucleus block.  Errors: -ENOENT (in no session),
 * -EBUSY (the block is another member's instance, or this process has
 * one there), -EADDRINUSE (the view's address range is taken), -ENOSPC
 * (the segment has no room left), -ENOTRECOVERABLE, -errno of mmap.
 */
int session_place(size_t view_size, struct session_place *out);
/* Give the place back: the block is freed, the view unmapped. */
void session_unplace(const struct session_place *place);

/*
 * nucleus/memory.c: the layout of the nucleus structures the session
 * shares, which the session's fingerprint covers (builds with other
 * layouts, a debug build's checks for one, cannot share a session).
 */
struct nk_layout {
	uint64_t arena, core, thread, sched, instance, debug;
};
void nk_layout_get(struct nk_layout *out);

#pragma GCC visibility pop

#endif
