/* SPDX-License-Identifier: MIT */
/*
 * A device interrupt handled in the head domain and forwarded to the
 * Linux side with a virtual IRQ.
 *
 *   device       an eventfd a plain thread writes to (a stand-in for a
 *                UIO device): each write raises its source IRQ;
 *   head domain  the interrupt handler acknowledges the device (reads
 *                the eventfd), counts, wakes the RT task and raises a
 *                virtual IRQ for the part that may take its time;
 *   RT task      (prio 80) wakes once per interrupt;
 *   root domain  the virtual IRQ's handler runs in an ordinary Linux
 *                thread: it may printf, the RT path never waits for it.
 *
 * Run: build/bin/irq_forward [interrupts]   (default 5; live backend:
 * the sim backend has scripted sources only).
 */
#include <fusion/fusion.h>
#include <fusion/pipeline.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

static struct nk_instance *nk;
static struct nk_sem data_ready, printed;
static int device;
static unsigned int forward_virq;
static _Atomic unsigned long irqs;
static _Atomic uint64_t last_value;
static long count = 5;

/* Interrupt context: acknowledge, wake, forward.  Never blocks. */
static void device_irq(unsigned int irq, void *cookie)
{
	uint64_t value;

	(void)irq;
	(void)cookie;
	if (read(device, &value, sizeof(value)) != sizeof(value))
		return; /* spurious: nothing to acknowledge */
	atomic_store(&last_value, value);
	atomic_fetch_add(&irqs, 1);
	nk_sem_give(&data_ready);
	ipipe_trigger_irq(nk, forward_virq, 0);
}

/* Root context: an ordinary thread, free to make system calls. */
static void forward_handler(unsigned int irq, void *cookie)
{
	(void)cookie;
	printf("root: virq %u: interrupt #%lu, device value %llu\n", irq,
	       atomic_load(&irqs),
	       (unsigned long long)atomic_load(&last_value));
	nk_sem_give(&printed);
}

static void rt_task(void *arg)
{
	unsigned long *woken = arg;

	for (long i = 0; i < count; i++)
		if (nk_sem_take(&data_ready, NK_INFINITE, NK_RELATIVE) == 0)
			(*woken)++;
}

/* The "hardware": raises the interrupt every 10 ms. */
static void *device_thread(void *arg)
{
	struct timespec pause = {.tv_nsec = 10000000};

	(void)arg;
	for (uint64_t i = 1; i <= (uint64_t)count; i++) {
		nanosleep(&pause, NULL);
		if (write(device, &i, sizeof(i)) != sizeof(i))
			break;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct nk_instance_attr attr = {.main_priority = 10};
	struct nk_thread_attr task_attr = {
	    .name = "rt-task", .priority = 80, .flags = NK_THREAD_JOINABLE};
	struct ipipe_source src = {.kind = IPIPE_SRC_FD};
	unsigned long woken = 0;
	struct nk_thread *task;
	unsigned int device_irq_nr;
	pthread_t hw;
	int ret;

	if (argc > 1)
		count = atol(argv[1]);
	ret = nk_instance_create(&attr, &nk);
	if (ret) {
		fprintf(stderr, "nk_instance_create: %s\n", strerror(-ret));
		return 1;
	}
	nk_sem_init(nk, &data_ready, "data", 0, 0, 0);
	nk_sem_init(nk, &printed, "printed", 0, 0, 0);
	device = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	src.fd = device;

	/* Wire the pipeline: the device to the head, the virq to root. */
	ret = ipipe_attach_source(nk, &src, 0, &device_irq_nr);
	if (ret == 0)
		ret = ipipe_virtualize_irq(ipipe_head_domain(nk), device_irq_nr,
					   device_irq, NULL, IPIPE_HANDLE);
	if (ret == 0)
		ret = ipipe_alloc_virq(nk, &forward_virq);
	if (ret == 0)
		ret = ipipe_virtualize_irq(ipipe_root_domain(nk), forward_virq,
					   forward_handler, NULL, IPIPE_HANDLE);
	if (ret) {
		fprintf(stderr, "pipeline setup (%s backend): %s\n",
			nk_instance_backend(nk), strerror(-ret));
		nk_instance_destroy(nk);
		return 1;
	}

	nk_thread_create(nk, &task_attr, &task);
	nk_thread_start(task, rt_task, &woken);
	pthread_create(&hw, NULL, device_thread, NULL);
	/* Every interrupt woke the task once and was printed once. */
	if (nk_thread_join(task) == 0)
		for (long i = 0; i < count; i++)
			if (nk_sem_take(&printed, NK_INFINITE, NK_RELATIVE))
				break;
	pthread_join(hw, NULL);
	printf("device irq %u: %lu interrupts, RT task woken %lu times\n",
	       device_irq_nr, atomic_load(&irqs), woken);

	ipipe_virtualize_irq(ipipe_head_domain(nk), device_irq_nr, NULL, NULL,
			     IPIPE_PASS);
	ipipe_virtualize_irq(ipipe_root_domain(nk), forward_virq, NULL, NULL,
			     IPIPE_PASS);
	ipipe_detach_source(nk, device_irq_nr);
	ipipe_free_virq(nk, forward_virq);
	close(device);
	return nk_instance_destroy(nk) ? 1 : 0;
}
