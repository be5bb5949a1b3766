/* SPDX-License-Identifier: MIT */
/*
 * Observing a session without joining it or taking its lock (`fusion
 * ps`): a copy of its header read while the generation is even and the
 * same before and after, then checked as a joiner checks it; and a
 * mapping of the whole segment, read only, in which the nucleus's own
 * reader (src/nucleus/peek.c) follows the instance's pointers.
 */
#include "session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SNAPSHOT_TRIES 1000

static uint32_t read_generation(int fd)
{
	uint32_t gen = 1;

	if (pread(fd, &gen, sizeof(gen),
		  offsetof(struct session_header, generation)) != sizeof(gen))
		return 1;
	return gen;
}

/* The segment of session @name, read only: a descriptor or -errno. */
static int open_segment(const char *name, struct stat *st)
{
	char path[FUSION_SESSION_NAME_MAX + 16];
	int fd;

	if (!session_name_valid(name))
		return -EINVAL;
	snprintf(path, sizeof(path), "/dev/shm/fusion.%s", name);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, st)) {
		close(fd);
		return -EPROTO;
	}
	return fd;
}

int session_snapshot(const char *name, struct session_header *copy)
{
	struct timespec pause = {0, 100000};
	const char *why;
	struct stat st;
	int fd = open_segment(name, &st), ret = -EAGAIN;

	if (fd < 0)
		return fd;
	if ((uint64_t)st.st_size < sizeof(*copy)) {
		close(fd);
		return -EPROTO;
	}
	for (int i = 0; i < SNAPSHOT_TRIES && ret == -EAGAIN; i++) {
		uint32_t gen = read_generation(fd);

		if (!(gen & 1) &&
		    pread(fd, copy, sizeof(*copy), 0) == sizeof(*copy) &&
		    read_generation(fd) == gen) {
			ret = session_header_check(copy, (uint64_t)st.st_size,
						   st.st_uid, &why);
			if (ret == 0 && !session_shm_valid(copy))
				ret = -EPROTO;
		} else
			nanosleep(&pause, NULL); /* a member holds the lock */
	}
	close(fd);
	return ret;
}

int session_view(const char *name, struct session_header *copy,
		 const void **map)
{
	struct stat st;
	void *mem;
	int fd, ret = session_snapshot(name, copy);

	if (ret)
		return ret;
	fd = open_segment(name, &st);
	if (fd < 0)
		return fd;
	/* The header was checked against the file's size: a file cut
	 * since is another session's, refused as a joiner refuses it. */
	if ((uint64_t)st.st_size != copy->size) {
		close(fd);
		return -EPROTO;
	}
	mem = mmap(NULL, copy->size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (mem == MAP_FAILED)
		return -ENOMEM;
	*map = mem;
	return 0;
}

int session_each(int (*fn)(const char *name, void *arg), void *arg)
{
	static const char prefix[] = "fusion.", suffix[] = ".ctl";
	DIR *dir = opendir("/dev/shm");
	struct dirent *d;
	int ret = 0;

	if (dir == NULL)
		return -errno;
	while (ret == 0 && (d = readdir(dir)) != NULL) {
		size_t len = strlen(d->d_name);
		char name[FUSION_SESSION_NAME_MAX];

		if (strncmp(d->d_name, prefix, sizeof(prefix) - 1) != 0 ||
		    len <= sizeof(prefix) + sizeof(suffix) - 2 ||
		    strcmp(d->d_name + len - (sizeof(suffix) - 1), suffix) != 0)
			continue;
		len -= sizeof(prefix) - 1 + sizeof(suffix) - 1;
		if (len >= sizeof(name))
			continue;
		memcpy(name, d->d_name + sizeof(prefix) - 1, len);
		name[len] = '\0';
		if (session_name_valid(name))
			ret = fn(name, arg);
	}
	closedir(dir);
	return ret;
}
