/* SPDX-License-Identifier: MIT */
/*
 * RTAI periodic tasks and sleeps, in counts of the skin's time base.
 *
 * As RTAI, a periodic task keeps its last release date and its period:
 * each rt_task_wait_period() moves the release one period on and waits
 * for it, or returns RTE_TMROVRN at once when it has passed, so that a
 * late task catches up one release per call instead of skipping them.
 */
#include "internal.h"

int rt_task_make_periodic(RT_TASK *task, RTIME start_time, RTIME period)
{
	struct nk_instance *nk;
	struct rtai_task *t;
	struct skin_timeout to;
	bool self;
	int ret;

	if (period <= 0)
		return -EINVAL;
	ret = rtai_task_get(task, &nk, &t);
	if (ret)
		return ret;
	self = t->thread == rtai_self(nk);
	t->period = period;
	/* Another task's next wait returns at the start. */
	t->release = self ? start_time : start_time - period;
	to = rtai_abs(rtai(), start_time);
	nk_unlock(nk);
	/* The caller waits for its first release. */
	if (self && start_time > rtai_now(rtai()))
		ret = skin_error(&rtai_skin,
				 nk_thread_sleep(nk, to.value, to.mode));
	return ret;
}

int rt_task_make_periodic_relative_ns(RT_TASK *task, RTIME start_delay,
				      RTIME period)
{
	struct nk_instance *nk;

	if (rtai_enter(&nk))
		return -EINVAL;
	return rt_task_make_periodic(task,
				     rtai_now(rtai()) + nano2count(start_delay),
				     nano2count(period));
}

int rt_task_wait_period(void)
{
	struct nk_instance *nk;
	struct rtai_task *t;
	struct skin_timeout to;
	int ret;

	ret = rtai_task_get(NULL, &nk, &t);
	if (ret)
		return ret;
	if (t->period == 0) {
		nk_unlock(nk);
		return -EINVAL;
	}
	t->release += t->period;
	if (t->release <= rtai_now(rtai())) {
		nk_unlock(nk);
		return RTE_TMROVRN;
	}
	to = rtai_abs(rtai(), t->release);
	nk_unlock(nk);
	ret = nk_thread_sleep(nk, to.value, to.mode);
	return skin_error(&rtai_skin, ret);
}

int rt_set_period(RT_TASK *task, RTIME new_period)
{
	struct nk_instance *nk;
	struct rtai_task *t;
	int ret;

	if (new_period <= 0)
		return -EINVAL;
	ret = rtai_task_get(task, &nk, &t);
	if (ret)
		return ret;
	t->period = new_period;
	nk_unlock(nk);
	return 0;
}

int rt_set_resume_time(RT_TASK *task, RTIME new_resume_time)
{
	struct skin_timeout to;
	struct nk_instance *nk;
	struct rtai_task *t;
	nk_time_t was;
	int ret;

	ret = rtai_task_get(task, &nk, &t);
	if (ret)
		return ret;
	to = rtai_abs(rtai(), new_resume_time);
	ret = nk_thread_set_wakeup(t->thread, to.value, &was);
	/* Waiting for its release: the next ones follow the new date. */
	if (ret == 0 && t->period && was == rtai_abs(rtai(), t->release).value)
		t->release = new_resume_time;
	nk_unlock(nk);
	return ret == -EAGAIN ? -ETIME : ret;
}

/* Sleep @time counts (@absolute: until that date).  0, RTE_UNBLKD,
 * RTE_TMROVRN (nothing to wait for), RTE_PERM. */
static int task_sleep(RTIME time, bool absolute)
{
	struct skin_timeout to;
	struct nk_instance *nk;
	int ret;

	ret = rtai_enter(&nk);
	if (ret)
		return ret;
	if (rtai_self(nk) == NULL)
		return RTE_PERM;
	if (absolute ? time <= rtai_now(rtai()) : time <= 0)
		return RTE_TMROVRN;
	to = absolute ? rtai_abs(rtai(), time) : rtai_rel(rtai(), time);
	return skin_error(&rtai_skin, nk_thread_sleep(nk, to.value, to.mode));
}

int rt_sleep(RTIME delay)
{
	return task_sleep(delay, false);
}

int rt_sleep_until(RTIME time)
{
	return task_sleep(time, true);
}

void rt_busy_sleep(int nanosecs)
{
	struct nk_instance *nk;

	if (nanosecs > 0 && rtai_enter(&nk) == 0)
		(void)nk_consume(nk, nanosecs);
}
