/* SPDX-License-Identifier: MIT */
/* CTF 1.8 output of the built-in recorder: see ctf.h. */
#include "ctf.h"
#include "ctf_layout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void write_field(FILE *f, const char *type, const char *name)
{
	if (name)
		fprintf(f, "\t\t%s %s;\n", type, name);
}

/*
 * Rename @dir/@name.tmp to @dir/@name: a reader (fusion trace, a test
 * polling for a trace written on a signal) never sees half a file.
 */
static int publish(const char *dir, const char *name)
{
	char from[TRACE_OUT_PATH_MAX], to[TRACE_OUT_PATH_MAX];

	/* @dir fits (trace_config checks it): a longer one is refused. */
	if ((size_t)snprintf(from, sizeof(from), "%s/%s.tmp", dir, name) >=
		sizeof(from) ||
	    (size_t)snprintf(to, sizeof(to), "%s/%s", dir, name) >= sizeof(to))
		return -ENAMETOOLONG;
	return rename(from, to) ? -errno : 0;
}

static int write_metadata(const char *dir, const char *backend)
{
	char path[TRACE_OUT_PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/metadata.tmp", dir);
	f = fopen(path, "w");
	if (f == NULL)
		return -errno;
	fprintf(f, "/* CTF 1.8 */\n\n");
	fprintf(f, "typealias integer { size = 16; align = 8; signed = false; "
		   "} := uint16_t;\n"
		   "typealias integer { size = 32; align = 8; signed = false; "
		   "} := uint32_t;\n"
		   "typealias integer { size = 64; align = 8; signed = false; "
		   "} := uint64_t;\n"
		   "typealias integer { size = 64; align = 8; signed = true; "
		   "} := int64_t;\n\n");
	fprintf(f,
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tbyte_order = %s;\n"
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n"
		"\t\tuint32_t stream_id;\n\t};\n};\n\n",
		CTF_HOST_LE ? "le" : "be");
	fprintf(f,
		"env {\n\ttracer_name = \"%s\";\n\ttracer_major = %d;\n"
		"\tbackend = \"%s\";\n};\n\n",
		CTF_TRACER, CTF_TRACER_MAJOR, backend);
	fprintf(f, "clock {\n\tname = \"fusion\";\n"
		   "\tdescription = \"the backend's clock (virtual time on "
		   "sim)\";\n\tfreq = 1000000000;\n\toffset = 0;\n};\n\n");
	fprintf(f, "typealias integer { size = 64; align = 8; signed = false; "
		   "map = clock.fusion.value; } := clock_t;\n\n");
	fprintf(f, "stream {\n\tid = 0;\n\tpacket.context := struct {\n"
		   "\t\tclock_t timestamp_begin;\n\t\tclock_t timestamp_end;\n"
		   "\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n"
		   "\t\tuint64_t events_discarded;\n\t\tuint32_t cpu_id;\n"
		   "\t};\n\tevent.header := struct {\n\t\tuint16_t id;\n"
		   "\t\tclock_t timestamp;\n\t};\n};\n");
	for (int ev = 0; ev < NK_TRACE_NR_EVENTS; ev++) {
		const struct nk_tracepoint *tp = nk_tracepoint_info(ev);

		fprintf(f,
			"\nevent {\n\tname = \"fusion:%s\";\n\tid = %d;\n"
			"\tstream_id = 0;\n\tfields := struct {\n",
			tp->name, ev);
		write_field(f, "string", tp->thread);
		write_field(f, "string", tp->object);
		write_field(f, "string", tp->detail);
		write_field(f, "int64_t", tp->arg);
		fprintf(f, "\t};\n};\n");
	}
	if (fclose(f))
		return -errno;
	return publish(dir, "metadata");
}

/* A growing byte buffer; a failed growth is remembered, not fatal. */
struct buf {
	unsigned char *data;
	size_t len, cap;
	bool failed;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n > b->cap) {
		size_t cap = (b->len + n) * 2;
		unsigned char *data = realloc(b->data, cap);

		if (data == NULL) {
			b->failed = true;
			return;
		}
		b->data = data;
		b->cap = cap;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void put_string(struct buf *b, const char *s)
{
	put(b, s, strlen(s) + 1);
}

static void put_name(struct buf *b, const struct trace_names *names,
		     uint32_t number)
{
	char name[NK_NAME_MAX];

	trace_names_get(names, number, name);
	put_string(b, name);
}

static void put_event(struct buf *b, const struct trace_rec *e,
		      const struct trace_names *names)
{
	const struct nk_tracepoint *tp = nk_tracepoint_info(e->event);
	uint64_t date = (uint64_t)e->date;

	put(b, &e->event, sizeof(e->event));
	put(b, &date, sizeof(date));
	if (tp->thread)
		put_name(b, names, e->thread);
	if (tp->object)
		put_name(b, names, e->object);
	if (tp->detail)
		put_name(b, names, e->detail);
	if (tp->arg)
		put(b, &e->arg, sizeof(e->arg));
}

/* One packet holding every event of @s. */
static int write_stream(const char *dir, int cpu, const struct trace_stream *s,
			const struct trace_names *names)
{
	struct ctf_packet_head head = {
	    .magic = CTF_MAGIC,
	    .events_discarded = s->lost,
	    .cpu_id = (uint32_t)cpu,
	};
	struct buf b = {0};
	char path[TRACE_OUT_PATH_MAX];
	FILE *f;
	int ret = 0;

	if (s->nr) {
		head.timestamp_begin = (uint64_t)s->events[0].date;
		head.timestamp_end = (uint64_t)s->events[s->nr - 1].date;
	}
	put(&b, &head, CTF_PACKET_HEAD_SIZE);
	for (size_t i = 0; i < s->nr; i++)
		put_event(&b, &s->events[i], names);
	if (b.failed) {
		free(b.data);
		return -ENOMEM;
	}
	head.content_size = head.packet_size = (uint64_t)b.len * 8;
	memcpy(b.data, &head, CTF_PACKET_HEAD_SIZE);
	snprintf(path, sizeof(path), "%s/stream_%d.tmp", dir, cpu);
	f = fopen(path, "w");
	if (f == NULL) {
		ret = -errno;
	} else {
		if (fwrite(b.data, 1, b.len, f) != b.len)
			ret = -EIO;
		if (fclose(f) && ret == 0)
			ret = -errno;
	}
	free(b.data);
	if (ret == 0) {
		snprintf(path, sizeof(path), "stream_%d", cpu);
		ret = publish(dir, path);
	}
	return ret;
}

int trace_ctf_write(const char *dir, const char *backend,
		    const struct trace_stream *streams, int nr_cpus,
		    const struct trace_names *names)
{
	int ret;

	if (mkdir(dir, 0777) && errno != EEXIST)
		return -errno;
	ret = write_metadata(dir, backend);
	for (int cpu = 0; cpu < nr_cpus && ret == 0; cpu++)
		ret = write_stream(dir, cpu, &streams[cpu], names);
	return ret;
}
