/* SPDX-License-Identifier: MIT */
/*
 * Sessions between processes: joining, named shared memory seen at one
 * address by every member, the last member removing the session (or
 * not, when persistent), and bad input and refused segments.
 */
#include "session_test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char name[64];

static int members(void)
{
	struct session_header *hdr = session_current()->hdr;
	int n = 0;

	for (int i = 0; i < SESSION_MAX_MEMBERS; i++)
		n += hdr->members[i].pid != 0;
	return n;
}

/* The peer: 1 joins, 2 finds block "data" and doubles its first word,
 * 3 checks it is the last member, 4 leaves. */
static int share_step(void *arg, int n)
{
	static uint64_t *data;

	(void)arg;
	switch (n) {
	case 1:
		return fusion_session_join(name) ? __LINE__ : 0;
	case 2:
		PEER_CHECK(fusion_session_shm("data", 0, (void **)&data) == 0);
		data[0] *= 2;
		/* Its address, for the test to compare with its own. */
		data[1] = (uint64_t)(uintptr_t)data;
		return 0;
	case 3:
		PEER_CHECK(members() == 1);
		PEER_CHECK(data[0] == 42);
		return 0;
	case 4:
		return fusion_session_leave() ? __LINE__ : 0;
	}
	return __LINE__;
}

TEST(share_between_processes)
{
	struct peer peer;
	uint64_t *data;

	session_test_name(name, sizeof(name), "share");
	peer_start(&peer, share_step, NULL);
	CHECK_EQ(peer_step(&peer, 1), 0); /* the peer creates it */
	CHECK(session_test_exists(name));
	CHECK_EQ(fusion_session_join(name), 0);
	CHECK_STR(fusion_session_name(), name);
	CHECK_EQ(members(), 2);
	CHECK_EQ(fusion_session_shm("data", 4096, (void **)&data), 0);
	CHECK_EQ((uintptr_t)data % 16, 0);
	CHECK_EQ(data[0], 0); /* zeroed */
	data[0] = 21;
	CHECK_EQ(peer_step(&peer, 2), 0);
	CHECK_EQ(data[0], 42);
	CHECK_EQ(data[1], (uint64_t)(uintptr_t)data);
	CHECK_EQ(fusion_session_leave(), 0);
	CHECK(fusion_session_name() == NULL);
	CHECK(session_test_exists(name)); /* the peer is still in */
	CHECK_EQ(peer_step(&peer, 3), 0);
	CHECK_EQ(peer_step(&peer, 4), 0);
	CHECK(!session_test_exists(name)); /* the last one removed it */
	CHECK_EQ(peer_end(&peer), 0);
}

/* A member's child is no member; a member that exits without leaving
 * leaves all the same. */
TEST(fork_and_exit)
{
	pid_t pid;
	int status;

	session_test_name(name, sizeof(name), "fork");
	CHECK_EQ(fusion_session_join(name), 0);
	pid = fork();
	if (pid == 0) /* exit(), not leave: its atexit hook leaves */
		exit(fusion_session_name() == NULL &&
			     fusion_session_join(name) == 0 && members() == 2
			 ? 0
			 : 1);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK_EQ(status, 0);
	CHECK_EQ(members(), 1);
	CHECK_EQ(fusion_session_leave(), 0);
	CHECK(!session_test_exists(name));
}

TEST(persistent)
{
	uint32_t *word;

	session_test_name(name, sizeof(name), "persist");
	setenv("FUSION_SESSION_PERSIST", "1", 1);
	CHECK_EQ(fusion_session_join(name), 0);
	unsetenv("FUSION_SESSION_PERSIST");
	CHECK_EQ(fusion_session_shm("w", 4, (void **)&word), 0);
	*word = 7;
	CHECK_EQ(fusion_session_leave(), 0);
	CHECK(session_test_exists(name));
	/* Held by no member, the block was freed. */
	CHECK_EQ(fusion_session_join(name), 0);
	CHECK_EQ(fusion_session_shm("w", 0, (void **)&word), -ENOENT);
	CHECK_EQ(fusion_session_leave(), 0);
	CHECK(session_test_exists(name));
	session_test_remove(name);
}

TEST(shm_bad_input)
{
	void *a, *b;
	char longname[FUSION_SESSION_SHM_NAME_MAX + 1];

	CHECK_EQ(fusion_session_shm("x", 16, &a), -ENOENT); /* no session */
	CHECK_EQ(fusion_session_shm_free(&a), -ENOENT);
	session_test_name(name, sizeof(name), "shm");
	CHECK_EQ(fusion_session_join(name), 0);
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CHECK_EQ(fusion_session_shm(NULL, 16, &a), -EINVAL);
	CHECK_EQ(fusion_session_shm("", 16, &a), -EINVAL);
	CHECK_EQ(fusion_session_shm(longname, 16, &a), -EINVAL);
	CHECK_EQ(fusion_session_shm("x", 16, NULL), -EINVAL);
	CHECK_EQ(fusion_session_shm("x", 0, &a), -ENOENT);
	CHECK_EQ(fusion_session_shm("x", 64, &a), 0);
	CHECK_EQ(fusion_session_shm("x", 32, &b), 0); /* smaller: the same */
	CHECK(a == b);
	CHECK_EQ(fusion_session_shm("x", 65, &b), -EEXIST);
	CHECK_EQ(fusion_session_shm("huge", (size_t)1 << 30, &b), -ENOSPC);
	CHECK_EQ(fusion_session_shm_free(NULL), -EINVAL);
	CHECK_EQ(fusion_session_shm_free((char *)a + 16), -EINVAL);
	CHECK_EQ(fusion_session_shm_free(a), 0);
	CHECK_EQ(fusion_session_shm_free(a), -EINVAL); /* not held now */
	CHECK_EQ(fusion_session_shm("x", 0, &b), -ENOENT);
	for (int i = 0; i < SESSION_MAX_SHM; i++) {
		char n[8];

		snprintf(n, sizeof(n), "b%d", i);
		CHECK_EQ(fusion_session_shm(n, 16, &b), 0);
	}
	CHECK_EQ(fusion_session_shm("one-more", 16, &b), -ENOSPC);
	CHECK_EQ(session_check(session_current()->hdr), 0);
	CHECK_EQ(fusion_session_leave(), 0);
	CHECK(!session_test_exists(name));
}

TEST(join_bad_input)
{
	char longname[FUSION_SESSION_NAME_MAX + 1];
	const char *bad[] = {NULL, "", ".hidden", "a/b", "a b", "é"};

	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ(fusion_session_join(bad[i]), -EINVAL);
	CHECK_EQ(fusion_session_join(longname), -EINVAL);
	CHECK_EQ(fusion_session_leave(), -ENOENT);
	session_test_name(name, sizeof(name), "busy");
	setenv("FUSION_BACKEND", "sim", 1);
	CHECK_EQ(fusion_session_join(name), -ENOTSUP);
	setenv("FUSION_BACKEND", "live", 1);
	CHECK(!session_test_exists(name));
	CHECK_EQ(fusion_session_join(name), 0);
	CHECK_EQ(fusion_session_join(name), -EBUSY);
	CHECK_EQ(fusion_session_leave(), 0);
	CHECK_EQ(fusion_session_leave(), -ENOENT);
}

/* A persistent session made by a peer, for the test to damage. */
static int make_step(void *arg, int n)
{
	(void)arg;
	(void)n;
	setenv("FUSION_SESSION_PERSIST", "1", 1);
	return fusion_session_join(name) || fusion_session_leave() ? __LINE__
								   : 0;
}

static void make_persistent(const char *what)
{
	struct peer peer;

	session_test_name(name, sizeof(name), what);
	peer_start(&peer, make_step, NULL);
	CHECK_EQ(peer_step(&peer, 1), 0);
	CHECK_EQ(peer_end(&peer), 0);
	CHECK(session_test_exists(name));
}

static int shm_fd(int flags)
{
	char path[128];

	snprintf(path, sizeof(path), "/dev/shm/fusion.%s", name);
	return open(path, O_RDWR | flags, 0600);
}

TEST(refuse_damaged)
{
	struct session_header hdr;
	char junk[65536];
	int fd;

	/* Garbage where a segment should be. */
	session_test_name(name, sizeof(name), "junk");
	fd = shm_fd(O_CREAT | O_EXCL);
	memset(junk, 0xa5, sizeof(junk));
	CHECK_EQ(write(fd, junk, sizeof(junk)), (ssize_t)sizeof(junk));
	close(fd);
	CHECK_EQ(fusion_session_join(name), -EPROTO);
	session_test_remove(name);

	/* Truncated. */
	make_persistent("trunc");
	fd = shm_fd(0);
	CHECK_EQ(ftruncate(fd, 1 << 20), 0); /* resized */
	close(fd);
	CHECK_EQ(fusion_session_join(name), -EPROTO);
	fd = shm_fd(0);
	CHECK_EQ(ftruncate(fd, 100), 0); /* shorter than its header */
	close(fd);
	CHECK_EQ(fusion_session_join(name), -EPROTO);
	session_test_remove(name);

	/* Made by another build (another layout of the structures). */
	make_persistent("build");
	fd = shm_fd(0);
	CHECK_EQ(pread(fd, &hdr, sizeof(hdr), 0), (ssize_t)sizeof(hdr));
	hdr.fingerprint ^= 1;
	CHECK_EQ(pwrite(fd, &hdr, sizeof(hdr), 0), (ssize_t)sizeof(hdr));
	close(fd);
	CHECK_EQ(fusion_session_join(name), -EPROTO);
	session_test_remove(name);

	/* Open to every user. */
	make_persistent("mode");
	fd = shm_fd(0);
	CHECK_EQ(fchmod(fd, 0666), 0);
	close(fd);
	CHECK_EQ(fusion_session_join(name), -EPROTO);
	session_test_remove(name);
	CHECK(fusion_session_name() == NULL);
}

TEST(address_taken)
{
	void *mem;

	mem =
	    mmap(NULL, 1 << 20, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(mem != MAP_FAILED);
	{
		char base[32];

		snprintf(base, sizeof(base), "%p", mem);
		setenv("FUSION_SESSION_BASE", base, 1);
	}
	session_test_name(name, sizeof(name), "addr");
	CHECK_EQ(fusion_session_join(name), -EADDRINUSE);
	unsetenv("FUSION_SESSION_BASE");
	CHECK(!session_test_exists(name));
	munmap(mem, 1 << 20);
}

static int other_user(void *arg)
{
	(void)arg;
	if (setgid(65534) || setuid(65534))
		return 3;
	return fusion_session_join(name) == -EACCES ? 0 : 1;
}

TEST(another_user)
{
	char err[256];

	if (geteuid() != 0)
		return; /* only root can become another user here */
	session_test_name(name, sizeof(name), "user");
	CHECK_EQ(fusion_session_join(name), 0);
	CHECK_EQ(test_run_child(other_user, NULL, err, sizeof(err)), 0);
	CHECK_EQ(fusion_session_leave(), 0);
	CHECK(!session_test_exists(name));
}

TESTS(T(share_between_processes), T(fork_and_exit), T(persistent),
      T(shm_bad_input), T(join_bad_input), T(refuse_damaged), T(address_taken),
      T(another_user));
