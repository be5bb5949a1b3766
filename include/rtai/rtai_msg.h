/* SPDX-License-Identifier: MIT */
/** @file
 * RTAI intertask messages and remote procedure calls: a task sends a
 * word (rt_send) or a buffer (rt_sendx) to another, or calls it
 * (rt_rpc, rt_rpcx) and waits for its rt_return.  Senders wait on the
 * receiver in priority order; a receiver takes the first, or the first
 * of one task, and runs at the priority of the most urgent of those
 * that wait for it (callers awaiting its return included).
 *
 * Every call returns an RT_TASK pointer, as RTAI 5 does: the other
 * task on success; 0 when a non-blocking call found nobody ready (the
 * _if forms) or rt_return() found no caller; else one of these codes,
 * as a pointer: RTE_OBJINV (not a task, or the caller is not one),
 * RTE_TIMOUT, RTE_UNBLKD (rt_task_masked_unblock()), RTE_OBJREM (the
 * other task was deleted), RTE_PERM (would wait where waiting is not
 * allowed).  Tell them apart with rt_is_reterr((long)ret).
 */
#ifndef FUSION_RTAI_MSG_H
#define FUSION_RTAI_MSG_H

#include "rtai_lxrt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define rt_send rtai_rt_send
#define rt_send_if rtai_rt_send_if
#define rt_send_until rtai_rt_send_until
#define rt_send_timed rtai_rt_send_timed
#define rt_sendx rtai_rt_sendx
#define rt_sendx_if rtai_rt_sendx_if
#define rt_sendx_until rtai_rt_sendx_until
#define rt_sendx_timed rtai_rt_sendx_timed
#define rt_rpc rtai_rt_rpc
#define rt_rpc_if rtai_rt_rpc_if
#define rt_rpc_until rtai_rt_rpc_until
#define rt_rpc_timed rtai_rt_rpc_timed
#define rt_rpcx rtai_rt_rpcx
#define rt_rpcx_if rtai_rt_rpcx_if
#define rt_rpcx_until rtai_rt_rpcx_until
#define rt_rpcx_timed rtai_rt_rpcx_timed
#define rt_receive rtai_rt_receive
#define rt_receive_if rtai_rt_receive_if
#define rt_receive_until rtai_rt_receive_until
#define rt_receive_timed rtai_rt_receive_timed
#define rt_receivex rtai_rt_receivex
#define rt_receivex_if rtai_rt_receivex_if
#define rt_receivex_until rtai_rt_receivex_until
#define rt_receivex_timed rtai_rt_receivex_timed
#define rt_evdrp rtai_rt_evdrp
#define rt_evdrpx rtai_rt_evdrpx
#define rt_return rtai_rt_return
#define rt_returnx rtai_rt_returnx
#define rt_isrpc rtai_rt_isrpc

/**
 * Send @p msg to @p task: at once to it if it waits in a receive for
 * the caller or anybody (it may preempt the caller), else wait until
 * it receives.
 */
RT_TASK *rt_send(RT_TASK *task, unsigned long msg);
/** rt_send() only if @p task waits for it: else 0, nothing sent. */
RT_TASK *rt_send_if(RT_TASK *task, unsigned long msg);
/** rt_send(), waiting until the date @p time (counts) at the latest. */
RT_TASK *rt_send_until(RT_TASK *task, unsigned long msg, RTIME time);
/** rt_send(), waiting @p delay counts at most. */
RT_TASK *rt_send_timed(RT_TASK *task, unsigned long msg, RTIME delay);
/** rt_send() of the @p size bytes of @p msg (copied: the buffer is
 * free again on return).  0 for a negative size or a NULL buffer. */
RT_TASK *rt_sendx(RT_TASK *task, void *msg, int size);
/** rt_sendx() only if @p task waits for it. */
RT_TASK *rt_sendx_if(RT_TASK *task, void *msg, int size);
/** rt_sendx() until the date @p time at the latest. */
RT_TASK *rt_sendx_until(RT_TASK *task, void *msg, int size, RTIME time);
/** rt_sendx() for @p delay counts at most. */
RT_TASK *rt_sendx_timed(RT_TASK *task, void *msg, int size, RTIME delay);

/**
 * Call @p task with @p to_do and wait for its rt_return(), whose
 * result goes to @p result (an unsigned long).
 */
RT_TASK *rt_rpc(RT_TASK *task, unsigned long to_do, void *result);
/** rt_rpc() only if @p task waits for it (then waiting for the
 * return): else 0. */
RT_TASK *rt_rpc_if(RT_TASK *task, unsigned long to_do, void *result);
/** rt_rpc(), the whole call ending at the date @p time at the latest. */
RT_TASK *rt_rpc_until(RT_TASK *task, unsigned long to_do, void *result,
		      RTIME time);
/** rt_rpc(), the whole call lasting @p delay counts at most. */
RT_TASK *rt_rpc_timed(RT_TASK *task, unsigned long to_do, void *result,
		      RTIME delay);
/**
 * rt_rpc() with buffers: the @p ssize bytes of @p smsg go, at most
 * @p rsize bytes of the rt_returnx() come back into @p rmsg.
 */
RT_TASK *rt_rpcx(RT_TASK *task, void *smsg, void *rmsg, int ssize, int rsize);
/** rt_rpcx() only if @p task waits for it. */
RT_TASK *rt_rpcx_if(RT_TASK *task, void *smsg, void *rmsg, int ssize,
		    int rsize);
/** rt_rpcx() ending at the date @p time at the latest. */
RT_TASK *rt_rpcx_until(RT_TASK *task, void *smsg, void *rmsg, int ssize,
		       int rsize, RTIME time);
/** rt_rpcx() lasting @p delay counts at most. */
RT_TASK *rt_rpcx_timed(RT_TASK *task, void *smsg, void *rmsg, int ssize,
		       int rsize, RTIME delay);

/**
 * Receive the first message sent or call made to the caller by @p task
 * (NULL: by anybody) into @p msg (an unsigned long; NULL: dropped),
 * waiting for one.  A sender is released; a caller waits on, for
 * rt_return().  Returns the sender.
 */
RT_TASK *rt_receive(RT_TASK *task, void *msg);
/** rt_receive() of what is there: 0 if nothing is. */
RT_TASK *rt_receive_if(RT_TASK *task, void *msg);
/** rt_receive() until the date @p time at the latest. */
RT_TASK *rt_receive_until(RT_TASK *task, void *msg, RTIME time);
/** rt_receive() for @p delay counts at most. */
RT_TASK *rt_receive_timed(RT_TASK *task, void *msg, RTIME delay);
/**
 * rt_receive() of a buffer: at most @p size bytes into @p msg, the size
 * sent into *@p len (may be NULL).  A word sent by rt_send() arrives
 * as its bytes.
 */
RT_TASK *rt_receivex(RT_TASK *task, void *msg, int size, int *len);
/** rt_receivex() of what is there: 0 if nothing is. */
RT_TASK *rt_receivex_if(RT_TASK *task, void *msg, int size, int *len);
/** rt_receivex() until the date @p time at the latest. */
RT_TASK *rt_receivex_until(RT_TASK *task, void *msg, int size, int *len,
			   RTIME time);
/** rt_receivex() for @p delay counts at most. */
RT_TASK *rt_receivex_timed(RT_TASK *task, void *msg, int size, int *len,
			   RTIME delay);
/** rt_receive_if() leaving the message where it is (its sender goes on
 * waiting). */
RT_TASK *rt_evdrp(RT_TASK *task, void *msg);
/** rt_receivex_if() leaving the message where it is. */
RT_TASK *rt_evdrpx(RT_TASK *task, void *msg, int size, int *len);

/**
 * Answer the call of @p task received by the caller with @p result: it
 * runs again.  Returns @p task, 0 if it does not wait for the caller's
 * return (never called, timed out meanwhile).
 */
RT_TASK *rt_return(RT_TASK *task, unsigned long result);
/** rt_return() of the @p size bytes of @p msg. */
RT_TASK *rt_returnx(RT_TASK *task, void *msg, int size);
/** 1 if @p task waits for the caller's rt_return(), else 0. */
int rt_isrpc(RT_TASK *task);

#ifdef __cplusplus
}
#endif

#endif
