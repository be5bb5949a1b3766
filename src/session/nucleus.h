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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#pragma GCC visibility push(hidden)

struct session_place {
	void *view; /* zeroed, private, @view_size bytes */
	size_t view_size;
	void *mem; /* the nucleus block: not zeroed but its head */
	size_t size;
	bool joined; /* the block held another member's instance already */
	int member;  /* our slot: the instance's number for this process */
	/* The whole segment, at the same address in every member. */
	const void *segment;
	size_t segment_size;
};

/*
 * Place an instance whose view takes @view_size bytes in this process's
 * session: make the nucleus block, its first @head bytes zeroed, or,
 * with @join, join the instance another member made there, once it is
 * open.  The block's first word is the instance's: nonzero while it is
 * open to joiners, changed under the session's lock only.  Errors:
 * -ENOENT (in no session), -EBUSY (this process has an instance there,
 * or another member's and not @join), -EAGAIN (that one is not open:
 * being made or ended), -EADDRINUSE (the view's address range is
 * taken), -ENOSPC (the segment has no room left), -ENOTRECOVERABLE,
 * -errno of mmap.
 */
int session_place(size_t view_size, size_t head, bool join,
		  struct session_place *out);
/* The instance made at @place is whole: members may join it. */
void session_place_open(const struct session_place *place);
/*
 * Is this process the last holder of the instance at @place?  If so
 * it is closed to joiners from here on, so that it stays the last.
 */
bool session_place_close(const struct session_place *place);
/* Give the place back: the view unmapped, the block let go (freed with
 * its last holder). */
void session_unplace(const struct session_place *place);
/*
 * Is process @pid still the live member in slot @slot of this process's
 * session?  False once it died, even when another process took the
 * slot since.
 */
bool session_slot_alive(int slot, pid_t pid);

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
