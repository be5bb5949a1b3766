/* SPDX-License-Identifier: MIT */
/*
 * The status page of this program (status_page.h): a thread of its own
 * answers readers' requests with a snapshot of the runtime instance.  It
 * sleeps until asked, so a program nobody watches pays nothing; asked,
 * it holds the nucleus lock for the copy only, at the interrupt threads'
 * SCHED_FIFO priority (a lock holder preempted by a busy Linux task
 * would stall every real-time thread), on a CPU that is no RT CPU when
 * the process has one.
 */
#include "status_page.h"
#include "../backend/common/options.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static char status_path[32];
static pid_t status_owner; /* a forked child runs our exit handlers too */
/* The instance reported; the guard keeps it alive during a snapshot. */
static pthread_mutex_t status_guard = PTHREAD_MUTEX_INITIALIZER;
static struct nk_instance *status_nk;

void status_page_name(pid_t pid, char *buf, size_t len)
{
	snprintf(buf, len, "/fusion-status.%d", (int)pid);
}

void status_instance(struct nk_instance *nk)
{
	pthread_mutex_lock(&status_guard);
	status_nk = nk;
	pthread_mutex_unlock(&status_guard);
}

static void status_answer(struct status_page *page)
{
	atomic_fetch_add(&page->generation, 1);
	pthread_mutex_lock(&status_guard);
	page->error =
	    status_nk
		? nk_instance_status(status_nk, &page->st, page->threads,
				     STATUS_THREADS, page->irqs, STATUS_IRQS)
		: -ESRCH;
	if (page->error == 0)
		page->error =
		    nk_instance_objects(status_nk, page->objects,
					STATUS_OBJECTS, &page->nr_objects);
	pthread_mutex_unlock(&status_guard);
	atomic_fetch_add(&page->generation, 1);
	syscall(SYS_futex, &page->generation, FUTEX_WAKE, INT_MAX, NULL, NULL,
		0);
}

static void *status_main(void *arg)
{
	struct status_page *page = arg;
	uint32_t seen = atomic_load(&page->request);

	prctl(PR_SET_NAME, "fusion-status");
	for (;;) {
		uint32_t asked = atomic_load(&page->request);

		if (asked == seen) {
			syscall(SYS_futex, &page->request, FUTEX_WAIT, asked,
				NULL, NULL, 0);
			continue;
		}
		seen = asked;
		status_answer(page);
	}
	return NULL;
}

/* Off the RT CPUs when there is a CPU left, at the interrupt threads'
 * priority when real time is allowed; either may be refused. */
static void status_place(pthread_attr_t *attr, const struct be_options *o)
{
	struct sched_param param = {.sched_priority = o->fifo_hi + 1};
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0) {
		cpu_set_t rest = set;

		for (int i = 0; i < o->nr_cpus; i++)
			CPU_CLR(o->cpus[i], &rest);
		if (CPU_COUNT(&rest) > 0)
			pthread_attr_setaffinity_np(attr, sizeof(rest), &rest);
	}
	if (!o->no_rt &&
	    (o->backend == NULL || strcmp(o->backend, "live") == 0) &&
	    sched_get_priority_max(SCHED_FIFO) >= param.sched_priority &&
	    pthread_attr_setinheritsched(attr, PTHREAD_EXPLICIT_SCHED) == 0 &&
	    pthread_attr_setschedpolicy(attr, SCHED_FIFO) == 0)
		pthread_attr_setschedparam(attr, &param);
}

static void status_remove(void)
{
	if (getpid() == status_owner)
		shm_unlink(status_path);
}

static int status_start(struct status_page *page, const struct be_options *o)
{
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t thread;
	int ret;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	status_place(&attr, o);
	/* No signal of the program's nor of the backend's lands here. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&thread, &attr, status_main, page);
	if (ret == EPERM) { /* no SCHED_FIFO after all: as it comes */
		pthread_attr_setinheritsched(&attr, PTHREAD_INHERIT_SCHED);
		ret = pthread_create(&thread, &attr, status_main, page);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return -ret;
}

int status_publish(void)
{
	struct be_options o = {0};
	struct status_page *page;
	int fd, ret;

	if (be_option_get(BE_OPT_BACKEND, &o) ||
	    be_option_get(BE_OPT_CPUS, &o) ||
	    be_option_get(BE_OPT_FIFO_RANGE, &o) ||
	    be_option_get(BE_OPT_NO_RT, &o))
		return -EINVAL;
	/* None given: the one the instance will take by default, which
	 * the status thread keeps off as well. */
	if (o.nr_cpus == 0 && be_default_cpus(o.cpus, 1) == 1)
		o.nr_cpus = 1;
	status_page_name(getpid(), status_path, sizeof(status_path));
	/* O_TRUNC: a page left by a dead process of the same pid. */
	fd = shm_open(status_path, O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW,
		      0600);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, sizeof(*page))) {
		ret = -errno;
		close(fd);
		shm_unlink(status_path);
		return ret;
	}
	page = mmap(NULL, sizeof(*page), PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    0);
	close(fd);
	if (page == MAP_FAILED) {
		shm_unlink(status_path);
		return -ENOMEM;
	}
	memcpy(page->magic, STATUS_MAGIC, sizeof(page->magic));
	page->layout = STATUS_LAYOUT;
	page->size = sizeof(*page);
	page->pid = getpid();
	page->start = status_pid_start(getpid());
	prctl(PR_GET_NAME, page->comm);
	snprintf(page->backend, sizeof(page->backend), "%s",
		 o.backend ? o.backend : "live");
	ret = status_start(page, &o);
	if (ret) {
		munmap(page, sizeof(*page));
		shm_unlink(status_path);
		return ret;
	}
	status_owner = getpid();
	atexit(status_remove);
	return 0;
}
