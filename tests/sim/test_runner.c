/* SPDX-License-Identifier: MIT */
/*
 * fusion sim (docs/sim-debugger.md): the runner drives sim_app (an
 * unmodified Alchemy program) through the agent of its sim backend.
 * Stops at exact dates and events, the same state after a restart and a
 * goto, the objects' view, the time model (a cost per service call; a
 * livelock without it), bad commands, and the exact output of `fusion
 * sim` in batch mode.
 *
 * sim_app worker: worker blocks on sem1 at 0; feeder gives it at 2, 4
 * and 6 ms (marking "feed N" first); each time worker writes to the
 * queue q under the mutex lock and blocks on sem1 again.
 */
#include "harness.h"
#include "sim_runner.h"
#include "backend/common/duration.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static char *worker_argv[] = {SIM_APP, "worker", NULL};
static char *pingpong_argv[] = {SIM_APP, "pingpong", NULL};
static char *deadlock_argv[] = {SIM_APP, "deadlock", NULL};
static char *periodic_argv[] = {SIM_APP, "periodic", NULL};
static char *spin_argv[] = {SIM_APP, "spin", NULL};
static char *irq_argv[] = {SIM_APP, "irq", NULL};

static struct sim_runner *start(char **argv, const char *cost, int output_fd)
{
	struct sim_runner_options opts = {.cost = cost, .output_fd = output_fd};
	struct sim_runner *r = NULL;

	CHECK_EQ(sim_runner_start(argv, &opts, &r), 0);
	return r;
}

/* The reply to @cmd, which the caller frees. */
static char *ask(struct sim_runner *r, const char *cmd)
{
	char *reply = NULL;

	CHECK_EQ(sim_runner_command(r, cmd, &reply), 0);
	CHECK(reply != NULL);
	return reply;
}

#define EXPECT(r, cmd, want)                                                   \
	do {                                                                   \
		char *got_ = ask(r, cmd);                                      \
		char copy_[4096];                                              \
		snprintf(copy_, sizeof(copy_), "%s", got_);                    \
		free(got_);                                                    \
		CHECK_STR(copy_, want);                                        \
	} while (0)

#define PAUSED(date) "{\"ok\":true,\"state\":\"paused\",\"date\":" #date

TEST(breakpoints_stop_at_their_event)
{
	struct sim_runner *r = start(worker_argv, NULL, 0);

	EXPECT(r, "break add block:worker", PAUSED(0) ",\"break\":1}");
	EXPECT(r, "run",
	       PAUSED(0) ",\"stop\":{\"reason\":\"break\",\"break\":1,"
			 "\"event\":{\"date\":0,\"cpu\":0,\"kind\":\"block\","
			 "\"thread\":\"worker\",\"object\":\"sem1\","
			 "\"arg\":0}}}");
	EXPECT(r, "run",
	       PAUSED(2000000) ",\"stop\":{\"reason\":\"break\",\"break\":1,"
			       "\"event\":{\"date\":2000000,\"cpu\":0,"
			       "\"kind\":\"block\",\"thread\":\"worker\","
			       "\"object\":\"sem1\",\"arg\":0}}}");
	EXPECT(r, "break del 1", PAUSED(2000000) "}");
	/* A mark's text, spaces included; a wake by the semaphore. */
	EXPECT(r, "break add mark:feed 1", PAUSED(2000000) ",\"break\":2}");
	EXPECT(r, "break add signal:sem1", PAUSED(2000000) ",\"break\":3}");
	EXPECT(r, "run",
	       PAUSED(4000000) ",\"stop\":{\"reason\":\"break\",\"break\":2,"
			       "\"event\":{\"date\":4000000,\"cpu\":0,"
			       "\"kind\":\"mark\",\"thread\":\"feeder\","
			       "\"object\":\"feed 1\",\"arg\":0}}}");
	EXPECT(r, "run",
	       PAUSED(4000000) ",\"stop\":{\"reason\":\"break\",\"break\":3,"
			       "\"event\":{\"date\":4000000,\"cpu\":0,"
			       "\"kind\":\"wake\",\"thread\":\"worker\","
			       "\"object\":\"sem1\",\"arg\":0}}}");
	EXPECT(r, "break list",
	       PAUSED(4000000) ",\"breaks\":[{\"id\":2,\"spec\":\"mark:feed "
			       "1\",\"hits\":1},{\"id\":3,\"spec\":"
			       "\"signal:sem1\",\"hits\":1}]}");
	EXPECT(r, "break del 2", PAUSED(4000000) "}");
	EXPECT(r, "break del 3", PAUSED(4000000) "}");
	EXPECT(r, "run",
	       "{\"ok\":true,\"state\":\"exited\",\"date\":6000000,\"stop\":{"
	       "\"reason\":\"exit\",\"status\":0}}");
	sim_runner_stop(r);
}

TEST(switch_and_priority_breakpoints)
{
	static char *inversion_argv[] = {DEMO_INVERSION, NULL};
	struct sim_runner *r = start(worker_argv, NULL, 0);

	EXPECT(r, "break add switch:feeder", PAUSED(0) ",\"break\":1}");
	EXPECT(r, "run",
	       PAUSED(0) ",\"stop\":{\"reason\":\"break\",\"break\":1,"
			 "\"event\":{\"date\":0,\"cpu\":0,\"kind\":"
			 "\"switch\",\"thread\":\"feeder\",\"object\":"
			 "\"main\",\"arg\":0}}}");
	sim_runner_stop(r);
	/* The priority-inversion demo: low inherits high's priority at
	 * 1 ms, and gives it back at 3 ms. */
	r = start(inversion_argv, NULL, 0);
	EXPECT(r, "break add prio:low", PAUSED(0) ",\"break\":1}");
	EXPECT(r, "run",
	       PAUSED(1000000) ",\"stop\":{\"reason\":\"break\",\"break\":1,"
			       "\"event\":{\"date\":1000000,\"cpu\":0,"
			       "\"kind\":\"prio\",\"thread\":\"low\","
			       "\"object\":\"mutex\",\"arg\":30}}}");
	EXPECT(r, "run",
	       PAUSED(3000000) ",\"stop\":{\"reason\":\"break\",\"break\":1,"
			       "\"event\":{\"date\":3000000,\"cpu\":0,"
			       "\"kind\":\"prio\",\"thread\":\"low\","
			       "\"object\":null,\"arg\":10}}}");
	sim_runner_stop(r);
}

TEST(fill_level_and_overrun_breakpoints)
{
	struct sim_runner *r = start(worker_argv, NULL, 0);

	/* The third message fills q (3 at most): the stop comes with the
	 * first event after the write that filled it, the write's own
	 * service event (recorded as it returns). */
	EXPECT(r, "break add full:q", PAUSED(0) ",\"break\":1}");
	EXPECT(r, "run",
	       PAUSED(6000000) ",\"stop\":{\"reason\":\"break\",\"break\":1,"
			       "\"event\":{\"date\":6000000,\"cpu\":0,"
			       "\"kind\":\"alchemy\",\"thread\":\"worker\","
			       "\"object\":\"rt_queue_write\",\"detail\":"
			       "\"0x600001002\",\"arg\":0}}}");
	/* main reads the three messages after 6 ms: the third read's
	 * service event is the first after q is empty. */
	EXPECT(r, "break add empty:q", PAUSED(6000000) ",\"break\":2}");
	EXPECT(r, "run",
	       PAUSED(6000000) ",\"stop\":{\"reason\":\"break\",\"break\":2,"
			       "\"event\":{\"date\":6000000,\"cpu\":0,"
			       "\"kind\":\"alchemy\",\"thread\":\"main\","
			       "\"object\":\"rt_queue_read\",\"detail\":"
			       "\"0x600001002\",\"arg\":4}}}");
	sim_runner_stop(r);
	/* tick spins 1.5 ms from 2 ms: its release point at 3 ms passes
	 * while it runs, and the run stops right then. */
	r = start(periodic_argv, NULL, 0);
	EXPECT(r, "break add overrun:tick", PAUSED(0) ",\"break\":1}");
	EXPECT(r, "run",
	       PAUSED(3000000) ",\"stop\":{\"reason\":\"break\",\"break\":1}}");
	EXPECT(r, "run",
	       "{\"ok\":true,\"state\":\"exited\",\"date\":4300000,"
	       "\"stop\":{\"reason\":\"exit\",\"status\":0}}");
	sim_runner_stop(r);
}

/* A temporary file holding @text, for FUSION_SIM_SCENARIO. */
static void scenario(char *path, const char *text)
{
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	CHECK_EQ(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

TEST(irq_breakpoints)
{
	char path[] = "/tmp/fusion-sim-scenario-XXXXXX";
	struct sim_runner *r;

	scenario(path, "irq dev every 2ms from 2ms until 4ms\n");
	setenv("FUSION_SIM_SCENARIO", path, 1);
	r = start(irq_argv, NULL, 0);
	unsetenv("FUSION_SIM_SCENARIO");
	unlink(path);
	/* sim_app irq attaches dev first: it gets the first source IRQ. */
	EXPECT(r, "break add irq:64", PAUSED(0) ",\"break\":1}");
	EXPECT(r, "run",
	       PAUSED(2000000) ",\"stop\":{\"reason\":\"break\",\"break\":1,"
			       "\"event\":{\"date\":2000000,\"cpu\":0,"
			       "\"kind\":\"irq\",\"thread\":\"head\","
			       "\"object\":null,\"arg\":64}}}");
	EXPECT(r, "run",
	       PAUSED(4000000) ",\"stop\":{\"reason\":\"break\",\"break\":1,"
			       "\"event\":{\"date\":4000000,\"cpu\":0,"
			       "\"kind\":\"irq\",\"thread\":\"head\","
			       "\"object\":null,\"arg\":64}}}");
	sim_runner_stop(r);
}

TEST(dates_stop_the_run_when_nothing_happens)
{
	struct sim_runner *r = start(worker_argv, NULL, 0);

	EXPECT(r, "break add date:3ms", PAUSED(0) ",\"break\":1}");
	EXPECT(r, "run",
	       PAUSED(3000000) ",\"stop\":{\"reason\":\"break\",\"break\":1}}");
	EXPECT(r, "until 5ms",
	       PAUSED(5000000) ",\"stop\":{\"reason\":\"until\"}}");
	/* Virtual time stops before the events due then. */
	EXPECT(r, "until 6ms",
	       PAUSED(6000000) ",\"stop\":{\"reason\":\"until\"}}");
	EXPECT(r, "print events since 6ms",
	       PAUSED(6000000) ",\"dropped\":0,\"events\":[]}");
	EXPECT(r, "step",
	       PAUSED(6000000) ",\"stop\":{\"reason\":\"step\",\"event\":{"
			       "\"date\":6000000,\"cpu\":0,\"kind\":\"wake\","
			       "\"thread\":\"feeder\",\"object\":\"delay\","
			       "\"arg\":0}}}");
	EXPECT(r, "step 2",
	       PAUSED(6000000) ",\"stop\":{\"reason\":\"step\",\"event\":{"
			       "\"date\":6000000,\"cpu\":0,\"kind\":\"switch\","
			       "\"thread\":\"feeder\",\"object\":\"root0\","
			       "\"arg\":0}}}");
	EXPECT(r, "print events since 6ms",
	       PAUSED(6000000) ",\"dropped\":0,\"events\":[{\"date\":6000000,"
			       "\"cpu\":0,\"kind\":\"wake\",\"thread\":"
			       "\"feeder\",\"object\":\"delay\",\"arg\":0},{"
			       "\"date\":6000000,\"cpu\":0,\"kind\":\"ready\","
			       "\"thread\":\"feeder\",\"object\":null,\"arg\":"
			       "11},{\"date\":6000000,\"cpu\":0,\"kind\":"
			       "\"switch\",\"thread\":\"feeder\",\"object\":"
			       "\"root0\",\"arg\":0}]}");
	sim_runner_stop(r);
}

TEST(objects_timers_and_threads_at_a_stop)
{
	struct sim_runner *r = start(worker_argv, NULL, 0);

	EXPECT(r, "until 3ms",
	       PAUSED(3000000) ",\"stop\":{\"reason\":\"until\"}}");
	EXPECT(r, "print objects",
	       PAUSED(3000000) ",\"objects\":[{\"skin\":\"alchemy\",\"class\":"
			       "\"sem\",\"name\":\"sem1\",\"count\":0,"
			       "\"waiters\":[\"worker\"]},{\"skin\":"
			       "\"alchemy\",\"class\":\"mutex\",\"name\":"
			       "\"lock\",\"count\":0,\"waiters\":[]},{\"skin\":"
			       "\"alchemy\",\"class\":\"queue\",\"name\":\"q\","
			       "\"count\":1,\"capacity\":3,\"waiters\":[]}]}");
	EXPECT(r, "print timers",
	       PAUSED(3000000) ",\"timers\":[{\"name\":\"\",\"thread\":"
			       "\"feeder\",\"cpu\":0,\"date\":4000000,"
			       "\"interval\":0}]}");
	EXPECT(
	    r, "print threads",
	    PAUSED(3000000) ",\"threads\":[{\"name\":\"main\",\"skins\":"
			    "\"\",\"state\":\"waiting\",\"waits\":\"worker\","
			    "\"base_prio\":0,\"prio\":0,\"cpu\":0,"
			    "\"relaxed\":false,\"switches\":3,\"exec_ns\":0},"
			    "{\"name\":\"worker\",\"skins\":\"alchemy\","
			    "\"state\":\"waiting\",\"waits\":\"sem1\","
			    "\"base_prio\":21,\"prio\":21,\"cpu\":0,"
			    "\"relaxed\":false,\"switches\":2,\"exec_ns\":0},"
			    "{\"name\":\"feeder\",\"skins\":\"alchemy\","
			    "\"state\":\"sleeping\",\"waits\":\"delay\","
			    "\"base_prio\":11,\"prio\":11,\"cpu\":0,"
			    "\"relaxed\":false,\"switches\":3,\"exec_ns\":0}"
			    "]}");
	EXPECT(r, "print pipeline",
	       PAUSED(3000000) ",\"pipeline\":[{\"domain\":\"head\","
			       "\"priority\":1000000,\"stalled\":[false],"
			       "\"pending\":[[]]},{\"domain\":\"root\","
			       "\"priority\":0,\"stalled\":[false],"
			       "\"pending\":[[]]}]}");
	sim_runner_stop(r);
}

/* What the program looks like: every view, the events included. */
static void snapshot(struct sim_runner *r, char *out, size_t len)
{
	static const char *const views[] = {
	    "print threads",  "print objects", "print timers",
	    "print pipeline", "print events",
	};

	out[0] = '\0';
	for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		char *reply = ask(r, views[i]);

		CHECK(strlen(out) + strlen(reply) + 2 < len);
		strcat(out, reply);
		strcat(out, "\n");
		free(reply);
	}
}

TEST(restart_and_goto_give_the_same_state)
{
	struct sim_runner *r = start(worker_argv, NULL, 0);
	static char first[65536], again[65536];

	EXPECT(r, "break add wake:worker", PAUSED(0) ",\"break\":1}");
	EXPECT(r, "until 5ms",
	       PAUSED(2000000) ",\"stop\":{\"reason\":\"break\",\"break\":1,"
			       "\"event\":{\"date\":2000000,\"cpu\":0,"
			       "\"kind\":\"wake\",\"thread\":\"worker\","
			       "\"object\":\"sem1\",\"arg\":0}}}");
	EXPECT(r, "until 5ms",
	       PAUSED(4000000) ",\"stop\":{\"reason\":\"break\",\"break\":1,"
			       "\"event\":{\"date\":4000000,\"cpu\":0,"
			       "\"kind\":\"wake\",\"thread\":\"worker\","
			       "\"object\":\"sem1\",\"arg\":0}}}");
	snapshot(r, first, sizeof(first));
	/* The breakpoint stays, under its number. */
	EXPECT(r, "restart", PAUSED(0) ",\"stop\":{\"reason\":\"start\"}}");
	EXPECT(r, "run",
	       PAUSED(2000000) ",\"stop\":{\"reason\":\"break\",\"break\":1,"
			       "\"event\":{\"date\":2000000,\"cpu\":0,"
			       "\"kind\":\"wake\",\"thread\":\"worker\","
			       "\"object\":\"sem1\",\"arg\":0}}}");
	EXPECT(r, "run",
	       PAUSED(4000000) ",\"stop\":{\"reason\":\"break\",\"break\":1,"
			       "\"event\":{\"date\":4000000,\"cpu\":0,"
			       "\"kind\":\"wake\",\"thread\":\"worker\","
			       "\"object\":\"sem1\",\"arg\":0}}}");
	snapshot(r, again, sizeof(again));
	CHECK_STR(again, first);
	/* goto runs through breakpoints; the same date, the same state. */
	EXPECT(r, "until 5ms",
	       PAUSED(5000000) ",\"stop\":{\"reason\":\"until\"}}");
	snapshot(r, first, sizeof(first));
	EXPECT(r, "goto 5ms",
	       PAUSED(5000000) ",\"stop\":{\"reason\":\"until\"}}");
	snapshot(r, again, sizeof(again));
	CHECK_STR(again, first);
	/* Back in time, then forward again from there. */
	EXPECT(r, "goto 1ms",
	       PAUSED(1000000) ",\"stop\":{\"reason\":\"until\"}}");
	EXPECT(r, "run",
	       PAUSED(2000000) ",\"stop\":{\"reason\":\"break\",\"break\":1,"
			       "\"event\":{\"date\":2000000,\"cpu\":0,"
			       "\"kind\":\"wake\",\"thread\":\"worker\","
			       "\"object\":\"sem1\",\"arg\":0}}}");
	sim_runner_stop(r);
}

/* A temporary file for the program's output, read back by slurp(). */
static int output_file(void)
{
	char path[] = "/tmp/fusion-sim-test-XXXXXX";
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	unlink(path);
	return fd;
}

static void slurp(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	CHECK(n >= 0);
	buf[n] = '\0';
}

TEST(a_cost_per_call_lets_a_pingpong_reach_its_end)
{
	int out = output_file();
	struct sim_runner *r = start(pingpong_argv, "1us", out);
	char text[512];

	/*
	 * main makes 11 service calls (1 us each) before it sleeps 1.5 s:
	 * it wakes at 1.5 s + 11 us.  Meanwhile each exchange of ping and
	 * pong takes 4 calls, 4 us: 375000 in 1.5 s, the last one cut.
	 */
	EXPECT(r, "run",
	       "{\"ok\":true,\"state\":\"exited\",\"date\":1500011000,\"stop\":"
	       "{\"reason\":\"exit\",\"status\":0}}");
	slurp(out, text, sizeof(text));
	CHECK_STR(text, "main: woke at 1500011000 ns, 374999 exchanges\n");
	sim_runner_stop(r);
	close(out);
}

/* sim_app spin: the date main woke at, with @cost. */
static long long spin_wake(const char *cost)
{
	int out = output_file();
	struct sim_runner *r = start(spin_argv, cost, out);
	char text[256], *reply;
	long long date = -1;

	reply = ask(r, "run");
	CHECK(strstr(reply, "\"status\":0}}") != NULL);
	free(reply);
	slurp(out, text, sizeof(text));
	CHECK_EQ(sscanf(text, "main: woke at %lld ns", &date), 1);
	sim_runner_stop(r);
	close(out);
	return date;
}

TEST(a_measured_cost_charges_the_host_cpu_time)
{
	/* Its computing takes no virtual time by default, some of the
	 * host's CPU time when measured (how much is not reproducible). */
	CHECK_EQ(spin_wake(NULL), 1000);
	CHECK(spin_wake("measured") > 1000);
}

TEST(a_livelock_is_reported)
{
	int out = output_file();
	struct sim_runner *r;
	char text[1024];

	setenv("FUSION_SIM_LIVELOCK", "10000", 1);
	r = start(pingpong_argv, NULL, out);
	unsetenv("FUSION_SIM_LIVELOCK");
	/* The run stops first: everything can still be looked at. */
	EXPECT(r, "run", PAUSED(0) ",\"stop\":{\"reason\":\"livelock\"}}");
	EXPECT(r, "print objects",
	       PAUSED(0) ",\"objects\":[{\"skin\":\"alchemy\",\"class\":"
			 "\"sem\",\"name\":\"ping\",\"count\":0,\"waiters\":"
			 "[]},{\"skin\":\"alchemy\",\"class\":"
			 "\"sem\",\"name\":\"pong\",\"count\":0,"
			 "\"waiters\":[]}]}");
	EXPECT(r, "run",
	       "{\"ok\":true,\"state\":\"exited\",\"date\":0,\"stop\":{"
	       "\"reason\":\"exit\",\"status\":4}}");
	slurp(out, text, sizeof(text));
	CHECK_STR(text,
		  "fusion-sim: livelock at 0 ns: 10000 events without virtual "
		  "time moving, between pong, ping\n"
		  "fusion-sim:   main prio 51/51 cpu0 waits for delay\n"
		  "fusion-sim:   ping prio 11/11 cpu0 runnable\n"
		  "fusion-sim:   pong prio 11/11 cpu0 runnable\n");
	sim_runner_stop(r);
	close(out);
}

TEST(a_deadlock_stops_before_its_report)
{
	int out = output_file();
	struct sim_runner *r = start(deadlock_argv, NULL, out);
	char text[1024];

	EXPECT(r, "run", PAUSED(0) ",\"stop\":{\"reason\":\"deadlock\"}}");
	EXPECT(r, "print objects",
	       PAUSED(0) ",\"objects\":[{\"skin\":\"alchemy\",\"class\":"
			 "\"sem\",\"name\":\"sem1\",\"count\":0,\"waiters\":"
			 "[\"stuck\"]}]}");
	slurp(out, text, sizeof(text));
	CHECK_STR(text, "");
	EXPECT(r, "run",
	       "{\"ok\":true,\"state\":\"exited\",\"date\":0,\"stop\":{"
	       "\"reason\":\"exit\",\"status\":3}}");
	slurp(out, text, sizeof(text));
	CHECK(strncmp(text, "fusion-sim: deadlock at 0 ns", 28) == 0);
	sim_runner_stop(r);
	close(out);
}

static void *run_thread(void *arg)
{
	return ask(arg, "run");
}

TEST(pause_stops_a_run_from_another_thread)
{
	struct sim_runner *r = start(pingpong_argv, "1us", 0);
	pthread_t thread;
	char *reply;

	reply = ask(r, "pause");
	CHECK(strncmp(reply, PAUSED(), strlen(PAUSED())) == 0);
	free(reply);
	CHECK_EQ(pthread_create(&thread, NULL, run_thread, r), 0);
	/* Long before the 375000 exchanges of the run are over. */
	usleep(20000);
	EXPECT(r, "pause", "{\"ok\":true,\"state\":\"running\"}");
	CHECK_EQ(pthread_join(thread, (void **)&reply), 0);
	CHECK(strstr(reply, "\"stop\":{\"reason\":\"pause\",\"event\":{") !=
	      NULL);
	free(reply);
	sim_runner_stop(r);
}

TEST(bad_commands_get_a_clear_error)
{
	struct sim_runner *r = start(worker_argv, NULL, 0);
	static const struct {
		const char *cmd, *error;
	} bad[] = {
	    {"", "empty command"},
	    {"jump", "unknown command 'jump' (allowed: run, pause, step, "
		     "until, goto, break, print)"},
	    {"run now", "usage: run"},
	    {"step 0", "usage: step [N] (N > 0)"},
	    {"step x", "usage: step [N] (N > 0)"},
	    {"until", "usage: until DATE (an integer and ns, us, ms or s)"},
	    {"until 12xs",
	     "usage: until DATE (an integer and ns, us, ms or s)"},
	    {"until 0", "until 0: not after the current date (0 ns)"},
	    {"goto -1ms", "usage: goto DATE (an integer and ns, us, ms or s)"},
	    {"print", "usage: print threads|objects|timers|pipeline|events "
		      "[since DATE]"},
	    {"print everything",
	     "usage: print threads|objects|timers|pipeline|events [since "
	     "DATE]"},
	    {"print events after 1ms", "usage: print events [since DATE]"},
	    {"break", "usage: break add N SPEC | break del N | break list"},
	    {"break del 9", "no breakpoint '9'"},
	    {"break del x", "no breakpoint 'x'"},
	    {"break add bogus:x",
	     "unknown breakpoint kind 'bogus' (allowed: switch, block, wake, "
	     "prio, signal, irq, mark, date, full, empty, overrun)"},
	    {"break add block", "bad breakpoint 'block' (KIND:ARG, KIND one "
				"of switch, block, wake, prio, signal, irq, "
				"mark, date, full, empty, overrun)"},
	    {"break add :worker", "bad breakpoint ':worker' (KIND:ARG, KIND "
				  "one of switch, block, wake, prio, signal, "
				  "irq, mark, date, full, empty, overrun)"},
	    {"break add block:", "missing argument after 'block:'"},
	    {"break add irq:x", "bad IRQ number 'x'"},
	    {"break add date:3xs",
	     "bad date '3xs' (an integer and ns, us, ms or s)"},
	    {"break add switch:a_name_longer_than_thirty_one_bytes",
	     "name 'a_name_longer_than_thirty_one_bytes' too long (at most "
	     "31 bytes)"},
	    {"run\nrun", "a command is one line"},
	};
	char want[512], *reply = NULL;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(want, sizeof(want), "{\"ok\":false,\"error\":\"%s\"}",
			 bad[i].error);
		EXPECT(r, bad[i].cmd, want);
	}
	/* Nothing changed: the program is where it started. */
	EXPECT(r, "break list", PAUSED(0) ",\"breaks\":[]}");
	EXPECT(r, "run",
	       "{\"ok\":true,\"state\":\"exited\",\"date\":6000000,\"stop\":{"
	       "\"reason\":\"exit\",\"status\":0}}");
	EXPECT(r, "print threads",
	       "{\"ok\":false,\"error\":\"the program has exited (restart or "
	       "goto DATE runs it again)\"}");
	CHECK_EQ(sim_runner_command(NULL, "run", &reply), -EINVAL);
	CHECK_EQ(sim_runner_command(r, NULL, &reply), -EINVAL);
	CHECK_EQ(sim_runner_command(r, "run", NULL), -EINVAL);
	sim_runner_stop(r);
	sim_runner_stop(NULL);
}

TEST(bad_starts_are_refused)
{
	struct sim_runner_options bad_cost = {.cost = "2 us"};
	char *empty[] = {NULL};
	char *missing[] = {"/nonexistent/program", NULL};
	struct sim_runner *r = NULL;

	CHECK_EQ(sim_runner_start(NULL, NULL, &r), -EINVAL);
	CHECK_EQ(sim_runner_start(empty, NULL, &r), -EINVAL);
	CHECK_EQ(sim_runner_start(worker_argv, NULL, NULL), -EINVAL);
	CHECK_EQ(sim_runner_start(worker_argv, &bad_cost, &r), -EINVAL);
	CHECK_EQ(sim_runner_start(missing, NULL, &r), -ENOENT);
	CHECK(r == NULL);
}

/* `fusion sim ARGS -- sim_app worker`: its stdout and exit status. */
static int fusion_sim(const char *args, char *out, size_t len)
{
	char cmd[512];
	size_t used = 0;
	FILE *p;
	int status;

	snprintf(cmd, sizeof(cmd), "%s sim %s -- %s worker 2>&1", FUSION_TOOL,
		 args, SIM_APP);
	p = popen(cmd, "r");
	CHECK(p != NULL);
	while (used < len - 1 && fgets(out + used, (int)(len - used), p))
		used += strlen(out + used);
	status = pclose(p);
	CHECK(WIFEXITED(status));
	return WEXITSTATUS(status);
}

TEST(batch_output_is_exact)
{
	char out[4096];

	if (!SIM_BATCH) {
		/* Built without jansson: batch mode says what it needs. */
		CHECK_EQ(fusion_sim("--until 1ms", out, sizeof(out)), 2);
		CHECK(strstr(out, "need jansson") != NULL);
		return;
	}

	CHECK_EQ(fusion_sim("--break block:worker --break wake:worker "
			    "--until 10ms --print threads --print objects",
			    out, sizeof(out)),
		 0);
	CHECK_STR(out,
		  "stopped at 0 ns: breakpoint 1 (block:worker): block worker "
		  "sem1\n"
		  "THREAD           STATE     PRIO BASE CPU WAITS\n"
		  "main             ready        0    0   0\n"
		  "worker           waiting     21   21   0 sem1\n"
		  "feeder           dormant     11   11   0 start\n"
		  "SKIN     CLASS      NAME             COUNT   CAP OWNER      "
		  "      WAITERS\n"
		  "alchemy  sem        sem1                 0     - -          "
		  "      worker\n"
		  "alchemy  mutex      lock                 0     - -          "
		  "      -\n"
		  "alchemy  queue      q                    0     3 -          "
		  "      -\n");
	CHECK_EQ(fusion_sim("--until 1ms --print timers --print events", out,
			    sizeof(out)),
		 0);
	CHECK_STR(out, "stopped at 1000000 ns: until\n"
		       "          DATE     INTERVAL CPU TIMER\n"
		       "       2000000            0   0 thread feeder\n"
		       "0 cpu0 alchemy main rt_sem_create 0\n"
		       "0 cpu0 alchemy main rt_mutex_create 0\n"
		       "0 cpu0 alchemy main rt_queue_create 0\n"
		       "0 cpu0 create worker 21\n"
		       "0 cpu0 alchemy main rt_task_create 0\n"
		       "0 cpu0 create feeder 11\n"
		       "0 cpu0 alchemy main rt_task_create 0\n"
		       "0 cpu0 start worker 21\n"
		       "0 cpu0 ready worker 21\n"
		       "0 cpu0 switch worker main\n"
		       "0 cpu0 block worker sem1\n"
		       "0 cpu0 switch main worker\n"
		       "0 cpu0 alchemy main rt_task_start 0\n"
		       "0 cpu0 start feeder 11\n"
		       "0 cpu0 ready feeder 11\n"
		       "0 cpu0 switch feeder main\n"
		       "0 cpu0 block feeder delay\n"
		       "0 cpu0 switch main feeder\n"
		       "0 cpu0 alchemy main rt_task_start 0\n"
		       "0 cpu0 block main worker\n"
		       "0 cpu0 switch root0 main\n");
	CHECK_EQ(fusion_sim("--json --break date:1ms --print pipeline", out,
			    sizeof(out)),
		 0);
	CHECK_STR(
	    out,
	    PAUSED(1000000) ",\"stop\":{\"reason\":\"break\","
			    "\"break\":1}}\n" PAUSED(
				1000000) ",\"pipeline\":[{\"domain\":"
					 "\"head\",\"priority\":1000000,"
					 "\"stalled\":[false],\"pending\":"
					 "[[]]},{\"domain\":\"root\","
					 "\"priority\":0,\"stalled\":[false],"
					 "\"pending\":[[]]}]}\n");
	/* The program's end: its own output, then the runner's line. */
	CHECK_EQ(fusion_sim("--break block:nobody", out, sizeof(out)), 0);
	CHECK_STR(out, "worker: done at 6000000 ns\n"
		       "exited at 6000000 ns: status 0\n");
	CHECK_EQ(fusion_sim("--break nobody", out, sizeof(out)), 2);
	CHECK_STR(out, "fusion sim: --break nobody: bad breakpoint 'nobody' "
		       "(KIND:ARG, KIND one of switch, block, wake, prio, "
		       "signal, irq, mark, date, full, empty, overrun)\n");
	CHECK_EQ(fusion_sim("--until 1x", out, sizeof(out)), 2);
	CHECK_STR(out, "fusion sim: --until 1x: not a date (an integer and "
		       "ns, us, ms or s)\n");
	CHECK_EQ(fusion_sim("--print all", out, sizeof(out)), 2);
	CHECK_STR(out, "fusion sim: --print all: threads, objects, timers, "
		       "pipeline or events\n");
}

TEST(durations_parse_exactly)
{
	static const struct {
		const char *text;
		nk_time_t ns;
	} good[] = {
	    {"7", 7},
	    {"250ns", 250},
	    {"1500us", 1500000},
	    {"10ms", 10000000},
	    {"1.5s", 1500000000},
	    {"0.5us", 500},
	    {"1.0000000009s", 1000000000},
	    {"9223372036854775807ns", NK_INFINITE},
	};
	static const char *const bad[] = {
	    "",
	    "ms",
	    "1.s",
	    "-1",
	    "1.5",
	    "10 ms",
	    "1e3",
	    "9223372036854775808",
	    "9223372037s",
	    "2xs",
	    ".5s",
	};
	nk_time_t ns;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ns = -1;
		CHECK_EQ(be_parse_duration(good[i].text, &ns), 0);
		CHECK_EQ(ns, good[i].ns);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ(be_parse_duration(bad[i], &ns), -EINVAL);
	CHECK_EQ(be_parse_duration(NULL, &ns), -EINVAL);
	CHECK_EQ(be_parse_duration("1ms", NULL), -EINVAL);
}

TESTS(T(breakpoints_stop_at_their_event), T(switch_and_priority_breakpoints),
      T(fill_level_and_overrun_breakpoints), T(irq_breakpoints),
      T(dates_stop_the_run_when_nothing_happens),
      T(objects_timers_and_threads_at_a_stop),
      T(restart_and_goto_give_the_same_state),
      T(a_cost_per_call_lets_a_pingpong_reach_its_end),
      T(a_measured_cost_charges_the_host_cpu_time), T(a_livelock_is_reported),
      T(a_deadlock_stops_before_its_report),
      T(pause_stops_a_run_from_another_thread),
      T(bad_commands_get_a_clear_error), T(bad_starts_are_refused),
      T(batch_output_is_exact), T(durations_parse_exactly));
