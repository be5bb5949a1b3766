/* SPDX-License-Identifier: MIT */
/*
 * The live demo: a real-time control loop beside ordinary Linux code.
 *
 *   control (prio 80)  wakes every 1 ms, measures how late it woke,
 *                      computes a command and hands the sample to the
 *                      worker; every 100 ms it posts a report for Linux;
 *   worker  (prio 20)  filters the samples the loop hands it, below the
 *                      loop, so it never delays it;
 *   Linux side         a root-domain handler of the interrupt pipeline:
 *                      the loop raises a virtual IRQ and the report is
 *                      printed from an ordinary Linux thread, so the RT
 *                      path never waits for printf or the terminal.
 *
 * Run: build/bin/demo_control [seconds]   (default 3; FUSION_BACKEND=sim
 * runs it in virtual time).
 */
#include <fusion/fusion.h>
#include <fusion/pipeline.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PERIOD_NS 1000000LL
#define REPORT_EVERY 100
#define RING 64 /* samples in flight between loop and worker */

struct report {
	long period;
	nk_time_t lat_min, lat_max, lat_sum;
	unsigned long overruns;
	unsigned long filtered;
};

static struct nk_instance *nk;
static struct nk_sem samples_ready;
static double samples[RING];
static double filtered_value;
static unsigned long filtered_count;
static unsigned int report_irq;
/* Reports waiting for the Linux side; both sides hold the nucleus lock. */
static struct report reports[16];
static unsigned int reports_head, reports_tail;
static long periods_to_run;

static void control_body(void *arg)
{
	struct report r = {.lat_min = NK_INFINITE};
	nk_time_t release;
	double setpoint = 1.0, state = 0.0;

	(void)arg;
	release = nk_now(nk) + PERIOD_NS;
	if (nk_thread_set_periodic(nk, release, PERIOD_NS))
		return;
	for (long n = 1; n <= periods_to_run; n++) {
		unsigned long overruns = 0;
		nk_time_t late;

		if (nk_thread_wait_period(nk, &overruns) == -ETIMEDOUT)
			r.overruns += overruns;
		release += PERIOD_NS * (nk_time_t)(1 + overruns);
		late = nk_now(nk) - (release - PERIOD_NS);
		r.lat_min = late < r.lat_min ? late : r.lat_min;
		r.lat_max = late > r.lat_max ? late : r.lat_max;
		r.lat_sum += late;
		/* A first-order plant under proportional control. */
		state += 0.1 * (setpoint - state);
		samples[n % RING] = state;
		nk_sem_give(&samples_ready);
		if (n % REPORT_EVERY == 0) {
			r.period = n;
			nk_lock(nk);
			r.filtered = filtered_count;
			reports[reports_head++ % 16] = r;
			nk_unlock(nk);
			ipipe_trigger_irq(nk, report_irq, 0);
			r = (struct report){.lat_min = NK_INFINITE};
		}
	}
	nk_thread_set_periodic(nk, 0, 0);
}

static void worker_body(void *arg)
{
	unsigned long n = 0;

	(void)arg;
	while (nk_sem_take(&samples_ready, NK_INFINITE, NK_RELATIVE) == 0) {
		n++;
		filtered_value = 0.9 * filtered_value + 0.1 * samples[n % RING];
		filtered_count = n;
	}
}

/* Linux side: runs in the root domain, in an ordinary thread. */
static void print_reports(unsigned int irq, void *cookie)
{
	(void)irq;
	(void)cookie;
	for (;;) {
		struct report r;

		nk_lock(nk);
		if (reports_tail == reports_head) {
			nk_unlock(nk);
			return;
		}
		r = reports[reports_tail++ % 16];
		nk_unlock(nk);
		printf("linux: %5ld ms  wake-up latency min %6.2f avg %6.2f "
		       "max %7.2f us  overruns %lu  worker filtered %lu\n",
		       r.period, r.lat_min / 1e3,
		       r.lat_sum / 1e3 / REPORT_EVERY, r.lat_max / 1e3,
		       r.overruns, r.filtered);
	}
}

static int start(const char *name, int prio, nk_thread_fn fn,
		 struct nk_thread **out)
{
	struct nk_thread_attr attr = {
	    .name = name, .priority = prio, .flags = NK_THREAD_JOINABLE};
	int ret = nk_thread_create(nk, &attr, out);

	return ret ? ret : nk_thread_start(*out, fn, NULL);
}

int main(int argc, char **argv)
{
	struct nk_thread *control, *worker;
	int seconds = argc > 1 ? atoi(argv[1]) : 3;
	int ret;

	if (seconds <= 0 || seconds > 3600) {
		fprintf(stderr, "usage: %s [seconds 1..3600]\n", argv[0]);
		return 2;
	}
	periods_to_run = seconds * 1000L;
	ret = fusion_runtime(&nk);
	if (ret == 0)
		ret = nk_sem_init(nk, &samples_ready, "samples", 0, 0,
				  NK_SYNCH_PRIO);
	if (ret == 0)
		ret = ipipe_alloc_virq(nk, &report_irq);
	if (ret == 0)
		ret = ipipe_virtualize_irq(ipipe_root_domain(nk), report_irq,
					   print_reports, NULL, IPIPE_HANDLE);
	if (ret == 0)
		ret = start("worker", 20, worker_body, &worker);
	if (ret == 0)
		ret = start("control", 80, control_body, &control);
	if (ret) {
		fprintf(stderr, "demo_control: %s\n", strerror(-ret));
		return 1;
	}
	printf("control loop: 1 ms period for %d s on %s\n", seconds,
	       nk_instance_backend(nk));
	if (nk_thread_join(control))
		return 1;
	nk_thread_delete(worker);
	if (nk_thread_join(worker) < 0 && nk_thread_state(worker))
		return 1;
	/* Let the Linux side print what is left. */
	if (nk_thread_sleep(nk, 10 * PERIOD_NS, NK_RELATIVE))
		return 1;
	printf("done: %ld periods, worker filtered %lu samples\n",
	       periods_to_run, filtered_count);
	return 0;
}
