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
 * Suspension is counted in the TCB, as RTAI counts it: a task
 * suspending itself sleeps on its own queue (so that it can time out),
 * another task is suspended by the nucleus wherever it stands.
 */
#include "internal.h"

#include <sched.h>
#include <string.h>

/* RTAI's round-robin quantum when none is given. */
#define RTAI_RR_QUANTUM 1000000

int rtai_task_attach(struct nk_thread *thread, void *ext)
{
	struct rtai_task *t = ext;

	t->thread = thread;
	return nk_synch_init(nk_thread_instance(thread), &t->suspq, "suspend",
			     NK_SYNCH_FIFO, 0);
}

/* The thread ends: its name is free, its rt_thread_join() id stays
 * until it is joined.  Lock held. */
void rtai_task_exit(struct nk_thread *thread, void *ext)
{
	struct rtai_task *t = ext;

	(void)thread;
	if (t->task)
		skin_unregister_locked(rtai(), t->task);
	t->task = 0;
	nk_synch_destroy_locked(&t->suspq);
}

/* Joined or reaped.  Lock held. */
void rtai_task_finalize(struct nk_thread *thread, void *ext)
{
	struct rtai_task *t = ext;

	(void)thread;
	if (t->joiner)
		skin_unregister_locked(rtai(), t->joiner);
	t->joiner = 0;
}

int rtai_current(struct nk_instance **nk, struct rtai_task **out)
{
	struct nk_thread *self;
	int ret;

	ret = rtai_enter(nk);
	if (ret)
		return ret;
	self = nk_thread_self(*nk);
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

/* The RT CPU of the lowest Linux CPU of @mask that runs one (0: CPU
 * 0), -1 if none does. */
static int task_cpu(unsigned long mask)
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
	int ret, cpu = task_cpu(cpus);

	if (prio < 0 || cpu < 0 ||
	    (policy != SCHED_OTHER && policy != SCHED_FIFO &&
	     policy != SCHED_RR) ||
	    rtai_enter(&nk))
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
	void (*fun)(void *args);
	void *args;

	nk_lock(nk);
	fun = t->fun;
	args = t->args;
	nk_unlock(nk);
	fun(args);
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
	self = nk_thread_self(nk);
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
	else if (nk_thread_self(nk) == NULL)
		ret = -EPERM;
	else
		ret = nk_thread_join(t->thread);
	nk_unlock(nk);
	/* Another thread joins it already: as pthread_join(). */
	return ret == -EBUSY ? -EINVAL : skin_error(&rtai_skin, ret);
}

int rt_task_delete(RT_TASK *task)
{
	struct nk_instance *nk;
	struct rtai_task *t;
	int ret;

	ret = rtai_task_get(task, &nk, &t);
	if (ret)
		return ret;
	if (t->thread == nk_thread_self(nk)) {
		skin_unregister_locked(rtai(), t->task);
		t->task = 0;
		t->period = 0;
	} else {
		/* The exit hook cleans up. */
		ret = nk_thread_delete(t->thread);
	}
	nk_unlock(nk);
	return ret;
}

int rt_thread_delete(RT_TASK *task)
{
	return rt_task_delete(task);
}

void rt_make_hard_real_time(void)
{
	struct nk_instance *nk;
	struct rtai_task *t;

	if (rtai_task_get(NULL, &nk, &t))
		return;
	t->hard = true;
	nk_unlock(nk);
	(void)nk_thread_harden(nk);
}

void rt_make_soft_real_time(void)
{
	struct nk_instance *nk;
	struct rtai_task *t;

	if (rtai_task_get(NULL, &nk, &t))
		return;
	t->hard = false;
	nk_unlock(nk);
	(void)nk_thread_relax(nk);
}

int rt_is_hard_real_time(RT_TASK *task)
{
	struct nk_instance *nk;
	struct rtai_task *t;
	int hard;

	if (rtai_task_get(task, &nk, &t))
		return 0;
	hard = t->hard;
	nk_unlock(nk);
	return hard;
}

void rt_allow_nonroot_hrt(void)
{
}

/*
 * Suspend @task until resumed or @to (self only; for another task the
 * suspension has no limit).  Returns the depth or an RTE_* code.
 */
static int task_suspend(RT_TASK *task, bool until, RTIME date)
{
	struct nk_instance *nk;
	struct rtai_task *t;
	struct skin_timeout to;
	int ret;

	ret = rtai_task_get(task, &nk, &t);
	if (ret)
		return ret;
	to = until ? rtai_abs(rtai(), date) : skin_infinite();
	if (t->suspdepth != 0) {
		/* Suspended already, or resumes ahead: only count. */
		ret = ++t->suspdepth;
	} else if (t->thread != nk_thread_self(nk)) {
		ret = nk_thread_suspend(t->thread);
		t->suspdepth = ret ? 0 : 1;
		ret = ret ? skin_error(&rtai_skin, ret) : 1;
	} else if (until && date <= rtai_now(rtai())) {
		ret = RTE_TMROVRN;
	} else {
		t->suspdepth = 1;
		t->self_suspended = true;
		ret = nk_synch_sleep(&t->suspq, to.value, to.mode);
		t->self_suspended = false;
		if (ret)
			t->suspdepth = 0;
		ret = ret ? skin_error(&rtai_skin, ret) : t->suspdepth;
	}
	nk_unlock(nk);
	return ret;
}

int rt_task_suspend(RT_TASK *task)
{
	return task_suspend(task, false, 0);
}

int rt_task_suspend_until(RT_TASK *task, RTIME time)
{
	return task_suspend(task, true, time);
}

int rt_task_suspend_timed(RT_TASK *task, RTIME delay)
{
	struct skin *sk;

	if (skin_enter(&rtai_skin, NULL, &sk))
		return -EINVAL;
	return task_suspend(task, true, rtai_now(sk) + delay);
}

int rt_task_suspend_if(RT_TASK *task)
{
	struct nk_instance *nk;
	struct rtai_task *t;
	int ret;

	ret = rtai_task_get(task, &nk, &t);
	if (ret)
		return ret;
	if (t->suspdepth < 0)
		t->suspdepth++;
	ret = t->suspdepth;
	nk_unlock(nk);
	return ret;
}

int rt_task_resume(RT_TASK *task)
{
	struct nk_instance *nk;
	struct rtai_task *t;
	int ret;

	if (task == NULL)
		return -EINVAL;
	ret = rtai_task_get(task, &nk, &t);
	if (ret)
		return ret;
	if (--t->suspdepth == 0) {
		if (t->self_suspended)
			nk_synch_wakeup_one(&t->suspq);
		else
			(void)nk_thread_resume(t->thread);
		nk_sched_run(nk);
	}
	nk_unlock(nk);
	return 0;
}

void rt_task_yield(void)
{
	struct nk_instance *nk;

	if (rtai_enter(&nk) == 0)
		(void)nk_thread_yield(nk);
}

int rt_change_prio(RT_TASK *task, int priority)
{
	struct nk_instance *nk;
	struct rtai_task *t;
	int ret;

	if (priority < 0)
		return -EINVAL;
	ret = rtai_task_get(task, &nk, &t);
	if (ret)
		return ret;
	ret = nk_thread_set_priority(t->thread, rtai_nk_prio(priority));
	if (ret == 0) {
		ret = t->prio;
		t->prio = priority;
	}
	nk_unlock(nk);
	return ret;
}

int rt_get_prio(RT_TASK *task)
{
	struct nk_instance *nk;
	struct rtai_task *t;
	int ret;

	ret = rtai_task_get(task, &nk, &t);
	if (ret)
		return ret;
	ret = t->prio;
	nk_unlock(nk);
	return ret;
}

int rt_get_inher_prio(RT_TASK *task)
{
	struct nk_instance *nk;
	struct rtai_task *t;
	int ret, eff;

	ret = rtai_task_get(task, &nk, &t);
	if (ret)
		return ret;
	eff = nk_thread_effective_priority(t->thread);
	/* Not boosted: the base priority, exact beyond the levels too. */
	ret = eff > rtai_nk_prio(t->prio) ? rtai_prio(eff) : t->prio;
	nk_unlock(nk);
	return ret;
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

int rt_task_use_fpu(RT_TASK *task, int use_fpu_flag)
{
	struct nk_instance *nk;
	struct rtai_task *t;
	int ret;

	(void)use_fpu_flag;
	ret = rtai_task_get(task, &nk, &t);
	if (ret == 0)
		nk_unlock(nk);
	return ret;
}

/* Move @task to RT CPU @cpu (< 0: nothing). */
static void task_move(RT_TASK *task, int cpu)
{
	struct nk_instance *nk;
	struct rtai_task *t;

	if (cpu < 0 || rtai_task_get(task, &nk, &t))
		return;
	if (cpu != nk_thread_cpu(t->thread))
		(void)nk_thread_set_cpu(t->thread, cpu);
	nk_unlock(nk);
}

void rt_set_runnable_on_cpus(RT_TASK *task, unsigned long cpu_mask)
{
	task_move(task, cpu_mask ? task_cpu(cpu_mask) : -1);
}

void rt_set_runnable_on_cpuid(RT_TASK *task, unsigned int cpuid)
{
	task_move(task, cpuid < 8 * sizeof(unsigned long)
			    ? task_cpu(1UL << cpuid)
			    : -1);
}

void rt_set_sched_policy(RT_TASK *task, int policy, int rr_quantum_ns)
{
	struct nk_instance *nk;
	struct rtai_task *t;

	if ((policy != RT_SCHED_FIFO && policy != RT_SCHED_RR) ||
	    rtai_task_get(task, &nk, &t))
		return;
	(void)nk_thread_set_policy(
	    t->thread, policy == RT_SCHED_RR ? NK_SCHED_RR : NK_SCHED_FIFO,
	    rr_quantum_ns > 0 ? rr_quantum_ns : RTAI_RR_QUANTUM);
	nk_unlock(nk);
}

/* The wait states of RTAI that are object waits here. */
#define TASK_OBJECT_WAITS                                                      \
	(RT_SCHED_SEMAPHORE | RT_SCHED_SEND | RT_SCHED_RECEIVE |               \
	 RT_SCHED_RPC | RT_SCHED_RETURN | RT_SCHED_MBXSUSP)

int rt_task_masked_unblock(RT_TASK *task, unsigned long mask)
{
	struct nk_instance *nk;
	struct rtai_task *t;
	unsigned int state;
	bool hit;
	int ret;

	if (task == NULL)
		return -EINVAL;
	ret = rtai_task_get(task, &nk, &t);
	if (ret)
		return ret;
	state = nk_thread_state(t->thread);
	hit = (mask & RT_SCHED_DELAYED) && (state & NK_THREAD_DELAYED);
	if (t->self_suspended)
		hit = hit || (mask & RT_SCHED_SUSPENDED);
	else
		hit = hit || ((mask & TASK_OBJECT_WAITS) &&
			      (state & NK_THREAD_PENDING));
	if (hit) {
		(void)nk_thread_unblock(t->thread);
		nk_sched_run(nk);
	}
	nk_unlock(nk);
	return 0;
}

void rt_get_exectime(RT_TASK *task, RTIME *exectime)
{
	struct nk_thread_stats stats = {0};
	struct nk_instance *nk;
	struct rtai_task *t;

	if (exectime == NULL || rtai_task_get(task, &nk, &t))
		return;
	(void)nk_thread_stats(t->thread, &stats);
	exectime[0] = (RTIME)stats.exec_time;
	exectime[1] = t->born;
	exectime[2] = (RTIME)nk_now(nk);
	nk_unlock(nk);
}
