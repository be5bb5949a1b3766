/* SPDX-License-Identifier: MIT */
/*
 * Syscall User Dispatch where Fusion has no port of it (every
 * architecture but x86-64): the feature is reported missing, so the
 * backend never turns it on and a stray system call in primary mode is
 * not caught (the documented fallback: architecture.md, "Backends").
 *
 * A port needs the kernel's SUD (its generic entry code: riscv64 has it
 * since Linux 6.2, arm64 kernels long had their own entry code without
 * it) and a signal return inside the one allowed range; on riscv64 the
 * kernel ignores sa_restorer and always returns through the vDSO, so a
 * port there would have to end every handler with its own rt_sigreturn.
 */
#include "live.h"

#include <errno.h>

bool live_sud_probe(void)
{
	return false;
}

int live_sud_install(void)
{
	return -ENOSYS;
}

int live_sud_enable_self(void)
{
	return -ENOSYS;
}

/* Without SUD there is no selector: nothing to open or close. */
void live_sud_disable_self(void)
{
}

nk_hot void live_sud_allow(void)
{
}

nk_hot void live_sud_block(void)
{
}

char live_sud_save_allow(void)
{
	return 0;
}

void live_sud_restore(char old)
{
	(void)old;
}

int live_sud_sigaction(int sig, void (*handler)(int, siginfo_t *, void *),
		       int also)
{
	(void)sig;
	(void)handler;
	(void)also;
	return -ENOSYS;
}

/* Never called: no SIGSYS comes from SUD here. */
void live_sud_retry(void *context, int nr)
{
	(void)context;
	(void)nr;
}
