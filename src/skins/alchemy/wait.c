/* Waiting with a request on events, queues, buffers, heaps (wait.h). */
#include "wait.h"

#include <stdlib.h>
#include <string.h>

int alchemy_waitable_alloc(const char *name, size_t size,
			   struct nk_instance **nk, void **object)
{
	int ret;

	if (name && strlen(name) >= XNOBJECT_NAME_LEN)
		return -EINVAL;
	ret = alchemy_enter_object(nk);
	if (ret)
		return ret;
	*object = calloc(1, size);
	return *object ? 0 : -ENOMEM;
}

int alchemy_waitable_create(
    struct nk_instance *nk, enum alchemy_class_id id, const char *name,
    void *object,
    int (*setup)(struct nk_instance *nk, void *object, const char *wname),
    void (*release)(struct nk_instance *nk, void *object), uintptr_t *handle)
{
	int ret = setup(nk, object, alchemy_synch_name(id, name));

	if (ret == 0)
		ret = alchemy_publish(nk, id, name, object, handle);
	if (ret)
		release(nk, object);
	return ret;
}

int alchemy_wait_init(struct nk_instance *nk, struct nk_synch *synch,
		      const char *name, bool by_prio)
{
	return nk_synch_init(nk, synch, name,
			     by_prio ? NK_SYNCH_PRIO : NK_SYNCH_FIFO, 0);
}

void alchemy_wait_destroy(struct nk_instance *nk, struct nk_synch *synch)
{
	nk_lock(nk);
	nk_synch_destroy_locked(synch);
	nk_unlock(nk);
}

int alchemy_wait_sleep(enum alchemy_class_id id, uintptr_t handle, void *object,
		       struct nk_synch *synch, void *ctx,
		       struct alchemy_timeout to)
{
	void *now;
	int ret = nk_synch_sleep_ctx(synch, ctx, to.value, to.mode);

	/* Served, but the object (and what it gave) went meanwhile. */
	if (ret == 0 && (alchemy_lookup(id, handle, &now) || now != object))
		return -EIDRM;
	return ret;
}

int alchemy_wait_serve(struct nk_synch *synch,
		       bool (*serve)(void *ctx, void *arg), void *arg, bool all)
{
	struct nk_thread *next = nk_synch_next_waiter(synch, NULL);
	int n = 0;

	while (next) {
		struct nk_thread *t = next;

		/* Waking @t unlinks it: find its successor first. */
		next = nk_synch_next_waiter(synch, t);
		if (!serve(nk_synch_waiter_ctx(t), arg))
			continue;
		nk_synch_wakeup_this(synch, t);
		n++;
		if (!all)
			break;
	}
	return n;
}
