/* SPDX-License-Identifier: MIT */
/*
 * A string quoted for JSON, shared by the nucleus's inspect handler and
 * the sim agent's replies (the debugger's wire, docs/sim-debugger.md).
 */
#ifndef FUSION_NUCLEUS_JSON_H
#define FUSION_NUCLEUS_JSON_H

#include <stddef.h>

#pragma GCC visibility push(hidden)

/* Room @s quoted may take: each byte 6 at most ("\u001f"), the quotes
 * and the terminating NUL. */
#define NK_JSON_QUOTED_MAX(len) ((len) * 6 + 3)

/*
 * @s between quotes, '"' and '\' escaped, control bytes as \u00XX,
 * into @dst of @size bytes (terminated); what does not fit is cut, the
 * closing quote kept.  Returns the length written.
 */
size_t nk_json_quote(char *dst, size_t size, const char *s);

#pragma GCC visibility pop

#endif
