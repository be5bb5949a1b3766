/* SPDX-License-Identifier: MIT */
#include "session_test.h"

#include <fusion/fusion.h>

#include <linux/futex.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Skipped (77) where sessions cannot work: no robust futex list. */
__attribute__((constructor)) static void session_test_probe(void)
{
	struct robust_list_head *head;
	size_t len;

	if (syscall(SYS_get_robust_list, 0, &head, &len) != 0) {
		printf("no robust futex list (qemu-user?): skipped\n");
		exit(77);
	}
}

void session_test_name(char *buf, size_t len, const char *what)
{
	snprintf(buf, len, "t%d-%s", (int)getpid(), what);
}

bool session_test_exists(const char *name)
{
	char path[128];
	struct stat st;
	bool any;

	snprintf(path, sizeof(path), "/dev/shm/fusion.%s", name);
	any = lstat(path, &st) == 0;
	session_ctl_path(name, path, sizeof(path));
	return any || lstat(path, &st) == 0;
}

void session_test_remove(const char *name)
{
	char path[128];

	session_shm_path(name, path, sizeof(path));
	shm_unlink(path);
	session_ctl_path(name, path, sizeof(path));
	unlink(path);
}

void peer_start(struct peer *p, int (*step)(void *arg, int n), void *arg)
{
	int cmd[2], reply[2];

	CHECK(pipe(cmd) == 0 && pipe(reply) == 0);
	p->pid = fork();
	CHECK(p->pid >= 0);
	if (p->pid == 0) {
		int n, ret;

		close(cmd[1]);
		close(reply[0]);
		while (read(cmd[0], &n, sizeof(n)) == sizeof(n) && n != 0) {
			ret = step(arg, n);
			if (write(reply[1], &ret, sizeof(ret)) != sizeof(ret))
				_exit(2);
		}
		/* Leaves the session, if joined, as any program does. */
		exit(0);
	}
	close(cmd[0]);
	close(reply[1]);
	p->cmd = cmd[1];
	p->reply = reply[0];
}

int peer_step(struct peer *p, int n)
{
	int ret = -1;

	CHECK(write(p->cmd, &n, sizeof(n)) == sizeof(n));
	/* A peer that died answers nothing: -1. */
	return read(p->reply, &ret, sizeof(ret)) == sizeof(ret) ? ret : -1;
}

int peer_end(struct peer *p)
{
	int n = 0, status = -1;

	/* A peer already gone (killed) makes the write fail: fine. */
	signal(SIGPIPE, SIG_IGN);
	(void)!write(p->cmd, &n, sizeof(n));
	close(p->cmd);
	close(p->reply);
	CHECK(waitpid(p->pid, &status, 0) == p->pid);
	return status;
}

int peer_relaxed(int ret)
{
	struct nk_instance *nk = fusion_runtime_peek();

	if (nk && nk_thread_self(nk))
		(void)nk_thread_relax(nk);
	return ret;
}

int peer_instance_whole(void)
{
	char why[160];

	if (nk_instance_check(fusion_runtime_peek(), why, sizeof(why)) == 0)
		return 0;
	fprintf(stderr, "peer %d: instance check: %s\n", (int)getpid(), why);
	return __LINE__;
}

void peer_kill(struct peer *p)
{
	CHECK_EQ(kill(p->pid, SIGKILL), 0);
	CHECK(WIFSIGNALED(peer_end(p)));
}

int peer_join_board(const char *name, size_t size, void **board)
{
	PEER_CHECK(fusion_session_join(name) == 0);
	PEER_CHECK(fusion_session_shm("board", size, board) == 0);
	return 0;
}

/* A pair's peer: its test's @arg step, or the check. */
static int pair_step(void *arg, int n)
{
	int (*step)(void *, int) = (int (*)(void *, int))(uintptr_t)arg;

	if (n != PEER_STEP_CHECK)
		return step(NULL, n);
	PEER_CHECK(peer_instance_whole() == 0);
	return peer_relaxed(0);
}

void peers_pair_start(char *name, size_t len, const char *what,
		      int (*step)(void *arg, int n), struct peer *a,
		      struct peer *b)
{
	session_test_name(name, len, what);
	peer_start(a, pair_step, (void *)(uintptr_t)step);
	peer_start(b, pair_step, (void *)(uintptr_t)step);
	CHECK_EQ(peer_step(a, 1), 0);
	CHECK_EQ(peer_step(b, 2), 0);
}

void peers_pair_end(const char *name, struct peer *a, struct peer *b)
{
	CHECK_EQ(peer_end(b), 0);
	CHECK_EQ(peer_end(a), 0);
	CHECK(!session_test_exists(name));
}

void peers_pair_run(char *name, size_t len, const char *what,
		    int (*step)(void *arg, int n))
{
	struct peer a, b;

	peers_pair_start(name, len, what, step, &a, &b);
	CHECK_EQ(peer_step(&a, PEER_STEP_CHECK), 0);
	CHECK_EQ(peer_step(&b, PEER_STEP_CHECK), 0);
	peers_pair_end(name, &a, &b);
}

void peers_pair_kill_run(char *name, size_t len, const char *what,
			 int (*step)(void *arg, int n), int after)
{
	struct peer a, b;

	peers_pair_start(name, len, what, step, &a, &b);
	peer_kill(&a);
	CHECK_EQ(peer_step(&b, after), 0);
	CHECK_EQ(peer_end(&b), 0);
	session_test_remove(name);
}
