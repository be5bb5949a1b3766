/* SPDX-License-Identifier: MIT */
/*
 * Named shared memory in a session: blocks of the segment, found by
 * name, at the same address in every member.  The table of blocks is
 * the allocator: a new block takes the lowest gap between the published
 * ones that fits, so creating publishes with one store (its offset) and
 * freeing with another (offset 0), and a member killed at any point
 * leaves no allocator state half written.  A block records which members
 * hold it (one bit each) and goes when none does, so a member that dies
 * lets go of its blocks with its slot.
 */
#include "session.h"

#include <errno.h>
#include <string.h>

static uint64_t align_up(uint64_t size)
{
	return (size + SESSION_SHM_ALIGN - 1) &
	       ~(uint64_t)(SESSION_SHM_ALIGN - 1);
}

bool session_shm_valid(const struct session_header *hdr)
{
	if (hdr->data < sizeof(*hdr) || hdr->data > hdr->size)
		return false;
	for (int i = 0; i < SESSION_MAX_SHM; i++) {
		const struct session_shm *a = &hdr->shm[i];

		if (a->offset == 0)
			continue;
		if (a->offset < hdr->data || a->offset % SESSION_SHM_ALIGN ||
		    a->size == 0 || a->size > hdr->size - a->offset ||
		    memchr(a->name, '\0', sizeof(a->name)) == NULL)
			return false;
		for (int j = i + 1; j < SESSION_MAX_SHM; j++) {
			const struct session_shm *b = &hdr->shm[j];

			if (b->offset && a->offset < b->offset + b->size &&
			    b->offset < a->offset + a->size)
				return false;
		}
	}
	return true;
}

struct session_shm *session_shm_find(struct session_header *hdr,
				     const char *name)
{
	for (int i = 0; i < SESSION_MAX_SHM; i++)
		if (hdr->shm[i].offset && strcmp(hdr->shm[i].name, name) == 0)
			return &hdr->shm[i];
	return NULL;
}

/* The lowest offset where @size bytes overlap no block, or 0. */
static uint64_t shm_gap(const struct session_header *hdr, uint64_t size)
{
	uint64_t at = hdr->data;
	bool moved = true;

	if (size > hdr->size)
		return 0;
	/* Each pass moves past one block in the way: at most one per block. */
	while (moved) {
		moved = false;
		for (int i = 0; i < SESSION_MAX_SHM; i++) {
			const struct session_shm *b = &hdr->shm[i];

			if (b->offset && b->offset < at + size &&
			    at < b->offset + b->size) {
				at = align_up(b->offset + b->size);
				moved = true;
			}
		}
		if (at > hdr->size || size > hdr->size - at)
			return 0;
	}
	return at;
}

/* Published with its first user in: it is never seen held by nobody. */
int session_shm_create(struct session_header *hdr, const char *name,
		       size_t size, uint64_t user, bool zero,
		       struct session_shm **out)
{
	struct session_shm *b = NULL;
	uint64_t at;

	for (int i = 0; i < SESSION_MAX_SHM && b == NULL; i++)
		if (hdr->shm[i].offset == 0)
			b = &hdr->shm[i];
	at = b ? shm_gap(hdr, align_up(size)) : 0;
	if (at == 0)
		return -ENOSPC;
	/* A block freed by a member that died may hold its data. */
	if (zero)
		memset((char *)hdr + at, 0, size);
	memset(b->name, 0, sizeof(b->name));
	strcpy(b->name, name);
	b->size = size;
	b->users = user;
	__atomic_store_n(&b->offset, at, __ATOMIC_RELEASE);
	*out = b;
	return 0;
}

int fusion_session_shm(const char *name, size_t size, void **addr)
{
	struct session *s = session_current();
	struct session_shm *b;
	int ret;

	if (name == NULL || name[0] == '\0' || name[0] == '.' ||
	    strlen(name) >= FUSION_SESSION_SHM_NAME_MAX || addr == NULL)
		return -EINVAL;
	if (s == NULL)
		return -ENOENT;
	ret = session_lock(s->hdr);
	if (ret)
		return ret;
	b = session_shm_find(s->hdr, name);
	if (b && size > b->size)
		ret = -EEXIST;
	else if (b == NULL && size == 0)
		ret = -ENOENT;
	else if (b == NULL)
		ret = session_shm_create(s->hdr, name, size, 1ull << s->slot,
					 true, &b);
	if (ret == 0) {
		b->users |= 1ull << s->slot;
		*addr = (char *)s->hdr + b->offset;
	}
	session_unlock(s->hdr);
	return ret;
}

int fusion_session_shm_free(void *addr)
{
	struct session *s = session_current();
	int ret;

	if (s == NULL)
		return -ENOENT;
	ret = session_lock(s->hdr);
	if (ret)
		return ret;
	ret = -EINVAL;
	for (int i = 0; i < SESSION_MAX_SHM; i++) {
		struct session_shm *b = &s->hdr->shm[i];

		if (b->offset == 0 || (char *)s->hdr + b->offset != addr ||
		    !(b->users & (1ull << s->slot)))
			continue;
		b->users &= ~(1ull << s->slot);
		if (b->users == 0)
			b->offset = 0;
		ret = 0;
		break;
	}
	session_unlock(s->hdr);
	return ret;
}

/* Blocks held by nobody go too: a member killed between dropping its
 * bit and freeing the block left one behind. */
void session_shm_drop_member(struct session_header *hdr, int slot)
{
	for (int i = 0; i < SESSION_MAX_SHM; i++) {
		struct session_shm *b = &hdr->shm[i];

		if (b->offset == 0)
			continue;
		b->users &= ~(1ull << slot);
		if (b->users == 0)
			b->offset = 0;
	}
}
