/* The `fusion` command: one subcommand per file. */
#ifndef FUSION_TOOL_H
#define FUSION_TOOL_H

#include <fusion/fusion.h>

int fusion_latency(int argc, char **argv);
int fusion_switch(int argc, char **argv);
int fusion_info(int argc, char **argv);

/*
 * Create the instance a tool runs on: @backend (NULL: the default),
 * one RT CPU, the caller as thread "main" at @main_prio.  Prints the
 * error and returns NULL on failure.
 */
struct nk_instance *fusion_tool_instance(const char *backend, int main_prio);

/* Strip "--backend=NAME" from argv; returns NAME or NULL. */
const char *fusion_take_backend(int *argc, char **argv);

#endif
