/* SPDX-License-Identifier: MIT */
/*
 * The interrupt events of each RT CPU, and its interrupt thread.
 *
 * An RT CPU's interrupts are its timer (a timerfd armed at the nucleus's
 * next deadline for the CPU) and the fds of the sources attached to it.
 * Two threads may take them, through two epoll sets that watch them all
 * edge-triggered and exclusively, the idle waiter's set registered first:
 *
 *   - while the CPU idles, the shadow that parked last (the idle waiter)
 *     sleeps in its set and takes them itself: a periodic thread or a
 *     thread a device wakes is the one thread to wake up, as with
 *     clock_nanosleep or a raw epoll thread;
 *   - otherwise the arrival falls through to the interrupt thread
 *     ("fusion-irq/N", pinned to the CPU above every shadow), which
 *     preempts whatever runs.
 *
 * The interrupt thread also takes kicks of an idle CPU and pipeline syncs
 * posted to it, through an eventfd.  The timerfd is re-armed under the
 * nucleus lock, whenever the deadline moves earlier than the date it is
 * armed at, and before the CPU returns to application code: an expiry
 * nobody needed is a wasted wake-up, not a lost one.
 *
 * An idle waiter does not arm it: it polls with a timeout ending at the
 * deadline (epoll_pwait2), and the timerfd stays armed at whatever later
 * date it had.  A periodic thread then costs one system call a period,
 * as with clock_nanosleep, instead of arming the timerfd for its next
 * release and again, once woken, for the later deadline of another
 * thread.  A deadline moved earlier by another CPU, while the waiter
 * polls, arms the timerfd, which is in the waiter's set.
 *
 * A CPU with no source to watch has nothing but its deadline: its waiter
 * sleeps on its own gate's futex until the deadline, an absolute date
 * (be_gate_poll_sleep), woken there by an open or a ring.  A relative
 * timeout starts late by the system call's entry, and a stop and
 * continue of the process fails a poll with EINTR where the kernel
 * restarts the futex wait.  A deadline moved earlier by another CPU
 * rings the waiter then, which sleeps again until it.
 *
 * In a session each member has its own timerfd, interrupt thread and
 * idle set per RT CPU, for its own timers and sources (the CPU's one
 * idle waiter, of whichever member, takes only its own process's).  A
 * member that moves another's deadline earlier rings that member's
 * interrupt thread there (BE_SIG_DOORBELL), which arms its timerfd.  A
 * shadow that gives its CPU to another process's thread, or an idle
 * waiter that hands its role over, arms its own first: the other brings
 * up to date its own timer only.  A periodic thread of a session then
 * costs one system call a period too.
 */
#include "live.h"

#include <fusion/pipeline.h>

#include <errno.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

/* Marks in the epoll sets, beside source IRQ numbers. */
#define EV_TIMER IPIPE_NR_IRQS
#define EV_DOORBELL (IPIPE_NR_IRQS + 1)
#define EV_KICK (IPIPE_NR_IRQS + 2)
/* How the timer and every source fd are watched, in both sets. */
#define WATCH_EVENTS (EPOLLIN | EPOLLET | EPOLLEXCLUSIVE)

__thread struct live_cpu *live_irq_cpu;

static void efd_drain(int fd)
{
	uint64_t count;

	if (read(fd, &count, sizeof(count)) < 0)
		return; /* drained already */
}

void live_irq_wake(struct live_cpu *cpu)
{
	be_efd_signal(cpu->irq_efd);
}

nk_hot void live_timer_sync(struct live_cpu *c)
{
	nk_time_t when = atomic_load(c->deadline);
	struct itimerspec its = {0};

	if (when == c->armed)
		return;
	/* Fired, so disarmed already. */
	if (when == NK_INFINITE && c->armed == LIVE_TIMER_FIRED) {
		c->armed = NK_INFINITE;
		return;
	}
	/* A date already past (0 would disarm) fires at once. */
	if (when != NK_INFINITE) {
		its.it_value.tv_sec = when / 1000000000;
		its.it_value.tv_nsec = when % 1000000000;
		if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0)
			its.it_value.tv_nsec = 1;
	}
	if (timerfd_settime(c->timer_fd, TFD_TIMER_ABSTIME, &its, NULL) == 0)
		c->armed = when;
}

void live_timer_remote(struct live *live, int cpu, int member, nk_time_t when)
{
	struct live_cpu_shared *c = &live->sh->cpus[cpu];
	pid_t tid = atomic_load(&c->irq_tid[member]);
	nk_time_t old;

	nk_journal_obj(&c->deadline[member]);
	old = atomic_exchange(&c->deadline[member], when);

	if (when < old && tid > 0)
		syscall(SYS_tgkill, atomic_load(&live->sh->pid[member]), tid,
			BE_SIG_DOORBELL);
}

bool live_idle_on_gate(struct live_cpu *c)
{
	return atomic_load(&c->watched) == 0;
}

nk_hot nk_time_t live_timer_idle(struct live *live, struct live_cpu *c)
{
	nk_time_t when = atomic_load(c->deadline);

	if (live_idle_on_gate(c))
		return when;
	if (!live->poll_timeout) {
		live_timer_sync(c);
		return NK_INFINITE;
	}
	/* Armed no later than the deadline: the timerfd wakes the poll. */
	if (c->armed != LIVE_TIMER_FIRED && c->armed <= when)
		return NK_INFINITE;
	return when;
}

/* Lock held: run the timer handler if the deadline has passed by @now.
 * Did it? */
static bool timer_due(struct live *live, struct live_cpu *c, nk_time_t now)
{
	if (atomic_load(c->deadline) > now)
		return false;
	atomic_store(c->deadline, NK_INFINITE);
	/* One-shot, it fired, unless an idle waiter's timeout came first.
	 * The caller arms it once, for the deadline the handler leaves,
	 * however many times the handler programs one. */
	if (c->armed <= now)
		c->armed = LIVE_TIMER_FIRED;
	live->handlers->timer(live->nk, c->index, now);
	return true;
}

/*
 * Lock held, interrupt context: the timer if due, the sources that
 * reported among @events (@n of them, from @epfd), and more of @epfd's
 * while a batch was full.  Eventfds reported are drained.  The clock
 * reading that checks the timer dates the first arrival too, whose
 * handler starts then; one after a handler ran is dated anew.
 */
static nk_hot void take_events(struct live *live, struct live_cpu *c, int epfd,
			       struct epoll_event *events, int n)
{
	for (;;) {
		nk_time_t now = live_clock();
		bool ran = timer_due(live, c, now);

		for (int i = 0; i < n; i++) {
			unsigned int what = events[i].data.u32;

			if (what < IPIPE_NR_IRQS) {
				if (ran)
					now = live_clock();
				live_source_deliver(live, c->index, what, now);
				ran = true;
			} else if (what == EV_DOORBELL) {
				efd_drain(c->idle_efd);
			} else if (what == EV_KICK) {
				efd_drain(c->irq_efd);
			}
		}
		if (n < LIVE_EVENTS)
			break;
		n = epoll_wait(epfd, events, LIVE_EVENTS, 0);
	}
}

/*
 * In a session, the thread others ring (live_timer_remote): named in
 * the segment, then it looks once at a deadline moved before it was
 * there to be rung.
 */
static void irq_ring_here(struct live *live, struct live_cpu *cpu)
{
	sigset_t bell;

	sigemptyset(&bell);
	sigaddset(&bell, BE_SIG_DOORBELL);
	pthread_sigmask(SIG_UNBLOCK, &bell, NULL);
	atomic_store(&cpu->sh->irq_tid[live->member], gettid());
	live_nucleus_lock(live);
	live_timer_sync(cpu);
	live_nucleus_unlock(live);
}

static void *irq_main(void *arg)
{
	struct live_cpu *cpu = arg;
	struct live *live = cpu->live;
	char name[16];

	live_irq_cpu = cpu;
	snprintf(name, sizeof(name), "fusion-irq/%d", cpu->index);
	pthread_setname_np(pthread_self(), name);
	live_irq_watchdog_start(live, cpu);
	if (live->shared)
		irq_ring_here(live, cpu);
	while (!atomic_load(&live->stopping)) {
		struct epoll_event events[LIVE_EVENTS];
		nk_time_t waited = live_clock();
		int n = epoll_wait(cpu->irq_epfd, events, LIVE_EVENTS, -1);

		live_irq_watchdog_check(cpu, waited);
		live_nucleus_lock(live);
		take_events(live, cpu, cpu->irq_epfd, events, n < 0 ? 0 : n);
		/* After the kick eventfd was drained: set before it was
		 * written to. */
		if (atomic_exchange(&cpu->irq_posted, false))
			live->handlers->irq_sync(live->nk, cpu->index);
		if (atomic_exchange(&cpu->idle_kick, false))
			live->handlers->resched(live->nk, cpu->index);
		live_timer_sync(cpu);
		live_nucleus_unlock(live);
	}
	return NULL;
}

void live_irq_post(void *priv, int index)
{
	struct live_cpu *cpu = &((struct live *)priv)->cpus[index];

	atomic_store(&cpu->irq_posted, true);
	live_irq_wake(cpu);
}

/* Wait in @c's idle set until @until at the latest (NK_INFINITE: no
 * timeout). */
static int idle_wait(struct live_cpu *c, struct epoll_event *events,
		     nk_time_t until)
{
	struct timespec left = {0, 0};
	nk_time_t ns;

	if (until == NK_INFINITE)
		return epoll_wait(c->idle_epfd, events, LIVE_EVENTS, -1);
	ns = until - live_clock();
	if (ns > 0) {
		left.tv_sec = ns / 1000000000;
		left.tv_nsec = ns % 1000000000;
	}
	return epoll_pwait2(c->idle_epfd, events, LIVE_EVENTS, &left, NULL);
}

bool live_poll_timeout_probe(void)
{
	struct timespec none = {0, 0};
	struct epoll_event ev;
	int epfd = epoll_create1(EPOLL_CLOEXEC);
	bool ok;

	if (epfd < 0)
		return false;
	ok = epoll_pwait2(epfd, &ev, 1, &none, NULL) == 0;
	close(epfd);
	return ok;
}

nk_hot int live_idle_poll(struct live_cpu *c, struct live_shadow *s,
			  nk_time_t until,
			  struct epoll_event events[LIVE_EVENTS],
			  bool *interrupted)
{
	bool on_gate = live_idle_on_gate(c);
	int n;

	if (be_gate_poll_begin(&s->gate, on_gate ? -1 : c->idle_efd, s->tid))
		return -1;
	/* Replaced as the waiter before it announced the poll: the one who
	 * did it saw no poll to hand over through. */
	if (atomic_load(&c->sh->idle_waiter) != s) {
		be_gate_poll_end(&s->gate);
		return 0;
	}
	if (on_gate) {
		int64_t date = until == NK_INFINITE ? INT64_MAX : until;

		*interrupted = be_gate_poll_sleep(&s->gate, date) == EINTR;
		n = 0;
	} else {
		n = idle_wait(c, events, until);
		*interrupted = n < 0 && errno == EINTR;
	}
	be_gate_poll_end(&s->gate);
	return n < 0 ? 0 : n;
}

nk_hot void live_idle_take(struct live *live, struct live_cpu *c,
			   struct epoll_event events[LIVE_EVENTS], int n)
{
	take_events(live, c, c->idle_epfd, events, n);
}

int live_cpu_watch(struct live_cpu *c, int fd, unsigned int irq)
{
	struct epoll_event ev = {.events = WATCH_EVENTS, .data.u32 = irq};

	/* The idle waiter's set first: an arrival goes to it if it waits. */
	if (epoll_ctl(c->idle_epfd, EPOLL_CTL_ADD, fd, &ev))
		return -errno;
	if (epoll_ctl(c->irq_epfd, EPOLL_CTL_ADD, fd, &ev)) {
		int ret = -errno;

		epoll_ctl(c->idle_epfd, EPOLL_CTL_DEL, fd, NULL);
		return ret;
	}
	atomic_fetch_add(&c->watched, 1);
	return 0;
}

void live_cpu_unwatch(struct live_cpu *c, int fd)
{
	epoll_ctl(c->irq_epfd, EPOLL_CTL_DEL, fd, NULL);
	epoll_ctl(c->idle_epfd, EPOLL_CTL_DEL, fd, NULL);
	atomic_fetch_sub(&c->watched, 1);
}

void live_cpu_rewatch(struct live_cpu *c, int fd, unsigned int irq)
{
	struct epoll_event ev = {.events = WATCH_EVENTS, .data.u32 = irq};

	/*
	 * Adding an fd reports what is already there (an exclusive watch
	 * cannot be modified).  The interrupt thread's watch stays behind
	 * the idle waiter's: it raises what is there.
	 */
	epoll_ctl(c->irq_epfd, EPOLL_CTL_DEL, fd, NULL);
	epoll_ctl(c->irq_epfd, EPOLL_CTL_ADD, fd, &ev);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void events_close(struct live_cpu *c)
{
	close_fd(&c->timer_fd);
	close_fd(&c->idle_efd);
	close_fd(&c->idle_epfd);
	close_fd(&c->irq_efd);
	close_fd(&c->irq_epfd);
}

/* An epoll set holding the eventfd @efd (reported as @mark), then the
 * timer. */
static int events_set(struct live_cpu *c, int efd, unsigned int mark)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.u32 = mark};
	struct epoll_event timer = {.events = WATCH_EVENTS,
				    .data.u32 = EV_TIMER};
	int epfd = epoll_create1(EPOLL_CLOEXEC);

	if (epfd >= 0 &&
	    (epoll_ctl(epfd, EPOLL_CTL_ADD, efd, &ev) ||
	     epoll_ctl(epfd, EPOLL_CTL_ADD, c->timer_fd, &timer))) {
		close(epfd);
		epfd = -1;
	}
	return epfd;
}

int live_irq_start(struct live *live, struct live_cpu *cpu)
{
	int ret;

	cpu->armed = NK_INFINITE;
	cpu->timer_fd =
	    timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	cpu->idle_efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	cpu->irq_efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	cpu->idle_epfd = cpu->irq_epfd = -1;
	if (cpu->timer_fd >= 0 && cpu->idle_efd >= 0 && cpu->irq_efd >= 0) {
		/* The idle waiter's set first, as for sources. */
		cpu->idle_epfd = events_set(cpu, cpu->idle_efd, EV_DOORBELL);
		if (cpu->idle_epfd >= 0)
			cpu->irq_epfd = events_set(cpu, cpu->irq_efd, EV_KICK);
	}
	if (cpu->irq_epfd < 0) {
		ret = -errno;
		events_close(cpu);
		return ret;
	}
	ret = live_thread_start(&cpu->irq_thread, irq_main, cpu, cpu->linux_cpu,
				live->rt ? live_fifo_irq(live) : 0, 0);
	if (ret) {
		events_close(cpu);
		return ret;
	}
	cpu->irq_started = true;
	return 0;
}

void live_irq_stop(struct live *live)
{
	atomic_store(&live->stopping, true);
	for (int i = 0; i < live->nr_cpus; i++) {
		struct live_cpu *cpu = &live->cpus[i];

		if (!cpu->irq_started)
			continue;
		live_irq_wake(cpu);
		pthread_join(cpu->irq_thread, NULL);
		atomic_store(&cpu->sh->irq_tid[live->member], 0);
		events_close(cpu);
		cpu->irq_started = false;
	}
}
