/* SPDX-License-Identifier: MIT */
/*
 * The VxWorks skin on the common object layer: its descriptor (one name
 * space for all classes, as VxWorks names are global; a tick-based time
 * base at VxWorks's default rate), the one translation of nucleus
 * results into VxWorks error statuses, and the policy for entering.
 */
#include "internal.h"
#include "../../backend/common/options.h"

#include <errno.h>

int vx_error(int err)
{
	switch (err) {
	case 0:
		return 0;
	case -ETIMEDOUT:
		return S_objLib_OBJ_TIMEOUT;
	case -EIDRM:
		return S_objLib_OBJ_DELETED;
	case -EWOULDBLOCK: /* also -EAGAIN: no OS thread for a task */
		return S_objLib_OBJ_UNAVAILABLE;
	/* A full registry is a memory shortage here. */
	case -ENOMEM:
	case -ENOSPC:
		return S_memLib_NOT_ENOUGH_MEMORY;
	/* A wait the nucleus refuses here (scheduler locked where the
	 * skin does not drop it, plain pthread): the object is not
	 * available to this caller. */
	case -EPERM:
		return S_objLib_OBJ_UNAVAILABLE;
	default:
		return err < 0 ? -err : err;
	}
}

/* The state's own defaults, at registration (the layer's come next):
 * the clock rate of FUSION_VXWORKS_CLK_RATE, VxWorks's 60 Hz unset. */
static int vx_init(struct nk_instance *nk, void *state)
{
	struct vx_state *vs = state;
	struct be_options o = {0};

	(void)nk;
	if (be_option_get(BE_OPT_VXWORKS_CLK_RATE, &o))
		return -EINVAL;
	vs->clk_rate = o.vxworks_clk_rate;
	vs->skin.tick = 1000000000 / o.vxworks_clk_rate;
	return 0;
}

/* Tasks are threads: the nucleus frees them, their TCB with them. */
static const struct skin_class vx_classes[VX_NR_CLASSES] = {
    [VX_TASK] = {"task"},
    [VX_SEM] = {"sem", .reclaim = vx_sem_reclaim, .describe = vx_sem_describe},
    [VX_MSGQ] = {"msgQ", .reclaim = vx_msgq_reclaim,
		 .describe = vx_msgq_describe},
    [VX_WD] = {"wdog", .reclaim = vx_wd_reclaim, .describe = vx_wd_describe,
	       .local = true},
    [VX_PART] = {"memPart", .reclaim = vx_part_reclaim,
		 .describe = vx_part_describe},
    [VX_RING] = {"ring", .reclaim = vx_ring_reclaim,
		 .describe = vx_ring_describe},
};

const struct skin_desc vxworks_skin = {
    .pers =
	{
	    .name = "vxworks",
	    .state_size = sizeof(struct vx_state),
	    .thread_size = sizeof(struct vx_task),
	    .init = vx_init,
	    .attach = vx_task_attach,
	    .exit = vx_task_exit,
	    .fini = skin_fini,
	    .leave = skin_leave,
	    .member_gone = skin_member_gone,
	    .objects = skin_objects,
	},
    .classes = vx_classes,
    .nr_classes = VX_NR_CLASSES,
    .shared_names = true,
    .tick = 1000000000 / VX_DEFAULT_CLK_RATE,
    .bad_handle = S_objLib_OBJ_ID_ERROR,
    .error = vx_error,
};

int *vx_errno_slot(void)
{
	struct nk_instance *nk = fusion_runtime_peek();
	struct nk_thread *self;

	if (nk == NULL || nk_in_interrupt(nk))
		return NULL;
	self = nk_thread_self(nk);
	return self ? nk_thread_errno(self) : NULL;
}

int vx_fail(int status)
{
	int *slot = vx_errno_slot();

	errno = status;
	if (slot)
		*slot = status;
	return ERROR;
}

STATUS vx_status(int status)
{
	return status ? vx_fail(status) : OK;
}

int vx_object_alloc(size_t size, struct nk_instance **nk, void **object)
{
	int ret = vx_enter_task_level(nk, NULL);

	if (ret)
		return ret;
	*object = nk_alloc(*nk, size);
	return *object ? 0 : S_memLib_NOT_ENOUGH_MEMORY;
}

int vx_sched_drop(struct nk_instance *nk)
{
	int depth = nk_in_interrupt(nk) ? 0 : nk_sched_lock_depth(nk);

	for (int i = 0; i < depth; i++)
		nk_sched_unlock(nk);
	return depth > 0 ? depth : 0;
}

void vx_sched_restore(struct nk_instance *nk, int depth)
{
	for (int i = 0; i < depth; i++)
		nk_sched_lock(nk);
}

int vx_wait(int (*op)(void *arg, int timeout), void *arg, int timeout)
{
	struct nk_instance *nk = fusion_runtime_peek();
	int ret, depth;

	if (nk == NULL || timeout == NO_WAIT || nk_in_interrupt(nk) ||
	    nk_sched_lock_depth(nk) <= 0)
		return op(arg, timeout);
	ret = op(arg, NO_WAIT);
	if (ret != S_objLib_OBJ_UNAVAILABLE)
		return ret;
	depth = vx_sched_drop(nk);
	ret = op(arg, timeout);
	vx_sched_restore(nk, depth);
	return ret;
}

int vx_enter(struct nk_instance **nk, struct vx_state **vs)
{
	struct nk_instance *n;
	struct skin *sk;
	int ret = skin_enter(&vxworks_skin, &n, &sk);

	if (ret)
		return ret;
	if (nk)
		*nk = n;
	if (vs)
		*vs = (struct vx_state *)sk;
	return 0;
}

int vx_enter_task_level(struct nk_instance **nk, struct vx_state **vs)
{
	struct nk_instance *n;
	int ret = vx_enter(&n, vs);

	if (ret)
		return ret;
	if (nk_in_interrupt(n))
		return S_intLib_NOT_ISR_CALLABLE;
	if (nk)
		*nk = n;
	return 0;
}

int vx_delete(enum vx_class_id cls, const void *id)
{
	uintptr_t handle = (uintptr_t)id;
	int ret = vx_enter_task_level(NULL, NULL);

	return ret ? ret : skin_delete(&vxworks_skin, cls, &handle, NULL);
}

int vx_create(enum vx_class_id cls, void *object,
	      int (*setup)(struct nk_instance *nk, void *object,
			   const char *wname),
	      void (*release)(struct nk_instance *nk, void *object),
	      uintptr_t *id)
{
	return skin_create(skin_state(&vxworks_skin), cls, NULL, object, setup,
			   release, id);
}
