/* SPDX-License-Identifier: MIT */
/*
 * A semaphore ping-pong on one RT CPU in an instance shared by a
 * session: between two threads of one process ("threads"), or between
 * a thread of this process and one of another member that joined the
 * instance ("processes"); or, for reference, between two threads of a
 * private instance ("private").  Prints the ns per switch; the script
 * session-pingpong runs all three in one run and gives the ratios.
 *
 *   bench_session_pingpong threads|processes|private [ROUNDS]
 *
 * The RT CPU is FUSION_CPUS's, as for any program.
 */
#include <fusion/fusion.h>
#include <fusion/session.h>

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Shared by the players, in a named block of the session. */
struct table {
	struct nk_sem *ping, *pong;
	_Atomic bool ready; /* the pong thread waits */
};

static struct nk_instance *nk;
static struct table *table, private_table;
static long rounds = 200000;

static void die(const char *what, int ret)
{
	fprintf(stderr, "bench_session_pingpong: %s: %d (%s)\n", what, ret,
		strerror(ret < 0 ? -ret : ret));
	exit(1);
}

static void check(const char *what, int ret)
{
	if (ret)
		die(what, ret);
}

static nk_time_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (nk_time_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * Join the session @name and its instance (made by the first), or make
 * a private instance (NULL), then relax: the main thread waits for
 * Linux from here on.
 */
static void join(const char *name)
{
	struct nk_instance_attr attr = {
	    .nr_cpus = 1, .session = name != NULL, .join = true};
	void *mem = &private_table;

	if (name)
		check("join the session", fusion_session_join(name));
	check("join the instance", nk_instance_create(&attr, &nk));
	if (name)
		check("the table",
		      fusion_session_shm("table", sizeof(*table), &mem));
	table = mem;
	check("relax", nk_thread_relax(nk));
}

static void leave(const char *name)
{
	check("end the instance", nk_instance_destroy(nk));
	if (name)
		check("leave", fusion_session_leave());
}

static void pong(void *arg)
{
	(void)arg;
	atomic_store(&table->ready, true);
	for (long i = 0; i < rounds; i++) {
		if (nk_sem_take(table->ping, NK_INFINITE, NK_RELATIVE) ||
		    nk_sem_give(table->pong))
			return;
	}
}

static void ping(void *arg)
{
	nk_time_t *ns = arg, start = now();

	for (long i = 0; i < rounds; i++) {
		if (nk_sem_give(table->ping) ||
		    nk_sem_take(table->pong, NK_INFINITE, NK_RELATIVE))
			return;
	}
	*ns = now() - start;
}

/* A thread of ours playing @fn, at one priority for both players: a
 * give readies, the take that follows switches. */
static struct nk_thread *play(const char *name, void (*fn)(void *), void *arg)
{
	struct nk_thread_attr attr = {.name = name,
				      .priority = 10,
				      .policy = NK_SCHED_FIFO,
				      .flags = NK_THREAD_JOINABLE};
	struct nk_thread *t;

	check("create", nk_thread_create(nk, &attr, &t));
	check("start", nk_thread_start(t, fn, arg));
	return t;
}

/* The other member: joins once told, plays pong, leaves. */
static void other_member(const char *name, int go)
{
	struct nk_thread *t;
	char c;

	if (read(go, &c, 1) != 1)
		exit(1);
	join(name);
	t = play("pong", pong, NULL);
	check("join pong", nk_thread_join(t));
	leave(name);
	exit(0);
}

int main(int argc, char **argv)
{
	bool processes = argc > 1 && strcmp(argv[1], "processes") == 0;
	bool private = argc > 1 && strcmp(argv[1], "private") == 0;
	struct nk_thread *p, *q = NULL;
	char session[64], *name = private ? NULL : session;
	nk_time_t ns = 0;
	int go[2], status;
	pid_t pid = -1;

	if (argc < 2 ||
	    (!processes && !private && strcmp(argv[1], "threads") != 0)) {
		fprintf(stderr, "usage: bench_session_pingpong "
				"threads|processes|private [ROUNDS]\n");
		return 2;
	}
	if (argc > 2)
		rounds = atol(argv[2]);
	snprintf(session, sizeof(session), "bench-pingpong-%d", (int)getpid());
	if (pipe(go))
		die("pipe", -errno);
	/* Forked before this process is in anything. */
	if (processes) {
		pid = fork();
		if (pid == 0)
			other_member(name, go[0]);
	}
	join(name);
	table->ping = nk_alloc(nk, sizeof(*table->ping));
	table->pong = nk_alloc(nk, sizeof(*table->pong));
	check("ping", nk_sem_init(nk, table->ping, "ping", 0, 0, 0));
	check("pong", nk_sem_init(nk, table->pong, "pong", 0, 0, 0));
	if (processes && write(go[1], "g", 1) != 1)
		die("tell the other member", -errno);
	if (!processes)
		q = play("pong", pong, NULL);
	while (!atomic_load(&table->ready))
		usleep(1000);
	p = play("ping", ping, &ns);
	check("join ping", nk_thread_join(p));
	if (q)
		check("join pong", nk_thread_join(q));
	if (processes && (waitpid(pid, &status, 0) != pid ||
			  !WIFEXITED(status) || WEXITSTATUS(status)))
		die("the other member", -ECHILD);
	leave(name);
	printf("%.1f ns per switch (%s, %ld rounds)\n",
	       (double)ns / (double)(2 * rounds), argv[1], rounds);
	return 0;
}
