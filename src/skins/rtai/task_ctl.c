/* SPDX-License-Identifier: MIT */
/*
 * What is done to an RTAI task found by its RT_TASK (NULL: the
 * caller): deletion, suspension, priorities, placement, unblocking,
 * queries.  Each call finds the task under the nucleus lock and acts
 * under the same hold (task_control()), so the task cannot end
 * between the two.
 *
 * Suspension is counted in the TCB, as RTAI counts it: a task
 * suspending itself sleeps on its own queue (so that it can time out),
 * another task is suspended by the nucleus wherever it stands.
 */
#include "internal.h"

/* The wait states of RTAI that are object waits here. */
#define TASK_OBJECT_WAITS                                                      \
	(RT_SCHED_SEMAPHORE | RT_SCHED_SEND | RT_SCHED_RECEIVE |               \
	 RT_SCHED_RPC | RT_SCHED_RETURN | RT_SCHED_MBXSUSP)

enum task_op {
	TASK_STATE,
	TASK_DELETE,
	TASK_IS_HARD,
	TASK_SUSPEND_IF,
	TASK_RESUME,
	TASK_CHANGE_PRIO,
	TASK_GET_PRIO,
	TASK_INHER_PRIO,
	TASK_USE_FPU,
	TASK_MOVE,
	TASK_POLICY,
	TASK_UNBLOCK,
};

/* rt_task_masked_unblock(): whether @t waits in a way of @mask.  Lock
 * held. */
static bool task_waits_so(struct rtai_task *t, unsigned long mask)
{
	unsigned int state = nk_thread_state(t->thread);

	if ((mask & RT_SCHED_DELAYED) && (state & NK_THREAD_DELAYED))
		return true;
	if (t->self_suspended)
		return mask & RT_SCHED_SUSPENDED;
	return (mask & TASK_OBJECT_WAITS) && (state & NK_THREAD_PENDING);
}

/* RTAI's state bits of @t: its nucleus state, and what it waits for
 * as far as the skin knows (any other object wait: SEMAPHORE).  Lock
 * held. */
static int task_state(struct rtai_task *t)
{
	unsigned int state = nk_thread_state(t->thread);
	int bits = 0;

	if (state & (NK_THREAD_READY | NK_THREAD_CURRENT))
		bits |= RT_SCHED_READY;
	if ((state & NK_THREAD_SUSPENDED) || t->self_suspended)
		bits |= RT_SCHED_SUSPENDED;
	if (state & NK_THREAD_DELAYED)
		bits |= RT_SCHED_DELAYED;
	if ((state & NK_THREAD_PENDING) && !t->self_suspended)
		bits |= t->msg_state ? (int)t->msg_state : RT_SCHED_SEMAPHORE;
	return bits;
}

/* @op on @t, with @arg (a priority, a CPU...).  Lock held. */
static int task_op_locked(struct nk_instance *nk, struct rtai_task *t,
			  enum task_op op, long arg)
{
	int ret = 0, eff;

	switch (op) {
	case TASK_STATE:
		return task_state(t);
	case TASK_DELETE:
		if (t->thread != rtai_self(nk))
			/* The exit hook cleans up. */
			return nk_thread_delete(t->thread);
		/* Itself: the task goes, the thread stays; its senders
		 * learn that it went. */
		nk_synch_flush(&t->msgq, NK_WAKE_DELETED);
		skin_unregister_locked(rtai(), t->task);
		t->task = 0;
		t->period = 0;
		return 0;
	case TASK_IS_HARD:
		return t->hard;
	case TASK_SUSPEND_IF:
		if (t->suspdepth < 0)
			t->suspdepth++;
		return t->suspdepth;
	case TASK_RESUME:
		if (--t->suspdepth == 0) {
			if (t->self_suspended)
				nk_synch_wakeup_one(&t->suspq);
			else
				(void)nk_thread_resume(t->thread);
			nk_sched_run(nk);
		}
		return 0;
	case TASK_CHANGE_PRIO:
		ret = nk_thread_set_priority(t->thread, rtai_nk_prio((int)arg));
		if (ret == 0) {
			ret = t->prio;
			t->prio = (int)arg;
		}
		return ret;
	case TASK_GET_PRIO:
		return t->prio;
	case TASK_INHER_PRIO:
		eff = nk_thread_effective_priority(t->thread);
		/* Not boosted: the base priority, exact beyond the levels. */
		return eff > rtai_nk_prio(t->prio) ? rtai_prio(eff) : t->prio;
	case TASK_USE_FPU:
		return 0;
	case TASK_MOVE:
		if (arg >= 0 && arg != nk_thread_cpu(t->thread))
			(void)nk_thread_set_cpu(t->thread, (int)arg);
		return 0;
	case TASK_POLICY:
		/* @arg: the quantum, 0 for FIFO. */
		(void)nk_thread_set_policy(
		    t->thread, arg ? NK_SCHED_RR : NK_SCHED_FIFO, arg);
		return 0;
	case TASK_UNBLOCK:
		if (task_waits_so(t, (unsigned long)arg)) {
			(void)nk_thread_unblock(t->thread);
			nk_sched_run(nk);
		}
		return 0;
	}
	return -EINVAL;
}

/* Find @task, apply @op.  The result of @op, or -EINVAL (no task). */
static int task_control(RT_TASK *task, enum task_op op, long arg)
{
	struct nk_instance *nk;
	struct rtai_task *t;
	int ret;

	ret = rtai_task_get(task, &nk, &t);
	if (ret)
		return ret;
	ret = task_op_locked(nk, t, op, arg);
	nk_unlock(nk);
	return ret;
}

int rt_get_task_state(RT_TASK *task)
{
	if (task == NULL)
		return -EINVAL;
	return task_control(task, TASK_STATE, 0);
}

int rt_task_delete(RT_TASK *task)
{
	return task_control(task, TASK_DELETE, 0);
}

int rt_thread_delete(RT_TASK *task)
{
	return rt_task_delete(task);
}

int rt_is_hard_real_time(RT_TASK *task)
{
	int ret = task_control(task, TASK_IS_HARD, 0);

	return ret > 0;
}

int rt_task_suspend_if(RT_TASK *task)
{
	return task_control(task, TASK_SUSPEND_IF, 0);
}

int rt_task_resume(RT_TASK *task)
{
	if (task == NULL)
		return -EINVAL;
	return task_control(task, TASK_RESUME, 0);
}

int rt_change_prio(RT_TASK *task, int priority)
{
	if (priority < 0)
		return -EINVAL;
	return task_control(task, TASK_CHANGE_PRIO, priority);
}

int rt_get_prio(RT_TASK *task)
{
	return task_control(task, TASK_GET_PRIO, 0);
}

int rt_get_inher_prio(RT_TASK *task)
{
	return task_control(task, TASK_INHER_PRIO, 0);
}

int rt_task_use_fpu(RT_TASK *task, int use_fpu_flag)
{
	(void)use_fpu_flag;
	return task_control(task, TASK_USE_FPU, 0);
}

void rt_set_runnable_on_cpus(RT_TASK *task, unsigned long cpu_mask)
{
	if (cpu_mask)
		(void)task_control(task, TASK_MOVE, rtai_task_cpu(cpu_mask));
}

void rt_set_runnable_on_cpuid(RT_TASK *task, unsigned int cpuid)
{
	if (cpuid < 8 * sizeof(unsigned long))
		(void)task_control(task, TASK_MOVE,
				   rtai_task_cpu(1UL << cpuid));
}

void rt_set_sched_policy(RT_TASK *task, int policy, int rr_quantum_ns)
{
	if (policy == RT_SCHED_FIFO || policy == RT_SCHED_RR)
		(void)task_control(task, TASK_POLICY,
				   policy == RT_SCHED_FIFO ? 0
				   : rr_quantum_ns > 0	   ? rr_quantum_ns
							   : RTAI_RR_QUANTUM);
}

int rt_task_masked_unblock(RT_TASK *task, unsigned long mask)
{
	if (task == NULL)
		return -EINVAL;
	return task_control(task, TASK_UNBLOCK, (long)mask);
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

/*
 * Suspend @task, until resumed or, for the caller, until the date
 * @date with @until.  Returns the depth or an RTE_* code.
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
	} else if (t->thread != rtai_self(nk)) {
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
