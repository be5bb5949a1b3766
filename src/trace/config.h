/* SPDX-License-Identifier: MIT */
/*
 * FUSION_TRACE / --trace: what the built-in recorder records and where
 * it writes it.  The value is a comma-separated list of categories
 * (sched, thread, mode, irq, timer, service, mark, a skin's name for its
 * service calls - alchemy, vxworks, psos, rtai - or all: the default when
 * none is named) and settings:
 *   size=MIB      buffer per RT CPU (default 4)
 *   flight        keep the last events when full (default: the first)
 *   out=DIR       the CTF trace's directory (default fusion-trace)
 *   signal        SIGUSR2 writes the trace now (and again at the end)
 *   latency=US    a wake-up later than US microseconds freezes the
 *                 recording and writes it
 *   lttng         fire the LTTng-UST provider "fusion" instead (a
 *                 build with liblttng-ust only): lttng records
 * "off" (or an unset variable) records nothing.
 */
#ifndef FUSION_TRACE_CONFIG_H
#define FUSION_TRACE_CONFIG_H

#include <fusion/trace.h>

#include <stdbool.h>
#include <stddef.h>

#define TRACE_OUT_MAX 256
#define TRACE_SIZE_MAX_MIB 1024
#define TRACE_SIZE_DEFAULT_MIB 4

struct trace_config {
	unsigned int categories; /* bit per enum nk_trace_category; 0: off */
	unsigned int size_mib;
	bool flight;
	bool signal;
	bool lttng;
	nk_time_t latency; /* ns; 0: no trigger */
	char out[TRACE_OUT_MAX];
};

/*
 * Parse @spec into @c.  Returns 0, or -EINVAL with what is wrong and
 * what is allowed in @why.
 */
int trace_config_parse(const char *spec, struct trace_config *c, char *why,
		       size_t len);

#endif
