/* SPDX-License-Identifier: MIT */
/*
 * VxWorks watchdogs over nucleus timers: the routine runs in the timer's
 * interrupt context with the nucleus lock held, where services that
 * would block fail (S_intLib_NOT_ISR_CALLABLE) and wdDelete() is refused,
 * so a watchdog outlives its own routine.
 */
#include "internal.h"

#include <errno.h>

struct vx_wd {
	struct nk_timer timer;
	/*
	 * The routine and its argument, of the process that started the
	 * watchdog: only that process's timers call it.
	 */
	FUNCPTR routine;
	_Vx_usr_arg_t arg;
};

typedef void (*wd_routine_fn)(_Vx_usr_arg_t arg);

static void wd_fire(struct nk_timer *timer)
{
	struct vx_wd *w = timer->cookie;
	int saved = errno;

	vx_fn(wd_routine_fn, w->routine)(w->arg);
	/* As a VxWorks ISR: the interrupted task's errno is left alone. */
	errno = saved;
}

static int wd_setup(struct nk_instance *nk, void *object, const char *wname)
{
	struct vx_wd *w = object;

	return vx_error(nk_timer_init(nk, &w->timer, wname, 0, wd_fire, w));
}

void vx_wd_reclaim(struct nk_instance *nk, void *object)
{
	struct vx_wd *w = object;

	nk_timer_destroy(&w->timer);
	nk_free_local(nk, w);
}

/* Its count: 1 while it is started, 0 otherwise. */
void vx_wd_describe(const void *object, struct nk_object_info *info)
{
	const struct vx_wd *w = object;

	info->count = w->timer.armed;
}

WDOG_ID wdCreate(void)
{
	struct nk_instance *nk;
	struct vx_wd *w;
	uintptr_t id;
	int ret;

	/* Its routine is code of this process: its memory is too. */
	ret = vx_enter_task_level(&nk, NULL);
	if (ret == 0 && (w = nk_alloc_local(nk, sizeof(*w))) == NULL)
		ret = S_memLib_NOT_ENOUGH_MEMORY;
	if (ret == 0)
		ret = vx_create(VX_WD, w, wd_setup, vx_wd_reclaim, &id);
	vx_status(ret);
	return ret ? NULL : (WDOG_ID)id;
}

STATUS wdDelete(WDOG_ID wdId)
{
	return vx_status(vx_delete(VX_WD, wdId));
}

/* wdStart() (@routine non-NULL) and wdCancel() (@routine NULL). */
static STATUS wd_arm(WDOG_ID wdId, int delay, FUNCPTR routine,
		     _Vx_usr_arg_t parameter)
{
	struct nk_instance *nk;
	struct vx_wd *w;
	nk_time_t date;
	int ret;

	ret = vx_get(VX_WD, wdId, &nk, (void **)&w);
	if (ret)
		return vx_fail(ret);
	if (routine == NULL) {
		nk_timer_stop_locked(&w->timer);
	} else {
		w->routine = routine;
		w->arg = parameter;
		/* 0 is the next tick, as a tick interrupt delivers it. */
		date = nk_tbase_timeout(&skin_state(&vxworks_skin)->tbase,
					delay ? (uint64_t)delay : 1);
		ret = vx_error(
		    nk_timer_start_locked(&w->timer, date, 0, NK_ABSOLUTE));
	}
	nk_unlock(nk);
	return vx_status(ret);
}

STATUS wdStart(WDOG_ID wdId, int delay, FUNCPTR pRoutine,
	       _Vx_usr_arg_t parameter)
{
	if (pRoutine == NULL || delay < 0)
		return vx_fail(EINVAL);
	return wd_arm(wdId, delay, pRoutine, parameter);
}

STATUS wdCancel(WDOG_ID wdId)
{
	return wd_arm(wdId, 0, NULL, 0);
}
