/* SPDX-License-Identifier: MIT */
/*
 * fusion sim --gui: the debugger in a browser.  An HTTP server on
 * 127.0.0.1 (libmicrohttpd) serves the page (share/fusion/sim-gui/)
 * and turns each request of its API into one command of the runner
 * (docs/sim-debugger.md).
 */
#ifndef FUSION_TOOL_SIM_GUI_H
#define FUSION_TOOL_SIM_GUI_H

#include <stdio.h>

struct sim_runner;

/*
 * Serve the GUI of @r until SIGINT, SIGTERM or SIGHUP: listen on
 * 127.0.0.1 at a port the kernel chooses, print the page's URL, which
 * holds a random token every request must carry, as one line on @out,
 * and answer until the signal; then pause a command under way, wait for
 * it and stop.  Returns 0 then, or -errno after saying why on stderr:
 * -ENOENT (the page's files are not installed), -ENOTSUP (this fusion
 * was built without libmicrohttpd), -EIO (the server did not start), or
 * the error of getrandom, pipe2 or the listening socket.  @r stays the
 * caller's.  Handles the three signals while it serves (their earlier
 * handlers come back after); one at a time per process, from a thread
 * that sends @r no command meanwhile.
 */
int fusion_sim_gui(struct sim_runner *r, FILE *out);

#endif
