/* SPDX-License-Identifier: MIT */
/*
 * UIO sources on the live backend, end to end, against a fake UIO device
 * (support/fake_uio.h: a FUSE file that speaks the /dev/uioN protocol).
 * The device's log shows what the backend did and in which order: the
 * count read at each interrupt, the handler run, then "write 1" to
 * unmask; never an unmask on a device without irqcontrol; an interrupt
 * nobody handles keeps the device masked until a handler is installed.
 * Skipped (exit 77) where FUSE cannot be mounted.
 */
#include "harness.h"
#include "support/fake_uio.h"

#include <fusion/fusion.h>
#include <fusion/pipeline.h>

#include <errno.h>
#include <stdlib.h>

#define SAFETY_NS (10 * 1000000000LL)
#define SKIPPED 77

static struct nk_instance *nk;
static struct nk_sem sem;
static struct fake_uio *dev;
static char log_now[2048];

/* Head domain: note the run, wake main. */
static void uio_handler(unsigned int irq, void *cookie)
{
	(void)irq;
	(void)cookie;
	fake_uio_note(dev, "handler");
	nk_sem_give(&sem);
}

static void handle(unsigned int irq)
{
	CHECK_EQ(ipipe_virtualize_irq(ipipe_head_domain(nk), irq, uio_handler,
				      NULL, IPIPE_HANDLE),
		 0);
}

/* A device (served from this plain thread's scheduling), then the live
 * instance with the device attached as a source on RT CPU 0. */
static unsigned int uio_start(bool irqcontrol)
{
	struct nk_instance_attr attr = {.main_priority = 10};
	struct ipipe_source src = {.kind = IPIPE_SRC_UIO};
	unsigned int irq;
	int ret;

	/* A failed check left the previous test's world behind. */
	if (nk)
		nk_instance_destroy(nk);
	if (dev)
		fake_uio_stop(dev);
	nk = NULL;
	dev = NULL;
	ret = fake_uio_start(&dev, irqcontrol);
	if (ret == -EPERM || ret == -ENODEV || ret == -ENOENT) {
		printf("skipped: FUSE cannot be mounted here (%s)\n",
		       strerror(-ret));
		exit(SKIPPED);
	}
	CHECK_EQ(ret, 0);
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	CHECK_STR(nk_instance_backend(nk), "live");
	CHECK_EQ(nk_sem_init(nk, &sem, "sem", 0, 0, 0), 0);
	src.path = fake_uio_path(dev);
	CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), 0);
	return irq;
}

/* The device's log, once it reads @expected (or what it read instead). */
static const char *log_once(const char *expected)
{
	fake_uio_wait_log(dev, expected, log_now, sizeof(log_now));
	return log_now;
}

/* Checks the device's log ends as @expected, then takes it all down. */
static void uio_end(unsigned int irq, const char *expected)
{
	CHECK_STR(log_once(expected), expected);
	CHECK_EQ(ipipe_virtualize_irq(ipipe_head_domain(nk), irq, NULL, NULL,
				      IPIPE_PASS),
		 0);
	CHECK_EQ(ipipe_detach_source(nk, irq), 0);
	CHECK_EQ(nk_sem_destroy(&sem), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	nk = NULL;
	fake_uio_stop(dev);
	dev = NULL;
}

/* Raise the interrupt, wait for the handler to have run. */
static void interrupt(void)
{
	fake_uio_raise(dev);
	CHECK_EQ(nk_sem_take(&sem, SAFETY_NS, NK_RELATIVE), 0);
}

/* Attaching unmasks; each interrupt is read, handled, then unmasked. */
TEST(each_interrupt_read_handled_unmasked)
{
	unsigned int irq = uio_start(true);
	char expected[512] = "unmask";

	handle(irq);
	for (int i = 1; i <= 5; i++) {
		char step[64];

		interrupt();
		snprintf(step, sizeof(step), " read %d handler unmask", i);
		strcat(expected, step);
	}
	uio_end(irq, expected);
}

/*
 * A second interrupt raised before the first is unmasked is latched by
 * the device and comes at the unmask: two runs, in order.
 */
TEST(interrupt_latched_while_masked_comes_at_unmask)
{
	unsigned int irq = uio_start(true);
	const char *expected =
	    "unmask read 1 handler unmask read 2 handler unmask";

	handle(irq);
	fake_uio_raise(dev);
	fake_uio_raise(dev);
	CHECK_EQ(nk_sem_take(&sem, SAFETY_NS, NK_RELATIVE), 0);
	CHECK_EQ(nk_sem_take(&sem, SAFETY_NS, NK_RELATIVE), 0);
	uio_end(irq, expected);
}

/* A driver without irqcontrol refuses the write: it is never tried again. */
TEST(device_without_irqcontrol_is_never_unmasked)
{
	unsigned int irq = uio_start(false);
	const char *expected =
	    "refused read 1 handler read 2 handler read 3 handler";

	handle(irq);
	for (int i = 0; i < 3; i++)
		interrupt();
	uio_end(irq, expected);
}

/*
 * An interrupt nobody handles is acknowledged but not unmasked: the
 * device stays masked (a second interrupt is latched) until a handler is
 * installed, which unmasks it.
 */
TEST(unhandled_interrupt_keeps_device_masked)
{
	unsigned int irq = uio_start(true);
	const char *expected = "unmask read 1 unmask read 2 handler unmask";

	fake_uio_raise(dev);
	CHECK_STR(log_once("unmask read 1"), "unmask read 1");
	/* Time for a wrong unmask to show as "read 2" before "unmask". */
	fake_uio_raise(dev);
	CHECK_EQ(nk_thread_sleep(nk, 20 * 1000000LL, NK_RELATIVE), NK_WAKE_OK);
	handle(irq);
	CHECK_EQ(nk_sem_take(&sem, SAFETY_NS, NK_RELATIVE), 0);
	uio_end(irq, expected);
}

TESTS(T(each_interrupt_read_handled_unmasked),
      T(interrupt_latched_while_masked_comes_at_unmask),
      T(device_without_irqcontrol_is_never_unmasked),
      T(unhandled_interrupt_keeps_device_masked));
