/* SPDX-License-Identifier: MIT */
/* Reading another program's status page (status_page.h). */
#include "status_page.h"
#include "../backend/common/host.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static nk_time_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (nk_time_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

uint64_t status_pid_start(pid_t pid)
{
	char path[32], buf[1024];
	unsigned long long start = 0;
	const char *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (be_host_read(path, buf, sizeof(buf)) < 0)
		return 0;
	/* The name may hold anything, ')' included: fields follow the last. */
	p = strrchr(buf, ')');
	/* starttime is field 22: past the 20 spaces from ")" on. */
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p == NULL || sscanf(p + 1, "%llu", &start) != 1)
		return 0;
	/* A zombie is gone: it runs no code any more. */
	return strstr(buf, ") Z ") ? 0 : (uint64_t)start;
}

/*
 * A page of another layout (another version's) is -EPROTO while the
 * process it names by its file name lives, -ENOENT (gone) once it does
 * not: its pid field cannot be trusted.
 */
static int foreign(pid_t pid)
{
	return status_pid_start(pid) ? -EPROTO : -ENOENT;
}

static struct status_page *page_map(pid_t pid, int *err)
{
	char path[32];
	struct status_page *page;
	struct stat st;
	int fd;

	status_page_name(pid, path, sizeof(path));
	fd = shm_open(path, O_RDWR | O_NOFOLLOW, 0);
	if (fd < 0) {
		*err = -errno;
		return NULL;
	}
	if (fstat(fd, &st) || (size_t)st.st_size != sizeof(*page)) {
		close(fd);
		*err = foreign(pid);
		return NULL;
	}
	page = mmap(NULL, sizeof(*page), PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    0);
	close(fd);
	if (page == MAP_FAILED) {
		*err = -ENOMEM;
		return NULL;
	}
	if (memcmp(page->magic, STATUS_MAGIC, sizeof(page->magic)) != 0 ||
	    page->layout != STATUS_LAYOUT || page->size != sizeof(*page)) {
		*err = foreign(pid);
	} else if (page->pid != pid || status_pid_start(pid) != page->start) {
		*err = -ENOENT; /* left by a process that is gone */
	} else {
		*err = 0;
		return page;
	}
	munmap(page, sizeof(*page));
	return NULL;
}

/* Wait for a snapshot begun after the request and copy it. */
static int page_copy(struct status_page *page, struct status_page *copy,
		     uint32_t want, nk_time_t deadline)
{
	for (;;) {
		uint32_t gen = atomic_load(&page->generation);
		nk_time_t left = deadline - mono_ns();
		struct timespec ts = {left / 1000000000, left % 1000000000};

		if ((int32_t)(gen - want) >= 0 && !(gen & 1)) {
			memcpy(copy, page, sizeof(*copy));
			if (atomic_load(&page->generation) == gen)
				return copy->error;
			continue;
		}
		if (left <= 0)
			return -ETIMEDOUT;
		syscall(SYS_futex, &page->generation, FUTEX_WAIT, gen, &ts,
			NULL, 0);
	}
}

int status_read(pid_t pid, struct status_page *copy, int timeout_ms)
{
	nk_time_t deadline = mono_ns() + (nk_time_t)timeout_ms * 1000000;
	struct status_page *page;
	uint32_t gen;
	int ret;

	if (pid <= 0 || copy == NULL || timeout_ms < 0)
		return -EINVAL;
	page = page_map(pid, &ret);
	if (page == NULL)
		return ret;
	/* The first even generation after one begun from now on. */
	gen = atomic_load(&page->generation);
	atomic_fetch_add(&page->request, 1);
	syscall(SYS_futex, &page->request, FUTEX_WAKE, 1, NULL, NULL, 0);
	ret = page_copy(page, copy, (gen | 1) + 1, deadline);
	munmap(page, sizeof(*page));
	return ret;
}
