/* SPDX-License-Identifier: MIT */
/*
 * Reading the instance a session's members share without joining the
 * session or taking its nucleus lock (`fusion ps`, for a member too
 * stuck to answer through its status page): docs/architecture.md,
 * "Sessions", "Observing".
 */
#ifndef FUSION_NUCLEUS_PEEK_H
#define FUSION_NUCLEUS_PEEK_H

#include <fusion/status.h>

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/*
 * A session's segment as the reader mapped it: @size bytes at @map, which
 * the members map at @base; the nucleus block at offset @block, @block_size
 * bytes long.
 */
struct nk_peek_segment {
	const unsigned char *map;
	uint64_t base, size;
	uint64_t block, block_size;
};

/*
 * The threads of the instance in @seg, with the member slot that runs
 * each: @threads[i] and @members[i] for the first @max, *@total of them
 * in all.  The copy is whole: made while no critical section was open,
 * and none opened meanwhile.  Every pointer is checked against the
 * segment, so garbage reads as an error, never a fault.  Errors:
 * -EAGAIN (the nucleus lock was held at every try), -EPROTO (no
 * instance there: not yet made, or not one of this build).  The
 * thread's Linux id is the member's to tell: 0 here.
 */
int nk_peek_threads(const struct nk_peek_segment *seg,
		    struct nk_status_thread *threads, int *members,
		    unsigned int max, unsigned int *total);

#pragma GCC visibility pop

#endif
