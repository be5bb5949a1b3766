/* SPDX-License-Identifier: MIT */
/*
 * fusion latency: a periodic thread at the top priority measures how
 * late it wakes (actual - expected release date) every period.  The
 * output follows the layout of Xenomai's and RTAI's latency tools (RTT,
 * RTH, RTD, RTS, HSH/HSS/HSD lines) so that users' scripts keep working.
 */
#include "tool.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define US 1000LL
#define SEC 1000000000LL

struct lat_window {
	nk_time_t min, max, sum;
	long count;
	unsigned long overruns;
};

struct lat_hist {
	long *buckets; /* one per bucket_ns, plus overflow */
	int size;
	long bucket_ns;
	long samples;
	double sum, sum_sq;
};

struct lat_state {
	struct nk_instance *nk;
	nk_time_t period;
	nk_time_t duration;	  /* of the run (-T), or 0: until a signal */
	struct lat_window window; /* since the last RTD line */
	struct lat_hist hist_avg, hist_min, hist_max;
};

/* Set by the handler, read by main and the sampler. */
static atomic_int lat_interrupted;

static void lat_on_signal(int sig)
{
	(void)sig;
	atomic_store(&lat_interrupted, 1);
}

static void window_reset(struct lat_window *w)
{
	w->min = NK_INFINITE;
	w->max = 0;
	w->sum = 0;
	w->count = 0;
	w->overruns = 0;
}

/* @w's samples counted in @total too. */
static void window_add(struct lat_window *total, const struct lat_window *w)
{
	total->min = w->min < total->min ? w->min : total->min;
	total->max = w->max > total->max ? w->max : total->max;
	total->sum += w->sum;
	total->count += w->count;
	total->overruns += w->overruns;
}

static int hist_init(struct lat_hist *h, int size, long bucket_ns)
{
	h->buckets = calloc((size_t)size + 1, sizeof(*h->buckets));
	h->size = size;
	h->bucket_ns = bucket_ns;
	return h->buckets ? 0 : -ENOMEM;
}

static void hist_add(struct lat_hist *h, nk_time_t ns)
{
	/* Never early on either backend; a clock that were would count
	 * in the first bucket, not outside the table. */
	nk_time_t i = ns > 0 ? ns / h->bucket_ns : 0;

	h->buckets[i < h->size ? i : h->size]++;
	h->samples++;
	h->sum += ns / 1e3;
	h->sum_sq += (ns / 1e3) * (ns / 1e3);
}

/* Samples until the run's end, a signal or an error. */
static void sample(struct lat_state *st)
{
	struct nk_instance *nk = st->nk;
	nk_time_t now = nk_now(nk), expected = now + st->period;
	nk_time_t end = st->duration ? now + st->duration : NK_INFINITE;
	unsigned long overruns;

	if (nk_thread_set_periodic(nk, expected, st->period))
		return;
	/*
	 * The run's end, or a signal, stops the sampler itself: late at
	 * every period (sim with a cost above it), it never blocks, and
	 * main, below it, would never run to stop it.
	 */
	while (!atomic_load(&lat_interrupted) && now < end) {
		int ret = nk_thread_wait_period(nk, &overruns);
		nk_time_t lat;

		if (ret != 0 && ret != -ETIMEDOUT)
			return;
		now = nk_now(nk);
		/* From the release this wait was for, however many passed
		 * since (overruns), as Xenomai's latency and cyclictest
		 * count a late sample. */
		lat = now - expected;
		expected += (nk_time_t)(overruns + 1) * st->period;
		nk_lock(nk);
		if (lat < st->window.min)
			st->window.min = lat;
		if (lat > st->window.max)
			st->window.max = lat;
		st->window.sum += lat;
		st->window.count++;
		st->window.overruns += overruns;
		hist_add(&st->hist_avg, lat);
		nk_unlock(nk);
	}
}

/* Stopped, however, it waits for main to delete it: not joinable, it
 * would be freed on return while main still reads its stats. */
static void sampler(void *arg)
{
	struct lat_state *st = arg;

	sample(st);
	nk_thread_suspend(nk_thread_self(st->nk));
}

static void print_clock(long secs)
{
	printf("%.2ld:%.2ld:%.2ld", secs / 3600, secs / 60 % 60, secs % 60);
}

static void print_hist(const char *name, const struct lat_hist *h)
{
	for (int i = 0; i <= h->size; i++) {
		if (h->buckets[i] == 0)
			continue;
		if (i < h->size)
			printf("HSD| %6s| %3d - %3d | %8ld\n", name, i, i + 1,
			       h->buckets[i]);
		else
			printf("HSD| %6s| %3d -     | %8ld\n", name, i,
			       h->buckets[i]);
	}
}

static void print_hist_summary(const char *name, const struct lat_hist *h)
{
	double avg = h->samples ? h->sum / h->samples : 0;
	double var = h->samples ? h->sum_sq / h->samples - avg * avg : 0;

	printf("HSS| %6s| %9ld| %10.3f| %10.3f\n", name, h->samples, avg,
	       var > 0 ? sqrt(var) : 0.0);
}

static int write_gnuplot(const char *path, const struct lat_hist *h)
{
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		perror(path);
		return -1;
	}
	fprintf(f, "# fusion latency histogram: latency_us samples\n");
	for (int i = 0; i <= h->size; i++) {
		long long ns = (long long)i * h->bucket_ns;

		/* A bucket's lower edge; whole microseconds if buckets are. */
		if (h->bucket_ns % US == 0)
			fprintf(f, "%lld %ld\n", ns / US, h->buckets[i]);
		else
			fprintf(f, "%.3f %ld\n", ns / 1e3, h->buckets[i]);
	}
	return fclose(f);
}

void fusion_latency_usage(FILE *out)
{
	fprintf(
	    out,
	    "usage: fusion latency [-p PERIOD_US] [-T SECONDS] [-P PRIO] "
	    "[-h] [-H BUCKETS] [-B NS] [-g FILE] [-q] [--backend=live|sim]\n"
	    "  -p  sampling period in microseconds (default 1000)\n"
	    "  -T  run for SECONDS then print the summary (default: until "
	    "Ctrl-C)\n"
	    "  -P  nucleus priority of the sampling thread (default 255)\n"
	    "  -h  print histograms (HSH/HSS/HSD lines)\n"
	    "  -H  histogram size in buckets (default 200)\n"
	    "  -B  bucket size in nanoseconds (default 1000)\n"
	    "  -g  write the histogram as gnuplot data to FILE\n"
	    "  -q  print the summary only\n");
}

struct lat_opts {
	long period_us, seconds, buckets, bucket_ns, prio;
	bool histogram, quiet;
	const char *gnuplot;
};

/* The numeric options, with what each accepts. */
struct lat_number {
	char opt;
	size_t offset; /* in struct lat_opts */
	long lo, hi;
	const char *what;
};

static const struct lat_number lat_numbers[] = {
    {'p', offsetof(struct lat_opts, period_us), 1, 1000000, "a period in us"},
    {'T', offsetof(struct lat_opts, seconds), 0, 1000000000, "a duration in s"},
    {'P', offsetof(struct lat_opts, prio), 1, NK_PRIO_MAX,
     "a nucleus priority"},
    {'H', offsetof(struct lat_opts, buckets), 1, 1000000,
     "a number of buckets"},
    {'B', offsetof(struct lat_opts, bucket_ns), 1, SEC, "a bucket size in ns"},
};

/* Stores option @c's @text in @o; -1 with one line on stderr if it is
 * not a whole number in its range. */
static int lat_set_number(struct lat_opts *o, int c, const char *text)
{
	const struct lat_number *n = lat_numbers;
	char *end;
	long v;

	while (n->opt != c)
		n++;
	errno = 0;
	v = strtol(text, &end, 10);
	if (*text == '\0' || *end != '\0' || errno || v < n->lo || v > n->hi) {
		fprintf(stderr,
			"fusion latency: -%c %s: not %s "
			"(%ld..%ld)\n",
			c, text, n->what, n->lo, n->hi);
		return -1;
	}
	*(long *)((char *)o + n->offset) = v;
	return 0;
}

static int lat_parse(int argc, char **argv, struct lat_opts *o)
{
	int c;

	*o = (struct lat_opts){
	    .period_us = 1000, .buckets = 200, .bucket_ns = 1000, .prio = 255};
	optind = 1;
	while ((c = getopt(argc, argv, "p:T:P:hH:B:g:q")) != -1) {
		switch (c) {
		case 'p':
		case 'T':
		case 'P':
		case 'H':
		case 'B':
			if (lat_set_number(o, c, optarg))
				return -1;
			break;
		case 'h':
			o->histogram = true;
			break;
		case 'g':
			o->gnuplot = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		default:
			fusion_latency_usage(stderr);
			return -1;
		}
	}
	return 0;
}

static void print_rtd(const struct lat_window *w, unsigned long msw,
		      nk_time_t best, nk_time_t worst)
{
	printf("RTD|%11.3f|%11.3f|%11.3f|%8lu|%6lu|%11.3f|%11.3f\n",
	       w->min / 1e3, w->count ? (double)w->sum / w->count / 1e3 : 0.0,
	       w->max / 1e3, w->overruns, msw, best / 1e3, worst / 1e3);
}

/* The sampler's primary -> secondary mode switches so far. */
static unsigned long sampler_msw(struct nk_thread *thread)
{
	struct nk_thread_stats stats;

	return nk_thread_stats(thread, &stats) ? 0 : stats.mode_switches;
}

int fusion_latency(int argc, char **argv)
{
	struct lat_state st = {0};
	struct nk_thread_attr attr = {.name = "sampler"};
	struct lat_window total;
	struct nk_thread *thread;
	struct lat_opts o;
	nk_time_t start, best = NK_INFINITE, worst = 0;
	unsigned long msw, msw_shown = 0;
	long secs = 0;
	int ret;

	if (lat_parse(argc, argv, &o))
		return FUSION_EXIT_USAGE;
	st.period = o.period_us * US;
	if (hist_init(&st.hist_avg, (int)o.buckets, o.bucket_ns) ||
	    hist_init(&st.hist_min, (int)o.buckets, o.bucket_ns) ||
	    hist_init(&st.hist_max, (int)o.buckets, o.bucket_ns))
		return 1;
	signal(SIGINT, lat_on_signal);
	signal(SIGTERM, lat_on_signal);
	st.nk = fusion_tool_instance(0);
	if (st.nk == NULL)
		return 1;
	window_reset(&st.window);
	total = st.window;
	attr.priority = (int)o.prio;
	if (!o.quiet)
		printf("== Sampling period: %ld us\n== Test mode: periodic "
		       "user-mode task\n== Backend: %s\n== All results in "
		       "microseconds\nwarming up...\n",
		       o.period_us, nk_instance_backend(st.nk));
	st.duration = o.seconds * SEC;
	ret = nk_thread_create(st.nk, &attr, &thread);
	if (ret == 0)
		ret = nk_thread_start(thread, sampler, &st);
	if (ret) {
		fprintf(stderr, "fusion latency: sampler: %s\n",
			strerror(-ret));
		return 1;
	}
	start = nk_now(st.nk);
	while (!atomic_load(&lat_interrupted) &&
	       (o.seconds == 0 || secs < o.seconds)) {
		struct lat_window w;

		if (nk_thread_sleep(st.nk, start + (secs + 1) * SEC,
				    NK_ABSOLUTE))
			break;
		secs++;
		nk_lock(st.nk);
		w = st.window;
		window_reset(&st.window);
		nk_unlock(st.nk);
		if (w.count == 0)
			continue;
		best = w.min < best ? w.min : best;
		worst = w.max > worst ? w.max : worst;
		window_add(&total, &w);
		hist_add(&st.hist_min, w.min);
		hist_add(&st.hist_max, w.max);
		if (o.quiet)
			continue;
		if (secs % 21 == 1) {
			printf("RTT|  ");
			print_clock(secs);
			printf("  (periodic user-mode task, %ld us period, "
			       "priority %ld)\n",
			       o.period_us, o.prio);
			printf("RTH|----lat min|----lat avg|----lat max|"
			       "-overrun|---msw|---lat best|--lat worst\n");
		}
		/* Counted from the last line shown, so that the RTD lines
		 * add up to the RTS total. */
		msw = sampler_msw(thread);
		print_rtd(&w, msw - msw_shown, best, worst);
		msw_shown = msw;
		fflush(stdout);
	}
	/* Stopped by a signal: the second under way counts in the total
	 * (all of the run, when a sampler late at every period kept main
	 * from running until then). */
	if (atomic_load(&lat_interrupted)) {
		nk_lock(st.nk);
		window_add(&total, &st.window);
		nk_unlock(st.nk);
	}
	msw = sampler_msw(thread);
	nk_thread_delete(thread);
	if (o.histogram) {
		printf("HSH|--param|--samples-|--average--|---stddev--\n");
		print_hist_summary("min", &st.hist_min);
		print_hist_summary("avg", &st.hist_avg);
		print_hist_summary("max", &st.hist_max);
		print_hist("min", &st.hist_min);
		print_hist("avg", &st.hist_avg);
		print_hist("max", &st.hist_max);
	}
	if (o.gnuplot && write_gnuplot(o.gnuplot, &st.hist_avg))
		ret = 1;
	printf("---|-----------|-----------|-----------|--------|------|------"
	       "-------------------\n");
	printf("RTS|%11.3f|%11.3f|%11.3f|%8lu|%6lu|    ",
	       total.count ? total.min / 1e3 : 0.0,
	       total.count ? (double)total.sum / total.count / 1e3 : 0.0,
	       total.max / 1e3, total.overruns, msw);
	print_clock(secs);
	printf("/");
	print_clock(o.seconds ? o.seconds : secs);
	printf("\n");
	fusion_tool_instance_destroy(st.nk);
	free(st.hist_avg.buckets);
	free(st.hist_min.buckets);
	free(st.hist_max.buckets);
	return ret;
}
