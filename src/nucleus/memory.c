/* SPDX-License-Identifier: MIT */
/*
 * Where an instance lives.  Every control block and buffer a skin or the
 * nucleus keeps for an instance comes from nk_alloc(), so that the
 * instance decides: malloc for a private instance; in a session, a TLSF
 * heap over the session's nucleus block, whose first bytes hold the heap's
 * lock and the instance's core (docs/architecture.md, "Sessions").
 */
#include "internal.h"
#include "journal.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Static_assert(offsetof(struct nk_arena, open) == 0,
	       "the nucleus block's first word says it is open");

void nk_layout_get(struct nk_layout *out)
{
	*out = (struct nk_layout){
	    .arena = sizeof(struct nk_arena),
	    .core = sizeof(struct nk_core),
	    .thread = sizeof(struct nk_thread),
	    .sched = sizeof(struct nk_sched),
	    .instance = sizeof(struct nk_instance),
#ifdef NK_DEBUG
	    .debug = 1,
#endif
	};
}

static int arena_init(struct nk_arena *arena, size_t size)
{
	pthread_mutexattr_t attr;
	size_t head =
	    (sizeof(*arena) + NK_HEAP_ALIGN - 1) & ~(size_t)(NK_HEAP_ALIGN - 1);
	int ret;

	ret = nk_heap_init(&arena->heap, (char *)arena + head, size - head);
	if (ret)
		return ret == -EINVAL ? -ENOSPC : ret;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
	pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_INHERIT);
	ret = -pthread_mutex_init(&arena->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	return ret;
}

/*
 * A holder that died left the heap as it was at that instant: go on only
 * if the heap's walk adds up (a member's cleanup will rebuild it instead).
 */
static int arena_lock(struct nk_arena *arena)
{
	int ret = pthread_mutex_lock(&arena->lock);

	if (ret == EOWNERDEAD) {
		if (nk_heap_check(&arena->heap) == 0)
			return -pthread_mutex_consistent(&arena->lock);
		pthread_mutex_unlock(&arena->lock);
		return -ENOTRECOVERABLE;
	}
	return -ret;
}

int nk_place(bool session, bool join, struct nk_instance **out)
{
	struct session_place place;
	struct nk_arena *arena;
	struct nk_instance *nk;
	int ret;

	if (!session) {
		nk = calloc(1, sizeof(*nk));
		if (nk == NULL)
			return -ENOMEM;
		nk->core = &nk->own_core;
		nk->pid = getpid();
		*out = nk;
		return 0;
	}
	ret = session_place(sizeof(*nk), sizeof(*arena), join, &place);
	if (ret)
		return ret;
	arena = place.mem;
	if (!place.joined)
		ret = arena_init(arena, place.size);
	if (ret) {
		session_unplace(&place);
		return ret;
	}
	nk_journal_audit_range(arena, place.size, &arena->heap);
	/* Changed under the session's lock, not the nucleus's; and by
	 * anyone, lock or not, with an atomic increment that an undo need
	 * not take back (journal.h). */
	nk_journal_audit_skip(&arena->open, sizeof(arena->open), true);
	nk_journal_audit_skip(&arena->core.trace_serial,
			      sizeof(arena->core.trace_serial), true);
	nk = place.view;
	nk->place = place;
	nk->arena = arena;
	nk->core = &arena->core;
	nk->member = place.member;
	nk->pid = getpid();
	*out = nk;
	return 0;
}

void nk_placed_ready(struct nk_instance *nk)
{
	if (nk->arena && !nk->place.joined)
		session_place_open(&nk->place);
}

bool nk_placed_last(struct nk_instance *nk)
{
	return nk->arena == NULL || session_place_close(&nk->place);
}

void nk_unplace(struct nk_instance *nk, bool keep)
{
	struct session_place place = nk->place;

	if (nk->arena == NULL) {
		free(nk);
		return;
	}
	/* The heap and its lock go with the block: other members may
	 * still use them. */
	if (!keep)
		session_unplace(&place);
}

bool nk_instance_shared(struct nk_instance *nk)
{
	return nk_instance_valid(nk) && nk->arena != NULL;
}

bool nk_instance_memory_shared(struct nk_instance *nk, const void *mem,
			       size_t len)
{
	uintptr_t at = (uintptr_t)mem, seg;

	if (!nk_instance_valid(nk))
		return false;
	if (nk->arena == NULL)
		return true;
	seg = (uintptr_t)nk->place.segment;
	return at >= seg && len <= nk->place.segment_size &&
	       at - seg <= nk->place.segment_size - len;
}

int nk_instance_member(struct nk_instance *nk)
{
	return nk_instance_valid(nk) ? nk->member : -EINVAL;
}

void *nk_backend_state(struct nk_instance *nk, size_t size, bool *made)
{
	*made = nk->core->be_state == NULL;
	if (*made)
		nk->core->be_state = nk_alloc(nk, size);
	return nk->core->be_state;
}

struct nk_journal *nk_journal_make(struct nk_instance *nk)
{
	struct nk_journal *j;

	if (!nk_instance_valid(nk) || nk->arena == NULL)
		return NULL;
	j = nk_alloc(nk, sizeof(*j));
	if (j)
		nk_journal_init(j, nk->place.segment, nk->place.segment_size,
				&nk->arena->heap);
	nk->core->journal = j;
	return j;
}

/*
 * In a session, the heap changes under the nucleus lock once there is
 * one, so that its journal undoes them with the changes of whatever
 * they were made for (docs/architecture.md, "A member dying").  False:
 * the heap's lock is not ours.  *@locked: the nucleus lock is.
 */
static bool heap_enter(struct nk_instance *nk, bool *locked)
{
	*locked = atomic_load_explicit(&nk->be_ready, memory_order_acquire);
	if (*locked)
		nk_lock_acquire(nk);
	if (arena_lock(nk->arena) == 0)
		return true;
	if (*locked)
		nk_lock_release(nk);
	return false;
}

static void heap_leave(struct nk_instance *nk, bool locked)
{
	pthread_mutex_unlock(&nk->arena->lock);
	if (locked)
		nk_lock_release(nk);
}

void *nk_alloc(struct nk_instance *nk, size_t size)
{
	void *mem = NULL;
	bool locked;

	if (!nk_instance_valid(nk) || size == 0)
		return NULL;
	if (nk->arena == NULL)
		return calloc(1, size);
	if (!heap_enter(nk, &locked))
		return NULL;
	nk_heap_alloc(&nk->arena->heap, size, &mem);
	if (mem) {
		nk_journal_audit_young(mem, size);
		memset(mem, 0, size);
	}
	heap_leave(nk, locked);
	return mem;
}

void nk_free(struct nk_instance *nk, void *mem)
{
	size_t size;
	bool locked;

	if (mem == NULL || !nk_instance_valid(nk))
		return;
	if (nk->arena == NULL) {
		free(mem);
		return;
	}
	if (!heap_enter(nk, &locked))
		return;
	/* Undone, the free must give back what the block held: the same
	 * section may hand the memory out again. */
	if (nk_heap_size(&nk->arena->heap, mem, &size) == 0)
		nk_journal_save(mem, size);
	nk_heap_free(&nk->arena->heap, mem);
	heap_leave(nk, locked);
}

/*
 * The block and its place on the list in one section: a member that
 * dies in between leaves neither (its undo takes both back).
 */
void *nk_alloc_local(struct nk_instance *nk, size_t size)
{
	struct nk_local *b;

	if (!nk_instance_valid(nk) || nk->arena == NULL)
		return nk_alloc(nk, size);
	if (size == 0 || size > SIZE_MAX - sizeof(*b) ||
	    !atomic_load_explicit(&nk->be_ready, memory_order_acquire))
		return NULL;
	nk_lock_acquire(nk);
	b = nk_alloc(nk, sizeof(*b) + size);
	if (b) {
		nk_journal_save(b, sizeof(*b));
		b->magic = NK_LOCAL_MAGIC;
		b->member = nk->member;
		nk_list_add_before(&b->link, &nk->core->locals);
	}
	nk_lock_release(nk);
	return b ? b->data : NULL;
}

static void local_free(struct nk_instance *nk, struct nk_local *b)
{
	nk_journal_save(b, sizeof(*b));
	b->magic = 0;
	nk_list_del(&b->link);
	nk_free(nk, b);
}

void nk_free_local(struct nk_instance *nk, void *mem)
{
	struct nk_local *b;

	if (mem == NULL || !nk_instance_valid(nk) || nk->arena == NULL) {
		nk_free(nk, mem);
		return;
	}
	b = nk_container_of(mem, struct nk_local, data);
	nk_lock_acquire(nk);
	if (b->magic == NK_LOCAL_MAGIC)
		local_free(nk, b);
	nk_lock_release(nk);
}

void nk_local_member_gone(struct nk_instance *nk, int member)
{
	struct nk_list *pos, *next;

	nk_list_for_each_safe(pos, next, &nk->core->locals) {
		struct nk_local *b = nk_list_entry(pos, struct nk_local, link);

		if (b->member == member)
			local_free(nk, b);
	}
}

int nk_member_blocks(struct nk_instance *nk, int member)
{
	struct nk_list *pos;
	int n = 0;

	if (!nk_instance_valid(nk) || member < 0 || member >= NK_MAX_MEMBERS)
		return -EINVAL;
	if (nk->arena == NULL)
		return 0;
	nk_lock_acquire(nk);
	nk_list_for_each(pos, &nk->core->locals)
		n +=
		    nk_list_entry(pos, struct nk_local, link)->member == member;
	nk_lock_release(nk);
	return n;
}
