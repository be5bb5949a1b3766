/* SPDX-License-Identifier: MIT */
/** @file
 * Everything a program or a skin needs from the Fusion nucleus.
 */
#ifndef FUSION_FUSION_H
#define FUSION_FUSION_H

#include <fusion/types.h>
#include <fusion/instance.h>
#include <fusion/clock.h>
#include <fusion/thread.h>
#include <fusion/personality.h>
#include <fusion/sched.h>
#include <fusion/synch.h>
#include <fusion/sem.h>
#include <fusion/mutex.h>
#include <fusion/timer.h>
#include <fusion/heap.h>
#include <fusion/registry.h>
#include <fusion/pipe.h>
#include <fusion/pipeline.h>
#include <fusion/trace.h>
#include <fusion/runtime.h>
#include <fusion/session.h>
#include <fusion/status.h>

#endif
