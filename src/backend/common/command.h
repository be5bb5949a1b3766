/* SPDX-License-Identifier: MIT */
/*
 * fusion sim's command lines (docs/sim-debugger.md), split the same way
 * by the agent in the sim backend and by the runner in the tool.
 */
#ifndef FUSION_BACKEND_COMMAND_H
#define FUSION_BACKEND_COMMAND_H

/*
 * Split @line in place into its words (separated by spaces and tabs)
 * in @argv, at most @max.  In a "break add" command, word @spec on is
 * one word: a breakpoint's spec is the rest of the line (a mark's text
 * may hold spaces).  Returns the number of words, or -E2BIG.  Any
 * context.
 */
int be_command_split(char *line, char **argv, int max, int spec);

#endif
