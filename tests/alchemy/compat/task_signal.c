/* SPDX-License-Identifier: MIT */
/*
 * A Xenomai 3 program that signals a task by its Linux thread id: the
 * program's handler runs in that task, the task survives, and the
 * sleep the signal interrupted returns -EINTR.  <task.h> alone, through
 * -I<include>/alchemy.
 */
#include <task.h>

#include <stdio.h>
#include <unistd.h>

static volatile sig_atomic_t handled_in;
static int sleep_ret = 1, after_ret = 1;
static volatile sig_atomic_t done;

static void on_usr1(int sig)
{
	(void)sig;
	handled_in = (sig_atomic_t)gettid();
}

static void sleeper(void *arg)
{
	(void)arg;
	sleep_ret = rt_task_sleep_until(TM_INFINITE);
	after_ret = rt_task_sleep(1000000);
	done = 1;
}

/*
 * What the test needs, not what a program does: as with any blocking
 * system call, a handler that runs just before the task goes to sleep
 * cannot break the sleep to come, so signal once Linux has it asleep.
 */
static void wait_asleep(pid_t tid)
{
	char path[64], line[256];
	const char *p;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	for (;;) {
		FILE *f = fopen(path, "r");

		p = f ? fgets(line, sizeof(line), f) : NULL;
		if (f)
			fclose(f);
		p = p ? strrchr(line, ')') : NULL;
		if (p == NULL || p[2] == 'S')
			return;
		sched_yield();
	}
}

int main(void)
{
	struct sigaction sa = {.sa_handler = on_usr1};
	RT_TASK task;
	RT_TASK_INFO info;
	int failures = 0;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	if (rt_task_spawn(&task, "sleeper", 0, 50, T_JOINABLE, sleeper, NULL) ||
	    rt_task_inquire(&task, &info))
		return 2;
	wait_asleep(info.pid);
	/* kill() of a thread id is the process's signal, which Linux hands
	 * to that thread first when it does not block it. */
	kill(info.pid, SIGUSR1);
	/* Poll as a task: time runs on, on sim too. */
	for (int i = 0; i < 100000 && !done; i++)
		rt_task_sleep(1000000);
	rt_task_join(&task);
	if (handled_in != info.pid) {
		fprintf(stderr, "handler ran in %d, not in the task (%d)\n",
			(int)handled_in, (int)info.pid);
		failures++;
	}
	if (sleep_ret != -EINTR || after_ret != 0) {
		fprintf(stderr, "sleep: %d then %d, expected %d then 0\n",
			sleep_ret, after_ret, -EINTR);
		failures++;
	}
	if (failures == 0)
		printf("task_signal: ok\n");
	return failures ? 1 : 0;
}
