/* Events: allocation, extra bytes, release (event.h). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "event.h"

#define MAX_EXTRA (16u << 20)

void rec_event_init(struct rec_event *ev, uint8_t type, int32_t function, unsigned nargs)
{
	ev->type = type;
	ev->nargs = (uint8_t)(nargs < REC_MAX_ARGS ? nargs : REC_MAX_ARGS);
	ev->has_display = ev->has_layer = ev->late = false;
	ev->function = function;
	ev->error = 0;
	ev->tid = 0;
	ev->t_enter = ev->t_exit = 0;
	ev->display = ev->layer = 0;
	ev->ticket = 0;
	memset(ev->args, 0, sizeof(ev->args));
	ev->payload = NULL;
	ev->extra = ev->inline_extra;
	ev->extra_len = 0;
	ev->extra_cap = REC_INLINE_EXTRA;
	ev->extra_failed = false;
	ev->wnext = NULL;
	ev->capture = NULL;
}

struct rec_event *rec_event_new(uint8_t type, int32_t function, unsigned nargs)
{
	struct rec_event *ev = malloc(sizeof(*ev));

	if (ev) {
		rec_event_init(ev, type, function, nargs);
	}
	return ev;
}

void *rec_event_extra(struct rec_event *ev, size_t size, uint32_t *off)
{
	size_t start = (ev->extra_len + 7u) & ~(size_t)7u;

	if (size > MAX_EXTRA || start + size > MAX_EXTRA) {
		ev->extra_failed = true;
		return NULL;
	}
	if (start + size > ev->extra_cap) {
		size_t cap = ev->extra_cap * 2;
		uint8_t *p;

		while (cap < start + size) {
			cap *= 2;
		}
		if (ev->extra == ev->inline_extra) {
			p = malloc(cap);
			if (p) {
				memcpy(p, ev->inline_extra, ev->extra_len);
			}
		} else {
			p = realloc(ev->extra, cap);
		}
		if (!p) {
			ev->extra_failed = true;
			return NULL;
		}
		ev->extra = p;
		ev->extra_cap = (uint32_t)cap;
	}
	*off = (uint32_t)start;
	ev->extra_len = (uint32_t)(start + size);
	return ev->extra + start;
}

static void close_fd(int32_t *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

/* Closes the fds ev still owns and frees its heap parts (not ev itself). */
void rec_event_release(struct rec_event *ev)
{
	for (unsigned i = 0; i < ev->nargs; i++) {
		struct rec_arg *a = &ev->args[i];

		if (a->kind == REC_ARG_FENCE) {
			close_fd(&a->v.fence.fd);
		} else if (a->kind == REC_ARG_FENCES) {
			struct rec_fence *f = (struct rec_fence *)(ev->extra + a->off);

			for (uint32_t k = 0; k < a->count; k++) {
				close_fd(&f[k].fd);
			}
		} else if (a->kind == REC_ARG_HANDLE && a->present) {
			close_fd(&((struct rec_handle *)(ev->extra + a->off))->fd);
		}
	}
	if (ev->extra != ev->inline_extra) {
		free(ev->extra);
		ev->extra = ev->inline_extra;
	}
	free(ev->payload);
	ev->payload = NULL;
}

void rec_event_free(struct rec_event *ev)
{
	if (!ev) {
		return;
	}
	rec_event_release(ev);
	rec_capture_free(ev->capture);
	free(ev);
}

/* dup() that keeps the result off the stdio numbers; -1 on failure. */
int32_t rec_dup_fd(int fd)
{
	return fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 3) : -1;
}
