/* SPDX-License-Identifier: MIT */
/*
 * fusion sim --gui's server (tools/sim_gui.c), from outside, as any
 * local process would reach it: every request without the token of the
 * printed URL (or with another, or from another site's page) is
 * refused with 403, the page's files included; nothing listens beyond
 * 127.0.0.1; the API turns one line into one runner command and refuses
 * anything else; `pause` stops a `run` under way; SIGTERM ends it, a
 * run under way too.  FUSION_TOOL names the fusion binary, GUI_APP the
 * program it debugs (examples/alchemy/inversion), GUI_FOREVER one that
 * never ends (forever.c).
 */
#include "harness.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct server {
	pid_t pid;
	unsigned port;
	char token[64];
	char host[32];
};

/* On the inversion, and on a program that never ends (forever.c). */
static struct server gui, forever;

struct reply {
	int status;
	char head[2048];
	char body[8192];
};

/* Start `fusion sim --gui -- $@app` and read its URL's line. */
static void start_gui(struct server *s, const char *app_var)
{
	const char *tool = getenv("FUSION_TOOL"), *app = getenv(app_var);
	char line[256];
	int out[2];
	FILE *in;

	CHECK(tool && app);
	CHECK(pipe(out) == 0);
	s->pid = fork();
	CHECK(s->pid >= 0);
	if (s->pid == 0) {
		dup2(out[1], STDOUT_FILENO);
		close(out[0]);
		close(out[1]);
		execl(tool, tool, "sim", "--gui", "--", app, (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	in = fdopen(out[0], "r");
	CHECK(in);
	/* The program's own output may come first. */
	while (fgets(line, sizeof(line), in))
		if (sscanf(line, "http://127.0.0.1:%u/%63[0-9a-f]/", &s->port,
			   s->token) == 2)
			break;
	CHECK(s->port != 0);
	CHECK_EQ(strlen(s->token), 32);
	snprintf(s->host, sizeof(s->host), "127.0.0.1:%u", s->port);
	/* The program's later lines have nowhere to go but here. */
	if (fork() == 0) {
		while (fgets(line, sizeof(line), in))
			;
		_exit(0);
	}
	fclose(in);
}

static int connect_to(const struct server *s, int family, const char *addr)
{
	struct sockaddr_storage ss = {0};
	socklen_t len;
	int fd, ret;

	if (family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;

		in->sin_family = AF_INET;
		in->sin_port = htons(s->port);
		inet_pton(AF_INET, addr, &in->sin_addr);
		len = sizeof(*in);
	} else {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(s->port);
		inet_pton(AF_INET6, addr, &in6->sin6_addr);
		len = sizeof(*in6);
	}
	fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	ret = connect(fd, (struct sockaddr *)&ss, len);
	if (ret) {
		ret = -errno;
		close(fd);
		return ret;
	}
	return fd;
}

/*
 * One request on its own connection, with the @len bytes of @body;
 * @host NULL: no Host header (an HTTP/1.0 request then).  The status
 * and what follows the headers.
 */
static void request_len(const struct server *s, const char *method,
			const char *path, const char *host, const char *body,
			size_t len, struct reply *r)
{
	char req[4096], all[sizeof(r->head) + sizeof(r->body)];
	size_t got = 0;
	char *end;
	ssize_t n;
	int fd = connect_to(s, AF_INET, "127.0.0.1");

	CHECK(fd >= 0);
	if (host)
		snprintf(req, sizeof(req),
			 "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n"
			 "Content-Length: %zu\r\n\r\n",
			 method, path, host, len);
	else
		snprintf(req, sizeof(req), "%s %s HTTP/1.0\r\n\r\n", method,
			 path);
	CHECK(write(fd, req, strlen(req)) == (ssize_t)strlen(req));
	if (host)
		CHECK(write(fd, body, len) == (ssize_t)len);
	while ((n = read(fd, all + got, sizeof(all) - 1 - got)) > 0)
		got += (size_t)n;
	close(fd);
	all[got] = '\0';
	CHECK_EQ(sscanf(all, "HTTP/1.%*d %d", &r->status), 1);
	end = strstr(all, "\r\n\r\n");
	CHECK(end);
	*end = '\0';
	snprintf(r->head, sizeof(r->head), "%.*s", (int)sizeof(r->head) - 1,
		 all);
	snprintf(r->body, sizeof(r->body), "%.*s", (int)sizeof(r->body) - 1,
		 end + 4);
}

static void request_to(const struct server *s, const char *method,
		       const char *path, const char *host, const char *body,
		       struct reply *r)
{
	request_len(s, method, path, host, body, strlen(body), r);
}

static void request(const char *method, const char *path, const char *host,
		    const char *body, struct reply *r)
{
	request_to(&gui, method, path, host, body, r);
}

static int status_of(const char *method, const char *path, const char *body)
{
	struct reply r;

	request(method, path, gui.host, body, &r);
	return r.status;
}

static void at(char *out, size_t size, const char *token, const char *rest)
{
	snprintf(out, size, "/%s/%s", token, rest);
}

TEST(page_with_token)
{
	char path[128], host[32];
	struct reply r;

	start_gui(&gui, "GUI_APP");
	at(path, sizeof(path), gui.token, "");
	request("GET", path, gui.host, "", &r);
	CHECK_EQ(r.status, 200);
	CHECK(strstr(r.head, "text/html"));
	CHECK(strstr(r.head, "Content-Security-Policy: default-src 'self'"));
	CHECK(strstr(r.body, "<title>fusion sim</title>"));
	at(path, sizeof(path), gui.token, "app.js");
	request("GET", path, gui.host, "", &r);
	CHECK_EQ(r.status, 200);
	CHECK(strstr(r.head, "Content-Type: text/javascript"));
	/* The same host by its name, as a browser may send it. */
	snprintf(host, sizeof(host), "localhost:%u", gui.port);
	at(path, sizeof(path), gui.token, "");
	request("GET", path, host, "", &r);
	CHECK_EQ(r.status, 200);
}

TEST(no_token_refused)
{
	static const char *const paths[] = {
	    "/", "/index.html", "/app.js", "/style.css", "/api/run", "/api",
	};
	struct reply r;

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		request("GET", paths[i], gui.host, "", &r);
		CHECK_EQ(r.status, 403);
		CHECK_STR(r.body, "forbidden\n");
		CHECK_EQ(status_of("POST", paths[i], "run"), 403);
	}
}

TEST(wrong_token_refused)
{
	char token[64], path[160];

	/* One character off, at each end. */
	for (int end = 0; end < 2; end++) {
		snprintf(token, sizeof(token), "%s", gui.token);
		token[end ? 31 : 0] = token[end ? 31 : 0] == 'a' ? 'b' : 'a';
		at(path, sizeof(path), token, "");
		CHECK_EQ(status_of("GET", path, ""), 403);
		at(path, sizeof(path), token, "app.js");
		CHECK_EQ(status_of("GET", path, ""), 403);
		at(path, sizeof(path), token, "api/run");
		CHECK_EQ(status_of("POST", path, ""), 403);
	}
	/* A prefix, the token without its slash, a longer one. */
	snprintf(path, sizeof(path), "/%.31s/", gui.token);
	CHECK_EQ(status_of("GET", path, ""), 403);
	snprintf(path, sizeof(path), "/%s", gui.token);
	CHECK_EQ(status_of("GET", path, ""), 403);
	snprintf(path, sizeof(path), "/%s0/", gui.token);
	CHECK_EQ(status_of("GET", path, ""), 403);
	snprintf(path, sizeof(path), "/%s0/app.js", gui.token);
	CHECK_EQ(status_of("GET", path, ""), 403);
}

/* Another site's page that resolves its name to 127.0.0.1 sends its
 * own name as the Host: refused even with the token. */
TEST(foreign_host_refused)
{
	char path[128], host[64];
	struct reply r;

	at(path, sizeof(path), gui.token, "");
	snprintf(host, sizeof(host), "attacker.example:%u", gui.port);
	request("GET", path, host, "", &r);
	CHECK_EQ(r.status, 403);
	request("GET", path, NULL, "", &r);
	CHECK_EQ(r.status, 403);
}

/* Is a socket listening on @port in /proc/net/@file, and on which
 * address (the kernel's hex)? */
static int listeners(const char *file, unsigned port, char *addr, size_t size)
{
	char path[64], line[512], local[64];
	unsigned lport, state;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/net/%s", file);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " %*d: %63[0-9A-F]:%x %*[0-9A-F]:%*x %x",
			   local, &lport, &state) == 3 &&
		    lport == port && state == 0x0a) {
			snprintf(addr, size, "%s", local);
			found++;
		}
	fclose(f);
	return found;
}

TEST(listens_on_loopback_only)
{
	char addr[64] = "";
	int fd;

	CHECK_EQ(listeners("tcp", gui.port, addr, sizeof(addr)), 1);
	CHECK_STR(addr, "0100007F"); /* 127.0.0.1 */
	CHECK_EQ(listeners("tcp6", gui.port, addr, sizeof(addr)), 0);
	/* Bound to 0.0.0.0, the server would answer there too. */
	fd = connect_to(&gui, AF_INET, "127.0.0.2");
	CHECK_EQ(fd, -ECONNREFUSED);
	fd = connect_to(&gui, AF_INET6, "::1");
	CHECK(fd == -ECONNREFUSED || fd == -EADDRNOTAVAIL ||
	      fd == -EAFNOSUPPORT || fd == -ENETUNREACH);
}

TEST(api_commands)
{
	char path[128], body[2048];
	struct reply r;

	at(path, sizeof(path), gui.token, "api/break");
	request("POST", path, gui.host, "list", &r);
	CHECK_EQ(r.status, 200);
	CHECK(strstr(r.head, "Content-Type: application/json"));
	CHECK_STR(r.body, "{\"ok\":true,\"state\":\"paused\",\"date\":0,"
			  "\"breaks\":[]}");
	/* The runner judges the arguments. */
	at(path, sizeof(path), gui.token, "api/print");
	request("POST", path, gui.host, "nonsense", &r);
	CHECK_EQ(r.status, 200);
	CHECK(strncmp(r.body, "{\"ok\":false,\"error\":", 20) == 0);
	/* A second line would be a second command on the runner's wire. */
	request("POST", path, gui.host, "threads\nrun", &r);
	CHECK_EQ(r.status, 400);
	CHECK(strncmp(r.body, "{\"ok\":false,\"error\":", 20) == 0);
	CHECK_EQ(status_of("POST", path, "threads\trun"), 400);
	/* Nor a NUL, which would cut the line short. */
	request_len(&gui, "POST", path, gui.host, "threads\0run", 11, &r);
	CHECK_EQ(r.status, 400);
	memset(body, 'x', 1025);
	body[1025] = '\0';
	CHECK_EQ(status_of("POST", path, body), 400);
	body[1024] = '\0';
	request("POST", path, gui.host, body, &r);
	CHECK_EQ(r.status, 200);
	CHECK(strncmp(r.body, "{\"ok\":false,\"error\":", 20) == 0);
	CHECK_EQ(status_of("GET", path, ""), 405);
	at(path, sizeof(path), gui.token, "api/quit");
	CHECK_EQ(status_of("POST", path, ""), 404);
	at(path, sizeof(path), gui.token, "api/");
	CHECK_EQ(status_of("POST", path, ""), 404);
	/* Nothing ran: still paused at the start. */
	at(path, sizeof(path), gui.token, "api/print");
	request("POST", path, gui.host, "threads", &r);
	CHECK(strncmp(r.body, "{\"ok\":true,\"state\":\"paused\",\"date\":0,",
		      37) == 0);
}

TEST(only_the_page_files)
{
	static const char *const rests[] = {
	    "../tools/sim_gui.c", "%2e%2e/%2e%2e/etc/passwd",
	    "..%2fapp.js",	  ".hidden.js",
	    "sub/app.js",	  "index",
	    "app.js.orig",	  "nothing.js",
	};
	char path[256];

	for (size_t i = 0; i < sizeof(rests) / sizeof(rests[0]); i++) {
		at(path, sizeof(path), gui.token, rests[i]);
		CHECK_EQ(status_of("GET", path, ""), 404);
	}
	at(path, sizeof(path), gui.token, "app.js");
	CHECK_EQ(status_of("POST", path, ""), 405);
	CHECK_EQ(status_of("HEAD", path, ""), 200);
}

/* SIGTERM @s; its exit status, or -1 if it has not ended in 5 s. */
static int terminate(const struct server *s)
{
	struct timespec pause = {0, 10000000};
	int status = 0;
	pid_t done = 0;

	CHECK_EQ(kill(s->pid, SIGTERM), 0);
	for (int i = 0; i < 500 && done == 0; i++) {
		done = waitpid(s->pid, &status, WNOHANG);
		if (done == 0)
			nanosleep(&pause, NULL);
	}
	CHECK_EQ(done, s->pid);
	CHECK(WIFEXITED(status));
	return WEXITSTATUS(status);
}

TEST(sigterm_ends_it)
{
	CHECK_EQ(terminate(&gui), 0);
	CHECK_EQ(connect_to(&gui, AF_INET, "127.0.0.1"), -ECONNREFUSED);
}

/* A `run` of the forever program, on its own connection. */
struct run_request {
	char path[128];
	struct reply reply;
	atomic_bool done;
};

static void *run_forever(void *arg)
{
	struct run_request *run = arg;

	request_to(&forever, "POST", run->path, forever.host, "", &run->reply);
	atomic_store(&run->done, true);
	return NULL;
}

static void start_run(pthread_t *thread, struct run_request *run)
{
	snprintf(run->path, sizeof(run->path), "/%s/api/run", forever.token);
	atomic_init(&run->done, false);
	CHECK_EQ(pthread_create(thread, NULL, run_forever, run), 0);
}

/* Has @run returned within @ms? */
static bool run_returned(struct run_request *run, int ms)
{
	struct timespec tick = {0, 10000000};

	for (int i = 0; i < ms / 10 && !atomic_load(&run->done); i++)
		nanosleep(&tick, NULL);
	return atomic_load(&run->done);
}

/* `run` holds its request while `pause`, on another connection,
 * stops it: a thread per connection. */
TEST(pause_stops_a_run)
{
	struct run_request run;
	pthread_t thread;
	char path[128];
	struct reply r;

	start_gui(&forever, "GUI_FOREVER");
	start_run(&thread, &run);
	/* A pause that comes before the run has started finds the program
	 * paused, and does nothing: pause until the run returns. */
	snprintf(path, sizeof(path), "/%s/api/pause", forever.token);
	for (int i = 0; i < 100 && !run_returned(&run, 100); i++) {
		request_to(&forever, "POST", path, forever.host, "", &r);
		CHECK_EQ(r.status, 200);
	}
	CHECK(atomic_load(&run.done));
	CHECK_EQ(pthread_join(thread, NULL), 0);
	CHECK_EQ(run.reply.status, 200);
	CHECK(strstr(run.reply.body, "\"state\":\"paused\""));
	CHECK(strstr(run.reply.body, "\"reason\":\"pause\""));
}

/* SIGTERM while a run is under way: the server pauses it, answers it,
 * and ends. */
TEST(sigterm_during_a_run)
{
	struct run_request run;
	pthread_t thread;

	start_run(&thread, &run);
	/* Under way: its request holds its connection for more than
	 * 100 ms (the server pauses it whenever it comes). */
	CHECK(!run_returned(&run, 100));
	CHECK_EQ(terminate(&forever), 0);
	CHECK_EQ(pthread_join(thread, NULL), 0);
	/* Paused; or, had the request not reached the runner before the
	 * signal (a slow sanitized build), refused as the server closes. */
	if (run.reply.status == 200)
		CHECK(strstr(run.reply.body, "\"reason\":\"pause\""));
	else
		CHECK_STR(
		    run.reply.body,
		    "{\"ok\":false,\"error\":\"the debugger is closing\"}");
}

TESTS(T(page_with_token), T(no_token_refused), T(wrong_token_refused),
      T(foreign_host_refused), T(listens_on_loopback_only), T(api_commands),
      T(only_the_page_files), T(sigterm_ends_it), T(pause_stops_a_run),
      T(sigterm_during_a_run));
