/* SPDX-License-Identifier: MIT */
/** @file
 * RTAI mailboxes: a byte buffer of a fixed size between tasks.  A
 * message of any size goes through in as many pieces as the buffer
 * takes; senders take turns, as do receivers (by priority, PRIO_Q, or
 * in arrival order, FIFO_Q), so that each message arrives whole and in
 * order.
 *
 * Return values are RTAI 5's: the waiting calls return 0 when the whole
 * message went through, else an RTE_* code (RTE_TIMOUT, RTE_UNBLKD,
 * RTE_OBJREM: deleted meanwhile, RTE_PERM: would wait where waiting is
 * not allowed); the non-blocking ones (_wp, _if, rt_mbx_evdrp) return
 * the number of bytes not sent or not received.  A bad mailbox gives
 * RTE_OBJINV, a negative size -EINVAL.
 */
#ifndef FUSION_RTAI_MBX_H
#define FUSION_RTAI_MBX_H

#include "rtai_sem.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A mailbox, as LXRT hands it out: never dereferenced. */
typedef struct rt_mailbox {
	int opaque; /**< never read: the pointer is a handle */
} MBX;

#define rt_typed_mbx_init rtai_rt_typed_mbx_init
#define rt_mbx_init rtai_rt_mbx_init
#define rt_typed_named_mbx_init rtai_rt_typed_named_mbx_init
#define rt_named_mbx_init rtai_rt_named_mbx_init
#define rt_named_mbx_delete rtai_rt_named_mbx_delete
#define rt_mbx_delete rtai_rt_mbx_delete
#define rt_mbx_send rtai_rt_mbx_send
#define rt_mbx_send_wp rtai_rt_mbx_send_wp
#define rt_mbx_send_if rtai_rt_mbx_send_if
#define rt_mbx_send_until rtai_rt_mbx_send_until
#define rt_mbx_send_timed rtai_rt_mbx_send_timed
#define rt_mbx_ovrwr_send rtai_rt_mbx_ovrwr_send
#define rt_mbx_receive rtai_rt_mbx_receive
#define rt_mbx_receive_wp rtai_rt_mbx_receive_wp
#define rt_mbx_receive_if rtai_rt_mbx_receive_if
#define rt_mbx_receive_until rtai_rt_mbx_receive_until
#define rt_mbx_receive_timed rtai_rt_mbx_receive_timed
#define rt_mbx_evdrp rtai_rt_mbx_evdrp

/**
 * A mailbox named @p name (0: anonymous) of @p size bytes, its senders
 * and receivers taking turns per @p qtype (FIFO_Q or PRIO_Q).  NULL: a
 * size <= 0, another @p qtype, the name taken, no memory.  Any thread.
 */
MBX *rt_typed_mbx_init(unsigned long name, int size, int qtype);
/** rt_typed_mbx_init() with PRIO_Q. */
MBX *rt_mbx_init(unsigned long name, int size);
/**
 * The mailbox named nam2num(@p name), used once more, or a new one as
 * rt_typed_mbx_init() makes it; NULL as that, or for a NULL name or one
 * of another kind of object.
 */
MBX *rt_typed_named_mbx_init(const char *name, int size, int qtype);
/** rt_typed_named_mbx_init() with PRIO_Q. */
MBX *rt_named_mbx_init(const char *name, int size);
/** One use less of a named mailbox, deleting it at the last: the uses
 * left, or RTE_OBJINV. */
int rt_named_mbx_delete(MBX *mbx);
/** Delete @p mbx; its waiters return RTE_OBJREM.  0, RTE_OBJINV. */
int rt_mbx_delete(MBX *mbx);

/** Send the @p msg_size bytes of @p msg, waiting for room as long as
 * it takes. */
int rt_mbx_send(MBX *mbx, void *msg, int msg_size);
/** Send what fits now, never waiting: the bytes not sent. */
int rt_mbx_send_wp(MBX *mbx, void *msg, int msg_size);
/** Send the whole message if it fits now, else nothing: 0 or
 * @p msg_size. */
int rt_mbx_send_if(MBX *mbx, void *msg, int msg_size);
/** As rt_mbx_send(), until the date @p time (counts) at the latest. */
int rt_mbx_send_until(MBX *mbx, void *msg, int msg_size, RTIME time);
/** As rt_mbx_send(), for @p delay counts at most. */
int rt_mbx_send_timed(MBX *mbx, void *msg, int msg_size, RTIME delay);
/**
 * Send the whole message now, dropping the oldest bytes of the buffer
 * to make room.  0, or @p msg_size (nothing sent) when the message is
 * larger than the mailbox.
 */
int rt_mbx_ovrwr_send(MBX *mbx, void *msg, int msg_size);
/** Receive @p msg_size bytes into @p msg, waiting as long as it takes. */
int rt_mbx_receive(MBX *mbx, void *msg, int msg_size);
/** Receive what is there, up to @p msg_size, never waiting: the bytes
 * not received. */
int rt_mbx_receive_wp(MBX *mbx, void *msg, int msg_size);
/** Receive @p msg_size bytes if they are all there, else nothing: 0 or
 * @p msg_size. */
int rt_mbx_receive_if(MBX *mbx, void *msg, int msg_size);
/** As rt_mbx_receive(), until the date @p time (counts) at the latest. */
int rt_mbx_receive_until(MBX *mbx, void *msg, int msg_size, RTIME time);
/** As rt_mbx_receive(), for @p delay counts at most. */
int rt_mbx_receive_timed(MBX *mbx, void *msg, int msg_size, RTIME delay);
/** Copy what is there, up to @p msg_size, leaving it in the mailbox:
 * the bytes not copied. */
int rt_mbx_evdrp(MBX *mbx, void *msg, int msg_size);

#ifdef __cplusplus
}
#endif

#endif
