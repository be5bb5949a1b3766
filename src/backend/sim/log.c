/* FUSION_SIM_LOG: one text line per scheduling event. */
#include "sim.h"

void sim_log_record(void *ctx, const struct nk_trace_record *rec)
{
	char line[256];
	int n = nk_trace_format(rec, line, sizeof(line));

	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	line[n] = '\n';
	fwrite(line, 1, (size_t)n + 1, ctx);
}
