/* SPDX-License-Identifier: MIT */
/*
 * VxWorks skin: the basic types and constants of Wind River's
 * <vxWorks.h>, and the header every other one of the skin includes.
 *
 * Identifiers.  A TASK_ID, SEM_ID, MSG_Q_ID or WDOG_ID holds a handle of
 * Fusion's object layer, never an address: a stale, forged or zeroed
 * one is refused with S_objLib_OBJ_ID_ERROR instead of being followed.
 * A TASK_ID is a long: on 64-bit Linux it does not fit an int, so code
 * that kept task IDs in ints (VxWorks 5.x style) must use TASK_ID.
 *
 * Functions keep their VxWorks names in programs; each is renamed to a
 * vxworks_ link name below it, so that another skin may use the same
 * names in the same program.
 */
#ifndef FUSION_VXWORKS_VXWORKS_H
#define FUSION_VXWORKS_VXWORKS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int STATUS;
typedef int BOOL;
typedef signed char INT8;
typedef short INT16;
typedef int INT32;
typedef long long INT64;
typedef unsigned char UINT8;
typedef unsigned short UINT16;
typedef unsigned int UINT32;
typedef unsigned long long UINT64;
typedef unsigned char UCHAR;
typedef unsigned short USHORT;
typedef unsigned int UINT;
typedef unsigned long ULONG;

/* An argument passed to a task's entry point or a watchdog routine. */
typedef long _Vx_usr_arg_t;

/*
 * A task's entry point and the routines of watchdogs and hooks are given
 * as FUNCPTR, cast from their real type as VxWorks code does; the skin
 * calls each with the arguments its API documents (integer and pointer
 * arguments pass alike through the variadic form on Linux's ABIs).
 */
typedef int (*FUNCPTR)(_Vx_usr_arg_t, ...);
typedef void (*VOIDFUNCPTR)(_Vx_usr_arg_t);

typedef long TASK_ID;

#define OK 0
#define ERROR (-1)
#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif

/* Timeouts, in ticks of the system clock. */
#define NO_WAIT 0
#define WAIT_FOREVER (-1)

/* Module numbers of the error status values (the high 16 bits). */
#define M_taskLib (3 << 16)
#define M_memLib (17 << 16)
#define M_semLib (22 << 16)
#define M_objLib (61 << 16)
#define M_msgQLib (65 << 16)
#define M_intLib (67 << 16)

#ifdef __cplusplus
}
#endif

#endif
