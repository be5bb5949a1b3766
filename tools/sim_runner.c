/* SPDX-License-Identifier: MIT */
/*
 * The runner of `fusion sim`: see sim_runner.h and docs/sim-debugger.md.
 * The program's agent answers on a socket pair; the runner adds what
 * outlives the program: the breakpoints, replayed under the same
 * numbers at each restart, and the exit status.
 */
#include "sim_runner.h"
#include "backend/common/command.h"
#include "backend/common/duration.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define RUNNER_BREAKS 64
#define RUNNER_SPEC 64
#define RUNNER_WORDS 6

struct runner_break {
	int id;
	char spec[RUNNER_SPEC];
};

struct sim_runner {
	char **argv;
	char *cost;
	int output_fd;
	pid_t pid;		/* 0: none */
	int fd;			/* to the agent, -1: none */
	atomic_bool exited;	/* read by a pause from another thread */
	int status;		/* as waitpid gives it */
	_Atomic long long date; /* likewise */
	struct runner_break breaks[RUNNER_BREAKS];
	int nr_breaks;
	int next_id;
	pthread_mutex_t lock;	   /* one command at a time */
	pthread_mutex_t send_lock; /* a pause from another thread */
	atomic_bool running;	   /* a command waits for the run's stop */
	char *in;		   /* read past the last line */
	size_t in_len, in_cap;
};

static char *dup_printf(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static char *dup_printf(const char *fmt, ...)
{
	va_list ap;
	char *out;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&out, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : out;
}

/* {"ok":false,"error":WHY}, WHY plain text without quotes. */
static char *error_reply(const char *why)
{
	return dup_printf("{\"ok\":false,\"error\":\"%s\"}", why);
}

static void send_line(struct sim_runner *r, const char *line)
{
	size_t len = strlen(line);
	char *buf = malloc(len + 1);
	const char *p = buf;

	if (buf == NULL)
		return;
	memcpy(buf, line, len);
	buf[len++] = '\n';
	pthread_mutex_lock(&r->send_lock);
	/* A program gone shows as the end of its replies. */
	while (r->fd >= 0 && len) {
		ssize_t n = send(r->fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		p += n;
		len -= (size_t)n;
	}
	pthread_mutex_unlock(&r->send_lock);
	free(buf);
}

/* The next line from the agent into *@line (malloc'd): 0, -EPIPE at
 * the end, -ENOMEM. */
static int read_line(struct sim_runner *r, char **line)
{
	for (;;) {
		char *nl = r->in ? memchr(r->in, '\n', r->in_len) : NULL;
		ssize_t n;

		if (nl) {
			size_t used = (size_t)(nl - r->in);

			*line = malloc(used + 1);
			if (*line == NULL)
				return -ENOMEM;
			memcpy(*line, r->in, used);
			(*line)[used] = '\0';
			memmove(r->in, nl + 1, r->in_len - used - 1);
			r->in_len -= used + 1;
			return 0;
		}
		if (r->in_len == r->in_cap) {
			size_t cap = r->in_cap ? r->in_cap * 2 : 65536;
			char *in = realloc(r->in, cap);

			if (in == NULL)
				return -ENOMEM;
			r->in = in;
			r->in_cap = cap;
		}
		n = read(r->fd, r->in + r->in_len, r->in_cap - r->in_len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EPIPE;
		r->in_len += (size_t)n;
	}
}

static void program_reap(struct sim_runner *r)
{
	if (r->fd >= 0) {
		pthread_mutex_lock(&r->send_lock);
		close(r->fd);
		r->fd = -1;
		pthread_mutex_unlock(&r->send_lock);
	}
	r->in_len = 0;
	if (r->pid > 0) {
		while (waitpid(r->pid, &r->status, 0) < 0 && errno == EINTR)
			;
		r->pid = 0;
	}
	atomic_store(&r->exited, true);
}

static void program_kill(struct sim_runner *r)
{
	if (r->pid > 0)
		kill(r->pid, SIGKILL);
	program_reap(r);
}

static char *exit_reply(struct sim_runner *r)
{
	if (WIFSIGNALED(r->status))
		return dup_printf("{\"ok\":true,\"state\":\"exited\",\"date\":"
				  "%lld,\"stop\":{\"reason\":\"exit\","
				  "\"signal\":%d}}",
				  atomic_load(&r->date), WTERMSIG(r->status));
	return dup_printf("{\"ok\":true,\"state\":\"exited\",\"date\":%lld,"
			  "\"stop\":{\"reason\":\"exit\",\"status\":%d}}",
			  atomic_load(&r->date), WEXITSTATUS(r->status));
}

/* The agent's next reply; its exit's once it has gone. */
static int agent_reply(struct sim_runner *r, char **reply)
{
	for (;;) {
		char *line = NULL, *date;
		int ret = read_line(r, &line);

		if (ret == -ENOMEM)
			return ret;
		if (ret) {
			program_reap(r);
			*reply = exit_reply(r);
			return *reply ? 0 : -ENOMEM;
		}
		date = strstr(line, "\"date\":");
		if (date)
			atomic_store(&r->date, strtoll(date + 7, NULL, 10));
		/* The instance ended: its date is the last one. */
		if (strstr(line, "\"state\":\"exiting\"")) {
			free(line);
			continue;
		}
		*reply = line;
		return 0;
	}
}

static void child_exec(struct sim_runner *r, int channel, int report)
{
	char fd[16];
	int err;

	snprintf(fd, sizeof(fd), "%d", channel);
	if (setenv("FUSION_BACKEND", "sim", 1) ||
	    setenv("FUSION_SIM_CONTROL", fd, 1) ||
	    (r->cost && setenv("FUSION_SIM_COST", r->cost, 1)) ||
	    (r->output_fd > 0 &&
	     (dup2(r->output_fd, 1) < 0 || dup2(r->output_fd, 2) < 0)))
		err = errno;
	else {
		execvp(r->argv[0], r->argv);
		err = errno;
	}
	if (write(report, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

/* Start the program, stopped at its first event: its reply there. */
static int program_start(struct sim_runner *r, char **reply)
{
	int pair[2], report[2], channel, err = 0;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair))
		return -errno;
	if (pipe2(report, O_CLOEXEC)) {
		err = -errno;
		close(pair[0]);
		close(pair[1]);
		return err;
	}
	/* Above the standard streams, without close-on-exec. */
	channel = fcntl(pair[1], F_DUPFD, 3);
	pid = channel < 0 ? -1 : fork();
	if (pid == 0)
		child_exec(r, channel, report[1]);
	if (pid < 0)
		err = -errno;
	if (channel >= 0)
		close(channel);
	close(pair[1]);
	close(report[1]);
	if (pid > 0 && read(report[0], &err, sizeof(err)) == sizeof(err)) {
		err = -err;
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	close(report[0]);
	if (err) {
		close(pair[0]);
		return err;
	}
	r->pid = pid;
	r->fd = pair[0];
	atomic_store(&r->exited, false);
	atomic_store(&r->date, 0);
	return agent_reply(r, reply);
}

/* Start anew with the breakpoints: the start's reply. */
static int restart(struct sim_runner *r, char **reply)
{
	int ret;

	program_kill(r);
	ret = program_start(r, reply);
	if (ret)
		return ret;
	for (int i = 0; i < r->nr_breaks && !atomic_load(&r->exited); i++) {
		char line[RUNNER_SPEC + 32], *ignored = NULL;

		snprintf(line, sizeof(line), "break add %d %s", r->breaks[i].id,
			 r->breaks[i].spec);
		send_line(r, line);
		/* Accepted before, so again: the same program, the same
		 * date. */
		ret = agent_reply(r, &ignored);
		free(ignored);
		if (ret)
			return ret;
	}
	return 0;
}

static bool reply_ok(const char *reply)
{
	return strncmp(reply, "{\"ok\":true", 10) == 0;
}

static int cmd_goto(struct sim_runner *r, const char *date, char **reply)
{
	long long start;
	nk_time_t until;
	char line[64];
	int ret;

	if (be_parse_duration(date, &until)) {
		*reply = error_reply("usage: goto DATE (an integer and ns, us, "
				     "ms or s)");
		return 0;
	}
	ret = restart(r, reply);
	if (ret || atomic_load(&r->exited))
		return ret;
	start = atomic_load(&r->date);
	if (until <= start)
		return 0;
	free(*reply);
	snprintf(line, sizeof(line), "goto %lld", (long long)until);
	atomic_store(&r->running, true);
	send_line(r, line);
	ret = agent_reply(r, reply);
	atomic_store(&r->running, false);
	return ret;
}

static int cmd_break(struct sim_runner *r, int argc, char **argv,
		     const char *cmd, char **reply)
{
	char line[RUNNER_SPEC + 32];
	int ret;

	if (argc == 3 && strcmp(argv[1], "add") == 0) {
		if (r->nr_breaks == RUNNER_BREAKS) {
			*reply = error_reply("too many breakpoints");
			return 0;
		}
		if (strlen(argv[2]) >= RUNNER_SPEC) {
			*reply = error_reply("breakpoint too long");
			return 0;
		}
		snprintf(line, sizeof(line), "break add %d %s", r->next_id,
			 argv[2]);
		send_line(r, line);
		ret = agent_reply(r, reply);
		if (ret == 0 && reply_ok(*reply) && !atomic_load(&r->exited)) {
			struct runner_break *b = &r->breaks[r->nr_breaks++];

			b->id = r->next_id++;
			snprintf(b->spec, sizeof(b->spec), "%s", argv[2]);
		}
		return ret;
	}
	send_line(r, cmd);
	ret = agent_reply(r, reply);
	if (ret == 0 && argc == 3 && strcmp(argv[1], "del") == 0 &&
	    reply_ok(*reply)) {
		int id = atoi(argv[2]);

		for (int i = 0; i < r->nr_breaks; i++) {
			if (r->breaks[i].id != id)
				continue;
			memmove(&r->breaks[i], &r->breaks[i + 1],
				(size_t)(r->nr_breaks - i - 1) *
				    sizeof(r->breaks[0]));
			r->nr_breaks--;
			break;
		}
	}
	return ret;
}

static bool runs(const char *word)
{
	return strcmp(word, "run") == 0 || strcmp(word, "step") == 0 ||
	       strcmp(word, "until") == 0;
}

static int command_locked(struct sim_runner *r, const char *cmd, char *copy,
			  char **reply)
{
	char *argv[RUNNER_WORDS];
	int argc = be_command_split(copy, argv, RUNNER_WORDS, 2), ret;

	if (argc < 0) {
		*reply = error_reply("too many words");
		return 0;
	}
	if (argc == 0) {
		*reply = error_reply("empty command");
		return 0;
	}
	if (strcmp(argv[0], "restart") == 0 && argc == 1)
		return restart(r, reply);
	if (strcmp(argv[0], "goto") == 0 && argc == 2)
		return cmd_goto(r, argv[1], reply);
	if (atomic_load(&r->exited)) {
		*reply = error_reply("the program has exited (restart or goto "
				     "DATE runs it again)");
		return 0;
	}
	if (strcmp(argv[0], "break") == 0)
		return cmd_break(r, argc, argv, cmd, reply);
	atomic_store(&r->running, runs(argv[0]));
	send_line(r, cmd);
	ret = agent_reply(r, reply);
	atomic_store(&r->running, false);
	return ret;
}

int sim_runner_command(struct sim_runner *r, const char *cmd, char **reply)
{
	char *copy;
	int ret;

	if (r == NULL || cmd == NULL || reply == NULL)
		return -EINVAL;
	*reply = NULL;
	if (strchr(cmd, '\n')) {
		*reply = error_reply("a command is one line");
		return *reply ? 0 : -ENOMEM;
	}
	if (strcmp(cmd, "pause") == 0) {
		/* Not under the lock: a run holds it until its stop. */
		if (atomic_load(&r->running)) {
			send_line(r, cmd);
			*reply =
			    dup_printf("{\"ok\":true,\"state\":\"running\"}");
		} else {
			*reply = dup_printf("{\"ok\":true,\"state\":\"%s\","
					    "\"date\":%lld}",
					    atomic_load(&r->exited) ? "exited"
								    : "paused",
					    atomic_load(&r->date));
		}
		return *reply ? 0 : -ENOMEM;
	}
	copy = strdup(cmd);
	if (copy == NULL)
		return -ENOMEM;
	pthread_mutex_lock(&r->lock);
	ret = command_locked(r, cmd, copy, reply);
	pthread_mutex_unlock(&r->lock);
	free(copy);
	if (ret == 0 && *reply == NULL)
		ret = -ENOMEM;
	return ret;
}

static void runner_free(struct sim_runner *r)
{
	if (r->argv)
		for (char **a = r->argv; *a; a++)
			free(*a);
	free(r->argv);
	free(r->cost);
	free(r->in);
	pthread_mutex_destroy(&r->lock);
	pthread_mutex_destroy(&r->send_lock);
	free(r);
}

int sim_runner_start(char *const argv[], const struct sim_runner_options *opts,
		     struct sim_runner **out)
{
	struct sim_runner *r;
	nk_time_t cost;
	char *reply = NULL;
	size_t n = 0;
	int ret;

	if (argv == NULL || argv[0] == NULL || out == NULL ||
	    (opts && opts->cost && strcmp(opts->cost, "measured") != 0 &&
	     be_parse_duration(opts->cost, &cost)))
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	pthread_mutex_init(&r->lock, NULL);
	pthread_mutex_init(&r->send_lock, NULL);
	r->fd = -1;
	r->next_id = 1;
	while (argv[n])
		n++;
	r->argv = calloc(n + 1, sizeof(*r->argv));
	ret = r->argv ? 0 : -ENOMEM;
	for (size_t i = 0; i < n && ret == 0; i++)
		if ((r->argv[i] = strdup(argv[i])) == NULL)
			ret = -ENOMEM;
	if (ret == 0 && opts) {
		r->output_fd = opts->output_fd;
		if (opts->cost && (r->cost = strdup(opts->cost)) == NULL)
			ret = -ENOMEM;
	}
	if (ret == 0)
		ret = program_start(r, &reply);
	free(reply);
	if (ret) {
		program_kill(r);
		runner_free(r);
		return ret;
	}
	*out = r;
	return 0;
}

void sim_runner_stop(struct sim_runner *r)
{
	if (r == NULL)
		return;
	program_kill(r);
	runner_free(r);
}
