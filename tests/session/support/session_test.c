/* SPDX-License-Identifier: MIT */
#include "session_test.h"

#include <linux/futex.h>
#include <signal.h>
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

void peer_kill(struct peer *p)
{
	CHECK_EQ(kill(p->pid, SIGKILL), 0);
	CHECK(WIFSIGNALED(peer_end(p)));
}
