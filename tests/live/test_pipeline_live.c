/* SPDX-License-Identifier: MIT */
/*
 * The interrupt pipeline on the live backend: an eventfd source and a
 * signal source raise head-domain handlers that wake RT threads; an idle
 * CPU takes its sources' IRQs on the thread that waits, and leaves no
 * poller behind when another thread is made current; root handlers run
 * in an ordinary thread; a virtual IRQ round trip head -> root -> head;
 * detach and re-attach; source errors; what a handler's run time
 * counts.  Checks are on the order and number of events, on which
 * thread ran what and on error codes, never on the machine's speed: a
 * run time is held only against a busy time the test sets itself, and
 * timeouts are generous safety nets only.
 *
 * Handlers run outside nucleus threads and may make system calls (they
 * read the eventfd); RT thread bodies make none, so that no stray call
 * relaxes them.
 */
#include "harness.h"
#include "support/in_poll.h"

#include <fusion/fusion.h>
#include <fusion/pipeline.h>

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#define SAFETY_NS (10 * 1000000000LL)
#define MS (1000000LL)
#define ROUNDS 300

static struct nk_instance *nk;
static struct nk_sem sem;

/* --- event log, shared by handlers in several OS threads --- */

static char log_buf[1024];
static size_t log_len;
/* Uncontended in practice (each record follows the previous one
 * causally), so a nucleus thread taking it makes no system call. */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static void log_reset(void)
{
	log_len = 0;
	log_buf[0] = '\0';
}

/* Append @what, space-separated.  No system call. */
static void rec(const char *what)
{
	size_t n = strlen(what);

	pthread_mutex_lock(&log_lock);
	if (log_len + n + 2 <= sizeof(log_buf)) {
		if (log_len)
			log_buf[log_len++] = ' ';
		memcpy(log_buf + log_len, what, n);
		log_len += n;
		log_buf[log_len] = '\0';
	}
	pthread_mutex_unlock(&log_lock);
}

/* --- helpers --- */

/* A live instance of @nr_cpus RT CPUs; main is its thread on CPU 0. */
static void live_create_cpus(int main_priority, int nr_cpus)
{
	struct nk_instance_attr attr = {.main_priority = main_priority,
					.nr_cpus = nr_cpus};

	/* A failed check left the previous test's instance behind. */
	if (nk)
		nk_instance_destroy(nk);
	log_reset();
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	CHECK_STR(nk_instance_backend(nk), "live");
	CHECK_EQ(nk_sem_init(nk, &sem, "sem", 0, 0, 0), 0);
}

static void live_create(int main_priority)
{
	live_create_cpus(main_priority, 1);
}

static void live_destroy(void)
{
	CHECK_EQ(nk_sem_destroy(&sem), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	nk = NULL;
}

static struct nk_thread *spawn(const char *name, int prio, nk_thread_fn fn,
			       void *arg)
{
	struct nk_thread_attr attr = {
	    .name = name, .priority = prio, .flags = NK_THREAD_JOINABLE};
	struct nk_thread *thread;

	CHECK_EQ(nk_thread_create(nk, &attr, &thread), 0);
	CHECK_EQ(nk_thread_start(thread, fn, arg), 0);
	return thread;
}

static void handle(struct ipipe_domain *d, unsigned int irq, ipipe_handler_t fn,
		   void *cookie)
{
	CHECK_EQ(ipipe_virtualize_irq(d, irq, fn, cookie, IPIPE_HANDLE), 0);
}

static void unhandle(struct ipipe_domain *d, unsigned int irq)
{
	CHECK_EQ(ipipe_virtualize_irq(d, irq, NULL, NULL, IPIPE_PASS), 0);
}

/* Wait (outside the nucleus) until *@counter reaches @value. */
static bool wait_count(_Atomic unsigned long *counter, unsigned long value)
{
	struct timespec pause = {.tv_nsec = 20000};

	for (long spent = 0; spent < SAFETY_NS; spent += pause.tv_nsec) {
		if (atomic_load(counter) >= value)
			return true;
		nanosleep(&pause, NULL);
	}
	return false;
}

/* --- eventfd source --- */

static int efd = -1;
static _Atomic unsigned long wakes, handled, read_total, in_nucleus_thread;
static volatile int rt_final_take;
/* The OS threads of the last handler run and of rt_waiter. */
static pthread_t handler_thread, waiter_thread;

/* Head domain: acknowledge the device (read the eventfd), wake RT. */
static void efd_handler(unsigned int irq, void *cookie)
{
	uint64_t value = 0;

	(void)irq;
	(void)cookie;
	if (nk_thread_self(nk) != NULL)
		atomic_fetch_add(&in_nucleus_thread, 1);
	if (read(efd, &value, sizeof(value)) == sizeof(value))
		atomic_fetch_add(&read_total, value);
	handler_thread = pthread_self();
	atomic_fetch_add(&handled, 1);
	nk_sem_give(&sem);
}

/* RT thread: ROUNDS wake-ups, then none more. */
static void rt_waiter(void *arg)
{
	long rounds = (long)arg;

	waiter_thread = pthread_self();
	for (long i = 0; i < rounds; i++) {
		if (nk_sem_take(&sem, SAFETY_NS, NK_RELATIVE) != 0)
			return;
		atomic_fetch_add(&wakes, 1);
	}
	rt_final_take = nk_sem_take(&sem, 50 * MS, NK_RELATIVE);
}

static volatile int writer_ok;

/* Plain pthread: one write per round, waiting for each wake-up. */
static void *efd_writer(void *arg)
{
	long rounds = (long)arg;
	uint64_t one = 1;

	for (long i = 0; i < rounds; i++) {
		if (write(efd, &one, sizeof(one)) != sizeof(one))
			return NULL;
		if (!wait_count(&wakes, (unsigned long)i + 1))
			return NULL;
	}
	writer_ok = 1;
	return NULL;
}

static void reset_counters(void)
{
	atomic_store(&wakes, 0);
	atomic_store(&handled, 0);
	atomic_store(&read_total, 0);
	atomic_store(&in_nucleus_thread, 0);
	rt_final_take = 1;
	writer_ok = 0;
}

static int new_eventfd(void)
{
	int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);

	CHECK(fd >= 0);
	return fd;
}

/* Attaches the eventfd source @src, handled by efd_handler on the head. */
static unsigned int attach_efd(struct ipipe_source *src)
{
	unsigned int irq;

	CHECK_EQ(ipipe_attach_source(nk, src, 0, &irq), 0);
	handle(ipipe_head_domain(nk), irq, efd_handler, NULL);
	return irq;
}

/*
 * @rounds rounds: @sender (a plain pthread) makes the source fire, the
 * RT waiter wakes; both are joined.
 */
static void run_rounds(void *(*sender)(void *), long rounds)
{
	struct nk_thread *rt = spawn("rt", 50, rt_waiter, (void *)rounds);
	pthread_t thread;

	CHECK_EQ(pthread_create(&thread, NULL, sender, (void *)rounds), 0);
	CHECK_EQ(nk_thread_join(rt), 0);
	CHECK_EQ(pthread_join(thread, NULL), 0);
}

/* Each round woke the RT waiter after one handler run; nothing more came. */
static void check_rounds(long rounds)
{
	CHECK_EQ(writer_ok, 1);
	CHECK_EQ(atomic_load(&wakes), rounds);
	CHECK_EQ(atomic_load(&handled), rounds);
	CHECK_EQ(rt_final_take, -ETIMEDOUT);
}

/* Removes the head handler of the source @irq, then the source. */
static void detach(unsigned int irq)
{
	unhandle(ipipe_head_domain(nk), irq);
	CHECK_EQ(ipipe_detach_source(nk, irq), 0);
}

TEST(eventfd_source_wakes_rt_thread)
{
	struct ipipe_source src = {.kind = IPIPE_SRC_FD};
	struct ipipe_irq_stats st;
	unsigned int irq;

	live_create(10);
	reset_counters();
	src.fd = efd = new_eventfd();
	irq = attach_efd(&src);
	CHECK(irq >= IPIPE_FIRST_SOURCE_IRQ && irq < IPIPE_FIRST_VIRQ);
	CHECK_EQ(ipipe_source_fd(nk, irq), efd);
	run_rounds(efd_writer, ROUNDS);
	check_rounds(ROUNDS);
	CHECK_EQ(atomic_load(&read_total), ROUNDS);
	CHECK_EQ(atomic_load(&in_nucleus_thread), 0);
	CHECK_EQ(ipipe_irq_stats(ipipe_head_domain(nk), irq, &st), 0);
	CHECK_EQ(st.hits, ROUNDS);
	CHECK_EQ(st.handled, ROUNDS);
	CHECK_EQ(st.logged, 0);
	CHECK_EQ(st.lost, 0);
	CHECK(st.worst_ns > 0);
	detach(irq);
	close(efd);
	efd = -1;
	live_destroy();
}

static struct nk_sem go;
static pid_t main_tid;

/* Waits for "go" (which a plain pthread gives once main parked), then
 * acts as rt_waiter. */
static void rt_after_go(void *arg)
{
	if (nk_sem_take(&go, SAFETY_NS, NK_RELATIVE) == 0)
		rt_waiter(arg);
}

#define DIRECT_ROUNDS 20
static volatile int direct_rounds;

/*
 * Plain pthread: once main parked (polling the sources as the idle
 * waiter), wakes "rtpoll", which parks in turn and becomes the waiter;
 * then fires the source each time rtpoll polls, counting the rounds
 * whose handler ran on rtpoll's own thread.
 */
static void *direct_writer(void *arg)
{
	pid_t tid = -1;
	uint64_t one = 1;

	(void)arg;
	if (!in_poll_wait(main_tid, SAFETY_NS))
		return NULL;
	nk_sem_give(&go);
	for (unsigned long i = 0; i < DIRECT_ROUNDS; i++) {
		if (tid < 0)
			tid = test_task_named("rtpoll");
		if (tid < 0 || !in_poll_wait(tid, SAFETY_NS) ||
		    write(efd, &one, sizeof(one)) != sizeof(one) ||
		    !wait_count(&wakes, i + 1))
			return NULL;
		if (pthread_equal(handler_thread, waiter_thread))
			direct_rounds++;
	}
	writer_ok = 1;
	return NULL;
}

/* Starts the sources test: eventfd source, counters, "go", main's id. */
static unsigned int sources_test_start(void)
{
	struct ipipe_source src = {.kind = IPIPE_SRC_FD};

	live_create(10);
	reset_counters();
	main_tid = gettid();
	CHECK_EQ(nk_sem_init(nk, &go, "go", 0, 0, 0), 0);
	src.fd = efd = new_eventfd();
	return attach_efd(&src);
}

static void sources_test_end(unsigned int irq)
{
	CHECK_EQ(nk_sem_destroy(&go), 0);
	detach(irq);
	close(efd);
	efd = -1;
	live_destroy();
}

/*
 * An idle RT CPU with sources sleeps in epoll on them in its waiting
 * thread (the one that parked last), which runs the handler itself on an
 * arrival: one thread woken, as with a raw epoll thread.  A thread made
 * current from outside is handed over by the waiter (main here).
 */
TEST(idle_cpu_takes_irq_on_waiting_thread)
{
	unsigned int irq = sources_test_start();
	struct nk_thread *rt;
	pthread_t thread;

	direct_rounds = 0;
	rt = spawn("rtpoll", 50, rt_after_go, (void *)(long)DIRECT_ROUNDS);
	CHECK_EQ(pthread_create(&thread, NULL, direct_writer, NULL), 0);
	CHECK_EQ(nk_thread_join(rt), 0);
	CHECK_EQ(pthread_join(thread, NULL), 0);
	CHECK_EQ(writer_ok, 1);
	CHECK_EQ(direct_rounds, DIRECT_ROUNDS);
	CHECK_EQ(atomic_load(&handled), DIRECT_ROUNDS);
	CHECK_EQ(atomic_load(&in_nucleus_thread), 0);
	CHECK_EQ(rt_final_take, -ETIMEDOUT);
	sources_test_end(irq);
}

static _Atomic int spinning;
static volatile int saw_irq;

/* Made current on the idle CPU from outside, then spins (no system
 * call) until an IRQ has been handled. */
static void busy_until_irq(void *arg)
{
	nk_time_t until;

	(void)arg;
	if (nk_sem_take(&go, SAFETY_NS, NK_RELATIVE))
		return;
	until = nk_now(nk) + 2 * 1000 * MS;
	atomic_store(&spinning, 1);
	while (atomic_load(&handled) == 0 && nk_now(nk) < until)
		;
	saw_irq = atomic_load(&handled) != 0;
}

/* Plain pthread: once main polls as the idle waiter, wakes "busy",
 * then fires the source while it spins. */
static void *wake_busy_then_fire(void *arg)
{
	uint64_t one = 1;

	(void)arg;
	if (!in_poll_wait(main_tid, SAFETY_NS))
		return NULL;
	nk_sem_give(&go);
	while (!atomic_load(&spinning))
		sched_yield();
	if (write(efd, &one, sizeof(one)) == sizeof(one))
		writer_ok = 1;
	return NULL;
}

/*
 * Starts @fn in a plain SCHED_OTHER pthread kept off the RT CPU the
 * caller is pinned to (when there is another CPU), which a spinning RT
 * thread would starve: a default pthread would inherit both.
 */
static void start_outside(pthread_t *thread, void *(*fn)(void *))
{
	struct sched_param param = {.sched_priority = 0};
	int rt_cpu = sched_getcpu();
	pthread_attr_t attr;
	cpu_set_t set;

	CHECK_EQ(pthread_attr_init(&attr), 0);
	CHECK_EQ(pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED),
		 0);
	CHECK_EQ(pthread_attr_setschedpolicy(&attr, SCHED_OTHER), 0);
	CHECK_EQ(pthread_attr_setschedparam(&attr, &param), 0);
	CPU_ZERO(&set);
	for (int cpu = 0; cpu < get_nprocs(); cpu++)
		if (cpu != rt_cpu || get_nprocs() == 1)
			CPU_SET(cpu, &set);
	CHECK_EQ(pthread_attr_setaffinity_np(&attr, sizeof(set), &set), 0);
	CHECK_EQ(pthread_create(thread, &attr, fn, NULL), 0);
	pthread_attr_destroy(&attr);
}

/*
 * The waiter (main) that handed a more urgent thread over leaves the
 * poll: an IRQ arriving while that thread spins is taken at once by the
 * interrupt thread, not left to the waiter, which could only run once the
 * spinner stops.
 */
TEST(woken_thread_leaves_no_poller_behind)
{
	unsigned int irq = sources_test_start();
	struct nk_thread *busy, *rt;
	pthread_t thread;

	atomic_store(&spinning, 0);
	saw_irq = 0;
	rt = spawn("rt", 20, rt_waiter, (void *)1L);
	busy = spawn("busy", 60, busy_until_irq, NULL);
	start_outside(&thread, wake_busy_then_fire);
	CHECK_EQ(nk_thread_join(busy), 0);
	CHECK_EQ(nk_thread_join(rt), 0);
	CHECK_EQ(pthread_join(thread, NULL), 0);
	CHECK_EQ(writer_ok, 1);
	CHECK_EQ(saw_irq, 1);
	CHECK_EQ(atomic_load(&wakes), 1);
	CHECK_EQ(atomic_load(&handled), 1);
	CHECK(!pthread_equal(handler_thread, pthread_self()));
	CHECK(!pthread_equal(handler_thread, waiter_thread));
	sources_test_end(irq);
}

static struct nk_sem never;
static struct nk_thread *victim;
static volatile int victim_delete_ret;
static _Atomic nk_time_t deleted_at;

/* Runs once "go" arrives, then parks for good: the CPU's polling waiter. */
static void park_for_good(void *arg)
{
	(void)arg;
	if (nk_sem_take(&go, SAFETY_NS, NK_RELATIVE) == 0 &&
	    nk_sem_take(&never, NK_INFINITE, NK_RELATIVE) == 0)
		rec("never-given");
}

/* Plain pthread: once main polls, makes "victim" the polling waiter,
 * then deletes it there. */
static void *delete_polling_waiter(void *arg)
{
	pid_t tid;

	(void)arg;
	if (!in_poll_wait(main_tid, SAFETY_NS))
		return NULL;
	nk_sem_give(&go);
	tid = test_task_named("victim");
	if (tid < 0 || !in_poll_wait(tid, SAFETY_NS))
		return NULL;
	victim_delete_ret = nk_thread_delete(victim);
	atomic_store(&deleted_at, nk_now(nk));
	writer_ok = 1;
	return NULL;
}

/*
 * A polling waiter deleted keeps its role until it is out of the poll,
 * then hands the CPU's deadline to the interrupt thread: main's timed
 * wait still ends (it would hang if the deadline had no watcher), and
 * the source still raises its IRQ.
 */
TEST(polling_waiter_deleted)
{
	unsigned int irq = sources_test_start();
	pthread_t thread;
	uint64_t one = 1;
	nk_time_t woke_at;

	victim_delete_ret = 1;
	CHECK_EQ(nk_sem_init(nk, &never, "never", 0, 0, 0), 0);
	victim = spawn("victim", 50, park_for_good, NULL);
	start_outside(&thread, delete_polling_waiter);
	CHECK_EQ(nk_sem_take(&sem, 1000 * MS, NK_RELATIVE), -ETIMEDOUT);
	woke_at = nk_now(nk);
	CHECK_EQ(pthread_join(thread, NULL), 0);
	CHECK_EQ(writer_ok, 1);
	CHECK_EQ(victim_delete_ret, 0);
	CHECK(atomic_load(&deleted_at) < woke_at);
	CHECK_EQ(nk_thread_join(victim), 0);
	CHECK_STR(log_buf, "");
	CHECK_EQ(write(efd, &one, sizeof(one)), sizeof(one));
	CHECK_EQ(nk_sem_take(&sem, SAFETY_NS, NK_RELATIVE), 0);
	CHECK_EQ(atomic_load(&handled), 1);
	CHECK_EQ(nk_sem_destroy(&never), 0);
	sources_test_end(irq);
}

/* --- sources on two RT CPUs --- */

static int cpu_efd[2];
static struct nk_sem cpu_sem[2];
static _Atomic int handler_cpu[2];
static _Atomic unsigned long cpu_wakes[2], wrong_cpu;

/* Head domain: acknowledge, note the Linux CPU it ran on, wake. */
static void cpu_handler(unsigned int irq, void *cookie)
{
	long k = (long)cookie;
	uint64_t value;

	(void)irq;
	if (read(cpu_efd[k], &value, sizeof(value)) == sizeof(value))
		atomic_store(&handler_cpu[k], sched_getcpu());
	nk_sem_give(&cpu_sem[k]);
}

/* On RT CPU @arg: ROUNDS wake-ups by its CPU's source, each handled on
 * the Linux CPU this thread runs on (sched_getcpu: no system call). */
static void cpu_waiter(void *arg)
{
	long k = (long)arg;

	for (long i = 0; i < ROUNDS; i++) {
		if (nk_sem_take(&cpu_sem[k], SAFETY_NS, NK_RELATIVE) != 0)
			return;
		if (atomic_load(&handler_cpu[k]) != sched_getcpu())
			atomic_fetch_add(&wrong_cpu, 1);
		atomic_fetch_add(&cpu_wakes[k], 1);
	}
}

/* Plain pthread: fires each CPU's source in turn, waiting each time. */
static void *cpu_writer(void *arg)
{
	uint64_t one = 1;

	(void)arg;
	for (unsigned long i = 0; i < ROUNDS; i++)
		for (int k = 0; k < 2; k++)
			if (write(cpu_efd[k], &one, sizeof(one)) !=
				sizeof(one) ||
			    !wait_count(&cpu_wakes[k], i + 1))
				return NULL;
	writer_ok = 1;
	return NULL;
}

/*
 * Each RT CPU watches its own sources: an IRQ attached to CPU k is
 * handled on CPU k (by its idle waiter or its interrupt thread) and wakes
 * the thread waiting there, never the other CPU's.
 */
TEST(sources_on_two_rt_cpus)
{
	struct nk_thread *waiter[2];
	unsigned int irq[2];
	pthread_t thread;

	if (get_nprocs() < 2) {
		printf("one CPU here: sources_on_two_rt_cpus has nothing to "
		       "check\n");
		return;
	}
	live_create_cpus(10, 2);
	writer_ok = 0;
	atomic_store(&wrong_cpu, 0);
	for (long k = 0; k < 2; k++) {
		struct ipipe_source src = {.kind = IPIPE_SRC_FD};
		struct nk_thread_attr attr = {.name = k ? "w1" : "w0",
					      .priority = 50,
					      .cpu = (int)k,
					      .flags = NK_THREAD_JOINABLE};

		atomic_store(&cpu_wakes[k], 0);
		CHECK_EQ(nk_sem_init(nk, &cpu_sem[k], "cpu", 0, 0, 0), 0);
		src.fd = cpu_efd[k] = new_eventfd();
		CHECK_EQ(ipipe_attach_source(nk, &src, (int)k, &irq[k]), 0);
		CHECK_EQ(ipipe_virtualize_irq(ipipe_head_domain(nk), irq[k],
					      cpu_handler, (void *)k,
					      IPIPE_HANDLE),
			 0);
		CHECK_EQ(nk_thread_create(nk, &attr, &waiter[k]), 0);
		CHECK_EQ(nk_thread_start(waiter[k], cpu_waiter, (void *)k), 0);
	}
	CHECK_EQ(pthread_create(&thread, NULL, cpu_writer, NULL), 0);
	for (int k = 0; k < 2; k++)
		CHECK_EQ(nk_thread_join(waiter[k]), 0);
	CHECK_EQ(pthread_join(thread, NULL), 0);
	CHECK_EQ(writer_ok, 1);
	CHECK_EQ(atomic_load(&wrong_cpu), 0);
	for (int k = 0; k < 2; k++) {
		CHECK_EQ(atomic_load(&cpu_wakes[k]), ROUNDS);
		detach(irq[k]);
		close(cpu_efd[k]);
		CHECK_EQ(nk_sem_destroy(&cpu_sem[k]), 0);
	}
	live_destroy();
}

/* --- signal source --- */

static void count_give(unsigned int irq, void *cookie)
{
	(void)irq;
	(void)cookie;
	atomic_fetch_add(&handled, 1);
	nk_sem_give(&sem);
}

static void *signal_sender(void *arg)
{
	long rounds = (long)arg;

	for (long i = 0; i < rounds; i++) {
		/* To this thread: ThreadSanitizer would hold a process-wide
		 * signal back on a thread asleep in a raw futex call. */
		if (raise(SIGUSR1))
			return NULL;
		if (!wait_count(&wakes, (unsigned long)i + 1))
			return NULL;
	}
	writer_ok = 1;
	return NULL;
}

TEST(signal_source_raises_irq)
{
	struct ipipe_source src = {.kind = IPIPE_SRC_SIGNAL, .signo = SIGUSR1};
	struct sigaction before, after;
	unsigned int irq, again;

	live_create(10);
	reset_counters();
	CHECK_EQ(sigaction(SIGUSR1, NULL, &before), 0);
	CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), 0);
	CHECK_EQ(ipipe_attach_source(nk, &src, 0, &again), -EEXIST);
	handle(ipipe_head_domain(nk), irq, count_give, NULL);
	run_rounds(signal_sender, 100);
	check_rounds(100);
	detach(irq);
	/* Detached: the signal's previous disposition is back. */
	CHECK_EQ(sigaction(SIGUSR1, NULL, &after), 0);
	CHECK(after.sa_handler == before.sa_handler);
	/* ... and it may be attached again. */
	CHECK_EQ(ipipe_attach_source(nk, &src, 0, &again), 0);
	CHECK_EQ(ipipe_detach_source(nk, again), 0);
	live_destroy();
}

/* --- root context --- */

static pthread_t main_pthread;
static volatile int root_self_null = -1, root_is_main = -1, root_policy = -1;

static void root_handler(unsigned int irq, void *cookie)
{
	(void)irq;
	(void)cookie;
	root_self_null = nk_thread_self(nk) == NULL;
	root_is_main = pthread_equal(pthread_self(), main_pthread) != 0;
	root_policy = sched_getscheduler(0);
	nk_sem_give(&sem);
}

/* Root handlers run in an ordinary (SCHED_OTHER) non-nucleus thread. */
TEST(root_handler_runs_in_plain_thread)
{
	unsigned int irq;

	live_create(10);
	main_pthread = pthread_self();
	CHECK_EQ(ipipe_alloc_virq(nk, &irq), 0);
	handle(ipipe_root_domain(nk), irq, root_handler, NULL);
	CHECK_EQ(ipipe_trigger_irq(nk, irq, 0), 0);
	CHECK_EQ(nk_sem_take(&sem, SAFETY_NS, NK_RELATIVE), 0);
	CHECK_EQ(root_self_null, 1);
	CHECK_EQ(root_is_main, 0);
	CHECK_EQ(root_policy, SCHED_OTHER);
	unhandle(ipipe_root_domain(nk), irq);
	CHECK_EQ(ipipe_free_virq(nk, irq), 0);
	live_destroy();
}

/* --- virtual IRQ round trip --- */

static unsigned int trip[3];

/* One hop of the round trip: what it records, in and out of a thread. */
static const struct hop {
	const char *name, *in_thread;
} hops[3] = {{"head1", "head1:thread"},
	     {"root", "root:thread"},
	     {"head3", "head3:thread"}};

/* Records the hop, then raises the next one; the last wakes "rt". */
static void trip_hop(unsigned int irq, void *cookie)
{
	const struct hop *h = cookie;

	(void)irq;
	rec(nk_thread_self(nk) ? h->in_thread : h->name);
	if (h == &hops[2])
		nk_sem_give(&sem);
	else if (ipipe_trigger_irq(nk, trip[h - hops + 1], 0))
		rec("trigger-failed");
}

/* Records "rt" once the semaphore is given. */
static void rt_rec(void *arg)
{
	(void)arg;
	if (nk_sem_take(&sem, SAFETY_NS, NK_RELATIVE) == 0)
		rec("rt");
}

TEST(virq_round_trip_head_root_head)
{
	struct ipipe_domain *head, *root;
	struct nk_thread *rt;

	live_create(10);
	head = ipipe_head_domain(nk);
	root = ipipe_root_domain(nk);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(ipipe_alloc_virq(nk, &trip[i]), 0);
	for (int i = 0; i < 3; i++)
		handle(i == 1 ? root : head, trip[i], trip_hop,
		       (void *)&hops[i]);
	for (int round = 0; round < 20; round++) {
		log_reset();
		rt = spawn("rt", 50, rt_rec, NULL);
		CHECK_EQ(ipipe_trigger_irq(nk, trip[0], 0), 0);
		CHECK_EQ(nk_thread_join(rt), 0);
		CHECK_STR(log_buf, "head1 root head3 rt");
	}
	/*
	 * A run counts once its handler has returned: root's may still be
	 * finishing when the RT thread it led to has already run.
	 */
	for (int i = 0; i < 3; i++) {
		struct ipipe_domain *d = i == 1 ? root : head;
		struct ipipe_irq_stats st = {0};
		struct timespec pause = {.tv_nsec = 100000};

		for (long spent = 0; spent < SAFETY_NS;
		     spent += pause.tv_nsec) {
			CHECK_EQ(ipipe_irq_stats(d, trip[i], &st), 0);
			if (st.handled >= 20)
				break;
			nanosleep(&pause, NULL);
		}
		CHECK_EQ(st.hits, 20);
		CHECK_EQ(st.handled, 20);
	}
	live_destroy();
}

/* --- synchronous trigger --- */

static void rec_give(unsigned int irq, void *cookie)
{
	(void)irq;
	rec(cookie);
	nk_sem_give(&sem);
}

/*
 * From a thread of the IRQ's CPU, the head handler runs before
 * ipipe_trigger_irq returns, and a more urgent thread it readies runs
 * before the caller goes on.
 */
TEST(trigger_runs_head_handler_before_return)
{
	struct nk_thread *rt;
	unsigned int irq;

	live_create(10);
	CHECK_EQ(ipipe_alloc_virq(nk, &irq), 0);
	handle(ipipe_head_domain(nk), irq, rec_give, "head");
	for (int round = 0; round < 20; round++) {
		log_reset();
		rt = spawn("rt", 50, rt_rec, NULL);
		CHECK_EQ(ipipe_trigger_irq(nk, irq, 0), 0);
		rec("main");
		CHECK_EQ(nk_thread_join(rt), 0);
		CHECK_STR(log_buf, "head rt main");
	}
	live_destroy();
}

/* --- detach, re-attach, errors --- */

TEST(detach_then_reattach)
{
	struct ipipe_source src = {.kind = IPIPE_SRC_FD};
	unsigned int irq, irq2;

	live_create(10);
	reset_counters();
	src.fd = efd = new_eventfd();
	irq = attach_efd(&src);
	run_rounds(efd_writer, 3);
	CHECK_EQ(atomic_load(&wakes), 3);

	CHECK_EQ(ipipe_detach_source(nk, irq), -EBUSY);
	unhandle(ipipe_head_domain(nk), irq);
	CHECK_EQ(ipipe_detach_source(nk, irq), 0);
	CHECK_EQ(ipipe_detach_source(nk, irq), -EINVAL);
	CHECK_EQ(ipipe_source_fd(nk, irq), -EINVAL);
	/* The fd is the caller's: detaching leaves it open. */
	CHECK(fcntl(efd, F_GETFD) >= 0);

	reset_counters();
	irq2 = attach_efd(&src);
	CHECK_EQ(ipipe_source_fd(nk, irq2), efd);
	run_rounds(efd_writer, 3);
	check_rounds(3);
	detach(irq2);
	close(efd);
	efd = -1;
	live_destroy();
}

TEST(source_errors)
{
	struct ipipe_source gpio = {.kind = IPIPE_SRC_GPIO,
				    .path = "/dev/nonexistent-gpiochip",
				    .line = 3,
				    .edges =
					IPIPE_GPIO_RISING | IPIPE_GPIO_FALLING};
	struct ipipe_source uio = {.kind = IPIPE_SRC_UIO,
				   .path = "/dev/nonexistent-uio"};
	struct ipipe_source script = {.kind = IPIPE_SRC_SCRIPT, .name = "a"};
	struct ipipe_source fd = {.kind = IPIPE_SRC_FD, .fd = -1};
	unsigned int irq;

	live_create(10);
	CHECK_EQ(ipipe_attach_source(nk, &gpio, 0, &irq), -ENOENT);
	CHECK_EQ(ipipe_attach_source(nk, &uio, 0, &irq), -ENOENT);
	CHECK_EQ(ipipe_attach_source(nk, &script, 0, &irq), -ENOTSUP);
	CHECK_EQ(ipipe_attach_source(nk, &fd, 0, &irq), -EINVAL);
	CHECK_EQ(ipipe_attach_source(nk, &fd, 0, NULL), -EINVAL);
	fd.fd = 0;
	CHECK_EQ(ipipe_attach_source(nk, &fd, nk_instance_nr_cpus(nk), &irq),
		 -EINVAL);
	/* A failed attach leaves no number behind: the next gets the first. */
	fd.fd = new_eventfd();
	CHECK_EQ(ipipe_attach_source(nk, &fd, 0, &irq), 0);
	CHECK_EQ(irq, IPIPE_FIRST_SOURCE_IRQ);
	CHECK_EQ(ipipe_detach_source(nk, irq), 0);
	close(fd.fd);
	live_destroy();
}

/* --- storms (each in a child process, whose stderr is read) --- */

static _Atomic unsigned long storm_runs;
static _Atomic bool storm_stop;
static nk_time_t storm_spin_ns;

/* Head domain: leaves the eventfd readable, busy for storm_spin_ns. */
static void storm_handler(unsigned int irq, void *cookie)
{
	nk_time_t end = nk_now(nk) + storm_spin_ns;

	(void)irq;
	(void)cookie;
	while (nk_now(nk) < end)
		;
	atomic_fetch_add(&storm_runs, 1);
}

/* Plain pthread: a device that never stops raising. */
static void *storm_writer(void *arg)
{
	uint64_t one = 1;

	(void)arg;
	while (!atomic_load(&storm_stop))
		if (write(efd, &one, sizeof(one)) != sizeof(one))
			break;
	return NULL;
}

/* In a child: a live instance with an eventfd source under @budget. */
static int storm_setup(const struct ipipe_budget *budget, unsigned int *irq)
{
	struct nk_instance_attr attr = {.main_priority = 10};
	struct ipipe_source src = {.kind = IPIPE_SRC_FD};

	atomic_store(&storm_runs, 0);
	atomic_store(&storm_stop, false);
	src.fd = efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (efd < 0 || nk_instance_create(&attr, &nk) ||
	    ipipe_set_budget(nk, budget) ||
	    ipipe_attach_source(nk, &src, 0, irq))
		return -1;
	return ipipe_virtualize_irq(ipipe_head_domain(nk), *irq, storm_handler,
				    NULL, IPIPE_HANDLE);
}

/* Sleeps in 1 ms steps until @irq is masked or the safety delay ends. */
static bool wait_masked(unsigned int irq)
{
	for (long spent = 0; spent < SAFETY_NS; spent += MS) {
		if (ipipe_irq_masked(nk, irq) == 1)
			return true;
		if (nk_thread_sleep(nk, MS, NK_RELATIVE))
			return false;
	}
	return false;
}

static void low_sleeper(void *arg)
{
	(void)arg;
	for (int i = 0; i < 20; i++)
		if (nk_thread_sleep(nk, MS, NK_RELATIVE))
			return;
	rec("low");
}

/*
 * The eventfd is written without end and never drained: the source is
 * masked at its 201st arrival, stays quiet while the writer goes on, a
 * low-priority RT thread gets the CPU, and an unlock enables it again.
 * Returns the failed step, 0 for none.
 */
static int fd_storm_child(void *arg)
{
	struct ipipe_budget budget = {.window_ns = 1000 * MS, .arrivals = 200};
	struct nk_thread_attr low_attr = {
	    .name = "low", .priority = 1, .flags = NK_THREAD_JOINABLE};
	struct nk_thread *low;
	unsigned long runs;
	pthread_t writer;
	unsigned int irq;

	(void)arg;
	log_reset();
	if (storm_setup(&budget, &irq))
		return 1;
	if (pthread_create(&writer, NULL, storm_writer, NULL))
		return 2;
	if (!wait_masked(irq))
		return 3;
	runs = atomic_load(&storm_runs);
	if (runs < 200 || nk_thread_sleep(nk, 50 * MS, NK_RELATIVE) ||
	    atomic_load(&storm_runs) != runs)
		return 4;
	if (nk_thread_create(nk, &low_attr, &low) ||
	    nk_thread_start(low, low_sleeper, NULL) || nk_thread_join(low) ||
	    strcmp(log_buf, "low") != 0)
		return 5;
	atomic_store(&storm_stop, true);
	pthread_join(writer, NULL);
	if (ipipe_unlock_irq(nk, irq) || ipipe_irq_masked(nk, irq) != 0 ||
	    !wait_count(&storm_runs, runs + 1))
		return 6;
	return 0;
}

TEST(fd_storm_is_masked_until_enabled)
{
	char err[4096];
	int status = test_run_child(fd_storm_child, NULL, err, sizeof(err));

	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
	CHECK(strstr(err, "fusion: irq 64 (fd ") == err);
	CHECK(strstr(err, ") on cpu 0: interrupt storm, 201 arrivals and ") !=
	      NULL);
	CHECK(strstr(err,
		     " (budget: 200 arrivals, 0 us in handlers per "
		     "1000000 us); masked until ipipe_unlock_irq()\n") != NULL);
}

/*
 * Handlers of 400 us against a budget of 1 ms of handler time: the
 * third run at the latest spends it (more if preempted meanwhile), and
 * the next arrival is refused.  Returns the failed step, 0 for none.
 */
static int handler_time_child(void *arg)
{
	struct ipipe_budget budget = {.window_ns = 10000 * MS,
				      .handler_ns = 1 * MS};
	unsigned long runs;
	uint64_t one = 1;
	unsigned int irq;

	(void)arg;
	storm_spin_ns = 400 * 1000;
	if (storm_setup(&budget, &irq))
		return 1;
	for (runs = 0; runs < 10 && ipipe_irq_masked(nk, irq) == 0; runs++) {
		if (write(efd, &one, sizeof(one)) != sizeof(one))
			return 2;
		while (atomic_load(&storm_runs) == runs &&
		       ipipe_irq_masked(nk, irq) == 0)
			if (nk_thread_sleep(nk, MS, NK_RELATIVE))
				return 3;
	}
	runs = atomic_load(&storm_runs);
	return ipipe_irq_masked(nk, irq) == 1 && runs >= 1 && runs <= 3 ? 0 : 4;
}

TEST(handler_time_spends_the_budget)
{
	char err[4096];
	int status = test_run_child(handler_time_child, NULL, err, sizeof(err));

	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
	CHECK(strstr(err, "interrupt storm, ") != NULL);
	CHECK(strstr(err, " (budget: 0 arrivals, 1000 us in handlers per "
			  "10000000 us); masked until ipipe_unlock_irq()\n") !=
	      NULL);
}

/* --- handler run times --- */

#define SLOW_NS (40 * MS)

static unsigned int chained_irq;

/* Head domain: acknowledges, is busy for SLOW_NS, raises chained_irq. */
static void slow_handler(unsigned int irq, void *cookie)
{
	uint64_t value;
	nk_time_t end = nk_now(nk) + SLOW_NS;

	(void)irq;
	(void)cookie;
	if (read(efd, &value, sizeof(value)) != sizeof(value))
		return;
	while (nk_now(nk) < end)
		;
	ipipe_trigger_irq(nk, chained_irq, 0);
}

static void count_handler(unsigned int irq, void *cookie)
{
	(void)irq;
	(void)cookie;
	atomic_fetch_add(&handled, 1);
}

/*
 * A handler raised by a slow one runs after it, in the same pass, and
 * is charged its own run time: it starts when the slow one ended, not
 * when the arrival that began the pass came.  The bound is half the
 * slow handler's busy time, set by the test, not by the machine.
 */
TEST(handler_raised_by_a_slow_one_is_timed_from_its_own_start)
{
	struct ipipe_source src = {.kind = IPIPE_SRC_FD};
	struct ipipe_irq_stats slow, chained;
	uint64_t one = 1;
	unsigned int irq;

	live_create(10);
	reset_counters();
	src.fd = efd = new_eventfd();
	CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), 0);
	CHECK_EQ(ipipe_alloc_virq(nk, &chained_irq), 0);
	handle(ipipe_head_domain(nk), chained_irq, count_handler, NULL);
	handle(ipipe_head_domain(nk), irq, slow_handler, NULL);
	CHECK_EQ(write(efd, &one, sizeof(one)), (ssize_t)sizeof(one));
	CHECK(wait_count(&handled, 1));
	CHECK_EQ(ipipe_irq_stats(ipipe_head_domain(nk), irq, &slow), 0);
	CHECK_EQ(ipipe_irq_stats(ipipe_head_domain(nk), chained_irq, &chained),
		 0);
	CHECK_EQ(slow.handled, 1);
	CHECK_EQ(chained.handled, 1);
	CHECK(slow.worst_ns >= SLOW_NS);
	CHECK(chained.worst_ns < SLOW_NS / 2);
	detach(irq);
	unhandle(ipipe_head_domain(nk), chained_irq);
	CHECK_EQ(ipipe_free_virq(nk, chained_irq), 0);
	close(efd);
	efd = -1;
	live_destroy();
}

static void storm_tick(struct nk_timer *timer)
{
	(void)timer;
	atomic_fetch_add(&storm_runs, 1);
}

static void nop(unsigned int irq, void *cookie)
{
	(void)irq;
	(void)cookie;
}

/* Plain pthread: raises virtual IRQ *@arg, whose handler then runs in
 * the CPU's interrupt thread. */
static void *trigger_from_outside(void *arg)
{
	ipipe_trigger_irq(nk, *(unsigned int *)arg, 0);
	return NULL;
}

/* The policy of thread @tid, or -1. */
static int policy_of(pid_t tid)
{
	return sched_getscheduler(tid);
}

/*
 * With the budget off, a timer of 1 us period keeps the interrupt thread
 * busy while main is relaxed: its watchdog demotes it, and once the
 * storm has ended, a wake-up after a calm period gives it SCHED_FIFO
 * back.  Returns
 * the failed step, 0 for none, 10 without real-time priority.
 */
static int irq_thread_child(void *arg)
{
	struct ipipe_budget off = {0};
	struct timespec storm = {.tv_sec = 2};
	const long calm = 100 * MS;
	struct nk_instance_attr attr = {.main_priority = 10};
	struct nk_timer timer;
	pthread_t outside;
	unsigned int virq;
	pid_t tid;

	(void)arg;
	setenv("FUSION_WATCHDOG_MS", "300", 1);
	if (nk_instance_create(&attr, &nk) || ipipe_set_budget(nk, &off) ||
	    ipipe_alloc_virq(nk, &virq) ||
	    ipipe_virtualize_irq(ipipe_head_domain(nk), virq, nop, NULL,
				 IPIPE_HANDLE))
		return 1;
	/* It names itself once it runs. */
	while ((tid = test_task_named("fusion-irq/0")) < 0)
		if (nk_thread_sleep(nk, MS, NK_RELATIVE))
			return 2;
	if (policy_of(tid) != SCHED_FIFO)
		return 10;
	if (nk_timer_init(nk, &timer, "storm", 0, storm_tick, NULL) ||
	    nk_timer_start(&timer, 1000, 1000, NK_RELATIVE) ||
	    nk_thread_relax(nk))
		return 3;
	nanosleep(&storm, NULL);
	if (policy_of(tid) != SCHED_OTHER)
		return 4;
	if (nk_timer_stop(&timer) || nk_thread_relax(nk))
		return 5;
	/* Wake-ups until one ends a calm period. */
	for (long spent = 0; policy_of(tid) != SCHED_FIFO; spent += calm) {
		if (spent > SAFETY_NS ||
		    pthread_create(&outside, NULL, trigger_from_outside, &virq))
			return 6;
		pthread_join(outside, NULL);
		nanosleep(&(struct timespec){.tv_nsec = calm}, NULL);
	}
	return 0;
}

TEST(busy_interrupt_thread_is_demoted_then_restored)
{
	char err[4096];
	const char *no_rt = getenv("FUSION_NO_RT");
	int status = test_run_child(irq_thread_child, NULL, err, sizeof(err));

	CHECK(WIFEXITED(status));
	if (no_rt && no_rt[0] && no_rt[0] != '0') {
		CHECK_EQ(WEXITSTATUS(status), 10);
		return;
	}
	CHECK_EQ(WEXITSTATUS(status), 0);
	CHECK(strstr(err, "fusion: watchdog: interrupt thread fusion-irq/0 "
			  "(tid ") != NULL);
	CHECK(strstr(err, "; demoted to SCHED_OTHER until it calms down\n") !=
	      NULL);
	CHECK(strstr(err, "fusion: watchdog: interrupt thread fusion-irq/0 "
			  "back to SCHED_FIFO 99\n") != NULL);
}

TESTS(T(eventfd_source_wakes_rt_thread),
      T(idle_cpu_takes_irq_on_waiting_thread),
      T(woken_thread_leaves_no_poller_behind), T(polling_waiter_deleted),
      T(sources_on_two_rt_cpus), T(signal_source_raises_irq),
      T(root_handler_runs_in_plain_thread), T(virq_round_trip_head_root_head),
      T(trigger_runs_head_handler_before_return), T(detach_then_reattach),
      T(source_errors), T(fd_storm_is_masked_until_enabled),
      T(handler_time_spends_the_budget),
      T(handler_raised_by_a_slow_one_is_timed_from_its_own_start),
      T(busy_interrupt_thread_is_demoted_then_restored));
