/* SPDX-License-Identifier: MIT */
/*
 * VxWorks byte rings: a buffer of nbytes in the ring's own memory, read
 * from its head, written after its last byte.  Each call finds the ring
 * by its ID under the nucleus lock, from a task or a watchdog routine.
 */
#include "internal.h"

#include <errno.h>
#include <string.h>

struct vx_ring {
	int size;  /* bytes it holds, at most */
	int head;  /* first byte held */
	int count; /* bytes held */
	char *buf;
};

void vx_ring_describe(const void *object, struct nk_object_info *info)
{
	const struct vx_ring *r = object;

	info->count = r->count;
	info->capacity = r->size;
}

void vx_ring_reclaim(struct nk_instance *nk, void *object)
{
	struct vx_ring *r = object;

	nk_free(nk, r->buf);
	nk_free(nk, r);
}

RING_ID rngCreate(int nbytes)
{
	struct nk_instance *nk;
	struct vx_ring *r;
	uintptr_t id;
	int ret =
	    nbytes < 1 ? EINVAL : vx_object_alloc(sizeof(*r), &nk, (void **)&r);

	if (ret == 0) {
		r->size = nbytes;
		r->buf = nk_alloc(nk, (size_t)nbytes);
		ret = r->buf ? skin_publish(skin_state(&vxworks_skin), VX_RING,
					    NULL, r, &id)
			     : S_memLib_NOT_ENOUGH_MEMORY;
		if (ret)
			vx_ring_reclaim(nk, r);
	}
	vx_status(ret);
	return ret ? NULL : (RING_ID)id;
}

void rngDelete(RING_ID ringId)
{
	vx_status(vx_delete(VX_RING, ringId));
}

/* What each call does to a ring found by its ID. */
enum ring_op {
	RING_FLUSH,
	RING_GET,
	RING_PUT,
	RING_HELD,
	RING_ROOM,
	RING_AHEAD,
	RING_MOVE
};

/* Copy @n bytes between the ring at @pos (wrapping) and @data. */
static void ring_copy(struct vx_ring *r, int pos, char *data, int n, bool in)
{
	for (int done = 0; done < n;) {
		int at = (pos + done) % r->size;
		int run = r->size - at < n - done ? r->size - at : n - done;

		if (in) {
			nk_journal_save(r->buf + at, (size_t)run);
			memcpy(r->buf + at, data + done, (size_t)run);
		} else
			memcpy(data + done, r->buf + at, (size_t)run);
		done += run;
	}
}

/* Apply @op with @data and @n; its result.  Lock held. */
static int ring_apply(struct vx_ring *r, enum ring_op op, char *data, int n)
{
	int room = r->size - r->count;

	switch (op) {
	case RING_FLUSH:
		r->head = r->count = 0;
		return 0;
	case RING_GET:
		n = n < r->count ? n : r->count;
		ring_copy(r, r->head, data, n, false);
		r->head = (r->head + n) % r->size;
		r->count -= n;
		return n;
	case RING_PUT:
		n = n < room ? n : room;
		ring_copy(r, r->head + r->count, data, n, true);
		r->count += n;
		return n;
	case RING_HELD:
		return r->count;
	case RING_ROOM:
		return room;
	case RING_AHEAD:
		if (n < room) {
			char *at = &r->buf[(r->head + r->count + n) % r->size];

			nk_journal_obj(at);
			*at = *data;
		}
		return 0;
	case RING_MOVE:
		r->count += n < room ? n : room;
		return 0;
	}
	return 0;
}

/* Find ring @id and apply @op; @bad when the ID or @n is bad. */
static int ring_op(RING_ID id, enum ring_op op, char *data, int n, int bad)
{
	struct nk_instance *nk;
	struct vx_ring *r;
	int ret;

	if (n < 0 || (data == NULL && n > 0 && op != RING_MOVE)) {
		vx_fail(EINVAL);
		return bad;
	}
	ret = vx_get(VX_RING, id, &nk, (void **)&r);
	if (ret) {
		vx_fail(ret);
		return bad;
	}
	ret = ring_apply(r, op, data, n);
	nk_unlock(nk);
	return ret;
}

void rngFlush(RING_ID ringId)
{
	ring_op(ringId, RING_FLUSH, NULL, 0, 0);
}

int rngBufGet(RING_ID ringId, char *buffer, int maxbytes)
{
	return ring_op(ringId, RING_GET, buffer, maxbytes, 0);
}

/* The ring only reads @buffer (ring_copy() copies into the ring). */
int rngBufPut(RING_ID ringId, const char *buffer, int nbytes)
{
	return ring_op(ringId, RING_PUT, (char *)(uintptr_t)buffer, nbytes, 0);
}

BOOL rngIsEmpty(RING_ID ringId)
{
	return ring_op(ringId, RING_HELD, NULL, 0, 0) == 0;
}

BOOL rngIsFull(RING_ID ringId)
{
	return ring_op(ringId, RING_ROOM, NULL, 0, 0) == 0;
}

int rngFreeBytes(RING_ID ringId)
{
	return ring_op(ringId, RING_ROOM, NULL, 0, 0);
}

int rngNBytes(RING_ID ringId)
{
	return ring_op(ringId, RING_HELD, NULL, 0, 0);
}

void rngPutAhead(RING_ID ringId, char byte, int offset)
{
	ring_op(ringId, RING_AHEAD, &byte, offset, 0);
}

void rngMoveAhead(RING_ID ringId, int n)
{
	ring_op(ringId, RING_MOVE, NULL, n, 0);
}
