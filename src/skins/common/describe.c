/* SPDX-License-Identifier: MIT */
/*
 * The debugger's view of a skin's objects (fusion sim): every object of
 * every class with a describe hook, in registry order, as the class
 * describes it; and the describe hooks of objects that are nucleus
 * semaphores or mutexes, which several skins share.
 */
#include "skin.h"

bool skin_objects(struct nk_instance *nk, void *state,
		  struct nk_objects_cursor *at, uint32_t *budget,
		  bool (*emit)(void *ctx, const struct nk_object_info *info),
		  void *ctx)
{
	struct skin *sk = state;
	const struct skin_desc *desc;
	struct skin_entry e;

	(void)nk;
	/* Never set up: nothing was registered. */
	if (!sk->ready)
		return true;
	desc = skin_desc_of(sk);
	/* The registry's cursor is a slot's index: safe to go on from. */
	for (; at->cls < desc->nr_classes; at->cls++, at->slot = 0) {
		const struct skin_class *cls = &desc->classes[at->cls];

		if (cls->describe == NULL)
			continue;
		for (;;) {
			uint32_t from = at->slot;
			int ret = skin_list_within(sk, at->cls, &at->slot,
						   *budget, &e);
			struct nk_object_info info = {
			    .cls = cls->name,
			    .name = e.name,
			    .count = -1,
			};

			*budget -= at->slot - from;
			if (ret == -EAGAIN)
				return false;
			if (ret)
				break;
			cls->describe(e.object, &info);
			if (!emit(ctx, &info))
				return false;
		}
	}
	return true;
}

void skin_describe_sem(const void *object, struct nk_object_info *info)
{
	const struct nk_sem *sem = object;

	info->count = (long)sem->count;
	info->waiters = &sem->synch;
}

void skin_describe_mutex(const void *object, struct nk_object_info *info)
{
	const struct nk_mutex *mutex = object;

	info->count = (long)mutex->depth;
	info->owner = mutex->synch.owner;
	info->waiters = &mutex->synch;
}

void skin_describe_synch(const void *object, struct nk_object_info *info)
{
	info->waiters = object;
}
