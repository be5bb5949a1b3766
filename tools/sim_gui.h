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
 * and answer until the signal.  Returns 0 then, or -errno after saying
 * why on stderr: -ENOENT (the page's files are not installed), -ENOTSUP
 * (this fusion was built without libmicrohttpd), or the server's
 * start's error.  @r stays the caller's; call from the thread that
 * started it, with SIGINT, SIGTERM and SIGHUP not ignored.
 */
int fusion_sim_gui(struct sim_runner *r, FILE *out);

#endif
