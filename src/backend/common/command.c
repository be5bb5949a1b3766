/* SPDX-License-Identifier: MIT */
/* fusion sim's command lines: see command.h. */
#include "command.h"

#include <errno.h>
#include <string.h>

int be_command_split(char *line, char **argv, int max, int spec)
{
	char *save = NULL, *end = line + strlen(line);
	int argc = 0;

	for (char *w = strtok_r(line, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		if (argc == max)
			return -E2BIG;
		argv[argc++] = w;
	}
	if (argc > spec + 1 && strcmp(argv[0], "break") == 0 &&
	    strcmp(argv[1], "add") == 0) {
		/* strtok_r ended each word with a NUL: put the spaces
		 * back. */
		for (char *p = argv[spec]; p < end; p++)
			if (*p == '\0')
				*p = ' ';
		argc = spec + 1;
	}
	return argc;
}
