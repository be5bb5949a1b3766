/* SPDX-License-Identifier: MIT */
/* Session names, and the paths in /dev/shm they give. */
#include "session.h"

#include <stdio.h>
#include <string.h>

bool session_name_valid(const char *name)
{
	size_t len;

	if (name == NULL || name[0] == '\0' || name[0] == '.')
		return false;
	len = strspn(name, "abcdefghijklmnopqrstuvwxyz"
			   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-");
	return name[len] == '\0' && len < FUSION_SESSION_NAME_MAX;
}

void session_ctl_path(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "/dev/shm/fusion.%s.ctl", name);
}

void session_shm_path(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "/fusion.%s", name);
}
