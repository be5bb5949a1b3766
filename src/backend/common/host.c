/* SPDX-License-Identifier: MIT */
#include "host.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* Fields 10 (minflt) and 12 (majflt) of /proc/self/task/TID/stat. */
static unsigned long proc_faults(pid_t tid)
{
	char path[64], line[512];
	unsigned long minflt, majflt;
	const char *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	p = fgets(line, sizeof(line), f);
	fclose(f);
	/* The command name (field 2) may hold anything but ends at the
	 * last ')'; field 3 follows. */
	p = p ? strrchr(line, ')') : NULL;
	if (p == NULL ||
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %lu %*u %lu", &minflt,
		   &majflt) != 2)
		return 0;
	return minflt + majflt;
}

unsigned long be_host_faults(void *priv, pid_t tid)
{
	struct rusage ru;

	(void)priv;
	if (tid == gettid() && getrusage(RUSAGE_THREAD, &ru) == 0)
		return (unsigned long)(ru.ru_minflt + ru.ru_majflt);
	return proc_faults(tid);
}

ssize_t be_host_read(const char *path, char *buf, size_t size)
{
	ssize_t len;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	return len;
}

/* Appends the decimal digits of @n (>= 0) at @p: past them. */
static char *put_decimal(char *p, long n)
{
	char digits[20];
	int len = 0;

	do
		digits[len++] = (char)('0' + n % 10);
	while ((n /= 10) > 0);
	while (len > 0)
		*p++ = digits[--len];
	return p;
}

char be_host_state(pid_t pid, pid_t tid)
{
	char path[64] = "/proc/", line[512];
	char *p = path + strlen(path);
	const char *state;

	if (pid <= 0 || tid <= 0)
		return '\0';
	/* Without stdio, to stay async-signal-safe. */
	p = put_decimal(p, pid);
	memcpy(p, "/task/", 6);
	p = put_decimal(p + 6, tid);
	memcpy(p, "/stat", 6);
	if (be_host_read(path, line, sizeof(line)) < 0)
		return '\0';
	/* The command name (field 2) may hold anything but ends at the
	 * last ')'; the state follows. */
	state = strrchr(line, ')');
	return state && state[1] == ' ' ? state[2] : '\0';
}
