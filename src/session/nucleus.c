/* SPDX-License-Identifier: MIT */
/*
 * The place of this process's instance in its session: the view at its
 * fixed address just above the segment (below, it would leave the range
 * ThreadSanitizer gives programs when the segment is at its default
 * address, the range's start), and the nucleus block (a named block
 * of the library's own), which takes three quarters of the blocks' area
 * so that named shared memory keeps the rest.  The block is held by each
 * member that made or joined the instance, as any named block, so a
 * member that dies lets go of it, and the last one frees it.
 */
#include "session.h"
#include "nucleus.h"

#include <fusion/instance.h>

#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A member's slot is its number in the instances it shares. */
_Static_assert(SESSION_MAX_MEMBERS == NK_MAX_MEMBERS,
	       "a slot per member of a shared instance");

static size_t page_round(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (size + page - 1) & ~(page - 1);
}

static _Atomic uint32_t *block_word(struct session_header *hdr,
				    const struct session_shm *b)
{
	return (_Atomic uint32_t *)((char *)hdr + b->offset);
}

/*
 * Lock held: the nucleus block, joined (@join) or made for @s, its
 * first @head bytes zeroed (0, -EBUSY or -ENOSPC).  The head says
 * whether the instance there is whole: a joiner sees the maker's.
 */
static int block_take(struct session *s, size_t head, bool join,
		      struct session_place *out)
{
	struct session_header *hdr = s->hdr;
	struct session_shm *b;
	uint64_t size;
	int ret;

	/* A dead holder's block goes with it. */
	session_reap_dead(hdr, s->ctl_fd, s->slot);
	b = session_shm_find(hdr, SESSION_NUCLEUS_BLOCK);
	if (b && !join)
		return -EBUSY;
	if (b && !atomic_load(block_word(hdr, b)))
		return -EAGAIN;
	out->joined = b != NULL;
	if (b == NULL) {
		size = (hdr->size - hdr->data) / 4 * 3 &
		       ~(uint64_t)(SESSION_SHM_ALIGN - 1);
		/* Not zeroed: the nucleus zeroes each allocation. */
		ret = session_shm_create(hdr, SESSION_NUCLEUS_BLOCK, size,
					 1ull << s->slot, false, &b);
		if (ret)
			return ret;
		memset((char *)hdr + b->offset, 0, head);
	}
	b->users |= 1ull << s->slot;
	out->mem = (char *)hdr + b->offset;
	out->size = b->size;
	out->member = s->slot;
	out->segment = s->hdr;
	out->segment_size = s->hdr->size;
	return 0;
}

int session_place(size_t view_size, size_t head, bool join,
		  struct session_place *out)
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
		ret = block_take(s, head, join, out);
		session_unlock(s->hdr);
	}
	if (ret) {
		munmap(out->view, len);
		return ret;
	}
	s->placed = true;
	return 0;
}

void session_place_open(const struct session_place *place)
{
	struct session *s = session_current();

	if (session_lock(s->hdr) == 0) {
		atomic_store((_Atomic uint32_t *)place->mem, 1);
		session_unlock(s->hdr);
	}
}

bool session_place_close(const struct session_place *place)
{
	struct session *s = session_current();
	struct session_shm *b;
	bool last = true;

	/* Without the lock, nobody can join it either. */
	if (session_lock(s->hdr) == 0) {
		session_reap_dead(s->hdr, s->ctl_fd, s->slot);
		b = session_shm_find(s->hdr, SESSION_NUCLEUS_BLOCK);
		last = b == NULL || (b->users & ~(1ull << s->slot)) == 0;
		if (last)
			atomic_store((_Atomic uint32_t *)place->mem, 0);
		session_unlock(s->hdr);
	}
	return last;
}

bool session_slot_alive(int slot, pid_t pid)
{
	struct session *s = session_current();

	return s && s->hdr->members[slot].pid == pid &&
	       session_member_alive(s->ctl_fd, slot);
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
