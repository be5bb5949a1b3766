/*
 * Scripted interrupt sources for the sim backend, read from the file
 * named by FUSION_SIM_SCENARIO.  One source per line:
 *
 *   irq NAME at TIME
 *   irq NAME every TIME [jitter TIME] [seed N] [from TIME] [until TIME]
 *   irq NAME poisson mean TIME [seed N] [from TIME] [until TIME]
 *
 * TIME is an integer with a unit: ns, us, ms or s.  '#' starts a
 * comment.  A source fires only while attached (ipipe_attach_source
 * with IPIPE_SRC_SCRIPT and its NAME); occurrences before that are not
 * delivered.  Jitter and Poisson draws come from a per-source seeded
 * generator, so a run is the same every time.
 */
#include "sim.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static double draw_unit(struct sim_script *s)
{
	return (double)(splitmix64(&s->state) >> 11) * 0x1.0p-53;
}

static nk_time_t draw_jitter(struct sim_script *s)
{
	uint64_t span = (uint64_t)s->jitter * 2 + 1;

	return (nk_time_t)(splitmix64(&s->state) % span) - s->jitter;
}

/* The source's next occurrence after s->last, NK_INFINITE at its end. */
static nk_time_t script_step(struct sim_script *s)
{
	nk_time_t date;

	switch (s->kind) {
	case SCRIPT_AT:
		date = s->count == 0 ? s->from : NK_INFINITE;
		break;
	case SCRIPT_EVERY:
		if ((nk_time_t)s->count > (s->until - s->from) / s->period)
			return NK_INFINITE;
		date = s->from + (nk_time_t)s->count * s->period;
		if (s->jitter)
			date += draw_jitter(s);
		/* Jitter never moves an occurrence before the previous one. */
		if (date < s->from)
			date = s->from;
		if (s->count && date < s->last)
			date = s->last;
		if (date > s->until)
			date = s->until;
		break;
	case SCRIPT_POISSON:
		date = (s->count ? s->last : s->from) +
		       (nk_time_t)ceil(-(double)s->period *
				       log(1.0 - draw_unit(s)));
		if (date > s->until)
			return NK_INFINITE;
		break;
	default:
		return NK_INFINITE;
	}
	s->count++;
	s->last = date;
	return date;
}

static int parse_time(const char *word, nk_time_t *out)
{
	static const struct {
		const char *unit;
		nk_time_t ns;
	} units[] = {
	    {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
	char *end;
	long long v;

	if (word == NULL || !isdigit((unsigned char)word[0]))
		return -EINVAL;
	errno = 0;
	v = strtoll(word, &end, 10);
	if (errno)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit) == 0) {
			if (v > INT64_MAX / units[i].ns)
				return -EINVAL;
			*out = (nk_time_t)v * units[i].ns;
			return 0;
		}
	}
	return -EINVAL;
}

/* Options after the kind: "jitter T", "seed N", "from T", "until T". */
static const char *parse_options(struct sim_script *s, char **save,
				 bool jitter_allowed)
{
	char *key;

	while ((key = strtok_r(NULL, " \t", save)) != NULL) {
		char *value = strtok_r(NULL, " \t", save);

		if (value == NULL)
			return "option without a value";
		if (strcmp(key, "seed") == 0) {
			char *end;

			s->seed = strtoull(value, &end, 10);
			if (*end || !isdigit((unsigned char)value[0]))
				return "bad seed";
		} else if (strcmp(key, "jitter") == 0 && jitter_allowed) {
			if (parse_time(value, &s->jitter))
				return "bad time";
		} else if (strcmp(key, "from") == 0) {
			if (parse_time(value, &s->from))
				return "bad time";
		} else if (strcmp(key, "until") == 0) {
			if (parse_time(value, &s->until))
				return "bad time";
		} else {
			return "unknown option";
		}
	}
	return NULL;
}

static const char *parse_line(struct sim *sim, char *line, struct sim_script *s)
{
	char *save, *word, *name, *kind;

	word = strtok_r(line, " \t", &save);
	if (word == NULL)
		return NULL;
	if (strcmp(word, "irq") != 0)
		return "expected 'irq'";
	name = strtok_r(NULL, " \t", &save);
	kind = strtok_r(NULL, " \t", &save);
	if (name == NULL || kind == NULL)
		return "expected 'irq NAME at|every|poisson ...'";
	if (strlen(name) >= NK_NAME_MAX)
		return "name too long";
	for (int i = 0; i < sim->nr_scripts; i++)
		if (strcmp(sim->scripts[i].name, name) == 0)
			return "name already used";
	strcpy(s->name, name);
	s->until = NK_INFINITE;
	s->seed = 1;
	if (strcmp(kind, "at") == 0) {
		s->kind = SCRIPT_AT;
		if (parse_time(strtok_r(NULL, " \t", &save), &s->from))
			return "bad time";
		if (strtok_r(NULL, " \t", &save))
			return "unexpected words after the date";
		return NULL;
	}
	if (strcmp(kind, "every") == 0) {
		s->kind = SCRIPT_EVERY;
	} else if (strcmp(kind, "poisson") == 0) {
		s->kind = SCRIPT_POISSON;
		word = strtok_r(NULL, " \t", &save);
		if (word == NULL || strcmp(word, "mean") != 0)
			return "expected 'poisson mean TIME'";
	} else {
		return "unknown kind (at, every, poisson)";
	}
	if (parse_time(strtok_r(NULL, " \t", &save), &s->period) ||
	    s->period == 0)
		return "bad period";
	word = (char *)parse_options(s, &save, s->kind == SCRIPT_EVERY);
	if (word)
		return word;
	if (s->jitter >= s->period)
		return "jitter must be below the period";
	if (s->until < s->from)
		return "'until' before 'from'";
	return NULL;
}

int sim_scenario_load(struct sim *sim, const char *path)
{
	char *buf = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "r");
	int lineno = 0, ret = 0;

	if (f == NULL) {
		ret = -errno;
		fprintf(stderr, "fusion-sim: %s: %s\n", path, strerror(-ret));
		return ret;
	}
	while (ret == 0 && getline(&buf, &cap, f) >= 0) {
		struct sim_script s = {.irq = -1, .next = NK_INFINITE};
		char *hash = strchr(buf, '#');
		const char *err;

		lineno++;
		if (hash)
			*hash = '\0';
		buf[strcspn(buf, "\r\n")] = '\0';
		err = parse_line(sim, buf, &s);
		if (err == NULL && s.name[0]) {
			struct sim_script *grown =
			    realloc(sim->scripts,
				    sizeof(s) * (size_t)(sim->nr_scripts + 1));

			if (grown == NULL) {
				ret = -ENOMEM;
				break;
			}
			sim->scripts = grown;
			sim->scripts[sim->nr_scripts++] = s;
		} else if (err) {
			fprintf(stderr, "fusion-sim: %s:%d: %s\n", path, lineno,
				err);
			ret = -EINVAL;
		}
	}
	free(buf);
	fclose(f);
	return ret;
}

void sim_scenario_free(struct sim *sim)
{
	free(sim->scripts);
	sim->scripts = NULL;
	sim->nr_scripts = 0;
}

int sim_scenario_attach(struct sim *sim, int cpu, unsigned int irq,
			const char *name)
{
	for (int i = 0; i < sim->nr_scripts; i++) {
		struct sim_script *s = &sim->scripts[i];

		if (strcmp(s->name, name) != 0)
			continue;
		if (s->irq >= 0)
			return -EEXIST;
		s->irq = (int)irq;
		s->cpu = cpu;
		s->count = 0;
		s->state = s->seed;
		/* Occurrences before the attachment are never seen. */
		do
			s->next = script_step(s);
		while (s->next < sim->now);
		return 0;
	}
	return -ENOENT;
}

void sim_scenario_detach(struct sim *sim, unsigned int irq)
{
	for (int i = 0; i < sim->nr_scripts; i++)
		if (sim->scripts[i].irq == (int)irq)
			sim->scripts[i].irq = -1;
}

nk_time_t sim_scenario_next(struct sim *sim, int *which)
{
	nk_time_t next = NK_INFINITE;

	for (int i = 0; i < sim->nr_scripts; i++) {
		struct sim_script *s = &sim->scripts[i];

		if (s->irq >= 0 && s->next < next) {
			next = s->next;
			*which = i;
		}
	}
	return next;
}

void sim_scenario_fire(struct sim *sim, int which)
{
	struct sim_script *s = &sim->scripts[which];
	unsigned int irq = (unsigned int)s->irq;

	s->next = script_step(s);
	sim->handlers->irq(sim->nk, s->cpu, irq);
}
