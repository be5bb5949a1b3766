/* SPDX-License-Identifier: MIT */
/** @file
 * Basic nucleus types: time, timeouts and the wake reasons every blocking
 * service reports.
 */
#ifndef FUSION_TYPES_H
#define FUSION_TYPES_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Nanoseconds on the backend's monotonic clock. */
typedef int64_t nk_time_t;

/** A timeout that never expires (either mode). */
#define NK_INFINITE INT64_MAX

/** How a timeout value is read. */
enum nk_tmode {
	NK_RELATIVE = 0, /**< ns from now; <= 0 means "already expired" */
	NK_ABSOLUTE = 1, /**< date on the nucleus clock; < 0: in the past */
};

/**
 * Why a blocked thread woke up.  Blocking services return one of these
 * (0 or a negative errno), and each skin turns them into its own error
 * codes exactly once.
 */
enum nk_wake {
	NK_WAKE_OK = 0,		      /**< the wait was satisfied */
	NK_WAKE_TIMEOUT = -ETIMEDOUT, /**< the timeout elapsed */
	NK_WAKE_DELETED = -EIDRM,     /**< the object was deleted */
	NK_WAKE_UNBLOCKED = -EINTR,   /**< nk_thread_unblock() */
	NK_WAKE_OWNER_DEAD =
	    -EOWNERDEAD, /**< mutex acquired from a deleted owner */
};

#define NK_PRIO_MIN 0	/**< least urgent nucleus priority */
#define NK_PRIO_MAX 255 /**< most urgent nucleus priority */
#define NK_NR_PRIO 256	/**< number of priority levels */

/** Longest object or thread name, with its terminating NUL. */
#define NK_NAME_MAX 32

/** @cond ATTRIBUTES (compiler attributes of declarations, not API) */
#if defined(__GNUC__)
#define nk_must_check __attribute__((warn_unused_result))
#define nk_export __attribute__((visibility("default")))
#define nk_likely(x) __builtin_expect(!!(x), 1)
#define nk_unlikely(x) __builtin_expect(!!(x), 0)
/* On the path every wake-up takes (block, interrupt, wake, switch):
 * grouped in .text.hot, so that after the CPU idled the path's code
 * comes back on a few pages, not from all over the library
 * (docs/architecture.md, "The wake-up path"). */
#define nk_hot __attribute__((hot))
#else
#define nk_must_check
#define nk_export
#define nk_likely(x) (x)
#define nk_unlikely(x) (x)
#define nk_hot
#endif
/** @endcond */

struct nk_instance;
struct nk_thread;

#endif
