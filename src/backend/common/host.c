/* SPDX-License-Identifier: MIT */
#include "host.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

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

/*
 * /proc/@pid/task/@tid/stat read into @line: its fields from the third
 * on, after the command name (which may hold anything but ends at the
 * last ')'), or NULL if the thread is gone or a number not positive.
 * Without stdio, to stay async-signal-safe.
 */
static const char *thread_stat(pid_t pid, pid_t tid, char *line, size_t size)
{
	char path[64] = "/proc/";
	char *p = path + strlen(path);
	const char *name_end;

	if (pid <= 0 || tid <= 0)
		return NULL;
	p = put_decimal(p, pid);
	memcpy(p, "/task/", 6);
	p = put_decimal(p + 6, tid);
	memcpy(p, "/stat", 6);
	if (be_host_read(path, line, size) < 0)
		return NULL;
	name_end = strrchr(line, ')');
	return name_end ? name_end + 1 : NULL;
}

/* Fields 10 (minflt) and 12 (majflt) of our thread @tid's stat. */
static unsigned long proc_faults(pid_t tid)
{
	char line[512];
	unsigned long minflt, majflt;
	const char *p = thread_stat(getpid(), tid, line, sizeof(line));

	if (p == NULL || sscanf(p, " %*c %*d %*d %*d %*d %*d %*u %lu %*u %lu",
				&minflt, &majflt) != 2)
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

char be_host_state(pid_t pid, pid_t tid)
{
	char line[512];
	const char *fields = thread_stat(pid, tid, line, sizeof(line));

	return fields && fields[0] == ' ' ? fields[1] : '\0';
}
