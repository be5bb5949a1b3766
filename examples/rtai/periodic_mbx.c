/* SPDX-License-Identifier: MIT */
/*
 * An LXRT program in RTAI's style: a hard real-time periodic task
 * samples every millisecond and reports through a named mailbox to a
 * display task (main, soft real time), which prints a summary.  Both
 * find the mailbox by its name, in one process or in two, as RTAI
 * programs are built.
 *
 * Build outside the Fusion tree:
 *   cc $(fusion-config --skin=rtai --cflags) periodic_mbx.c \
 *      $(fusion-config --skin=rtai --ldflags) -o periodic_mbx
 * Run: ./periodic_mbx (live, both in one process), ./periodic_mbx
 * --backend=sim (virtual time: runs in a blink), or as two processes
 * of one session:
 *   ./periodic_mbx --session=mbx display & \
 *   ./periodic_mbx --session=mbx sampler; wait
 */
#include <rtai_lxrt.h>
#include <rtai_mbx.h>

#include <stdio.h>
#include <string.h>

#define PERIOD_NS 1000000LL /* 1 ms */
#define SAMPLES 1000	    /* 1 s */

struct report {
	long seq; /* -1: the end */
	RTIME late_ns;
	int overrun;
};

/* The sampler's result: its address once it reported all. */
static char sampled;

static void *sampler(void *arg)
{
	struct report r = {0, 0, 0};
	RT_TASK *task;
	MBX *mbx = NULL;
	RTIME next;

	(void)arg;
	task = rt_task_init_schmod(nam2num("SAMPLR"), 1, 0, 0, SCHED_FIFO, 0);
	if (task == NULL)
		return NULL;
	/* The display, maybe another process, may not have made it yet. */
	for (int i = 0; i < 500 && mbx == NULL; i++)
		if ((mbx = rt_get_adr(nam2num("REPORT"))) == NULL)
			rt_sleep(nano2count(10000000));
	if (mbx == NULL) {
		fprintf(stderr, "periodic_mbx: no mailbox REPORT\n");
		rt_task_delete(task);
		return NULL;
	}
	rt_make_hard_real_time();
	next = rt_get_time() + nano2count(PERIOD_NS);
	rt_task_make_periodic(task, next, nano2count(PERIOD_NS));
	for (r.seq = 0; r.seq < SAMPLES; r.seq++) {
		r.overrun = rt_task_wait_period() == RTE_TMROVRN;
		next += nano2count(PERIOD_NS);
		r.late_ns = rt_get_time_ns() - count2nano(next);
		/* Never wait for the display: drop a report it has no room
		 * for. */
		rt_mbx_send_if(mbx, &r, sizeof(r));
	}
	r.seq = -1;
	rt_mbx_send(mbx, &r, sizeof(r));
	rt_make_soft_real_time();
	rt_task_delete(task);
	return &sampled;
}

int main(int argc, char **argv)
{
	const char *role = argc > 1 ? argv[1] : "both";
	struct report r;
	long received = 0, overruns = 0;
	RTIME worst = 0;
	RT_TASK *self;
	MBX *mbx;
	long th = 0;

	if (strcmp(role, "sampler") == 0)
		return sampler(NULL) ? 0 : 1;
	if (strcmp(role, "both") != 0 && strcmp(role, "display") != 0) {
		fprintf(stderr, "usage: periodic_mbx [sampler|display]\n");
		return 2;
	}
	self = rt_task_init(nam2num("DISPLY"), 10, 0, 0);
	mbx = rt_typed_named_mbx_init("REPORT", 64 * sizeof(r), FIFO_Q);
	if (self == NULL || mbx == NULL) {
		fprintf(stderr, "periodic_mbx: cannot set up\n");
		return 1;
	}
	rt_set_oneshot_mode();
	start_rt_timer(0);
	if (strcmp(role, "both") == 0)
		th = rt_thread_create(sampler, NULL, 0);
	while (rt_mbx_receive(mbx, &r, sizeof(r)) == 0 && r.seq >= 0) {
		received++;
		overruns += r.overrun;
		if (r.late_ns > worst)
			worst = r.late_ns;
	}
	if (th)
		rt_thread_join(th);
	printf("periodic_mbx: %ld reports of %d, %ld overruns, worst "
	       "lateness %lld ns\n",
	       received, SAMPLES, overruns, (long long)worst);
	rt_named_mbx_delete(mbx);
	stop_rt_timer();
	rt_task_delete(self);
	return received == SAMPLES ? 0 : 1;
}
