/* SPDX-License-Identifier: MIT */
/** @file
 * RTAI/LXRT: the API of RTAI's user-space tasks, on the Fusion nucleus.
 *
 * Types, return codes, priorities, names, tasks and their modes,
 * periodic work, sleeping, the timer and time.  Programs written for
 * RTAI 3.x-5.x LXRT include this header (and rtai_sem.h...) and build
 * with `fusion-config --skin=rtai`.
 *
 * Objects are reached through pointers (RT_TASK *, SEM *...), as in
 * LXRT, where they point into the kernel and are never dereferenced by
 * the program: here they carry the object's handle (its class and
 * registry slot), so that a stale, forged or wrong-kind pointer is
 * refused instead of followed.
 *
 * Priorities: 0 is the most urgent (RT_SCHED_HIGHEST_PRIORITY), larger
 * numbers less urgent.  Counts (RTIME) are nanoseconds of the nucleus
 * clock in oneshot mode (a 1 GHz time stamp counter), and ticks of the
 * timer period after rt_set_periodic_mode() and start_rt_timer().
 *
 * Calling context, where a call does not name its own: a task calls
 * everything; a plain pthread or an interrupt handler (another skin's
 * alarm) is no task: a call that would wait is refused (RTE_PERM), one
 * that names the calling task finds none, one that never waits works.
 *
 * RTAI functions link as rtai_<name> (this header maps each rt_<name>
 * onto it), so that Alchemy, which uses some of the same names
 * (rt_task_delete, rt_sem_delete...), can live in the same program,
 * each translation unit seeing the names of the headers it includes.
 */
#ifndef FUSION_RTAI_LXRT_H
#define FUSION_RTAI_LXRT_H

#include "rtai_nam2num.h"

#include <errno.h>
#include <sched.h> /* SCHED_FIFO...: the creation calls' policies */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef long long RTIME; /**< a date or a delay, in counts (or ns) */

/** A task, as LXRT hands it out: never dereferenced. */
typedef struct rt_task_struct {
	int opaque; /**< never read: the pointer is a handle */
} RT_TASK;

/** @{ */
/** RTAI 5 return codes (large positive values, as RTAI's "new"
 * scheme); rt_is_reterr() tells them from counts. */
#define RTE_BASE 0x3FFFFF00
#define RTE_TMROVRN (RTE_BASE + 1) /**< the date had passed already */
#define RTE_UNBLKD (RTE_BASE + 2)  /**< unblocked by another task */
#define RTE_TIMOUT (RTE_BASE + 3)  /**< the wait timed out */
#define RTE_OBJREM (RTE_BASE + 4)  /**< the object was deleted */
#define RTE_OBJINV (RTE_BASE + 5)  /**< not a valid object */
#define RTE_PERM (RTE_BASE + 6)	   /**< not allowed (not the owner...) */
#define RTE_DEADLOK (RTE_BASE + 7) /**< the wait would deadlock */
#define RTE_LOWERR RTE_TMROVRN	   /**< lowest error code */
#define RTE_HIGERR (RTE_BASE + 11) /**< highest error code */
#define RT_EINTR RTE_UNBLKD	   /**< RTAI's name for an interrupted wait */
/** @} */

/** Whether a returned int is one of the RTE_* codes. */
#define rt_is_reterr(i) ((i) >= RTE_LOWERR && (i) <= RTE_HIGERR)

/** @{ */
/** Priorities: 0 most urgent. */
#define RT_SCHED_HIGHEST_PRIORITY 0
#define RT_SCHED_LOWEST_PRIORITY 0x3fffFfff
#define RT_SCHED_LINUX_PRIORITY 0x7fffFfff
/** @} */

/** @{ */
/** Task states: rt_get_task_state(), rt_task_masked_unblock(). */
#define RT_SCHED_READY 1
#define RT_SCHED_SUSPENDED 2
#define RT_SCHED_DELAYED 4
#define RT_SCHED_SEMAPHORE 8
#define RT_SCHED_SEND 16
#define RT_SCHED_RECEIVE 32
#define RT_SCHED_RPC 64
#define RT_SCHED_RETURN 128
#define RT_SCHED_MBXSUSP 256
/** @} */

/** @{ */
/** RTAI's own policy numbers (rt_set_sched_policy); the LXRT
 * creation calls take Linux's (SCHED_OTHER, SCHED_FIFO, SCHED_RR). */
#define RT_SCHED_FIFO 0
#define RT_SCHED_RR 1
/** @} */

#define rt_get_adr rtai_rt_get_adr
#define rt_get_name rtai_rt_get_name
#define rt_task_init rtai_rt_task_init
#define rt_task_init_schmod rtai_rt_task_init_schmod
#define rt_thread_init rtai_rt_thread_init
#define rt_thread_create rtai_rt_thread_create
#define rt_thread_join rtai_rt_thread_join
#define rt_task_delete rtai_rt_task_delete
#define rt_thread_delete rtai_rt_thread_delete
#define rt_make_hard_real_time rtai_rt_make_hard_real_time
#define rt_make_soft_real_time rtai_rt_make_soft_real_time
#define rt_is_hard_real_time rtai_rt_is_hard_real_time
#define rt_allow_nonroot_hrt rtai_rt_allow_nonroot_hrt
#define rt_task_suspend rtai_rt_task_suspend
#define rt_task_suspend_if rtai_rt_task_suspend_if
#define rt_task_suspend_until rtai_rt_task_suspend_until
#define rt_task_suspend_timed rtai_rt_task_suspend_timed
#define rt_task_resume rtai_rt_task_resume
#define rt_task_yield rtai_rt_task_yield
#define rt_change_prio rtai_rt_change_prio
#define rt_get_prio rtai_rt_get_prio
#define rt_get_inher_prio rtai_rt_get_inher_prio
#define rt_whoami rtai_rt_whoami
#define rt_buddy rtai_rt_buddy
#define rt_task_use_fpu rtai_rt_task_use_fpu
#define rt_set_runnable_on_cpus rtai_rt_set_runnable_on_cpus
#define rt_set_runnable_on_cpuid rtai_rt_set_runnable_on_cpuid
#define rt_set_sched_policy rtai_rt_set_sched_policy
#define rt_task_masked_unblock rtai_rt_task_masked_unblock
#define rt_get_exectime rtai_rt_get_exectime
#define rt_get_task_state rtai_rt_get_task_state
#define rt_task_make_periodic rtai_rt_task_make_periodic
#define rt_task_make_periodic_relative_ns rtai_rt_task_make_periodic_relative_ns
#define rt_task_wait_period rtai_rt_task_wait_period
#define rt_set_period rtai_rt_set_period
#define rt_set_resume_time rtai_rt_set_resume_time
#define rt_sleep rtai_rt_sleep
#define rt_sleep_until rtai_rt_sleep_until
#define rt_busy_sleep rtai_rt_busy_sleep
#define start_rt_timer rtai_start_rt_timer
#define stop_rt_timer rtai_stop_rt_timer
#define rt_set_oneshot_mode rtai_rt_set_oneshot_mode
#define rt_set_periodic_mode rtai_rt_set_periodic_mode
#define rt_is_hard_timer_running rtai_rt_is_hard_timer_running
#define nano2count rtai_nano2count
#define count2nano rtai_count2nano
#define nano2count_cpuid rtai_nano2count_cpuid
#define count2nano_cpuid rtai_count2nano_cpuid
#define rt_get_time rtai_rt_get_time
#define rt_get_time_cpuid rtai_rt_get_time_cpuid
#define rt_get_time_ns rtai_rt_get_time_ns
#define rt_get_time_ns_cpuid rtai_rt_get_time_ns_cpuid
#define rt_get_cpu_time_ns rtai_rt_get_cpu_time_ns
#define rt_get_tscnt rtai_rt_get_tscnt
#define rt_get_real_time rtai_rt_get_real_time
#define rt_get_real_time_ns rtai_rt_get_real_time_ns

/* ---- names ---- */

/**
 * The object named @p name (a task, semaphore...: one name space for
 * all kinds, as in RTAI), NULL if there is none (or for 0).
 */
void *rt_get_adr(unsigned long name);
/** The name of the object @p adr, 0 if it is not a named object. */
unsigned long rt_get_name(void *adr);

/* ---- tasks ---- */

/**
 * Make the calling thread an RTAI task named @p name (0: anonymous) at
 * @p priority (0 most urgent; beyond 253 all run at the least urgent
 * level), on the first CPU of @p cpus_allowed that runs real-time work
 * (0: CPU 0).  A plain pthread becomes a nucleus thread first; main and
 * threads of rt_thread_create() are one already.  @p max_msg_size is
 * accepted and unused (rt_sendx() copies messages of any size through
 * instance memory).  The task starts
 * soft (rt_is_hard_real_time() is 0).  Returns the task, or NULL: bad
 * priority (< 0) or CPU set, the caller is a task already, the name is
 * taken, no memory.
 */
RT_TASK *rt_task_init(unsigned long name, int priority, int max_msg_size,
		      unsigned long cpus_allowed);
/**
 * As rt_task_init(), with a Linux @p policy (SCHED_OTHER or SCHED_FIFO:
 * FIFO; SCHED_RR: round robin, 1 ms quantum; others refused) and a
 * @p stack_size, accepted and unused: the thread exists already.
 */
RT_TASK *rt_task_init_schmod(unsigned long name, int priority, int stack_size,
			     int max_msg_size, int policy, int cpus_allowed);
/** rt_task_init_schmod() without a stack size, as RTAI names it for
 * threads of rt_thread_create(). */
RT_TASK *rt_thread_init(unsigned long name, int priority, int max_msg_size,
			int policy, int cpus_allowed);
/**
 * Start a thread running @p fun(@p args) (a pthread start routine,
 * void *fun(void *), as RTAI takes it), at the caller's nucleus
 * priority (it runs once the caller blocks or yields); it calls
 * rt_task_init() or rt_thread_init() to become a task.  @p stack_size
 * 0: the default.  Returns an id for rt_thread_join() (not a
 * pthread_t), 0 on failure (NULL @p fun, negative @p stack_size, no
 * memory).
 */
long rt_thread_create(void *fun, void *args, int stack_size);
/**
 * Wait for the thread @p thread of rt_thread_create() to end.  Returns
 * 0, -EINVAL (not such a thread, or joined already), RTE_DEADLOK
 * (itself), RTE_PERM (the caller is not a nucleus thread).
 */
int rt_thread_join(long thread);
/**
 * Delete @p task.  The caller's own task (or NULL): it stops being a
 * task, its name is free, and the thread goes on (as LXRT's proxy
 * goes).  Another task: its thread ends.  Returns 0, -EINVAL (not a
 * task).
 */
int rt_task_delete(RT_TASK *task);
/** rt_task_delete(), as RTAI names it for rt_thread_init() tasks. */
int rt_thread_delete(RT_TASK *task);
/** The calling task runs hard real time: in primary mode. */
void rt_make_hard_real_time(void);
/**
 * The calling task runs soft: it leaves primary mode (as Fusion's
 * relax) until its next RTAI service, which takes it back.
 */
void rt_make_soft_real_time(void);
/** 1 if @p task (NULL: the caller) is hard real time, else 0. */
int rt_is_hard_real_time(RT_TASK *task);
/** Accepted: no privilege is needed for hard real time here. */
void rt_allow_nonroot_hrt(void);
/**
 * Suspend @p task (NULL: the caller) and return its suspension depth:
 * 1 for another task, 0 for the caller once resumed.  Suspensions
 * nest; rt_task_resume() on a task that is not suspended makes the
 * depth negative, and as many suspends only count it up again.
 * Errors: -EINVAL (not a task), RTE_UNBLKD (the caller was unblocked
 * by rt_task_masked_unblock()).
 */
int rt_task_suspend(RT_TASK *task);
/** Count one pending resume of @p task off (depth < 0) and return the
 * depth; never suspends.  -EINVAL. */
int rt_task_suspend_if(RT_TASK *task);
/**
 * As rt_task_suspend(), the caller waking at the date @p time (counts)
 * at the latest: RTE_TIMOUT then.  A date passed already: RTE_TMROVRN.
 * For another task the date is not applied: it stays suspended until
 * resumed.
 */
int rt_task_suspend_until(RT_TASK *task, RTIME time);
/** As rt_task_suspend_until(), @p delay counts from now. */
int rt_task_suspend_timed(RT_TASK *task, RTIME delay);
/**
 * Take one suspension off @p task: at depth 0 it runs again (and may
 * preempt the caller).  Returns 0, -EINVAL.
 */
int rt_task_resume(RT_TASK *task);
/** Let the tasks of the caller's priority run first. */
void rt_task_yield(void);
/**
 * Set the base priority of @p task (NULL: the caller); returns the
 * previous one, or -EINVAL (not a task, @p priority < 0).
 */
int rt_change_prio(RT_TASK *task, int priority);
/** Base priority of @p task (NULL: the caller), or -EINVAL. */
int rt_get_prio(RT_TASK *task);
/** Priority of @p task with inheritance (RES_SEM), or -EINVAL. */
int rt_get_inher_prio(RT_TASK *task);
/** The caller's task, NULL if it is not a task. */
RT_TASK *rt_whoami(void);
/** The caller's task, NULL if it is not a task (LXRT's buddy). */
RT_TASK *rt_buddy(void);
/** Accepted (the FPU is always saved): 0, or -EINVAL (not a task). */
int rt_task_use_fpu(RT_TASK *task, int use_fpu_flag);
/** Move @p task to the first CPU of @p cpu_mask that runs real-time
 * work; nothing for a bad task or mask. */
void rt_set_runnable_on_cpus(RT_TASK *task, unsigned long cpu_mask);
/** Move @p task to CPU @p cpuid; nothing for a bad task or CPU. */
void rt_set_runnable_on_cpuid(RT_TASK *task, unsigned int cpuid);
/** RT_SCHED_FIFO, or RT_SCHED_RR with a quantum of @p rr_quantum_ns
 * (<= 0: 1 ms); nothing for a bad task or policy. */
void rt_set_sched_policy(RT_TASK *task, int policy, int rr_quantum_ns);
/**
 * Break @p task out of a wait of the kinds in @p mask (RT_SCHED_DELAYED
 * for sleeps and periods, RT_SCHED_SUSPENDED for a self-suspension,
 * RT_SCHED_SEMAPHORE...: any other object wait): the wait returns
 * RTE_UNBLKD.  Returns 0 (also when it does not wait so), -EINVAL.
 */
int rt_task_masked_unblock(RT_TASK *task, unsigned long mask);
/**
 * The state of @p task: RT_SCHED_READY (ready or running),
 * RT_SCHED_SUSPENDED, RT_SCHED_DELAYED (a sleep, a period, a wait with a
 * timeout), and what it waits for: RT_SCHED_SEND, RT_SCHED_RPC,
 * RT_SCHED_RETURN, RT_SCHED_RECEIVE in message calls, RT_SCHED_SEMAPHORE
 * for any other object.  A snapshot, as in RTAI.  -EINVAL: not a task
 * (NULL included).
 */
int rt_get_task_state(RT_TASK *task);
/**
 * Times of @p task in ns into @p exectime[0..2]: CPU time used, the
 * date it became a task, now.  Nothing for a bad task or NULL.
 */
void rt_get_exectime(RT_TASK *task, RTIME *exectime);

/* ---- periodic work and sleeping ---- */

/**
 * Make @p task (NULL: the caller) periodic: first release at the date
 * @p start_time, then every @p period (counts).  The caller, made
 * periodic itself, waits until @p start_time; another task's next
 * rt_task_wait_period() returns at @p start_time.  Returns 0, -EINVAL
 * (not a task, @p period <= 0), RTE_UNBLKD (the caller, waiting for its
 * start, was unblocked).
 */
int rt_task_make_periodic(RT_TASK *task, RTIME start_time, RTIME period);
/** As rt_task_make_periodic(), the start @p start_delay ns from now and
 * the @p period in ns. */
int rt_task_make_periodic_relative_ns(RT_TASK *task, RTIME start_delay,
				      RTIME period);
/**
 * Wait for the caller's next release (its previous one plus the
 * period).  Returns 0, RTE_TMROVRN at once when that release has
 * passed already (one per release missed: the task catches up),
 * RTE_UNBLKD, -EINVAL (the caller is not a periodic task).
 */
int rt_task_wait_period(void);
/** Change the period of @p task from its next release on.  0, -EINVAL. */
int rt_set_period(RT_TASK *task, RTIME new_period);
/**
 * Make @p task (NULL: the caller), delayed (sleeping, waiting for its
 * period, or waiting with a timeout), resume at the date
 * @p new_resume_time (counts) instead; a periodic task waiting for its
 * release takes the date as that release, the next ones following from
 * it.  Returns 0, -ETIME (@p task is not delayed), -EINVAL (bad task).
 */
int rt_set_resume_time(RT_TASK *task, RTIME new_resume_time);
/**
 * Sleep for @p delay counts.  Returns 0, RTE_UNBLKD, RTE_TMROVRN
 * (@p delay <= 0), RTE_PERM (not a nucleus thread, or the scheduler
 * is locked).
 */
int rt_sleep(RTIME delay);
/** Sleep until the date @p time (counts): as rt_sleep(), RTE_TMROVRN
 * for a date passed. */
int rt_sleep_until(RTIME time);
/** Spin for @p nanosecs ns, keeping the CPU (on sim: consume time). */
void rt_busy_sleep(int nanosecs);

/* ---- timer and time ---- */

/**
 * Start the timer: oneshot (rt_set_oneshot_mode(), the default, or
 * @p period 0): counts are ns; periodic: counts are ticks of @p period
 * (given in ns, as nano2count() gives them before the timer starts).
 * The nucleus clock always runs: this only chooses the unit.  Returns
 * @p period.
 */
RTIME start_rt_timer(int period);
/** Back to oneshot counts; rt_is_hard_timer_running() is 0 again. */
void stop_rt_timer(void);
/** Oneshot mode for the next start_rt_timer(). */
void rt_set_oneshot_mode(void);
/** Periodic mode for the next start_rt_timer(). */
void rt_set_periodic_mode(void);
/** 1 between start_rt_timer() and stop_rt_timer(), else 0. */
int rt_is_hard_timer_running(void);
/** @p nanosecs in counts (periodic: rounded up to whole ticks). */
RTIME nano2count(RTIME nanosecs);
/** @p counts in ns. */
RTIME count2nano(RTIME counts);
/** nano2count(): one timer for every CPU. */
RTIME nano2count_cpuid(RTIME nanosecs, unsigned int cpuid);
/** count2nano(): one timer for every CPU. */
RTIME count2nano_cpuid(RTIME counts, unsigned int cpuid);
/** Now, in counts. */
RTIME rt_get_time(void);
/** rt_get_time(): one clock for every CPU. */
RTIME rt_get_time_cpuid(unsigned int cpuid);
/** Now, in ns of the nucleus clock. */
RTIME rt_get_time_ns(void);
/** rt_get_time_ns(): one clock for every CPU. */
RTIME rt_get_time_ns_cpuid(unsigned int cpuid);
/** Now in ns, as rt_get_time_ns(). */
RTIME rt_get_cpu_time_ns(void);
/** The time stamp counter: ns of the nucleus clock (1 GHz). */
RTIME rt_get_tscnt(void);
/** Wall-clock time in counts (the nucleus wall clock). */
RTIME rt_get_real_time(void);
/** Wall-clock time in ns since the epoch. */
RTIME rt_get_real_time_ns(void);

#ifdef __cplusplus
}
#endif

#endif
