/* SPDX-License-Identifier: MIT */
/*
 * VxWorks objects across two RT CPUs (FUSION_CPUS naming two Linux
 * CPUs): messages from a producer on one CPU to a consumer on the other
 * arrive exactly once, normal ones in order (urgent ones go to the head,
 * so two queued at once come newest first); a semaphore ping-pong
 * across CPUs loses no give.  Skipped with fewer than two usable CPUs.
 */
#include "vxworks_test.h"

#define MESSAGES 50000
#define ROUNDS 20000

/* Before the first VxWorks call: the runtime reads FUSION_CPUS then. */
TEST(two_rt_cpus)
{
	int lx[2];

	test_two_rt_cpus(lx);
}

/* Move the caller to RT CPU @cpu (no VxWorks call does). */
static void to_cpu(int cpu)
{
	struct nk_instance *nk = test_runtime();

	CHECK_EQ(nk_thread_set_cpu(nk_thread_self(nk), cpu), 0);
	CHECK_EQ(nk_thread_cpu(nk_thread_self(nk)), cpu);
}

static MSG_Q_ID stream;
static SEM_ID done;
static long bad;
static bool urgent_seen[MESSAGES];

static int consumer_body(long arg)
{
	unsigned int v, next = 0;

	to_cpu((int)arg);
	for (long i = 0; i < MESSAGES; i++) {
		if (msgQReceive(stream, (char *)&v, sizeof(v), WAIT_FOREVER) !=
		    sizeof(v)) {
			bad++;
			continue;
		}
		/* Urgent ones carry the high bit and their own count. */
		if (v & 0x80000000u) {
			v &= ~0x80000000u;
			if (v >= MESSAGES || urgent_seen[v])
				bad++;
			else
				urgent_seen[v] = true;
		} else if (v != next++) {
			bad++;
		}
	}
	CHECK_EQ(msgQNumMsgs(stream), 0);
	semGive(done);
	return 0;
}

static int producer_body(long arg)
{
	unsigned int urgent = 0;

	to_cpu((int)arg);
	for (unsigned int i = 0, n = 0; n < MESSAGES; n++) {
		bool hurry = n % 7 == 3;
		unsigned int v = hurry ? 0x80000000u | urgent++ : i++;

		CHECK_EQ(msgQSend(stream, (const char *)&v, sizeof(v),
				  WAIT_FOREVER,
				  hurry ? MSG_PRI_URGENT : MSG_PRI_NORMAL),
			 OK);
	}
	return 0;
}

TEST(stream_across_cpus)
{
	stream = msgQCreate(8, sizeof(unsigned int), MSG_Q_PRIORITY);
	done = semBCreate(SEM_Q_FIFO, SEM_EMPTY);
	spawn("consumer", 20, (FUNCPTR)consumer_body, 1);
	spawn("producer", 30, (FUNCPTR)producer_body, 0);
	CHECK_EQ(semTake(done, WAIT_FOREVER), OK);
	CHECK_EQ(bad, 0);
	CHECK_EQ(msgQDelete(stream), OK);
	CHECK_EQ(semDelete(done), OK);
}

static SEM_ID ping, pong;
static long pongs;

static int ponger_body(long arg)
{
	to_cpu((int)arg);
	for (int i = 0; i < ROUNDS; i++) {
		CHECK_EQ(semTake(ping, WAIT_FOREVER), OK);
		pongs++;
		CHECK_EQ(semGive(pong), OK);
	}
	return 0;
}

TEST(ping_pong_across_cpus)
{
	ping = semBCreate(SEM_Q_PRIORITY, SEM_EMPTY);
	pong = semCCreate(SEM_Q_FIFO, 0);
	to_cpu(0);
	spawn("ponger", 10, (FUNCPTR)ponger_body, 1);
	for (int i = 0; i < ROUNDS; i++) {
		CHECK_EQ(semGive(ping), OK);
		CHECK_EQ(semTake(pong, WAIT_FOREVER), OK);
	}
	CHECK_EQ(pongs, ROUNDS);
	CHECK_FAIL(semTake(pong, NO_WAIT), S_objLib_OBJ_UNAVAILABLE);
	CHECK_EQ(semDelete(ping), OK);
	CHECK_EQ(semDelete(pong), OK);
}

TESTS(T(two_rt_cpus), T(stream_across_cpus), T(ping_pong_across_cpus));
