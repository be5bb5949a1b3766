/* SPDX-License-Identifier: MIT */
/*
 * RTAI/LXRT tasks over nucleus threads.
 *
 * In LXRT a Linux thread becomes a task by calling rt_task_init(): here
 * the calling thread (main, a thread of rt_thread_create(), a plain
 * pthread shadowed on the spot) gets RTAI's personality, whose
 * extension is the TCB (internal.h), and is registered as a task under
 * its name.  rt_task_delete() on itself only takes that identity back,
 * as LXRT's proxy goes and the Linux thread stays; on another task it
 * ends the thread.  The personality's hooks keep the TCB in step with
 * the thread whoever ends it.
 *
 * What is done to a task found by its RT_TASK is in task_ctl.c.
 */
#include "internal.h"

#include <sched.h>
#include <string.h>

int rtai_task_attach(struct nk_thread *thread, void *ext)
{
	struct rtai_task *t = ext;

	struct nk_instance *nk = nk_thread_instance(thread);
	int ret;

	t->thread = thread;
	ret = nk_synch_init(nk, &t->suspq, "suspend", NK_SYNCH_FIFO, 0);
	return ret ? ret : rtai_msg_init(nk, t);
}

/* The skin's state in @thread's instance: the hooks may run as the
 * instance goes, when the process runtime is no longer found. */
static struct skin *task_skin(struct nk_thread *thread)
{
	return nk_personality_state(nk_thread_instance(thread),
				    &rtai_skin.pers);
}

/* The thread ends: its name is free, its rt_thread_join() id stays
 * until it is joined.  Lock held. */
void rtai_task_exit(struct nk_thread *thread, void *ext)
{
	struct rtai_task *t = ext;

	if (t->task)
		skin_unregister_locked(task_skin(thread), t->task);
	t->task = 0;
	nk_synch_destroy_locked(&t->suspq);
	rtai_msg_exit(t);
}

/* Joined or reaped.  Lock held. */
void rtai_task_finalize(struct nk_thread *thread, void *ext)
{
	struct rtai_task *t = ext;

	if (t->joiner)
		skin_unregister_locked(task_skin(thread), t->joiner);
	t->joiner = 0;
}

int rtai_current(struct nk_instance **nk, struct rtai_task **out)
{
	struct nk_thread *self;
	int ret;

	ret = rtai_enter(nk);
	if (ret)
		return ret;
	self = rtai_self(*nk);
	if (self == NULL)
		return -EPERM;
	*out = nk_thread_personality(self, &rtai_skin.pers);
	if (*out)
		return 0;
	return nk_thread_attach(self, &rtai_skin.pers, (void **)out);
}

int rtai_task_get(RT_TASK *task, struct nk_instance **nk,
		  struct rtai_task **out)
{
	int ret;

	if (task == NULL) {
		ret = rtai_current(nk, out);
		if (ret == 0 && (*out)->task == 0)
			ret = -EINVAL;
		if (ret == 0)
			nk_lock(*nk);
		return ret == -EPERM ? -EINVAL : ret;
	}
	ret = rtai_enter(nk);
	if (ret)
		return ret;
	nk_lock(*nk);
	if (skin_lookup_locked(rtai(), RTAI_TASK, rtai_handle(task),
			       (void **)out)) {
		nk_unlock(*nk);
		return -EINVAL;
	}
	return 0;
}

int rtai_task_cpu(unsigned long mask)
{
	if (mask == 0)
		return 0;
	for (int cpu = 0; cpu < (int)(8 * sizeof(mask)); cpu++) {
		int rt = (mask >> cpu) & 1 ? fusion_runtime_cpu(cpu) : -1;

		if (rt >= 0)
			return rt;
	}
	return -1;
}

/* Become a task.  Lock NOT held. */
static RT_TASK *task_init(unsigned long name, int prio, int policy,
			  unsigned long cpus)
{
	struct nk_thread_attr attr = {.policy = NK_SCHED_FIFO};
	char key[RTAI_NAME_CHARS + 1];
	struct nk_instance *nk;
	struct nk_thread *self;
	struct rtai_task *t;
	int ret, cpu = rtai_task_cpu(cpus);

	if (prio < 0 || cpu < 0 ||
	    (policy != SCHED_OTHER && policy != SCHED_FIFO &&
	     policy != SCHED_RR) ||
	    rtai_enter(&nk) || nk_in_interrupt(nk))
		return NULL;
	rtai_name(name, key);
	if (nk_thread_self(nk) == NULL) {
		attr.name = key;
		attr.priority = rtai_nk_prio(prio);
		attr.cpu = cpu;
		if (nk_thread_shadow(nk, &attr, &self))
			return NULL;
	}
	if (rtai_current(&nk, &t))
		return NULL;
	nk_lock(nk);
	if (t->task) {
		nk_unlock(nk);
		return NULL;
	}
	ret = skin_register_locked(rtai(), RTAI_TASK, key, t, &t->task);
	if (ret == 0) {
		t->prio = prio;
		t->hard = false;
		t->suspdepth = 0;
		t->period = 0;
		t->born = (RTIME)nk_now(nk);
		ret = nk_thread_set_priority(t->thread, rtai_nk_prio(prio));
	}
	if (ret == 0 && policy == SCHED_RR)
		ret = nk_thread_set_policy(t->thread, NK_SCHED_RR,
					   RTAI_RR_QUANTUM);
	if (ret == 0 && cpu != nk_thread_cpu(t->thread))
		ret = nk_thread_set_cpu(t->thread, cpu);
	if (ret && t->task) {
		skin_unregister_locked(rtai(), t->task);
		t->task = 0;
	}
	nk_unlock(nk);
	return ret ? NULL : rtai_ptr(t->task);
}

RT_TASK *rt_task_init_schmod(unsigned long name, int priority, int stack_size,
			     int max_msg_size, int policy, int cpus_allowed)
{
	(void)max_msg_size;
	if (stack_size < 0)
		return NULL;
	return task_init(name, priority, policy, (unsigned int)cpus_allowed);
}

RT_TASK *rt_task_init(unsigned long name, int priority, int max_msg_size,
		      unsigned long cpus_allowed)
{
	(void)max_msg_size;
	return task_init(name, priority, SCHED_FIFO, cpus_allowed);
}

RT_TASK *rt_thread_init(unsigned long name, int priority, int max_msg_size,
			int policy, int cpus_allowed)
{
	(void)max_msg_size;
	return task_init(name, priority, policy, (unsigned int)cpus_allowed);
}

/* Returning ends the thread: the exit hook cleans up. */
static void thread_trampoline(void *arg)
{
	struct rtai_task *t = arg;
	struct nk_instance *nk = nk_thread_instance(t->thread);
	void *(*fun)(void *args);
	void *args;

	nk_lock(nk);
	fun = t->fun;
	args = t->args;
	nk_unlock(nk);
	/* A pthread's start routine: its result has no reader. */
	(void)fun(args);
}

long rt_thread_create(void *fun, void *args, int stack_size)
{
	struct nk_thread_attr attr = {.policy = NK_SCHED_FIFO,
				      .flags = NK_THREAD_JOINABLE};
	struct nk_thread *self, *thread = NULL;
	struct nk_instance *nk;
	struct rtai_task *t;
	int ret;

	if (fun == NULL || stack_size < 0 || rtai_enter(&nk))
		return 0;
	nk_lock(nk);
	/* As a pthread inherits its creator's scheduling. */
	self = rtai_self(nk);
	attr.priority = self ? nk_thread_priority(self) : 0;
	attr.cpu = self ? nk_thread_cpu(self) : 0;
	attr.stack_size = (size_t)stack_size;
	ret = nk_thread_create(nk, &attr, &thread);
	if (ret == 0)
		ret = nk_thread_attach(thread, &rtai_skin.pers, (void **)&t);
	if (ret == 0)
		ret = skin_register_locked(rtai(), RTAI_THREAD, NULL, t,
					   &t->joiner);
	if (ret == 0) {
		/* A function pointer converts through an object pointer
		 * in POSIX (dlsym), as RTAI's prototype asks. */
		memcpy(&t->fun, &fun, sizeof(t->fun));
		t->args = args;
		ret = nk_thread_start(thread, thread_trampoline, t);
	}
	if (ret && thread)
		/* It never ran; a joinable thread stays a zombie. */
		nk_thread_delete(thread);
	nk_unlock(nk);
	return ret ? 0 : (long)t->joiner;
}

int rt_thread_join(long thread)
{
	struct nk_instance *nk;
	struct rtai_task *t;
	int ret;

	ret = rtai_enter(&nk);
	if (ret)
		return ret;
	nk_lock(nk);
	if (skin_lookup_locked(rtai(), RTAI_THREAD, (uintptr_t)thread,
			       (void **)&t))
		ret = -EINVAL;
	else if (rtai_self(nk) == NULL)
		ret = -EPERM;
	else
		ret = nk_thread_join(t->thread);
	nk_unlock(nk);
	/* Another thread joins it already: as pthread_join(). */
	return ret == -EBUSY ? -EINVAL : skin_error(&rtai_skin, ret);
}

/* The caller runs hard (primary mode) or soft (relaxed). */
static void task_mode(bool hard)
{
	struct nk_instance *nk;
	struct rtai_task *t;

	if (rtai_task_get(NULL, &nk, &t))
		return;
	t->hard = hard;
	nk_unlock(nk);
	(void)(hard ? nk_thread_harden(nk) : nk_thread_relax(nk));
}

void rt_make_hard_real_time(void)
{
	task_mode(true);
}

void rt_make_soft_real_time(void)
{
	task_mode(false);
}

void rt_allow_nonroot_hrt(void)
{
}

void rt_task_yield(void)
{
	struct nk_instance *nk;

	if (rtai_enter(&nk) == 0)
		(void)nk_thread_yield(nk);
}

RT_TASK *rt_whoami(void)
{
	struct nk_instance *nk;
	struct rtai_task *t;

	if (rtai_current(&nk, &t))
		return NULL;
	return rtai_ptr(t->task);
}

RT_TASK *rt_buddy(void)
{
	return rt_whoami();
}
