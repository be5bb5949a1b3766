/* SPDX-License-Identifier: MIT */
/*
 * Observing a session without joining it or taking its lock (`fusion
 * ps`): a copy of its header read while the generation is even and the
 * same before and after, then checked as a joiner checks it.  Nothing
 * the copy points to is followed: counts and names only.
 */
#include "session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
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

int session_snapshot(const char *name, struct session_header *copy)
{
	char path[FUSION_SESSION_NAME_MAX + 16];
	struct timespec pause = {0, 100000};
	const char *why;
	struct stat st;
	int fd, ret = -EAGAIN;

	if (!session_name_valid(name))
		return -EINVAL;
	snprintf(path, sizeof(path), "/dev/shm/fusion.%s", name);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || (uint64_t)st.st_size < sizeof(*copy)) {
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
