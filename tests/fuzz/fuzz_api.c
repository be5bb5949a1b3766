/* SPDX-License-Identifier: MIT */
/*
 * fuzz_api: the API-sequence fuzzer's runner.  For each seed and API it
 * runs the seed twice, each in a child process on the sim backend with
 * its own event log, and fails the seed when a run ends other than
 * cleanly (an undocumented return code, a sanitizer report, a crash,
 * the deadlock detector: see world.c), takes longer than --timeout
 * seconds (a hang), or when the two logs differ by a byte.  A failing
 * seed prints the command that replays it.
 *
 *   fuzz_api [--api NAME] [--seed N | --from N --count C] [--tasks N]
 *            [--ops M] [--jobs J] [--timeout S]
 *            [--verbose] [--trace]
 *
 * --verbose prints how many calls of each operation succeeded and
 * failed, --trace every call with its arguments and result.
 */
#include "fuzz.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * Under the sanitizers, an allocation too big to satisfy returns NULL
 * as malloc does, rather than ending the run: an extreme size is the
 * callee's to refuse with -ENOMEM.  The leak check stays on: objects a
 * run never deleted go with the instance.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "allocator_may_return_null=1";
}

static const struct fuzz_api *const apis[] = {
#define FUZZ_API(name) &fuzz_api_##name,
#include "fuzz_apis.h"
#undef FUZZ_API
};

#define NR_APIS (sizeof(apis) / sizeof(apis[0]))

struct config {
	const char *argv0;
	const struct fuzz_api *api; /* NULL: every API */
	uint64_t from, count;
	int tasks, ops, jobs, timeout;
	bool verbose, trace;
};

static void usage(FILE *out)
{
	fprintf(
	    out,
	    "usage: fuzz_api [--api NAME] [--seed N | --from N --count C]\n"
	    "                [--tasks N] [--ops M]\n"
	    "                [--jobs J] [--timeout S] [--verbose] [--trace]\n"
	    "APIs:");
	for (size_t i = 0; i < NR_APIS; i++)
		fprintf(out, " %s", apis[i]->name);
	fprintf(out, "\n");
}

/* The command line that replays @seed of @api alone. */
static void print_replay(const struct config *c, const struct fuzz_api *api,
			 uint64_t seed)
{
	fprintf(stderr, "replay: %s --api %s --seed %" PRIu64, c->argv0,
		api->name, seed);
	if (c->tasks != 6)
		fprintf(stderr, " --tasks %d", c->tasks);
	if (c->ops != 400)
		fprintf(stderr, " --ops %d", c->ops);
	fprintf(stderr, "\n");
}

/* The child: one run of @seed, its event log in @log. */
static void run_child(const struct config *c, const struct fuzz_api *api,
		      uint64_t seed, const char *log)
{
	struct fuzz_world w = {
	    .api = api,
	    .seed = seed,
	    .nr_tasks = c->tasks,
	    .budget = (long)c->tasks * c->ops,
	    .irq_budget = c->ops,
	    .verbose = c->verbose,
	    .trace = c->trace,
	};

	if (setenv("FUSION_BACKEND", "sim", 1) ||
	    setenv("FUSION_SIM_LOG", log, 1))
		_exit(2);
	exit(fuzz_world_run(&w) ? 2 : 0);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One run in a child, at most c->timeout s; 0 when it ended cleanly. */
static int run_once(const struct config *c, const struct fuzz_api *api,
		    uint64_t seed, const char *log)
{
	double deadline = now_s() + c->timeout;
	sigset_t chld;
	int status;
	pid_t pid;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		sigprocmask(SIG_UNBLOCK, &chld, NULL);
		run_child(c, api, seed, log);
	}
	while (waitpid(pid, &status, WNOHANG) == 0) {
		double left = deadline - now_s();
		struct timespec ts = {(time_t)left,
				      (long)((left - (time_t)left) * 1e9)};

		if (left <= 0 || (sigtimedwait(&chld, NULL, &ts) < 0 &&
				  errno == EAGAIN && now_s() >= deadline)) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			fprintf(stderr,
				"fuzz_api: %s seed %" PRIu64
				": no end after %d s (hang)\n",
				api->name, seed, c->timeout);
			return -ETIMEDOUT;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		fprintf(
		    stderr, "fuzz_api: %s seed %" PRIu64 ": exit status %d%s\n",
		    api->name, seed, WEXITSTATUS(status),
		    WEXITSTATUS(status) == 3 ? " (sim deadlock report)" : "");
	else
		fprintf(stderr, "fuzz_api: %s seed %" PRIu64 ": %s\n",
			api->name, seed, strsignal(WTERMSIG(status)));
	return -ECHILD;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;

	*len = 0;
	if (f == NULL)
		return NULL;
	if (getdelim(&buf, len, '\0', f) < 0) {
		free(buf);
		buf = NULL;
	}
	*len = buf ? (size_t)ftell(f) : 0;
	fclose(f);
	return buf;
}

/* 0 when the two logs are the same bytes; else where they part. */
static int compare_logs(const struct fuzz_api *api, uint64_t seed,
			const char *a, const char *b)
{
	size_t la, lb, i, line = 1, start = 0;
	char *da = slurp(a, &la), *db = slurp(b, &lb);
	int ret = 0;

	if (da == NULL || db == NULL) {
		fprintf(stderr, "fuzz_api: %s seed %" PRIu64 ": no event log\n",
			api->name, seed);
		ret = -ENOENT;
	} else if (la != lb || memcmp(da, db, la) != 0) {
		for (i = 0; i < la && i < lb && da[i] == db[i]; i++)
			if (da[i] == '\n') {
				line++;
				start = i + 1;
			}
		fprintf(stderr,
			"fuzz_api: %s seed %" PRIu64
			": the two runs' logs differ at line %zu:\n"
			"  %.*s\n  %.*s\n",
			api->name, seed, line, (int)strcspn(da + start, "\n"),
			da + start, (int)strcspn(db + start, "\n"), db + start);
		ret = -EILSEQ;
	}
	free(da);
	free(db);
	return ret;
}

/* A seed's process: two runs, their logs compared; 0 when it holds. */
static int check_seed(const struct config *c, const struct fuzz_api *api,
		      uint64_t seed)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char log[2][512];
	int ret = 0;

	for (int run = 0; run < 2 && ret == 0; run++) {
		snprintf(log[run], sizeof(log[run]), "%s/fuzz_api.%d.%d.log",
			 dir, (int)getpid(), run);
		ret = run_once(c, api, seed, log[run]);
	}
	if (ret == 0)
		ret = compare_logs(api, seed, log[0], log[1]);
	for (int run = 0; run < 2; run++)
		unlink(log[run]);
	if (ret)
		print_replay(c, api, seed);
	return ret;
}

/* Every seed of every API asked for, c->jobs seeds at a time. */
static int run_all(const struct config *c)
{
	unsigned long seeds = 0, failed = 0;
	int running = 0, status;

	for (size_t a = 0; a < NR_APIS; a++) {
		if (c->api && c->api != apis[a])
			continue;
		for (uint64_t seed = c->from; seed < c->from + c->count;
		     seed++) {
			pid_t pid;

			if (running == c->jobs) {
				wait(&status);
				running--;
				failed += !WIFEXITED(status) ||
					  WEXITSTATUS(status) != 0;
			}
			fflush(NULL);
			pid = fork();
			if (pid < 0)
				return 1;
			if (pid == 0)
				_exit(check_seed(c, apis[a], seed) ? 1 : 0);
			running++;
			seeds++;
		}
	}
	while (running-- > 0) {
		wait(&status);
		failed += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	}
	printf("fuzz_api: %lu seeds, %lu runs, %lu failed\n", seeds, seeds * 2,
	       failed);
	return failed ? 1 : 0;
}

static int parse_number(const char *s, uint64_t max, uint64_t *out)
{
	char *end;

	if (s == NULL || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return *end || errno || *out > max ? -EINVAL : 0;
}

static int parse_int(const char *s, int min, int max, int *out)
{
	uint64_t v;

	if (parse_number(s, (uint64_t)max, &v) || (int)v < min)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

static int parse_api(const char *name, const struct fuzz_api **api)
{
	for (size_t i = 0; i < NR_APIS; i++)
		if (name && strcmp(name, apis[i]->name) == 0) {
			*api = apis[i];
			return 0;
		}
	return -EINVAL;
}

static int parse_args(int argc, char **argv, struct config *c)
{
	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i], *val = argv[i + 1];
		int ret;

		if (strcmp(opt, "--verbose") == 0 ||
		    strcmp(opt, "--trace") == 0) {
			*(opt[2] == 'v' ? &c->verbose : &c->trace) = true;
			continue;
		}
		if (strcmp(opt, "--seed") == 0) {
			ret = parse_number(val, UINT64_MAX - 1, &c->from);
			c->count = 1;
		} else if (strcmp(opt, "--from") == 0) {
			ret = parse_number(val, UINT64_MAX / 2, &c->from);
		} else if (strcmp(opt, "--count") == 0) {
			ret = parse_number(val, UINT64_MAX / 2, &c->count);
		} else if (strcmp(opt, "--api") == 0) {
			ret = parse_api(val, &c->api);
		} else if (strcmp(opt, "--tasks") == 0) {
			ret = parse_int(val, 1, FUZZ_MAX_TASKS, &c->tasks);
		} else if (strcmp(opt, "--ops") == 0) {
			ret = parse_int(val, 0, 1000000, &c->ops);
		} else if (strcmp(opt, "--jobs") == 0) {
			ret = parse_int(val, 1, 256, &c->jobs);
		} else if (strcmp(opt, "--timeout") == 0) {
			ret = parse_int(val, 1, 86400, &c->timeout);
		} else {
			ret = -EINVAL;
		}
		if (ret) {
			fprintf(stderr, "fuzz_api: bad argument: %s %s\n", opt,
				val ? val : "");
			return ret;
		}
		i++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct config c = {
	    .argv0 = argv[0],
	    .from = 1,
	    .count = 1,
	    .tasks = 6,
	    .ops = 400,
	    .jobs = 1,
	    .timeout = 120,
	};

	if (argc == 2 && strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return 0;
	}
	if (parse_args(argc, argv, &c)) {
		usage(stderr);
		return 2;
	}
	return run_all(&c);
}
