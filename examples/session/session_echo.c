/* SPDX-License-Identifier: MIT */
/*
 * Two programs, one real-time system: a server process makes an Alchemy
 * task named "echo" that answers each message with it in capitals; a
 * client process, started on its own, finds the task by name and talks
 * to it with rt_task_send(), as two Xenomai processes would.  Run
 *
 *     session_echo server & session_echo client; wait
 *
 * Both join the session "echo" (or FUSION_SESSION): the client's
 * messages go from its own buffers to the server's and back, and its
 * task and the server's share one scheduler.  The client prints each
 * reply, then tells the server to end.
 */
#include <alchemy/task.h>
#include <fusion/session.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OP_ECHO 1
#define OP_QUIT 2

static void server(void *arg)
{
	char buf[64];
	RT_TASK_MCB in, out;
	int flow;

	(void)arg;
	for (;;) {
		in = (RT_TASK_MCB){.data = buf, .size = sizeof(buf)};
		flow = rt_task_receive(&in, TM_INFINITE);
		if (flow <= 0)
			return;
		for (ssize_t i = 0; i < in.size; i++)
			buf[i] = (char)toupper((unsigned char)buf[i]);
		out = (RT_TASK_MCB){
		    .opcode = in.opcode, .data = buf, .size = in.size};
		rt_task_reply(flow, &out);
		if (in.opcode == OP_QUIT)
			return;
	}
}

static int run_server(void)
{
	RT_TASK task;
	int ret = rt_task_create(&task, "echo", 0, 50, T_JOINABLE);

	if (ret == 0)
		ret = rt_task_start(&task, server, NULL);
	if (ret == 0)
		ret = rt_task_join(&task);
	return ret;
}

static int run_client(void)
{
	static const char *const words[] = {"hello", "from", "another",
					    "process"};
	char reply[64];
	RT_TASK echo;
	int ret;

	/* The server may still be starting: wait up to 5 s for it. */
	ret = rt_task_bind(&echo, "echo", 5000000000ULL);
	for (size_t i = 0; ret == 0 && i <= sizeof(words) / sizeof(*words);
	     i++) {
		const char *w = i < 4 ? words[i] : "bye";
		RT_TASK_MCB out = {.opcode = i < 4 ? OP_ECHO : OP_QUIT,
				   .data = (void *)w,
				   .size = (ssize_t)strlen(w) + 1};
		RT_TASK_MCB in = {.data = reply, .size = sizeof(reply)};
		ssize_t n = rt_task_send(&echo, &out, &in, TM_INFINITE);

		if (n < 0)
			ret = (int)n;
		else
			printf("%s -> %s\n", w, reply);
	}
	return ret;
}

int main(int argc, char **argv)
{
	const char *name = getenv("FUSION_SESSION");
	int ret;

	if (argc != 2 || (strcmp(argv[1], "server") != 0 &&
			  strcmp(argv[1], "client") != 0)) {
		fprintf(stderr, "usage: session_echo server|client\n");
		return 2;
	}
	ret = fusion_session_join(name && name[0] ? name : "echo");
	if (ret == 0)
		ret = strcmp(argv[1], "server") == 0 ? run_server()
						     : run_client();
	if (ret) {
		fprintf(stderr, "session_echo %s: %s\n", argv[1],
			strerror(-ret));
		return 1;
	}
	return 0;
}
