/* SPDX-License-Identifier: MIT */
/*
 * Scripted interrupt sources for the sim backend, read from the file
 * named by FUSION_SIM_SCENARIO.  One source per line:
 *
 *   irq NAME at TIME
 *   irq NAME every TIME [jitter TIME] [seed N] [from TIME] [until TIME]
 *   irq NAME poisson mean TIME [seed N] [from TIME] [until TIME]
 *
 * TIME is an integer with a unit: ns, us, ms or s, at most 1000000000s;
 * a period or a mean is at least 1us.  '#' starts a comment.  The file
 * is a regular file of at most 1 MiB, lines of at most 4096 bytes, no
 * NUL; anything else is refused with "FILE:LINE: why" on stderr.  A
 * source fires only while attached (ipipe_attach_source with
 * IPIPE_SRC_SCRIPT and its NAME); occurrences before that are not
 * delivered.  Jitter and Poisson draws come from a per-source seeded
 * generator, so a run is the same every time.
 */
#include "sim.h"

#include <fusion/pipeline.h>

#include <ctype.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Bounds on what a scenario may ask, each refused beyond with its
 * reason: a hand-written file, dates far enough from overflow that the
 * arithmetic below stays simple, and no device faster than 1 us (a
 * shorter period would make a run all interrupts).
 */
#define SCENARIO_MAX_BYTES (1024 * 1024)
#define SCENARIO_MAX_LINE 4096
#define SCENARIO_MAX_TIME 1000000000000000000LL /* ns: 1e9 s */
#define SCENARIO_MIN_PERIOD 1000LL		/* ns */
#define SCENARIO_MAX_SOURCES (IPIPE_FIRST_VIRQ - IPIPE_FIRST_SOURCE_IRQ)

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
	nk_time_t date, base, jitter;
	double step;

	switch (s->kind) {
	case SCRIPT_AT:
		date = s->count == 0 ? s->from : NK_INFINITE;
		break;
	case SCRIPT_EVERY:
		if ((nk_time_t)s->count > (s->until - s->from) / s->period)
			return NK_INFINITE;
		/* At most until: no overflow. */
		date = s->from + (nk_time_t)s->count * s->period;
		jitter = s->jitter ? draw_jitter(s) : 0;
		date =
		    jitter > NK_INFINITE - date ? NK_INFINITE : date + jitter;
		/* Jitter never moves an occurrence before the previous one. */
		if (date < s->from)
			date = s->from;
		if (s->count && date < s->last)
			date = s->last;
		if (date > s->until)
			date = s->until;
		break;
	case SCRIPT_POISSON:
		base = s->count ? s->last : s->from;
		step = ceil(-(double)s->period * log(1.0 - draw_unit(s)));
		/* A draw past until ends the source; one past 2^63 ns would
		 * not even convert. */
		if (step >= 0x1p63 || (nk_time_t)step > s->until - base)
			return NK_INFINITE;
		date = base + (nk_time_t)step;
		break;
	default:
		return NK_INFINITE;
	}
	s->count++;
	s->last = date;
	return date;
}

static const char *parse_time(const char *word, nk_time_t *out)
{
	static const struct {
		const char *unit;
		nk_time_t ns;
	} units[] = {
	    {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
	char *end;
	long long v;

	if (word == NULL || !isdigit((unsigned char)word[0]))
		return "bad time (an integer and ns, us, ms or s)";
	errno = 0;
	v = strtoll(word, &end, 10);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit) == 0) {
			if (errno || v > SCENARIO_MAX_TIME / units[i].ns)
				return "time above 1000000000s (the largest "
				       "date or duration)";
			*out = (nk_time_t)v * units[i].ns;
			return NULL;
		}
	}
	return "bad time (an integer and ns, us, ms or s)";
}

/* Options after the kind: "jitter T", "seed N", "from T", "until T". */
static const char *parse_options(struct sim_script *s, char **save,
				 bool jitter_allowed)
{
	char *key;

	while ((key = strtok_r(NULL, " \t", save)) != NULL) {
		char *value = strtok_r(NULL, " \t", save);
		nk_time_t *time;
		const char *err;

		if (value == NULL)
			return "option without a value";
		if (strcmp(key, "seed") == 0) {
			char *end;

			errno = 0;
			s->seed = strtoull(value, &end, 10);
			if (*end || !isdigit((unsigned char)value[0]) || errno)
				return "bad seed (0..18446744073709551615)";
			continue;
		}
		if (strcmp(key, "jitter") == 0 && jitter_allowed)
			time = &s->jitter;
		else if (strcmp(key, "from") == 0)
			time = &s->from;
		else if (strcmp(key, "until") == 0)
			time = &s->until;
		else
			return "unknown option";
		err = parse_time(value, time);
		if (err)
			return err;
	}
	return NULL;
}

static const char *parse_line(struct sim_script *scripts, int nr, char *line,
			      struct sim_script *s)
{
	char *save, *word, *name, *kind;
	const char *err;

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
	for (int i = 0; i < nr; i++)
		if (strcmp(scripts[i].name, name) == 0)
			return "name already used";
	if (nr == SCENARIO_MAX_SOURCES)
		return "more sources than source IRQs (448)";
	strcpy(s->name, name);
	s->until = NK_INFINITE;
	s->seed = 1;
	if (strcmp(kind, "at") == 0) {
		s->kind = SCRIPT_AT;
		err = parse_time(strtok_r(NULL, " \t", &save), &s->from);
		if (err)
			return err;
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
	err = parse_time(strtok_r(NULL, " \t", &save), &s->period);
	if (err)
		return err;
	/* Also what keeps a run's event count proportional to its length. */
	if (s->period < SCENARIO_MIN_PERIOD)
		return s->kind == SCRIPT_EVERY
			   ? "period below 1us (no device interrupts faster)"
			   : "mean below 1us (no device interrupts faster)";
	err = parse_options(s, &save, s->kind == SCRIPT_EVERY);
	if (err)
		return err;
	if (s->jitter >= s->period)
		return "jitter must be below the period";
	if (s->until < s->from)
		return "'until' before 'from'";
	return NULL;
}

/* "fusion-sim: FILE:LINE: why", or "FILE: why" for the whole file. */
static int scenario_error(const char *path, int lineno, const char *why)
{
	if (lineno)
		fprintf(stderr, "fusion-sim: %s:%d: %s\n", path, lineno, why);
	else
		fprintf(stderr, "fusion-sim: %s: %s\n", path, why);
	return -EINVAL;
}

static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "of an unknown kind";
}

/*
 * The whole of the regular file @path into *@text (NUL-terminated, its
 * length in *@len).  Opened without blocking, so that a FIFO is refused
 * rather than waited on; read up to the limit whatever its size says,
 * so that a file growing meanwhile is refused too.
 */
static int scenario_slurp(const char *path, char **text, size_t *len)
{
	char why[64];
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), err;
	ssize_t n = 0;

	if (fd < 0)
		return scenario_error(path, 0, strerror(errno));
	if (fstat(fd, &st)) {
		close(fd);
		return scenario_error(path, 0, strerror(errno));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(why, sizeof(why), "not a regular file (%s)",
			 file_kind(st.st_mode));
		return scenario_error(path, 0, why);
	}
	*text = malloc(SCENARIO_MAX_BYTES + 2);
	if (*text == NULL) {
		close(fd);
		return -ENOMEM;
	}
	*len = 0;
	while (*len <= SCENARIO_MAX_BYTES &&
	       (n = read(fd, *text + *len, SCENARIO_MAX_BYTES + 1 - *len)) > 0)
		*len += (size_t)n;
	err = n < 0 ? errno : 0;
	close(fd);
	if (err || *len > SCENARIO_MAX_BYTES) {
		free(*text);
		return scenario_error(
		    path, 0, err ? strerror(err) : "larger than 1 MiB");
	}
	(*text)[*len] = '\0';
	return 0;
}

/* Every source of the file @path, into *@out (*@nr of them). */
static int scenario_read(const char *path, struct sim_script **out, int *nr)
{
	char *text, *line;
	size_t len;
	int lineno = 0, ret = scenario_slurp(path, &text, &len);

	if (ret)
		return ret;
	for (line = text; ret == 0 && line < text + len;) {
		struct sim_script s = {.irq = -1, .next = NK_INFINITE};
		char *eol = memchr(line, '\n', (size_t)(text + len - line));
		size_t size =
		    eol ? (size_t)(eol - line) : (size_t)(text + len - line);
		const char *err;

		lineno++;
		if (size > SCENARIO_MAX_LINE) {
			err = "line longer than 4096 bytes";
		} else if (memchr(line, '\0', size)) {
			err = "NUL byte";
		} else {
			line[size] = '\0';
			line[strcspn(line, "#\r")] = '\0';
			err = parse_line(*out, *nr, line, &s);
		}
		if (err) {
			ret = scenario_error(path, lineno, err);
		} else if (s.name[0]) {
			struct sim_script *grown =
			    realloc(*out, sizeof(s) * (size_t)(*nr + 1));

			if (grown == NULL) {
				ret = -ENOMEM;
				break;
			}
			*out = grown;
			(*out)[(*nr)++] = s;
		}
		line += size + 1;
	}
	free(text);
	return ret;
}

int sim_scenario_load(struct sim *sim, const char *path)
{
	return scenario_read(path, &sim->scripts, &sim->nr_scripts);
}

int sim_scenario_check(const char *path)
{
	struct sim_script *scripts = NULL;
	int nr = 0, ret = scenario_read(path, &scripts, &nr);

	free(scripts);
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
	sim->handlers->irq(sim->nk, s->cpu, irq, sim->now);
}
