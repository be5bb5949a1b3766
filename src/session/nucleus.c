/* SPDX-License-Identifier: MIT */
/*
 * The place of this process's instance in its session: the view at its
 * fixed address just above the segment (below, it would leave the range
 * ThreadSanitizer gives programs when the segment is at its default
 * address, the range's start), and the nucleus block (a named block
 * of the library's own), which takes three quarters of the blocks' area
 * so that named shared memory keeps the rest.  The block is held by its
 * member as any named block, so a member that dies lets go of it.
 */
#include "session.h"
#include "nucleus.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t page_round(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (size + page - 1) & ~(page - 1);
}

/* Lock held: the nucleus block, made for @s (0, -EBUSY or -ENOSPC). */
static int block_take(struct session *s, struct session_place *out)
{
	struct session_header *hdr = s->hdr;
	struct session_shm *b;
	uint64_t size;
	int ret;

	/* A dead holder's block goes with it. */
	session_reap_dead(hdr, s->ctl_fd, s->slot);
	if (session_shm_find(hdr, SESSION_NUCLEUS_BLOCK))
		return -EBUSY;
	size = (hdr->size - hdr->data) / 4 * 3 &
	       ~(uint64_t)(SESSION_SHM_ALIGN - 1);
	/* Not zeroed: the nucleus zeroes each allocation. */
	ret = session_shm_create(hdr, SESSION_NUCLEUS_BLOCK, size,
				 1ull << s->slot, false, &b);
	if (ret)
		return ret;
	out->mem = (char *)hdr + b->offset;
	out->size = size;
	return 0;
}

int session_place(size_t view_size, struct session_place *out)
{
	struct session *s = session_current();
	size_t len = page_round(view_size);
	int ret;

	if (s == NULL)
		return -ENOENT;
	if (s->placed)
		return -EBUSY;
	ret = session_map_fixed(-1, MAP_PRIVATE | MAP_ANONYMOUS,
				(uint64_t)(uintptr_t)s->hdr + s->hdr->size, len,
				&out->view);
	if (ret)
		return ret;
	out->view_size = len;
	ret = session_lock(s->hdr);
	if (ret == 0) {
		ret = block_take(s, out);
		session_unlock(s->hdr);
	}
	if (ret) {
		munmap(out->view, len);
		return ret;
	}
	s->placed = true;
	return 0;
}

void session_unplace(const struct session_place *place)
{
	struct session *s = session_current();

	/* Gone already when the process exits first (session_leave). */
	if (s == NULL)
		return;
	fusion_session_shm_free(place->mem);
	munmap(place->view, place->view_size);
	s->placed = false;
}
