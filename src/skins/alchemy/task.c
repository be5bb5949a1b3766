/*
 * Alchemy tasks over nucleus threads.
 *
 * Each task is a non-joinable nucleus thread plus a TCB (task_internal.h)
 * reached through nk_thread_ext().  The TCB, not the nucleus, implements
 * T_JOINABLE: a joinable task that ends is unregistered (its name is free
 * again) and parked on a zombie list until rt_task_join() reaps it, as a
 * joinable pthread would be.  Nucleus threads that never went through
 * rt_task_create() (main, a shadowed pthread) get a TCB on first use.
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

/* Joinable tasks that ended and wait for rt_task_join().  Lock held. */
static struct nk_list zombies = {&zombies, &zombies};

static void task_trampoline(void *arg);

/* The caller's TCB if it has one (lock held or not: only it sets it). */
static struct alchemy_task *task_of(struct nk_thread *thread)
{
	struct alchemy_task *t = nk_thread_ext(thread);

	return t && t->magic == ALCHEMY_TASK_MAGIC ? t : NULL;
}

static struct alchemy_task *task_alloc(struct nk_instance *nk)
{
	struct alchemy_task *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	t->magic = ALCHEMY_TASK_MAGIC;
	nk_list_init(&t->zombie_link);
	if (nk_synch_init(nk, &t->joiners, "join", NK_SYNCH_FIFO, 0) ||
	    alchemy_task_msg_init(nk, t)) {
		free(t);
		return NULL;
	}
	return t;
}

/* Lock held. */
static void task_free(struct alchemy_task *t)
{
	nk_synch_destroy_locked(&t->joiners);
	alchemy_task_msg_destroy(t);
	t->magic = 0;
	free(t);
}

void alchemy_task_reclaim(void *object)
{
	task_free(object);
}

/* Register @t (name NULL: anonymous) and publish it.  Lock held. */
static int task_publish(struct alchemy_task *t, const char *name)
{
	int ret = alchemy_register(ALCHEMY_TASK, name, t, &t->handle);

	if (ret)
		return ret;
	t->self.handle = t->handle;
	t->self.thread = 0;
	return 0;
}

int alchemy_task_current(struct nk_instance **nkp, struct alchemy_task **out)
{
	struct nk_thread *self;
	struct nk_instance *nk;
	struct alchemy_task *t;
	int ret;

	ret = alchemy_enter(nkp);
	if (ret)
		return ret;
	nk = *nkp;
	self = nk_thread_self(nk);
	if (self == NULL)
		return -EPERM;
	if (nk_thread_ext(self)) {
		*out = task_of(self);
		/* Another skin's thread: not an Alchemy task. */
		return *out ? 0 : -EPERM;
	}
	t = task_alloc(nk);
	if (t == NULL)
		return -ENOMEM;
	nk_lock(nk);
	ret = task_publish(t, NULL);
	if (ret == 0) {
		t->thread = self;
		t->adopted = true;
		t->started = true;
		nk_thread_set_ext(self, t);
	} else {
		task_free(t);
	}
	nk_unlock(nk);
	*out = t;
	return ret;
}

int alchemy_task_lookup(RT_TASK *task, struct alchemy_task **out)
{
	struct alchemy_task *t;

	if (task == NULL ||
	    alchemy_lookup(ALCHEMY_TASK, task->handle, (void **)&t))
		return -EINVAL;
	/* Still being shadowed (rt_task_shadow from a pthread). */
	if (t->thread == NULL)
		return -EINVAL;
	*out = t;
	return 0;
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
		if (ret)
			return ret;
		nk_lock(*nk);
		/* Deleted meanwhile from another CPU: we are about to end. */
		if (task_of(nk_thread_self(*nk)) != *out) {
			nk_unlock(*nk);
			return -EPERM;
		}
		return 0;
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
 * The task ends (returned, deleted, or deletes itself): its name goes,
 * its senders wake with -EIDRM, its joiner (if any) is released.  The
 * caller then terminates the nucleus thread.  Lock held; no reschedule
 * here, the thread's termination does it.
 */
static void task_finalize(struct alchemy_task *t)
{
	alchemy_unregister(t->handle);
	alchemy_task_msg_flush(t);
	alchemy_task_msg_cancel(t);
	if (t->join_target) {
		t->join_target->joining = false;
		t->join_target = NULL;
	}
	nk_thread_set_ext(t->thread, NULL);
	t->thread = NULL;
	if (t->mode & T_JOINABLE) {
		nk_list_add_before(&t->zombie_link, &zombies);
		nk_synch_flush(&t->joiners, NK_WAKE_OK);
	} else {
		task_free(t);
	}
}

static int task_cpu(struct nk_instance *nk, int mode)
{
	int nr = nk_instance_nr_cpus(nk);

	if (!(mode & T_CPUMASK))
		return 0;
	for (int cpu = 0; cpu < 8 && cpu < nr; cpu++)
		if (mode & T_CPU(cpu))
			return cpu;
	return -EINVAL;
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
	attr.cpu = task_cpu(nk, mode);
	if (attr.cpu < 0)
		return -EINVAL;
	attr.name = name;
	attr.priority = alchemy_nk_prio(prio);
	attr.stack_size = (size_t)stksize;
	t = task_alloc(nk);
	if (t == NULL)
		return -ENOMEM;
	t->mode = mode & (T_JOINABLE | T_LOCK | T_WARNSW);
	ret = nk_thread_create(nk, &attr, &thread);
	nk_lock(nk);
	if (ret == 0) {
		t->thread = thread;
		ret = task_publish(t, name);
	}
	if (ret == 0) {
		nk_thread_set_ext(thread, t);
		*task = t->self;
	} else {
		task_free(t);
	}
	nk_unlock(nk);
	/* Name taken: the dormant thread never ran. */
	if (ret && thread)
		nk_thread_delete(thread);
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
	if (ret == 0 && !t->started) {
		t->started = true;
		t->entry = entry;
		t->arg = arg;
		ret = nk_thread_start(t->thread, task_trampoline, NULL);
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

static void task_trampoline(void *unused)
{
	struct nk_instance *nk;
	struct alchemy_task *t;
	void (*entry)(void *arg);
	void *arg;
	int mode;

	(void)unused;
	if (alchemy_enter(&nk))
		return;
	nk_lock(nk);
	t = task_of(nk_thread_self(nk));
	entry = t->entry;
	arg = t->arg;
	mode = t->mode;
	nk_unlock(nk);
	if (mode & T_WARNSW)
		nk_thread_set_mode(nk, 0, NK_MODE_WARNSW, NULL);
	if (mode & T_LOCK)
		nk_sched_lock(nk);
	entry(arg);
	nk_lock(nk);
	t = task_of(nk_thread_self(nk));
	if (t)
		task_finalize(t);
	nk_unlock(nk);
}

/* A joinable task that ended, by its (stale) descriptor.  Lock held. */
static struct alchemy_task *task_zombie(RT_TASK *task)
{
	struct nk_list *pos;

	nk_list_for_each(pos, &zombies)
	{
		struct alchemy_task *t =
		    nk_list_entry(pos, struct alchemy_task, zombie_link);

		if (t->handle == task->handle)
			return t;
	}
	return NULL;
}

int rt_task_join(RT_TASK *task)
{
	struct nk_instance *nk;
	struct alchemy_task *t, *self;
	int ret;

	if (task == NULL)
		return -EINVAL;
	ret = alchemy_task_current(&nk, &self);
	if (ret)
		return ret;
	nk_lock(nk);
	if (alchemy_task_lookup(task, &t) && (t = task_zombie(task)) == NULL)
		ret = -EINVAL;
	else if (!(t->mode & T_JOINABLE) || t->joining)
		ret = -EINVAL;
	else if (t == self)
		ret = -EDEADLK;
	if (ret)
		goto out;
	if (t->thread) {
		t->joining = true;
		self->join_target = t;
		ret = nk_synch_sleep(&t->joiners, NK_INFINITE, NK_RELATIVE);
		self->join_target = NULL;
		t->joining = false;
	}
	if (ret == 0) {
		nk_list_del(&t->zombie_link);
		task_free(t);
	}
out:
	nk_unlock(nk);
	return ret;
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
	self = nk_thread_self(nk);
	if (self) {
		ret = alchemy_task_current(&nk, &t);
		if (ret)
			return ret == -EPERM ? -EBUSY : ret;
		nk_lock(nk);
		/* Only an adopted thread never shadowed before qualifies. */
		if (!t->adopted || t->shadowed) {
			ret = -EBUSY;
		} else if (name && name[0]) {
			alchemy_unregister(t->handle);
			ret = task_publish(t, name);
			/* Name taken: stay what we were. */
			if (ret && task_publish(t, NULL))
				ret = -ENOMEM;
		}
		if (ret == 0)
			t->shadowed = true;
		nk_unlock(nk);
		if (ret == 0)
			ret =
			    nk_thread_set_priority(self, alchemy_nk_prio(prio));
	} else {
		/* A plain pthread: reserve the name, then become a thread. */
		t = task_alloc(nk);
		if (t == NULL)
			return -ENOMEM;
		t->adopted = true;
		t->started = true;
		t->shadowed = true;
		nk_lock(nk);
		ret = task_publish(t, name);
		nk_unlock(nk);
		attr.name = name;
		attr.priority = alchemy_nk_prio(prio);
		if (ret == 0)
			ret = nk_thread_shadow(nk, &attr, &self);
		nk_lock(nk);
		if (ret == 0) {
			t->thread = self;
			nk_thread_set_ext(self, t);
		} else {
			if (t->handle)
				alchemy_unregister(t->handle);
			task_free(t);
		}
		nk_unlock(nk);
	}
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
	depth = nk_sched_locked(nk);
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
		task_finalize(t);
		/* On self: does not return. */
		ret = nk_thread_delete(thread);
		if (thread != nk_thread_self(nk)) {
			/*
			 * Joiners or senders woken by task_finalize() may
			 * outrank the caller, and the nucleus did not
			 * reschedule if the thread was ending by itself
			 * already (-ESRCH).
			 */
			nk_sched_run(nk);
			ret = 0;
		}
		break;
	}
	nk_unlock(nk);
	/* A thread that ended by itself (a shadowed pthread): no-op. */
	return ret == -ESRCH ? 0 : ret;
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
 * Only the caller can be made periodic: the nucleus period belongs to
 * the calling thread (Xenomai 3 has the same restriction in practice,
 * rt_task_wait_period() serving the caller only).
 */
int rt_task_set_periodic(RT_TASK *task, RTIME idate, RTIME period)
{
	struct nk_instance *nk;
	struct alchemy_task *t, *self;
	nk_time_t start, now;
	int ret;

	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	if (alchemy_task_current(&nk, &self))
		return -EINVAL;
	if (task) {
		nk_lock(nk);
		ret = alchemy_task_lookup(task, &t);
		nk_unlock(nk);
		if (ret || t != self)
			return -EINVAL;
	}
	if (period == TM_INFINITE)
		return nk_thread_set_periodic(nk, NK_INFINITE, 0);
	if (period > (RTIME)INT64_MAX)
		return -EINVAL;
	now = nk_now(nk);
	if (idate == TM_NOW) {
		start = now + (nk_time_t)period;
	} else {
		if (idate > (RTIME)INT64_MAX)
			return -EINVAL;
		start = (nk_time_t)idate;
		if (start < now)
			return -ETIMEDOUT;
	}
	return nk_thread_set_periodic(nk, start, (nk_time_t)period);
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

/*
 * @cpus names RT CPUs (nucleus schedulers).  The nucleus cannot migrate
 * a thread: a set including the task's own CPU is accepted (it stays
 * there), any other is -EINVAL.
 */
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
	cpu = nk_thread_cpu(t->thread);
	nk_unlock(nk);
	if (cpu < 0 || !CPU_ISSET((size_t)cpu, cpus))
		return -EINVAL;
	return 0;
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
	}
	/* The lock depth of another thread is not exposed by the nucleus. */
	if (thread == nk_thread_self(nk)) {
		depth = nk_sched_locked(nk);
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
	uintptr_t handle;
	int ret;

	if (task == NULL)
		return -EINVAL;
	ret = alchemy_bind(ALCHEMY_TASK, &handle, name, timeout);
	if (ret == 0) {
		task->handle = handle;
		task->thread = 0;
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
