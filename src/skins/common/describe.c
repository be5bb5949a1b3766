/* SPDX-License-Identifier: MIT */
/*
 * The debugger's view of a skin's objects (fusion sim): every object of
 * every class with a describe hook, in registry order, as the class
 * describes it; and the describe hooks of objects that are nucleus
 * semaphores or mutexes, which several skins share.
 */
#include "skin.h"

void skin_objects(struct nk_instance *nk, void *state,
		  void (*emit)(void *ctx, const struct nk_object_info *info),
		  void *ctx)
{
	struct skin *sk = state;
	const struct skin_desc *desc;
	struct skin_entry e;

	(void)nk;
	/* Never set up: nothing was registered. */
	if (!sk->ready)
		return;
	desc = skin_desc_of(sk);
	for (unsigned int i = 0; i < desc->nr_classes; i++) {
		const struct skin_class *cls = &desc->classes[i];
		uint32_t cursor = 0;

		if (cls->describe == NULL)
			continue;
		while (skin_list_locked(sk, i, &cursor, &e) == 0) {
			struct nk_object_info info = {
			    .cls = cls->name,
			    .name = e.name,
			    .count = -1,
			};

			cls->describe(e.object, &info);
			emit(ctx, &info);
		}
	}
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
