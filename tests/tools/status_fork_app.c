/* SPDX-License-Identifier: MIT */
/*
 * A Fusion program whose child process, forked from it, ends with
 * exit(): the child's exit handlers must end cleanly and leave the
 * parent's instance and status page (/dev/shm/fusion-status.PID) alone,
 * or `fusion ps PID` and `fusion top PID` lose a program that still runs.
 * In a session (FUSION_SESSION) the child has no segment: ending the
 * instance there crashed it.  Exit status 0 when the child ended with 0
 * and the page is still there, 1 otherwise.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static bool page_exists(void)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/dev/shm/fusion-status.%d",
		 (int)getpid());
	return stat(path, &st) == 0;
}

int main(void)
{
	int status;
	pid_t child;

	if (!page_exists()) {
		fprintf(stderr, "status_fork_app: no page before the fork\n");
		return 1;
	}
	child = fork();
	if (child == 0)
		exit(0);
	if (child < 0 || waitpid(child, &status, 0) != child ||
	    !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "status_fork_app: the child failed\n");
		return 1;
	}
	if (!page_exists()) {
		fprintf(stderr, "status_fork_app: the child's exit removed "
				"the parent's page\n");
		return 1;
	}
	return 0;
}
