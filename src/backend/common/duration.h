/* SPDX-License-Identifier: MIT */
/*
 * Durations and dates as people write them: "10ms", "1500us", "1.5s",
 * "250ns"; a bare integer is in nanoseconds.  Shared by the sim options
 * (FUSION_SIM_COST), the debugger's agent and `fusion sim`.
 */
#ifndef FUSION_BACKEND_DURATION_H
#define FUSION_BACKEND_DURATION_H

#include <fusion/types.h>

/*
 * Parse @text (digits, an optional fraction, then ns, us, ms or s) into
 * *@ns, exactly, truncating below a nanosecond.  Returns 0, or -EINVAL
 * (not a duration, negative, or beyond NK_INFINITE).  Any context.
 */
int be_parse_duration(const char *text, nk_time_t *ns);

#endif
