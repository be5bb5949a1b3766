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
 * arguments and of the returned value "ret".  A compare and a branch
 * when nothing records.
 */
#ifndef SKIN_SERVICES_H
#define SKIN_SERVICES_H

#include "skin.h"

/* @name: the link name (alchemy_rt_sem_p), the header's macro applied. */
#define SKIN_SERVICE_IMPL(name) name##_impl

#define SERVICE(type, name, params, args, object, result)                      \
	type SKIN_SERVICE_IMPL(name) params;                                   \
	type name params                                                       \
	{                                                                      \
		type ret = SKIN_SERVICE_IMPL(name) args;                       \
                                                                               \
		if (skin_tracing())                                            \
			skin_service(SKIN_SERVICE_EVENT, #name, object,        \
				     result);                                  \
		return ret;                                                    \
	}

#define SERVICE_VOID(name, params, args, object)                               \
	void SKIN_SERVICE_IMPL(name) params;                                   \
	void name params                                                       \
	{                                                                      \
		SKIN_SERVICE_IMPL(name) args;                                  \
		if (skin_tracing())                                            \
			skin_service(SKIN_SERVICE_EVENT, #name, object, 0);    \
	}

#endif
