/* SPDX-License-Identifier: MIT */
/*
 * The Alchemy skin on the common object layer: its descriptor (the
 * personality, one class and one name space per object type, as in
 * Xenomai) and the skin's policy for entering and creating objects.
 */
#include "task_internal.h"

#include <stdlib.h>
#include <string.h>

/*
 * Registry full reads as out of memory, as Xenomai's object heap; a
 * mutex nested too deep as -EAGAIN, as Xenomai's lock count.
 */
static int alchemy_error(int err)
{
	if (err == -ENOSPC)
		return -ENOMEM;
	return err == -EOVERFLOW ? -EAGAIN : err;
}

/* Tasks are threads: the nucleus frees them, their TCB with them. */
static const struct skin_class alchemy_classes[ALCHEMY_NR_CLASSES] = {
    [ALCHEMY_TASK] = {"task"},
    [ALCHEMY_SEM] = {"sem", .reclaim = alchemy_sem_reclaim,
		     .describe = skin_describe_sem},
    [ALCHEMY_MUTEX] = {"mutex", .reclaim = alchemy_mutex_reclaim,
		       .describe = skin_describe_mutex},
    [ALCHEMY_COND] = {"cond", .reclaim = alchemy_cond_reclaim,
		      .describe = alchemy_cond_describe},
    [ALCHEMY_EVENT] = {"event", .reclaim = alchemy_event_reclaim,
		       .describe = alchemy_event_describe},
    [ALCHEMY_QUEUE] = {"queue", .reclaim = alchemy_queue_reclaim,
		       .describe = alchemy_queue_describe},
    [ALCHEMY_BUFFER] = {"buffer", .reclaim = alchemy_buffer_reclaim,
			.describe = alchemy_buffer_describe},
    [ALCHEMY_HEAP] = {"heap", .reclaim = alchemy_heap_reclaim,
		      .describe = alchemy_heap_describe},
    [ALCHEMY_ALARM] = {"alarm", .reclaim = alchemy_alarm_reclaim,
		       .describe = alchemy_alarm_describe, .local = true},
    [ALCHEMY_PIPE] = {"pipe", .reclaim = alchemy_pipe_reclaim,
		      .describe = alchemy_pipe_describe, .local = true},
};

const struct skin_desc alchemy_skin = {
    .pers =
	{
	    .name = "alchemy",
	    .state_size = sizeof(struct alchemy_state),
	    .thread_size = sizeof(struct alchemy_task),
	    .attach = alchemy_task_attach,
	    .exit = alchemy_task_exit,
	    .finalize = alchemy_task_finalize,
	    .fini = skin_fini,
	    .leave = skin_leave,
	    .member_gone = skin_member_gone,
	    .objects = skin_objects,
	},
    .classes = alchemy_classes,
    .nr_classes = ALCHEMY_NR_CLASSES,
    .tick = 0, /* RTIME counts nanoseconds */
    .bad_handle = -EINVAL,
    .error = alchemy_error,
};

int alchemy_enter_thread(struct nk_instance **nk)
{
	int ret = alchemy_enter(nk);

	if (ret == 0 && nk_thread_self(*nk) == NULL)
		ret = -EPERM;
	return ret;
}

int alchemy_enter_object(struct nk_instance **nk)
{
	int ret = alchemy_enter(nk);

	if (ret == 0 && nk_in_interrupt(*nk))
		ret = -EPERM;
	return ret;
}

int alchemy_waitable_alloc(const char *name, size_t size,
			   struct nk_instance **nk, void **object)
{
	int ret;

	if (name && strlen(name) >= XNOBJECT_NAME_LEN)
		return -EINVAL;
	ret = alchemy_enter_object(nk);
	if (ret)
		return ret;
	*object = nk_alloc(*nk, size);
	return *object ? 0 : -ENOMEM;
}
