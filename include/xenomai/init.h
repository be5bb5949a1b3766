/* SPDX-License-Identifier: MIT */
/** @file
 * Explicit initialisation, for Xenomai 3 programs that call it
 * themselves (those built without the automatic main() wrapper, or
 * that call it anyway: it is harmless then).
 */
#ifndef FUSION_XENOMAI_INIT_H
#define FUSION_XENOMAI_INIT_H

#include <boilerplate/wrappers.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Consume the framework options (--backend=..., see fusion/runtime.h)
 * from *@p argcp / *@p argvp and start the runtime: the caller becomes its
 * "main" thread.  *@p argvp then points to a copy of the arguments left
 * (it lives as long as the program, or until a call with it replaces
 * it); the caller's array is not modified.  Called again, or after the main()
 * wrapper started the runtime, it only consumes the options (they no longer
 * matter).  On failure it prints why and exits with status 1, as Xenomai's
 * does.
 * @p argcp and @p argvp may be NULL (no options).  Context: a plain thread
 * or main.
 */
void xenomai_init(int *argcp, char *const **argvp);

#ifdef __cplusplus
}
#endif

#endif
