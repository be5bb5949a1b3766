/* SPDX-License-Identifier: MIT */
/*
 * VxWorks skin: rngLib, byte ring buffers, usable from tasks and
 * interrupt context alike (each call is atomic under the nucleus lock).
 * A ring of N bytes holds N bytes.
 */
#ifndef FUSION_VXWORKS_RNGLIB_H
#define FUSION_VXWORKS_RNGLIB_H

#include <vxworks/vxWorks.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A handle, never an address (vxWorks.h). */
typedef struct vxworks_ring *RING_ID;

#define rngCreate vxworks_rngCreate
#define rngDelete vxworks_rngDelete
#define rngFlush vxworks_rngFlush
#define rngBufGet vxworks_rngBufGet
#define rngBufPut vxworks_rngBufPut
#define rngIsEmpty vxworks_rngIsEmpty
#define rngIsFull vxworks_rngIsFull
#define rngFreeBytes vxworks_rngFreeBytes
#define rngNBytes vxworks_rngNBytes
#define rngPutAhead vxworks_rngPutAhead
#define rngMoveAhead vxworks_rngMoveAhead

/*
 * A ring of @nbytes (1 or more).  NULL with EINVAL,
 * S_memLib_NOT_ENOUGH_MEMORY, S_intLib_NOT_ISR_CALLABLE.
 */
RING_ID rngCreate(int nbytes);
/* Delete @ringId (a bad ID sets S_objLib_OBJ_ID_ERROR; so below). */
void rngDelete(RING_ID ringId);
/* Empty @ringId. */
void rngFlush(RING_ID ringId);
/* Take up to @maxbytes into @buffer; the bytes taken (0 for a bad ID). */
int rngBufGet(RING_ID ringId, char *buffer, int maxbytes);
/* Put up to @nbytes of @buffer, as many as fit; the bytes put. */
int rngBufPut(RING_ID ringId, const char *buffer, int nbytes);
/* TRUE if empty (a bad ID: TRUE). */
BOOL rngIsEmpty(RING_ID ringId);
/* TRUE if full (a bad ID: TRUE). */
BOOL rngIsFull(RING_ID ringId);
/* Room left, in bytes (0 for a bad ID). */
int rngFreeBytes(RING_ID ringId);
/* Bytes held (0 for a bad ID). */
int rngNBytes(RING_ID ringId);
/*
 * Write @byte @offset bytes past the end of the data without counting
 * it (0 <= @offset < rngFreeBytes()); rngMoveAhead() counts it in.
 */
void rngPutAhead(RING_ID ringId, char byte, int offset);
/* Count @n more bytes in, written by rngPutAhead() (at most the room). */
void rngMoveAhead(RING_ID ringId, int n);

#ifdef __cplusplus
}
#endif

#endif
