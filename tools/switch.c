/* SPDX-License-Identifier: MIT */
/*
 * fusion switch: context-switch cost on one RT CPU.
 *   sem    - two threads ping-pong through two semaphores (2 switches
 *            per round trip);
 *   mutex  - a high thread contends for a priority-inheritance mutex a
 *            low one holds (4 switches per round: boost and de-boost);
 *   mbox   - messages through a one-slot mailbox (messages per second).
 */
#include "tool.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sw_state {
	struct nk_instance *nk;
	long rounds;
	struct nk_sem ping, pong;
	struct nk_mutex mutex;
	long mailbox;
	bool failed;
};

static void sem_peer(void *arg)
{
	struct sw_state *st = arg;

	for (long i = 0; i < st->rounds; i++) {
		if (nk_sem_take(&st->ping, NK_INFINITE, NK_RELATIVE)) {
			st->failed = true;
			return;
		}
		nk_sem_give(&st->pong);
	}
}

static int sem_driver(struct sw_state *st)
{
	for (long i = 0; i < st->rounds; i++) {
		nk_sem_give(&st->ping);
		if (nk_sem_take(&st->pong, NK_INFINITE, NK_RELATIVE))
			return -1;
	}
	return 0;
}

/* The high thread: wakes, finds the mutex owned, boosts the owner. */
static void mutex_peer(void *arg)
{
	struct sw_state *st = arg;

	for (long i = 0; i < st->rounds; i++) {
		if (nk_sem_take(&st->ping, NK_INFINITE, NK_RELATIVE) ||
		    nk_mutex_lock(&st->mutex, NK_INFINITE, NK_RELATIVE)) {
			st->failed = true;
			return;
		}
		nk_mutex_unlock(&st->mutex);
	}
}

static int mutex_driver(struct sw_state *st)
{
	for (long i = 0; i < st->rounds; i++) {
		if (nk_mutex_lock(&st->mutex, NK_INFINITE, NK_RELATIVE))
			return -1;
		nk_sem_give(&st->ping);
		nk_mutex_unlock(&st->mutex);
	}
	return 0;
}

static void mbox_peer(void *arg)
{
	struct sw_state *st = arg;
	long expect = 0;

	for (long i = 0; i < st->rounds; i++) {
		if (nk_sem_take(&st->ping, NK_INFINITE, NK_RELATIVE) ||
		    st->mailbox != expect++) {
			st->failed = true;
			return;
		}
		nk_sem_give(&st->pong);
	}
}

static int mbox_driver(struct sw_state *st)
{
	for (long i = 0; i < st->rounds; i++) {
		st->mailbox = i;
		nk_sem_give(&st->ping);
		if (nk_sem_take(&st->pong, NK_INFINITE, NK_RELATIVE))
			return -1;
	}
	return 0;
}

static const struct sw_mode {
	const char *name;
	nk_thread_fn peer;
	int (*driver)(struct sw_state *st);
	int switches_per_round;
	const char *unit;
} sw_modes[] = {
    {"sem", sem_peer, sem_driver, 2, NULL},
    {"mutex", mutex_peer, mutex_driver, 4, NULL},
    {"mbox", mbox_peer, mbox_driver, 2, "messages"},
};

void fusion_switch_usage(FILE *out)
{
	fprintf(out,
		"usage: fusion switch [-m sem|mutex|mbox] [-n ROUNDS] "
		"[--backend=live|sim]\n"
		"  -m  what the two threads hand each other (default sem)\n"
		"  -n  round trips (default 200000)\n");
}

int fusion_switch(int argc, char **argv)
{
	const struct sw_mode *mode = &sw_modes[0];
	struct nk_thread_attr attr = {
	    .name = "peer", .priority = 60, .flags = NK_THREAD_JOINABLE};
	struct sw_state st = {.rounds = 200000};
	struct nk_thread *peer;
	nk_time_t t0, t1;
	double ns;
	int c, ret;

	optind = 1;
	while ((c = getopt(argc, argv, "n:m:")) != -1) {
		if (c == 'n') {
			st.rounds = strtol(optarg, NULL, 10);
			continue;
		}
		mode = NULL;
		for (size_t i = 0; c == 'm' && i < 3; i++)
			if (strcmp(optarg, sw_modes[i].name) == 0)
				mode = &sw_modes[i];
		if (mode == NULL)
			break;
	}
	if (mode == NULL || st.rounds <= 0 || optind != argc) {
		fusion_switch_usage(stderr);
		return FUSION_EXIT_USAGE;
	}
	st.nk = fusion_tool_instance(50);
	if (st.nk == NULL)
		return 1;
	nk_sem_init(st.nk, &st.ping, "ping", 0, 0, NK_SYNCH_PRIO);
	nk_sem_init(st.nk, &st.pong, "pong", 0, 0, NK_SYNCH_PRIO);
	nk_mutex_init(st.nk, &st.mutex, "mutex", NK_SYNCH_PI, 0);
	ret = nk_thread_create(st.nk, &attr, &peer);
	if (ret == 0)
		ret = nk_thread_start(peer, mode->peer, &st);
	if (ret) {
		fprintf(stderr, "fusion switch: %s\n", strerror(-ret));
		return 1;
	}
	t0 = nk_now(st.nk);
	ret = mode->driver(&st);
	t1 = nk_now(st.nk);
	if (ret || nk_thread_join(peer) || st.failed) {
		fprintf(stderr, "fusion switch: a wait failed\n");
		return 1;
	}
	ns = (double)(t1 - t0) / ((double)st.rounds * mode->switches_per_round);
	printf("mode %s, backend %s, %ld rounds\n", mode->name,
	       nk_instance_backend(st.nk), st.rounds);
	printf("%.0f switches/s, %.1f ns per switch\n", ns > 0 ? 1e9 / ns : 0.0,
	       ns);
	if (mode->unit)
		printf("%.0f %s/s\n",
		       t1 > t0 ? st.rounds * 1e9 / (double)(t1 - t0) : 0.0,
		       mode->unit);
	fusion_tool_instance_destroy(st.nk);
	return 0;
}
