/* SPDX-License-Identifier: MIT */
/* The runtime's internals that the fusion tools share. */
#ifndef FUSION_RUNTIME_INTERNAL_H
#define FUSION_RUNTIME_INTERNAL_H

#include <fusion/instance.h>

#pragma GCC visibility push(hidden)

/*
 * Create an instance as the runtime creates its own: in the session of
 * --session / FUSION_SESSION (joined here if the process is in none
 * yet), the session's one instance, joined when another member made it
 * (on its RT CPUs unless @cpus_given, when attr->nr_cpus must match
 * them).  A refused join is said on stderr.  Errors: those of
 * fusion_session_join() and nk_instance_create().
 */
int runtime_instance_create(struct nk_instance_attr *attr, bool cpus_given,
			    struct nk_instance **out);

#pragma GCC visibility pop

#endif
