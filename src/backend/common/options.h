/* SPDX-License-Identifier: MIT */
/*
 * The framework options: one table (options.c) gives each its
 * environment variable, its command-line form, its parser and its help.
 * The runtime checks them all at start-up; each backend reads the ones
 * it uses through be_option_get(), which refuses what the check refuses,
 * so a program that creates an instance without the runtime gets the
 * same one-line message.
 */
#ifndef FUSION_BACKEND_OPTIONS_H
#define FUSION_BACKEND_OPTIONS_H

#include <fusion/instance.h>

#include "../../trace/config.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <stdio.h>

enum be_option_id {
	BE_OPT_BACKEND,
	BE_OPT_CPUS,
	BE_OPT_SIM_LOG,
	BE_OPT_SIM_SCENARIO,
	BE_OPT_SIM_CONTROL,
	BE_OPT_SIM_COST,
	BE_OPT_SIM_LIVELOCK,
	BE_OPT_WATCHDOG_MS,
	BE_OPT_FIFO_RANGE,
	BE_OPT_NO_RT,
	BE_OPT_NO_SUD,
	BE_OPT_SESSION,
	BE_OPT_SESSION_SIZE,
	BE_OPT_SESSION_BASE,
	BE_OPT_SESSION_GROUP,
	BE_OPT_SESSION_PERSIST,
	BE_OPT_TRACE,
	BE_OPT_VXWORKS_CLK_RATE,
	BE_OPT_NR
};

/* Parsed values; an option unset (or set empty) keeps its default. */
struct be_options {
	const char *backend;	    /* NULL: the default backend */
	int nr_cpus;		    /* 0: the backend's default CPUs */
	int cpus[NK_MAX_CPUS];	    /* Linux CPUs, in the order given */
	const char *sim_log;	    /* NULL: no event log */
	const char *sim_scenario;   /* NULL: no scenario */
	bool sim_controlled;	    /* fusion sim's agent, on: */
	int sim_control_fd;	    /* its socket */
	nk_time_t sim_cost;	    /* virtual ns per nucleus entry */
	bool sim_cost_measured;	    /* "measured": host CPU time instead */
	unsigned long sim_livelock; /* events at one date: a livelock */
	long watchdog_ms;	    /* 0: no watchdog */
	int fifo_lo, fifo_hi;	    /* SCHED_FIFO priorities of RT threads */
	bool no_rt;
	bool no_sud;
	const char *session;	   /* NULL: a private session */
	uint64_t session_size;	   /* bytes of a session made */
	uint64_t session_base;	   /* its address in every member */
	bool session_group;	   /* a group is granted access: */
	gid_t session_gid;	   /* this one */
	bool session_persist;	   /* stays when its last member leaves */
	struct trace_config trace; /* categories 0: no recording */
	int vxworks_clk_rate;	   /* VxWorks system clock at start, Hz */
};

/* VxWorks's clock rates (sysClkRateSet's range, in Hz). */
#define BE_VXWORKS_CLK_MAX 100000

/* The default base of a session's segment: above what Linux gives PIE
 * images, the heap and mmap, and inside what AddressSanitizer and
 * ThreadSanitizer leave to programs on x86-64; low enough elsewhere for
 * 39-bit address spaces (riscv64 Sv39, some arm64 kernels). */
#if defined(__x86_64__)
#define BE_SESSION_BASE 0x7e8000000000ull
#else
#define BE_SESSION_BASE 0x3000000000ull
#endif
#define BE_SESSION_SIZE_MIB 16
#define BE_SESSION_MAX_MIB 65536

#define BE_WATCHDOG_MAX_MS 3600000
/* Interrupt threads run one above the range: 99 at most. */
#define BE_FIFO_MAX 98

/*
 * Parse option @id from the environment into @opts (which the caller
 * zeroed), or its default when unset.  A bad value prints one line on
 * stderr, "fusion: NAME=VALUE: what is wrong (allowed: ...)", and
 * returns -EINVAL; a scenario file is read whole, and its own error is
 * the line, "fusion-sim: FILE:LINE: why".  Any context outside the
 * nucleus lock.
 */
int be_option_get(enum be_option_id id, struct be_options *opts);

/*
 * The RT CPUs' Linux CPUs when FUSION_CPUS is unset: the last @nr the
 * process may use, highest first.  Returns @nr, -EINVAL (fewer) or
 * -errno.
 */
int be_default_cpus(int *cpus, int nr);

/* Every option, in table order: the first bad one's line, -EINVAL. */
int be_options_check(void);

/*
 * If @arg is the command-line form of an option ("--backend=sim",
 * "--no-rt"), check its value (a bad one: the line as above, naming the
 * form given, and -EINVAL) and set its variable; *@matched says whether
 * it was one.  Returns 0, -EINVAL or -ENOMEM.
 */
int be_option_apply_arg(const char *arg, bool *matched);

/* One line per option: its forms and what it does. */
void be_options_help(FILE *out);

#endif
