/* SPDX-License-Identifier: MIT */
#include "harness.h"

#include <fusion/fusion.h>

#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static jmp_buf test_env;
static int test_failed;
static pthread_t test_main_thread;

void test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	/* Unwinding into the runner is only possible from its own thread. */
	if (!pthread_equal(pthread_self(), test_main_thread)) {
		printf("FAIL (in a nucleus thread)\n0 passed, 1 failed\n");
		fflush(stdout);
		_exit(EXIT_FAILURE);
	}
	test_failed = 1;
	longjmp(test_env, 1);
}

int main(int argc, char **argv)
{
	/* volatile: they live across setjmp/longjmp. */
	volatile int passed = 0, failed = 0;
	const char *only = argc > 1 ? argv[1] : NULL;

	test_main_thread = pthread_self();

	for (const struct test_case *volatile tc = test_cases; tc->name; tc++) {
		if (only && strcmp(only, tc->name) != 0)
			continue;
		test_failed = 0;
		if (setjmp(test_env) == 0) {
			tc->fn();
			if (fusion_runtime_peek())
				test_instance_whole(fusion_runtime_peek());
		}
		if (test_failed) {
			printf("FAIL %s\n", tc->name);
			failed++;
		} else {
			printf("ok   %s\n", tc->name);
			passed++;
		}
		fflush(stdout);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

void test_instance_whole(struct nk_instance *nk)
{
	char why[160];

	if (nk_instance_check(nk, why, sizeof(why)))
		test_fail(__FILE__, __LINE__, "instance check: %s", why);
}

void test_log_append(char *log, size_t size, const char *fmt, ...)
{
	size_t used = strlen(log);
	va_list ap;

	if (used && used < size - 1)
		log[used++] = ' ';
	va_start(ap, fmt);
	vsnprintf(log + used, size - used, fmt, ap);
	va_end(ap);
}

void test_undate(const char *expected, bool dated, char *out, size_t size)
{
	size_t j = 0;

	for (size_t i = 0; expected[i] && j < size - 1; i++) {
		if (!dated && expected[i] == '@') {
			while (expected[i + 1] >= '0' && expected[i + 1] <= '9')
				i++;
			continue;
		}
		out[j++] = expected[i];
	}
	out[j] = '\0';
}

int test_run_child(int (*child)(void *), void *arg, char *err, size_t size)
{
	int fds[2], status;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	CHECK_EQ(pipe(fds), 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], STDERR_FILENO);
		close(fds[1]);
		_exit(child(arg));
	}
	close(fds[1]);
	while (len + 1 < size &&
	       (n = read(fds[0], err + len, size - 1 - len)) > 0)
		len += (size_t)n;
	err[len] = '\0';
	close(fds[0]);
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	return status;
}

int test_fifo_of(pid_t tid)
{
	struct sched_param param;

	if (sched_getscheduler(tid) != SCHED_FIFO)
		return 0;
	CHECK_EQ(sched_getparam(tid, &param), 0);
	return param.sched_priority;
}

pid_t test_task_named(const char *name)
{
	return test_task_named_in(getpid(), name);
}

pid_t test_task_named_in(pid_t pid, const char *name)
{
	char path[300];
	DIR *dir;
	struct dirent *e;
	pid_t tid = -1;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	CHECK(dir != NULL);
	while (tid < 0 && dir != NULL && (e = readdir(dir)) != NULL) {
		char comm[32] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/comm", (int)pid,
			 e->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
		if (strcmp(comm, name) == 0)
			tid = atoi(e->d_name);
	}
	if (dir != NULL)
		closedir(dir);
	return tid;
}

bool test_emulated(void)
{
	const char *emulated = getenv("FUSION_TEST_EMULATED");

	return emulated && emulated[0] == '1';
}

bool test_fifo_allowed(void)
{
	const char *no_rt = getenv("FUSION_NO_RT");
	struct nk_instance *nk;
	struct sched_param param;
	bool fifo;

	if ((no_rt && no_rt[0] == '1') ||
	    nk_instance_create(&(struct nk_instance_attr){0}, &nk))
		return false;
	fifo = sched_getscheduler(0) == SCHED_FIFO &&
	       sched_getparam(0, &param) == 0 && param.sched_priority > 0;
	nk_instance_destroy(nk);
	return fifo;
}
