/* SPDX-License-Identifier: MIT */
/*
 * The built-in recorder: when FUSION_TRACE asks for it, every instance
 * records the events of the categories asked for into per-CPU rings
 * (ring.h), and writes them as a CTF trace (ctf.h) at its end, on
 * SIGUSR2 and when a wake-up is later than a threshold (config.h).
 * Recording takes no lock and calls nothing of Linux, except to wake
 * the writing thread when a threshold trips (once per run).
 */
#ifndef FUSION_TRACE_RECORDER_H
#define FUSION_TRACE_RECORDER_H

#include <fusion/trace.h>

struct trace_recorder;

/*
 * If FUSION_TRACE asks for a recording: a recorder for @nr_cpus RT CPUs
 * of backend @backend in *@out; otherwise NULL.  Returns 0, -EINVAL (a
 * bad FUSION_TRACE: its line printed) or -ENOMEM.  Outside the nucleus
 * lock.
 */
int trace_recorder_open(const char *backend, int nr_cpus,
			struct trace_recorder **out);

/*
 * Put @rec (NULL: nothing to do) in the place of the sink *@fn / *@ctx,
 * to which it passes every record on.
 */
void trace_recorder_attach(struct trace_recorder *rec, nk_trace_fn *fn,
			   void **ctx);

/*
 * Write the trace (a last time), say on stderr how many events were
 * lost if any were, and free @rec (NULL: nothing).  Once nothing fires
 * tracepoints into it any more.
 */
void trace_recorder_close(struct trace_recorder *rec);

#endif
