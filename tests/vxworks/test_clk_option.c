/* SPDX-License-Identifier: MIT */
/*
 * FUSION_VXWORKS_CLK_RATE: the system clock's rate at start, as a BSP
 * configures it; sysClkRateSet changes it from there.
 */
#include "vxworks_test.h"

#include <stdlib.h>

TEST(clock_starts_at_the_configured_rate)
{
	nk_time_t d0;

	CHECK_EQ(setenv("FUSION_VXWORKS_CLK_RATE", "250", 1), 0);
	CHECK_EQ(sysClkRateGet(), 250);
	CHECK_EQ(taskDelay(1), OK);
	d0 = now_ns();
	CHECK_EQ(taskDelay(25), OK);
	if (on_sim())
		CHECK_EQ(now_ns() - d0, 100 * MS);
	CHECK_EQ(sysClkRateSet(50), OK);
	CHECK_EQ(sysClkRateGet(), 50);
}

TESTS(T(clock_starts_at_the_configured_rate));
