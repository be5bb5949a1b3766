/* SPDX-License-Identifier: MIT */
/*
 * A classic VxWorks application: a watchdog "interrupt" samples a
 * sensor every 10 ticks and sends the sample to a message queue; a
 * filter task averages them and passes alarms on, urgently, to a logger
 * task; a semaphore tells main that the run is over.  Plain VxWorks 5.x
 * code: only the task IDs are TASK_ID rather than int (they do not fit
 * an int on 64-bit Linux).
 *
 * Build outside the Fusion tree (with -Wextra, add -Wno-cast-function-type:
 * VxWorks code casts its routines to FUNCPTR):
 *   cc $(fusion-config --skin=vxworks --cflags) sensor_logger.c \
 *      $(fusion-config --skin=vxworks --ldflags) -o sensor_logger
 * Run: ./sensor_logger (live, 1.7 s), ./sensor_logger --backend=sim
 * (virtual time: runs in a blink).
 */
#include <vxWorks.h>
#include <errnoLib.h>
#include <msgQLib.h>
#include <semLib.h>
#include <sysLib.h>
#include <taskLib.h>
#include <tickLib.h>
#include <wdLib.h>

#include <stdio.h>

#define SAMPLES 100
#define PERIOD_TICKS 10
#define ALARM_LEVEL 90

struct sample {
	int seq;
	int value;
	ULONG tick;
};

static MSG_Q_ID sample_q, log_q;
static WDOG_ID sampler;
static SEM_ID done;
static int next_seq;

/* A watchdog routine runs at interrupt level: no waiting here. */
static void sample_isr(_Vx_usr_arg_t arg)
{
	struct sample s = {next_seq, (next_seq * 37) % 100, tickGet()};

	(void)arg;
	if (msgQSend(sample_q, (char *)&s, sizeof(s), NO_WAIT,
		     MSG_PRI_NORMAL) == ERROR)
		printErrno(0);
	if (++next_seq < SAMPLES)
		wdStart(sampler, PERIOD_TICKS, (FUNCPTR)sample_isr, 0);
}

static int filter_task(void)
{
	struct sample s;
	long sum = 0;
	char line[64];

	for (int n = 1; n <= SAMPLES; n++) {
		if (msgQReceive(sample_q, (char *)&s, sizeof(s),
				WAIT_FOREVER) != sizeof(s))
			return ERROR;
		sum += s.value;
		if (s.value >= ALARM_LEVEL) {
			int len = snprintf(line, sizeof(line),
					   "alarm: sample %d = %d at tick %lu",
					   s.seq, s.value, s.tick);

			msgQSend(log_q, line, (UINT)len + 1, WAIT_FOREVER,
				 MSG_PRI_URGENT);
		}
		if (n % 25 == 0) {
			int len =
			    snprintf(line, sizeof(line),
				     "average of %d samples: %ld", n, sum / n);

			msgQSend(log_q, line, (UINT)len + 1, WAIT_FOREVER,
				 MSG_PRI_NORMAL);
		}
	}
	msgQSend(log_q, "", 1, WAIT_FOREVER, MSG_PRI_NORMAL);
	return OK;
}

static int logger_task(void)
{
	char line[64];

	while (msgQReceive(log_q, line, sizeof(line), WAIT_FOREVER) > 1)
		printf("[%s] %s\n", taskName(0), line);
	semGive(done);
	return OK;
}

int main(void)
{
	TASK_ID filter, logger;

	sysClkRateSet(60);
	sample_q = msgQCreate(8, sizeof(struct sample), MSG_Q_FIFO);
	log_q = msgQCreate(16, 64, MSG_Q_PRIORITY);
	done = semBCreate(SEM_Q_FIFO, SEM_EMPTY);
	sampler = wdCreate();
	if (!sample_q || !log_q || !done || !sampler) {
		printErrno(0);
		return 1;
	}
	logger = taskSpawn("tLogger", 120, VX_FP_TASK, 20000,
			   (FUNCPTR)logger_task, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	filter = taskSpawn("tFilter", 100, 0, 20000, (FUNCPTR)filter_task, 0, 0,
			   0, 0, 0, 0, 0, 0, 0, 0);
	if (logger == ERROR || filter == ERROR) {
		printErrno(0);
		return 1;
	}
	wdStart(sampler, PERIOD_TICKS, (FUNCPTR)sample_isr, 0);
	semTake(done, WAIT_FOREVER);
	printf("%d samples in %lu ticks of %d Hz\n", SAMPLES, tickGet(),
	       sysClkRateGet());
	wdDelete(sampler);
	msgQDelete(sample_q);
	msgQDelete(log_q);
	semDelete(done);
	return 0;
}
