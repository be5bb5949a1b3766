/* SPDX-License-Identifier: MIT */
/*
 * A fake UIO device for tests on machines without one: a FUSE file
 * system of one file, "uio0", that behaves as /dev/uioN does.  Reading 4
 * bytes returns the interrupt count once per new interrupt (EAGAIN
 * otherwise), poll reports it, and with irqcontrol writing 1 unmasks the
 * interrupt, which the device masks at each one it raises (one raised
 * while masked is latched and raised at the unmask); without, writes fail
 * with ENOSYS.  The device keeps a log of what the driver did ("read N",
 * "unmask", "mask", "refused"), which a test may add notes to.
 */
#ifndef FUSION_TEST_FAKE_UIO_H
#define FUSION_TEST_FAKE_UIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fake_uio;

/*
 * Mount a device in a new temporary directory, served by a child process
 * (fork: call it while the process has no other thread that matters).
 * Returns 0, or -errno: -EPERM, -ENODEV, -ENOENT when this machine
 * cannot mount FUSE.
 */
int fake_uio_start(struct fake_uio **dev, bool irqcontrol);
void fake_uio_stop(struct fake_uio *dev);
const char *fake_uio_path(const struct fake_uio *dev);

/* The device raises its interrupt, soon after the call.  Any thread. */
void fake_uio_raise(struct fake_uio *dev);
/* Appends @what to the log.  Any thread, interrupt handlers included. */
void fake_uio_note(struct fake_uio *dev, const char *what);
/*
 * Wait until the log reads @expected (up to 10 s), then copy it into
 * @buf.  Returns true when it does.
 */
bool fake_uio_wait_log(struct fake_uio *dev, const char *expected, char *buf,
		       size_t size);

#endif
