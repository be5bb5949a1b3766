/*
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
 *   --cpu-affinity=LIST     [FUSION_CPUS]     RT CPUs, e.g. "1" or "2,3"
 *   --sim-log=FILE          [FUSION_SIM_LOG]  sim event log
 *   --no-rt                 [FUSION_NO_RT=1]  no SCHED_FIFO (live)
 * Arguments after "--" are never consumed.
 */
#ifndef FUSION_RUNTIME_H
#define FUSION_RUNTIME_H

#include <fusion/types.h>

/*
 * The runtime instance, created on the first call (the caller becomes
 * its first thread, "main").  Errors: as nk_instance_create; the
 * failure is sticky.  Context: any.
 */
nk_export int fusion_runtime(struct nk_instance **out);

/*
 * The runtime instance if it was created and is not destroyed yet, else
 * NULL; never creates it (for a Linux thread that must not become
 * "main" by asking).  Context: any.
 */
nk_export struct nk_instance *fusion_runtime_peek(void);

/*
 * Remove the framework options above from @argv (updating *@argc) and
 * apply them.  Must precede the first fusion_runtime() call to matter.
 * Errors: -EINVAL (unknown value, e.g. --backend=foo; NULL arguments).
 */
nk_export int fusion_runtime_options(int *argc, char **argv);

#endif
