/*
 * Alchemy object classes: registration, lookup, deletion, binding by
 * name; and the conversion of Alchemy timeouts.
 */
#include "internal.h"

#include <pthread.h>
#include <string.h>

static const char *const class_names[ALCHEMY_NR_CLASSES] = {
    [ALCHEMY_TASK] = "task",	 [ALCHEMY_SEM] = "sem",
    [ALCHEMY_MUTEX] = "mutex",	 [ALCHEMY_COND] = "cond",
    [ALCHEMY_EVENT] = "event",	 [ALCHEMY_QUEUE] = "queue",
    [ALCHEMY_BUFFER] = "buffer", [ALCHEMY_HEAP] = "heap",
    [ALCHEMY_ALARM] = "alarm",	 [ALCHEMY_PIPE] = "pipe",
};

static struct alchemy_class classes[ALCHEMY_NR_CLASSES];
static struct nk_instance *skin_nk;
static int skin_error;
static pthread_once_t skin_once = PTHREAD_ONCE_INIT;

static void skin_init(void)
{
	skin_error = fusion_runtime(&skin_nk);
	for (int i = 0; i < ALCHEMY_NR_CLASSES && skin_error == 0; i++) {
		struct alchemy_class *c = &classes[i];

		c->name = class_names[i];
		c->type = (unsigned int)i + 1;
		skin_error = nk_registry_init(&c->reg, 0x1000);
		if (skin_error == 0)
			skin_error = nk_synch_init(skin_nk, &c->binders,
						   c->name, NK_SYNCH_FIFO, 0);
	}
}

int alchemy_enter(struct nk_instance **nk)
{
	pthread_once(&skin_once, skin_init);
	*nk = skin_nk;
	return skin_error;
}

int alchemy_enter_thread(struct nk_instance **nk)
{
	int ret = alchemy_enter(nk);

	if (ret == 0 && nk_thread_self(*nk) == NULL)
		ret = -EPERM;
	return ret;
}

struct alchemy_class *alchemy_class(enum alchemy_class_id id)
{
	return &classes[id];
}

int alchemy_register(enum alchemy_class_id id, const char *name, void *object,
		     uintptr_t *handle)
{
	struct alchemy_class *c = &classes[id];
	nk_handle_t h;
	int ret;

	if (name && name[0] == '\0')
		name = NULL;
	ret = nk_registry_enter(&c->reg, NK_NS_DEFAULT, name, c->type, object, &h);
	if (ret == -ENOSPC)
		return -ENOMEM;
	if (ret)
		return ret;
	*handle = (uintptr_t)c->type << 32 | h;
	if (name && nk_synch_flush(&c->binders, NK_WAKE_OK) > 0)
		nk_sched_run(skin_nk);
	return 0;
}

int alchemy_publish(struct nk_instance *nk, enum alchemy_class_id id,
		    const char *name, void *object, uintptr_t *handle)
{
	int ret;

	nk_lock(nk);
	ret = alchemy_register(id, name, object, handle);
	nk_unlock(nk);
	return ret;
}

void alchemy_unregister(enum alchemy_class_id id, uintptr_t handle)
{
	nk_registry_remove(&classes[id].reg, (nk_handle_t)handle);
}

int alchemy_lookup(enum alchemy_class_id id, uintptr_t handle, void **object)
{
	struct alchemy_class *c = &classes[id];

	/* A descriptor of a process that never initialised the skin, or
	 * of another class: handles carry their class above bit 32. */
	if (skin_nk == NULL || handle >> 32 != c->type)
		return -EINVAL;
	if (nk_registry_lookup(&c->reg, (nk_handle_t)handle, c->type, object))
		return -EINVAL;
	return 0;
}

int alchemy_get(enum alchemy_class_id id, const uintptr_t *handle,
		struct nk_instance **nk, void **object)
{
	int ret;

	if (handle == NULL)
		return -EINVAL;
	ret = alchemy_enter(nk);
	if (ret)
		return ret;
	nk_lock(*nk);
	ret = alchemy_lookup(id, *handle, object);
	if (ret)
		nk_unlock(*nk);
	return ret;
}

int alchemy_delete(enum alchemy_class_id id, const uintptr_t *handle,
		   int (*destroy)(struct nk_instance *nk, void *object))
{
	struct nk_instance *nk;
	void *object;
	int ret;

	ret = alchemy_get(id, handle, &nk, &object);
	if (ret)
		return ret;
	/* Nobody runs before the unlock: the order does not matter. */
	ret = destroy(nk, object);
	if (ret == 0) {
		alchemy_unregister(id, *handle);
		nk_sched_run(nk);
	}
	nk_unlock(nk);
	return ret;
}

/* Wait until @name exists in the class.  Lock held. */
static int bind_wait(enum alchemy_class_id id, const char *name,
		     uintptr_t *handle, struct alchemy_timeout to)
{
	struct alchemy_class *c = &classes[id];
	nk_handle_t h;
	int ret;

	if (name == NULL || name[0] == '\0' || strlen(name) >= NK_NAME_MAX)
		return -EINVAL;
	/* Every creation wakes the binders; keep one deadline across. */
	to = alchemy_deadline(skin_nk, to);
	for (;;) {
		if (nk_registry_find(&c->reg, NK_NS_DEFAULT, name, &h) == 0) {
			*handle = (uintptr_t)c->type << 32 | h;
			return 0;
		}
		if (alchemy_nonblock(to))
			return -EWOULDBLOCK;
		ret = nk_synch_sleep(&c->binders, to.value, to.mode);
		if (ret)
			return ret;
	}
}

int alchemy_bind(enum alchemy_class_id id, uintptr_t *handle, const char *name,
		 RTIME timeout)
{
	struct nk_instance *nk;
	int ret;

	if (handle == NULL)
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	nk_lock(nk);
	ret = bind_wait(id, name, handle, alchemy_rel(timeout));
	nk_unlock(nk);
	return ret;
}

int alchemy_unbind(uintptr_t *handle)
{
	if (handle == NULL)
		return -EINVAL;
	*handle = 0;
	return 0;
}

void alchemy_name(enum alchemy_class_id id, uintptr_t handle, char *buf)
{
	if (nk_registry_name(&classes[id].reg, (nk_handle_t)handle, buf,
			     XNOBJECT_NAME_LEN))
		buf[0] = '\0';
}

struct alchemy_timeout alchemy_rel(RTIME timeout)
{
	struct alchemy_timeout to = {.mode = NK_RELATIVE};

	if (timeout == TM_INFINITE)
		to.value = NK_INFINITE;
	else if (timeout == TM_NONBLOCK)
		to.value = 0;
	else
		to.value = timeout > (RTIME)INT64_MAX - 1 ? NK_INFINITE
							  : (nk_time_t)timeout;
	return to;
}

struct alchemy_timeout alchemy_abs(RTIME date)
{
	struct alchemy_timeout to = {.mode = NK_ABSOLUTE};

	if (date == TM_INFINITE || date == TM_NONBLOCK)
		return alchemy_rel(date);
	to.value = date > (RTIME)INT64_MAX - 1 ? NK_INFINITE : (nk_time_t)date;
	return to;
}

struct alchemy_timeout alchemy_timespec(const struct timespec *date)
{
	struct alchemy_timeout to = {.mode = NK_ABSOLUTE};

	if (date == NULL)
		return alchemy_rel(TM_INFINITE);
	if (date->tv_sec < 0 || date->tv_nsec < 0 ||
	    date->tv_nsec >= 1000000000L) {
		to.error = -EINVAL;
		return to;
	}
	if (date->tv_sec == 0 && date->tv_nsec == 0)
		return alchemy_rel(TM_NONBLOCK);
	if (date->tv_sec > (INT64_MAX - date->tv_nsec) / 1000000000LL)
		to.value = NK_INFINITE;
	else
		to.value =
		    (nk_time_t)date->tv_sec * 1000000000LL + date->tv_nsec;
	return to;
}

struct alchemy_timeout alchemy_deadline(struct nk_instance *nk,
					struct alchemy_timeout to)
{
	nk_time_t now;

	if (to.mode != NK_RELATIVE || to.value == NK_INFINITE || to.value <= 0)
		return to;
	now = nk_now(nk);
	to.value = to.value > NK_INFINITE - now ? NK_INFINITE : to.value + now;
	to.mode = NK_ABSOLUTE;
	return to;
}
