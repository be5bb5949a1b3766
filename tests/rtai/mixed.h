/* SPDX-License-Identifier: MIT */
/* What the Alchemy unit of test_mixed offers the RTAI one: plain C
 * types only, as neither sees the other's headers. */
#ifndef RTAI_TEST_MIXED_H
#define RTAI_TEST_MIXED_H

/* Create, take and delete an Alchemy semaphore: 0 and the count left
 * (1), or the first error. */
int alchemy_side_sem(unsigned long *count);
/* Sleep 1 ms with Alchemy's rt_task_sleep: 0 and the time slept. */
int alchemy_side_task(unsigned long long *slept);
/* Run @fn(@arg) once in an Alchemy alarm handler (interrupt context),
 * 1 ms from now, and wait for it: 0, or an Alchemy error. */
int alchemy_side_in_handler(void (*fn)(void *arg), void *arg);

#endif
