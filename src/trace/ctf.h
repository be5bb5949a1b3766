/* SPDX-License-Identifier: MIT */
/*
 * The built-in recorder's output: a CTF 1.8 trace (a directory holding
 * "metadata", the TSDL description, and one binary stream per RT CPU,
 * "stream_N") that babeltrace2 and Trace Compass read, each tracepoint
 * an event "fusion:<name>" whose fields are those its line of
 * <fusion/trace_points.h> names.  The reader reads back what the writer
 * writes (the fusion trace tools), nothing else.
 */
#ifndef FUSION_TRACE_CTF_H
#define FUSION_TRACE_CTF_H

#include "names.h"
#include "ring.h"

/* One RT CPU's events, in the order of their dates, and its losses. */
struct trace_stream {
	const struct trace_rec *events;
	size_t nr;
	uint64_t lost;
};

/*
 * Write @nr_cpus streams into directory @dir (created if missing; its
 * metadata and stream files replaced), naming @backend in the trace's
 * environment, every number of the events written as its name in
 * @names.  Nothing in the output depends on anything else: the same
 * events and names give the same bytes.  Returns 0 or -errno.
 */
int trace_ctf_write(const char *dir, const char *backend,
		    const struct trace_stream *streams, int nr_cpus,
		    const struct trace_names *names);

#define TRACE_THREAD_MAX NK_NAME_MAX
#define TRACE_TEXT_MAX NK_NAME_MAX

/* One event read back, its names as the trace holds them. */
struct trace_event {
	int64_t date;
	int64_t arg;
	uint16_t event;
	uint16_t cpu;
	char thread[TRACE_THREAD_MAX];
	char object[TRACE_TEXT_MAX];
	char detail[TRACE_TEXT_MAX];
};

/* A trace read back: every CPU's events merged, by date then CPU. */
struct trace_log {
	struct trace_event *events;
	size_t nr;
	uint64_t lost;
	int nr_cpus;
};

/*
 * Read the trace in @dir into @log.  Returns 0, -errno (a file cannot
 * be read, out of memory) or -EPROTO (not a trace this writer wrote).
 */
int trace_ctf_read(const char *dir, struct trace_log *log);
void trace_log_free(struct trace_log *log);

#endif
