/*
 * The process runtime: option parsing (what is consumed, what is kept,
 * what is refused) and the shared instance it creates.
 */
#include "harness.h"

#include <fusion/fusion.h>

#include <stdlib.h>

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
	    "--backend=foo", "--backend=", "--cpu-affinity=", "--sim-log="};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *argv[] = {"prog", (char *)bad[i], NULL};
		int argc = 2;

		CHECK_EQ(fusion_runtime_options(&argc, argv), -EINVAL);
	}
}

TEST(options_are_consumed_up_to_double_dash)
{
	char *argv[] = {
	    "prog", "--backend=sim", "x", "--cpu-affinity=1", "--unknown",
	    "--",   "--no-rt",	     NULL};
	int argc = 7;

	unsetenv("FUSION_NO_RT");
	CHECK_EQ(fusion_runtime_options(&argc, argv), 0);
	CHECK_EQ(argc, 5);
	CHECK_STR(argv[1], "x");
	CHECK_STR(argv[2], "--unknown");
	CHECK_STR(argv[3], "--");
	CHECK_STR(argv[4], "--no-rt");
	CHECK(argv[5] == NULL);
	CHECK_STR(getenv("FUSION_BACKEND"), "sim");
	CHECK_STR(getenv("FUSION_CPUS"), "1");
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
}

TESTS(T(bad_arguments), T(bad_values_are_refused),
      T(options_are_consumed_up_to_double_dash),
      T(one_instance_with_main_below_every_skin));
