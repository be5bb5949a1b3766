/* SPDX-License-Identifier: MIT */
/*
 * fusion sim --gui: libmicrohttpd serves the page's files and its API on
 * 127.0.0.1 (sim_gui.h).  Every URL starts with the token:
 *
 *   /TOKEN/            the page (index.html)
 *   /TOKEN/NAME        its files (GET)
 *   /TOKEN/api/VERB    the runner's command "VERB BODY" (POST), its
 *                      JSON reply as the answer
 *
 * A thread per connection: `run` holds its request until the program
 * stops, while `pause` comes on another connection, as the runner
 * allows (docs/sim-debugger.md, The runner's C API).
 */
#include "sim_gui.h"
#include "sim_gui_assets.h"
#include "sim_runner.h"

#include <microhttpd.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* 128 random bits: as hard to guess as a session key. */
#define TOKEN_BYTES 16
#define TOKEN_LEN (2 * TOKEN_BYTES)
/* A command line: a verb and a breakpoint spec or a date. */
#define BODY_MAX 1024

struct gui {
	struct sim_runner *runner;
	int assets;
	char token[TOKEN_LEN + 1];
	/* The Host headers a page of ours sends: any other is a page of
	 * another site reaching us through DNS rebinding. */
	char hosts[2][32];
	/* Commands underway, from their start until their answer is
	 * sent, so that the end waits for them. */
	pthread_mutex_t lock;
	pthread_cond_t idle;
	int underway;
	bool closing;
};

/* A POST's body, gathered over the handler's calls. */
struct upload {
	size_t len;
	bool too_long;
	bool underway; /* counted in gui.underway until sent */
	char body[BODY_MAX + 1];
};

/* The commands of the runner the page may send (docs/sim-debugger.md). */
static const char *const verbs[] = {
    "run", "pause", "step", "until", "break", "print", "restart", "goto",
};

static enum MHD_Result send_reply(struct MHD_Connection *conn,
				  unsigned int status, const char *type,
				  struct MHD_Response *resp)
{
	enum MHD_Result ret;

	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	/* The page loads nothing but its own files and talks to nothing
	 * but its own API; the token in its URL goes nowhere else. */
	MHD_add_response_header(resp, "Content-Security-Policy",
				"default-src 'self'; img-src 'self' data:; "
				"frame-ancestors 'none'; base-uri 'none'");
	MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL,
				"no-store");
	ret = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

static enum MHD_Result send_text(struct MHD_Connection *conn,
				 unsigned int status, const char *type,
				 const char *text)
{
	return send_reply(
	    conn, status, type,
	    MHD_create_response_from_buffer(strlen(text), (void *)text,
					    MHD_RESPMEM_MUST_COPY));
}

static enum MHD_Result send_error(struct MHD_Connection *conn,
				  unsigned int status, const char *why)
{
	char json[256];

	snprintf(json, sizeof(json), "{\"ok\":false,\"error\":\"%s\"}", why);
	return send_text(conn, status, "application/json", json);
}

/* Compare every byte whatever the first difference, so that the time
 * an answer takes says nothing of how much of a guess was right. */
static bool token_matches(const struct gui *g, const char *url)
{
	unsigned char diff = 0;

	if (strnlen(url, TOKEN_LEN + 2) < TOKEN_LEN + 1 || url[0] != '/' ||
	    url[TOKEN_LEN + 1] != '/')
		return false;
	for (size_t i = 0; i < TOKEN_LEN; i++)
		diff |= (unsigned char)(url[1 + i] ^ g->token[i]);
	return diff == 0;
}

static bool host_matches(const struct gui *g, struct MHD_Connection *conn)
{
	const char *host = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
						       MHD_HTTP_HEADER_HOST);

	return host && (strcmp(host, g->hosts[0]) == 0 ||
			strcmp(host, g->hosts[1]) == 0);
}

static enum MHD_Result send_asset(struct gui *g, struct MHD_Connection *conn,
				  const char *name)
{
	struct MHD_Response *resp;
	const char *type;
	off_t size;
	int fd = sim_gui_asset_open(g->assets, *name ? name : "index.html",
				    &type, &size);

	if (fd < 0)
		return send_text(conn, MHD_HTTP_NOT_FOUND, "text/plain",
				 "not found\n");
	/* The response owns @fd once made, and closes it. */
	resp = MHD_create_response_from_fd((uint64_t)size, fd);
	if (!resp)
		close(fd);
	return send_reply(conn, MHD_HTTP_OK, type, resp);
}

static bool known_verb(const char *verb)
{
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (strcmp(verb, verbs[i]) == 0)
			return true;
	return false;
}

/* A control character would end the command line early and start
 * another on the runner's wire; a NUL would cut it short. */
static bool printable(const struct upload *up)
{
	for (size_t i = 0; i < up->len; i++)
		if ((unsigned char)up->body[i] < 0x20 || up->body[i] == 0x7f)
			return false;
	return true;
}

static bool command_begin(struct gui *g)
{
	bool ok;

	pthread_mutex_lock(&g->lock);
	ok = !g->closing;
	g->underway += ok;
	pthread_mutex_unlock(&g->lock);
	return ok;
}

static void command_end(struct gui *g)
{
	pthread_mutex_lock(&g->lock);
	if (--g->underway == 0)
		pthread_cond_broadcast(&g->idle);
	pthread_mutex_unlock(&g->lock);
}

static enum MHD_Result send_command(struct gui *g, struct MHD_Connection *conn,
				    const char *verb, struct upload *up)
{
	char cmd[BODY_MAX + 16];
	char *reply = NULL;
	int ret;

	if (!known_verb(verb))
		return send_error(conn, MHD_HTTP_NOT_FOUND, "unknown command");
	if (up->too_long || !printable(up))
		return send_error(conn, MHD_HTTP_BAD_REQUEST,
				  "arguments: one line of at most 1024 "
				  "printable characters");
	snprintf(cmd, sizeof(cmd), "%s%s%s", verb, up->len ? " " : "",
		 up->body);
	up->underway = command_begin(g);
	if (!up->underway)
		return send_error(conn, MHD_HTTP_SERVICE_UNAVAILABLE,
				  "the debugger is closing");
	ret = sim_runner_command(g->runner, cmd, &reply);
	if (ret)
		return send_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR,
				  strerror(-ret));
	return send_reply(conn, MHD_HTTP_OK, "application/json",
			  MHD_create_response_from_buffer(
			      strlen(reply), reply, MHD_RESPMEM_MUST_FREE));
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn,
			      const char *url, const char *method,
			      const char *version, const char *data,
			      size_t *data_size, void **con_cls)
{
	struct gui *g = cls;
	struct upload *up = *con_cls;
	const char *rest;

	(void)version;
	if (!up) {
		/* Before anything else, the headers are ours to judge: a
		 * request without the token gets nothing, not even a
		 * file of the page. */
		if (!token_matches(g, url) || !host_matches(g, conn))
			return send_text(conn, MHD_HTTP_FORBIDDEN, "text/plain",
					 "forbidden\n");
		rest = url + TOKEN_LEN + 2;
		if (strncmp(rest, "api/", 4) != 0) {
			if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 &&
			    strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
				return send_text(conn,
						 MHD_HTTP_METHOD_NOT_ALLOWED,
						 "text/plain", "GET only\n");
			return send_asset(g, conn, rest);
		}
		if (strcmp(method, MHD_HTTP_METHOD_POST) != 0)
			return send_error(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
					  "POST only");
		up = calloc(1, sizeof(*up));
		if (!up)
			return MHD_NO;
		*con_cls = up;
		return MHD_YES;
	}
	if (*data_size) {
		if (up->len + *data_size > BODY_MAX) {
			up->too_long = true;
		} else {
			memcpy(up->body + up->len, data, *data_size);
			up->len += *data_size;
			up->body[up->len] = '\0';
		}
		*data_size = 0;
		return MHD_YES;
	}
	/* The body is whole. */
	return send_command(g, conn, url + TOKEN_LEN + 2 + 4, up);
}

/* The answer is sent, or the connection is gone. */
static void request_done(void *cls, struct MHD_Connection *conn, void **con_cls,
			 enum MHD_RequestTerminationCode why)
{
	struct upload *up = *con_cls;

	(void)conn;
	(void)why;
	if (up && up->underway)
		command_end(cls);
	free(up);
	*con_cls = NULL;
}

/*
 * SIGINT, SIGTERM and SIGHUP end the server: the handler wakes the
 * thread that waits for them.  A handler rather than signals blocked
 * for sigwait, since a mask would be inherited by the server's threads
 * and through them by every program a restart forks.
 */
static int stop_pipe[2] = {-1, -1};

static void on_stop(int sig)
{
	int saved = errno;
	/* A failure can only be a full pipe: a wake-up is waiting already. */
	ssize_t n = write(stop_pipe[1], "", 1);

	(void)sig;
	(void)n;
	errno = saved;
}

static int make_token(char *token)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char bytes[TOKEN_BYTES];
	size_t got = 0;

	while (got < sizeof(bytes)) {
		ssize_t n = getrandom(bytes + got, sizeof(bytes) - got, 0);

		if (n < 0 && errno != EINTR)
			return -errno;
		got += n > 0 ? (size_t)n : 0;
	}
	for (size_t i = 0; i < sizeof(bytes); i++) {
		token[2 * i] = hex[bytes[i] >> 4];
		token[2 * i + 1] = hex[bytes[i] & 15];
	}
	token[TOKEN_LEN] = '\0';
	return 0;
}

/* Let the commands underway end and their answers go: a `run` ends
 * only at a stop, which a `pause` brings (one that comes before the
 * run starts does nothing: hence again and again); new ones are
 * refused meanwhile. */
static void drain(struct gui *g)
{
	pthread_mutex_lock(&g->lock);
	g->closing = true;
	while (g->underway) {
		struct timespec until;
		char *reply = NULL;

		pthread_mutex_unlock(&g->lock);
		if (sim_runner_command(g->runner, "pause", &reply) == 0)
			free(reply);
		pthread_mutex_lock(&g->lock);
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 50000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&g->idle, &g->lock, &until);
	}
	pthread_mutex_unlock(&g->lock);
}

/* Loopback only, by the address bound: nothing listens on the machine's
 * other addresses.  Port 0: the kernel's choice, known before any
 * request is handled. */
static int listen_loopback(unsigned *port)
{
	struct sockaddr_in addr = {
	    .sin_family = AF_INET,
	    .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	socklen_t len = sizeof(addr);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    listen(fd, 16) || getsockname(fd, (struct sockaddr *)&addr, &len)) {
		int err = -errno;

		close(fd);
		return err;
	}
	*port = ntohs(addr.sin_port);
	return fd;
}

static int serve(struct gui *g, FILE *out)
{
	struct MHD_Daemon *d;
	struct pollfd wake = {.fd = stop_pipe[0], .events = POLLIN};
	unsigned port = 0;
	char byte;
	int fd;

	fd = listen_loopback(&port);
	if (fd < 0) {
		fprintf(stderr, "fusion sim: cannot listen on 127.0.0.1: %s\n",
			strerror(-fd));
		return fd;
	}
	snprintf(g->hosts[0], sizeof(g->hosts[0]), "127.0.0.1:%u", port);
	snprintf(g->hosts[1], sizeof(g->hosts[1]), "localhost:%u", port);
	/* The daemon owns @fd from here, and closes it as it stops. */
	d = MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION |
				 MHD_USE_INTERNAL_POLLING_THREAD |
				 MHD_USE_ERROR_LOG,
			     0, NULL, NULL, handle, g, MHD_OPTION_LISTEN_SOCKET,
			     fd, MHD_OPTION_NOTIFY_COMPLETED, request_done, g,
			     MHD_OPTION_CONNECTION_LIMIT, 32u, MHD_OPTION_END);
	if (!d) {
		close(fd);
		fprintf(stderr, "fusion sim: cannot start the GUI's server\n");
		return -EIO;
	}
	fprintf(out, "http://%s/%s/\n", g->hosts[0], g->token);
	fflush(out);
	/* poll() rather than read(): interrupted even with SA_RESTART, it
	 * returns to ThreadSanitizer's wrapper, which runs the handler it
	 * held back; read() would be restarted with the handler pending. */
	while (poll(&wake, 1, -1) < 0 && errno == EINTR)
		;
	if (read(stop_pipe[0], &byte, 1) < 0)
		byte = 0;
	drain(g);
	MHD_stop_daemon(d);
	return 0;
}

int fusion_sim_gui(struct sim_runner *r, FILE *out)
{
	static const int signals[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction act = {.sa_handler = on_stop, .sa_flags = SA_RESTART};
	struct sigaction old[3];
	struct gui g = {
	    .runner = r,
	    .lock = PTHREAD_MUTEX_INITIALIZER,
	    .idle = PTHREAD_COND_INITIALIZER,
	};
	int ret;

	ret = make_token(g.token);
	if (ret) {
		fprintf(stderr, "fusion sim: getrandom: %s\n", strerror(-ret));
		return ret;
	}
	g.assets = sim_gui_assets_open();
	if (g.assets < 0)
		return g.assets;
	if (pipe2(stop_pipe, O_CLOEXEC)) {
		ret = -errno;
		close(g.assets);
		return ret;
	}
	sigemptyset(&act.sa_mask);
	for (int i = 0; i < 3; i++)
		sigaction(signals[i], &act, &old[i]);
	ret = serve(&g, out);
	for (int i = 0; i < 3; i++)
		sigaction(signals[i], &old[i], NULL);
	close(stop_pipe[0]);
	close(stop_pipe[1]);
	close(g.assets);
	return ret;
}
