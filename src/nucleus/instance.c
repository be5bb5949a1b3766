/* SPDX-License-Identifier: MIT */
/*
 * Nucleus instances: creation on a backend, teardown, the lock, the
 * trace sink and the description of every thread used in deadlock
 * reports.
 */
#include "internal.h"
#include "../pipeline/pipeline.h"
#include "../trace/recorder.h"
#include "../trace/sinks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef NK_DEBUG
void nk_assert_fail(const char *expr, const char *file, int line)
{
	fprintf(stderr, "fusion: nucleus assertion failed: %s (%s:%d)\n", expr,
		file, line);
	abort();
}
#endif

static void describe_handler(struct nk_instance *nk,
			     void (*emit)(void *ctx, const char *line),
			     void *ctx);

static const struct nk_backend_handlers nucleus_handlers = {
    .timer = nk_irq_handle_timer,
    .resched = nk_sched_handle_resched,
    .preempt = nk_sched_handle_preempt,
    .relax = nk_thread_handle_relax,
    .harden = nk_thread_handle_harden,
    .interrupted = nk_thread_handle_interrupted,
    .thread_entry = nk_thread_entry,
    .thread_gone = nk_thread_handle_gone,
    .member_gone = nk_member_handle_gone,
    .watchdog = nk_trace_handle_watchdog,
    .describe = describe_handler,
    .irq = nk_irq_handle,
    .irq_sync = nk_irq_handle_sync,
    .root_sync = nk_irq_handle_root,
    .inspect = nk_inspect_handler,
    .object_level = nk_inspect_level,
    .overrun_date = nk_inspect_overrun,
};

/*
 * Make @fn/@ctx the sink of @nk and its pipeline, counting the
 * instances with one (sinks.h).  Lock held, or @nk not yet returned.
 */
static void set_sink(struct nk_instance *nk, nk_trace_fn fn, void *ctx)
{
	trace_sinks_change(nk->trace != NULL, fn != NULL);
	nk->trace = fn;
	nk->trace_ctx = ctx;
	if (nk->pipeline)
		ipipe_set_trace(nk->pipeline, fn, ctx);
}

/* What is this process's goes; a placed instance's shared part goes
 * with the session's nucleus block, when its last holder lets go. */
static void instance_free(struct nk_instance *nk, bool keep)
{
	set_sink(nk, NULL, NULL);
	trace_recorder_close(nk->recorder);
	if (nk->scheds && nk->arena == NULL) {
		for (int cpu = 0; cpu < nk->nr_cpus; cpu++)
			nk_free(nk, nk->scheds[cpu].root);
		nk_free(nk, nk->scheds);
	}
	if (nk->core->registry.magic && nk->arena == NULL)
		nk_registry_destroy(&nk->core->registry);
	if (nk->pipeline)
		ipipe_destroy(nk->pipeline);
	nk->magic = 0;
	nk_unplace(nk, keep);
}

/* The shared part of a new instance: its registry and schedulers. */
static int core_make(struct nk_instance *nk,
		     const struct nk_instance_attr *attr)
{
	struct nk_core *core = nk->core;
	int ret;

	nk->nr_cpus = core->nr_cpus = attr->nr_cpus ? attr->nr_cpus : 1;
	nk_list_init(&core->threads);
	nk_list_init(&core->reapable);
	nk_list_init(&core->locals);
	ret = nk_registry_init_in(
	    &core->registry,
	    attr->registry_capacity ? attr->registry_capacity : 4096, nk);
	if (ret)
		return ret;
	nk->scheds = core->scheds =
	    nk_alloc(nk, (size_t)nk->nr_cpus * sizeof(*nk->scheds));
	return nk->scheds ? 0 : -ENOMEM;
}

/* Another member's instance, joined: its CPUs and schedulers. */
static int core_join(struct nk_instance *nk,
		     const struct nk_instance_attr *attr)
{
	struct nk_core *core = nk->core;

	if ((attr->nr_cpus && attr->nr_cpus != core->nr_cpus) ||
	    attr->main_cpu >= core->nr_cpus)
		return -EINVAL;
	nk->nr_cpus = core->nr_cpus;
	nk->scheds = core->scheds;
	return 0;
}

/*
 * Lock held: our member's timer trees, in a joined instance.  Timers
 * left there are those of a dead member that had our slot, whose code
 * is gone: they wait for that member's cleanup (-EBUSY meanwhile).
 */
static int timers_join(struct nk_instance *nk)
{
	for (int cpu = 0; cpu < nk->nr_cpus; cpu++) {
		if (nk->scheds[cpu].timers[nk->member].count)
			return -EBUSY;
		nk_journal_obj(&nk->scheds[cpu].programmed[nk->member]);
		nk->scheds[cpu].programmed[nk->member] = NK_INFINITE;
	}
	return 0;
}

/*
 * The calling OS thread becomes the instance's first thread of this
 * process: current on its CPU at once in a new instance, where nothing
 * else exists; in a joined one, made ready and waiting for its CPU as
 * any thread started there.
 */
static int main_adopt(struct nk_instance *nk,
		      const struct nk_instance_attr *attr)
{
	struct nk_thread *main;
	struct nk_sched *sched;
	int ret;

	nk_lock_acquire(nk);
	ret = nk->place.joined ? timers_join(nk) : 0;
	if (ret == 0)
		ret = nk_thread_adopt(
		    nk, attr->main_name ? attr->main_name : "main",
		    attr->main_priority, attr->main_cpu, &main);
	if (ret == 0) {
		nk->creator = main;
		sched = main->sched;
	}
	if (ret == 0 && !nk->place.joined) {
		nk_sched_account(sched, nk_clock_now(nk));
		nk_journal_obj(main);
		sched->curr = main;
		main->stats.switches = 1;
	} else if (ret == 0) {
		nk_thread_wait_cpu(main);
	}
	nk_lock_release(nk);
	return ret;
}

int nk_instance_create(const struct nk_instance_attr *attr,
		       struct nk_instance **out)
{
	static const struct nk_instance_attr defaults;
	const struct nk_backend_ops *be;
	struct nk_instance *nk;
	nk_trace_fn trace = NULL;
	void *trace_ctx = NULL;
	int ret;

	if (attr == NULL)
		attr = &defaults;
	if (out == NULL || attr->nr_cpus < 0 || attr->nr_cpus > NK_MAX_CPUS ||
	    attr->main_priority < NK_PRIO_MIN ||
	    attr->main_priority > NK_PRIO_MAX || attr->main_cpu < 0 ||
	    attr->main_cpu >= (attr->nr_cpus ? attr->nr_cpus : 1) ||
	    (attr->main_name && strlen(attr->main_name) >= NK_NAME_MAX))
		return -EINVAL;
	be = nk_backend_lookup(attr->backend);
	if (be == NULL)
		return -ENODEV;
	if (attr->session && strcmp(be->name, "live") != 0)
		return -ENOTSUP;
	if (nk_backend_thread_bound())
		return -EBUSY;
	ret = nk_place(attr->session, attr->join, &nk);
	if (ret)
		return ret;
	nk->magic = NK_INSTANCE_MAGIC;
	nk->be = be;
	nk->default_stack_size =
	    attr->default_stack_size ? attr->default_stack_size : 256 * 1024;
	ret = nk->place.joined ? core_join(nk, attr) : core_make(nk, attr);
	if (ret)
		goto fail;
	ret = trace_recorder_open(be->name, nk->nr_cpus, &nk->recorder);
	if (ret)
		goto fail;
	ret = be->init(nk, nk->nr_cpus, &nucleus_handlers, &nk->be_priv);
	if (ret)
		goto fail;
	nk->be_ready = true;
	/* Before anything can raise an IRQ: no timer, no source yet. */
	ret = ipipe_create(nk, &nk_ipipe_host, be, nk->be_priv, nk->nr_cpus,
			   nk->member, &nk->pipeline);
	/* Under the lock: the backend's threads run already. */
	nk_lock_acquire(nk);
	for (int cpu = 0; cpu < nk->nr_cpus && ret == 0 && !nk->place.joined;
	     cpu++)
		ret = nk_sched_init(nk, &nk->scheds[cpu], cpu);
	nk_lock_release(nk);
	if (ret == 0)
		ret = main_adopt(nk, attr);
	if (ret) {
		nk->be_ready = false;
		be->fini(nk->be_priv);
		goto fail;
	}
	if (be->default_trace)
		be->default_trace(nk->be_priv, &trace, &trace_ctx);
	trace_recorder_attach(nk->recorder, &trace, &trace_ctx);
	set_sink(nk, trace, trace_ctx);
	nk_placed_ready(nk);
	*out = nk;
	return 0;
fail:
	instance_free(nk, false);
	return ret;
}

/* Lock held: the process's personalities (all of them when @last),
 * pipes and backend go. */
static void instance_end_here(struct nk_instance *nk, bool last)
{
	bool keep;

	nk_personality_end(nk, last);
	nk_pipe_fini_all(nk);
	nk_lock_release(nk);
	nk->be_ready = false;
	keep = nk->be->fini(nk->be_priv);
	instance_free(nk, keep);
}

/*
 * Lock held: @nk ends for this process while other members' threads run
 * on.  Its other threads have ended (a thread current on another CPU
 * cannot be freed under that CPU's scheduler: -EBUSY until they have);
 * the caller leaves its CPU to whoever is next there.
 */
static int instance_leave(struct nk_instance *nk, struct nk_thread *self)
{
	struct nk_thread *thread;
	struct nk_list *pos, *next;

	nk_list_for_each(pos, &nk->core->threads) {
		thread = nk_list_entry(pos, struct nk_thread, instance_link);
		if (thread->member == nk->member && thread != self &&
		    !(thread->state & NK_THREAD_ZOMBIE)) {
			nk_lock_release(nk);
			return -EBUSY;
		}
	}
	nk_list_for_each_safe(pos, next, &nk->core->threads) {
		thread = nk_list_entry(pos, struct nk_thread, instance_link);
		if (thread->member == nk->member && thread != self)
			nk_thread_free(thread);
	}
	nk_thread_reap_all(nk);
	nk_thread_leave(self);
	instance_end_here(nk, false);
	return 0;
}

int nk_instance_destroy(struct nk_instance *nk)
{
	struct nk_thread *self, *thread;
	struct nk_list *pos;

	nk_check_unlocked(nk);
	if (!nk_instance_valid(nk))
		return -EINVAL;
	nk_lock_acquire(nk);
	self = nk_current(nk);
	if (self == NULL || self != nk->creator) {
		nk_lock_release(nk);
		return -EPERM;
	}
	if (!nk_placed_last(nk))
		return instance_leave(nk, self);
	/* Skins see every thread end, the caller's included, while all
	 * are still whole, each after it let go of what it waited for and
	 * held, as any end of a thread does: the objects the skins free
	 * at fini keep no pointer to a freed thread.  Then everybody
	 * else, waiting in the backend, is ended where it is. */
	nk_list_for_each(pos, &nk->core->threads) {
		thread = nk_list_entry(pos, struct nk_thread, instance_link);
		if (!(thread->state & NK_THREAD_ZOMBIE)) {
			nk_thread_unlink(thread);
			nk_personality_exit(thread);
		}
	}
	while (!nk_list_empty(&nk->core->threads)) {
		thread = nk_list_first_entry(&nk->core->threads,
					     struct nk_thread, instance_link);

		if (thread != self && !(thread->state & NK_THREAD_ZOMBIE))
			nk->be->thread_kill(nk->be_priv, thread->shadow);
		nk_thread_free(thread);
	}
	nk_thread_reap_all(nk);
	/* Nobody is left to run: a reschedule asked by the unlinking, or
	 * by a fini hook, finds nothing to do. */
	for (int cpu = 0; cpu < nk->nr_cpus; cpu++) {
		nk_sched_note(&nk->scheds[cpu]);
		nk->scheds[cpu].curr = nk->scheds[cpu].root;
		nk->scheds[cpu].resched = false;
	}
	instance_end_here(nk, true);
	return 0;
}

const char *nk_instance_backend(struct nk_instance *nk)
{
	return nk_instance_valid(nk) ? nk->be->name : NULL;
}

int nk_instance_nr_cpus(struct nk_instance *nk)
{
	return nk_instance_valid(nk) ? nk->nr_cpus : -EINVAL;
}

int nk_instance_host_cpu(struct nk_instance *nk, int cpu)
{
	if (!nk_instance_valid(nk) || cpu < 0 || cpu >= nk->nr_cpus)
		return -EINVAL;
	return nk->be->host_cpu ? nk->be->host_cpu(nk->be_priv, cpu) : -ENOSYS;
}

struct nk_registry *nk_instance_registry(struct nk_instance *nk)
{
	return nk_instance_valid(nk) ? &nk->core->registry : NULL;
}

int nk_instance_set_trace(struct nk_instance *nk, nk_trace_fn fn, void *ctx)
{
	if (!nk_instance_valid(nk))
		return -EINVAL;
	nk_lock_acquire(nk);
	set_sink(nk, fn, ctx);
	nk_lock_release(nk);
	return 0;
}

static void describe_thread(struct nk_thread *thread,
			    void (*emit)(void *ctx, const char *line),
			    void *ctx)
{
	const char *waits = nk_thread_wait_name(thread);
	struct nk_thread *owner = NULL;
	char line[160];

	if (thread->state & NK_THREAD_PENDING)
		owner = thread->wchan->owner;
	snprintf(line, sizeof(line), "%s prio %d/%d cpu%d%s%s%s%s%s",
		 thread->name, thread->base_prio, thread->prio,
		 thread->sched->cpu,
		 thread->state & NK_THREAD_ZOMBIE ? " terminated" : "",
		 waits ? " waits for "
		       : (thread->state & NK_BLOCK_BITS ? "" : " runnable"),
		 waits ? waits : "", owner ? " owned by " : "",
		 owner ? owner->name : "");
	emit(ctx, line);
}

static void describe_handler(struct nk_instance *nk,
			     void (*emit)(void *ctx, const char *line),
			     void *ctx)
{
	struct nk_list *pos;

	nk_list_for_each(pos, &nk->core->threads) {
		describe_thread(
		    nk_list_entry(pos, struct nk_thread, instance_link), emit,
		    ctx);
	}
}

int nk_instance_describe(struct nk_instance *nk,
			 void (*emit)(void *ctx, const char *line), void *ctx)
{
	if (!nk_instance_valid(nk) || emit == NULL)
		return -EINVAL;
	nk_lock_acquire(nk);
	describe_handler(nk, emit, ctx);
	nk_lock_release(nk);
	return 0;
}

void nk_trace_emit(struct nk_instance *nk, nk_time_t date, int cpu,
		   enum nk_trace_event ev, const struct nk_thread *thread,
		   const char *object, unsigned int object_id, long arg)
{
	struct nk_trace_record rec = {
	    .date = date == NK_TRACE_NOW ? nk_clock_now(nk) : date,
	    .cpu = cpu,
	    .event = ev,
	    .thread = thread->name,
	    .thread_id = thread->trace_id,
	    .arg = arg,
	};

	if (object && object[0]) {
		rec.object = object;
		rec.object_id = object_id;
	}

	nk->trace(nk->trace_ctx, &rec);
}

/* The thread is known by its name only (see the handler's contract):
 * the recorder keeps it as a text. */
void nk_trace_handle_watchdog(struct nk_instance *nk, int cpu, const char *name,
			      nk_time_t date)
{
	struct nk_trace_record rec = {
	    .date = date,
	    .cpu = cpu,
	    .event = NK_TRACE_WATCHDOG,
	    .thread = name,
	};

	if (nk->trace)
		nk->trace(nk->trace_ctx, &rec);
}

nk_hot void nk_lock(struct nk_instance *nk)
{
	if (nk_instance_valid(nk))
		nk_lock_acquire(nk);
}

nk_hot void nk_unlock(struct nk_instance *nk)
{
	nk_check_locked(nk);
	if (nk_instance_valid(nk))
		nk_lock_release(nk);
}
