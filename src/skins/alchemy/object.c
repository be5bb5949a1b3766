/* Alchemy object classes: registration, lookup, binding by name. */
#include "internal.h"

#include <pthread.h>
#include <string.h>

static const char *const class_names[ALCHEMY_NR_CLASSES] = {
	[ALCHEMY_TASK] = "task",   [ALCHEMY_SEM] = "sem",
	[ALCHEMY_MUTEX] = "mutex", [ALCHEMY_COND] = "cond",
	[ALCHEMY_EVENT] = "event", [ALCHEMY_QUEUE] = "queue",
	[ALCHEMY_BUFFER] = "buffer", [ALCHEMY_HEAP] = "heap",
	[ALCHEMY_ALARM] = "alarm", [ALCHEMY_PIPE] = "pipe",
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

struct alchemy_class *alchemy_class(enum alchemy_class_id id)
{
	return &classes[id];
}

int alchemy_register(enum alchemy_class_id id, const char *name,
		     void *object, uintptr_t *handle)
{
	struct alchemy_class *c = &classes[id];
	nk_handle_t h;
	int ret;

	if (name && name[0] == '\0')
		name = NULL;
	ret = nk_registry_enter(&c->reg, name, c->type, object, &h);
	if (ret == -ENOSPC)
		return -ENOMEM;
	if (ret)
		return ret;
	*handle = (uintptr_t)c->type << 32 | h;
	if (name && nk_synch_flush(&c->binders, NK_WAKE_OK) > 0)
		nk_sched_run(skin_nk);
	return 0;
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

int alchemy_bind(enum alchemy_class_id id, const char *name,
		 uintptr_t *handle, nk_time_t timeout, enum nk_tmode mode)
{
	struct alchemy_class *c = &classes[id];
	nk_handle_t h;
	int ret;

	if (name == NULL || name[0] == '\0' || strlen(name) >= NK_NAME_MAX)
		return -EINVAL;
	/* Every creation wakes the binders; keep one deadline across. */
	if (mode == NK_RELATIVE && timeout != NK_INFINITE && timeout > 0) {
		timeout += nk_now(skin_nk);
		mode = NK_ABSOLUTE;
	}
	for (;;) {
		if (nk_registry_find(&c->reg, name, &h) == 0) {
			*handle = (uintptr_t)c->type << 32 | h;
			return 0;
		}
		if (alchemy_nonblock(timeout, mode))
			return -EWOULDBLOCK;
		ret = nk_synch_sleep(&c->binders, timeout, mode);
		if (ret)
			return ret;
	}
}

void alchemy_name(enum alchemy_class_id id, uintptr_t handle, char *buf)
{
	if (nk_registry_name(&classes[id].reg, (nk_handle_t)handle, buf,
			     XNOBJECT_NAME_LEN))
		buf[0] = '\0';
}

void alchemy_rel(RTIME timeout, nk_time_t *nkto, enum nk_tmode *mode)
{
	*mode = NK_RELATIVE;
	if (timeout == TM_INFINITE)
		*nkto = NK_INFINITE;
	else if (timeout == TM_NONBLOCK)
		*nkto = 0;
	else
		*nkto = timeout > (RTIME)INT64_MAX - 1 ? NK_INFINITE
						       : (nk_time_t)timeout;
}

void alchemy_abs(RTIME date, nk_time_t *nkto, enum nk_tmode *mode)
{
	if (date == TM_INFINITE || date == TM_NONBLOCK) {
		alchemy_rel(date, nkto, mode);
		return;
	}
	*mode = NK_ABSOLUTE;
	*nkto = date > (RTIME)INT64_MAX - 1 ? NK_INFINITE : (nk_time_t)date;
}

int alchemy_timespec(const struct timespec *date, nk_time_t *nkto,
		     enum nk_tmode *mode)
{
	if (date == NULL) {
		alchemy_rel(TM_INFINITE, nkto, mode);
		return 0;
	}
	if (date->tv_sec < 0 || date->tv_nsec < 0 ||
	    date->tv_nsec >= 1000000000L)
		return -EINVAL;
	if (date->tv_sec == 0 && date->tv_nsec == 0) {
		alchemy_rel(TM_NONBLOCK, nkto, mode);
		return 0;
	}
	*mode = NK_ABSOLUTE;
	if (date->tv_sec > (INT64_MAX - date->tv_nsec) / 1000000000LL)
		*nkto = NK_INFINITE;
	else
		*nkto = (nk_time_t)date->tv_sec * 1000000000LL + date->tv_nsec;
	return 0;
}
