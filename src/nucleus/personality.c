/* SPDX-License-Identifier: MIT */
/*
 * Personalities: per-instance skin state and per-thread extensions,
 * with the hooks that keep them in step with thread lifetimes.
 *
 * An instance holds up to NK_MAX_PERSONALITIES slots, named in its core
 * so that the members of a session agree on them: the first to
 * register a name makes the slot and its state, every other process
 * binds its own hooks (its copy of the skin) to it.  A thread's
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
	int nr = __atomic_load_n(&nk->nr_personalities, __ATOMIC_ACQUIRE);

	for (int i = 0; i < nr; i++)
		if (__atomic_load_n(&nk->personalities[i].pers,
				    __ATOMIC_ACQUIRE) == pers)
			return i;
	return -1;
}

/* The core's slot named @name, or -1.  Lock held. */
static int core_slot(struct nk_core *core, const char *name)
{
	for (int i = 0; i < core->nr_personalities; i++)
		if (strcmp(core->personalities[i].name, name) == 0)
			return i;
	return -1;
}

/* A new slot in the core for @pers, its state set up.  Lock held. */
static int core_add(struct nk_instance *nk, const struct nk_personality *pers)
{
	struct nk_core *core = nk->core;
	struct nk_core_personality *slot;
	void *state = NULL;
	int ret;

	if (strlen(pers->name) >= sizeof(slot->name))
		return -EINVAL;
	if (core->nr_personalities == NK_MAX_PERSONALITIES)
		return -ENOSPC;
	if (pers->state_size) {
		state = nk_alloc(nk, pers->state_size);
		if (state == NULL)
			return -ENOMEM;
	}
	ret = pers->init ? pers->init(nk, state) : 0;
	if (ret) {
		nk_free(nk, state);
		return ret;
	}
	slot = &core->personalities[core->nr_personalities];
	nk_journal_obj(slot);
	nk_journal_obj(&core->nr_personalities);
	strcpy(slot->name, pers->name);
	slot->state = state;
	return core->nr_personalities++;
}

/*
 * Bind @pers in this process to its slot, by name: the one another
 * member made, or a new one.  Returns the slot or a -errno.  Lock held.
 */
static int slot_bind(struct nk_instance *nk, const struct nk_personality *pers)
{
	int slot = core_slot(nk->core, pers->name);

	/* Another personality of this process under that name. */
	if (slot >= 0 && nk->personalities[slot].pers)
		return -EINVAL;
	if (slot < 0)
		slot = core_add(nk, pers);
	if (slot < 0)
		return slot;
	nk->personalities[slot].state = nk->core->personalities[slot].state;
	/* Published last: readers without the lock see a whole slot. */
	__atomic_store_n(&nk->personalities[slot].pers, pers, __ATOMIC_RELEASE);
	if (slot >= nk->nr_personalities)
		__atomic_store_n(&nk->nr_personalities, slot + 1,
				 __ATOMIC_RELEASE);
	return slot;
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
	if (slot < 0)
		slot = slot_bind(nk, pers);
	if (slot < 0)
		ret = slot;
	if (ret == 0 && state)
		*state = nk->personalities[slot].state;
	nk_lock_release(nk);
	return ret;
}

void *nk_personality_state(struct nk_instance *nk,
			   const struct nk_personality *pers)
{
	int slot;

	if (!nk_instance_valid(nk) || pers == NULL)
		return NULL;
	slot = slot_of(nk, pers);
	return slot < 0 ? NULL : nk->personalities[slot].state;
}

const struct nk_personality *nk_personality_of(struct nk_instance *nk,
					       const void *state)
{
	int nr;

	if (!nk_instance_valid(nk) || state == NULL)
		return NULL;
	nr = __atomic_load_n(&nk->nr_personalities, __ATOMIC_ACQUIRE);
	for (int i = 0; i < nr; i++) {
		const struct nk_personality *pers = __atomic_load_n(
		    &nk->personalities[i].pers, __ATOMIC_ACQUIRE);

		if (pers && nk->personalities[i].state == state)
			return pers;
	}
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
			nk_journal_obj(thread);
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

void nk_journal_thread(struct nk_thread *thread)
{
	nk_journal_obj(thread);
	for (int i = 0; i < thread->nr_attached; i++) {
		int slot = thread->pers_order[i];
		const struct nk_personality *pers =
		    thread->nk->personalities[slot].pers;

		nk_journal_block(thread->pers_ext[slot]);
		if (pers && pers->tcb)
			nk_journal_block(pers->tcb(thread->pers_ext[slot]));
	}
}

void *nk_thread_personality(struct nk_thread *thread,
			    const struct nk_personality *pers)
{
	int slot;

	if (!nk_thread_valid(thread) || pers == NULL)
		return NULL;
	slot = slot_of(thread->nk, pers);
	if (slot < 0)
		return NULL;
	/* Found to be changed, most often: noted under the lock. */
	nk_journal_block(thread->pers_ext[slot]);
	return thread->pers_ext[slot];
}

/*
 * Run @thread's exit hooks or, with @finalize, its finalize hooks and
 * free its extensions: newest personality first.  The hooks are this
 * process's, whoever's the thread (a dead member's, at its cleanup):
 * every member runs the same library, and a hook leaves alone what
 * only the thread's own process holds (nk_thread_here()).  A
 * personality this process never registered runs none; the
 * extensions go all the same.
 */
static void thread_hooks(struct nk_thread *thread, bool finalize)
{
	struct nk_instance *nk = thread->nk;

	if (finalize)
		nk_journal_obj(thread);
	for (int i = thread->nr_attached - 1; i >= 0; i--) {
		int slot = thread->pers_order[i];
		const struct nk_personality *pers =
		    nk->personalities[slot].pers;
		void (*hook)(struct nk_thread *, void *) = pers == NULL ? NULL
							   : finalize
							       ? pers->finalize
							       : pers->exit;

		/* The hooks change the extension (of any thread: a
		 * deletion's) under the lock. */
		nk_journal_block(thread->pers_ext[slot]);
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

/*
 * The last one out runs the fini hooks of the personalities it binds;
 * the states of those it does not (a dead member's skin) go with the
 * instance's memory, in the session's block.
 */
void nk_personality_end(struct nk_instance *nk, bool last)
{
	for (int i = nk->nr_personalities - 1; i >= 0; i--) {
		struct nk_personality_slot *slot = &nk->personalities[i];

		if (slot->pers == NULL)
			continue;
		if (!last) {
			if (slot->pers->leave)
				slot->pers->leave(nk, slot->state);
			continue;
		}
		if (slot->pers->fini)
			slot->pers->fini(nk, slot->state);
		nk_free(nk, slot->state);
	}
	if (last) {
		nk_journal_obj(&nk->core->nr_personalities);
		nk->core->nr_personalities = 0;
	}
	nk->nr_personalities = 0;
}

void nk_personality_member_gone(struct nk_instance *nk, int member)
{
	for (int i = 0; i < nk->nr_personalities; i++) {
		struct nk_personality_slot *slot = &nk->personalities[i];

		if (slot->pers && slot->pers->member_gone)
			slot->pers->member_gone(nk, slot->state, member);
	}
}

struct each_ctx {
	bool (*fn)(void *ctx, const char *skin,
		   const struct nk_object_info *info);
	void *ctx;
	const char *skin;
};

static bool each_emit(void *ctx, const struct nk_object_info *info)
{
	struct each_ctx *ec = ctx;

	return ec->fn(ec->ctx, ec->skin, info);
}

bool nk_objects_walk(struct nk_instance *nk, struct nk_objects_walk *w,
		     bool (*fn)(void *ctx, const char *skin,
				const struct nk_object_info *info),
		     void *ctx)
{
	struct each_ctx ec = {.fn = fn, .ctx = ctx};

	for (; w->pers < nk->nr_personalities;
	     w->pers++, w->in = (struct nk_objects_cursor){0}) {
		const struct nk_personality_slot *slot =
		    &nk->personalities[w->pers];

		if (slot->pers == NULL || slot->pers->objects == NULL)
			continue;
		ec.skin = slot->pers->name;
		if (!slot->pers->objects(nk, slot->state, &w->in, &w->budget,
					 each_emit, &ec))
			return false;
	}
	return true;
}
