/* SPDX-License-Identifier: MIT */
/*
 * The session header's lock, and what its next owner does when a member
 * died holding it: check every invariant of the header, and mark the
 * session broken if one fails.  Each change of the header publishes with
 * one store (a member's pid, a block's offset, its holders' bits), so a
 * change cut short by a kill is either there or not: the check can only
 * fail on memory damaged otherwise.
 */
#include "session.h"

#include <errno.h>
#include <string.h>

int session_check(struct session_header *hdr)
{
	uint64_t members = 0;

	for (int i = 0; i < SESSION_MAX_MEMBERS; i++) {
		if (hdr->members[i].pid < 0)
			return -EUCLEAN;
		if (hdr->members[i].pid)
			members |= 1ull << i;
	}
	for (int i = 0; i < SESSION_MAX_SHM; i++)
		if (hdr->shm[i].offset && (hdr->shm[i].users & ~members))
			return -EUCLEAN;
	return session_shm_valid(hdr) ? 0 : -EUCLEAN;
}

int session_lock(struct session_header *hdr)
{
	int ret;

	if (atomic_load(&hdr->state) == SESSION_BROKEN)
		return -ENOTRECOVERABLE;
	ret = pthread_mutex_lock(&hdr->lock);
	if (ret == EOWNERDEAD) {
		if (session_check(hdr))
			atomic_store(&hdr->state, SESSION_BROKEN);
		pthread_mutex_consistent(&hdr->lock);
	} else if (ret) {
		return -ENOTRECOVERABLE;
	}
	if (atomic_load(&hdr->state) == SESSION_BROKEN) {
		/* Readers see an even generation again: nothing moves. */
		if (atomic_load(&hdr->generation) & 1)
			atomic_fetch_add(&hdr->generation, 1);
		pthread_mutex_unlock(&hdr->lock);
		return -ENOTRECOVERABLE;
	}
	/* Odd while held; a dead holder may have left it odd already. */
	if (!(atomic_load(&hdr->generation) & 1))
		atomic_fetch_add(&hdr->generation, 1);
	return 0;
}

void session_unlock(struct session_header *hdr)
{
	atomic_fetch_add(&hdr->generation, 1);
	pthread_mutex_unlock(&hdr->lock);
}
