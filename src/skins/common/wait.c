/* SPDX-License-Identifier: MIT */
/* Waiting with a request, and creating objects with wait queues (skin.h). */
#include "skin.h"

int skin_wait_init(struct nk_instance *nk, struct nk_synch *synch,
		   const char *name, bool by_prio)
{
	return nk_synch_init(nk, synch, name,
			     by_prio ? NK_SYNCH_PRIO : NK_SYNCH_FIFO, 0);
}

void skin_wait_destroy(struct nk_instance *nk, struct nk_synch *synch)
{
	nk_lock(nk);
	nk_synch_destroy_locked(synch);
	nk_unlock(nk);
}

int skin_wait_sleep_locked(struct skin *sk, unsigned int cls, uintptr_t handle,
			   void *object, struct nk_synch *synch, void *ctx,
			   size_t size, struct skin_timeout to)
{
	void *now;
	int ret = nk_synch_sleep_ctx(synch, ctx, size, to.value, to.mode);

	/* Served, but the object (and what it gave) went meanwhile. */
	if (ret == 0 &&
	    (skin_lookup_locked(sk, cls, handle, &now) || now != object))
		return -EIDRM;
	return ret;
}

int skin_wait_serve_locked(struct nk_synch *synch,
			   bool (*serve)(struct nk_thread *waiter, void *ctx,
					 void *arg),
			   void *arg, bool all)
{
	struct nk_thread *next = nk_synch_next_waiter(synch, NULL);
	int n = 0;

	while (next) {
		struct nk_thread *t = next;

		/* Waking @t unlinks it: find its successor first. */
		next = nk_synch_next_waiter(synch, t);
		if (!serve(t, nk_synch_waiter_ctx(t), arg))
			continue;
		nk_synch_wakeup_this(synch, t);
		n++;
		if (!all)
			break;
	}
	return n;
}

int skin_create(
    struct skin *sk, unsigned int cls, const char *name, void *object,
    int (*setup)(struct nk_instance *nk, void *object, const char *wname),
    void (*release)(struct nk_instance *nk, void *object), uintptr_t *handle)
{
	int ret = setup(sk->nk, object, skin_synch_name(sk, cls, name));

	if (ret == 0)
		ret = skin_publish(sk, cls, name, object, handle);
	if (ret) {
		/* A release is a reclaim hook: it runs with the lock held. */
		nk_lock(sk->nk);
		release(sk->nk, object);
		nk_unlock(sk->nk);
	}
	return ret;
}
