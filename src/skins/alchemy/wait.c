/* Wait records of events, queues, buffers and heaps (see wait.h). */
#include "wait.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A record with its synch ready.  Lock NOT held: malloc may relax. */
static struct alchemy_wait *record_alloc(struct nk_instance *nk, size_t size,
					 const char *name)
{
	struct alchemy_wait *w = malloc(size);

	if (w && nk_synch_init(nk, &w->synch, name, NK_SYNCH_FIFO, 0)) {
		free(w);
		w = NULL;
	}
	return w;
}

int alchemy_waitable_init(struct nk_instance *nk, struct alchemy_waitable *wa,
			  enum alchemy_class_id id, const char *name,
			  size_t size)
{
	nk_list_init(&wa->spare);
	wa->size = size;
	/* Too long a name is refused at registration, not here. */
	snprintf(wa->name, sizeof(wa->name), "%s",
		 name && name[0] ? name : alchemy_class(id)->name);
	for (int i = 0; i < ALCHEMY_WAIT_SPARE; i++) {
		struct alchemy_wait *w = record_alloc(nk, size, wa->name);

		if (w == NULL)
			return -ENOMEM;
		nk_list_add_before(&w->link, &wa->spare);
	}
	return 0;
}

int alchemy_waitable_alloc(const char *name, size_t size,
			   struct nk_instance **nk, void **object)
{
	int ret;

	if (name && strlen(name) >= XNOBJECT_NAME_LEN)
		return -EINVAL;
	ret = alchemy_enter_thread(nk);
	if (ret)
		return ret;
	*object = calloc(1, size);
	return *object ? 0 : -ENOMEM;
}

int alchemy_waitable_create(
    struct nk_instance *nk, enum alchemy_class_id id, const char *name,
    size_t record, void *object, int (*setup)(void *object),
    void (*release)(struct nk_instance *nk, void *object), uintptr_t *handle)
{
	int ret = alchemy_waitable_init(nk, object, id, name, record);

	if (ret == 0)
		ret = setup(object);
	if (ret == 0)
		ret = alchemy_publish(nk, id, name, object, handle);
	if (ret)
		release(nk, object);
	return ret;
}

void alchemy_wait_drop(struct nk_instance *nk, struct nk_list *list)
{
	nk_lock(nk);
	while (!nk_list_empty(list)) {
		struct alchemy_wait *w =
		    nk_list_first_entry(list, struct alchemy_wait, link);

		nk_list_del(&w->link);
		nk_synch_destroy_locked(&w->synch);
		free(w);
	}
	nk_unlock(nk);
}

int alchemy_wait_restock(enum alchemy_class_id id, const uintptr_t *handle,
			 struct nk_instance **nk, void **object)
{
	struct alchemy_waitable *wa = *object;
	char name[XNOBJECT_NAME_LEN];
	size_t size = wa->size;
	struct alchemy_wait *w;
	int ret;

	/* The object may go while the lock is dropped. */
	memcpy(name, wa->name, sizeof(name));
	nk_unlock(*nk);
	w = record_alloc(*nk, size, name);
	if (w == NULL)
		return -ENOMEM;
	ret = alchemy_get(id, handle, nk, object);
	if (ret) {
		nk_synch_destroy(&w->synch);
		free(w);
		return ret;
	}
	wa = *object;
	nk_list_add_before(&w->link, &wa->spare);
	return 0;
}

struct alchemy_wait *alchemy_wait_queue(struct nk_instance *nk,
					struct alchemy_waitable *wa,
					struct nk_list *list, bool by_prio)
{
	struct nk_list *pos = list;
	struct alchemy_wait *w;

	if (nk_list_empty(&wa->spare))
		return NULL;
	w = nk_list_first_entry(&wa->spare, struct alchemy_wait, link);
	nk_list_del(&w->link);
	w->prio = nk_thread_effective_priority(nk_thread_self(nk));
	if (by_prio) {
		for (pos = list->next; pos != list; pos = pos->next)
			if (nk_list_entry(pos, struct alchemy_wait, link)
				->prio < w->prio)
				break;
	}
	nk_list_add_before(&w->link, pos);
	return w;
}

int alchemy_wait_sleep(enum alchemy_class_id id, uintptr_t handle, void *object,
		       struct alchemy_wait *w, struct alchemy_timeout to)
{
	struct alchemy_waitable *wa = object;
	void *now;
	int ret;

	ret = nk_synch_sleep(&w->synch, to.value, to.mode);
	/* Deleted: @w, still linked to the object, went with it. */
	if (alchemy_lookup(id, handle, &now) || now != object)
		return ret ? ret : -EIDRM;
	nk_list_del(&w->link);
	nk_list_add_before(&w->link, &wa->spare);
	return ret;
}

int alchemy_wait_count(struct nk_list *list)
{
	struct nk_list *pos;
	int n = 0;

	nk_list_for_each(pos, list)
	{
		struct alchemy_wait *w =
		    nk_list_entry(pos, struct alchemy_wait, link);

		n += (int)nk_synch_nr_waiters(&w->synch);
	}
	return n;
}
