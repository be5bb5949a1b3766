/* SPDX-License-Identifier: MIT */
/*
 * fusion info: what the live backend can count on here, with a verdict,
 * so that a user whose latency looks wrong knows why.
 */
#include "tool.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH 59
#endif

struct info_verdict {
	int problems;
	char advice[1024];
};

static void advise(struct info_verdict *v, const char *text)
{
	size_t len = strlen(v->advice);

	v->problems++;
	snprintf(v->advice + len, sizeof(v->advice) - len, "  - %s\n", text);
}

/* First line of @path into @buf, or "unknown". */
static const char *read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (f == NULL || fgets(buf, (int)len, f) == NULL) {
		snprintf(buf, len, "unknown");
	} else {
		buf[strcspn(buf, "\n")] = '\0';
	}
	if (f)
		fclose(f);
	return buf;
}

static bool probe_fifo(void)
{
	struct sched_param param = {.sched_priority = 1}, saved;
	int policy;

	if (pthread_getschedparam(pthread_self(), &policy, &saved) ||
	    pthread_setschedparam(pthread_self(), SCHED_FIFO, &param))
		return false;
	pthread_setschedparam(pthread_self(), policy, &saved);
	return true;
}

static bool probe_sud(void)
{
	/* Turning it off is harmless and tells whether the kernel knows it. */
	return prctl(PR_SET_SYSCALL_USER_DISPATCH, 0, 0, 0, 0) == 0;
}

void fusion_info_usage(FILE *out)
{
	fprintf(out, "usage: fusion info\n"
		     "  what the live backend can count on here, with a "
		     "verdict and advice\n");
}

int fusion_info(int argc, char **argv)
{
	struct info_verdict v = {0};
	struct rlimit rtprio;
	char buf[256];
	const char *no_rt = getenv("FUSION_NO_RT");
	bool fifo = probe_fifo() && !(no_rt && no_rt[0] && strcmp(no_rt, "0"));
	bool mlock_ok = mlockall(MCL_CURRENT) == 0;
	long rt_runtime;
	int timerslack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	const char *cpus = getenv("FUSION_CPUS");
	const char *backend = getenv("FUSION_BACKEND");

	(void)argv;
	if (argc > 1) {
		fusion_info_usage(stderr);
		return FUSION_EXIT_USAGE;
	}
	if (mlock_ok)
		munlockall();
	getrlimit(RLIMIT_RTPRIO, &rtprio);
	printf("backend            %s\n",
	       backend && backend[0] ? backend : "live (default)");
	printf("RT CPUs            %s\n",
	       cpus && cpus[0] ? cpus
			       : "the last online CPU (FUSION_CPUS unset)");
	printf("online CPUs        %ld\n", ncpu);
	printf("SCHED_FIFO         %s (RLIMIT_RTPRIO %ld%s)\n",
	       fifo ? "allowed" : "not allowed", (long)rtprio.rlim_cur,
	       geteuid() == 0 ? ", root" : "");
	printf("mlockall           %s\n",
	       mlock_ok ? "allowed" : strerror(errno));
	printf("syscall dispatch   %s\n",
	       probe_sud() ? "available" : "not available in this kernel");
	printf("clocksource        %s\n",
	       read_line("/sys/devices/system/clocksource/clocksource0/"
			 "current_clocksource",
			 buf, sizeof(buf)));
	rt_runtime = strtol(
	    read_line("/proc/sys/kernel/sched_rt_runtime_us", buf, sizeof(buf)),
	    NULL, 10);
	printf("RT throttling      sched_rt_runtime_us = %s\n", buf);
	printf("timer slack        %d ns\n", timerslack);
	printf(
	    "CPU governor       %s\n",
	    read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		      buf, sizeof(buf)));
	printf("idle driver        %s\n",
	       read_line("/sys/devices/system/cpu/cpuidle/current_driver", buf,
			 sizeof(buf)));

	if (!fifo)
		advise(&v,
		       "SCHED_FIFO refused: run as root, grant CAP_SYS_NICE "
		       "(setcap cap_sys_nice+ep) or raise RLIMIT_RTPRIO "
		       "(limits.conf rtprio); scheduling order stays exact, "
		       "timing does not");
	if (!mlock_ok)
		advise(&v, "mlockall refused: page faults may hit real-time "
			   "paths; raise RLIMIT_MEMLOCK");
	if (ncpu < 2)
		advise(&v, "one CPU only: Linux and the RT CPU share it");
	if (strcmp(read_line("/sys/devices/system/clocksource/clocksource0/"
			     "current_clocksource",
			     buf, sizeof(buf)),
		   "tsc") != 0)
		advise(&v, "clocksource is not tsc: reading time may cost a "
			   "system call");
	if (rt_runtime >= 0 && rt_runtime < 1000000)
		advise(&v,
		       "RT throttling is on (sched_rt_runtime_us < period): "
		       "a runaway RT thread leaves Linux a slice, and RT "
		       "threads may be stalled at the end of each second");
	if (strcmp(read_line("/sys/devices/system/cpu/cpu0/cpufreq/"
			     "scaling_governor",
			     buf, sizeof(buf)),
		   "performance") != 0 &&
	    strcmp(buf, "unknown") != 0)
		advise(&v, "CPU governor is not 'performance': frequency "
			   "changes add latency");
	printf("\nverdict            %s\n",
	       v.problems == 0 ? "ready for real time"
	       : fifo	       ? "usable for real time, with caveats:"
			       : "not real-time capable as configured:");
	fputs(v.advice, stdout);
	return 0;
}
