/* SPDX-License-Identifier: MIT */
/* fusion trace: its outputs, each in its own file. */
#ifndef FUSION_TOOL_TRACE_CMD_H
#define FUSION_TOOL_TRACE_CMD_H

#include "trace/ctf.h"

#include <stdio.h>

/* The report on stdout; 0, or -1 when out of memory. */
int fusion_trace_report(const struct trace_log *log);
/* The Chrome/Perfetto JSON on @out; 0, or -1 when out of memory. */
int fusion_trace_perfetto(const struct trace_log *log, FILE *out);

#endif
