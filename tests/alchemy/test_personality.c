/* SPDX-License-Identifier: MIT */
/*
 * Alchemy as a personality.  A thread of another skin (a minimal test
 * skin: one nk_personality, threads made with nk_thread_create) or a
 * bare nucleus thread is attached to Alchemy on its first call, uses
 * Alchemy objects, and is cleaned up when it ends.  Every way an
 * Alchemy task ends frees its name and wakes its senders with -EIDRM:
 * return, deletion by another task, self-deletion, a shadowed pthread
 * that returns, the end of the process.  A plain pthread gets Xenomai's
 * answers from each class of service, and stays a plain pthread.
 */
#include "alchemy_test.h"

#include <alchemy/event.h>
#include <alchemy/mutex.h>
#include <alchemy/queue.h>
#include <alchemy/sem.h>

#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Alchemy priority @p runs at nucleus priority @p + 1. */
#define NK_PRIO(p) ((p) + 1)

/* --- the test skin --- */

/* Set when the survivor's thread was made: checked at process end. */
static bool survivor_spawned;
static int survivor_bind = 1;

/*
 * Notes "exit:<thread>", "-unnamed" added when Alchemy's name for the
 * thread is free already: Alchemy, attached after the test skin, is
 * torn down first.
 */
static void testskin_exit(struct nk_thread *thread, void *ext)
{
	const char *name = nk_thread_name(thread);
	char item[64];
	RT_TASK d;
	int bound = rt_task_bind(&d, name, TM_NONBLOCK);

	(void)ext;
	if (strcmp(name, "survivor") == 0)
		survivor_bind = bound;
	snprintf(item, sizeof(item), "exit:%s%s", name,
		 bound ? "-unnamed" : "");
	step(item);
}

static const struct nk_personality testskin = {
    .name = "testskin",
    .exit = testskin_exit,
};

/* The test skin's one service: the caller starts using the skin. */
static void testskin_touch(void)
{
	struct nk_instance *nk = test_runtime();

	CHECK_EQ(nk_personality_register(nk, &testskin, NULL), 0);
	CHECK_EQ(nk_thread_attach(nk_thread_self(nk), &testskin, NULL), 0);
}

/* A thread of the test skin (or a bare one) at nucleus priority @prio. */
static void skin_spawn(const char *name, int prio, bool skin, nk_thread_fn body,
		       void *arg)
{
	struct nk_instance *nk = test_runtime();
	struct nk_thread_attr attr = {.name = name, .priority = prio};
	struct nk_thread *t;

	CHECK_EQ(nk_personality_register(nk, &testskin, NULL), 0);
	CHECK_EQ(nk_thread_create(nk, &attr, &t), 0);
	if (skin)
		CHECK_EQ(nk_thread_attach(t, &testskin, NULL), 0);
	CHECK_EQ(nk_thread_start(t, body, arg), 0);
}

/* @name names no task any more: bind fails, create succeeds. */
static void check_name_free(const char *name)
{
	RT_TASK d;

	CHECK_EQ(rt_task_bind(&d, name, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_task_create(&d, name, 0, 10, 0), 0);
	CHECK_EQ(rt_task_delete(&d), 0);
}

/* --- threads of another skin --- */

static RT_MUTEX fmutex;
static RT_QUEUE fqueue;
static RT_TASK fself;

static void foreign_body(void *arg)
{
	void *msg;
	ssize_t n;

	(void)arg;
	CHECK(rt_task_self() != NULL);
	/* Attached with the defaults, as main: it may take a name once. */
	CHECK_EQ(rt_task_shadow(NULL, "foreign", 30, 0), 0);
	fself = *rt_task_self();
	CHECK_EQ(rt_task_shadow(NULL, "again", 30, 0), -EBUSY);
	CHECK_EQ(rt_mutex_acquire(&fmutex, TM_INFINITE), 0);
	note("locked");
	n = rt_queue_receive(&fqueue, &msg, TM_INFINITE);
	note("got:%zd", n);
	CHECK_EQ(rt_queue_free(&fqueue, msg), 0);
	CHECK_EQ(rt_mutex_release(&fmutex), 0);
}

TEST(thread_of_another_skin_uses_alchemy_objects)
{
	RT_MUTEX_INFO info;
	RT_TASK d;

	CHECK_EQ(rt_mutex_create(&fmutex, NULL), 0);
	CHECK_EQ(rt_queue_create(&fqueue, NULL, 256, Q_UNLIMITED, Q_FIFO), 0);
	log_start();
	skin_spawn("foreign", NK_PRIO(30), true, foreign_body, NULL);
	/* It holds the mutex and waits on the queue. */
	note("main");
	CHECK_EQ(rt_task_bind(&d, "foreign", TM_NONBLOCK), 0);
	CHECK(rt_task_same(&d, &fself));
	CHECK_EQ(rt_mutex_inquire(&fmutex, &info), 0);
	CHECK(rt_task_same(&info.owner, &fself));
	CHECK_EQ(rt_queue_write(&fqueue, "hello", 6, Q_NORMAL), 1);
	note("after");
	check_log("locked@0 main@0 got:6@0 exit:foreign-unnamed after@0");
	CHECK_EQ(rt_task_inquire(&fself, NULL), -EINVAL);
	check_name_free("foreign");
	CHECK_EQ(rt_mutex_inquire(&fmutex, &info), 0);
	CHECK_EQ(info.owner.handle, 0);
	CHECK_EQ(rt_mutex_delete(&fmutex), 0);
	CHECK_EQ(rt_queue_delete(&fqueue), 0);
}

static RT_TASK_INFO bare_info;
static RT_TASK bare_self;
static int bare_ret = 1;

static void bare_body(void *arg)
{
	(void)arg;
	bare_self = *rt_task_self();
	bare_ret = rt_task_inquire(NULL, &bare_info);
	CHECK_EQ(rt_task_sleep_until(TM_INFINITE), -EINTR);
}

/* A bare nucleus thread: an anonymous task at its own priority. */
TEST(bare_thread_is_attached_with_defaults)
{
	skin_spawn("bare", NK_PRIO(12), false, bare_body, NULL);
	CHECK_EQ(bare_ret, 0);
	CHECK_STR(bare_info.name, "bare");
	CHECK_EQ(bare_info.prio, 12);
	CHECK_EQ(rt_task_inquire(&bare_self, NULL), 0);
	/* It preempts main at once, and ends. */
	CHECK_EQ(rt_task_unblock(&bare_self), 0);
	CHECK_EQ(rt_task_inquire(&bare_self, NULL), -EINVAL);
}

/* --- every way a task ends --- */

enum ending { RETURNS, DELETED, DELETES_ITSELF };

static RT_TASK victim;
static RT_SEM release;

/* Waits until main releases it (or deletes it), then ends. */
static void victim_body(void *arg)
{
	enum ending how = (enum ending)(long)arg;

	testskin_touch();
	if (how == DELETED)
		rt_task_sleep_until(TM_INFINITE);
	CHECK_EQ(rt_sem_p(&release, TM_INFINITE), 0);
	if (how == DELETES_ITSELF)
		rt_task_delete(NULL);
}

/* Sends to the victim, which never receives. */
static void sender_body(void *arg)
{
	RT_TASK_MCB mcb = {.opcode = 1};

	(void)arg;
	note("sent:%zd", rt_task_send(&victim, &mcb, NULL, TM_INFINITE));
}

/*
 * The victim @name (priority 10) ends by @how while a sender (priority
 * 5) waits for its reply.  Both run up to their waits before main, the
 * lowest task, goes on.
 */
static void end_victim(const char *name, enum ending how, int mode)
{
	RT_TASK sender;

	log_start();
	CHECK_EQ(rt_task_spawn(&victim, name, 0, 10, mode, victim_body,
			       (void *)(long)how),
		 0);
	spawn(&sender, 5, sender_body, NULL);
	if (how == DELETED)
		CHECK_EQ(rt_task_delete(&victim), 0);
	else
		CHECK_EQ(rt_sem_v(&release), 0);
	CHECK_EQ(rt_task_join(&sender), 0);
}

TEST(each_ending_frees_the_name_and_wakes_senders)
{
	CHECK_EQ(rt_sem_create(&release, NULL, 0, S_FIFO), 0);
	/* The test skin, attached last, sees Alchemy's name still there. */
	end_victim("returns", RETURNS, 0);
	check_log("exit:returns sent:-43@0");
	check_name_free("returns");
	end_victim("deleted", DELETED, 0);
	check_log("exit:deleted sent:-43@0");
	check_name_free("deleted");
	end_victim("self", DELETES_ITSELF, 0);
	check_log("exit:self sent:-43@0");
	check_name_free("self");
	/* A joinable task's name is free before it is joined. */
	end_victim("joinable", RETURNS, T_JOINABLE);
	check_log("exit:joinable sent:-43@0");
	check_name_free("joinable");
	CHECK_EQ(rt_task_inquire(&victim, NULL), -EINVAL);
	CHECK_EQ(rt_task_join(&victim), 0);
	CHECK_EQ(rt_task_join(&victim), -EINVAL);
	CHECK_EQ(rt_sem_delete(&release), 0);
}

/* --- a shadowed pthread that returns --- */

/*
 * Sleep in the nucleus until @item is in the trail: on sim, a pthread
 * that shadows itself gets the CPU at a nucleus call of main (no
 * asynchronous preemption), or once main blocks in Linux (see
 * main_joins_a_pthread_that_shadows_itself).  Real time bounds the
 * wait, as a safety net.
 */
static void wait_for_step(const char *item)
{
	struct timespec t0, now;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		CHECK_EQ(rt_task_sleep(MS / 10), 0);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (strstr(trail, item) == NULL && now.tv_sec - t0.tv_sec < 60);
	CHECK(strstr(trail, item) != NULL);
}

static RT_TASK returner;
static int returner_ret[3] = {1, 1, 1};

/*
 * Its first name is taken: it stays a nucleus thread with Alchemy's
 * defaults (as on Xenomai, where the caller is shadowed first), and may
 * try another.
 */
static void *returner_body(void *arg)
{
	(void)arg;
	returner_ret[0] = rt_task_shadow(&returner, "taken", 10, 0);
	returner_ret[1] = rt_task_self() != NULL;
	returner_ret[2] = rt_task_shadow(&returner, "returner", 10, 0);
	testskin_touch();
	return NULL;
}

TEST(shadowed_pthread_that_returns_ends_cleanly)
{
	RT_TASK taken;
	pthread_t th;

	CHECK_EQ(rt_task_create(&taken, "taken", 0, 10, 0), 0);
	log_start();
	CHECK_EQ(pthread_create(&th, NULL, returner_body, NULL), 0);
	/* Its nucleus thread keeps the name it was shadowed with. */
	wait_for_step("exit:taken");
	CHECK_EQ(pthread_join(th, NULL), 0);
	CHECK_EQ(returner_ret[0], -EEXIST);
	CHECK_EQ(returner_ret[1], 1);
	CHECK_EQ(returner_ret[2], 0);
	CHECK_STR(trail, "exit:taken");
	CHECK_EQ(rt_task_inquire(&returner, NULL), -EINVAL);
	check_name_free("returner");
	CHECK_EQ(rt_task_delete(&taken), 0);
}

/* --- main waits in Linux for a pthread that shadows itself --- */

static RT_SEM shadower_sem;
static int shadower_ret[3] = {1, 1, 1};
static RTIME shadower_slept;
static int poster_ret = 1;

/*
 * More urgent than main, which waits in pthread_join, outside the
 * nucleus: on live, main's system call relaxes it (or the preemption
 * signal parks it); on sim, main gives the baton up (sim.c).  Then it
 * waits for a plain pthread's post: on sim, nothing runs meanwhile.
 */
static void *shadower_body(void *arg)
{
	RT_TASK self;
	RTIME t0;

	(void)arg;
	shadower_ret[0] = rt_task_shadow(&self, "shadower", 10, 0);
	step("shadowed");
	t0 = rt_timer_read();
	shadower_ret[1] = rt_task_sleep(MS);
	shadower_slept = rt_timer_read() - t0;
	step("slept");
	shadower_ret[2] = rt_sem_p(&shadower_sem, TM_INFINITE);
	step("taken");
	return NULL;
}

/* Posts once the shadower waits. */
static void *poster_body(void *arg)
{
	const struct timespec pause = {.tv_nsec = 100000};
	RT_SEM_INFO info = {.nwaiters = 0};

	(void)arg;
	while (rt_sem_inquire(&shadower_sem, &info) == 0 && info.nwaiters == 0)
		nanosleep(&pause, NULL);
	poster_ret = rt_sem_v(&shadower_sem);
	return NULL;
}

TEST(main_joins_a_pthread_that_shadows_itself)
{
	pthread_t th, poster;

	CHECK_EQ(rt_sem_create(&shadower_sem, NULL, 0, S_FIFO), 0);
	log_start();
	CHECK_EQ(pthread_create(&th, NULL, shadower_body, NULL), 0);
	CHECK_EQ(pthread_create(&poster, NULL, poster_body, NULL), 0);
	CHECK_EQ(pthread_join(th, NULL), 0);
	step("joined");
	CHECK_EQ(pthread_join(poster, NULL), 0);
	CHECK_STR(trail, "shadowed slept taken joined");
	CHECK_EQ(shadower_ret[0], 0);
	CHECK_EQ(shadower_ret[1], 0);
	CHECK_EQ(shadower_ret[2], 0);
	CHECK_EQ(poster_ret, 0);
	CHECK_EQ(rt_sem_delete(&shadower_sem), 0);
	if (on_sim())
		CHECK_EQ(shadower_slept, MS);
	else
		CHECK(shadower_slept >= MS);
	/* Main is a task still, and back in the nucleus. */
	CHECK(rt_task_self() != NULL);
	CHECK_EQ(rt_task_sleep(MS), 0);
	check_name_free("shadower");
}

/* --- the end of the process --- */

static void survivor_body(void *arg)
{
	(void)arg;
	CHECK_EQ(rt_task_shadow(NULL, "survivor", 5, 0), 0);
	rt_task_sleep_until(TM_INFINITE);
}

/*
 * Runs after the runtime's own exit handler (registered later, on the
 * first Alchemy call), which destroys the instance: the survivor's name
 * was freed by Alchemy's exit hook before the test skin's ran.
 */
static void check_survivor_at_exit(void)
{
	if (survivor_spawned && survivor_bind != -EWOULDBLOCK) {
		fprintf(stderr, "survivor: bind at exit gave %d\n",
			survivor_bind);
		_exit(EXIT_FAILURE);
	}
}

static void __attribute__((constructor)) watch_exit(void)
{
	atexit(check_survivor_at_exit);
}

TEST(process_end_cleans_up_tasks)
{
	RT_TASK d;

	skin_spawn("survivor", NK_PRIO(5), true, survivor_body, NULL);
	survivor_spawned = true;
	CHECK_EQ(rt_task_bind(&d, "survivor", TM_NONBLOCK), 0);
}

/* --- plain pthreads --- */

struct plain {
	RT_TASK *task, *joinable;
	RT_SEM *sem;
	RT_MUTEX *mutex;
	RT_EVENT *event;
	RT_QUEUE *queue;
	int r[25];
	bool self_null, still_plain;
};

static void *plain_body(void *arg)
{
	struct plain *p = arg;
	RT_TASK_MCB mcb = {.size = 0};
	RT_TASK made;
	unsigned int mask;
	void *msg;
	int *r = p->r;

	p->self_null = rt_task_self() == NULL;
	/* Tasks: waiting, and naming the caller, are refused. */
	*r++ = rt_task_sleep(MS);
	*r++ = rt_task_sleep_until(TM_INFINITE);
	*r++ = rt_task_wait_period(NULL);
	*r++ = rt_task_yield();
	*r++ = rt_task_set_mode(0, T_LOCK, NULL);
	*r++ = rt_task_delete(NULL);
	*r++ = rt_task_inquire(NULL, NULL);
	*r++ = (int)rt_task_send(p->task, &mcb, NULL, TM_INFINITE);
	*r++ = rt_task_receive(&mcb, TM_NONBLOCK);
	*r++ = rt_task_reply(1, NULL);
	*r++ = rt_task_join(p->joinable);
	/* Acting on another task is allowed. */
	*r++ = rt_task_inquire(p->task, NULL);
	*r++ = rt_task_set_priority(p->task, 12);
	*r++ = rt_task_suspend(p->task);
	*r++ = rt_task_resume(p->task);
	*r++ = rt_task_create(&made, "made", 0, 10, 0);
	*r++ = rt_task_delete(&made);
	/* Objects: signalling and non-blocking tries, no waits. */
	*r++ = rt_sem_v(p->sem);
	*r++ = rt_sem_p(p->sem, TM_INFINITE); /* available: no wait */
	*r++ = rt_sem_p(p->sem, TM_INFINITE);
	*r++ = rt_mutex_acquire(p->mutex, TM_NONBLOCK);
	*r++ = rt_event_signal(p->event, 1);
	*r++ = rt_event_wait(p->event, 2, &mask, EV_ANY, TM_INFINITE);
	*r++ = rt_queue_write(p->queue, "x", 2, Q_NORMAL);
	*r++ = (int)rt_queue_receive(p->queue, &msg, TM_NONBLOCK);
	rt_queue_free(p->queue, msg);
	p->still_plain = rt_task_self() == NULL;
	return NULL;
}

static void sleeper_body(void *arg)
{
	(void)arg;
	rt_task_sleep_until(TM_INFINITE);
}

TEST(plain_pthread_gets_xenomai_answers)
{
	/* In the order of plain_body's calls. */
	static const int want[25] = {
	    -EPERM, -EPERM, -EPERM, -EPERM, -EPERM, -EPERM, -EPERM,
	    -EPERM, -EPERM, -EPERM, -EPERM, 0,	    0,	    0,
	    0,	    0,	    0,	    0,	    0,	    -EPERM, -EPERM,
	    0,	    -EPERM, 0,	    2,
	};
	RT_TASK task, joinable;
	RT_TASK_INFO info;
	RT_SEM sem;
	RT_MUTEX mutex;
	RT_EVENT event;
	RT_QUEUE queue;
	struct plain p = {.task = &task,
			  .joinable = &joinable,
			  .sem = &sem,
			  .mutex = &mutex,
			  .event = &event,
			  .queue = &queue};

	CHECK_EQ(rt_task_spawn(&task, "target", 0, 10, 0, sleeper_body, NULL),
		 0);
	CHECK_EQ(rt_task_create(&joinable, NULL, 0, 10, T_JOINABLE), 0);
	CHECK_EQ(rt_sem_create(&sem, NULL, 0, S_FIFO), 0);
	CHECK_EQ(rt_mutex_create(&mutex, NULL), 0);
	CHECK_EQ(rt_event_create(&event, NULL, 0, EV_FIFO), 0);
	CHECK_EQ(rt_queue_create(&queue, NULL, 256, Q_UNLIMITED, Q_FIFO), 0);
	run_plain_thread(plain_body, &p);
	CHECK(p.self_null);
	CHECK(p.still_plain);
	for (int i = 0; i < 25; i++)
		CHECK_EQ(p.r[i], want[i]);
	CHECK_EQ(rt_task_inquire(&task, &info), 0);
	CHECK_EQ(info.prio, 12);
	CHECK_EQ(rt_task_delete(&task), 0);
	CHECK_EQ(rt_task_delete(&joinable), 0);
	CHECK_EQ(rt_task_join(&joinable), 0);
	CHECK_EQ(rt_sem_delete(&sem), 0);
	CHECK_EQ(rt_mutex_delete(&mutex), 0);
	CHECK_EQ(rt_event_delete(&event), 0);
	CHECK_EQ(rt_queue_delete(&queue), 0);
}

TESTS(T(thread_of_another_skin_uses_alchemy_objects),
      T(bare_thread_is_attached_with_defaults),
      T(each_ending_frees_the_name_and_wakes_senders),
      T(shadowed_pthread_that_returns_ends_cleanly),
      T(main_joins_a_pthread_that_shadows_itself),
      T(plain_pthread_gets_xenomai_answers), T(process_end_cleans_up_tasks));
