/* SPDX-License-Identifier: MIT */
/*
 * The session header's lock, and what its next owner does when a member
 * died holding it: check every invariant of the header and the heap, and
 * mark the session broken if the dead member's change was cut in half.
 * The header is written so that each change publishes with one store
 * (a member's pid, a block's offset, its users), so a change cut short
 * is either there or not; only the heap's own lists can be left torn.
 */
#include "session.h"

#include <errno.h>
#include <string.h>

int session_check(struct session_header *hdr)
{
	uint64_t head = (uint64_t)((char *)hdr->heap.base - (char *)hdr);
	uint64_t members = 0;

	if (nk_heap_check(&hdr->heap) || head < sizeof(*hdr) ||
	    head > hdr->size)
		return -EUCLEAN;
	for (int i = 0; i < SESSION_MAX_MEMBERS; i++) {
		if (hdr->members[i].pid < 0)
			return -EUCLEAN;
		if (hdr->members[i].pid)
			members |= 1ull << i;
	}
	for (int i = 0; i < SESSION_MAX_SHM; i++) {
		const struct session_shm *b = &hdr->shm[i];
		size_t size;

		if (b->offset == 0)
			continue;
		if (b->offset < head || b->offset >= hdr->size ||
		    b->size > hdr->size - b->offset || (b->users & ~members) ||
		    memchr(b->name, '\0', sizeof(b->name)) == NULL ||
		    nk_heap_size(&hdr->heap, (char *)hdr + b->offset, &size) ||
		    size < b->size)
			return -EUCLEAN;
	}
	return 0;
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
