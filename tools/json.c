/* SPDX-License-Identifier: MIT */
/* A small JSON reader: see json.h.  Recursive descent over the text. */
#include "json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Nesting deeper than this is refused (replies nest 4 levels). */
#define JSON_DEPTH 32

struct parser {
	const char *p;
	int depth;
};

static void skip_space(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' ||
	       *ps->p == '\r')
		ps->p++;
}

static struct json_value *value_new(enum json_type type)
{
	struct json_value *v = calloc(1, sizeof(*v));

	if (v)
		v->type = type;
	return v;
}

static char *parse_string(struct parser *ps)
{
	const char *start = ++ps->p;
	char *out, *o;

	while (*ps->p && *ps->p != '"')
		ps->p += ps->p[0] == '\\' && ps->p[1] ? 2 : 1;
	if (*ps->p != '"')
		return NULL;
	out = malloc((size_t)(ps->p - start) + 1);
	if (out == NULL)
		return NULL;
	for (o = out; start < ps->p; start++) {
		if (*start != '\\') {
			*o++ = *start;
			continue;
		}
		switch (*++start) {
		case 'n':
			*o++ = '\n';
			break;
		case 't':
			*o++ = '\t';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case 'u': {
			char hex[5] = {0};
			long c;

			if (ps->p - start < 5) {
				free(out);
				return NULL;
			}
			memcpy(hex, start + 1, 4);
			c = strtol(hex, NULL, 16);
			*o++ = c > 0 && c < 0x80 ? (char)c : '?';
			start += 4;
			break;
		}
		default:
			*o++ = *start;
			break;
		}
	}
	*o = '\0';
	ps->p++;
	return out;
}

static struct json_value *parse_value(struct parser *ps);

/* Append @item (and @key for an object) to @v. */
static bool append(struct json_value *v, char *key, struct json_value *item)
{
	struct json_value **items =
	    realloc(v->items, (v->count + 1) * sizeof(*items));

	if (items == NULL)
		return false;
	v->items = items;
	if (v->type == JSON_OBJECT) {
		char **keys = realloc(v->keys, (v->count + 1) * sizeof(*keys));

		if (keys == NULL)
			return false;
		v->keys = keys;
		keys[v->count] = key;
	}
	items[v->count++] = item;
	return true;
}

static struct json_value *parse_container(struct parser *ps,
					  enum json_type type)
{
	char close = type == JSON_ARRAY ? ']' : '}';
	struct json_value *v = value_new(type);

	if (v == NULL || ++ps->depth > JSON_DEPTH)
		goto fail;
	ps->p++;
	skip_space(ps);
	if (*ps->p == close) {
		ps->p++;
		ps->depth--;
		return v;
	}
	for (;;) {
		struct json_value *item;
		char *key = NULL;

		skip_space(ps);
		if (type == JSON_OBJECT) {
			if (*ps->p != '"' || (key = parse_string(ps)) == NULL)
				goto fail;
			skip_space(ps);
			if (*ps->p++ != ':') {
				free(key);
				goto fail;
			}
		}
		item = parse_value(ps);
		if (item == NULL || !append(v, key, item)) {
			free(key);
			json_free(item);
			goto fail;
		}
		skip_space(ps);
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p++ != close)
			goto fail;
		ps->depth--;
		return v;
	}
fail:
	json_free(v);
	return NULL;
}

static struct json_value *parse_word(struct parser *ps, const char *word,
				     enum json_type type, bool boolean)
{
	struct json_value *v;

	if (strncmp(ps->p, word, strlen(word)) != 0)
		return NULL;
	ps->p += strlen(word);
	v = value_new(type);
	if (v)
		v->boolean = boolean;
	return v;
}

static struct json_value *parse_value(struct parser *ps)
{
	struct json_value *v;
	char *end;

	skip_space(ps);
	switch (*ps->p) {
	case '{':
		return parse_container(ps, JSON_OBJECT);
	case '[':
		return parse_container(ps, JSON_ARRAY);
	case '"':
		v = value_new(JSON_STRING);
		if (v && (v->string = parse_string(ps)) == NULL) {
			free(v);
			v = NULL;
		}
		return v;
	case 't':
		return parse_word(ps, "true", JSON_BOOL, true);
	case 'f':
		return parse_word(ps, "false", JSON_BOOL, false);
	case 'n':
		return parse_word(ps, "null", JSON_NULL, false);
	default:
		if (*ps->p != '-' && (*ps->p < '0' || *ps->p > '9'))
			return NULL;
		v = value_new(JSON_NUMBER);
		if (v == NULL)
			return NULL;
		errno = 0;
		v->number = strtoll(ps->p, &end, 10);
		if (end == ps->p || errno) {
			free(v);
			return NULL;
		}
		ps->p = end;
		return v;
	}
}

struct json_value *json_parse(const char *text)
{
	struct parser ps = {.p = text};
	struct json_value *v;

	if (text == NULL)
		return NULL;
	v = parse_value(&ps);
	skip_space(&ps);
	if (v && *ps.p != '\0') {
		json_free(v);
		return NULL;
	}
	return v;
}

void json_free(struct json_value *v)
{
	if (v == NULL)
		return;
	for (size_t i = 0; i < v->count; i++) {
		json_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->string);
	free(v);
}

const struct json_value *json_get(const struct json_value *v, const char *key)
{
	if (v == NULL || v->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < v->count; i++)
		if (strcmp(v->keys[i], key) == 0)
			return v->items[i];
	return NULL;
}

const char *json_str(const struct json_value *v, const char *key,
		     const char *def)
{
	const struct json_value *m = json_get(v, key);

	return m && m->type == JSON_STRING ? m->string : def;
}

long long json_num(const struct json_value *v, const char *key, long long def)
{
	const struct json_value *m = json_get(v, key);

	return m && m->type == JSON_NUMBER ? m->number : def;
}
