/* SPDX-License-Identifier: MIT */
/*
 * A small JSON reader for the replies of fusion sim's agent
 * (docs/sim-debugger.md): a document parsed whole into a tree of
 * values, looked up by key.  Numbers are integers (the replies hold no
 * other kind); strings are unescaped, \u escapes below 0x80 only.
 */
#ifndef FUSION_TOOLS_JSON_H
#define FUSION_TOOLS_JSON_H

#include <stdbool.h>
#include <stddef.h>

enum json_type {
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT
};

struct json_value {
	enum json_type type;
	bool boolean;
	long long number;
	char *string;		   /* JSON_STRING */
	char **keys;		   /* JSON_OBJECT: one per item */
	struct json_value **items; /* JSON_ARRAY, JSON_OBJECT */
	size_t count;
};

/* Parse @text whole: the tree, or NULL (not JSON, or out of memory). */
struct json_value *json_parse(const char *text);
void json_free(struct json_value *v);
/* The member @key of object @v, NULL if absent or @v no object. */
const struct json_value *json_get(const struct json_value *v, const char *key);
/* Its string, or @def when absent or not a string. */
const char *json_str(const struct json_value *v, const char *key,
		     const char *def);
/* Its number, or @def when absent or not a number. */
long long json_num(const struct json_value *v, const char *key, long long def);

#endif
