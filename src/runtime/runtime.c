/* SPDX-License-Identifier: MIT */
/*
 * The process-wide nucleus instance shared by the skins.  Created once;
 * destroyed at exit when the creating thread is the one exiting, so that
 * a program that returns from main leaves no shadow behind.
 */
#include <fusion/instance.h>
#include <fusion/runtime.h>
#include <fusion/session.h>

#include "../backend/common/options.h"
#include "runtime.h"
#include "status_page.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_once_t runtime_once = PTHREAD_ONCE_INIT;
static struct nk_instance *runtime_nk;
static int runtime_error;
/* The Linux CPU of each RT CPU, as the backends map them. */
static int runtime_cpus[NK_MAX_CPUS];
static int runtime_nr_cpus;
/* The process that made or joined the instance: a child it forks runs
 * its exit handlers too, with none of the instance's threads, and in a
 * session without its segment (session_forked). */
static pid_t runtime_pid;

static void runtime_exit(void)
{
	if (getpid() != runtime_pid)
		return;
	/* -EPERM when exit() runs in another thread: the process ends
	 * anyway and the backend's own exit hooks release the CPUs.  Still
	 * published while it is destroyed: the skins' exit hooks find
	 * their state through it. */
	status_instance(NULL);
	if (runtime_nk && nk_instance_destroy(runtime_nk) == 0)
		__atomic_store_n(&runtime_nk, NULL, __ATOMIC_RELEASE);
}

/* Why fusion_session_join() refused, for the one line printed. */
static const char *join_error(int err)
{
	if (err == -ENOTSUP)
		return "sessions need the live backend (sim keeps one "
		       "process's virtual time)";
	if (err == -ENOSYS)
		return "the kernel keeps no robust futex list (a member dying "
		       "with the lock would hang the others)";
	return strerror(-err);
}

/*
 * The session's instance, joined, or made when no member has made it
 * yet: on the instance's CPUs unless @cpus_given.  An instance being
 * made or ended by another member is waited for, briefly.
 */
static int session_instance(struct nk_instance_attr *attr, bool cpus_given,
			    struct nk_instance **out)
{
	const struct timespec pause = {.tv_nsec = 1000000};
	int ret;

	for (int tries = 0; tries < 5000; tries++) {
		attr->join = false;
		ret = nk_instance_create(attr, out);
		if (ret == -EBUSY) {
			struct nk_instance_attr join = *attr;

			join.join = true;
			if (!cpus_given)
				join.nr_cpus = 0;
			ret = nk_instance_create(&join, out);
		}
		if (ret != -EAGAIN)
			return ret;
		nanosleep(&pause, NULL);
	}
	return ret;
}

int runtime_instance_create(struct nk_instance_attr *attr, bool cpus_given,
			    struct nk_instance **out)
{
	struct be_options opts = {0};
	int ret;

	be_option_get(BE_OPT_SESSION, &opts);
	if (opts.session && fusion_session_name() == NULL) {
		ret = fusion_session_join(opts.session);
		if (ret) {
			fprintf(stderr, "fusion: cannot join session %s: %s\n",
				opts.session, join_error(ret));
			return ret;
		}
	}
	attr->session = fusion_session_name() != NULL;
	if (!attr->session)
		return nk_instance_create(attr, out);
	ret = session_instance(attr, cpus_given, out);
	if (ret == -EINVAL && cpus_given)
		fprintf(stderr,
			"fusion: session %s: its instance runs on other RT "
			"CPUs than --cpus asks\n",
			fusion_session_name());
	return ret;
}

static void runtime_create(void)
{
	struct be_options opts = {0};
	struct nk_instance_attr attr = {
	    .main_name = "main",
	    .main_priority = 0,
	};
	struct nk_instance *nk;
	bool cpus_given;
	int ret;

	/* A bad option stops the program here, its line printed. */
	if (be_options_check())
		exit(FUSION_EXIT_USAGE);
	/* Before the instance, while the caller is no shadow yet: the page
	 * answers "not started" until it is published below. */
	ret = status_publish();
	if (ret)
		fprintf(stderr,
			"fusion: no status page (%s): fusion ps and top will "
			"not see this program\n",
			strerror(-ret));
	be_option_get(BE_OPT_CPUS, &opts);
	cpus_given = opts.nr_cpus != 0;
	if (opts.nr_cpus == 0 && be_default_cpus(opts.cpus, 1) == 1)
		opts.nr_cpus = 1;
	attr.nr_cpus = opts.nr_cpus;
	memcpy(runtime_cpus, opts.cpus, sizeof(runtime_cpus));
	runtime_nr_cpus = opts.nr_cpus;
	runtime_error = runtime_instance_create(&attr, cpus_given, &nk);
	if (runtime_error)
		return;
	/* A joined instance runs where its maker chose. */
	runtime_nr_cpus = nk_instance_nr_cpus(nk);
	for (int cpu = 0; cpu < runtime_nr_cpus; cpu++) {
		int host = nk_instance_host_cpu(nk, cpu);

		if (host >= 0)
			runtime_cpus[cpu] = host;
	}
	/* Published for fusion_runtime_peek(), which does not wait here. */
	__atomic_store_n(&runtime_nk, nk, __ATOMIC_RELEASE);
	status_instance(nk);
	runtime_pid = getpid();
	atexit(runtime_exit);
}

int fusion_runtime(struct nk_instance **out)
{
	if (out == NULL)
		return -EINVAL;
	pthread_once(&runtime_once, runtime_create);
	*out = runtime_nk;
	return runtime_error;
}

struct nk_instance *fusion_runtime_peek(void)
{
	return __atomic_load_n(&runtime_nk, __ATOMIC_ACQUIRE);
}

int fusion_runtime_cpu(int linux_cpu)
{
	struct nk_instance *nk;
	int ret = fusion_runtime(&nk);

	if (ret)
		return ret;
	for (int i = 0; i < runtime_nr_cpus; i++)
		if (runtime_cpus[i] == linux_cpu)
			return i;
	return -EINVAL;
}

int fusion_runtime_check(void)
{
	return be_options_check();
}

void fusion_runtime_usage(FILE *out)
{
	if (out)
		be_options_help(out);
}

int fusion_runtime_options(int *argc, char **argv)
{
	int in, out, ret;

	if (argc == NULL || argv == NULL || *argc < 0)
		return -EINVAL;
	for (in = out = 1; in < *argc; in++) {
		bool matched;

		if (strcmp(argv[in], "--") == 0)
			break;
		ret = be_option_apply_arg(argv[in], &matched);
		if (ret)
			return ret;
		if (!matched)
			argv[out++] = argv[in];
	}
	while (in < *argc)
		argv[out++] = argv[in++];
	argv[out] = NULL;
	*argc = out;
	return 0;
}
