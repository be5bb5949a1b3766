/* SPDX-License-Identifier: MIT */
#include "json.h"

#include <stdio.h>

size_t nk_json_quote(char *dst, size_t size, const char *s)
{
	size_t at = 0;

	if (size < 3)
		return 0;
	dst[at++] = '"';
	/* Room for the longest escape, the closing quote and the NUL. */
	for (; *s && at + 8 <= size; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			dst[at++] = '\\';
			dst[at++] = (char)c;
		} else if (c < 0x20) {
			at +=
			    (size_t)snprintf(dst + at, size - at, "\\u%04x", c);
		} else {
			dst[at++] = (char)c;
		}
	}
	dst[at++] = '"';
	dst[at] = '\0';
	return at;
}
