/* SPDX-License-Identifier: MIT */
/* Reading back the built-in recorder's CTF traces: see ctf.h. */
#include "ctf.h"
#include "ctf_layout.h"
#include "sort.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole of @path in *@data (NUL-terminated), its size in *@len. */
static int slurp(const char *path, unsigned char **data, size_t *len)
{
	FILE *f = fopen(path, "r");
	unsigned char *p = NULL;
	size_t n = 0, cap = 0;

	if (f == NULL)
		return -errno;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			unsigned char *q = realloc(p, cap = (n + 4096 + 1) * 2);

			if (q == NULL) {
				free(p);
				fclose(f);
				return -ENOMEM;
			}
			p = q;
		}
		size_t got = fread(p + n, 1, 4096, f);

		n += got;
		if (got < 4096)
			break;
	}
	fclose(f);
	p[n] = '\0';
	*data = p;
	*len = n;
	return 0;
}

static int append(struct trace_log *log, size_t *cap,
		  const struct trace_event *e)
{
	if (log->nr == *cap) {
		size_t n = *cap ? *cap * 2 : 1024;
		struct trace_event *p = realloc(log->events, n * sizeof(*p));

		if (p == NULL)
			return -ENOMEM;
		log->events = p;
		*cap = n;
	}
	log->events[log->nr++] = *e;
	return 0;
}

/* Read a string field at *@pos (below @end) into @dst of @size. */
static int get_string(const unsigned char *data, size_t *pos, size_t end,
		      char *dst, size_t size)
{
	const unsigned char *nul = memchr(data + *pos, 0, end - *pos);
	size_t n;

	if (nul == NULL)
		return -EPROTO;
	n = (size_t)(nul - (data + *pos));
	if (n >= size)
		return -EPROTO;
	memcpy(dst, data + *pos, n + 1);
	*pos += n + 1;
	return 0;
}

static int get(const unsigned char *data, size_t *pos, size_t end, void *dst,
	       size_t n)
{
	if (end - *pos < n)
		return -EPROTO;
	memcpy(dst, data + *pos, n);
	*pos += n;
	return 0;
}

static int read_event(const unsigned char *data, size_t *pos, size_t end,
		      int cpu, struct trace_event *e)
{
	const struct nk_tracepoint *tp;
	uint64_t date;
	int ret;

	memset(e, 0, sizeof(*e));
	e->cpu = (uint16_t)cpu;
	ret = get(data, pos, end, &e->event, sizeof(e->event));
	if (ret == 0)
		ret = get(data, pos, end, &date, sizeof(date));
	tp = nk_tracepoint_info(e->event);
	if (ret || tp == NULL)
		return -EPROTO;
	e->date = (int64_t)date;
	if (tp->thread)
		ret = get_string(data, pos, end, e->thread, sizeof(e->thread));
	if (ret == 0 && tp->object)
		ret = get_string(data, pos, end, e->object, sizeof(e->object));
	if (ret == 0 && tp->detail)
		ret = get_string(data, pos, end, e->detail, sizeof(e->detail));
	if (ret == 0 && tp->arg)
		ret = get(data, pos, end, &e->arg, sizeof(e->arg));
	return ret;
}

static int read_stream(const unsigned char *data, size_t len, int cpu,
		       struct trace_log *log, size_t *cap)
{
	size_t pos = 0;

	while (pos < len) {
		struct ctf_packet_head head;
		size_t end;

		if (len - pos < CTF_PACKET_HEAD_SIZE)
			return -EPROTO;
		memcpy(&head, data + pos, CTF_PACKET_HEAD_SIZE);
		if (head.magic != CTF_MAGIC || head.content_size % 8 ||
		    head.packet_size < head.content_size ||
		    head.packet_size / 8 > len - pos ||
		    head.content_size / 8 < CTF_PACKET_HEAD_SIZE)
			return -EPROTO;
		end = pos + head.content_size / 8;
		log->lost += head.events_discarded;
		for (size_t at = pos + CTF_PACKET_HEAD_SIZE; at < end;) {
			struct trace_event e;
			int ret = read_event(data, &at, end, cpu, &e);

			if (ret == 0)
				ret = append(log, cap, &e);
			if (ret)
				return ret;
		}
		pos += head.packet_size / 8;
	}
	return 0;
}

int trace_ctf_read(const char *dir, struct trace_log *log)
{
	char path[TRACE_OUT_PATH_MAX];
	unsigned char *data;
	size_t len, cap = 0;
	int ret;

	memset(log, 0, sizeof(*log));
	snprintf(path, sizeof(path), "%s/metadata", dir);
	ret = slurp(path, &data, &len);
	if (ret)
		return ret;
	if (strncmp((char *)data, "/* CTF 1.8 */", 13) != 0 ||
	    strstr((char *)data, "tracer_name = \"" CTF_TRACER "\";") == NULL)
		ret = -EPROTO;
	free(data);
	for (int cpu = 0; ret == 0; cpu++) {
		snprintf(path, sizeof(path), "%s/stream_%d", dir, cpu);
		ret = slurp(path, &data, &len);
		if (ret == -ENOENT && cpu > 0) {
			ret = 0;
			break;
		}
		if (ret)
			break;
		ret = read_stream(data, len, cpu, log, &cap);
		free(data);
		log->nr_cpus = cpu + 1;
	}
	if (ret == 0)
		ret = trace_events_sort(log->events, log->nr);
	if (ret)
		trace_log_free(log);
	return ret;
}

void trace_log_free(struct trace_log *log)
{
	free(log->events);
	memset(log, 0, sizeof(*log));
}
