/* SPDX-License-Identifier: MIT */
/*
 * Personalities: registration, attachment, and the exit/finalize hooks
 * by every path a thread can end (return, exit call, deletion by
 * another thread, instance destruction, the OS thread of a shadow
 * returning), with two skins on one thread.
 */
#include "harness.h"

#include <fusion/fusion.h>

#include <pthread.h>
#include <string.h>
#include <time.h>

struct skin_state {
	int inits;
};

struct skin_ext {
	int serial; /* order of attachment across both skins */
};

/* What the hooks saw, in order: "<op><skin>:<thread> ". */
static char journal[512];
static int attach_serial;
static int refuse_attach;

static void note(const char *op, const char *skin, struct nk_thread *t)
{
	size_t len = strlen(journal);

	snprintf(journal + len, sizeof(journal) - len, "%s%s:%s ", op, skin,
		 t ? nk_thread_name(t) : "-");
}

static int skin_init(struct nk_instance *nk, void *state)
{
	struct skin_state *s = state;

	(void)nk;
	s->inits++;
	return 0;
}

#define SKIN_HOOKS(tag)                                                        \
	static int tag##_attach(struct nk_thread *t, void *ext)                \
	{                                                                      \
		if (refuse_attach)                                             \
			return -EPERM;                                         \
		((struct skin_ext *)ext)->serial = ++attach_serial;            \
		note("attach-", #tag, t);                                      \
		return 0;                                                      \
	}                                                                      \
	static void tag##_exit(struct nk_thread *t, void *ext)                 \
	{                                                                      \
		CHECK(((struct skin_ext *)ext)->serial > 0);                   \
		note("exit-", #tag, t);                                        \
	}                                                                      \
	static void tag##_finalize(struct nk_thread *t, void *ext)             \
	{                                                                      \
		(void)ext;                                                     \
		note("fin-", #tag, t);                                         \
	}                                                                      \
	static void tag##_fini(struct nk_instance *nk, void *state)            \
	{                                                                      \
		(void)nk;                                                      \
		CHECK_EQ(((struct skin_state *)state)->inits, 1);              \
		note("fini-", #tag, NULL);                                     \
	}                                                                      \
	static const struct nk_personality tag = {                             \
	    .name = #tag,                                                      \
	    .state_size = sizeof(struct skin_state),                           \
	    .thread_size = sizeof(struct skin_ext),                            \
	    .init = skin_init,                                                 \
	    .attach = tag##_attach,                                            \
	    .exit = tag##_exit,                                                \
	    .finalize = tag##_finalize,                                        \
	    .fini = tag##_fini,                                                \
	}

SKIN_HOOKS(alpha);
SKIN_HOOKS(beta);

static const struct nk_personality alpha_twin = {.name = "alpha"};

static struct nk_instance *nk;

static void setup(void)
{
	struct nk_instance_attr attr = {.backend = "sim", .main_priority = 10};

	journal[0] = '\0';
	attach_serial = 0;
	refuse_attach = 0;
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	CHECK_EQ(nk_personality_register(nk, &alpha, NULL), 0);
	CHECK_EQ(nk_personality_register(nk, &beta, NULL), 0);
}

/* A thread of skin alpha that also uses skin beta, then ends by @how. */
enum how { RETURN, EXIT_CALL, SLEEP };

static void body(void *arg)
{
	enum how how = (enum how)(long)arg;
	struct nk_thread *self = nk_thread_self(nk);

	CHECK_EQ(nk_thread_attach(self, &beta, NULL), 0);
	if (how == EXIT_CALL)
		nk_thread_exit(nk);
	if (how == SLEEP)
		CHECK_EQ(nk_thread_sleep(nk, NK_INFINITE, NK_RELATIVE), 0);
}

static struct nk_thread *spawn(const char *name, enum how how,
			       unsigned int flags)
{
	struct nk_thread_attr attr = {
	    .name = name, .priority = 20, .flags = flags};
	struct nk_thread *t;

	CHECK_EQ(nk_thread_create(nk, &attr, &t), 0);
	CHECK_EQ(nk_thread_attach(t, &alpha, NULL), 0);
	CHECK_EQ(nk_thread_start(t, body, (void *)(long)how), 0);
	return t;
}

TEST(registration_is_idempotent_and_state_is_per_instance)
{
	struct nk_instance_attr attr = {.backend = "sim"};
	struct nk_instance *other;
	void *s1, *s2;

	setup();
	CHECK_EQ(nk_personality_register(nk, &alpha, &s1), 0);
	CHECK_EQ(nk_personality_register(nk, &alpha, &s2), 0);
	CHECK(s1 == s2);
	CHECK(nk_personality_state(nk, &alpha) == s1);
	CHECK(nk_personality_of(nk, s1) == &alpha);
	CHECK_EQ(((struct skin_state *)s1)->inits, 1);
	/* Another personality may not take a registered name. */
	CHECK_EQ(nk_personality_register(nk, &alpha_twin, NULL), -EINVAL);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_STR(journal, "fini-beta:- fini-alpha:- ");

	/* A second instance in the same process has its own state. */
	CHECK_EQ(nk_instance_create(&attr, &other), 0);
	CHECK(nk_personality_state(other, &alpha) == NULL);
	CHECK_EQ(nk_personality_register(other, &alpha, &s2), 0);
	CHECK(s2 != NULL);
	CHECK_EQ(((struct skin_state *)s2)->inits, 1);
	CHECK_EQ(nk_instance_destroy(other), 0);
}

TEST(exit_hooks_run_newest_first_on_return)
{
	setup();
	spawn("t1", RETURN, 0);
	/* t1 ran to completion at once (20 > 10), and was reaped on the
	 * next creation or at destruction. */
	CHECK_STR(journal,
		  "attach-alpha:t1 attach-beta:t1 exit-beta:t1 exit-alpha:t1 ");
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_STR(journal, "attach-alpha:t1 attach-beta:t1 exit-beta:t1 "
			   "exit-alpha:t1 fin-beta:t1 fin-alpha:t1 "
			   "fini-beta:- fini-alpha:- ");
}

TEST(exit_hooks_run_on_exit_call)
{
	setup();
	spawn("t2", EXIT_CALL, 0);
	CHECK_STR(journal,
		  "attach-alpha:t2 attach-beta:t2 exit-beta:t2 exit-alpha:t2 ");
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

TEST(exit_hooks_run_on_deletion_by_another_thread)
{
	struct nk_thread *t;

	setup();
	t = spawn("t3", SLEEP, NK_THREAD_JOINABLE);
	CHECK_STR(journal, "attach-alpha:t3 attach-beta:t3 ");
	CHECK_EQ(nk_thread_delete(t), 0);
	CHECK_STR(journal,
		  "attach-alpha:t3 attach-beta:t3 exit-beta:t3 exit-alpha:t3 ");
	/* A joinable zombie keeps its extensions until it is joined. */
	CHECK(nk_thread_personality(t, &beta) != NULL);
	CHECK_EQ(nk_thread_attach(t, &beta, NULL), -ESRCH);
	CHECK_EQ(nk_thread_join(t), 0);
	CHECK_STR(journal, "attach-alpha:t3 attach-beta:t3 exit-beta:t3 "
			   "exit-alpha:t3 fin-beta:t3 fin-alpha:t3 ");
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

TEST(exit_hooks_run_at_instance_destruction)
{
	struct nk_thread *main_thread;

	setup();
	main_thread = nk_thread_self(nk);
	CHECK_EQ(nk_thread_attach(main_thread, &beta, NULL), 0);
	spawn("t4", SLEEP, 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_STR(journal, "attach-beta:main attach-alpha:t4 attach-beta:t4 "
			   "exit-beta:main exit-beta:t4 exit-alpha:t4 "
			   "fin-beta:main fin-beta:t4 fin-alpha:t4 "
			   "fini-beta:- fini-alpha:- ");
}

/* A plain OS thread that shadows itself, uses alpha, and returns. */
static void *returning_shadow(void *arg)
{
	struct nk_thread_attr attr = {.name = "pt", .priority = 20};
	struct nk_thread *self;

	(void)arg;
	CHECK_EQ(nk_thread_shadow(nk, &attr, &self), 0);
	CHECK_EQ(nk_thread_attach(self, &alpha, NULL), 0);
	CHECK_EQ(nk_thread_sleep(nk, 1000, NK_RELATIVE), 0);
	return NULL;
}

TEST(exit_hooks_run_when_a_shadow_returns)
{
	struct timespec t0, now;
	pthread_t th;

	setup();
	CHECK_EQ(pthread_create(&th, NULL, returning_shadow, NULL), 0);
	/* The shadow gets the CPU at one of main's nucleus calls only (no
	 * asynchronous preemption on sim); real time bounds the wait. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		CHECK_EQ(nk_thread_sleep(nk, 1000, NK_RELATIVE), 0);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (strstr(journal, "exit-alpha:pt") == NULL &&
		 now.tv_sec - t0.tv_sec < 60);
	CHECK_STR(journal, "attach-alpha:pt exit-alpha:pt ");
	CHECK_EQ(pthread_join(th, NULL), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_STR(journal, "attach-alpha:pt exit-alpha:pt fin-alpha:pt "
			   "fini-beta:- fini-alpha:- ");
}

TEST(attach_is_once_and_may_be_refused)
{
	struct nk_thread *self;
	void *e1, *e2;

	setup();
	self = nk_thread_self(nk);
	CHECK(nk_thread_personality(self, &alpha) == NULL);
	CHECK_EQ(nk_thread_attach(self, &alpha, &e1), 0);
	CHECK_EQ(nk_thread_attach(self, &alpha, &e2), 0);
	CHECK(e1 == e2);
	CHECK(nk_thread_personality(self, &alpha) == e1);
	CHECK_STR(journal, "attach-alpha:main ");
	/* A skin may refuse a thread: nothing is attached then. */
	refuse_attach = 1;
	CHECK_EQ(nk_thread_attach(self, &beta, &e2), -EPERM);
	CHECK(nk_thread_personality(self, &beta) == NULL);
	refuse_attach = 0;
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_STR(journal, "attach-alpha:main exit-alpha:main fin-alpha:main "
			   "fini-beta:- fini-alpha:- ");
}

TEST(bad_input)
{
	static const struct nk_personality unnamed = {.name = ""};
	static const struct nk_personality many[NK_MAX_PERSONALITIES] = {
	    {.name = "p0"}, {.name = "p1"}, {.name = "p2"}, {.name = "p3"},
	    {.name = "p4"}, {.name = "p5"}, {.name = "p6"}, {.name = "p7"},
	};
	static const struct nk_personality unregistered = {.name = "none"};
	static const struct nk_personality too_long = {
	    .name = "a-personality-name-of-thirty-two-or-more-characters"};
	struct nk_thread *self;
	int i;

	setup();
	self = nk_thread_self(nk);
	CHECK_EQ(nk_personality_register(NULL, &alpha, NULL), -EINVAL);
	CHECK_EQ(nk_personality_register(nk, NULL, NULL), -EINVAL);
	CHECK_EQ(nk_personality_register(nk, &unnamed, NULL), -EINVAL);
	CHECK_EQ(nk_personality_register(nk, &too_long, NULL), -EINVAL);
	CHECK(nk_personality_of(NULL, &i) == NULL);
	CHECK(nk_personality_of(nk, NULL) == NULL);
	CHECK(nk_personality_of(nk, &i) == NULL);
	CHECK(nk_personality_state(NULL, &alpha) == NULL);
	CHECK(nk_personality_state(nk, NULL) == NULL);
	CHECK_EQ(nk_thread_attach(NULL, &alpha, NULL), -EINVAL);
	CHECK_EQ(nk_thread_attach(self, NULL, NULL), -EINVAL);
	CHECK_EQ(nk_thread_attach(self, &unregistered, NULL), -EINVAL);
	CHECK(nk_thread_personality(NULL, &alpha) == NULL);
	CHECK(nk_thread_personality(self, NULL) == NULL);
	/* alpha and beta hold two slots. */
	for (i = 0; i < NK_MAX_PERSONALITIES - 2; i++)
		CHECK_EQ(nk_personality_register(nk, &many[i], NULL), 0);
	CHECK_EQ(nk_personality_register(nk, &many[i], NULL), -ENOSPC);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

TESTS(T(registration_is_idempotent_and_state_is_per_instance),
      T(exit_hooks_run_newest_first_on_return), T(exit_hooks_run_on_exit_call),
      T(exit_hooks_run_on_deletion_by_another_thread),
      T(exit_hooks_run_at_instance_destruction),
      T(exit_hooks_run_when_a_shadow_returns),
      T(attach_is_once_and_may_be_refused), T(bad_input));
