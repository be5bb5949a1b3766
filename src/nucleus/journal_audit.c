/* SPDX-License-Identifier: MIT */
/*
 * The journal's audit (journal.h): a test's proof that every change a
 * critical section makes to the shared instance was noted first, so that
 * undoing the notes undoes the section.  Per process: the range audited
 * (the nucleus block), the records left out, the copy taken as the lock
 * was taken.  Off unless FUSION_JOURNAL_AUDIT=1; audit a session of one
 * process, whose threads alone change the records it leaves out.
 */
#include "journal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define AUDIT_SKIPS 1024

static struct {
	pthread_once_t once;
	bool on;
	const unsigned char *base;
	size_t size;
	struct nk_heap *heap;
	unsigned char *copy;
	pthread_mutex_t skips_lock;
	struct {
		uintptr_t addr;
		size_t len;
	} skips[AUDIT_SKIPS];
	unsigned int nr_skips;
	struct {
		uintptr_t addr;
		size_t len;
		pid_t tid;
	} young[AUDIT_SKIPS];
	unsigned int nr_young;
} audit = {.once = PTHREAD_ONCE_INIT, .skips_lock = PTHREAD_MUTEX_INITIALIZER};

static void audit_setup(void)
{
	const char *v = getenv("FUSION_JOURNAL_AUDIT");

	audit.on = v && strcmp(v, "1") == 0;
}

bool nk_journal_audit_on(void)
{
	pthread_once(&audit.once, audit_setup);
	return audit.on;
}

void nk_journal_audit_range(const void *addr, size_t len, struct nk_heap *heap)
{
	if (!nk_journal_audit_on())
		return;
	free(audit.copy);
	audit.copy = malloc(len);
	if (audit.copy == NULL) {
		fprintf(stderr, "fusion: journal audit: no memory\n");
		abort();
	}
	audit.base = addr;
	audit.size = len;
	audit.heap = heap;
}

void nk_journal_audit_skip(const void *addr, size_t len, bool skip)
{
	if (!nk_journal_audit_on())
		return;
	pthread_mutex_lock(&audit.skips_lock);
	if (skip && audit.nr_skips < AUDIT_SKIPS) {
		audit.skips[audit.nr_skips].addr = (uintptr_t)addr;
		audit.skips[audit.nr_skips++].len = len;
	}
	for (unsigned int i = 0; !skip && i < audit.nr_skips; i++)
		if (audit.skips[i].addr == (uintptr_t)addr)
			audit.skips[i] = audit.skips[--audit.nr_skips];
	pthread_mutex_unlock(&audit.skips_lock);
}

void nk_journal_data(const void *mem, size_t len, bool data)
{
	nk_journal_audit_skip(mem, len, data);
}

void nk_journal_audit_young(const void *mem, size_t len)
{
	if (!nk_journal_audit_on())
		return;
	pthread_mutex_lock(&audit.skips_lock);
	if (audit.nr_young < AUDIT_SKIPS) {
		audit.young[audit.nr_young].addr = (uintptr_t)mem;
		audit.young[audit.nr_young].len = len;
		audit.young[audit.nr_young++].tid = gettid();
	}
	pthread_mutex_unlock(&audit.skips_lock);
}

/* The calling thread's blocks are old from its next call on. */
static void young_end(void)
{
	pid_t self = gettid();

	pthread_mutex_lock(&audit.skips_lock);
	for (unsigned int i = audit.nr_young; i > 0; i--)
		if (audit.young[i - 1].tid == self)
			audit.young[i - 1] = audit.young[--audit.nr_young];
	pthread_mutex_unlock(&audit.skips_lock);
}

static bool skipped(uintptr_t addr)
{
	pid_t self = gettid();
	bool found = false;

	pthread_mutex_lock(&audit.skips_lock);
	for (unsigned int i = 0; !found && i < audit.nr_skips; i++)
		found = addr - audit.skips[i].addr < audit.skips[i].len;
	for (unsigned int i = 0; !found && i < audit.nr_young; i++)
		found = audit.young[i].tid != self &&
			addr - audit.young[i].addr < audit.young[i].len;
	pthread_mutex_unlock(&audit.skips_lock);
	return found;
}

static void __attribute__((noreturn)) report(uintptr_t addr, size_t at)
{
	void *payload = NULL;
	size_t size = 0;

	nk_heap_block_at(audit.heap, (const void *)addr, &payload, &size);
	fprintf(stderr,
		"fusion: journal audit: byte at %p (nucleus block +%#zx; "
		"+%#zx of a block of %zu bytes at %p) changed under the "
		"lock, not noted\n",
		(void *)addr, at, payload ? addr - (uintptr_t)payload : 0, size,
		payload);
	abort();
}

void nk_journal_audit_begin(const struct nk_journal *j, bool call)
{
	(void)j;
	if (nk_journal_audit_on() && call)
		young_end();
	if (nk_journal_audit_on() && audit.copy)
		memcpy(audit.copy, audit.base, audit.size);
}

void nk_journal_audit_end(const struct nk_journal *j)
{
	if (!nk_journal_audit_on() || audit.copy == NULL)
		return;
	if (j->overflow)
		return;
	for (size_t i = 0; i < audit.size; i++) {
		uintptr_t addr = (uintptr_t)audit.base + i;

		/* Whole lines alike first: a section changes few. */
		if (i % 64 == 0 && i + 64 <= audit.size &&
		    memcmp(audit.copy + i, audit.base + i, 64) == 0) {
			i += 63;
			continue;
		}
		if (audit.copy[i] == audit.base[i] ||
		    addr - (uintptr_t)j < sizeof(*j) ||
		    nk_journal_noted(j, addr) || skipped(addr))
			continue;
		report(addr, i);
	}
}
