/* SPDX-License-Identifier: MIT */
/*
 * The traced entry points of a skin, made from its list
 * src/skins/NAME/services.def (tools/gen-skin-services writes both the
 * list and the services.c that includes this file, defining
 * SKIN_SERVICE_EVENT, the skin's service tracepoint; its services.h
 * renames each implementation to the link name with "_impl" added).
 * Each line of the list makes the exported @name: it
 * calls the implementation with @args and fires the tracepoint with the
 * service's name, its @object and its @result, expressions of the
 * arguments and of the returned value "ret".  When no instance records
 * anything, a load, a branch and a tail call.
 */
#ifndef SKIN_SERVICES_H
#define SKIN_SERVICES_H

#include "skin.h"

/* @name: the link name (alchemy_rt_sem_p), the header's macro applied. */
#define SKIN_SERVICE_IMPL(name) name##_impl

/* The traced path, out of line: the entry point stays a tail call. */
#define SKIN_SERVICE_TRACED(name) name##_traced

#define SERVICE(type, name, params, args, object, result)                      \
	type SKIN_SERVICE_IMPL(name) params;                                   \
	static __attribute__((noinline)) type SKIN_SERVICE_TRACED(name) params \
	{                                                                      \
		type ret = SKIN_SERVICE_IMPL(name) args;                       \
                                                                               \
		if (skin_tracing())                                            \
			skin_service(SKIN_SERVICE_EVENT, #name, object,        \
				     result);                                  \
		return ret;                                                    \
	}                                                                      \
	type name params                                                       \
	{                                                                      \
		if (__builtin_expect(trace_any_sink(), 0))                     \
			return SKIN_SERVICE_TRACED(name) args;                 \
		return SKIN_SERVICE_IMPL(name) args;                           \
	}

#define SERVICE_VOID(name, params, args, object)                               \
	void SKIN_SERVICE_IMPL(name) params;                                   \
	static __attribute__((noinline)) void SKIN_SERVICE_TRACED(name) params \
	{                                                                      \
		SKIN_SERVICE_IMPL(name) args;                                  \
		if (skin_tracing())                                            \
			skin_service(SKIN_SERVICE_EVENT, #name, object, 0);    \
	}                                                                      \
	void name params                                                       \
	{                                                                      \
		if (__builtin_expect(trace_any_sink(), 0))                     \
			SKIN_SERVICE_TRACED(name) args;                        \
		else                                                           \
			SKIN_SERVICE_IMPL(name) args;                          \
	}

#endif
