/* SPDX-License-Identifier: MIT */
/*
 * Named shared memory in a session: blocks of the segment's heap, found
 * by name, at the same address in every member.  A block records which
 * members hold it (one bit each) and goes back to the heap when none
 * does, so a member that dies lets go of its blocks with its slot.
 */
#include "session.h"

#include <errno.h>
#include <string.h>

static struct session_shm *shm_find(struct session_header *hdr,
				    const char *name)
{
	for (int i = 0; i < SESSION_MAX_SHM; i++)
		if (hdr->shm[i].offset && strcmp(hdr->shm[i].name, name) == 0)
			return &hdr->shm[i];
	return NULL;
}

/* Unpublish @b first: a holder dying between the two stores leaks the
 * block, and leaves nothing half done. */
static void shm_release(struct session_header *hdr, struct session_shm *b)
{
	void *mem = (char *)hdr + b->offset;

	b->offset = 0;
	nk_heap_free(&hdr->heap, mem);
}

/* Published with its first user in: it is never seen held by nobody. */
static int shm_create(struct session_header *hdr, const char *name,
		      size_t size, uint64_t user, struct session_shm **out)
{
	struct session_shm *b = NULL;
	void *mem;

	for (int i = 0; i < SESSION_MAX_SHM && b == NULL; i++)
		if (hdr->shm[i].offset == 0)
			b = &hdr->shm[i];
	if (b == NULL || nk_heap_alloc(&hdr->heap, size, &mem))
		return -ENOSPC;
	memset(mem, 0, size);
	memset(b->name, 0, sizeof(b->name));
	strcpy(b->name, name);
	b->size = size;
	b->users = user;
	b->offset = (uint64_t)((char *)mem - (char *)hdr);
	*out = b;
	return 0;
}

int fusion_session_shm(const char *name, size_t size, void **addr)
{
	struct session *s = session_current();
	struct session_shm *b;
	int ret;

	if (name == NULL || name[0] == '\0' ||
	    strlen(name) >= FUSION_SESSION_SHM_NAME_MAX || addr == NULL)
		return -EINVAL;
	if (s == NULL)
		return -ENOENT;
	ret = session_lock(s->hdr);
	if (ret)
		return ret;
	b = shm_find(s->hdr, name);
	if (b && size > b->size)
		ret = -EEXIST;
	else if (b == NULL && size == 0)
		ret = -ENOENT;
	else if (b == NULL)
		ret = shm_create(s->hdr, name, size, 1ull << s->slot, &b);
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
	int ret = -EINVAL;

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
			shm_release(s->hdr, b);
		ret = 0;
		break;
	}
	session_unlock(s->hdr);
	return ret;
}

/* Blocks held by nobody go too: a member killed between dropping its
 * bit and releasing the block left one behind. */
void session_shm_drop_member(struct session_header *hdr, int slot)
{
	for (int i = 0; i < SESSION_MAX_SHM; i++) {
		struct session_shm *b = &hdr->shm[i];

		if (b->offset == 0)
			continue;
		b->users &= ~(1ull << slot);
		if (b->users == 0)
			shm_release(hdr, b);
	}
}
