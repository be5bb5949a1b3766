/* SPDX-License-Identifier: MIT */
/*
 * Minimal test harness.  A test file defines test functions with TEST(),
 * lists them in a TESTS() table and gets main() from harness.c.  Checks
 * report file:line and the values compared; a failed check ends the test
 * case (not the binary); a failed check in another thread ends the binary
 * with a failure.  The last line is "N passed, N failed".
 */
#ifndef FUSION_TEST_HARNESS_H
#define FUSION_TEST_HARNESS_H

#include <inttypes.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

struct test_case {
	const char *name;
	void (*fn)(void);
};

extern const struct test_case test_cases[];
void test_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));

#define TEST(name) static void name(void)
#define TESTS(...)                                                             \
	const struct test_case test_cases[] = {__VA_ARGS__, {NULL, NULL}}
#define T(name)                                                                \
	{                                                                      \
#name, name                                                    \
	}

/*
 * Append the formatted text to @log (a char array), after a space unless
 * it is empty: the run and event logs tests compare with CHECK_STR.
 */
void test_log_append(char *log, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define log_append(log, ...) test_log_append(log, sizeof(log), __VA_ARGS__)

/*
 * Copy @expected into @out (@size bytes with the NUL), dropping the
 * dates ("@" and the digits after it) unless @dated: trails compare
 * exact dates on sim, the order alone on live.
 */
void test_undate(const char *expected, bool dated, char *out, size_t size);

/*
 * Fork; in the child, run @child(@arg) with its stderr into a pipe and
 * exit with what it returns.  In the parent, read that stderr into @err
 * (@size bytes with the terminating NUL, the rest dropped) until the
 * child closes it, and wait for the child.  Returns its wait status.
 * For what must not run in the test's own process: an abort, the
 * watchdog, a report on stderr.
 */
int test_run_child(int (*child)(void *), void *arg, char *err, size_t size);

/*
 * Does the live backend run its threads SCHED_FIFO here (not
 * FUSION_NO_RT, and permitted)?  Creates and destroys an instance.
 */
bool test_fifo_allowed(void);

/*
 * Does the test run under an emulator (qemu-user, a cross build)?  Its
 * first run of any code is a translation, and its signals wait for a
 * block's end: dates and turns there are not real time's.
 */
bool test_emulated(void);

/* The id of this process's thread named @name (its comm), or -1. */
pid_t test_task_named(const char *name);
/* The same, of process @pid. */
pid_t test_task_named_in(pid_t pid, const char *name);

/* The SCHED_FIFO priority of Linux thread @tid, or 0 when it has none. */
int test_fifo_of(pid_t tid);

/*
 * Fail the test unless @nk passes nk_instance_check(), saying what is
 * wrong.  The runner checks the runtime's instance (the skins') after
 * every test; tests of private instances call it before they end them.
 */
struct nk_instance;
void test_instance_whole(struct nk_instance *nk);

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond))                                                   \
			test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);     \
	} while (0)

#define CHECK_EQ(a, b)                                                         \
	do {                                                                   \
		long long va_ = (long long)(a), vb_ = (long long)(b);          \
		if (va_ != vb_)                                                \
			test_fail(__FILE__, __LINE__,                          \
				  "%s == %s: %lld != %lld", #a, #b, va_, vb_); \
	} while (0)

#define CHECK_STR(a, b)                                                        \
	do {                                                                   \
		const char *sa_ = (a), *sb_ = (b);                             \
		if (strcmp(sa_, sb_) != 0)                                     \
			test_fail(__FILE__, __LINE__,                          \
				  "%s == %s:\n  \"%s\"\n  \"%s\"", #a, #b,     \
				  sa_, sb_);                                   \
	} while (0)

#endif
