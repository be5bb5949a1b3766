/* SPDX-License-Identifier: MIT */
/*
 * The built-in recorder on sim: the exact event sequence of scripted
 * scenarios (preemption, priority inheritance, an IRQ forwarded from
 * the head domain to the root domain), read back from the CTF trace it
 * writes; the same program gives the same bytes twice; full buffers
 * count their losses (first kept, or the last in flight mode); the
 * latency trigger freezes the recording; categories filter; recording
 * changes no behaviour; FUSION_TRACE values and the public calls' bad
 * input are refused.
 */
#include "harness.h"

#include "trace/config.h"
#include "trace/ctf.h"
#include "trace/names.h"
#include "trace/ring.h"

#include <fusion/fusion.h>
#include <fusion/pipeline.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define US 1000LL
#define MS 1000000LL

static struct nk_instance *nk;
static char trace_dir[64];
static char run_log[4096];

/* --- recording and reading back --- */

/* A fresh instance on sim recording with FUSION_TRACE=@spec,out=... */
static void record(const char *spec, int main_prio, const char *scenario)
{
	struct nk_instance_attr attr = {.backend = "sim",
					.main_priority = main_prio};
	char value[256], path[64];

	snprintf(trace_dir, sizeof(trace_dir), "trace-%d", (int)getpid());
	snprintf(value, sizeof(value), "%s,out=%s", spec, trace_dir);
	CHECK_EQ(setenv("FUSION_TRACE", value, 1), 0);
	if (scenario) {
		FILE *f;

		snprintf(path, sizeof(path), "scenario-%d", (int)getpid());
		f = fopen(path, "w");
		CHECK(f != NULL);
		fputs(scenario, f);
		fclose(f);
		setenv("FUSION_SIM_SCENARIO", path, 1);
	}
	run_log[0] = '\0';
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	unsetenv("FUSION_TRACE");
	if (scenario) {
		unsetenv("FUSION_SIM_SCENARIO");
		unlink(path);
	}
}

static void remove_trace(void)
{
	char path[128];

	for (int cpu = 0; cpu < 4; cpu++) {
		snprintf(path, sizeof(path), "%s/stream_%d", trace_dir, cpu);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/metadata", trace_dir);
	unlink(path);
	rmdir(trace_dir);
}

/* The text form of every event of the trace in trace_dir, one a line. */
static char *trace_text(struct trace_log *log)
{
	size_t cap = 256, len = 0;
	char *text = malloc(cap);

	CHECK(text != NULL);
	text[0] = '\0';
	for (size_t i = 0; i < log->nr; i++) {
		const struct trace_event *e = &log->events[i];
		struct nk_trace_record rec = {
		    .date = e->date,
		    .cpu = e->cpu,
		    .event = e->event,
		    .thread = e->thread,
		    .object = e->object[0] ? e->object : NULL,
		    .detail = e->detail[0] ? e->detail : NULL,
		    .arg = (long)e->arg,
		};
		char line[256];
		int n = nk_trace_format(&rec, line, sizeof(line));

		CHECK(n > 0 && (size_t)n < sizeof(line));
		if (len + (size_t)n + 2 > cap) {
			cap = (len + (size_t)n + 2) * 2;
			text = realloc(text, cap);
			CHECK(text != NULL);
		}
		memcpy(text + len, line, (size_t)n);
		len += (size_t)n;
		text[len++] = '\n';
		text[len] = '\0';
	}
	return text;
}

/* Destroy the instance; the trace it wrote as text (to free). */
static char *finish(uint64_t *lost)
{
	struct trace_log log;
	char *text;

	CHECK_EQ(nk_instance_destroy(nk), 0);
	nk = NULL;
	CHECK_EQ(trace_ctf_read(trace_dir, &log), 0);
	text = trace_text(&log);
	if (lost)
		*lost = log.lost;
	trace_log_free(&log);
	return text;
}

/* The bytes of @path (to free), their number in *@len. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *data;
	long n;

	CHECK(f != NULL);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	data = malloc((size_t)n + 1);
	CHECK(data != NULL);
	CHECK_EQ(fread(data, 1, (size_t)n, f), n);
	fclose(f);
	data[n] = '\0';
	*len = (size_t)n;
	return data;
}

static struct nk_thread *spawn(const char *name, int prio, nk_thread_fn fn,
			       void *arg)
{
	struct nk_thread_attr attr = {
	    .name = name,
	    .priority = prio,
	    .policy = NK_SCHED_FIFO,
	    .flags = NK_THREAD_JOINABLE,
	};
	struct nk_thread *t;

	CHECK_EQ(nk_thread_create(nk, &attr, &t), 0);
	CHECK_EQ(nk_thread_start(t, fn, arg), 0);
	return t;
}

static void note(const char *what)
{
	log_append(run_log, "%s@%lld", what, (long long)nk_now(nk));
}

/* --- preemption --- */

/* crunch burns 1 ms of CPU; alarm, asleep for 500 us, preempts it for
 * 200 us of its own. */
static void burn_1ms(void *arg)
{
	(void)arg;
	note("low");
	CHECK_EQ(nk_consume(nk, 1 * MS), 0);
	note("low-done");
}

static void nap_then_burn(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_thread_sleep(nk, 500 * US, NK_RELATIVE), NK_WAKE_OK);
	CHECK_EQ(nk_consume(nk, 200 * US), 0);
	note("high");
}

static void preemption(void)
{
	struct nk_thread *low = spawn("crunch", 10, burn_1ms, NULL);
	struct nk_thread *high = spawn("alarm", 20, nap_then_burn, NULL);

	CHECK_EQ(nk_thread_join(high), 0);
	CHECK_EQ(nk_thread_join(low), 0);
}

static const char preemption_trace[] =
    "0 cpu0 create crunch 10\n"
    "0 cpu0 start crunch 10\n"
    "0 cpu0 ready crunch 10\n"
    "0 cpu0 create alarm 20\n"
    "0 cpu0 start alarm 20\n"
    "0 cpu0 ready alarm 20\n"
    "0 cpu0 block main alarm\n"
    "0 cpu0 switch alarm (from main)\n"
    "0 cpu0 block alarm delay\n"
    "0 cpu0 switch crunch (from alarm)\n"
    "500000 cpu0 wake alarm delay 0\n"
    "500000 cpu0 ready alarm 20\n"
    "500000 cpu0 switch alarm (from crunch)\n"
    "700000 cpu0 exit alarm\n"
    "700000 cpu0 wake main alarm 0\n"
    "700000 cpu0 ready main 50\n"
    "700000 cpu0 switch main (from alarm)\n"
    "700000 cpu0 block main crunch\n"
    "700000 cpu0 switch crunch (from main)\n"
    "1200000 cpu0 exit crunch\n"
    "1200000 cpu0 wake main crunch 0\n"
    "1200000 cpu0 ready main 50\n"
    "1200000 cpu0 switch main (from crunch)\n";

TEST(preemption_sequence)
{
	char *text;

	record("all", 50, NULL);
	preemption();
	text = finish(NULL);
	CHECK_STR(text, preemption_trace);
	CHECK_STR(run_log, "low@0 high@700000 low-done@1200000");
	free(text);
	remove_trace();
}

/* The same program, the same bytes: metadata and stream. */
TEST(byte_identical_runs)
{
	const char *files[] = {"metadata", "stream_0"};
	char *first[2], *second[2], path[128];
	size_t len1[2], len2[2];

	for (int run = 0; run < 2; run++) {
		record("all", 50, NULL);
		preemption();
		free(finish(NULL));
		for (int i = 0; i < 2; i++) {
			snprintf(path, sizeof(path), "%s/%s", trace_dir,
				 files[i]);
			if (run == 0)
				first[i] = slurp(path, &len1[i]);
			else
				second[i] = slurp(path, &len2[i]);
		}
		remove_trace();
	}
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(len1[i], len2[i]);
		CHECK(memcmp(first[i], second[i], len1[i]) == 0);
		free(first[i]);
		free(second[i]);
	}
}

/* --- priority inheritance --- */

static struct nk_mutex mtx;

static void owner(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_mutex_lock(&mtx, NK_INFINITE, NK_RELATIVE), NK_WAKE_OK);
	CHECK_EQ(nk_consume(nk, 1 * MS), 0);
	note("owner-unlocks");
	CHECK_EQ(nk_mutex_unlock(&mtx), 0);
}

static void urgent(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_thread_sleep(nk, 500 * US, NK_RELATIVE), NK_WAKE_OK);
	CHECK_EQ(nk_mutex_lock(&mtx, NK_INFINITE, NK_RELATIVE), NK_WAKE_OK);
	note("urgent-locked");
	CHECK_EQ(nk_mutex_unlock(&mtx), 0);
}

static void busy(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_thread_sleep(nk, 600 * US, NK_RELATIVE), NK_WAKE_OK);
	CHECK_EQ(nk_consume(nk, 1 * MS), 0);
	note("busy-done");
}

static const char inheritance_trace[] =
    "0 cpu0 create owner 10\n"
    "0 cpu0 start owner 10\n"
    "0 cpu0 ready owner 10\n"
    "0 cpu0 create urgent 30\n"
    "0 cpu0 start urgent 30\n"
    "0 cpu0 ready urgent 30\n"
    "0 cpu0 create busy 20\n"
    "0 cpu0 start busy 20\n"
    "0 cpu0 ready busy 20\n"
    "0 cpu0 block main urgent\n"
    "0 cpu0 switch urgent (from main)\n"
    "0 cpu0 block urgent delay\n"
    "0 cpu0 switch busy (from urgent)\n"
    "0 cpu0 block busy delay\n"
    "0 cpu0 switch owner (from busy)\n"
    "500000 cpu0 wake urgent delay 0\n"
    "500000 cpu0 ready urgent 30\n"
    "500000 cpu0 switch urgent (from owner)\n"
    "500000 cpu0 block urgent mtx\n"
    "500000 cpu0 prio owner mtx 30\n"
    "500000 cpu0 switch owner (from urgent)\n"
    "600000 cpu0 wake busy delay 0\n"
    "600000 cpu0 ready busy 20\n"
    "1000000 cpu0 wake urgent mtx 0\n"
    "1000000 cpu0 ready urgent 30\n"
    "1000000 cpu0 prio owner 10\n"
    "1000000 cpu0 switch urgent (from owner)\n"
    "1000000 cpu0 exit urgent\n"
    "1000000 cpu0 wake main urgent 0\n"
    "1000000 cpu0 ready main 50\n"
    "1000000 cpu0 switch main (from urgent)\n"
    "1000000 cpu0 block main owner\n"
    "1000000 cpu0 switch busy (from main)\n"
    "2000000 cpu0 exit busy\n"
    "2000000 cpu0 switch owner (from busy)\n"
    "2000000 cpu0 exit owner\n"
    "2000000 cpu0 wake main owner 0\n"
    "2000000 cpu0 ready main 50\n"
    "2000000 cpu0 switch main (from owner)\n";

TEST(inheritance_sequence)
{
	struct nk_thread *a, *b, *c;
	char *text;

	record("sched,thread", 50, NULL);
	CHECK_EQ(nk_mutex_init(nk, &mtx, "mtx", NK_SYNCH_PI, 0), 0);
	a = spawn("owner", 10, owner, NULL);
	b = spawn("urgent", 30, urgent, NULL);
	c = spawn("busy", 20, busy, NULL);
	CHECK_EQ(nk_thread_join(b), 0);
	CHECK_EQ(nk_thread_join(a), 0);
	CHECK_EQ(nk_thread_join(c), 0);
	CHECK_EQ(nk_mutex_destroy(&mtx), 0);
	text = finish(NULL);
	CHECK_STR(text, inheritance_trace);
	free(text);
	remove_trace();
}

/* --- an IRQ forwarded from the head domain to Linux --- */

static struct nk_sem data_ready;
static unsigned int virq;

static void device_irq(unsigned int irq, void *cookie)
{
	(void)irq;
	(void)cookie;
	CHECK_EQ(nk_sem_give(&data_ready), 0);
	CHECK_EQ(ipipe_trigger_irq(nk, virq, 0), 0);
}

static void root_irq(unsigned int irq, void *cookie)
{
	(void)irq;
	(void)cookie;
	note("root");
}

static void rt_task(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_sem_take(&data_ready, NK_INFINITE, NK_RELATIVE),
		 NK_WAKE_OK);
	note("rt");
}

TEST(irq_forwarding_sequence)
{
	struct ipipe_source src = {.kind = IPIPE_SRC_SCRIPT, .name = "dev"};
	struct nk_thread *t;
	unsigned int irq;
	char *text, expect[2048];

	record("sched,irq", 10, "irq dev at 1ms\n");
	CHECK_EQ(nk_sem_init(nk, &data_ready, "data", 0, 0, NK_SYNCH_FIFO), 0);
	CHECK_EQ(ipipe_alloc_virq(nk, &virq), 0);
	CHECK_EQ(ipipe_virtualize_irq(ipipe_root_domain(nk), virq, root_irq,
				      NULL, IPIPE_HANDLE),
		 0);
	CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), 0);
	CHECK_EQ(ipipe_virtualize_irq(ipipe_head_domain(nk), irq, device_irq,
				      NULL, IPIPE_HANDLE),
		 0);
	t = spawn("rt", 80, rt_task, NULL);
	CHECK_EQ(nk_thread_join(t), 0);
	CHECK_EQ(nk_thread_sleep(nk, 1 * MS, NK_RELATIVE), NK_WAKE_OK);
	CHECK_EQ(ipipe_virtualize_irq(ipipe_head_domain(nk), irq, NULL, NULL,
				      IPIPE_PASS),
		 0);
	CHECK_EQ(ipipe_detach_source(nk, irq), 0);
	CHECK_EQ(ipipe_virtualize_irq(ipipe_root_domain(nk), virq, NULL, NULL,
				      IPIPE_PASS),
		 0);
	text = finish(NULL);
	snprintf(expect, sizeof(expect),
		 "0 cpu0 ready rt 80\n"
		 "0 cpu0 switch rt (from main)\n"
		 "0 cpu0 block rt data\n"
		 "0 cpu0 switch main (from rt)\n"
		 "0 cpu0 block main rt\n"
		 "0 cpu0 switch root0 (from main)\n"
		 "1000000 cpu0 irq head %u\n"
		 "1000000 cpu0 wake rt data 0\n"
		 "1000000 cpu0 ready rt 80\n"
		 "1000000 cpu0 switch rt (from root0)\n"
		 "1000000 cpu0 irq_exit head %u\n"
		 "1000000 cpu0 wake main rt 0\n"
		 "1000000 cpu0 ready main 10\n"
		 "1000000 cpu0 switch main (from rt)\n"
		 "1000000 cpu0 block main delay\n"
		 "1000000 cpu0 switch root0 (from main)\n"
		 "1000000 cpu0 irq root %u\n"
		 "1000000 cpu0 irq_exit root %u\n"
		 "2000000 cpu0 wake main delay 0\n"
		 "2000000 cpu0 ready main 10\n"
		 "2000000 cpu0 switch main (from root0)\n",
		 irq, irq, virq, virq);
	CHECK_STR(text, expect);
	CHECK_STR(run_log, "rt@1000000 root@1000000");
	free(text);
	remove_trace();
}

static void nothing(void *arg)
{
	(void)arg;
}

/* A thread of @name (60, above main) that runs and ends at once. */
static void spawn_exited(const char *name)
{
	CHECK_EQ(nk_thread_join(spawn(name, 60, nothing, NULL)), 0);
}

/* --- losses, flight mode, the latency trigger --- */

static void ring_record(struct trace_ring *ring, long arg)
{
	struct trace_rec rec = {
	    .date = arg,
	    .event = NK_TRACE_MARK,
	    .thread = 1,
	    .object = 2,
	    .arg = arg,
	};

	trace_ring_put(ring, &rec);
}

/*
 * Record the arguments 0, 1... @n - 1 in a ring of @slots slots: it
 * keeps @slots of them from @first on, and counts the others as lost.
 */
static void check_ring(size_t slots, bool overwrite, long n, long first)
{
	struct trace_ring *ring = trace_ring_create(
	    slots * (sizeof(struct trace_rec) + 8), overwrite);
	struct trace_rec out[8];
	uint64_t lost;

	CHECK(ring != NULL && slots <= 8);
	CHECK_EQ(trace_ring_capacity(ring), slots);
	for (long i = 0; i < n; i++)
		ring_record(ring, i);
	CHECK_EQ(trace_ring_copy(ring, out, &lost), slots);
	for (size_t i = 0; i < slots; i++)
		CHECK_EQ(out[i].arg, first + (long)i);
	CHECK_EQ(lost, (uint64_t)n - slots);
	trace_ring_destroy(ring);
}

TEST(full_ring_keeps_first_and_counts)
{
	check_ring(1, false, 5, 0);
	check_ring(3, false, 10, 0);
	/* Not full: nothing lost. */
	check_ring(3, false, 3, 0);
}

TEST(flight_ring_keeps_last_and_counts)
{
	check_ring(3, true, 10, 7);
	check_ring(1, true, 5, 4);
	check_ring(3, true, 3, 0);
}

static void many_switches(void *arg)
{
	(void)arg;
	for (int i = 0; i < 20000; i++)
		CHECK_EQ(nk_thread_sleep(nk, 20 * US, NK_RELATIVE), NK_WAKE_OK);
}

/* 1 MiB holds about 5000 events: the rest are counted, in the trace's
 * packet context and on stderr. */
TEST(overflow_is_counted)
{
	struct nk_thread *t;
	uint64_t lost;
	char *text;

	record("sched,size=1", 50, NULL);
	t = spawn("sleeper", 60, many_switches, NULL);
	CHECK_EQ(nk_thread_join(t), 0);
	text = finish(&lost);
	CHECK(lost > 50000);
	/* The first events are the ones kept. */
	CHECK(strncmp(text, "0 cpu0 ready sleeper 60\n", 24) == 0);
	free(text);
	remove_trace();
}

TEST(flight_mode_keeps_the_end)
{
	struct nk_thread *t;
	uint64_t lost;
	char *text;
	size_t len;

	record("sched,size=1,flight", 50, NULL);
	t = spawn("sleeper", 60, many_switches, NULL);
	CHECK_EQ(nk_thread_join(t), 0);
	text = finish(&lost);
	CHECK(lost > 50000);
	len = strlen(text);
	CHECK(len > 40);
	/* main's last wake-up is the last event. */
	CHECK(strstr(text, "switch main (from sleeper)\n") ==
	      text + len - strlen("switch main (from sleeper)\n"));
	free(text);
	remove_trace();
}

static void late_sleeper(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_thread_sleep(nk, 1 * MS, NK_RELATIVE), NK_WAKE_OK);
	note("late");
}

static void hog(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_thread_sleep(nk, 500 * US, NK_RELATIVE), NK_WAKE_OK);
	CHECK_EQ(nk_consume(nk, 2 * MS), 0);
	note("hog");
}

/* late (10) is ready at 1 ms but runs at 2.5 ms, after hog (20): above
 * 1000 us, the recording freezes with a mark as its last event. */
TEST(latency_trigger_freezes)
{
	struct nk_thread *a, *b;
	char *text;
	const char *tail = "2500000 cpu0 switch late (from hog)\n"
			   "2500000 cpu0 mark late latency trigger\n";

	record("sched,mark,latency=1000", 50, NULL);
	a = spawn("late", 10, late_sleeper, NULL);
	b = spawn("hog", 20, hog, NULL);
	CHECK_EQ(nk_thread_join(a), 0);
	CHECK_EQ(nk_thread_join(b), 0);
	CHECK_STR(run_log, "hog@2500000 late@2500000");
	text = finish(NULL);
	CHECK(strlen(text) > strlen(tail));
	CHECK_STR(text + strlen(text) - strlen(tail), tail);
	free(text);
	remove_trace();
}

/* SIGUSR2 writes the trace while the program runs: what was recorded
 * by then, read back before the instance ends. */
TEST(signal_writes_now)
{
	char path[128], *text;
	struct trace_log log;
	int tries = 0;

	record("thread,signal", 50, NULL);
	snprintf(path, sizeof(path), "%s/stream_0", trace_dir);
	CHECK(access(path, F_OK) != 0);
	spawn_exited("first");
	CHECK_EQ(raise(SIGUSR2), 0);
	while (access(path, F_OK) != 0 && tries++ < 500)
		usleep(10000);
	CHECK_EQ(trace_ctf_read(trace_dir, &log), 0);
	text = trace_text(&log);
	trace_log_free(&log);
	CHECK_STR(text, "0 cpu0 create first 60\n"
			"0 cpu0 start first 60\n"
			"0 cpu0 exit first\n");
	free(text);
	/* At the end, everything. */
	spawn_exited("second");
	text = finish(NULL);
	CHECK_STR(text, "0 cpu0 create first 60\n"
			"0 cpu0 start first 60\n"
			"0 cpu0 exit first\n"
			"0 cpu0 create second 60\n"
			"0 cpu0 start second 60\n"
			"0 cpu0 exit second\n");
	free(text);
	remove_trace();
	/* The handler went with the recorder. */
	CHECK(signal(SIGUSR2, SIG_IGN) == SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
}

/* --- categories, marks, services --- */

TEST(categories_filter)
{
	char *text;

	record("thread", 50, NULL);
	preemption();
	text = finish(NULL);
	CHECK_STR(text, "0 cpu0 create crunch 10\n"
			"0 cpu0 start crunch 10\n"
			"0 cpu0 create alarm 20\n"
			"0 cpu0 start alarm 20\n"
			"700000 cpu0 exit alarm\n"
			"1200000 cpu0 exit crunch\n");
	free(text);
	remove_trace();
}

static void marker(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_thread_sleep(nk, 3 * US, NK_RELATIVE), NK_WAKE_OK);
	CHECK_EQ(nk_trace_user(nk, NK_TRACE_MARK, "step 1", NULL, 0), 0);
	CHECK_EQ(nk_trace_user(nk, NK_TRACE_SERVICE, "my_call", "0x12", -22),
		 0);
}

TEST(marks_and_services)
{
	struct nk_thread *t;
	char *text;

	record("mark,service", 50, NULL);
	CHECK_EQ(nk_trace_user(nk, NK_TRACE_MARK, "begin", NULL, 0), 0);
	t = spawn("worker", 60, marker, NULL);
	CHECK_EQ(nk_thread_join(t), 0);
	text = finish(NULL);
	CHECK_STR(text, "0 cpu0 mark main begin\n"
			"3000 cpu0 mark worker step 1\n"
			"3000 cpu0 service worker my_call 0x12 -22\n");
	free(text);
	remove_trace();
}

/* A skin's service calls are a category of their own: "alchemy" keeps
 * Alchemy's and nothing of the other skins' or the generic one's. */
TEST(each_skin_its_category)
{
	char *text;

	record("alchemy,psos", 50, NULL);
	CHECK_EQ(nk_trace_user(nk, NK_TRACE_ALCHEMY, "rt_sem_v", "0x2", 0), 0);
	CHECK_EQ(nk_trace_user(nk, NK_TRACE_VXWORKS, "semGive", "0x3", 0), 0);
	CHECK_EQ(nk_trace_user(nk, NK_TRACE_RTAI, "rt_sem_signal", "0x4", 0),
		 0);
	CHECK_EQ(nk_trace_user(nk, NK_TRACE_SERVICE, "my_call", "0x5", 0), 0);
	CHECK_EQ(nk_trace_user(nk, NK_TRACE_PSOS, "sm_v", "0x6", 5), 0);
	text = finish(NULL);
	CHECK_STR(text, "0 cpu0 alchemy main rt_sem_v 0x2 0\n"
			"0 cpu0 psos main sm_v 0x6 5\n");
	free(text);
	remove_trace();
	CHECK(nk_trace_is_service(NK_TRACE_RTAI));
	CHECK(nk_trace_is_service(NK_TRACE_SERVICE));
	CHECK(!nk_trace_is_service(NK_TRACE_MARK));
	CHECK(!nk_trace_is_service((enum nk_trace_event) - 1));
}

/* Names are kept once per number: a number whose entry a later one
 * took reads "#N"; a text is kept once; past the table's room a new
 * text takes an older one's place, whose number then reads "?", never
 * another text, and the replacements are counted. */
TEST(names_kept_once)
{
	enum { N = 2 * TRACE_TEXTS_MAX };
	struct trace_names *names = trace_names_create();
	static uint32_t numbers[N];
	char buf[NK_NAME_MAX], text[16];
	uint32_t a, b;
	int kept = 0;

	CHECK(names != NULL);
	CHECK_EQ(trace_names_note(names, 7, NULL), 0);
	CHECK_EQ(trace_names_note(names, 7, "seven"), 7);
	CHECK_EQ(trace_names_note(names, 7, "renamed"), 7);
	trace_names_get(names, 7, buf);
	CHECK_STR(buf, "seven");
	CHECK_EQ(trace_names_note(names, 7 + TRACE_IDS_MAX, "later"),
		 7 + TRACE_IDS_MAX);
	trace_names_get(names, 7, buf);
	CHECK_STR(buf, "#7");
	trace_names_get(names, 0, buf);
	CHECK_STR(buf, "");
	a = trace_names_note(names, 0, "delay");
	b = trace_names_note(names, 0, "delay");
	CHECK(a & TRACE_TEXT_BIT);
	CHECK_EQ(a, b);
	trace_names_get(names, a, buf);
	CHECK_STR(buf, "delay");
	CHECK_EQ(trace_names_lost(names), 0);
	for (int i = 0; i < N; i++) {
		snprintf(text, sizeof(text), "t%d", i);
		numbers[i] = trace_names_note(names, 0, text);
	}
	CHECK(trace_names_lost(names) > 0);
	for (int i = 0; i < N; i++) {
		snprintf(text, sizeof(text), "t%d", i);
		trace_names_get(names, numbers[i], buf);
		if (strcmp(buf, text) == 0)
			kept++;
		else
			CHECK_STR(buf, "?");
	}
	/* The last one is there; most of the table is in use. */
	trace_names_get(names, numbers[N - 1], buf);
	CHECK_STR(buf, "t8191");
	CHECK(kept > TRACE_TEXTS_MAX / 2 && kept <= TRACE_TEXTS_MAX);
	trace_names_destroy(names);
}

/* Recording on or off, the threads run in the same order at the same
 * virtual dates. */
TEST(recording_changes_no_behaviour)
{
	struct nk_instance_attr attr = {.backend = "sim", .main_priority = 50};
	char with[sizeof(run_log)];

	record("all", 50, NULL);
	preemption();
	free(finish(NULL));
	remove_trace();
	snprintf(with, sizeof(with), "%s", run_log);
	run_log[0] = '\0';
	unsetenv("FUSION_TRACE");
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	preemption();
	CHECK_EQ(nk_instance_destroy(nk), 0);
	nk = NULL;
	CHECK_STR(run_log, with);
	/* Nothing was written without FUSION_TRACE. */
	CHECK(access(trace_dir, F_OK) != 0);
}

/* --- FUSION_TRACE values --- */

TEST(config_values)
{
	struct trace_config c;
	char why[256];

	CHECK_EQ(trace_config_parse("all", &c, why, sizeof(why)), 0);
	CHECK_EQ(c.categories, (1u << NK_TRACE_NR_CATEGORIES) - 1);
	CHECK_EQ(c.size_mib, TRACE_SIZE_DEFAULT_MIB);
	CHECK_STR(c.out, "fusion-trace");
	CHECK(!c.flight && !c.signal && c.latency == 0);
	CHECK_EQ(trace_config_parse("irq,mode,flight,signal,size=16,out=/tmp/"
				    "x,latency=300",
				    &c, why, sizeof(why)),
		 0);
	CHECK_EQ(c.categories,
		 (1u << NK_TRACE_CAT_IRQ) | (1u << NK_TRACE_CAT_MODE));
	CHECK(c.flight && c.signal);
	CHECK_EQ(c.size_mib, 16);
	CHECK_EQ(c.latency, 300 * US);
	CHECK_STR(c.out, "/tmp/x");
	/* Settings alone record everything. */
	CHECK_EQ(trace_config_parse("flight", &c, why, sizeof(why)), 0);
	CHECK_EQ(c.categories, (1u << NK_TRACE_NR_CATEGORIES) - 1);
	CHECK_EQ(trace_config_parse("off", &c, why, sizeof(why)), 0);
	CHECK_EQ(c.categories, 0);
	CHECK_EQ(trace_config_parse("0", &c, why, sizeof(why)), 0);
	CHECK_EQ(c.categories, 0);
}

TEST(config_bad_values)
{
	static const char *const bad[] = {
	    "sched,",	 ",sched",   "sched,,irq", "nope",	"size=0",
	    "size=1025", "size=x",   "size=",	   "latency=0", "latency=-5",
	    "out=",	 "flight=1", "SCHED",	   "size=1 ",	"latency=1e3",
	};
	struct trace_config c;
	char why[256], longout[300];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		if (trace_config_parse(bad[i], &c, why, sizeof(why)) != -EINVAL)
			test_fail(__FILE__, __LINE__, "accepted '%s'", bad[i]);
		CHECK(why[0] != '\0');
	}
	memset(longout, 'a', sizeof(longout));
	memcpy(longout, "out=", 4);
	longout[sizeof(longout) - 1] = '\0';
	CHECK_EQ(trace_config_parse(longout, &c, why, sizeof(why)), -EINVAL);
}

/* A bad FUSION_TRACE stops the instance from being made. */
TEST(bad_variable_refused)
{
	struct nk_instance_attr attr = {.backend = "sim"};
	struct nk_instance *other = NULL;

	CHECK_EQ(setenv("FUSION_TRACE", "sched,bogus", 1), 0);
	CHECK_EQ(nk_instance_create(&attr, &other), -EINVAL);
	CHECK(other == NULL);
	unsetenv("FUSION_TRACE");
}

/* --- bad input --- */

TEST(tracepoint_table)
{
	for (int ev = 0; ev < NK_TRACE_NR_EVENTS; ev++) {
		const struct nk_tracepoint *tp = nk_tracepoint_info(ev);

		CHECK(tp != NULL && tp->name != NULL && tp->thread != NULL);
		CHECK((unsigned int)tp->category < NK_TRACE_NR_CATEGORIES);
		CHECK_STR(nk_trace_event_name(ev), tp->name);
		/* The text form shows only an argument the event has. */
		CHECK(!tp->text_arg || tp->arg != NULL);
	}
	CHECK(nk_tracepoint_info(NK_TRACE_NR_EVENTS) == NULL);
	CHECK(nk_tracepoint_info((enum nk_trace_event) - 1) == NULL);
	CHECK_STR(nk_trace_category_name(NK_TRACE_CAT_SCHED), "sched");
	CHECK_STR(nk_trace_category_name(NK_TRACE_NR_CATEGORIES), "?");
	CHECK_STR(nk_trace_category_name((enum nk_trace_category) - 1), "?");
}

TEST(bad_input)
{
	struct nk_instance_attr attr = {.backend = "sim"};
	unsigned int forged[64] = {0};

	CHECK(!nk_trace_active(NULL));
	CHECK(!nk_trace_active((struct nk_instance *)forged));
	CHECK_EQ(nk_trace_user(NULL, NK_TRACE_MARK, "x", NULL, 0), -EINVAL);
	CHECK_EQ(nk_trace_user((struct nk_instance *)forged, NK_TRACE_MARK, "x",
			       NULL, 0),
		 -EINVAL);
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	/* Nothing records: active is false, a mark is accepted, unseen. */
	CHECK(!nk_trace_active(nk));
	CHECK_EQ(nk_trace_user(nk, NK_TRACE_MARK, "x", NULL, 0), 0);
	CHECK_EQ(nk_trace_user(nk, NK_TRACE_MARK, NULL, NULL, 0), -EINVAL);
	CHECK_EQ(nk_trace_user(nk, NK_TRACE_SWITCH, "x", NULL, 0), -EINVAL);
	CHECK_EQ(nk_trace_user(nk, NK_TRACE_NR_EVENTS, "x", NULL, 0), -EINVAL);
	CHECK_EQ(nk_trace_user(nk, (enum nk_trace_event) - 1, "x", NULL, 0),
		 -EINVAL);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	nk = NULL;
	CHECK_EQ(fusion_trace_mark(NULL), -EINVAL);
	/* No process-wide instance (fusion_runtime) in this test. */
	CHECK(fusion_runtime_peek() == NULL);
	CHECK_EQ(fusion_trace_mark("m %d", 1), -ESRCH);
}

TEST(reader_refuses_other_traces)
{
	struct trace_log log;
	char path[128];
	FILE *f;

	CHECK_EQ(trace_ctf_read("no-such-trace-dir", &log), -ENOENT);
	snprintf(trace_dir, sizeof(trace_dir), "trace-%d", (int)getpid());
	CHECK_EQ(mkdir(trace_dir, 0777), 0);
	snprintf(path, sizeof(path), "%s/metadata", trace_dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fputs("/* CTF 1.8 */\nenv { tracer_name = \"lttng-ust\"; };\n", f);
	fclose(f);
	CHECK_EQ(trace_ctf_read(trace_dir, &log), -EPROTO);
	f = fopen(path, "w");
	fputs("/* CTF 1.8 */\nenv { tracer_name = \"fusion\"; };\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/stream_0", trace_dir);
	f = fopen(path, "w");
	fputs("garbage, not a packet of this writer: too short?", f);
	fclose(f);
	CHECK_EQ(trace_ctf_read(trace_dir, &log), -EPROTO);
	remove_trace();
}

TESTS(T(preemption_sequence), T(byte_identical_runs), T(inheritance_sequence),
      T(irq_forwarding_sequence), T(full_ring_keeps_first_and_counts),
      T(flight_ring_keeps_last_and_counts), T(overflow_is_counted),
      T(flight_mode_keeps_the_end), T(latency_trigger_freezes),
      T(signal_writes_now), T(categories_filter), T(marks_and_services),
      T(each_skin_its_category), T(names_kept_once),
      T(recording_changes_no_behaviour), T(config_values), T(config_bad_values),
      T(bad_variable_refused), T(tracepoint_table), T(bad_input),
      T(reader_refuses_other_traces));
