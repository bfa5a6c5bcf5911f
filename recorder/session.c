/*
 * Sessions: one trace file each. Started by the triggers (at the first
 * wrapped device without any; SIGUSR2 or the control file otherwise),
 * stopped by them, by HWCT_MAX_FRAMES/HWCT_MAX_SECONDS, or when the last
 * device closes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hwct/log.h>
#include <hwct/writer.h>

#include "fence.h"
#include "hwct_config.h"
#include "output.h"
#include "worker.h"

#define CONTROL_PERIOD_NS 200000000u

/* Logs once per process: a broken output must not flood the host's log. */
static void log_once(const char *what, const char *path, int err, const char *outcome)
{
	static atomic_flag logged = ATOMIC_FLAG_INIT;

	if (!atomic_flag_test_and_set(&logged)) {
		hwct_log(HWCT_LOG_ERROR, "recorder: %s %s: %s; %s", what, path, strerror(err), outcome);
	}
}

struct writer_job {
	int fd;
	const struct hwct_writer_options *opts;
	struct hwct_writer *writer;
	int err;
};

static void create_writer(void *data)
{
	struct writer_job *j = data;

	j->writer = hwct_writer_create_fd(j->fd, j->opts);	/* copies the options */
	j->err = errno;
}

void rec_session_start(struct rec_worker *w)
{
	struct recorder *r = w->r;
	struct hwct_writer_options opts;
	int fd;

	if (r->first_fd >= 0) {
		fd = r->first_fd;
		r->first_fd = -1;
		snprintf(w->path, sizeof(w->path), "%s", r->first_path);
		w->file_index = r->first_index;
	} else {
		fd = rec_output_open(&r->cfg, &w->file_index, w->path, sizeof(w->path));
	}
	if (fd < 0) {
		log_once("cannot create a trace in", r->cfg.output, -fd, "not recording");
		goto error;
	}
	hwct_writer_options_init(&opts);
	opts.pixels = r->cfg.pixels;
	opts.memory_budget = (size_t)r->cfg.budget_bytes;
	opts.writer_name = "hwctrace " HWCT_VERSION " (recorder)";
	opts.start_thread = rec_thread_start;
	opts.option_keys = r->cfg.option_keys;
	opts.option_count = r->cfg.option_count;
	{
		const char *values[REC_CONFIG_MAX_OPTIONS];

		for (size_t i = 0; i < r->cfg.option_count; i++) {
			values[i] = r->cfg.option_values[i];
		}
		struct writer_job job = { .fd = fd, .opts = &opts };

		opts.option_values = values;
		/* the writer's threads compress on a lower priority than the host's (background.c) */
		if (rec_run_lowered(create_writer, &job) < 0) {
			create_writer(&job);
		}
		w->writer = job.writer;
		errno = job.err;
	}
	if (!w->writer) {
		log_once("cannot write a trace to", w->path, errno, "not recording");
		goto error;
	}
	w->cctx.writer = w->writer;
	w->session = true;
	w->start_ns = rec_now_ns();
	w->seq = 0;
	w->frame = 0;
	w->frames_late = 0;
	w->write_errors = 0;
	w->limit_reached = false;
	w->cctx.drops = w->cctx.drop_bytes = w->cctx.late = 0;
	w->last_stats_ns = w->start_ns;
	rec_buffers_reset(&w->buffers);
	for (int i = 0; i < REC_MAX_DISPLAYS; i++) {
		struct rec_wdisplay *d = &w->displays[i];

		d->validated = d->late = d->fe_pending = false;
		d->frames = 0;
	}
	rec_fence_watch_begin(w->fences, w->writer);
	rec_write_environment(w);
	for (int i = 0; i < REC_MAX_DISPLAYS; i++) {
		struct rec_wdisplay *d = &w->displays[i];

		if (d->used && d->connected && d->info) {
			rec_write_display(w, d->info);
		}
	}
	atomic_store(&r->recording, true);
	return;

error:
	w->broken = true;
	w->want = false;
	atomic_store(&r->recording, false);
}

void rec_session_stop(struct rec_worker *w)
{
	struct recorder *r = w->r;
	int ret;

	atomic_store(&r->recording, false);
	rec_worker_finish_session(w);
	rec_fence_watch_end(w->fences, 100);
	rec_write_capture_stats(w);
	ret = hwct_writer_close(w->writer);
	if (ret < 0) {
		log_once("writing", w->path, -ret, "the trace may lack its index");
	}
	w->writer = NULL;
	w->cctx.writer = NULL;
	rec_capture_ctx_release(&w->cctx);
	w->session = false;
}

void rec_session_write(struct rec_worker *w, const Hwct__Record *rec)
{
	int ret;

	if (!w->writer) {
		return;
	}
	ret = hwct_writer_write(w->writer, rec);
	if (ret < 0) {
		w->write_errors++;
		if (ret != -EINVAL) {
			/* the file is broken (disk full, ...): stop; the trace is readable up to here */
			log_once("writing", w->path, -ret, "recording stopped");
			w->want = false;
			w->broken = true;
		}
	}
}


static void read_control(struct rec_worker *w, uint64_t now)
{
	char buf[16] = "";
	ssize_t n;
	int fd;

	if (!w->r->cfg.control[0] || now < w->control_next_ns) {
		return;
	}
	w->control_next_ns = now + CONTROL_PERIOD_NS;
	fd = open(w->r->cfg.control, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0) {
		return;
	}
	buf[n] = '\0';
	buf[strcspn(buf, " \t\r\n")] = '\0';
	/* act on changes only: a limit that stopped a session does not restart it */
	if (strcmp(buf, w->control_last) == 0) {
		return;
	}
	snprintf(w->control_last, sizeof(w->control_last), "%s", buf);
	if (strcmp(buf, "start") == 0) {
		w->want = true;
		w->broken = false;
	} else if (strcmp(buf, "stop") == 0) {
		w->want = false;
	}
}

void rec_session_triggers(struct rec_worker *w, uint64_t now)
{
	struct recorder *r = w->r;
	int toggles = atomic_exchange(&r->toggles, 0);

	if (toggles % 2) {
		w->want = !w->want;
		w->broken = false;
	}
	read_control(w, now);
	/* past HWCT_MAX_SECONDS the next FrameEnd ends the trace; without frames, this does */
	if (w->session && r->cfg.max_seconds &&
			now - w->start_ns >= (r->cfg.max_seconds + 1) * 1000000000u) {
		w->want = false;
	}
}
