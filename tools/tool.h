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
int fusion_top(int argc, char **argv);
void fusion_top_usage(FILE *out);
int fusion_sim(int argc, char **argv);
void fusion_sim_usage(FILE *out);

struct status_page;
/*
 * Print a program's status (status.c): its RT CPUs, threads, skin
 * objects and IRQs; with @prev, an earlier snapshot of it, the CPU
 * shares over the time between the two.
 */
void fusion_status_print(FILE *out, const struct status_page *cur,
			 const struct status_page *prev);
/* Its threads and skin objects only (fusion ps, a session's members). */
void fusion_status_print_contents(FILE *out, const struct status_page *cur);
/* The pid in @arg, or 0 (not a number). */
pid_t fusion_parse_pid(const char *arg);
/* Read @pid's status into @page; on error print why, return -errno. */
int fusion_status_read(pid_t pid, struct status_page *page);

/*
 * Create the instance a tool runs on: the backend of FUSION_BACKEND
 * (--backend=), one RT CPU, the caller as thread "main" at @main_prio.
 * Prints the error and returns NULL on failure.
 */
struct nk_instance *fusion_tool_instance(int main_prio);
/* Destroy it (it is no longer reported by its status page). */
void fusion_tool_instance_destroy(struct nk_instance *nk);

#endif
