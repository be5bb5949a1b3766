/* SPDX-License-Identifier: MIT */
/*
 * Alchemy tasks over nucleus threads.
 *
 * Each task is a nucleus thread carrying Alchemy's personality, whose
 * extension is the TCB (task_internal.h).  A T_JOINABLE task is a
 * joinable nucleus thread, joined by nk_thread_join().  The personality's
 * hooks keep the TCB in step with the thread whoever ends it: exit
 * releases the task's name (free for reuse at once, as Xenomai does) and
 * its message passing, finalize drops its descriptor and frees it with
 * the thread.  Nucleus threads that never went through rt_task_create()
 * (main, a shadowed pthread, a thread of another skin) are attached on
 * their first Alchemy call.
 *
 * The nk_thread_* services are called with the nucleus lock held (it is
 * recursive) on a thread looked up under it: a task cannot end, and its
 * thread be freed, between the lookup and the call.
 */
#include "task_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TASK_CREATE_MODES (T_JOINABLE | T_LOCK | T_WARNSW | T_CPUMASK)
#define TASK_SET_MODES (T_LOCK | T_WARNSW | T_CONFORMING)

/* sigdebug_reason() reads the nucleus's relax reason as Xenomai's. */
_Static_assert(SIGDEBUG_MIGRATE_SYSCALL == NK_RELAX_SYSCALL,
	       "SIGDEBUG reasons are the nucleus relax reasons");

/* The descriptor's pthread, once @t has its thread.  Lock held. */
static void task_set_host(struct alchemy_task *t)
{
	t->self.thread = 0;
	if (t->thread)
		(void)nk_thread_host(t->thread, NULL, &t->self.thread);
}

static void task_trampoline(void *arg);

/* Set up @ext, an anonymous task until named.  Lock held. */
int alchemy_task_attach(struct nk_thread *thread, void *ext)
{
	struct alchemy_task *t = ext;
	int ret;

	t->thread = thread;
	t->defaults = true;
	ret = alchemy_task_msg_init(nk_thread_instance(thread), t);
	if (ret == 0)
		ret = alchemy_register(ALCHEMY_TASK, NULL, t, &t->handle);
	if (ret) {
		alchemy_task_msg_destroy(t);
		return ret;
	}
	t->self.handle = t->handle;
	task_set_host(t);
	return 0;
}

/*
 * The task ends, by any path: its name is free again, its senders wake
 * with -EIDRM.  Its descriptor still reaches it until it is freed, for
 * rt_task_join() only (alchemy_task_lookup() refuses it).  Lock held.
 */
void alchemy_task_exit(struct nk_thread *thread, void *ext)
{
	struct alchemy_task *t = ext;

	(void)thread;
	alchemy_unlink(t->handle);
	alchemy_task_msg_exit(t);
}

/* Reaped or joined: the descriptor goes stale.  Lock held. */
void alchemy_task_finalize(struct nk_thread *thread, void *ext)
{
	struct alchemy_task *t = ext;

	(void)thread;
	alchemy_unregister(t->handle);
	alchemy_task_msg_destroy(t);
}

/*
 * Register @t under @name (NULL or "": stay as it is) in place of its
 * current entry.  Errors: those of alchemy_register().  Lock held.
 */
static int task_rename(struct alchemy_task *t, const char *name)
{
	uintptr_t handle;
	int ret;

	if (name == NULL || name[0] == '\0')
		return 0;
	ret = alchemy_register(ALCHEMY_TASK, name, t, &handle);
	if (ret)
		return ret;
	alchemy_unregister(t->handle);
	t->handle = handle;
	t->self.handle = handle;
	return 0;
}

/* Whether a task holds @name (NULL or "": anonymous, never).  Lock held. */
static bool task_name_taken(const char *name)
{
	uintptr_t handle;

	return skin_find_locked(alchemy(), ALCHEMY_TASK, name, &handle) == 0;
}

int alchemy_task_current(struct nk_instance **nkp, struct alchemy_task **out)
{
	struct nk_thread *self;
	int ret;

	ret = alchemy_enter(nkp);
	if (ret)
		return ret;
	self = nk_thread_self(*nkp);
	if (self == NULL)
		return -EPERM;
	/* Attached already: the common case needs no lock. */
	*out = nk_thread_personality(self, &alchemy_skin.pers);
	if (*out)
		return 0;
	return nk_thread_attach(self, &alchemy_skin.pers, (void **)out);
}

/* The TCB behind @task, ended or not.  Lock held. */
static int task_find(RT_TASK *task, struct alchemy_task **out)
{
	if (task == NULL ||
	    alchemy_lookup(ALCHEMY_TASK, task->handle, (void **)out))
		return -EINVAL;
	return 0;
}

int alchemy_task_lookup(RT_TASK *task, struct alchemy_task **out)
{
	int ret = task_find(task, out);

	if (ret == 0 && (nk_thread_state((*out)->thread) & NK_THREAD_ZOMBIE))
		ret = -EINVAL;
	return ret;
}

/*
 * Enter the skin and find @task or, when NULL, the caller (attached
 * first if need be; -EPERM outside a task).  Returns with the lock held
 * on success only.
 */
static int task_get(RT_TASK *task, struct nk_instance **nk,
		    struct alchemy_task **out)
{
	int ret;

	if (task == NULL) {
		ret = alchemy_task_current(nk, out);
		if (ret == 0)
			nk_lock(*nk);
		return ret;
	}
	ret = alchemy_enter(nk);
	if (ret)
		return ret;
	nk_lock(*nk);
	ret = alchemy_task_lookup(task, out);
	if (ret)
		nk_unlock(*nk);
	return ret;
}

/*
 * The RT CPU for a task affine to the Linux CPUs of @cpus: @current if
 * its Linux CPU is in the set, else that of the lowest one running an RT
 * CPU; -EINVAL if none does.
 */
static int task_pick_cpu(const cpu_set_t *cpus, int current)
{
	int pick = -EINVAL;

	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		int rt = CPU_ISSET(cpu, cpus) ? fusion_runtime_cpu(cpu) : -1;

		if (rt >= 0 && (pick < 0 || rt == current))
			pick = rt;
	}
	return pick;
}

/* The RT CPU of a new task: its T_CPU set, else the first. */
static int task_cpu(int mode)
{
	cpu_set_t cpus;

	if (!(mode & T_CPUMASK))
		return 0;
	CPU_ZERO(&cpus);
	for (int cpu = 0; cpu < 8; cpu++)
		if (mode & T_CPU(cpu))
			CPU_SET(cpu, &cpus);
	return task_pick_cpu(&cpus, -1);
}

int rt_task_create(RT_TASK *task, const char *name, int stksize, int prio,
		   int mode)
{
	struct nk_thread_attr attr = {.policy = NK_SCHED_FIFO};
	struct nk_instance *nk;
	struct nk_thread *thread = NULL;
	struct alchemy_task *t;
	int ret;

	if (task == NULL || prio < ALCHEMY_PRIO_MIN ||
	    prio > ALCHEMY_PRIO_MAX || (mode & ~TASK_CREATE_MODES) ||
	    stksize < 0 || (name && strlen(name) >= XNOBJECT_NAME_LEN))
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	attr.cpu = task_cpu(mode);
	if (attr.cpu < 0)
		return -EINVAL;
	attr.name = name;
	attr.priority = alchemy_nk_prio(prio);
	attr.stack_size = (size_t)stksize;
	attr.flags = mode & T_JOINABLE ? NK_THREAD_JOINABLE : 0;
	/* One hold: nobody takes the name between the check and the use. */
	nk_lock(nk);
	ret = task_name_taken(name) ? -EEXIST
				    : nk_thread_create(nk, &attr, &thread);
	if (ret == 0)
		ret = nk_thread_attach(thread, &alchemy_skin.pers, (void **)&t);
	if (ret == 0)
		ret = task_rename(t, name);
	if (ret == 0) {
		t->mode = mode & (T_JOINABLE | T_LOCK | T_WARNSW);
		t->defaults = false;
		*task = t->self;
	} else if (thread) {
		/* Out of memory: the dormant thread never ran (a joinable
		 * one stays a zombie until the instance ends). */
		nk_thread_delete(thread);
	}
	nk_unlock(nk);
	return ret;
}

int rt_task_start(RT_TASK *task, void (*entry)(void *arg), void *arg)
{
	struct nk_instance *nk;
	struct alchemy_task *t;
	int ret;

	if (task == NULL || entry == NULL)
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	nk_lock(nk);
	ret = alchemy_task_lookup(task, &t);
	/* Starting a started task is a no-op, as in Xenomai. */
	if (ret == 0 && (nk_thread_state(t->thread) & NK_THREAD_DORMANT)) {
		t->entry = entry;
		t->arg = arg;
		ret = nk_thread_start(t->thread, task_trampoline, t);
	}
	nk_unlock(nk);
	return ret;
}

int rt_task_spawn(RT_TASK *task, const char *name, int stksize, int prio,
		  int mode, void (*entry)(void *arg), void *arg)
{
	int ret;

	if (entry == NULL)
		return -EINVAL;
	ret = rt_task_create(task, name, stksize, prio, mode);
	if (ret == 0)
		ret = rt_task_start(task, entry, arg);
	return ret;
}

/* Returning ends the thread: the exit hook cleans up. */
static void task_trampoline(void *arg_tcb)
{
	struct alchemy_task *t = arg_tcb;
	struct nk_instance *nk = nk_thread_instance(t->thread);
	void (*entry)(void *arg);
	void *arg;
	int mode;

	nk_lock(nk);
	entry = t->entry;
	arg = t->arg;
	mode = t->mode;
	nk_unlock(nk);
	if (mode & T_WARNSW)
		nk_thread_set_mode(nk, 0, NK_MODE_WARNSW, NULL);
	if (mode & T_LOCK)
		nk_sched_lock(nk);
	entry(arg);
}

int rt_task_join(RT_TASK *task)
{
	struct nk_instance *nk;
	struct alchemy_task *t;
	int ret;

	if (task == NULL)
		return -EINVAL;
	ret = alchemy_enter_thread(&nk);
	if (ret)
		return ret;
	nk_lock(nk);
	/* An ended task is found by its descriptor until it is joined. */
	ret = task_find(task, &t);
	if (ret == 0)
		ret = nk_thread_join(t->thread);
	nk_unlock(nk);
	/* Another task joins it already: -EINVAL, as pthread_join(). */
	return ret == -EBUSY ? -EINVAL : ret;
}

int rt_task_shadow(RT_TASK *task, const char *name, int prio, int mode)
{
	struct nk_thread_attr attr = {.policy = NK_SCHED_FIFO};
	struct nk_instance *nk;
	struct nk_thread *self;
	struct alchemy_task *t;
	int ret;

	if (prio < ALCHEMY_PRIO_MIN || prio > ALCHEMY_PRIO_MAX ||
	    (mode & ~(T_LOCK | T_WARNSW)) ||
	    (name && strlen(name) >= XNOBJECT_NAME_LEN))
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	/*
	 * A plain pthread becomes a nucleus thread first, as on Xenomai:
	 * should the name be taken, it stays one, with Alchemy's defaults.
	 */
	if (nk_thread_self(nk) == NULL) {
		attr.name = name;
		attr.priority = alchemy_nk_prio(prio);
		ret = nk_thread_shadow(nk, &attr, &self);
		if (ret)
			return ret;
	}
	ret = alchemy_task_current(&nk, &t);
	if (ret)
		return ret;
	nk_lock(nk);
	/* Only a thread with the defaults, never shadowed, qualifies. */
	ret = t->defaults ? task_rename(t, name) : -EBUSY;
	if (ret == 0)
		t->defaults = false;
	nk_unlock(nk);
	if (ret == 0)
		ret = nk_thread_set_priority(t->thread, alchemy_nk_prio(prio));
	if (ret)
		return ret;
	if (task)
		*task = t->self;
	return mode ? rt_task_set_mode(0, mode, NULL) : 0;
}

int rt_task_sleep_until(RTIME date)
{
	struct skin_timeout to = alchemy_abs(date);
	struct nk_instance *nk;
	int ret;

	ret = alchemy_enter_thread(&nk);
	if (ret)
		return ret;
	if (to.mode == NK_ABSOLUTE && to.value <= nk_now(nk))
		return -ETIMEDOUT;
	return nk_thread_sleep(nk, to.value, to.mode);
}

int rt_task_sleep(RTIME delay)
{
	struct nk_instance *nk;
	int ret;

	ret = alchemy_enter_thread(&nk);
	if (ret || delay == 0)
		return ret;
	return nk_thread_sleep(
	    nk, delay > (RTIME)INT64_MAX - 1 ? NK_INFINITE : (nk_time_t)delay,
	    NK_RELATIVE);
}

RT_TASK *rt_task_self(void)
{
	struct nk_instance *nk;
	struct alchemy_task *t;

	if (alchemy_task_current(&nk, &t))
		return NULL;
	return &t->self;
}

int rt_task_same(RT_TASK *task1, RT_TASK *task2)
{
	return task1 && task2 && task1->handle == task2->handle;
}

int rt_task_set_mode(int clrmask, int setmask, int *mode_r)
{
	struct nk_instance *nk;
	unsigned int nkmode;
	int ret, depth, old;

	if (((clrmask | setmask) & ~TASK_SET_MODES))
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	ret = nk_thread_set_mode(nk, 0, 0, &nkmode);
	if (ret)
		return ret;
	depth = nk_sched_lock_depth(nk);
	old =
	    (depth > 0 ? T_LOCK : 0) | (nkmode & NK_MODE_WARNSW ? T_WARNSW : 0);
	if (clrmask & T_WARNSW)
		nk_thread_set_mode(nk, NK_MODE_WARNSW, 0, NULL);
	if (setmask & T_WARNSW)
		nk_thread_set_mode(nk, 0, NK_MODE_WARNSW, NULL);
	/* T_LOCK nests, as the scheduler lock does. */
	if ((clrmask & T_LOCK) && depth > 0)
		ret = nk_sched_unlock(nk);
	if (ret == 0 && (setmask & T_LOCK))
		ret = nk_sched_lock(nk);
	/* Back to primary mode now, as Xenomai's T_CONFORMING asks (any
	 * nucleus call would do it too); a request, not a mode bit. */
	if (ret == 0 && (setmask & T_CONFORMING))
		ret = nk_thread_harden(nk);
	if (ret == 0 && mode_r)
		*mode_r = old;
	return ret;
}

int rt_task_yield(void)
{
	struct nk_instance *nk;
	int ret;

	ret = alchemy_enter(&nk);
	return ret ? ret : nk_thread_yield(nk);
}

/* What rt_task_unblock() and its kind ask of a task's thread. */
enum task_op {
	TASK_UNBLOCK,
	TASK_SUSPEND,
	TASK_RESUME,
	TASK_PRIORITY,
	TASK_SLICE,
	TASK_DELETE,
};

/*
 * Apply @op (with @arg: a priority, a quantum) to the thread of @task
 * (NULL: the caller, or -EPERM), under the lock.
 */
static int task_control(RT_TASK *task, enum task_op op, RTIME arg)
{
	struct nk_instance *nk;
	struct nk_thread *thread;
	struct alchemy_task *t;
	int ret;

	ret = task_get(task, &nk, &t);
	if (ret)
		return ret;
	thread = t->thread;
	switch (op) {
	case TASK_UNBLOCK:
		ret = nk_thread_unblock(thread);
		/* Not waiting: nothing to do, as in Xenomai. */
		if (ret == -EAGAIN)
			ret = 0;
		break;
	case TASK_SUSPEND:
		ret = nk_thread_suspend(thread);
		break;
	case TASK_RESUME:
		ret = nk_thread_resume(thread);
		/* Not suspended: a no-op, as in Xenomai. */
		if (ret == -EPERM)
			ret = 0;
		break;
	case TASK_PRIORITY:
		ret = nk_thread_set_priority(thread, alchemy_nk_prio((int)arg));
		break;
	case TASK_SLICE:
		/* The descriptor is checked first, then the quantum. */
		ret = arg > (RTIME)INT64_MAX
			  ? -EINVAL
			  : nk_thread_set_policy(
				thread, arg ? NK_SCHED_RR : NK_SCHED_FIFO,
				(nk_time_t)arg);
		break;
	case TASK_DELETE:
		/* The exit hook cleans up.  On self: does not return. */
		ret = nk_thread_delete(thread);
		break;
	}
	nk_unlock(nk);
	return ret;
}

int rt_task_delete(RT_TASK *task)
{
	return task_control(task, TASK_DELETE, 0);
}

int rt_task_unblock(RT_TASK *task)
{
	if (task == NULL)
		return -EINVAL;
	return task_control(task, TASK_UNBLOCK, 0);
}

int rt_task_suspend(RT_TASK *task)
{
	return task_control(task, TASK_SUSPEND, 0);
}

int rt_task_resume(RT_TASK *task)
{
	return task_control(task, TASK_RESUME, 0);
}

int rt_task_set_priority(RT_TASK *task, int prio)
{
	if (prio < ALCHEMY_PRIO_MIN || prio > ALCHEMY_PRIO_MAX)
		return -EINVAL;
	return task_control(task, TASK_PRIORITY, (RTIME)prio);
}

/*
 * Any task may be made periodic, by itself or another (dormant tasks
 * included, as Xenomai programs do between create and start); the
 * release points are awaited by the task itself.
 */
int rt_task_set_periodic(RT_TASK *task, RTIME idate, RTIME period)
{
	struct nk_instance *nk;
	struct alchemy_task *t;
	nk_time_t start = NK_INFINITE;
	int ret;

	ret = task_get(task, &nk, &t);
	if (ret)
		return ret == -EPERM ? -EINVAL : ret;
	/* TM_NOW stays NK_INFINITE for the nucleus: one period from now,
	 * or never when that date is past the clock's range. */
	if (period == TM_INFINITE) {
		period = 0;
	} else if (period > (RTIME)INT64_MAX || idate > (RTIME)INT64_MAX - 1) {
		ret = -EINVAL;
	} else if (idate != TM_NOW) {
		start = (nk_time_t)idate;
		if (start < nk_now(nk))
			ret = -ETIMEDOUT;
	}
	if (ret == 0)
		ret = nk_thread_make_periodic(t->thread, start,
					      (nk_time_t)period);
	nk_unlock(nk);
	return ret;
}

int rt_task_wait_period(unsigned long *overruns_r)
{
	struct nk_instance *nk;
	unsigned long overruns = 0;
	int ret;

	ret = alchemy_enter_thread(&nk);
	if (ret)
		return ret;
	ret = nk_thread_wait_period(nk, &overruns);
	/* Written on success and overrun only, as documented. */
	if (overruns_r && (ret == 0 || ret == -ETIMEDOUT))
		*overruns_r = overruns;
	return ret;
}

/*
 * As in Xenomai: quantum 0 turns round robin off (FIFO), any other is
 * the round-robin quantum in ticks (ns: the clock is tickless).  It
 * takes effect at once; a task running when it changes starts a fresh
 * time slice.
 */
int rt_task_slice(RT_TASK *task, RTIME quantum)
{
	return task_control(task, TASK_SLICE, quantum);
}

/* @cpus are Linux CPUs, mapped onto RT CPUs through the runtime's list. */
int rt_task_set_affinity(RT_TASK *task, const cpu_set_t *cpus)
{
	struct nk_instance *nk;
	struct alchemy_task *t;
	int ret, cpu;

	if (cpus == NULL)
		return -EINVAL;
	ret = task_get(task, &nk, &t);
	if (ret)
		return ret == -EPERM ? -EINVAL : ret;
	cpu = task_pick_cpu(cpus, nk_thread_cpu(t->thread));
	ret = cpu < 0 ? cpu : nk_thread_set_cpu(t->thread, cpu);
	nk_unlock(nk);
	/* A task that ended is gone, as for every other call. */
	return ret == -ESRCH ? -EINVAL : ret;
}

/* Lock held. */
static void task_info(struct nk_instance *nk, struct alchemy_task *t,
		      RT_TASK_INFO *info)
{
	struct nk_thread *thread = t->thread;
	struct nk_thread_stats stats;
	int prio, depth;

	memset(info, 0, sizeof(*info));
	alchemy_name(t->handle, info->name);
	if (info->name[0] == '\0')
		snprintf(info->name, sizeof(info->name), "%s",
			 nk_thread_name(thread));
	/* Main runs below every Alchemy priority: report 0. */
	prio = alchemy_prio(nk_thread_priority(thread));
	info->prio = prio < ALCHEMY_PRIO_MIN ? ALCHEMY_PRIO_MIN : prio;
	info->stat.cpu = nk_thread_cpu(thread);
	info->stat.status = nk_thread_state(thread);
	if (nk_thread_stats(thread, &stats) == 0) {
		info->stat.xtime = (RTIME)stats.exec_time;
		info->stat.csw = stats.switches;
		info->stat.msw = stats.mode_switches;
		info->stat.xsc = stats.syscalls;
		info->stat.pf = (uint32_t)stats.page_faults;
	}
	if (nk_thread_host(thread, &info->pid, NULL))
		info->pid = 0;
	/* The lock depth of another thread is not exposed by the nucleus. */
	if (thread == nk_thread_self(nk)) {
		depth = nk_sched_lock_depth(nk);
		info->stat.schedlock = depth > 0 ? depth : 0;
	}
}

int rt_task_inquire(RT_TASK *task, RT_TASK_INFO *info)
{
	struct nk_instance *nk;
	struct alchemy_task *t;
	int ret;

	ret = task_get(task, &nk, &t);
	if (ret)
		return ret;
	if (info)
		task_info(nk, t, info);
	nk_unlock(nk);
	return 0;
}

int rt_task_bind(RT_TASK *task, const char *name, RTIME timeout)
{
	struct nk_instance *nk;
	struct alchemy_task *t;
	uintptr_t handle;
	int ret;

	if (task == NULL)
		return -EINVAL;
	ret = alchemy_bind(ALCHEMY_TASK, &handle, name, timeout);
	if (ret == 0) {
		task->handle = handle;
		task->thread = 0;
		/* Its pthread, unless it ended meanwhile. */
		if (task_get(task, &nk, &t) == 0) {
			task->thread = t->self.thread;
			nk_unlock(nk);
		}
	}
	return ret;
}

int rt_task_unbind(RT_TASK *task)
{
	if (task == NULL)
		return -EINVAL;
	*task = NO_ALCHEMY_TASK;
	return 0;
}
