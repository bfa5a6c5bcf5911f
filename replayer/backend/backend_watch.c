/* The call record shared with a supervisor (backend_watch.h). */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend_watch.h"

static struct backend_watch *attached;
static int log_fd = -1;

void backend_watch_attach(struct backend_watch *w)
{
	attached = w;
}

void backend_watch_init(struct backend_watch *w)
{
	atomic_store(&w->frame, UINT64_MAX);
	atomic_store(&w->call_start_ns, 0);
	atomic_store(&w->seq, 0);
	memset(w->call, 0, sizeof(w->call));
}

int64_t backend_watch_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void backend_watch_frame(uint64_t frame)
{
	if (attached) {
		atomic_store(&attached->frame, frame);
	}
}

/* present_display -> presentDisplay; names without '_' are kept. */
static void camel(char *out, size_t size, const char *name)
{
	size_t n = 0;
	bool up = false;

	for (const char *p = name; *p && n + 1 < size; p++) {
		if (*p == '_') {
			up = true;
			continue;
		}
		out[n++] = up && *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
		up = false;
	}
	out[n] = '\0';
}

int backend_watch_log_open(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);

	if (fd < 0) {
		return -errno;
	}
	if (log_fd >= 0) {
		close(log_fd);
	}
	log_fd = fd;
	return 0;
}

/* One line of the call log (errors ignored: the log is a test aid). */
static void log_call(const char *name)
{
	char line[BACKEND_WATCH_NAME_MAX + 1];
	int n, saved = errno;

	camel(line, sizeof(line) - 1, name);
	n = (int)strlen(line);
	line[n++] = '\n';
	if (write(log_fd, line, (size_t)n) < 0) {
		errno = saved;
	}
	errno = saved;
}

void backend_watch_enter(const char *name)
{
	struct backend_watch *w = attached;

	if (log_fd >= 0) {
		log_call(name);
	}
	if (!w) {
		return;
	}
	atomic_fetch_add(&w->seq, 1);
	camel(w->call, sizeof(w->call), name);
	atomic_fetch_add(&w->seq, 1);
	atomic_store(&w->call_start_ns, backend_watch_now_ns());
}

void backend_watch_leave(void)
{
	if (attached) {
		atomic_store(&attached->call_start_ns, 0);
	}
}

void backend_watch_read(struct backend_watch *w, char *call, unsigned size, uint64_t *frame, int64_t *start_ns)
{
	char copy[BACKEND_WATCH_NAME_MAX];
	uint32_t seq;

	/* a writer that died mid-name leaves seq odd: a few tries, then what is there */
	for (int tries = 0; tries < 100; tries++) {
		seq = atomic_load(&w->seq);
		memcpy(copy, w->call, sizeof(copy));
		if (!(seq & 1) && seq == atomic_load(&w->seq)) {
			break;
		}
	}
	copy[sizeof(copy) - 1] = '\0';
	*start_ns = atomic_load(&w->call_start_ns);
	*frame = atomic_load(&w->frame);
	camel(call, size, copy);
}
