/* SPDX-License-Identifier: MIT */
/*
 * An application as users build it, with the flags of fusion-config or
 * fusion-alchemy.pc (test_fusion_config.sh compiles it outside CMake).
 * Run as `runtime_app --backend=sim keep`, it prints one line saying
 * what it found; linked with the main() wrapper, the line must be
 * "self=main backend=sim argc=2 argv1=keep".
 */
#include <fusion/fusion.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct nk_instance *nk;
	struct nk_thread *self;
	int ret = fusion_runtime(&nk);

	if (ret) {
		printf("fusion_runtime: %s\n", strerror(-ret));
		return 1;
	}
	self = nk_thread_self(nk);
	printf("self=%s backend=%s argc=%d argv1=%s\n",
	       self ? nk_thread_name(self) : "(null)", nk_instance_backend(nk),
	       argc, argc > 1 ? argv[1] : "(none)");
	return 0;
}
