/* SPDX-License-Identifier: MIT */
/* The `fusion` command: one subcommand per file. */
#ifndef FUSION_TOOL_H
#define FUSION_TOOL_H

#include <fusion/fusion.h>

#include <stdio.h>

/*
 * Each command: run it with its own argv (argv[0] is the command's name,
 * the framework options are gone), and print its usage to @out.  An
 * unknown option or a bad value: usage or a message on stderr, and
 * FUSION_EXIT_USAGE.
 */
int fusion_latency(int argc, char **argv);
void fusion_latency_usage(FILE *out);
int fusion_switch(int argc, char **argv);
void fusion_switch_usage(FILE *out);
int fusion_info(int argc, char **argv);
void fusion_info_usage(FILE *out);
int fusion_ps(int argc, char **argv);
void fusion_ps_usage(FILE *out);
int fusion_trace(int argc, char **argv);
void fusion_trace_usage(FILE *out);

/*
 * Create the instance a tool runs on: the backend of FUSION_BACKEND
 * (--backend=), one RT CPU, the caller as thread "main" at @main_prio.
 * Prints the error and returns NULL on failure.
 */
struct nk_instance *fusion_tool_instance(int main_prio);

#endif
