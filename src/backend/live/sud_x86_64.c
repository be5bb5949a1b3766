/* SPDX-License-Identifier: MIT */
/*
 * Automatic relax with Syscall User Dispatch (Linux >= 5.11): the x86-64
 * port.  CMake builds it on x86-64 and sud_none.c elsewhere.
 *
 * In primary mode a shadow's selector byte is BLOCK: any system call made
 * outside the nucleus raises SIGSYS.  The handler switches the thread to
 * secondary mode (the nucleus gives its CPU to the next thread), sets
 * the selector to ALLOW and rewinds the instruction pointer so that the
 * call is issued again on return - now as an ordinary Linux thread.  The
 * nucleus opens the selector around its own calls (live_nucleus_lock),
 * and closes it when a primary-mode thread returns to application code.
 *
 * Our signal handlers return through a restorer of our own that lies in
 * the one code range SUD always allows, so that rt_sigreturn passes
 * whatever the selector says.
 */
#include "live.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH 59
#define PR_SYS_DISPATCH_OFF 0
#define PR_SYS_DISPATCH_ON 1
#define SYSCALL_DISPATCH_FILTER_ALLOW 0
#define SYSCALL_DISPATCH_FILTER_BLOCK 1
#endif
#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000
#endif

/*
 * The allowed range: rt_sigreturn for our handlers, nothing else.  The
 * kernel tests the address after the syscall instruction (the saved
 * user instruction pointer), so the range ends past the hlt that
 * follows it, never at it.
 */
void live_sud_restorer(void) __attribute__((visibility("hidden")));
extern const char live_sud_restorer_end[] __attribute__((visibility("hidden")));
/*
 * The nop before the label matters: an unwinder looks up the caller's
 * frame at (return address - 1), which must not fall inside the
 * preceding function, or unwinding through a signal handler (a thread
 * ended while parked in the preemption handler) fails.  glibc's own
 * restorer is laid out the same way.
 */
__asm__(".text\n"
	"\tnop\n"
	".globl live_sud_restorer\n"
	".hidden live_sud_restorer\n"
	".type live_sud_restorer, @function\n"
	"live_sud_restorer:\n"
	"\tmovq $15, %rax\n" /* __NR_rt_sigreturn */
	"\tsyscall\n"
	"\thlt\n"
	".globl live_sud_restorer_end\n"
	".hidden live_sud_restorer_end\n"
	"live_sud_restorer_end:\n");

/* The selector byte of this OS thread. */
static __thread volatile char live_selector = SYSCALL_DISPATCH_FILTER_ALLOW;

nk_hot void live_sud_allow(void)
{
	live_selector = SYSCALL_DISPATCH_FILTER_ALLOW;
}

nk_hot void live_sud_block(void)
{
	live_selector = SYSCALL_DISPATCH_FILTER_BLOCK;
}

char live_sud_save_allow(void)
{
	char old = live_selector;

	live_selector = SYSCALL_DISPATCH_FILTER_ALLOW;
	return old;
}

void live_sud_restore(char old)
{
	live_selector = old;
}

void live_sud_retry(void *context, int nr)
{
	ucontext_t *uc = context;

	uc->uc_mcontext.gregs[REG_RIP] -= 2; /* the 2-byte syscall opcode */
	uc->uc_mcontext.gregs[REG_RAX] = nr;
}

static void sigsys_handler(int sig, siginfo_t *info, void *context)
{
	int saved_errno = errno;

	(void)sig;
	live_selector = SYSCALL_DISPATCH_FILTER_ALLOW;
	live_relax_from_syscall(info->si_syscall);
	/* Issue the call again, as a secondary-mode thread. */
	live_sud_retry(context, info->si_syscall);
	errno = saved_errno;
}

struct kernel_sigaction {
	void (*handler)(int, siginfo_t *, void *);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

/*
 * sigaction() with our restorer (glibc would install its own, outside
 * the allowed range).  Masks @also while the handler runs.
 */
int live_sud_sigaction(int sig, void (*handler)(int, siginfo_t *, void *),
		       int also)
{
	struct kernel_sigaction ksa = {
	    .handler = handler,
	    .flags = SA_SIGINFO | SA_RESTART | SA_RESTORER,
	    .restorer = live_sud_restorer,
	    .mask = also ? 1ull << (also - 1) : 0,
	};

	if (syscall(SYS_rt_sigaction, sig, &ksa, NULL, sizeof(ksa.mask)))
		return -errno;
	return 0;
}

bool live_sud_probe(void)
{
	return prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_OFF, 0, 0,
		     0) == 0;
}

int live_sud_install(void)
{
	return live_sud_sigaction(SIGSYS, sigsys_handler, 0);
}

int live_sud_enable_self(void)
{
	uintptr_t start = (uintptr_t)live_sud_restorer;

	live_selector = SYSCALL_DISPATCH_FILTER_ALLOW;
	if (prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, start,
		  (uintptr_t)live_sud_restorer_end - start, &live_selector))
		return -errno;
	return 0;
}

void live_sud_disable_self(void)
{
	live_selector = SYSCALL_DISPATCH_FILTER_ALLOW;
	prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_OFF, 0, 0, 0);
}
