/* SPDX-License-Identifier: MIT */
/*
 * VxWorks skin: msgQLib.  A queue of at most maxMsgs messages of up to
 * maxMsgLength bytes each, copied in and out.  A message sent while a
 * receiver waits goes straight to it; one sent to a full queue waits
 * (its sender does) and enters the queue, in order, as room appears.
 * Each message is received exactly once, normal ones in the order they
 * were sent, MSG_PRI_URGENT ones at the head (so of two queued urgent
 * messages the later comes first, as on VxWorks).
 */
#ifndef FUSION_VXWORKS_MSGQLIB_H
#define FUSION_VXWORKS_MSGQLIB_H

#include <vxworks/vxWorks.h>

#ifdef __cplusplus
extern "C" {
#endif

#define S_msgQLib_INVALID_MSG_LENGTH (M_msgQLib | 1)
#define S_msgQLib_NON_ZERO_TIMEOUT_AT_INT_LEVEL (M_msgQLib | 2)
#define S_msgQLib_INVALID_QUEUE_TYPE (M_msgQLib | 3)

/* Options: the order of waiting senders and receivers. */
#define MSG_Q_FIFO 0x00
#define MSG_Q_PRIORITY 0x01

/* msgQSend() priorities. */
#define MSG_PRI_NORMAL 0
#define MSG_PRI_URGENT 1

/* The most memory one queue's messages may take (each message takes
 * its maximum length and 4 bytes). */
#define VX_MSGQ_MAX_BYTES (1ULL << 30)

/* A handle, never an address (vxWorks.h). */
typedef struct vxworks_msg_q *MSG_Q_ID;

#define msgQCreate vxworks_msgQCreate
#define msgQDelete vxworks_msgQDelete
#define msgQSend vxworks_msgQSend
#define msgQReceive vxworks_msgQReceive
#define msgQNumMsgs vxworks_msgQNumMsgs

/*
 * NULL with S_msgQLib_INVALID_QUEUE_TYPE (unknown @options),
 * S_msgQLib_INVALID_MSG_LENGTH (negative @maxMsgLength), EINVAL
 * (@maxMsgs < 1), S_memLib_NOT_ENOUGH_MEMORY (also beyond
 * VX_MSGQ_MAX_BYTES), S_intLib_NOT_ISR_CALLABLE.
 */
MSG_Q_ID msgQCreate(int maxMsgs, int maxMsgLength, int options);
/* Waiting senders and receivers fail with S_objLib_OBJ_DELETED. */
STATUS msgQDelete(MSG_Q_ID msgQId);
/*
 * Send @nBytes of @buffer, waiting up to @timeout ticks for room.
 * ERROR with S_msgQLib_INVALID_MSG_LENGTH (too long, or NULL @buffer
 * with bytes), S_objLib_OBJ_UNAVAILABLE (full, NO_WAIT),
 * S_objLib_OBJ_TIMEOUT, S_objLib_OBJ_DELETED, S_objLib_OBJ_ID_ERROR,
 * S_msgQLib_NON_ZERO_TIMEOUT_AT_INT_LEVEL (interrupt context with a
 * timeout), EINVAL (@priority neither MSG_PRI_NORMAL nor URGENT).
 */
STATUS msgQSend(MSG_Q_ID msgQId, const char *buffer, UINT nBytes, int timeout,
		int priority);
/*
 * Receive the first message into @buffer, at most @maxNBytes of it (the
 * rest is dropped), waiting up to @timeout ticks.  Returns its length
 * as received, or ERROR with S_objLib_OBJ_UNAVAILABLE (empty, NO_WAIT),
 * S_objLib_OBJ_TIMEOUT, S_objLib_OBJ_DELETED, S_objLib_OBJ_ID_ERROR,
 * S_msgQLib_INVALID_MSG_LENGTH (NULL @buffer with room),
 * S_intLib_NOT_ISR_CALLABLE.
 */
int msgQReceive(MSG_Q_ID msgQId, char *buffer, UINT maxNBytes, int timeout);
/* Messages queued, or ERROR with S_objLib_OBJ_ID_ERROR. */
int msgQNumMsgs(MSG_Q_ID msgQId);

#ifdef __cplusplus
}
#endif

#endif
