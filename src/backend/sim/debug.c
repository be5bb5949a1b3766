/* SPDX-License-Identifier: MIT */
/*
 * fusion sim's agent (docs/sim-debugger.md): in a program started by
 * `fusion sim`, it sees every event through the trace sink the backend
 * installs, and every move of virtual time through the dispatcher.  At
 * a stop it sends the runner a reply and answers its commands until
 * one makes the run go on.  It runs with the nucleus lock held on the
 * one OS thread that executes in the simulation, so while it waits for
 * a command the whole simulation stands still; no simulation state
 * changes meanwhile, and a restart replays the same run.
 */
#include "debug.h"
#include "../common/command.h"
#include "../common/duration.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum debug_mode {
	MODE_RUN,   /* until a breakpoint */
	MODE_STEP,  /* until @steps more events */
	MODE_UNTIL, /* until the date @until */
};

struct sim_debug {
	struct sim *sim;
	int fd;
	nk_trace_fn next; /* the sink the agent passes records on to */
	void *next_ctx;
	bool started; /* the first stop was made */
	enum debug_mode mode;
	unsigned long steps;
	nk_time_t until;
	bool no_breaks; /* goto: breakpoints do not stop it */
	struct sim_breaks breaks;
	struct sim_history history;
	struct sim_reply reply;
	unsigned long events; /* seen: one in PAUSE_POLL_MASK + 1 polls */
	char in[1024];	      /* what was read past the current line */
	size_t in_len;
};

#define LINE_MAX_LEN 1024
/* A pause is looked for every 256 events: a system call at each would
 * cost more than the rest of the agent's work. */
#define PAUSE_POLL_MASK 255

/* The runner went away: the program has nobody to answer to. */
static void __attribute__((noreturn)) runner_gone(void)
{
	fprintf(stderr, "fusion-sim: the debugger's channel closed\n");
	fflush(NULL);
	_exit(1);
}

static void send_all(struct sim_debug *d, const char *text, size_t len)
{
	while (len) {
		ssize_t n = send(d->fd, text, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			runner_gone();
		text += n;
		len -= (size_t)n;
	}
}

static void reply_begin(struct sim_debug *d)
{
	sim_reply_reset(&d->reply);
	sim_reply_printf(&d->reply,
			 "{\"ok\":true,\"state\":\"paused\","
			 "\"date\":%lld",
			 (long long)d->sim->now);
}

static void reply_send(struct sim_debug *d)
{
	struct sim_reply *r = &d->reply;

	sim_reply_printf(r, "}\n");
	if (r->failed) {
		static const char oom[] =
		    "{\"ok\":false,\"error\":\"out of memory\"}\n";

		send_all(d, oom, sizeof(oom) - 1);
		return;
	}
	send_all(d, r->text, r->len);
}

static void __attribute__((format(printf, 2, 3)))
reply_error(struct sim_debug *d, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	sim_reply_reset(&d->reply);
	sim_reply_printf(&d->reply, "{\"ok\":false,\"error\":");
	sim_reply_string(&d->reply, why);
	reply_send(d);
}

/* The next command line into @line (no newline); never returns on EOF. */
static void read_line(struct sim_debug *d, char *line, size_t len)
{
	for (;;) {
		char *nl = memchr(d->in, '\n', d->in_len);
		ssize_t n;

		if (nl) {
			size_t used = (size_t)(nl - d->in);

			snprintf(line, len, "%.*s", (int)used, d->in);
			memmove(d->in, nl + 1, d->in_len - used - 1);
			d->in_len -= used + 1;
			return;
		}
		if (d->in_len == sizeof(d->in))
			d->in_len = 0; /* a line too long: dropped */
		n = read(d->fd, d->in + d->in_len, sizeof(d->in) - d->in_len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			runner_gone();
		d->in_len += (size_t)n;
	}
}

/* Whether a "pause" came while running (the only thing that may). */
static bool pause_requested(struct sim_debug *d)
{
	char buf[64];
	ssize_t n = recv(d->fd, buf, sizeof(buf), MSG_DONTWAIT);

	if (n == 0)
		runner_gone();
	return n > 0;
}

static void inspect_emit(void *ctx, const char *text)
{
	sim_reply_printf(ctx, "%s", text);
}

static const char *const inspect_names[] = {
    [NK_INSPECT_THREADS] = "threads",
    [NK_INSPECT_OBJECTS] = "objects",
    [NK_INSPECT_TIMERS] = "timers",
    [NK_INSPECT_PIPELINE] = "pipeline",
};

#define MAX_WORDS 6

static void cmd_print(struct sim_debug *d, int argc, char **argv)
{
	nk_time_t since = 0;

	if (argc >= 2 && strcmp(argv[1], "events") == 0) {
		if (argc != 2 && (argc != 4 || strcmp(argv[2], "since") != 0 ||
				  be_parse_duration(argv[3], &since))) {
			reply_error(d, "usage: print events [since DATE]");
			return;
		}
		reply_begin(d);
		sim_history_print(&d->history, since, &d->reply);
		reply_send(d);
		return;
	}
	for (size_t i = 0;
	     argc == 2 && i < sizeof(inspect_names) / sizeof(inspect_names[0]);
	     i++) {
		if (strcmp(argv[1], inspect_names[i]) != 0)
			continue;
		reply_begin(d);
		sim_reply_printf(&d->reply, ",\"%s\":", inspect_names[i]);
		d->sim->handlers->inspect(d->sim->nk, (int)i, inspect_emit,
					  &d->reply);
		reply_send(d);
		return;
	}
	reply_error(d, "usage: print threads|objects|timers|pipeline|events "
		       "[since DATE]");
}

/* "N" as a positive number up to @max into *@out. */
static bool parse_count(const char *text, long max, long *out)
{
	char *end;

	if (text[0] < '1' || text[0] > '9')
		return false;
	errno = 0;
	*out = strtol(text, &end, 10);
	return *end == '\0' && errno == 0 && *out <= max;
}

static void cmd_break(struct sim_debug *d, int argc, char **argv)
{
	char why[256];
	long id;

	if (argc == 2 && strcmp(argv[1], "list") == 0) {
		reply_begin(d);
		sim_break_list(&d->breaks, &d->reply);
		reply_send(d);
		return;
	}
	if (argc == 3 && strcmp(argv[1], "del") == 0) {
		if (!parse_count(argv[2], INT32_MAX, &id) ||
		    sim_break_del(&d->breaks, (int)id)) {
			reply_error(d, "no breakpoint '%.40s'", argv[2]);
			return;
		}
		reply_begin(d);
		reply_send(d);
		return;
	}
	if (argc == 4 && strcmp(argv[1], "add") == 0) {
		if (!parse_count(argv[2], INT32_MAX, &id)) {
			reply_error(d, "bad breakpoint number '%.40s'",
				    argv[2]);
			return;
		}
		if (sim_break_add(&d->breaks, d->sim, (int)id, argv[3], why,
				  sizeof(why))) {
			reply_error(d, "%s", why);
			return;
		}
		reply_begin(d);
		sim_reply_printf(&d->reply, ",\"break\":%ld", id);
		reply_send(d);
		return;
	}
	reply_error(d, "usage: break add N SPEC | break del N | break list");
}

/* until/goto DATE: whether the run goes on. */
static bool cmd_until(struct sim_debug *d, int argc, char **argv)
{
	nk_time_t until;

	if (argc != 2 || be_parse_duration(argv[1], &until)) {
		reply_error(d,
			    "usage: %s DATE (an integer and ns, us, ms or s)",
			    argv[0]);
		return false;
	}
	if (until <= d->sim->now) {
		reply_error(d, "%s %.40s: not after the current date (%lld ns)",
			    argv[0], argv[1], (long long)d->sim->now);
		return false;
	}
	d->mode = MODE_UNTIL;
	d->until = until;
	d->no_breaks = strcmp(argv[0], "goto") == 0;
	return true;
}

static bool cmd_step(struct sim_debug *d, int argc, char **argv)
{
	long steps = 1;

	if (argc > 2 ||
	    (argc == 2 && !parse_count(argv[1], LONG_MAX, &steps))) {
		reply_error(d, "usage: step [N] (N > 0)");
		return false;
	}
	d->mode = MODE_STEP;
	d->steps = (unsigned long)steps;
	return true;
}

/* One command: whether the run goes on (its reply comes at the stop). */
static bool command(struct sim_debug *d, char *line)
{
	char *argv[MAX_WORDS];
	int argc = be_command_split(line, argv, MAX_WORDS, 3);

	if (argc < 0) {
		reply_error(d, "too many words");
		return false;
	}
	if (argc == 0) {
		reply_error(d, "empty command");
		return false;
	}
	if (strcmp(argv[0], "run") == 0) {
		if (argc == 1)
			return true; /* stop() left the mode to MODE_RUN */
		reply_error(d, "usage: run");
		return false;
	}
	if (strcmp(argv[0], "step") == 0)
		return cmd_step(d, argc, argv);
	if (strcmp(argv[0], "until") == 0 || strcmp(argv[0], "goto") == 0)
		return cmd_until(d, argc, argv);
	if (strcmp(argv[0], "break") == 0)
		cmd_break(d, argc, argv);
	else if (strcmp(argv[0], "print") == 0)
		cmd_print(d, argc, argv);
	else
		reply_error(d,
			    "unknown command '%.40s' (allowed: run, pause, "
			    "step, until, goto, break, print)",
			    argv[0]);
	return false;
}

/* Stop: tell the runner why, then answer it until the run goes on. */
static void stop(struct sim_debug *d, const char *reason,
		 const struct nk_trace_record *rec, const struct sim_break *brk)
{
	char line[LINE_MAX_LEN];

	d->mode = MODE_RUN;
	d->until = NK_INFINITE;
	d->no_breaks = false;
	reply_begin(d);
	sim_reply_printf(&d->reply, ",\"stop\":{\"reason\":\"%s\"", reason);
	if (brk)
		sim_reply_printf(&d->reply, ",\"break\":%d", brk->id);
	if (rec) {
		sim_reply_printf(&d->reply, ",\"event\":");
		sim_reply_event(&d->reply, rec);
	}
	sim_reply_printf(&d->reply, "}");
	reply_send(d);
	do {
		read_line(d, line, sizeof(line));
	} while (strcmp(line, "pause") == 0 || !command(d, line));
}

static void debug_record(void *ctx, const struct nk_trace_record *rec)
{
	struct sim_debug *d = ctx;
	struct sim_break *brk, *level;

	if (d->next)
		d->next(d->next_ctx, rec);
	if (!d->started) {
		/* Before this event is checked: breakpoints set at the
		 * start apply to it. */
		d->started = true;
		stop(d, "start", NULL, NULL);
	}
	sim_history_put(&d->history, rec);
	/* Levels are followed at every event, so that a change is seen
	 * once, whatever stops the run. */
	level = sim_break_levels(&d->breaks, d->sim);
	if (d->mode == MODE_STEP && --d->steps == 0)
		stop(d, "step", rec, NULL);
	else if (!d->no_breaks && (brk = sim_break_match(&d->breaks, rec)))
		stop(d, "break", rec, brk);
	else if (!d->no_breaks && level)
		stop(d, "break", rec, level);
	else if ((++d->events & PAUSE_POLL_MASK) == 0 && pause_requested(d))
		stop(d, "pause", rec, NULL);
}

struct sim_debug *sim_debug_open(struct sim *sim, int fd)
{
	struct sim_debug *d = calloc(1, sizeof(*d));

	if (d == NULL)
		return NULL;
	if (sim_history_init(&d->history)) {
		free(d);
		errno = ENOMEM;
		return NULL;
	}
	/* Programs the program runs do not inherit the channel. */
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	d->sim = sim;
	d->fd = fd;
	d->mode = MODE_RUN;
	d->until = NK_INFINITE;
	return d;
}

void sim_debug_close(struct sim_debug *d)
{
	/* The runner learns the last date; the exit status is its own. */
	sim_reply_reset(&d->reply);
	sim_reply_printf(&d->reply,
			 "{\"ok\":true,\"state\":\"exiting\",\"date\":%lld",
			 (long long)d->sim->now);
	reply_send(d);
	close(d->fd);
	sim_history_free(&d->history);
	sim_reply_free(&d->reply);
	free(d);
}

void sim_debug_attach(struct sim_debug *d, nk_trace_fn *fn, void **ctx)
{
	d->next = *fn;
	d->next_ctx = *ctx;
	*fn = debug_record;
	*ctx = d;
}

nk_time_t sim_debug_horizon(struct sim_debug *d, nk_time_t next)
{
	nk_time_t h = d->mode == MODE_UNTIL ? d->until : NK_INFINITE;

	if (!d->started)
		return NK_INFINITE;
	if (!d->no_breaks) {
		nk_time_t date = sim_break_next_date(&d->breaks);
		nk_time_t overrun = sim_break_next_overrun(&d->breaks, d->sim);

		if (date < h)
			h = date;
		if (overrun < h)
			h = overrun;
	}
	return h <= next ? h : NK_INFINITE;
}

void sim_debug_reached(struct sim_debug *d)
{
	nk_time_t now = d->sim->now;
	struct sim_break *brk;

	if (d->mode == MODE_UNTIL && d->until <= now) {
		/* A date breakpoint there too is reached as well. */
		sim_break_date_due(&d->breaks, now);
		stop(d, "until", NULL, NULL);
		return;
	}
	brk = sim_break_date_due(&d->breaks, now);
	if (brk == NULL)
		brk = sim_break_overrun_due(&d->breaks, d->sim);
	if (brk)
		stop(d, "break", NULL, brk);
}

void sim_debug_fatal(struct sim_debug *d, const char *reason)
{
	stop(d, reason, NULL, NULL);
}
