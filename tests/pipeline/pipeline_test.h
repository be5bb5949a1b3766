/* SPDX-License-Identifier: MIT */
/*
 * Scaffolding shared by the pipeline tests on the sim backend: a
 * space-separated event log, and instances made from an inline scenario
 * text (FUSION_SIM_SCENARIO pointing at a temporary file).
 */
#ifndef FUSION_PIPELINE_TEST_H
#define FUSION_PIPELINE_TEST_H

#include "harness.h"

#include <fusion/fusion.h>
#include <fusion/pipeline.h>

#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#define US 1000LL
#define MS 1000000LL

/* --- event log --- */

static char log_buf[8192];
static size_t log_len;

static inline void log_reset(void)
{
	log_len = 0;
	log_buf[0] = '\0';
}

static inline void rec(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* Append one space-separated record. */
static inline void rec(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (log_len)
		log_buf[log_len++] = ' ';
	va_start(ap, fmt);
	n = vsnprintf(log_buf + log_len, sizeof(log_buf) - log_len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(log_buf) - log_len)
		abort();
	log_len += (size_t)n;
}

/* --- instances --- */

static struct nk_instance *nk;

static inline long long now(void)
{
	return (long long)nk_now(nk);
}

/* An IRQ handler that does nothing. */
static inline void nop_handler(unsigned int irq, void *cookie)
{
	(void)irq;
	(void)cookie;
}

/*
 * Writes @len bytes of @text to a new temporary file; its path (64
 * bytes) to @path.
 */
static inline void write_bytes(char *path, const char *text, size_t len)
{
	int fd;

	strcpy(path, "/tmp/fusion-scen-XXXXXX");
	fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK_EQ(write(fd, text, len), (long long)len);
	close(fd);
}

static inline void write_file(char *path, const char *text)
{
	write_bytes(path, text, strlen(text));
}

/* nk_instance_create with FUSION_SIM_SCENARIO=@path (NULL: none). */
static inline int create_with(const struct nk_instance_attr *attr,
			      const char *path, struct nk_instance **out)
{
	int ret;

	if (path)
		setenv("FUSION_SIM_SCENARIO", path, 1);
	ret = nk_instance_create(attr, out);
	if (path)
		unsetenv("FUSION_SIM_SCENARIO");
	return ret;
}

/*
 * Makes nk, on sim, from @attr and the scenario @text (NULL: none), with
 * an empty log.  The scenario file is gone once the instance has read it.
 */
static inline void sim_open(const struct nk_instance_attr *attr,
			    const char *text)
{
	char path[64];
	int ret;

	/* A failed check left the previous test's instance behind. */
	if (nk)
		nk_instance_destroy(nk);
	nk = NULL;
	log_reset();
	if (text)
		write_file(path, text);
	ret = create_with(attr, text ? path : NULL, &nk);
	if (text)
		unlink(path);
	CHECK_EQ(ret, 0);
}

static inline void sim_destroy(void)
{
	CHECK_EQ(nk_instance_destroy(nk), 0);
	nk = NULL;
}

/* --- stderr, captured into a temporary file --- */

struct capture {
	char path[64];
	int fd, saved;
};

static inline void capture_begin(struct capture *c)
{
	strcpy(c->path, "/tmp/fusion-err-XXXXXX");
	c->fd = mkstemp(c->path);
	CHECK(c->fd >= 0);
	fflush(stderr);
	c->saved = dup(STDERR_FILENO);
	CHECK(c->saved >= 0);
	CHECK(dup2(c->fd, STDERR_FILENO) >= 0);
}

/* Stop capturing; what was printed goes to @err (@size with the NUL). */
static inline void capture_end(struct capture *c, char *err, size_t size)
{
	ssize_t n;

	fflush(stderr);
	dup2(c->saved, STDERR_FILENO);
	close(c->saved);
	n = pread(c->fd, err, size - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	close(c->fd);
	unlink(c->path);
}

/* @d saw @irq so: none lost. */
static inline void check_stats(struct ipipe_domain *d, unsigned int irq,
			       unsigned long hits, unsigned long handled,
			       unsigned long propagated, unsigned long logged,
			       unsigned long discarded)
{
	struct ipipe_irq_stats st;

	CHECK_EQ(ipipe_irq_stats(d, irq, &st), 0);
	CHECK_EQ(st.hits, hits);
	CHECK_EQ(st.handled, handled);
	CHECK_EQ(st.propagated, propagated);
	CHECK_EQ(st.logged, logged);
	CHECK_EQ(st.discarded, discarded);
	CHECK_EQ(st.lost, 0);
}

static inline void sleep_ns(nk_time_t ns)
{
	CHECK_EQ(nk_thread_sleep(nk, ns, NK_RELATIVE), 0);
}

#endif
