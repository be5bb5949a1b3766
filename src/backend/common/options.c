/* SPDX-License-Identifier: MIT */
/*
 * The framework options table: see options.h.  A parser fills its field
 * of struct be_options, or says in @why what is wrong with the value and
 * what is allowed; the caller names the option and the value.
 */
#include "options.h"
#include "duration.h"
#include "../sim/sim.h"
#include "../../session/session.h"

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WHY_MAX 256

typedef int (*be_option_parse)(const char *value, struct be_options *o,
			       char *why, size_t len);

struct be_option {
	const char *env;
	const char *arg;  /* command-line form; with '=' it takes a value */
	const char *meta; /* what the value looks like, for the help */
	const char *def;  /* parsed when unset; NULL: the field stays 0 */
	be_option_parse parse;
	const char *help;
};

static int parse_backend(const char *value, struct be_options *o, char *why,
			 size_t len)
{
	if (strcmp(value, "live") != 0 && strcmp(value, "sim") != 0) {
		snprintf(why, len, "unknown backend (allowed: live, sim)");
		return -EINVAL;
	}
	o->backend = value;
	return 0;
}

/* "2", "0,1", "1-3,5" into @set; -EINVAL on anything else. */
static int parse_cpu_list(const char *spec, int *cpus, int max, int *count)
{
	const char *p = spec;

	*count = 0;
	while (*p) {
		char *end;
		long first, last;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		first = strtol(p, &end, 10);
		last = first;
		p = end;
		if (*p == '-') {
			if (p[1] < '0' || p[1] > '9')
				return -EINVAL;
			last = strtol(p + 1, &end, 10);
			p = end;
		}
		if (first >= CPU_SETSIZE || last >= CPU_SETSIZE || last < first)
			return -EINVAL;
		for (long cpu = first; cpu <= last; cpu++) {
			if (*count == max)
				return -E2BIG;
			cpus[(*count)++] = (int)cpu;
		}
		if (*p == ',' && p[1] != '\0')
			p++;
		else if (*p)
			return -EINVAL;
	}
	return *count ? 0 : -EINVAL;
}

/* @set as "0-1,4", for messages. */
static void format_cpu_set(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int cpu = 0; cpu < CPU_SETSIZE && used < len; cpu++) {
		int last = cpu;

		if (!CPU_ISSET(cpu, set))
			continue;
		while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
			last++;
		used += (size_t)snprintf(buf + used, len - used,
					 last > cpu ? "%s%d-%d" : "%s%d",
					 used ? "," : "", cpu, last);
		cpu = last;
	}
	if (buf[0] == '\0')
		snprintf(buf, len, "none");
}

/* Online Linux CPUs, from sysfs; the affinity mask if sysfs is absent. */
static void online_cpus(cpu_set_t *set, const cpu_set_t *allowed)
{
	char line[1024];
	int cpus[CPU_SETSIZE], count;
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");

	*set = *allowed;
	if (f == NULL)
		return;
	if (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (parse_cpu_list(line, cpus, CPU_SETSIZE, &count) == 0) {
			CPU_ZERO(set);
			for (int i = 0; i < count; i++)
				CPU_SET(cpus[i], set);
		}
	}
	fclose(f);
}

static int parse_cpus(const char *value, struct be_options *o, char *why,
		      size_t len)
{
	cpu_set_t allowed, online, seen;
	char list[128];
	int ret;

	ret = parse_cpu_list(value, o->cpus, NK_MAX_CPUS, &o->nr_cpus);
	if (ret == -E2BIG) {
		snprintf(why, len, "more than %d CPUs", NK_MAX_CPUS);
		return -EINVAL;
	}
	if (ret) {
		snprintf(why, len,
			 "not a list of CPUs (e.g. 1, 0,1 or 2-3; below %d)",
			 CPU_SETSIZE);
		return -EINVAL;
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		snprintf(why, len, "cannot read the CPU affinity: %s",
			 strerror(errno));
		return -EINVAL;
	}
	online_cpus(&online, &allowed);
	CPU_ZERO(&seen);
	for (int i = 0; i < o->nr_cpus; i++) {
		int cpu = o->cpus[i];

		if (!CPU_ISSET(cpu, &online)) {
			format_cpu_set(&online, list, sizeof(list));
			snprintf(why, len, "CPU %d is not online (online: %s)",
				 cpu, list);
			return -EINVAL;
		}
		if (!CPU_ISSET(cpu, &allowed)) {
			format_cpu_set(&allowed, list, sizeof(list));
			snprintf(why, len,
				 "CPU %d is not in the process's affinity "
				 "(allowed: %s)",
				 cpu, list);
			return -EINVAL;
		}
		if (CPU_ISSET(cpu, &seen)) {
			snprintf(why, len, "CPU %d is listed twice", cpu);
			return -EINVAL;
		}
		CPU_SET(cpu, &seen);
	}
	return 0;
}

/* The file may not exist yet: its directory must be writable. */
static int parse_sim_log(const char *value, struct be_options *o, char *why,
			 size_t len)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(value, '/');
	struct stat st;

	if (stat(value, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(why, len, "a directory, not a file");
		return -EINVAL;
	}
	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s",
			 slash == value ? 1 : (int)(slash - value), value);
	if (access(dir, W_OK)) {
		snprintf(why, len, "cannot create the file: %s",
			 strerror(errno));
		return -EINVAL;
	}
	o->sim_log = value;
	return 0;
}

static int parse_sim_scenario(const char *value, struct be_options *o,
			      char *why, size_t len)
{
	if (access(value, R_OK)) {
		snprintf(why, len, "cannot read the file: %s", strerror(errno));
		return -EINVAL;
	}
	/* The file's own error names its line. */
	if (sim_scenario_check(value)) {
		why[0] = '\0';
		return -EINVAL;
	}
	o->sim_scenario = value;
	return 0;
}

static int parse_sim_control(const char *value, struct be_options *o, char *why,
			     size_t len)
{
	struct stat st;
	char *end;
	long fd;

	errno = 0;
	fd = strtol(value, &end, 10);
	if (value[0] < '0' || value[0] > '9' || *end || errno || fd > INT_MAX ||
	    fstat((int)fd, &st) || !S_ISSOCK(st.st_mode)) {
		snprintf(why, len,
			 "not a socket descriptor (fusion sim sets it)");
		return -EINVAL;
	}
	o->sim_controlled = true;
	o->sim_control_fd = (int)fd;
	return 0;
}

static int parse_sim_cost(const char *value, struct be_options *o, char *why,
			  size_t len)
{
	if (strcmp(value, "measured") == 0) {
		o->sim_cost_measured = true;
		return 0;
	}
	if (be_parse_duration(value, &o->sim_cost)) {
		snprintf(why, len,
			 "not a duration (e.g. 2us, 500ns, 0: no cost) nor "
			 "measured");
		return -EINVAL;
	}
	return 0;
}

static int parse_sim_livelock(const char *value, struct be_options *o,
			      char *why, size_t len)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(value, &end, 10);
	if (value[0] < '1' || value[0] > '9' || *end || errno) {
		snprintf(why, len, "not a number of events (1 or more)");
		return -EINVAL;
	}
	o->sim_livelock = n;
	return 0;
}

static int parse_watchdog(const char *value, struct be_options *o, char *why,
			  size_t len)
{
	char *end;
	long ms;

	errno = 0;
	ms = strtol(value, &end, 10);
	if (value[0] < '0' || value[0] > '9' || *end || errno ||
	    ms > BE_WATCHDOG_MAX_MS) {
		snprintf(why, len,
			 "not a number of milliseconds (0..%d, 0: none)",
			 BE_WATCHDOG_MAX_MS);
		return -EINVAL;
	}
	o->watchdog_ms = ms;
	return 0;
}

/* "LO-HI", 1 <= LO <= HI <= BE_FIFO_MAX, nothing else. */
static int parse_fifo_range(const char *value, struct be_options *o, char *why,
			    size_t len)
{
	const char *p = value;
	long bound[2];

	for (int i = 0; i < 2; i++) {
		char *end = NULL;

		errno = 0;
		bound[i] = *p >= '0' && *p <= '9' ? strtol(p, &end, 10) : -1;
		if (bound[i] < 1 || bound[i] > BE_FIFO_MAX || errno ||
		    *end != (i == 0 ? '-' : '\0'))
			goto bad;
		p = end + 1;
	}
	if (bound[0] > bound[1])
		goto bad;
	o->fifo_lo = (int)bound[0];
	o->fifo_hi = (int)bound[1];
	return 0;
bad:
	snprintf(why, len,
		 "not a range LO-HI of SCHED_FIFO priorities (1 <= LO <= HI "
		 "<= %d)",
		 BE_FIFO_MAX);
	return -EINVAL;
}

static int parse_bool(const char *value, bool *out, char *why, size_t len)
{
	if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0) {
		snprintf(why, len, "not a boolean (allowed: 0, 1)");
		return -EINVAL;
	}
	*out = value[0] == '1';
	return 0;
}

static int parse_no_rt(const char *value, struct be_options *o, char *why,
		       size_t len)
{
	return parse_bool(value, &o->no_rt, why, len);
}

static int parse_no_sud(const char *value, struct be_options *o, char *why,
			size_t len)
{
	return parse_bool(value, &o->no_sud, why, len);
}

static int parse_session(const char *value, struct be_options *o, char *why,
			 size_t len)
{
	if (!session_name_valid(value)) {
		snprintf(why, len,
			 "not a session name (1 to %d of A-Z a-z 0-9 _ . -, "
			 "not starting with '.')",
			 FUSION_SESSION_NAME_MAX - 1);
		return -EINVAL;
	}
	o->session = value;
	return 0;
}

static int parse_session_size(const char *value, struct be_options *o,
			      char *why, size_t len)
{
	char *end;
	long mib;

	errno = 0;
	mib = strtol(value, &end, 10);
	if (value[0] < '0' || value[0] > '9' || *end || errno || mib < 1 ||
	    mib > BE_SESSION_MAX_MIB) {
		snprintf(why, len, "not a size in MiB (1..%d)",
			 BE_SESSION_MAX_MIB);
		return -EINVAL;
	}
	o->session_size = (uint64_t)mib << 20;
	return 0;
}

static int parse_session_base(const char *value, struct be_options *o,
			      char *why, size_t len)
{
	unsigned long long base;
	char *end;

	errno = 0;
	base = strtoull(value, &end, 16);
	if (strncmp(value, "0x", 2) != 0 || *end || errno || base == 0 ||
	    base % (unsigned long long)sysconf(_SC_PAGESIZE)) {
		snprintf(why, len, "not a page-aligned address 0x...");
		return -EINVAL;
	}
	o->session_base = base;
	return 0;
}

static int parse_session_group(const char *value, struct be_options *o,
			       char *why, size_t len)
{
	struct group *gr = getgrnam(value);

	if (gr == NULL) {
		snprintf(why, len, "no such group");
		return -EINVAL;
	}
	o->session_group = true;
	o->session_gid = gr->gr_gid;
	return 0;
}

static int parse_session_persist(const char *value, struct be_options *o,
				 char *why, size_t len)
{
	return parse_bool(value, &o->session_persist, why, len);
}

static int parse_trace(const char *value, struct be_options *o, char *why,
		       size_t len)
{
	return trace_config_parse(value, &o->trace, why, len);
}

static int parse_vxworks_clk_rate(const char *value, struct be_options *o,
				  char *why, size_t len)
{
	char *end;
	long hz;

	errno = 0;
	hz = strtol(value, &end, 10);
	if (value[0] < '0' || value[0] > '9' || *end || errno || hz < 1 ||
	    hz > BE_VXWORKS_CLK_MAX) {
		snprintf(why, len, "not a clock rate in Hz (1..%d)",
			 BE_VXWORKS_CLK_MAX);
		return -EINVAL;
	}
	o->vxworks_clk_rate = (int)hz;
	return 0;
}

static const struct be_option options[BE_OPT_NR] = {
    [BE_OPT_BACKEND] = {"FUSION_BACKEND", "--backend=", "live|sim", NULL,
			parse_backend, "backend to run on (default live)"},
    [BE_OPT_CPUS] = {"FUSION_CPUS", "--cpu-affinity=", "LIST", NULL, parse_cpus,
		     "Linux CPUs of the RT CPUs, e.g. 1, 0,1 or 2-3 "
		     "(default: the last one allowed)"},
    [BE_OPT_SIM_LOG] = {"FUSION_SIM_LOG", "--sim-log=", "FILE", NULL,
			parse_sim_log, "sim: write the event log to FILE"},
    [BE_OPT_SIM_SCENARIO] = {"FUSION_SIM_SCENARIO", NULL, "FILE", NULL,
			     parse_sim_scenario,
			     "sim: scripted interrupts from FILE"},
    [BE_OPT_SIM_CONTROL] = {"FUSION_SIM_CONTROL", NULL, "FD", NULL,
			    parse_sim_control,
			    "sim: the control socket of fusion sim's agent "
			    "(set by fusion sim)"},
    [BE_OPT_SIM_COST] =
	{"FUSION_SIM_COST", "--sim-cost=", "DURATION|measured", NULL,
	 parse_sim_cost,
	 "sim: virtual CPU time each service call takes "
	 "(default 0; measured: the host's, not deterministic)"},
    [BE_OPT_SIM_LIVELOCK] = {"FUSION_SIM_LIVELOCK", NULL, "EVENTS", "1000000",
			     parse_sim_livelock,
			     "sim: events at one virtual date reported as a "
			     "livelock (default 1000000)"},
    [BE_OPT_WATCHDOG_MS] = {"FUSION_WATCHDOG_MS", NULL, "0..3600000", "4000",
			    parse_watchdog,
			    "live: demote a thread that holds its CPU this "
			    "long (default 4000, 0: none)"},
    [BE_OPT_FIFO_RANGE] = {"FUSION_FIFO_RANGE", "--fifo-range=", "LO-HI",
			   "1-98", parse_fifo_range,
			   "live: SCHED_FIFO priorities of RT threads: nucleus "
			   "priority p runs at LO+p-1, at most HI (Alchemy N "
			   "at N); interrupt threads at HI+1"},
    [BE_OPT_NO_RT] = {"FUSION_NO_RT", "--no-rt", "0|1", "0", parse_no_rt,
		      "live: no SCHED_FIFO"},
    [BE_OPT_NO_SUD] = {"FUSION_NO_SUD", NULL, "0|1", "0", parse_no_sud,
		       "live: no automatic relax on stray system calls"},
    [BE_OPT_SESSION] = {"FUSION_SESSION", "--session=", "NAME", NULL,
			parse_session,
			"join (or create) the session NAME, shared with other "
			"processes (live only)"},
    [BE_OPT_SESSION_SIZE] = {"FUSION_SESSION_SIZE", NULL, "MIB", "16",
			     parse_session_size,
			     "size in MiB of a session this process creates"},
    [BE_OPT_SESSION_BASE] = {"FUSION_SESSION_BASE", NULL, "0xADDR", NULL,
			     parse_session_base,
			     "address of a session this process creates, in "
			     "every member"},
    [BE_OPT_SESSION_GROUP] = {"FUSION_SESSION_GROUP", NULL, "GROUP", NULL,
			      parse_session_group,
			      "group allowed to join a session this process "
			      "creates (default: its user only)"},
    [BE_OPT_SESSION_PERSIST] = {"FUSION_SESSION_PERSIST", NULL, "0|1", "0",
				parse_session_persist,
				"a session this process creates stays when its "
				"last member leaves"},
    [BE_OPT_TRACE] = {"FUSION_TRACE", "--trace=", "WHAT", NULL, parse_trace,
		      "record a CTF trace: categories (sched, thread, mode, "
		      "irq, timer, service, mark; all) and flight, signal, "
		      "size=MIB, out=DIR, latency=US, lttng (fusion(1))"},
    [BE_OPT_VXWORKS_CLK_RATE] =
	{"FUSION_VXWORKS_CLK_RATE", NULL, "HZ", "60", parse_vxworks_clk_rate,
	 "VxWorks: ticks per second of the system clock "
	 "at start (sysClkRateSet changes it)"},
};

/*
 * Parse @value of @opt; on error print the line naming it as @name,
 * unless the parser printed a line of its own and left @why empty.
 */
static int option_parse(const struct be_option *opt, const char *name,
			const char *value, struct be_options *o)
{
	char why[WHY_MAX];

	if (opt->parse(value, o, why, sizeof(why)) == 0)
		return 0;
	if (why[0] != '\0')
		fprintf(stderr, "fusion: %s%s%s: %s\n", name,
			name[strlen(name) - 1] == '=' ? "" : "=", value, why);
	return -EINVAL;
}

int be_default_cpus(int *cpus, int nr)
{
	cpu_set_t set;
	int count = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	for (int cpu = CPU_SETSIZE - 1; cpu >= 0 && count < nr; cpu--)
		if (CPU_ISSET(cpu, &set))
			cpus[count++] = cpu;
	return count == nr ? count : -EINVAL;
}

int be_option_get(enum be_option_id id, struct be_options *opts)
{
	const struct be_option *opt;
	const char *value;

	if ((unsigned int)id >= BE_OPT_NR)
		return -EINVAL;
	opt = &options[id];
	value = getenv(opt->env);
	if (value == NULL || value[0] == '\0')
		return opt->def ? option_parse(opt, opt->env, opt->def, opts)
				: 0;
	return option_parse(opt, opt->env, value, opts);
}

int be_options_check(void)
{
	struct be_options o = {0};

	for (int id = 0; id < BE_OPT_NR; id++)
		if (be_option_get(id, &o))
			return -EINVAL;
	return 0;
}

int be_option_apply_arg(const char *arg, bool *matched)
{
	struct be_options o = {0};

	*matched = false;
	for (int id = 0; id < BE_OPT_NR; id++) {
		const struct be_option *opt = &options[id];
		size_t len;
		bool takes_value;
		const char *value;

		if (opt->arg == NULL)
			continue;
		len = strlen(opt->arg);
		takes_value = opt->arg[len - 1] == '=';
		if (takes_value ? strncmp(arg, opt->arg, len) != 0
				: strcmp(arg, opt->arg) != 0)
			continue;
		*matched = true;
		value = takes_value ? arg + len : "1";
		if (value[0] == '\0') {
			fprintf(stderr,
				"fusion: %s: a value is needed (%s%s)\n", arg,
				opt->arg, opt->meta);
			return -EINVAL;
		}
		if (option_parse(opt, opt->arg, value, &o))
			return -EINVAL;
		return setenv(opt->env, value, 1) ? -errno : 0;
	}
	return 0;
}

void be_options_help(FILE *out)
{
	for (int id = 0; id < BE_OPT_NR; id++) {
		const struct be_option *opt = &options[id];
		char form[64];

		if (opt->arg && opt->arg[strlen(opt->arg) - 1] == '=')
			snprintf(form, sizeof(form), "%s%s", opt->arg,
				 opt->meta);
		else
			snprintf(form, sizeof(form), "%s",
				 opt->arg ? opt->arg : "");
		fprintf(out, "  %-22s %-20s %s\n", form, opt->env, opt->help);
	}
}
