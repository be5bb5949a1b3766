/* SPDX-License-Identifier: MIT */
/*
 * pSOS events: EV_ALL and EV_ANY, what is cleared, EV_NOWAIT, a null
 * request, timeouts at exact dates, a send that preempts, bad IDs.
 */
#include "psos_test.h"

struct receiver {
	unsigned long events, flags, timeout;
	const char *name;
};

static void body_receive(void *arg)
{
	struct receiver *r = arg;
	unsigned long got = 0, ret;

	ret = ev_receive(r->events, r->flags, r->timeout, &got);
	note("%s:%lx:%lx", r->name, ret, got);
}

TEST(all_and_any)
{
	struct receiver all = {.events = 0x3, .flags = EV_ALL, .name = "all"},
			any = {.events = 0xc, .flags = EV_ANY, .name = "any"};
	unsigned long a, b;

	log_start();
	a = spawn("ALL", 10, 0, body_receive, &all);
	b = spawn("ANY", 10, 0, body_receive, &any);
	CHECK_EQ(ev_send(a, 0x1), 0);
	note("half");
	CHECK_EQ(ev_send(a, 0x12), 0);
	CHECK_EQ(ev_send(b, 0x8), 0);
	check_log("half@0 all:0:3@0 any:0:8@0");
}

TEST(pending_nowait_and_null)
{
	unsigned long self, got = 0;

	CHECK_EQ(t_ident(NULL, 0, &self), 0);
	CHECK_EQ(ev_receive(0x1, EV_NOWAIT, 0, &got), ERR_NOEVS);
	CHECK_EQ(ev_send(self, 0x5), 0);
	CHECK_EQ(ev_receive(0, 0, 0, &got), 0);
	CHECK_EQ(got, 0x5);
	CHECK_EQ(ev_receive(0x7, EV_ALL | EV_NOWAIT, 0, &got), ERR_NOEVS);
	CHECK_EQ(ev_receive(0x7, EV_ANY | EV_NOWAIT, 0, &got), 0);
	CHECK_EQ(got, 0x5);
	/* Received events are cleared. */
	CHECK_EQ(ev_receive(0, 0, 0, &got), 0);
	CHECK_EQ(got, 0);
	CHECK_EQ(ev_send(self, 0x80000001), 0);
	CHECK_EQ(ev_receive(0x80000001, EV_ALL, 0, NULL), 0);
}

TEST(timeout_exact)
{
	unsigned long got = 7;
	long long t0;

	log_start();
	t0 = ms_now();
	CHECK_EQ(ev_receive(0x1, EV_ANY, 4, &got), ERR_TIMEOUT);
	CHECK_EQ(got, 7);
	if (on_sim())
		CHECK_EQ(ms_now() - t0, 40);
}

static void body_sender(void *arg)
{
	unsigned long *target = arg;

	CHECK_EQ(tm_wkafter(2), 0);
	note("send");
	CHECK_EQ(ev_send(*target, 0x4), 0);
	note("sent");
}

TEST(send_preempts)
{
	struct receiver r = {.events = 0x4, .name = "hi"};
	unsigned long hi;

	log_start();
	hi = spawn("HI", 50, 0, body_receive, &r);
	spawn("LO", 10, 0, body_sender, &hi);
	settle(3);
	check_log("send@20 hi:0:4@20 sent@20");
}

TEST(bad_event_ids)
{
	unsigned long smid;

	for (size_t i = 1; i < NR_BAD_IDS; i++)
		CHECK_EQ(ev_send(bad_ids[i], 1), ERR_OBJID);
	CHECK_EQ(sm_create("S", 0, 0, &smid), 0);
	CHECK_EQ(ev_send(smid, 1), ERR_OBJTYPE);
	CHECK_EQ(sm_delete(smid), 0);
}

TESTS(T(all_and_any), T(pending_nowait_and_null), T(timeout_exact),
      T(send_preempts), T(bad_event_ids));
