/* SPDX-License-Identifier: MIT */
/*
 * FUSION_SIM_LOG: one text line per scheduling event.  A write error
 * (a full disk, /dev/full) is reported once, with the file's name; the
 * log stops there, the run goes on.
 */
#include "sim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct sim_log {
	FILE *file;
	bool failed; /* reported: nothing more is written */
	char path[];
};

static void log_failed(struct sim_log *log, int err)
{
	if (!log->failed)
		fprintf(stderr,
			"fusion-sim: %s: cannot write the event log: %s\n",
			log->path, strerror(err));
	log->failed = true;
}

struct sim_log *sim_log_open(const char *path)
{
	size_t len = strlen(path) + 1;
	struct sim_log *log = malloc(sizeof(*log) + len);

	if (log == NULL)
		return NULL;
	log->file = fopen(path, "w");
	if (log->file == NULL) {
		free(log);
		return NULL;
	}
	log->failed = false;
	memcpy(log->path, path, len);
	return log;
}

void sim_log_close(struct sim_log *log)
{
	/* What is still buffered meets the error here at the latest. */
	if (fclose(log->file))
		log_failed(log, errno);
	free(log);
}

void sim_log_record(void *ctx, const struct nk_trace_record *rec)
{
	struct sim_log *log = ctx;
	char line[256];
	int n = nk_trace_format(rec, line, sizeof(line));

	if (n < 0 || log->failed)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	line[n] = '\n';
	if (fwrite(line, 1, (size_t)n + 1, log->file) != (size_t)n + 1)
		log_failed(log, errno);
}
