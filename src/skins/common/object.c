/* SPDX-License-Identifier: MIT */
/*
 * The common object layer: skin entry, object classes with tagged
 * handles, names in the instance's registry, binding and deletion.
 */
#include "skin.h"

#include <stdio.h>
#include <string.h>

/* A skin handle: the class tag above the registry handle. */
static uintptr_t make_handle(const struct skin_class_state *c, nk_handle_t h)
{
	return (uintptr_t)c->tag << 32 | h;
}

int skin_error(const struct skin_desc *desc, int err)
{
	return err && desc->error ? desc->error(err) : err;
}

/* Intern "<skin>[.<suffix>]" in @reg into *@ns.  Lock held. */
static int intern(const struct skin_desc *desc, struct nk_registry *reg,
		  const char *suffix, uint32_t *ns)
{
	char name[NK_NAME_MAX];
	int n;

	n = suffix
		? snprintf(name, sizeof(name), "%s.%s", desc->pers.name, suffix)
		: snprintf(name, sizeof(name), "%s", desc->pers.name);
	if (n < 0 || (size_t)n >= sizeof(name))
		return -EINVAL;
	return nk_registry_namespace(reg, name, ns);
}

/*
 * First entry of @desc into @nk: tag the classes, intern their
 * namespaces, prepare the binders' queues and the time base.  Readers
 * find the state without the lock, so it is published ready (desc set)
 * last; a failure leaves it unready, to be set up again by the next
 * entry.  Lock held.
 */
static int skin_setup(const struct skin_desc *desc, struct nk_instance *nk,
		      struct skin *sk)
{
	int ret;

	sk->nk = nk;
	sk->reg = nk_instance_registry(nk);
	ret = nk_tbase_init(nk, &sk->tbase, sk->tick ? sk->tick : desc->tick);
	for (unsigned int i = 0; i < desc->nr_classes && ret == 0; i++) {
		struct skin_class_state *c = &sk->classes[i];

		c->local = desc->classes[i].local;
		ret = intern(desc, sk->reg, desc->classes[i].name, &c->tag);
		if (ret == 0)
			ret = desc->shared_names
				  ? intern(desc, sk->reg, NULL, &c->ns)
				  : (c->ns = c->tag, 0);
		if (ret == 0)
			ret = nk_synch_init(nk, &c->binders,
					    desc->classes[i].name,
					    NK_SYNCH_FIFO, 0);
	}
	if (ret == 0)
		__atomic_store_n(&sk->ready, true, __ATOMIC_RELEASE);
	return ret;
}

int skin_enter_slow(const struct skin_desc *desc, struct nk_instance **nkp,
		    struct skin **skp)
{
	struct nk_instance *nk;
	struct skin *sk;
	int ret;

	ret = fusion_runtime(&nk);
	if (ret)
		return skin_error(desc, ret);
	nk_lock(nk);
	ret = nk_personality_register(nk, &desc->pers, (void **)&sk);
	if (ret == 0)
		nk_journal_block(sk);
	if (ret == 0 && !__atomic_load_n(&sk->ready, __ATOMIC_RELAXED))
		ret = skin_setup(desc, nk, sk);
	nk_unlock(nk);
	if (ret)
		return skin_error(desc, ret);
	*nkp = nk;
	*skp = sk;
	return 0;
}

int skin_enter(const struct skin_desc *desc, struct nk_instance **nkp,
	       struct skin **skp)
{
	struct nk_instance *nk;
	struct skin *sk = skin_entered(desc, &nk);

	if (sk == NULL) {
		int ret = skin_enter_slow(desc, &nk, &sk);

		if (ret)
			return ret;
	}
	if (nkp)
		*nkp = nk;
	if (skp)
		*skp = sk;
	return 0;
}

/*
 * Unregister the objects of every class (of the local ones only with
 * @locals_only) that are shared or were made by member @member, and
 * with @reclaim free them with their class's reclaim hook (a class
 * without one keeps its objects then).  Lock held.
 */
static void skin_drop(struct skin *sk, bool locals_only, int member,
		      bool reclaim)
{
	const struct skin_desc *desc = skin_desc_of(sk);
	struct nk_registry_entry e;

	/* Never set up: nothing was registered. */
	if (!sk->ready)
		return;
	for (unsigned int i = 0; i < desc->nr_classes; i++) {
		const struct skin_class_state *c = &sk->classes[i];
		unsigned int type = c->local ? c->tag | (unsigned int)member
							    << SKIN_MEMBER_SHIFT
					     : c->tag;
		uint32_t cursor = 0;

		if ((locals_only && !c->local) ||
		    (reclaim && desc->classes[i].reclaim == NULL))
			continue;
		while (nk_registry_next(sk->reg, c->ns, &cursor, &e) == 0) {
			if (e.type != type)
				continue;
			nk_registry_remove(sk->reg, e.handle);
			if (reclaim)
				desc->classes[i].reclaim(sk->nk, e.object);
		}
	}
}

void skin_fini(struct nk_instance *nk, void *state)
{
	skin_drop(state, false, nk_instance_member(nk), true);
}

void skin_leave(struct nk_instance *nk, void *state)
{
	skin_drop(state, true, nk_instance_member(nk), true);
}

void skin_member_gone(struct nk_instance *nk, void *state, int member)
{
	(void)nk;
	skin_drop(state, true, member, false);
}

struct skin *skin_state(const struct skin_desc *desc)
{
	struct nk_instance *nk;

	return skin_entered(desc, &nk);
}

int skin_register_locked(struct skin *sk, unsigned int cls, const char *name,
			 void *object, uintptr_t *handle)
{
	struct skin_class_state *c = &sk->classes[cls];
	nk_handle_t h;
	int ret;

	ret = nk_registry_enter(sk->reg, c->ns, name, skin_type(sk, cls),
				object, &h);
	if (ret)
		return skin_error(skin_desc_of(sk), ret);
	nk_journal_obj(handle);
	*handle = make_handle(c, h);
	if (name && name[0] && nk_synch_flush(&c->binders, NK_WAKE_OK) > 0)
		nk_sched_run(sk->nk);
	return 0;
}

int skin_publish(struct skin *sk, unsigned int cls, const char *name,
		 void *object, uintptr_t *handle)
{
	int ret;

	nk_lock(sk->nk);
	ret = skin_register_locked(sk, cls, name, object, handle);
	nk_unlock(sk->nk);
	return ret;
}

void skin_unregister_locked(struct skin *sk, uintptr_t handle)
{
	nk_registry_remove(sk->reg, (nk_handle_t)handle);
}

void skin_unlink_locked(struct skin *sk, uintptr_t handle)
{
	nk_registry_unlink(sk->reg, (nk_handle_t)handle);
}

int skin_delete(const struct skin_desc *desc, unsigned int cls,
		const uintptr_t *handle,
		int (*refuse)(struct nk_instance *nk, void *object))
{
	struct nk_instance *nk;
	void *object;
	int ret;

	ret = skin_get(desc, cls, handle, &nk, &object);
	if (ret)
		return ret;
	ret = refuse ? refuse(nk, object) : 0;
	if (ret == 0) {
		/* Nobody runs before the unlock: the order does not matter. */
		nk_registry_remove(nk_instance_registry(nk),
				   (nk_handle_t)*handle);
		desc->classes[cls].reclaim(nk, object);
		nk_sched_run(nk);
	}
	nk_unlock(nk);
	return ret;
}

void skin_name_locked(struct skin *sk, uintptr_t handle, char *buf)
{
	if (nk_registry_name(sk->reg, (nk_handle_t)handle, buf, NK_NAME_MAX))
		buf[0] = '\0';
}

int skin_find_locked(struct skin *sk, unsigned int cls, const char *name,
		     uintptr_t *handle)
{
	struct skin_class_state *c = &sk->classes[cls];
	nk_handle_t h;
	void *object;

	/* In a shared namespace, the name may be another class's: then
	 * this class's object is not there. */
	if (name == NULL || name[0] == '\0' ||
	    nk_registry_find(sk->reg, c->ns, name, &h) != 0 ||
	    nk_registry_lookup(sk->reg, h, skin_type(sk, cls), &object) != 0)
		return -ESRCH;
	*handle = make_handle(c, h);
	return 0;
}

/* Wait until @name exists in class @cls.  Lock held. */
static int bind_wait(struct skin *sk, unsigned int cls, const char *name,
		     uintptr_t *handle, struct skin_timeout to)
{
	struct skin_class_state *c = &sk->classes[cls];
	int ret;

	if (to.error)
		return to.error;
	if (name == NULL || name[0] == '\0' || strlen(name) >= NK_NAME_MAX)
		return -EINVAL;
	/* Every creation wakes the binders; keep one deadline across. */
	to = skin_deadline(sk->nk, to);
	for (;;) {
		if (skin_find_locked(sk, cls, name, handle) == 0)
			return 0;
		if (skin_nonblocking(to))
			return -EWOULDBLOCK;
		ret = nk_synch_sleep(&c->binders, to.value, to.mode);
		if (ret)
			return ret;
	}
}

int skin_bind(const struct skin_desc *desc, unsigned int cls, uintptr_t *handle,
	      const char *name, struct skin_timeout to)
{
	struct nk_instance *nk;
	struct skin *sk;
	int ret;

	if (handle == NULL)
		return skin_error(desc, -EINVAL);
	ret = skin_enter(desc, &nk, &sk);
	if (ret)
		return ret;
	nk_lock(nk);
	ret = bind_wait(sk, cls, name, handle, to);
	nk_unlock(nk);
	return skin_error(desc, ret);
}

int skin_unbind(uintptr_t *handle)
{
	if (handle == NULL)
		return -EINVAL;
	*handle = 0;
	return 0;
}

int skin_list_locked(struct skin *sk, unsigned int cls, uint32_t *cursor,
		     struct skin_entry *entry)
{
	return skin_list_within(sk, cls, cursor, UINT32_MAX, entry);
}

int skin_list_within(struct skin *sk, unsigned int cls, uint32_t *cursor,
		     uint32_t max, struct skin_entry *entry)
{
	struct nk_registry_entry e;
	struct skin_class_state *c;
	uint32_t from;
	int ret;

	if (sk == NULL || cursor == NULL ||
	    cls >= skin_desc_of(sk)->nr_classes)
		return -EINVAL;
	c = &sk->classes[cls];
	from = *cursor;
	/* A shared namespace holds the other classes too, and a local
	 * class the objects of other processes: skip them. */
	while ((ret = nk_registry_next_within(sk->reg, c->ns, cursor,
					      max - (*cursor - from), &e)) ==
	       0)
		if (e.type == skin_type(sk, cls))
			break;
	if (ret)
		return ret;
	entry->handle = make_handle(c, e.handle);
	entry->object = e.object;
	memcpy(entry->name, e.name, sizeof(entry->name));
	return 0;
}
