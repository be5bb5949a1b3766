/* SPDX-License-Identifier: MIT */
/*
 * Members that die: their slot and the blocks only they held go; one
 * killed holding the session's lock, wherever it was, leaves it usable;
 * a session whose memory was damaged is marked broken (a clear error,
 * never a crash or a hang).  Random kills: FUSION_SESSION_KILLS runs
 * (default 1,000; `make stress` runs 20,000), none may leave it broken.
 */
#include "session_test.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char name[64];

static struct session_header *hdr(void)
{
	return session_current()->hdr;
}

static int members(void)
{
	int n = 0;

	for (int i = 0; i < SESSION_MAX_MEMBERS; i++)
		n += hdr()->members[i].pid != 0;
	return n;
}

static int reap(void)
{
	int n;

	CHECK_EQ(session_lock(hdr()), 0);
	n = session_reap_dead(hdr(), session_current()->ctl_fd,
			      session_current()->slot);
	CHECK_EQ(session_check(hdr()), 0);
	session_unlock(hdr());
	return n;
}

/* 1: join; 2: take "mine" and "both"; 3: lock and die; 4: lock, damage
 * the table of blocks (two over one another), and die. */
static int victim_step(void *arg, int n)
{
	void *mem;

	(void)arg;
	switch (n) {
	case 1:
		return fusion_session_join(name) ? __LINE__ : 0;
	case 2:
		PEER_CHECK(fusion_session_shm("mine", 100, &mem) == 0);
		PEER_CHECK(fusion_session_shm("both", 0, &mem) == 0);
		return 0;
	case 3:
		PEER_CHECK(session_lock(session_current()->hdr) == 0);
		raise(SIGKILL);
		break;
	case 4:
		PEER_CHECK(session_lock(session_current()->hdr) == 0);
		for (int i = 0; i < SESSION_MAX_SHM - 1; i++)
			if (session_current()->hdr->shm[i].offset)
				session_current()
				    ->hdr->shm[SESSION_MAX_SHM - 1] =
				    session_current()->hdr->shm[i];
		raise(SIGKILL);
		break;
	}
	return __LINE__;
}

static void join_with_victim(struct peer *p, const char *what)
{
	session_test_name(name, sizeof(name), what);
	peer_start(p, victim_step, NULL);
	CHECK_EQ(fusion_session_join(name), 0);
	CHECK_EQ(peer_step(p, 1), 0);
	CHECK_EQ(members(), 2);
}

TEST(dead_member_reaped)
{
	struct peer victim;
	void *both, *mem;

	join_with_victim(&victim, "reap");
	CHECK_EQ(fusion_session_shm("both", 64, &both), 0);
	CHECK_EQ(peer_step(&victim, 2), 0);
	peer_kill(&victim);
	CHECK_EQ(reap(), 1);
	CHECK_EQ(members(), 1);
	CHECK_EQ(fusion_session_shm("mine", 0, &mem), -ENOENT); /* freed */
	CHECK_EQ(fusion_session_shm("both", 0, &mem), 0);	/* ours */
	CHECK(mem == both);
	CHECK_EQ(reap(), 0);
	CHECK_EQ(fusion_session_leave(), 0);
	CHECK(!session_test_exists(name));
}

TEST(killed_holding_the_lock)
{
	struct peer victim;
	void *mem;

	join_with_victim(&victim, "lock");
	CHECK_EQ(peer_step(&victim, 3), -1); /* no answer: it died */
	peer_kill(&victim);
	CHECK(atomic_load(&hdr()->generation) & 1); /* it held it */
	CHECK_EQ(fusion_session_shm("after", 32, &mem), 0);
	CHECK_EQ(atomic_load(&hdr()->state), SESSION_READY);
	CHECK_EQ(atomic_load(&hdr()->generation) & 1, 0);
	CHECK_EQ(reap(), 1);
	CHECK_EQ(fusion_session_leave(), 0);
	CHECK(!session_test_exists(name));
}

static int join_broken(void *arg)
{
	(void)arg;
	return fusion_session_join(name) == -ENOTRECOVERABLE &&
		       fusion_session_name() == NULL
		   ? 0
		   : 1;
}

TEST(killed_with_damage)
{
	char err[256];
	struct peer victim;
	void *mem;

	join_with_victim(&victim, "torn");
	CHECK_EQ(fusion_session_shm("both", 64, &mem), 0);
	CHECK_EQ(peer_step(&victim, 4), -1);
	peer_kill(&victim);
	CHECK_EQ(fusion_session_shm("after", 32, &mem), -ENOTRECOVERABLE);
	CHECK_EQ(atomic_load(&hdr()->state), SESSION_BROKEN);
	CHECK_EQ(fusion_session_shm_free(mem), -ENOTRECOVERABLE);
	/* Whoever comes is told so. */
	CHECK_EQ(test_run_child(join_broken, NULL, err, sizeof(err)), 0);
	/* The last member out removes it: the next one makes it anew. */
	CHECK_EQ(fusion_session_leave(), 0);
	CHECK(!session_test_exists(name));
}

/* 1: join; 2: allocate and free blocks as fast as it can until killed. */
static int churn_step(void *arg, int n)
{
	unsigned int seed = (unsigned int)(uintptr_t)arg;
	void *held[8] = {0};

	if (n == 1)
		return fusion_session_join(name) ? __LINE__ : 0;
	for (;;) {
		char bname[8];
		int k = rand_r(&seed) % 8;

		snprintf(bname, sizeof(bname), "c%d", k);
		if (held[k]) {
			if (fusion_session_shm_free(held[k]))
				return __LINE__;
			held[k] = NULL;
		} else if (fusion_session_shm(bname, 16 + rand_r(&seed) % 4096,
					      &held[k]) == 0) {
			memset(held[k], 0x5a, 16);
		}
	}
}

TEST(random_kills)
{
	const char *env = getenv("FUSION_SESSION_KILLS");
	int runs = env ? atoi(env) : 1000, in_lock = 0;
	unsigned int seed = 1;

	session_test_name(name, sizeof(name), "kills");
	CHECK_EQ(fusion_session_join(name), 0);
	for (int run = 0; run < runs; run++) {
		struct timespec delay = {0, 200000 + rand_r(&seed) % 2000000};
		struct peer churn;
		void *mem;

		int step = 2;

		peer_start(&churn, churn_step, (void *)(uintptr_t)run);
		CHECK_EQ(peer_step(&churn, 1), 0);
		CHECK(write(churn.cmd, &step, sizeof(step)) == sizeof(step));
		nanosleep(&delay, NULL);
		in_lock += atomic_load(&hdr()->generation) & 1;
		peer_kill(&churn);
		/* Survivors go on: a lock, a check, the dead one reaped. */
		CHECK_EQ(fusion_session_shm("probe", 16, &mem), 0);
		CHECK_EQ(atomic_load(&hdr()->state), SESSION_READY);
		CHECK_EQ(reap(), 1);
		CHECK_EQ(fusion_session_shm_free(mem), 0);
		for (int i = 0; i < SESSION_MAX_SHM; i++)
			CHECK_EQ(hdr()->shm[i].offset, 0); /* all let go */
	}
	printf("%d kills, %d of them while it held the lock\n", runs, in_lock);
	CHECK_EQ(fusion_session_leave(), 0);
	CHECK(!session_test_exists(name));
}

TESTS(T(dead_member_reaped), T(killed_holding_the_lock), T(killed_with_damage),
      T(random_kills));
