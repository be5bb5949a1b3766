/* SPDX-License-Identifier: MIT */
/*
 * The sim backend: a deterministic discrete-event simulator.
 *
 * Every nucleus thread has a real OS thread (its shadow), but exactly one
 * OS thread executes at any time: the holder of the baton.  When the
 * holder stops (it blocked, was preempted, went busy or died), it runs
 * the dispatcher below, which hands the baton to the next runnable
 * shadow in FIFO order or, when nothing can run, advances virtual time
 * to the next event: a timer deadline of some CPU (timers first at equal
 * dates, in CPU order) or the end of a busy period.  Code between
 * nucleus calls takes no virtual time: an "infinitely fast CPU", unless
 * FUSION_SIM_COST charges each service call a cost (charge_cost); a run
 * whose time stands still too long is a livelock (livelock_check).
 * fusion sim's agent (debug*.c), when there is one, sees every event
 * and every move of time, and may stop the run at either.
 *
 * Plain OS threads are outside the simulation.  One that calls a nucleus
 * service takes the lock between two nucleus calls of the holder, as an
 * interrupt would.  One that adopts itself (nk_thread_shadow) does not
 * hold the baton: it gives the lock back and waits for a dispatch to hand
 * it over, like any other shadow.  There is no asynchronous preemption: a
 * kick for the holder's CPU from outside (it readied a more urgent
 * thread) is taken when the holder next enters the nucleus.
 *
 * Unless the holder is blocked in a system call outside the nucleus
 * (pthread_join on the very thread that waits): it would never come
 * back.  So while a thread from outside waits for the baton (adopting
 * itself, or hardening after it was away) or kicks the holder's CPU,
 * it looks at the holder (/proc state, at once and then every
 * millisecond while it waits): blocked, the holder gets SIM_SIG_CEDE,
 * whose handler relaxes it as a stray system call does on live, and the
 * baton goes to the next thread.  The holder is then *away*: it runs as
 * a plain thread and takes the baton back at its next nucleus entry (it
 * hardens, waiting for its turn).  While a thread is away, a run with
 * nothing to do waits, baton free, instead of reporting a deadlock;
 * a call from outside that readies a thread then dispatches.  How far
 * virtual time got when such a thread arrives or comes back depends on
 * when it does, in real time: it is outside the simulation.
 *
 * A program without threads from outside never cedes: it produces the
 * same sequence of events, and the same FUSION_SIM_LOG, on every run.
 */
#include "sim.h"
#include "../common/chan.h"
#include "../common/exit.h"
#include "../common/options.h"
#include "../common/host.h"

#include <fusion/pipeline.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The shadow bound to the calling OS thread (one instance at a time). */
static __thread struct sim_shadow *sim_self;
/* Nucleus lock depth of this OS thread (the lock is recursive). */
static __thread int sim_depth;
/* Set while the holder passes on broken waits: interrupt context. */
static __thread bool sim_signal_ctx;
/* Set while the holder relaxes to give the baton up (cede_signal). */
static __thread bool sim_ceding;

/* How often a thread waiting beside the holder looks at it again. */
#define SIM_CEDE_POLL_NS 1000000

static pthread_once_t cede_once = PTHREAD_ONCE_INIT;
static int cede_error;
static void cede_install(void);

/* @s relaxed and leaves the baton free: it is away.  Lock held. */
static void go_away(struct sim *sim, struct sim_shadow *s)
{
	s->away = true;
	sim->away++;
	sim->holder = NULL;
}

static void runnable_push(struct sim *sim, struct sim_shadow *s)
{
	if (s->queued)
		return;
	s->queued = true;
	nk_list_add_before(&s->run_link, &sim->runnable);
}

static struct sim_shadow *runnable_pop(struct sim *sim)
{
	struct sim_shadow *s;

	if (nk_list_empty(&sim->runnable))
		return NULL;
	s = nk_list_first_entry(&sim->runnable, struct sim_shadow, run_link);
	nk_list_del(&s->run_link);
	s->queued = false;
	return s;
}

/* Wake the busy shadow of @cpu, if any, before its period ends. */
static bool busy_cut(struct sim *sim, int cpu)
{
	struct sim_shadow *s = sim->busy_on[cpu];

	if (s == NULL)
		return false;
	sim->busy_on[cpu] = NULL;
	runnable_push(sim, s);
	return true;
}

static bool service_kicks(struct sim *sim)
{
	for (int cpu = 0; cpu < sim->nr_cpus; cpu++) {
		if (!sim->kicked[cpu])
			continue;
		sim->kicked[cpu] = false;
		if (!busy_cut(sim, cpu))
			sim->handlers->resched(sim->nk, cpu);
		return true;
	}
	return false;
}

static bool service_irqs(struct sim *sim)
{
	for (int cpu = 0; cpu < sim->nr_cpus; cpu++) {
		if (!sim->irq_posted[cpu])
			continue;
		sim->irq_posted[cpu] = false;
		sim->handlers->irq_sync(sim->nk, cpu);
		return true;
	}
	return false;
}

/*
 * Root (Linux) work runs only when no RT thread can, not even one
 * consuming CPU time: Linux is the idle task.
 */
static bool service_root(struct sim *sim)
{
	if (!sim->root_posted)
		return false;
	for (int cpu = 0; cpu < sim->nr_cpus; cpu++)
		if (sim->busy_on[cpu])
			return false;
	sim->root_posted = false;
	sim->handlers->root_sync(sim->nk);
	return true;
}

/*
 * Tell the nucleus of the waits that signals broke (see
 * shadow_interrupted).  Lock held, in interrupt context: a shadow
 * cannot be killed meanwhile, that takes the lock.
 */
static bool service_interrupts(struct sim *sim)
{
	bool any = false;

	if (!atomic_load(&sim->intr_pending))
		return false;
	pthread_mutex_lock(&sim->intr_lock);
	atomic_store(&sim->intr_pending, false);
	while (!nk_list_empty(&sim->interrupted)) {
		struct sim_shadow *s = nk_list_first_entry(
		    &sim->interrupted, struct sim_shadow, intr_link);

		nk_list_del(&s->intr_link);
		s->intr_queued = false;
		pthread_mutex_unlock(&sim->intr_lock);
		sim->handlers->interrupted(sim->nk, s->thread);
		pthread_mutex_lock(&sim->intr_lock);
		any = true;
	}
	pthread_mutex_unlock(&sim->intr_lock);
	return any;
}

/*
 * Move virtual time to the next event and deliver it.  At equal dates:
 * timers (in CPU order), then scripted IRQs (in scenario order), then the
 * end of busy periods.
 */
static bool advance(struct sim *sim)
{
	nk_time_t next = NK_INFINITE, scripted;
	int which = -1, script = -1;
	bool busy_end = false;

	for (int cpu = 0; cpu < sim->nr_cpus; cpu++) {
		if (sim->deadline[cpu] < next) {
			next = sim->deadline[cpu];
			which = cpu;
		}
	}
	scripted = sim_scenario_next(sim, &script);
	if (scripted < next) {
		next = scripted;
		which = -1;
	} else {
		script = -1;
	}
	for (int cpu = 0; cpu < sim->nr_cpus; cpu++) {
		struct sim_shadow *s = sim->busy_on[cpu];

		if (s && s->busy_until < next) {
			next = s->busy_until;
			which = cpu;
			script = -1;
			busy_end = true;
		}
	}
	if (sim->debug) {
		nk_time_t stop = sim_debug_horizon(sim->debug, next);

		/* The debugger stops the run at a date first; the events
		 * due then are delivered when it goes on. */
		if (stop != NK_INFINITE) {
			if (stop > sim->now)
				sim->now = stop;
			sim_debug_reached(sim->debug);
			return true;
		}
	}
	if (which < 0 && script < 0)
		return false;
	if (next > sim->now)
		sim->now = next;
	if (script >= 0) {
		sim_scenario_fire(sim, script);
	} else if (busy_end) {
		busy_cut(sim, which);
	} else {
		sim->deadline[which] = NK_INFINITE;
		sim->handlers->timer(sim->nk, which, sim->now);
	}
	return true;
}

static void report_line(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "fusion-sim:   %s\n", line);
}

static void __attribute__((noreturn)) report_deadlock(struct sim *sim)
{
	if (sim->debug)
		sim_debug_fatal(sim->debug, "deadlock");
	fprintf(stderr,
		"fusion-sim: deadlock at %lld ns: every thread is blocked and "
		"no timer is pending\n",
		(long long)sim->now);
	sim->handlers->describe(sim->nk, report_line, NULL);
	/* The run ends here, under the nucleus lock and with every thread
	 * blocked: exit handlers (the runtime's teardown among them) would
	 * wait on what can never come.  Streams are flushed by hand. */
	fflush(NULL);
	_exit(SIM_EXIT_DEADLOCK);
}

/* Note @thread among the threads of a livelock's last events. */
static void livelock_note(struct sim *sim, struct nk_thread *thread)
{
	for (int i = 0; i < sim->nr_livelock_threads; i++)
		if (sim->livelock_threads[i] == thread)
			return;
	if (sim->nr_livelock_threads < SIM_LIVELOCK_THREADS)
		sim->livelock_threads[sim->nr_livelock_threads++] = thread;
}

/*
 * FUSION_SIM_LIVELOCK events (dispatches and nucleus entries) at one
 * virtual date: threads keep each other busy and time never moves, as
 * a deadlock it would never end.  @thread is the one the event is of.
 * Lock held.
 */
static void livelock_check(struct sim *sim, struct nk_thread *thread)
{
	if (sim->now != sim->same_date) {
		sim->same_date = sim->now;
		sim->same_date_events = 0;
		sim->nr_livelock_threads = 0;
		return;
	}
	if (++sim->same_date_events + SIM_LIVELOCK_WINDOW >=
	    sim->livelock_limit)
		livelock_note(sim, thread);
	if (sim->same_date_events < sim->livelock_limit)
		return;
	if (sim->debug)
		sim_debug_fatal(sim->debug, "livelock");
	fprintf(stderr,
		"fusion-sim: livelock at %lld ns: %lu events without virtual "
		"time moving, between",
		(long long)sim->now, sim->same_date_events);
	for (int i = 0; i < sim->nr_livelock_threads; i++)
		fprintf(stderr, "%s %s", i ? "," : "",
			nk_thread_name(sim->livelock_threads[i]));
	fprintf(stderr, "\n");
	sim->handlers->describe(sim->nk, report_line, NULL);
	fflush(NULL);
	_exit(SIM_EXIT_LIVELOCK);
}

/* End the calling shadow's OS thread.  Last touch of @s: see reap. */
static void __attribute__((noreturn)) shadow_exit(struct sim_shadow *s)
{
	bool adopted = s->adopted;

	sim_self = NULL;
	sim_depth = 0;
	if (adopted)
		be_gate_open(&s->gone);
	be_thread_end();
}

/*
 * A handler of the program ran on @s while it waited for the baton: as
 * on live, the wait it sleeps in breaks (handlers->interrupted).  The
 * signal comes from outside the simulation: the baton holder tells the
 * nucleus at its next nucleus entry or dispatch, at whatever virtual
 * date the run has reached then (the outcome is that of live, the date
 * is not reproducible).  Not once @s is killed (the kill dequeues it).
 */
static void shadow_interrupted(struct sim_shadow *s)
{
	struct sim *sim = s->sim;

	pthread_mutex_lock(&sim->intr_lock);
	if (!s->intr_queued && !atomic_load(&s->killed)) {
		nk_list_add_before(&s->intr_link, &sim->interrupted);
		s->intr_queued = true;
		atomic_store(&sim->intr_pending, true);
	}
	pthread_mutex_unlock(&sim->intr_lock);
}

/* Is our thread @tid asleep in the kernel? */
static bool host_blocked(pid_t tid)
{
	char state = be_host_state(getpid(), tid);

	return state == 'S' || state == 'D';
}

/*
 * A thread from outside the simulation (the caller, lock held) waits
 * for the baton: the holder, outside the nucleus since the caller has
 * the lock, gives it up if it is blocked in a system call there (see
 * the header).
 */
static void cede_check(struct sim *sim)
{
	struct sim_shadow *h = sim->holder;

	if (h && h != sim_self && host_blocked(h->tid))
		pthread_kill(h->pthread, SIM_SIG_CEDE);
}

static void park(struct sim_shadow *self)
{
	while (!be_gate_wait_intr(&self->gate))
		shadow_interrupted(self);
	if (atomic_load(&self->killed))
		shadow_exit(self);
}

/*
 * @self, from outside the simulation, waits for the baton beside the
 * holder.  Lock held, released here.  It looks again now and then
 * whether the holder blocked outside the nucleus meanwhile, taking the
 * lock only if it is free: a dispatch may be handing it over with the
 * baton.
 */
static void park_beside(struct sim *sim, struct sim_shadow *self)
{
	int ret;

	cede_check(sim);
	be_lock_release(&sim->lock);
	while ((ret = be_gate_wait_for(&self->gate, SIM_CEDE_POLL_NS))) {
		if (ret == EINTR) {
			shadow_interrupted(self);
		} else if (be_lock_try(&sim->lock)) {
			cede_check(sim);
			be_lock_release(&sim->lock);
		}
	}
	if (atomic_load(&self->killed))
		shadow_exit(self);
}

/*
 * The baton holder stops executing: give the baton to the next runnable
 * shadow, delivering events until there is one.  @self (NULL for a dying
 * thread) parks until it is handed the baton again.
 */
static void dispatch(struct sim *sim, struct sim_shadow *self)
{
	sim->dispatching = true;
	for (;;) {
		struct sim_shadow *next = runnable_pop(sim);

		if (next) {
			livelock_check(sim, next->thread);
			sim->dispatching = false;
			sim->holder = next;
			if (next == self)
				return;
			be_gate_open(&next->gate);
			if (self)
				park(self);
			return;
		}
		if (service_irqs(sim) || service_kicks(sim) ||
		    service_root(sim) || service_interrupts(sim))
			continue;
		if (advance(sim))
			continue;
		if (sim->away == 0)
			report_deadlock(sim);
		/* Every thread waits, some perhaps on one that is away: the
		 * baton and the lock are free until it comes back or a call
		 * from outside readies a thread (sim_lock, sim_unlock). */
		sim->dispatching = false;
		sim->holder = NULL;
		be_lock_release(&sim->lock);
		if (self)
			park(self);
		return;
	}
}

static void *shadow_main(void *arg)
{
	struct sim_shadow *s = arg;

	sim_self = s;
	sim_depth = 1; /* the gate opens with the lock held for us */
	s->tid = gettid();
	be_gate_open(&s->started);
	be_gate_wait(&s->gate);
	if (atomic_load(&s->killed))
		return NULL;
	s->sim->handlers->thread_entry(s->thread);
	return NULL;
}

static bool sim_fini(void *priv)
{
	struct sim *sim = priv;

	if (sim->debug)
		sim_debug_close(sim->debug);
	if (sim->log)
		sim_log_close(sim->log);
	sim_scenario_free(sim);
	pthread_mutex_destroy(&sim->intr_lock);
	free(sim);
	return false;
}

static int sim_init(struct nk_instance *nk, int nr_cpus,
		    const struct nk_backend_handlers *handlers, void **priv)
{
	struct be_options opts = {0};
	const char *log_path, *scenario;
	struct sim *sim;
	int ret;

	if (nr_cpus <= 0 || nr_cpus > NK_MAX_CPUS)
		return -EINVAL;
	pthread_once(&cede_once, cede_install);
	if (cede_error)
		return cede_error;
	if (be_option_get(BE_OPT_SIM_LOG, &opts) ||
	    be_option_get(BE_OPT_SIM_SCENARIO, &opts) ||
	    be_option_get(BE_OPT_SIM_CONTROL, &opts) ||
	    be_option_get(BE_OPT_SIM_COST, &opts) ||
	    be_option_get(BE_OPT_SIM_LIVELOCK, &opts))
		return -EINVAL;
	log_path = opts.sim_log;
	scenario = opts.sim_scenario;
	sim = calloc(1, sizeof(*sim));
	if (sim == NULL)
		return -ENOMEM;
	sim->nk = nk;
	sim->handlers = handlers;
	sim->nr_cpus = nr_cpus;
	sim->cost = opts.sim_cost;
	sim->measured = opts.sim_cost_measured;
	sim->livelock_limit = opts.sim_livelock;
	for (int cpu = 0; cpu < NK_MAX_CPUS; cpu++)
		sim->deadline[cpu] = NK_INFINITE;
	nk_list_init(&sim->runnable);
	nk_list_init(&sim->interrupted);
	pthread_mutex_init(&sim->intr_lock, NULL);
	be_lock_init(&sim->lock);
	if (scenario) {
		ret = sim_scenario_load(sim, scenario);
		if (ret) {
			sim_fini(sim);
			return ret;
		}
	}
	if (log_path) {
		sim->log = sim_log_open(log_path);
		if (sim->log == NULL) {
			ret = -errno;
			sim_fini(sim);
			return ret;
		}
	}
	if (opts.sim_controlled) {
		sim->debug = sim_debug_open(sim, opts.sim_control_fd);
		if (sim->debug == NULL) {
			ret = -errno;
			sim_fini(sim);
			return ret;
		}
		/* One agent per process: the first instance's. */
		unsetenv("FUSION_SIM_CONTROL");
	}
	*priv = sim;
	return 0;
}

static nk_time_t sim_now(void *priv)
{
	return ((struct sim *)priv)->now;
}

/* Sim instances are never shared: every timer is member 0's. */
static void sim_program_timer(void *priv, int cpu, int member, nk_time_t when)
{
	(void)member;
	((struct sim *)priv)->deadline[cpu] = when;
}

static void sim_switch_to(void *priv, void *prev, void *next,
			  unsigned int flags)
{
	struct sim *sim = priv;

	if (next)
		runnable_push(sim, next);
	/* Bookkeeping only: the CPUs are virtual. */
	if (flags & NK_SWITCH_MIGRATE)
		((struct sim_shadow *)prev)->cpu =
		    nk_thread_cpu(((struct sim_shadow *)prev)->thread);
	if ((flags & NK_SWITCH_PARK) && prev != sim->holder) {
		/* @prev adopted itself (or hardens) beside the holder:
		 * dispatching here would make two executors.  The lock goes
		 * back, and comes with the baton when a dispatch hands it to
		 * @prev. */
		park_beside(sim, prev);
		return;
	}
	if (flags & NK_SWITCH_RELAX) {
		/* It keeps the baton: code outside the nucleus takes no
		 * virtual time, so it runs on until it comes back.  Unless
		 * it cedes it: the next holder gets it when @prev leaves the
		 * nucleus (sim_unlock). */
		((struct sim_shadow *)prev)->relaxed = true;
		if (sim_ceding)
			go_away(sim, prev);
		return;
	}
	if (flags & NK_SWITCH_EXIT) {
		dispatch(sim, NULL);
		shadow_exit(prev);
	}
	if (prev)
		dispatch(sim, prev);
}

static void sim_kick(void *priv, int cpu)
{
	struct sim *sim = priv;

	sim->kicked[cpu] = true;
	if (sim->holder && sim->holder->cpu == cpu)
		cede_check(sim);
}

static struct sim_shadow *shadow_new(struct sim *sim, struct nk_thread *thread)
{
	struct sim_shadow *s = calloc(1, sizeof(*s));

	if (s == NULL)
		return NULL;
	s->sim = sim;
	s->thread = thread;
	s->cpu = nk_thread_cpu(thread);
	nk_list_init(&s->run_link);
	nk_list_init(&s->intr_link);
	be_gate_init(&s->gate, false);
	be_gate_init(&s->gone, false);
	be_gate_init(&s->started, false);
	return s;
}

static int sim_thread_init(void *priv, struct nk_thread *thread,
			   size_t stack_size, void **shadow)
{
	struct sim_shadow *s = shadow_new(priv, thread);
	pthread_attr_t attr;
	char name[16];
	int ret;

	if (s == NULL)
		return -ENOMEM;
	if (stack_size < (size_t)PTHREAD_STACK_MIN)
		stack_size = PTHREAD_STACK_MIN;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, stack_size);
	*shadow = s;
	ret = pthread_create(&s->pthread, &attr, shadow_main, s);
	pthread_attr_destroy(&attr);
	if (ret) {
		*shadow = NULL;
		free(s);
		return ret == EAGAIN ? -EAGAIN : -ENOMEM;
	}
	snprintf(name, sizeof(name), "%s", nk_thread_name(thread));
	pthread_setname_np(s->pthread, name);
	/* Its id is known from creation on (thread_host). */
	be_gate_wait(&s->started);
	return 0;
}

static int sim_thread_adopt(void *priv, struct nk_thread *thread, void **shadow)
{
	struct sim *sim = priv;
	struct sim_shadow *s = shadow_new(sim, thread);
	int ret;

	if (s == NULL)
		return -ENOMEM;
	ret = be_exit_hook_arm(sim->handlers, sim->nk);
	if (ret) {
		free(s);
		return ret;
	}
	s->adopted = true;
	s->pthread = pthread_self();
	s->tid = gettid();
	/* The instance's creator starts with the baton; a thread adopted
	 * later runs beside it until its turn comes (sim_switch_to). */
	if (sim->holder == NULL)
		sim->holder = s;
	sim_self = s;
	*shadow = s;
	return 0;
}

static void sim_thread_kill(void *priv, void *shadow)
{
	struct sim *sim = priv;
	struct sim_shadow *s = shadow;

	if (atomic_load(&s->killed))
		return;
	if (s->queued) {
		nk_list_del(&s->run_link);
		s->queued = false;
	}
	if (sim->busy_on[s->cpu] == s)
		sim->busy_on[s->cpu] = NULL;
	pthread_mutex_lock(&sim->intr_lock);
	if (s->intr_queued) {
		nk_list_del(&s->intr_link);
		s->intr_queued = false;
	}
	atomic_store(&s->killed, true);
	pthread_mutex_unlock(&sim->intr_lock);
	be_gate_open(&s->gate);
}

static void sim_thread_migrate(void *priv, void *shadow, int cpu)
{
	(void)priv;
	((struct sim_shadow *)shadow)->cpu = cpu;
}

static void sim_thread_reap(void *priv, void *shadow)
{
	struct sim_shadow *s = shadow;

	(void)priv;
	if (!s->adopted) {
		pthread_join(s->pthread, NULL);
	} else if (sim_self != s) {
		be_gate_wait(&s->gone); /* it has ended: see shadow_exit */
	} else {
		be_exit_hook_disarm();
		sim_self = NULL;
	}
	free(s);
}

static struct nk_thread *sim_self_thread(void *priv)
{
	struct sim *sim = priv;
	struct sim_shadow *s = sim_self;

	if (sim == NULL)
		return s ? s->thread : NULL;
	return s && s->sim == sim && !sim->dispatching && !sim_signal_ctx
		   ? s->thread
		   : NULL;
}

static void sim_thread_host(void *priv, void *shadow, pid_t *tid,
			    pthread_t *pthread)
{
	struct sim_shadow *s = shadow;

	(void)priv;
	if (tid)
		*tid = s->tid;
	if (pthread)
		*pthread = s->pthread;
}

static unsigned long sim_thread_entries(void *priv, void *shadow)
{
	(void)priv;
	return ((struct sim_shadow *)shadow)->entries;
}

static void sim_busy(void *priv, void *shadow, nk_time_t ns)
{
	struct sim *sim = priv;
	struct sim_shadow *s = shadow;

	s->busy_until =
	    ns > NK_INFINITE - sim->now ? NK_INFINITE : sim->now + ns;
	sim->busy_on[s->cpu] = s;
	dispatch(sim, s);
}

/*
 * The calling thread's CPU clock, for FUSION_SIM_COST=measured: what it
 * spent between two service calls is charged as the second one's cost.
 */
static nk_time_t thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (nk_time_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * FUSION_SIM_COST: the service call @s (the holder, leaving the
 * nucleus) made takes that much of its CPU, as nk_consume() would:
 * what its CPU does meanwhile (timers, a more urgent thread) happens
 * first, and the rest is spent when @s runs again.  Charged as it
 * leaves, so that an entry that only recorded an event costs nothing
 * (cost_record).  Lock held once.
 */
static void charge_cost(struct sim *sim, struct sim_shadow *s)
{
	nk_time_t remaining = s->owed;

	s->owed = 0;
	while (remaining > 0) {
		nk_time_t start = sim->now;

		sim_busy(sim, s, remaining);
		remaining -= sim->now - start;
		if (remaining > 0)
			sim->handlers->preempt(sim->nk);
	}
}

static void sim_lock(void *priv)
{
	struct sim *sim = priv;
	struct sim_shadow *s = sim_self;

	if (sim_depth++ > 0)
		return;
	be_lock_acquire(&sim->lock);
	if (s == NULL || s->sim != sim || sim->dispatching)
		return;
	s->entries++;
	if (s->relaxed) {
		s->relaxed = false;
		if (s->away) {
			/* It takes the baton if it is free, else waits for
			 * it beside the holder (sim_switch_to). */
			s->away = false;
			sim->away--;
			if (sim->holder == NULL)
				sim->holder = s;
		}
		sim->handlers->harden(sim->nk);
		return;
	}
	if (s != sim->holder)
		return;
	/* Waits that signals broke meanwhile, as interrupts would. */
	if (atomic_load(&sim->intr_pending)) {
		sim_signal_ctx = true;
		service_interrupts(sim);
		sim_signal_ctx = false;
	}
	if (sim->kicked[s->cpu]) {
		/* Kicked from outside while it ran application code: this
		 * entry is its preemption point (the lock is recursive). */
		sim->kicked[s->cpu] = false;
		sim->handlers->preempt(sim->nk);
	}
	livelock_check(sim, s->thread);
	s->owed = sim->cost;
	if (sim->measured && s->cpu_mark)
		s->owed += thread_cpu() - s->cpu_mark;
}

/*
 * No thread of the simulation executes: the call from outside that
 * leaves the nucleus (or the holder that just ceded) dispatches, and
 * the lock goes with the baton.  Out of line: sim_unlock stays cheap.
 */
static void __attribute__((noinline)) unlock_dispatch(struct sim *sim)
{
	sim_depth = 1;
	dispatch(sim, NULL);
	sim_depth = 0;
}

static void sim_unlock(void *priv)
{
	struct sim *sim = priv;
	struct sim_shadow *s = sim_self;

	if (--sim_depth > 0)
		return;
	if (s && s->owed && s == sim->holder && !s->relaxed &&
	    !sim->dispatching) {
		sim_depth = 1;
		charge_cost(sim, s);
		sim_depth = 0;
	}
	if (sim->measured && s && s == sim->holder)
		s->cpu_mark = thread_cpu();
	if (sim->holder == NULL && sim->away)
		unlock_dispatch(sim);
	else
		be_lock_release(&sim->lock);
}

/*
 * SIM_SIG_CEDE, on the holder, blocked in a system call outside the
 * nucleus while a thread from outside the simulation waits for it
 * (cede_check): it relaxes, as a stray system call relaxes a thread on
 * live, and leaves the baton to the next thread; it takes it back at
 * its next nucleus entry.  Nothing if it entered the nucleus meanwhile:
 * that entry is a preemption point.
 */
static void cede_signal(int sig, siginfo_t *info, void *context)
{
	struct sim_shadow *s = sim_self;
	int saved_errno = errno;
	struct sim *sim;

	(void)sig;
	(void)info;
	(void)context;
	if (s == NULL || sim_depth > 0)
		return;
	sim = s->sim;
	sim_depth = 1;
	be_lock_acquire(&sim->lock);
	if (s == sim->holder) {
		if (s->relaxed) {
			go_away(sim, s);
		} else {
			sim->kicked[s->cpu] = false;
			sim_ceding = true;
			sim->handlers->relax(sim->nk, NK_RELAX_SYSCALL, -1);
			sim_ceding = false;
		}
	}
	sim_unlock(sim);
	errno = saved_errno;
}

static void cede_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = cede_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIM_SIG_CEDE, &sa, NULL))
		cede_error = -errno;
}

static bool sim_lock_held(void *priv)
{
	(void)priv;
	return sim_depth > 0;
}

static void sim_irq_post(void *priv, int cpu)
{
	((struct sim *)priv)->irq_posted[cpu] = true;
}

static void sim_root_post(void *priv)
{
	((struct sim *)priv)->root_posted = true;
}

/* Only scripted sources: a real fd would make runs irreproducible. */
static int sim_source_attach(void *priv, int cpu, unsigned int irq,
			     const struct ipipe_source *src)
{
	if (src->kind != IPIPE_SRC_SCRIPT)
		return -ENOTSUP;
	return sim_scenario_attach(priv, cpu, irq, src->name);
}

static void sim_source_detach(void *priv, unsigned int irq)
{
	sim_scenario_detach(priv, irq);
}

/* A scripted occurrence is an event, not a level: nothing to unmask. */
static void sim_source_end(void *priv, unsigned int irq, bool recheck)
{
	(void)priv;
	(void)irq;
	(void)recheck;
}

static int sim_source_fd(void *priv, unsigned int irq)
{
	(void)priv;
	(void)irq;
	return -EINVAL;
}

/*
 * With a cost per service call, the sink in front of all others: an
 * event a skin or the program records (a service call, a mark) enters
 * the nucleus for that alone, which costs no virtual time, whatever
 * records it.
 */
static void cost_record(void *ctx, const struct nk_trace_record *rec)
{
	struct sim *sim = ctx;
	struct sim_shadow *s = sim_self;

	if ((nk_trace_is_service(rec->event) || rec->event == NK_TRACE_MARK) &&
	    s && s->sim == sim && sim_depth == 1)
		s->owed = 0;
	if (sim->cost_next)
		sim->cost_next(sim->cost_next_ctx, rec);
}

static void sim_default_trace(void *priv, nk_trace_fn *fn, void **ctx)
{
	struct sim *sim = priv;

	if (sim->log) {
		*fn = sim_log_record;
		*ctx = sim->log;
	}
	if (sim->debug)
		sim_debug_attach(sim->debug, fn, ctx);
	if (sim->cost || sim->measured) {
		sim->cost_next = *fn;
		sim->cost_next_ctx = *ctx;
		*fn = cost_record;
		*ctx = sim;
	}
}

const struct nk_backend_ops nk_backend_sim = {
    .name = "sim",
    .init = sim_init,
    .fini = sim_fini,
    .now = sim_now,
    .program_timer = sim_program_timer,
    .switch_to = sim_switch_to,
    .kick = sim_kick,
    .thread_init = sim_thread_init,
    .thread_adopt = sim_thread_adopt,
    .thread_kill = sim_thread_kill,
    .thread_migrate = sim_thread_migrate,
    .thread_reap = sim_thread_reap,
    .thread_host = sim_thread_host,
    .thread_entries = sim_thread_entries,
    .host_faults = be_host_faults,
    .self = sim_self_thread,
    .busy = sim_busy,
    .lock = sim_lock,
    .unlock = sim_unlock,
    .lock_held = sim_lock_held,
    .chan_open = be_chan_open,
    .chan_close = be_chan_close,
    .chan_send = be_chan_send,
    .chan_recv = be_chan_recv,
    .irq_post = sim_irq_post,
    .root_post = sim_root_post,
    .source_attach = sim_source_attach,
    .source_detach = sim_source_detach,
    .source_end = sim_source_end,
    .source_fd = sim_source_fd,
    .default_trace = sim_default_trace,
};
