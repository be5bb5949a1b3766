/* SPDX-License-Identifier: MIT */
/*
 * The process runtime: option parsing (what is consumed, what is kept,
 * what is refused) and the shared instance it creates.
 */
#include "harness.h"

#include <fusion/fusion.h>

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

/* The highest Linux CPU this process may use. */
static int last_cpu(void)
{
	cpu_set_t set;
	int cpu = CPU_SETSIZE - 1;

	CHECK_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
	while (cpu > 0 && !CPU_ISSET(cpu, &set))
		cpu--;
	return cpu;
}

TEST(bad_arguments)
{
	char *argv[] = {"prog", NULL};
	int argc = 1, negative = -1;

	CHECK_EQ(fusion_runtime(NULL), -EINVAL);
	CHECK_EQ(fusion_runtime_options(NULL, argv), -EINVAL);
	CHECK_EQ(fusion_runtime_options(&argc, NULL), -EINVAL);
	CHECK_EQ(fusion_runtime_options(&negative, argv), -EINVAL);
}

TEST(bad_values_are_refused)
{
	static const char *const bad[] = {
	    "--backend=foo",	   "--backend=",
	    "--cpu-affinity=",	   "--sim-log=",
	    "--cpu-affinity=x",	   "--cpu-affinity=0,0",
	    "--cpu-affinity=1023", "--sim-log=/nonexistent/log"};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *argv[] = {"prog", (char *)bad[i], NULL};
		int argc = 2;

		CHECK_EQ(fusion_runtime_options(&argc, argv), -EINVAL);
	}
}

TEST(options_are_consumed_up_to_double_dash)
{
	char affinity[32], cpu[16];
	char *argv[] = {"prog", "--backend=sim", "x", affinity, "--unknown",
			"--",	"--no-rt",	 NULL};
	int argc = 7;

	snprintf(cpu, sizeof(cpu), "%d", last_cpu());
	snprintf(affinity, sizeof(affinity), "--cpu-affinity=%s", cpu);

	unsetenv("FUSION_NO_RT");
	CHECK_EQ(fusion_runtime_options(&argc, argv), 0);
	CHECK_EQ(argc, 5);
	CHECK_STR(argv[1], "x");
	CHECK_STR(argv[2], "--unknown");
	CHECK_STR(argv[3], "--");
	CHECK_STR(argv[4], "--no-rt");
	CHECK(argv[5] == NULL);
	CHECK_STR(getenv("FUSION_BACKEND"), "sim");
	CHECK_STR(getenv("FUSION_CPUS"), cpu);
	CHECK(getenv("FUSION_NO_RT") == NULL);
}

TEST(one_instance_with_main_below_every_skin)
{
	struct nk_instance *nk, *again;
	struct nk_thread *self;

	CHECK_EQ(fusion_runtime(&nk), 0);
	CHECK_STR(nk_instance_backend(nk), "sim");
	self = nk_thread_self(nk);
	CHECK(self != NULL);
	CHECK_STR(nk_thread_name(self), "main");
	CHECK_EQ(nk_thread_priority(self), 0);
	CHECK_EQ(fusion_runtime(&again), 0);
	CHECK(again == nk);
	/* One RT CPU, on the CPU of --cpu-affinity above. */
	CHECK_EQ(nk_instance_nr_cpus(nk), 1);
	CHECK_EQ(fusion_runtime_cpu(last_cpu()), 0);
	CHECK_EQ(fusion_runtime_cpu(last_cpu() + 1), -EINVAL);
	CHECK_EQ(fusion_runtime_cpu(-1), -EINVAL);
}

TEST(options_are_checked)
{
	CHECK_EQ(fusion_runtime_check(), 0);
	CHECK_EQ(setenv("FUSION_WATCHDOG_MS", "12x", 1), 0);
	CHECK_EQ(fusion_runtime_check(), -EINVAL);
	CHECK_EQ(setenv("FUSION_WATCHDOG_MS", "3600000", 1), 0);
	CHECK_EQ(fusion_runtime_check(), 0);
	CHECK_EQ(unsetenv("FUSION_WATCHDOG_MS"), 0);
}

TESTS(T(bad_arguments), T(bad_values_are_refused),
      T(options_are_consumed_up_to_double_dash),
      T(one_instance_with_main_below_every_skin), T(options_are_checked));
