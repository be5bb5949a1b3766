/*
 * The process-wide nucleus instance shared by the skins.  Created once;
 * destroyed at exit when the creating thread is the one exiting, so that
 * a program that returns from main leaves no shadow behind.
 */
#include <fusion/instance.h>
#include <fusion/runtime.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t runtime_once = PTHREAD_ONCE_INIT;
static struct nk_instance *runtime_nk;
static int runtime_error;

static void runtime_exit(void)
{
	/* -EPERM when exit() runs in another thread: the process ends
	 * anyway and the backend's own exit hooks release the CPUs. */
	if (runtime_nk && nk_instance_destroy(runtime_nk) == 0)
		__atomic_store_n(&runtime_nk, NULL, __ATOMIC_RELEASE);
}

static void runtime_create(void)
{
	struct nk_instance_attr attr = {
	    .main_name = "main",
	    .main_priority = 0,
	};
	struct nk_instance *nk;

	runtime_error = nk_instance_create(&attr, &nk);
	if (runtime_error)
		return;
	/* Published for fusion_runtime_peek(), which does not wait here. */
	__atomic_store_n(&runtime_nk, nk, __ATOMIC_RELEASE);
	atexit(runtime_exit);
}

int fusion_runtime(struct nk_instance **out)
{
	if (out == NULL)
		return -EINVAL;
	pthread_once(&runtime_once, runtime_create);
	*out = runtime_nk;
	return runtime_error;
}

struct nk_instance *fusion_runtime_peek(void)
{
	return __atomic_load_n(&runtime_nk, __ATOMIC_ACQUIRE);
}

struct runtime_option {
	const char *name; /* with its trailing '=' when it takes a value */
	const char *env;
};

static const struct runtime_option runtime_options[] = {
    {"--backend=", "FUSION_BACKEND"},
    {"--cpu-affinity=", "FUSION_CPUS"},
    {"--sim-log=", "FUSION_SIM_LOG"},
    {"--no-rt", "FUSION_NO_RT"},
};

static int runtime_apply(const char *arg, bool *matched)
{
	for (size_t i = 0;
	     i < sizeof(runtime_options) / sizeof(runtime_options[0]); i++) {
		const struct runtime_option *o = &runtime_options[i];
		size_t len = strlen(o->name);
		bool takes_value = o->name[len - 1] == '=';

		if (takes_value ? strncmp(arg, o->name, len) != 0
				: strcmp(arg, o->name) != 0)
			continue;
		*matched = true;
		if (!takes_value)
			return setenv(o->env, "1", 1) ? -errno : 0;
		if (arg[len] == '\0')
			return -EINVAL;
		if (strcmp(o->env, "FUSION_BACKEND") == 0 &&
		    strcmp(arg + len, "live") != 0 &&
		    strcmp(arg + len, "sim") != 0)
			return -EINVAL;
		return setenv(o->env, arg + len, 1) ? -errno : 0;
	}
	*matched = false;
	return 0;
}

int fusion_runtime_options(int *argc, char **argv)
{
	int in, out, ret;

	if (argc == NULL || argv == NULL || *argc < 0)
		return -EINVAL;
	for (in = out = 1; in < *argc; in++) {
		bool matched;

		if (strcmp(argv[in], "--") == 0)
			break;
		ret = runtime_apply(argv[in], &matched);
		if (ret)
			return ret;
		if (!matched)
			argv[out++] = argv[in];
	}
	while (in < *argc)
		argv[out++] = argv[in++];
	argv[out] = NULL;
	*argc = out;
	return 0;
}
