/* SPDX-License-Identifier: MIT */
/*
 * Personalities: per-instance skin state and per-thread extensions,
 * with the hooks that keep them in step with thread lifetimes.
 *
 * An instance holds up to NK_MAX_PERSONALITIES slots; a thread's
 * extension for the personality in slot i is thread->pers_ext[i], and
 * thread->pers_order lists the slots it attached, oldest first, so that
 * exit hooks run newest first (a skin attached on top of another is
 * torn down before it).
 */
#include "internal.h"

#include <string.h>

/* The slot of @pers in @nk, or -1.  Lock held, or slots only read. */
static int slot_of(struct nk_instance *nk, const struct nk_personality *pers)
{
	for (int i = 0; i < nk->nr_personalities; i++)
		if (nk->personalities[i].pers == pers)
			return i;
	return -1;
}

static int slot_add(struct nk_instance *nk, const struct nk_personality *pers)
{
	struct nk_personality_slot *slot;
	int ret;

	for (int i = 0; i < nk->nr_personalities; i++)
		if (strcmp(nk->personalities[i].pers->name, pers->name) == 0)
			return -EINVAL;
	if (nk->nr_personalities == NK_MAX_PERSONALITIES)
		return -ENOSPC;
	slot = &nk->personalities[nk->nr_personalities];
	slot->state = NULL;
	if (pers->state_size) {
		slot->state = nk_alloc(nk, pers->state_size);
		if (slot->state == NULL)
			return -ENOMEM;
	}
	ret = pers->init ? pers->init(nk, slot->state) : 0;
	if (ret) {
		nk_free(nk, slot->state);
		slot->state = NULL;
		return ret;
	}
	slot->pers = pers;
	/* Published last: readers without the lock see a whole slot. */
	__atomic_store_n(&nk->nr_personalities, nk->nr_personalities + 1,
			 __ATOMIC_RELEASE);
	return 0;
}

int nk_personality_register(struct nk_instance *nk,
			    const struct nk_personality *pers, void **state)
{
	int ret = 0, slot;

	if (!nk_instance_valid(nk) || pers == NULL || pers->name == NULL ||
	    pers->name[0] == '\0')
		return -EINVAL;
	nk_lock_acquire(nk);
	slot = slot_of(nk, pers);
	if (slot < 0) {
		ret = slot_add(nk, pers);
		slot = nk->nr_personalities - 1;
	}
	if (ret == 0 && state)
		*state = nk->personalities[slot].state;
	nk_lock_release(nk);
	return ret;
}

void *nk_personality_state(struct nk_instance *nk,
			   const struct nk_personality *pers)
{
	int nr, i;

	if (!nk_instance_valid(nk) || pers == NULL)
		return NULL;
	/* Slots are only ever appended, and published with release. */
	nr = __atomic_load_n(&nk->nr_personalities, __ATOMIC_ACQUIRE);
	for (i = 0; i < nr; i++)
		if (nk->personalities[i].pers == pers)
			return nk->personalities[i].state;
	return NULL;
}

int nk_thread_attach(struct nk_thread *thread,
		     const struct nk_personality *pers, void **ext)
{
	struct nk_instance *nk;
	void *data = NULL;
	int ret = 0, slot;

	if (!nk_thread_valid(thread) || pers == NULL)
		return -EINVAL;
	nk = thread->nk;
	nk_lock_acquire(nk);
	slot = slot_of(nk, pers);
	if (slot < 0 || nk_thread_is_root(thread)) {
		ret = -EINVAL;
	} else if (thread->state & NK_THREAD_ZOMBIE) {
		ret = -ESRCH;
	} else if (thread->pers_attached[slot]) {
		data = thread->pers_ext[slot];
	} else {
		if (pers->thread_size) {
			data = nk_alloc(nk, pers->thread_size);
			if (data == NULL)
				ret = -ENOMEM;
		}
		if (ret == 0 && pers->attach)
			ret = pers->attach(thread, data);
		if (ret == 0) {
			thread->pers_ext[slot] = data;
			thread->pers_attached[slot] = true;
			thread->pers_order[thread->nr_attached++] =
			    (unsigned char)slot;
		} else {
			nk_free(nk, data);
			data = NULL;
		}
	}
	if (ret == 0 && ext)
		*ext = data;
	nk_lock_release(nk);
	return ret;
}

void *nk_thread_personality(struct nk_thread *thread,
			    const struct nk_personality *pers)
{
	int slot;

	if (!nk_thread_valid(thread) || pers == NULL)
		return NULL;
	slot = slot_of(thread->nk, pers);
	return slot < 0 ? NULL : thread->pers_ext[slot];
}

/*
 * Run @thread's exit hooks or, with @finalize, its finalize hooks and
 * free its extensions: newest personality first.
 */
/*
 * A thread of another process sharing the instance (a dead member's, at
 * its cleanup) runs no hook: its skins are that process's code, in that
 * process's slots.  Its extensions go all the same.
 */
static void thread_hooks(struct nk_thread *thread, bool finalize)
{
	struct nk_instance *nk = thread->nk;
	bool ours = thread->member == nk->member;

	for (int i = thread->nr_attached - 1; i >= 0; i--) {
		int slot = thread->pers_order[i];
		const struct nk_personality *pers =
		    ours ? nk->personalities[slot].pers : NULL;
		void (*hook)(struct nk_thread *, void *) = pers == NULL ? NULL
							   : finalize
							       ? pers->finalize
							       : pers->exit;

		if (hook)
			hook(thread, thread->pers_ext[slot]);
		if (finalize) {
			nk_free(nk, thread->pers_ext[slot]);
			thread->pers_ext[slot] = NULL;
			thread->pers_attached[slot] = false;
		}
	}
	if (finalize)
		thread->nr_attached = 0;
}

void nk_personality_exit(struct nk_thread *thread)
{
	thread_hooks(thread, false);
}

void nk_personality_finalize(struct nk_thread *thread)
{
	thread_hooks(thread, true);
}

void nk_personality_fini_all(struct nk_instance *nk)
{
	for (int i = nk->nr_personalities - 1; i >= 0; i--) {
		struct nk_personality_slot *slot = &nk->personalities[i];

		if (slot->pers->fini)
			slot->pers->fini(nk, slot->state);
		nk_free(nk, slot->state);
	}
	nk->nr_personalities = 0;
}

struct each_ctx {
	void (*fn)(void *ctx, const char *skin,
		   const struct nk_object_info *info);
	void *ctx;
	const char *skin;
};

static void each_emit(void *ctx, const struct nk_object_info *info)
{
	struct each_ctx *ec = ctx;

	ec->fn(ec->ctx, ec->skin, info);
}

void nk_objects_each(struct nk_instance *nk,
		     void (*fn)(void *ctx, const char *skin,
				const struct nk_object_info *info),
		     void *ctx)
{
	struct each_ctx ec = {.fn = fn, .ctx = ctx};

	for (int i = 0; i < nk->nr_personalities; i++) {
		const struct nk_personality_slot *slot = &nk->personalities[i];

		if (slot->pers->objects == NULL)
			continue;
		ec.skin = slot->pers->name;
		slot->pers->objects(nk, slot->state, each_emit, &ec);
	}
}
