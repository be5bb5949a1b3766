/* SPDX-License-Identifier: MIT */
/*
 * A small pSOS+ application: a sampling task woken by an every-tick
 * timer event takes a segment from a memory region for each sample and
 * queues its address; a lower-priority logging task receives them,
 * checks their order and gives the segments back; main waits for the
 * logger's "done" event and prints a summary.  Plain pSOS+ code.
 *
 * Build outside the Fusion tree:
 *   cc $(fusion-config --skin=psos --cflags) sampler.c \
 *      $(fusion-config --skin=psos --ldflags) -o sampler
 * or with pkg-config --cflags --libs fusion-psos.
 * Run: ./sampler (live, 100 ticks of 10 ms), ./sampler --backend=sim
 * (virtual time: runs in a blink).
 */
#include <psos.h>

#include <stdio.h>
#include <string.h>

#define SAMPLES 100
#define EV_TICK 0x1
#define EV_DONE 0x2

struct sample {
	unsigned long seq; /* SAMPLES: the end of the run */
	unsigned long date, time, ticks;
};

static long region_mem[1024]; /* 8 KiB: the region's memory */
static unsigned long main_tid, queue, region;
static unsigned long sent, received, out_of_order, error;

static void fail(const char *what, unsigned long err)
{
	if (err && error == 0) {
		fprintf(stderr, "sampler: %s: error 0x%lx\n", what, err);
		error = err;
	}
}

static void sampler(unsigned long a0, unsigned long a1, unsigned long a2,
		    unsigned long a3)
{
	unsigned long tmid, got, msg[4] = {0};
	void *seg;

	(void)a0, (void)a1, (void)a2, (void)a3;
	fail("tm_evevery", tm_evevery(1, EV_TICK, &tmid));
	for (unsigned long i = 0; i <= SAMPLES && !error; i++) {
		struct sample *s;

		fail("ev_receive", ev_receive(EV_TICK, EV_ALL, 0, &got));
		fail("rn_getseg",
		     rn_getseg(region, sizeof(*s), RN_WAIT, 0, &seg));
		if (error)
			break;
		s = seg;
		s->seq = i;
		tm_get(&s->date, &s->time, &s->ticks);
		msg[0] = (unsigned long)seg;
		fail("q_send", q_send(queue, msg));
		if (i < SAMPLES)
			sent++;
	}
	fail("tm_cancel", tm_cancel(tmid));
}

static void logger(unsigned long a0, unsigned long a1, unsigned long a2,
		   unsigned long a3)
{
	unsigned long msg[4], expected = 0;

	(void)a0, (void)a1, (void)a2, (void)a3;
	for (;;) {
		struct sample *s;
		unsigned long seq;

		fail("q_receive", q_receive(queue, Q_WAIT, 0, msg));
		if (error)
			break;
		s = (struct sample *)msg[0];
		seq = s->seq;
		if (seq != expected++)
			out_of_order++;
		fail("rn_retseg", rn_retseg(region, s));
		if (seq == SAMPLES)
			break;
		received++;
	}
	ev_send(main_tid, EV_DONE);
}

static void start(const char *name, unsigned long prio,
		  void (*entry)(unsigned long, unsigned long, unsigned long,
				unsigned long))
{
	unsigned long tid;

	fail("t_create", t_create(name, prio, 8192, 8192, T_LOCAL, &tid));
	fail("t_start", t_start(tid, T_PREEMPT | T_ASR, entry, NULL));
}

int main(void)
{
	unsigned long asiz, got;

	fail("tm_set", tm_set(2026 << 16 | 12 << 8 | 4, 12 << 16, 0));
	fail("t_ident", t_ident(NULL, 0, &main_tid));
	fail("rn_create", rn_create("RGN", region_mem, sizeof(region_mem), 64,
				    RN_FIFO, &region, &asiz));
	fail("q_create", q_create("SMPL", 16, Q_FIFO | Q_LIMIT, &queue));
	start("LOG", 10, logger);
	start("SMPL", 20, sampler);
	fail("ev_receive", ev_receive(EV_DONE, EV_ALL, 0, &got));
	printf("sampler: %lu samples sent, %lu logged, %lu out of order, "
	       "region of %lu bytes\n",
	       sent, received, out_of_order, asiz);
	fail("q_delete", q_delete(queue));
	fail("rn_delete", rn_delete(region));
	return error || received != SAMPLES || out_of_order ? 1 : 0;
}
