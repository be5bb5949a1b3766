/* SPDX-License-Identifier: MIT */
/*
 * The RTAI skin on the common object layer: its descriptor (one name
 * space for every class, as RTAI's registry), its one translation of
 * nucleus codes into RTE_* codes, and the calls on names.
 */
#include "internal.h"

#include <stdio.h>

/*
 * A wait's reason as RTAI returns it; a full registry reads as out of
 * memory.  Anything else (-EINVAL...) keeps its errno value, as RTAI's
 * own argument checks return them.
 */
static int rtai_error(int err)
{
	switch (err) {
	case -ETIMEDOUT:
		return RTE_TIMOUT;
	case -EINTR:
		return RTE_UNBLKD;
	case -EIDRM:
		return RTE_OBJREM;
	case -EPERM:
		return RTE_PERM;
	case -EDEADLK:
		return RTE_DEADLOK;
	case -ENOSPC:
		return -ENOMEM;
	default:
		return err;
	}
}

/* Tasks and threads are nucleus threads: the nucleus frees them. */
static const struct skin_class rtai_classes[RTAI_NR_CLASSES] = {
    [RTAI_TASK] = {"task"},
    [RTAI_THREAD] = {"thread"},
    [RTAI_SEM] = {"sem", .bad_handle = RTE_OBJINV, .reclaim = rtai_sem_reclaim,
		  .describe = rtai_sem_describe},
    [RTAI_MBX] = {"mbx", .bad_handle = RTE_OBJINV, .reclaim = rtai_mbx_reclaim,
		  .describe = rtai_mbx_describe},
    [RTAI_BITS] = {"bits", .bad_handle = RTE_OBJINV,
		   .reclaim = rtai_waitable_reclaim,
		   .describe = rtai_bits_describe},
    [RTAI_RWL] = {"rwl", .bad_handle = RTE_OBJINV,
		  .reclaim = rtai_waitable_reclaim,
		  .describe = rtai_rwl_describe},
    [RTAI_SPL] = {"spl", .bad_handle = RTE_OBJINV,
		  .reclaim = rtai_waitable_reclaim,
		  .describe = rtai_spl_describe},
    [RTAI_SHM] = {"shm", .reclaim = rtai_shm_reclaim,
		  .describe = rtai_shm_describe},
};

const struct skin_desc rtai_skin = {
    .pers =
	{
	    .name = "rtai",
	    .state_size = sizeof(struct rtai_state),
	    .thread_size = sizeof(struct rtai_task),
	    .attach = rtai_task_attach,
	    .exit = rtai_task_exit,
	    .finalize = rtai_task_finalize,
	    .fini = rtai_fini,
	    .leave = rtai_leave,
	    .member_gone = skin_member_gone,
	    .objects = skin_objects,
	},
    .classes = rtai_classes,
    .nr_classes = RTAI_NR_CLASSES,
    .shared_names = true,
    .tick = 0, /* oneshot: counts are ns until rt_set_periodic_mode */
    .bad_handle = -EINVAL,
    .error = rtai_error,
};

void rtai_fini(struct nk_instance *nk, void *state)
{
	rtai_fifo_reclaim(nk);
	skin_fini(nk, state);
}

void rtai_leave(struct nk_instance *nk, void *state)
{
	rtai_fifo_reclaim(nk);
	skin_leave(nk, state);
}

void rtai_name(unsigned long num, char *buf)
{
	if (num == 0 || num == RTAI_NAME_NONE)
		buf[0] = '\0';
	else
		num2nam(num, buf);
}

void *rt_get_adr(unsigned long name)
{
	struct nk_instance *nk;
	char key[RTAI_NAME_CHARS + 1];
	uintptr_t handle = 0;
	struct skin *sk;

	rtai_name(name, key);
	if (key[0] == '\0' || skin_enter(&rtai_skin, &nk, &sk))
		return NULL;
	nk_lock(nk);
	for (unsigned int cls = 0; cls < RTAI_NR_CLASSES; cls++)
		if (skin_find_locked(sk, cls, key, &handle) == 0)
			break;
	nk_unlock(nk);
	return rtai_ptr(handle);
}

unsigned long rt_get_name(void *adr)
{
	struct nk_instance *nk;
	char key[NK_NAME_MAX] = "";
	struct skin *sk;
	void *object;

	if (adr == NULL || skin_enter(&rtai_skin, &nk, &sk))
		return 0;
	nk_lock(nk);
	for (unsigned int cls = 0; cls < RTAI_NR_CLASSES; cls++)
		if (skin_lookup_locked(sk, cls, rtai_handle(adr), &object) ==
		    0) {
			skin_name_locked(sk, rtai_handle(adr), key);
			break;
		}
	nk_unlock(nk);
	return key[0] ? nam2num(key) : 0;
}

void *rtai_named_init(unsigned int cls, const char *name,
		      void *(*create)(const char *key, int a, int b), int a,
		      int b)
{
	char key[RTAI_NAME_CHARS + 1];
	struct rtai_named *obj;
	struct nk_instance *nk;
	uintptr_t handle;
	struct skin *sk;
	bool found;
	void *adr;

	if (name == NULL || name[0] == '\0' || skin_enter(&rtai_skin, &nk, &sk))
		return NULL;
	/* Its name as the registry knows it: what nam2num() keeps. */
	rtai_name(nam2num(name), key);
	for (;;) {
		nk_lock(nk);
		if (skin_find_locked(sk, cls, key, &handle) == 0 &&
		    skin_lookup_locked(sk, cls, handle, (void **)&obj) == 0) {
			obj->uses++;
			nk_unlock(nk);
			return rtai_ptr(handle);
		}
		nk_unlock(nk);
		adr = create(key, a, b);
		if (adr)
			return adr;
		/* Made by another thread meanwhile: use it (next round).
		 * Else it failed for good (another class's name...). */
		nk_lock(nk);
		found = skin_find_locked(sk, cls, key, &handle) == 0;
		nk_unlock(nk);
		if (!found)
			return NULL;
	}
}

/* Keep a named object that is still in use.  Lock held. */
static int named_still_used(struct nk_instance *nk, void *object)
{
	struct rtai_named *obj = object;

	(void)nk;
	return --obj->uses > 0 ? obj->uses : 0;
}

int rtai_named_delete(unsigned int cls, void *adr)
{
	uintptr_t handle = rtai_handle(adr);

	return skin_delete(&rtai_skin, cls, &handle, named_still_used);
}

void *rtai_waitable_alloc(size_t size)
{
	struct nk_instance *nk;

	if (rtai_enter(&nk))
		return NULL;
	return nk_alloc(nk, size);
}

static int waitable_setup(struct nk_instance *nk, void *object,
			  const char *wname)
{
	struct rtai_waitable *w = object;

	return skin_wait_init(nk, &w->waiters, wname, true);
}

void rtai_waitable_reclaim(struct nk_instance *nk, void *object)
{
	struct rtai_waitable *w = object;

	nk_synch_destroy_locked(&w->waiters);
	nk_free(nk, object);
}

void *rtai_waitable_publish(unsigned int cls, unsigned long name, void *object)
{
	char key[RTAI_NAME_CHARS + 1];
	uintptr_t handle;

	rtai_name(name, key);
	if (skin_create(rtai(), cls, key, object, waitable_setup,
			rtai_waitable_reclaim, &handle))
		return NULL;
	return rtai_ptr(handle);
}

int rtai_object_delete(unsigned int cls, void *adr)
{
	uintptr_t handle = rtai_handle(adr);

	return skin_delete(&rtai_skin, cls, &handle, NULL);
}
