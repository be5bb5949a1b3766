/* SPDX-License-Identifier: MIT */
/*
 * The runner of `fusion sim` (docs/sim-debugger.md): starts a program on
 * the sim backend under the control of its agent, sends it commands and
 * returns their JSON replies, restarts it.  What the command line and
 * the GUI server of `fusion sim` call.
 */
#ifndef FUSION_TOOLS_SIM_RUNNER_H
#define FUSION_TOOLS_SIM_RUNNER_H

struct sim_runner;

struct sim_runner_options {
	/* FUSION_SIM_COST of the program ("2us", "measured"); NULL: the
	 * environment's. */
	const char *cost;
	/* Where the program's stdout and stderr go; 0: the caller's. */
	int output_fd;
};

/*
 * Start @argv (argv[0] searched in PATH) under the agent and wait for
 * its first stop (or its exit).  @opts may be NULL.  Returns 0, -EINVAL
 * (NULL or empty @argv, NULL @out, a bad cost) or the -errno of the
 * socket, fork or exec.  Not thread-safe against other calls on the
 * same runner.
 */
int sim_runner_start(char *const argv[], const struct sim_runner_options *opts,
		     struct sim_runner **out);

/*
 * Send one command (docs/sim-debugger.md lists them) and store its
 * reply, a JSON object on one line, in *@reply, which the caller frees
 * with free().  A bad command gets a reply with "ok":false, not an
 * error.  Returns 0, -EINVAL (a NULL argument) or -ENOMEM.  Commands are
 * serialised; "pause" alone may come from another thread while one
 * waits for the reply of run, step, until or goto.
 */
int sim_runner_command(struct sim_runner *r, const char *cmd, char **reply);

/* Kill the program if it still runs, and free @r (NULL: nothing). */
void sim_runner_stop(struct sim_runner *r);

#endif
