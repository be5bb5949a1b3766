/* SPDX-License-Identifier: MIT */
/** @file
 * The process-wide runtime that API skins share.
 *
 * Skin APIs (Alchemy, VxWorks, ...) take no instance argument: every
 * skin of a program works on one nucleus instance, created on first use
 * or before main() by the framework's main wrapper.  The thread that
 * creates it (normally main) becomes a nucleus thread at priority 0,
 * below every skin priority, so that main may block on skin objects.
 *
 * Options, given on the command line (consumed before main sees argv,
 * when the program is linked with `fusion-config --ldflags`) or through
 * the environment variable named in brackets:
 *   --backend=live|sim      [FUSION_BACKEND]  backend to run on
 *   --cpu-affinity=LIST     [FUSION_CPUS]     the Linux CPUs of the RT
 *                                             CPUs, e.g. "1" or "2,3"
 *   --sim-log=FILE          [FUSION_SIM_LOG]  sim event log
 *   --no-rt                 [FUSION_NO_RT=1]  no SCHED_FIFO (live)
 *   [FUSION_SIM_SCENARIO=FILE, FUSION_WATCHDOG_MS=0..3600000,
 *    FUSION_NO_SUD=0|1]
 * Arguments after "--" are never consumed.  Every one is checked when
 * the runtime starts: a bad value stops the program with one line on
 * stderr ("fusion: NAME=VALUE: what is wrong (allowed: ...)"; for the
 * content of a scenario file, "fusion-sim: FILE:LINE: why") and exit
 * status FUSION_EXIT_USAGE.
 */
#ifndef FUSION_RUNTIME_H
#define FUSION_RUNTIME_H

#include <fusion/types.h>

#include <stdio.h>

/** Exit status of a program stopped for a bad framework option. */
#define FUSION_EXIT_USAGE 2

/**
 * The runtime instance, created on the first call (the caller becomes
 * its first thread, "main"), with one RT CPU per CPU of FUSION_CPUS (one
 * by default).  The first call checks every option first: a bad one
 * ends the process (see above).  Errors: as nk_instance_create; the
 * failure is sticky.  Context: any.
 */
nk_export int fusion_runtime(struct nk_instance **out);

/**
 * The RT CPU of the runtime instance that runs on Linux CPU @p linux_cpu
 * (starting the runtime if needed).  Errors: -EINVAL (not one of the RT
 * CPUs' Linux CPUs), as fusion_runtime.  Context: any.
 */
nk_export int fusion_runtime_cpu(int linux_cpu);

/**
 * Check every option in the environment without starting anything:
 * 0, or -EINVAL once the first bad one's line is printed.  Context: any.
 */
nk_export int fusion_runtime_check(void);

/** Print one line per option (forms, variable, meaning) to @p out. */
nk_export void fusion_runtime_usage(FILE *out);

/**
 * The runtime instance if it was created and is not destroyed yet, else
 * NULL; never creates it (for a Linux thread that must not become
 * "main" by asking).  Context: any.
 */
nk_export struct nk_instance *fusion_runtime_peek(void);

/**
 * Remove the framework options above from @p argv (updating *@p argc) and
 * apply them (set their variables).  Must precede the first
 * fusion_runtime() call to matter.  Errors: -EINVAL (a bad value, e.g.
 * --backend=foo, after its line on stderr; NULL arguments), -ENOMEM.
 */
nk_export int fusion_runtime_options(int *argc, char **argv);

#endif
