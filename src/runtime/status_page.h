/* SPDX-License-Identifier: MIT */
/*
 * The status page of a running program, /dev/shm/fusion-status.PID
 * (0600): what `fusion ps PID` and `fusion top PID` read.  A reader bumps
 * @request and wakes it; the program's status thread answers with a
 * snapshot (nk_instance_status, nk_instance_objects) between two bumps of
 * @generation, odd while it writes, and wakes the readers waiting on it.  Both
 * words are shared futexes (not FUTEX_PRIVATE: they cross processes).
 */
#ifndef FUSION_RUNTIME_STATUS_PAGE_H
#define FUSION_RUNTIME_STATUS_PAGE_H

#include <fusion/status.h>

#include <stdatomic.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

#define STATUS_MAGIC "FUSIONP\n"
#define STATUS_LAYOUT 2u
#define STATUS_THREADS 256
#define STATUS_IRQS 64
#define STATUS_OBJECTS 256

struct status_page {
	char magic[8];
	uint32_t layout;
	uint32_t size; /* sizeof(struct status_page) */
	int32_t pid;
	uint64_t start; /* the process's start time, for pid reuse */
	char comm[16];
	char backend[8];
	_Atomic uint32_t request;
	_Atomic uint32_t generation;
	int32_t error; /* of the last snapshot: 0 or -errno */
	struct nk_status st;
	struct nk_status_thread threads[STATUS_THREADS];
	struct nk_status_irq irqs[STATUS_IRQS];
	uint32_t nr_objects; /* all of them, even past STATUS_OBJECTS */
	struct nk_status_object objects[STATUS_OBJECTS];
};

/* "/fusion-status.PID" for shm_open, "/dev/shm/..." to stat. */
void status_page_name(pid_t pid, char *buf, size_t len);

/*
 * status.c: publish this process's page, answering for no instance
 * until status_instance() names one; NULL again before it is destroyed
 * (returns once no snapshot of it runs).
 */
int status_publish(void);
void status_instance(struct nk_instance *nk);

/*
 * status_read.c, the reader: ask process @pid for a snapshot and copy it
 * into *@copy, waiting @timeout_ms at most.  Errors: -ENOENT (no page:
 * not a Fusion program, or not running), -EACCES, -EPROTO (not a page
 * of this build), -ETIMEDOUT (no answer: stopped or stuck), -ESRCH (it
 * has no instance yet), -errno.
 */
int status_read(pid_t pid, struct status_page *copy, int timeout_ms);
/* The start time of process @pid (clock ticks after boot), 0: none. */
uint64_t status_pid_start(pid_t pid);

#pragma GCC visibility pop

#endif
