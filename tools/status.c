/* SPDX-License-Identifier: MIT */
/* Printing a program's status page: what fusion ps PID and top show. */
#include "tool.h"
#include "runtime/status_page.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The same thread in @prev: by name and Linux thread. */
static const struct nk_status_thread *earlier(const struct status_page *prev,
					      const struct nk_status_thread *t)
{
	unsigned int n = prev ? prev->st.nr_threads : 0;

	for (unsigned int i = 0; i < n && i < STATUS_THREADS; i++)
		if (prev->threads[i].tid == t->tid &&
		    strcmp(prev->threads[i].name, t->name) == 0)
			return &prev->threads[i];
	return NULL;
}

static double percent(nk_time_t part, nk_time_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static void print_cpus(FILE *out, const struct status_page *cur,
		       const struct status_page *prev, nk_time_t span)
{
	fprintf(out, "RT CPU  %s\n", prev ? "LOAD" : "LEFT TO LINUX (s)");
	for (int c = 0; c < cur->st.nr_cpus && c < NK_MAX_CPUS; c++) {
		if (prev)
			fprintf(out, "%6d  %5.1f%%\n", c,
				100.0 - percent(cur->st.idle_time[c] -
						    prev->st.idle_time[c],
						span));
		else
			fprintf(out, "%6d  %.3f\n", c,
				(double)cur->st.idle_time[c] / 1e9);
	}
}

static void print_threads(FILE *out, const struct status_page *cur,
			  const struct status_page *prev, nk_time_t span)
{
	unsigned int shown = cur->st.nr_threads < STATUS_THREADS
				 ? cur->st.nr_threads
				 : STATUS_THREADS;

	fprintf(out, "%7s %-16s %-14s %4s %4s %3s %-9s %-16s %9s %6s %9s %7s\n",
		"TID", "NAME", "SKINS", "PRIO", "BASE", "CPU", "STATE",
		"WAITS FOR", "TIME(s)", "%CPU", "SWITCHES", "MODESW");
	for (unsigned int i = 0; i < shown; i++) {
		const struct nk_status_thread *t = &cur->threads[i];
		const struct nk_status_thread *p = earlier(prev, t);
		char cpu[8] = "-";

		if (p)
			snprintf(cpu, sizeof(cpu), "%.1f",
				 percent(t->exec_time - p->exec_time, span));
		fprintf(out,
			"%7d %-16s %-14s %4d %4d %3d %-9s %-16s %9.3f %6s %9lu "
			"%7lu%s\n",
			(int)t->tid, t->name, t->skins[0] ? t->skins : "-",
			t->prio, t->base_prio, t->cpu, t->state,
			t->waits[0] ? t->waits : "-",
			(double)t->exec_time / 1e9, cpu, t->switches,
			t->mode_switches, t->relaxed ? " (relaxed)" : "");
	}
	if (cur->st.nr_threads > shown)
		fprintf(out, "... and %u more threads\n",
			cur->st.nr_threads - shown);
}

static void print_irqs(FILE *out, const struct status_page *cur)
{
	unsigned int shown =
	    cur->st.nr_irqs < STATUS_IRQS ? cur->st.nr_irqs : STATUS_IRQS;

	if (shown == 0)
		return;
	fprintf(out, "%5s %-16s %10s %10s\n", "IRQ", "DOMAIN", "HANDLED",
		"WORST(us)");
	for (unsigned int i = 0; i < shown; i++)
		fprintf(out, "%5u %-16s %10lu %10.1f\n", cur->irqs[i].irq,
			cur->irqs[i].domain, cur->irqs[i].handled,
			(double)cur->irqs[i].worst_ns / 1e3);
	if (cur->st.nr_irqs > shown)
		fprintf(out, "... and %u more IRQs\n", cur->st.nr_irqs - shown);
}

static void print_objects(FILE *out, const struct status_page *cur)
{
	unsigned int shown =
	    cur->nr_objects < STATUS_OBJECTS ? cur->nr_objects : STATUS_OBJECTS;

	if (shown == 0)
		return;
	fprintf(out, "%-8s %-10s %-16s %6s %6s %-16s %7s %7s\n", "SKIN",
		"CLASS", "OBJECT", "COUNT", "MAX", "OWNER", "WAITERS",
		"SENDERS");
	for (unsigned int i = 0; i < shown; i++) {
		const struct nk_status_object *o = &cur->objects[i];
		char count[24] = "-", max[24] = "-";

		if (o->count >= 0)
			snprintf(count, sizeof(count), "%ld", o->count);
		if (o->capacity > 0)
			snprintf(max, sizeof(max), "%ld", o->capacity);
		fprintf(out, "%-8s %-10s %-16s %6s %6s %-16s %7u %7u\n",
			o->skin, o->cls, o->name[0] ? o->name : "(anonymous)",
			count, max, o->owner[0] ? o->owner : "-", o->waiters,
			o->senders);
	}
	if (cur->nr_objects > shown)
		fprintf(out, "... and %u more objects\n",
			cur->nr_objects - shown);
}

void fusion_status_print_contents(FILE *out, const struct status_page *cur)
{
	print_threads(out, cur, NULL, 0);
	print_objects(out, cur);
}

void fusion_status_print(FILE *out, const struct status_page *cur,
			 const struct status_page *prev)
{
	nk_time_t span = prev ? cur->st.date - prev->st.date : 0;

	fprintf(out, "pid %d (%s), %s backend, %d RT CPU%s, %u threads\n",
		(int)cur->pid, cur->comm, cur->backend, cur->st.nr_cpus,
		cur->st.nr_cpus == 1 ? "" : "s", cur->st.nr_threads);
	print_cpus(out, cur, prev, span);
	print_threads(out, cur, prev, span);
	print_objects(out, cur);
	print_irqs(out, cur);
}

pid_t fusion_parse_pid(const char *arg)
{
	char *end;
	long pid;

	errno = 0;
	pid = strtol(arg, &end, 10);
	return arg[0] >= '1' && arg[0] <= '9' && *end == '\0' && errno == 0 &&
		       pid <= INT_MAX
		   ? (pid_t)pid
		   : 0;
}

int fusion_status_read(pid_t pid, struct status_page *page)
{
	int ret = status_read(pid, page, 2000);

	if (ret == -ENOENT)
		fprintf(stderr,
			"fusion: pid %d: no Fusion program runs there\n",
			(int)pid);
	else if (ret == -ESRCH)
		fprintf(stderr, "fusion: pid %d: its nucleus is not running\n",
			(int)pid);
	else if (ret == -ETIMEDOUT)
		fprintf(stderr,
			"fusion: pid %d: no answer within 2 s (stopped?)\n",
			(int)pid);
	else if (ret)
		fprintf(stderr, "fusion: pid %d: %s\n", (int)pid,
			ret == -EPROTO ? "its status page is of another build"
				       : strerror(-ret));
	return ret;
}
