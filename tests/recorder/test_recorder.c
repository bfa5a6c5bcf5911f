/*
 * Recorder tests, deviceless: the test client (hwc2_client.c) drives the
 * fake module (fake_hwc2.c) through libhwc-record.so, and the trace is
 * checked against what the client logged it did. One meson test per case
 * (see `cases` at the end). Paths come from the environment:
 * HWCT_TEST_CLIENT, HWCT_TEST_FAKE, HWCT_TEST_RECORDER.
 * Exit: 0 pass, 1 fail, 77 skip.
 */
#define _GNU_SOURCE	/* mkdtemp(), environ, nftw() */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>
#include <hwct/hash.h>
#include <hwct/hwc2_names.h>
#include <hwct/reader.h>

#define CHECK_NONFATAL	/* a failed check is counted and the case goes on */
#include "check.h"
#include "calllog.h"
#include "fake_hwc2.h"

#define FRAMES 8
#define MAX_LINES 4096
#define MAX_ITEMS 4096

struct check_tally check_tally;
static char workdir[256];

/* --------------------------------------------------------------- helpers */

static const char *need_env(const char *name)
{
	const char *v = getenv(name);

	if (!v) {
		fprintf(stderr, "test-recorder: %s is not set (run through meson test)\n", name);
		exit(2);
	}
	return v;
}

static char *path_in(const char *name)
{
	static char buf[8][512];
	static int next;
	char *p = buf[next++ % 8];

	snprintf(p, 512, "%s/%s", workdir, name);
	return p;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f) {
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static int count_lines(const char *text)
{
	int n = 0;

	for (const char *p = text; p && *p; p++) {
		n += *p == '\n';
	}
	return n;
}

struct lines {
	char *v[MAX_LINES];
	int n;
};

/* Lines of a client log: calls only ("#" lines left out), "buf=<inode>" kept. */
static void load_log(const char *path, struct lines *out, char *facts, size_t facts_size)
{
	char *text = read_file(path);
	char *save = NULL;

	out->n = 0;
	if (facts) {
		facts[0] = '\0';
	}
	if (!text) {
		CHECK(0, "no client log %s", path);
		return;
	}
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#') {
			if (facts) {
				strncat(facts, line, facts_size - strlen(facts) - 2);
				strcat(facts, "\n");
			}
			continue;
		}
		if (out->n < MAX_LINES) {
			out->v[out->n++] = strdup(line);
		}
	}
	free(text);
}

static void free_lines(struct lines *l)
{
	for (int i = 0; i < l->n; i++) {
		free(l->v[i]);
	}
	l->n = 0;
}

/* The part of a line before " | " (the pixel part). */
static char *structural(const char *line, char *out, size_t size)
{
	const char *bar = strstr(line, " | ");
	size_t n = bar ? (size_t)(bar - line) : strlen(line);

	snprintf(out, size, "%.*s", (int)(n < size ? n : size - 1), line);
	return out;
}

/* Replaces every "buf=<digits>" by "buf=N" (inodes differ between runs). */
static void normalize(char *s)
{
	char *p = s;

	while ((p = strstr(p, "buf="))) {
		char *q = p + 4;

		while (*q >= '0' && *q <= '9') {
			q++;
		}
		memmove(p + 5, q, strlen(q) + 1);
		p[4] = 'N';
		p += 5;
	}
}

/* ----------------------------------------------------------- the client */

struct run {
	int status;		/* exit status, -1 if it did not exit */
	int signal;		/* the signal that killed it, 0 none */
	pid_t pid;
	char *err;		/* its stderr */
};

/*
 * Runs the client on module with the current environment minus HWCT_* and
 * LD_PRELOAD, plus env (NAME=VALUE, NULL-terminated). before_exec, if set,
 * runs in the parent after fork, before the child goes on.
 */
static struct run run_client(const char *module, const char *log, const char *const *env,
	const char *const *extra_args, const char *const *wrapper, void (*before_exec)(pid_t))
{
	const char *client = need_env("HWCT_TEST_CLIENT");
	char err_path[512];
	struct run r = { .status = -1 };
	int go[2];
	pid_t pid;
	int status;

	snprintf(err_path, sizeof(err_path), "%s/stderr-%d", workdir, (int)getpid());
	if (pipe(go) < 0) {
		perror("pipe");
		exit(2);
	}
	pid = fork();
	if (pid == 0) {
		extern char **environ;
		const char *argv[32];
		int argc = 0, fd;
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) < 0) {
			_exit(2);
		}
		for (char **e = environ; *e;) {
			if (strncmp(*e, "HWCT_", 5) == 0 || strncmp(*e, "LD_PRELOAD=", 11) == 0) {
				unsetenv(strndup(*e, (size_t)(strchr(*e, '=') - *e)));
				e = environ;
				continue;
			}
			e++;
		}
		for (int i = 0; env && env[i]; i++) {
			putenv((char *)env[i]);
		}
		fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
		for (int i = 0; wrapper && wrapper[i]; i++) {
			argv[argc++] = wrapper[i];
		}
		argv[argc++] = client;
		argv[argc++] = "--module";
		argv[argc++] = module;
		argv[argc++] = "--log";
		argv[argc++] = log;
		for (int i = 0; extra_args && extra_args[i]; i++) {
			argv[argc++] = extra_args[i];
		}
		argv[argc] = NULL;
		execvp(argv[0], (char *const *)argv);
		perror("exec");
		_exit(127);
	}
	close(go[0]);
	if (before_exec) {
		before_exec(pid);
	}
	if (write(go[1], "g", 1) != 1) {
		perror("write");
	}
	close(go[1]);
	waitpid(pid, &status, 0);
	r.pid = pid;
	r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	r.err = read_file(err_path);
	if (!r.err) {
		r.err = strdup("");
	}
	unlink(err_path);
	return r;
}

static void run_free(struct run *r)
{
	free(r->err);
	r->err = NULL;
}

static char *trace_path(pid_t pid, unsigned n, const char *dir)
{
	static char buf[512];

	snprintf(buf, sizeof(buf), "%s/hwctrace-%d-%u.zst", dir, (int)pid, n);
	return buf;
}

/* ------------------------------------------------------------ the trace */

struct buffer_use {
	char line[CALLLOG_LINE];	/* the client's structural line */
	int32_t capture;
	bool has_content;
	char content[HWCT_HASH_HEX];
};

struct trace {
	struct lines calls;		/* rendered Call records */
	struct buffer_use uses[MAX_ITEMS];
	int nuses;
	uint64_t fence_refs[MAX_ITEMS];
	int nfence_refs;
	struct {
		uint64_t id;
		int32_t status;
		bool signalled, poll;
	} fences[MAX_ITEMS];
	int nfences;
	uint64_t buffer_ids[256];
	uint32_t buffer_w[256], buffer_h[256], buffer_stride[256], buffer_offset[256];
	int nbuffers;
	bool buffer_before_use;
	struct hwct_hash contents[MAX_ITEMS];
	int ncontents;
	int frame_ends, frame_flags_late, frame_not_validated, frame_gaps;
	int release_calls;		/* getReleaseFences calls since the last present, -1: none open */
	int frame_ends_before_release;	/* FrameEnds written before their frame's filling getReleaseFences */
	int blobs, deltas;
	int hotplugs, vsyncs;
	int displays, display_ok, notes_internal;
	bool env, env_ok;
	int stats;
	uint64_t blobs_dropped;
	bool seq_ok;
	int records;
};

static void render_region(struct calllog_line *l, const char *name, const Hwct__Region *r)
{
	int32_t (*rects)[4] = NULL;
	size_t n = r ? r->n_rects : 0;

	if (n) {
		rects = calloc(n, sizeof(*rects));
		for (size_t i = 0; i < n; i++) {
			rects[i][0] = r->rects[i]->left;
			rects[i][1] = r->rects[i]->top;
			rects[i][2] = r->rects[i]->right;
			rects[i][3] = r->rects[i]->bottom;
		}
	}
	calllog_rects(l, name, (const int32_t (*)[4])rects, n);
	free(rects);
}

static void render_u64s(struct calllog_line *l, const char *name, const uint64_t *v, size_t n)
{
	int64_t tmp[64];

	for (size_t i = 0; i < n && i < 64; i++) {
		tmp[i] = (int64_t)v[i];
	}
	calllog_list(l, name, tmp, n < 64 ? n : 64);
}

static void render_i32s(struct calllog_line *l, const char *name, const int32_t *v, size_t n)
{
	int64_t tmp[64];

	for (size_t i = 0; i < n && i < 64; i++) {
		tmp[i] = v[i];
	}
	calllog_list(l, name, tmp, n < 64 ? n : 64);
}

/* A Call record as the client's log line (calllog.h); independent of the recorder's code. */
static void render_call(const Hwct__Call *c, struct calllog_line *l)
{
	calllog_begin(l, c->function, c->has_display, c->display, c->has_layer, c->layer, c->error);
	switch (c->args_case) {
	case HWCT__CALL__ARGS_VALUE:
		calllog_add(l, " v=%lld", (long long)c->value->value);
		break;
	case HWCT__CALL__ARGS_BUFFER:
		calllog_add(l, " buf=%llu fence=%d", (unsigned long long)c->buffer->buffer, c->buffer->fence != 0);
		if (c->function == HWC2_FUNCTION_SET_CLIENT_TARGET) {
			calllog_add(l, " ds=%d", c->buffer->dataspace);
			render_region(l, "damage", c->buffer->damage);
		}
		break;
	case HWCT__CALL__ARGS_RECT:
		calllog_add(l, " rect=%d,%d,%d,%d", c->rect->rect->left, c->rect->rect->top,
			c->rect->rect->right, c->rect->rect->bottom);
		break;
	case HWCT__CALL__ARGS_FRECT:
		calllog_add(l, " crop=%.2f,%.2f,%.2f,%.2f", c->frect->rect->left, c->frect->rect->top,
			c->frect->rect->right, c->frect->rect->bottom);
		break;
	case HWCT__CALL__ARGS_REGION:
		render_region(l, "region", c->region->region);
		break;
	case HWCT__CALL__ARGS_FLOAT_VALUE:
		calllog_add(l, " f=%.3f", c->float_value->value);
		break;
	case HWCT__CALL__ARGS_COLOR:
		calllog_add(l, " rgba=%08x", c->color->color ? c->color->color->rgba : 0);
		break;
	case HWCT__CALL__ARGS_MATRIX:
		calllog_add(l, " m=");
		for (size_t i = 0; i < c->matrix->n_matrix; i++) {
			calllog_add(l, "%s%g", i ? "," : "", c->matrix->matrix[i]);
		}
		calllog_add(l, " hint=%d", c->matrix->hint);
		break;
	case HWCT__CALL__ARGS_VALIDATE:
		calllog_add(l, " types=%u requests=%u", c->validate->num_types, c->validate->num_requests);
		break;
	case HWCT__CALL__ARGS_CHANGED_TYPES:
		render_u64s(l, "layers", c->changed_types->layers, c->changed_types->n_layers);
		render_i32s(l, "types", c->changed_types->types, c->changed_types->n_types);
		break;
	case HWCT__CALL__ARGS_REQUESTS:
		calllog_add(l, " dreq=%d", c->requests->display_requests);
		render_u64s(l, "layers", c->requests->layers, c->requests->n_layers);
		render_i32s(l, "lreq", c->requests->layer_requests, c->requests->n_layer_requests);
		break;
	case HWCT__CALL__ARGS_PRESENT:
		calllog_add(l, " fence=%d", c->present->present_fence != 0);
		break;
	case HWCT__CALL__ARGS_RELEASE_FENCES: {
		unsigned nonzero = 0;

		render_u64s(l, "layers", c->release_fences->layers, c->release_fences->n_layers);
		for (size_t i = 0; i < c->release_fences->n_fences; i++) {
			nonzero += c->release_fences->fences[i] != 0;
		}
		calllog_add(l, " fences=%u", nonzero);
		break;
	}
	case HWCT__CALL__ARGS_ATTRIBUTE:
		calllog_add(l, " config=%u attr=%d v=%d", c->attribute->config, c->attribute->attribute,
			c->attribute->value);
		break;
	case HWCT__CALL__ARGS_LIST:
		if (c->list->has_key) {
			calllog_add(l, " key=%d", c->list->key);
		} else {
			calllog_add(l, " key=-");
		}
		calllog_list(l, "values", c->list->values, c->list->n_values);
		break;
	case HWCT__CALL__ARGS_TEXT:
		calllog_text(l, "text", c->text->text);
		break;
	case HWCT__CALL__ARGS_CURSOR:
		calllog_add(l, " x=%d y=%d", c->cursor->x, c->cursor->y);
		break;
	case HWCT__CALL__ARGS_CLIENT_TARGET:
		if (c->client_target->has_width) {
			calllog_add(l, " w=%u h=%u", c->client_target->width, c->client_target->height);
		}
		calllog_add(l, " fmt=%d ds=%d", c->client_target->format, c->client_target->dataspace);
		break;
	case HWCT__CALL__ARGS_COLOR_MODE:
		calllog_add(l, " mode=%d", c->color_mode->mode);
		if (c->color_mode->has_intent) {
			calllog_add(l, " intent=%d", c->color_mode->intent);
		} else {
			calllog_add(l, " intent=-");
		}
		break;
	case HWCT__CALL__ARGS_HDR:
		render_i32s(l, "types", c->hdr->hdr->types, c->hdr->hdr->n_types);
		calllog_add(l, " max=%.2f avg=%.2f min=%.2f", c->hdr->hdr->max_luminance,
			c->hdr->hdr->max_average_luminance, c->hdr->hdr->min_luminance);
		break;
	case HWCT__CALL__ARGS_REGISTER_CALLBACK:
		calllog_add(l, " desc=%d null=%d", c->register_callback->descriptor,
			c->register_callback->null_pointer);
		break;
	case HWCT__CALL__ARGS_OPAQUE:
		calllog_add(l, " desc=%d", c->opaque->descriptor);
		break;
	default:
		break;
	}
}

static void note_fence_ref(struct trace *t, uint64_t id)
{
	if (id && t->nfence_refs < MAX_ITEMS) {
		t->fence_refs[t->nfence_refs++] = id;
	}
}

static void take_call(struct trace *t, const Hwct__Call *c)
{
	struct calllog_line l;

	/* the client asks for the count, then fills: the second call completes the frame */
	if (c->function == HWC2_FUNCTION_PRESENT_DISPLAY) {
		t->release_calls = 0;
	} else if (c->function == HWC2_FUNCTION_GET_RELEASE_FENCES && t->release_calls >= 0 &&
			++t->release_calls == 2) {
		t->release_calls = -1;
	}

	if (c->seq != (uint64_t)t->calls.n + 1) {
		t->seq_ok = false;
	}
	render_call(c, &l);
	if (t->calls.n < MAX_LINES) {
		t->calls.v[t->calls.n++] = strdup(l.s);
	}
	if (c->args_case == HWCT__CALL__ARGS_BUFFER) {
		bool known = false;

		for (int i = 0; i < t->nbuffers; i++) {
			known |= t->buffer_ids[i] == c->buffer->buffer;
		}
		if (!known && c->buffer->buffer) {
			t->buffer_before_use = false;
		}
		note_fence_ref(t, c->buffer->fence);
		if (t->nuses < MAX_ITEMS) {
			struct buffer_use *u = &t->uses[t->nuses++];
			struct hwct_hash h;

			snprintf(u->line, sizeof(u->line), "%s", l.s);
			u->capture = c->buffer->has_capture ? c->buffer->capture : -1;
			u->has_content = c->buffer->has_content &&
				hwct_hash_from_bytes(&h, c->buffer->content.data, c->buffer->content.len);
			if (u->has_content) {
				hwct_hash_to_hex(&h, u->content);
				if (t->ncontents < MAX_ITEMS) {
					t->contents[t->ncontents++] = h;
				}
			}
		}
	} else if (c->args_case == HWCT__CALL__ARGS_PRESENT) {
		note_fence_ref(t, c->present->present_fence);
	} else if (c->args_case == HWCT__CALL__ARGS_RELEASE_FENCES) {
		for (size_t i = 0; i < c->release_fences->n_fences; i++) {
			note_fence_ref(t, c->release_fences->fences[i]);
		}
	}
}

static void take(struct trace *t, const Hwct__Record *rec, pid_t pid)
{
	t->records++;
	switch (rec->kind_case) {
	case HWCT__RECORD__KIND_CALL:
		take_call(t, rec->call);
		break;
	case HWCT__RECORD__KIND_BUFFER:
		if (t->nbuffers < 256) {
			const Hwct__Buffer *b = rec->buffer;

			t->buffer_ids[t->nbuffers] = b->id;
			t->buffer_w[t->nbuffers] = b->width;
			t->buffer_h[t->nbuffers] = b->height;
			t->buffer_stride[t->nbuffers] = b->n_planes ? b->planes[0]->stride : 0;
			t->buffer_offset[t->nbuffers] = b->n_planes ? b->planes[0]->offset : 0;
			t->nbuffers++;
		}
		break;
	case HWCT__RECORD__KIND_BLOB:
		t->blobs++;
		t->deltas += rec->blob->encoding == HWCT__BLOB_ENCODING__BLOB_DELTA;
		break;
	case HWCT__RECORD__KIND_FENCE:
		if (t->nfences < MAX_ITEMS) {
			t->fences[t->nfences].id = rec->fence->id;
			t->fences[t->nfences].status = rec->fence->status;
			t->fences[t->nfences].signalled = rec->fence->has_signal_ns;
			t->fences[t->nfences].poll = rec->fence->driver && strcmp(rec->fence->driver, "poll") == 0;
			t->nfences++;
		}
		break;
	case HWCT__RECORD__KIND_FRAME_END:
		t->frame_ends_before_release += t->release_calls >= 0;
		t->release_calls = -1;
		t->frame_gaps += rec->frame_end->frame != (uint64_t)t->frame_ends;
		t->frame_ends++;
		t->frame_flags_late += (rec->frame_end->flags & HWCT_FRAME_CAPTURE_LATE) != 0;
		t->frame_not_validated += !rec->frame_end->validated;
		break;
	case HWCT__RECORD__KIND_CALLBACK:
		t->hotplugs += rec->callback->descriptor == HWC2_CALLBACK_HOTPLUG;
		t->vsyncs += rec->callback->descriptor == HWC2_CALLBACK_VSYNC;
		break;
	case HWCT__RECORD__KIND_DISPLAY: {
		const Hwct__Display *d = rec->display;

		t->displays++;
		t->display_ok += d->id == FAKE_DISPLAY && d->n_configs == 1 &&
			d->configs[0]->width == FAKE_WIDTH && d->configs[0]->height == FAKE_HEIGHT &&
			d->configs[0]->vsync_period_ns == FAKE_VSYNC_PERIOD && d->name &&
			strcmp(d->name, FAKE_NAME) == 0 && d->type == HWC2_DISPLAY_TYPE_PHYSICAL;
		break;
	}
	case HWCT__RECORD__KIND_NOTE:
		t->notes_internal += rec->note->topic && strcmp(rec->note->topic, "recorder-internal") == 0;
		break;
	case HWCT__RECORD__KIND_ENVIRONMENT:
		t->env = true;
		t->env_ok = rec->environment->source && strcmp(rec->environment->source, "recorder") == 0 &&
			rec->environment->hwc2_module && strstr(rec->environment->hwc2_module, "hwcomposer.fake") &&
			rec->environment->pid == pid && rec->environment->n_hwc2_capabilities == 1;
		break;
	case HWCT__RECORD__KIND_CAPTURE_STATS:
		t->stats++;
		t->blobs_dropped = rec->capture_stats->blobs_dropped;
		break;
	default:
		break;
	}
}

/* Reads a whole trace; false (with a failure counted) when it does not read. */
static bool load_trace(const char *path, struct trace *t, pid_t pid)
{
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);
	const Hwct__Record *rec;
	int ret;

	memset(t, 0, sizeof(*t));
	t->seq_ok = true;
	t->buffer_before_use = true;
	if (!r) {
		CHECK(0, "cannot open %s: %s", path, err.message);
		return false;
	}
	CHECK(hwct_reader_info(r)->has_seek_table, "%s was not closed", path);
	while ((ret = hwct_reader_next(r, &rec)) > 0) {
		take(t, rec, pid);
	}
	CHECK(ret == 0, "%s: %s", path, hwct_reader_error(r) ? hwct_reader_error(r)->message : "?");
	/* every stored content decodes to its hash (deltas applied) */
	for (int i = 0; i < t->ncontents; i++) {
		struct hwct_blob_data blob;

		ret = hwct_reader_blob(r, &t->contents[i], &blob);
		CHECK(ret == 0, "content %d does not decode: %s", i,
			hwct_reader_error(r) ? hwct_reader_error(r)->message : "?");
		if (ret == 0) {
			free(blob.data);
		}
	}
	hwct_reader_destroy(r);
	return true;
}

static void trace_free(struct trace *t)
{
	free_lines(&t->calls);
}

/* ------------------------------------------------------------- checks */

/* The trace's calls are the client's, in order; pixel hashes per `pixels`. */
enum pixels {
	PIXELS_ALL,		/* every capture OK with the client's hash */
	PIXELS_SOME_DROPPED,	/* OK ones match, others DROPPED */
	PIXELS_OFF,		/* every capture OFF */
};

static int compare_calls(struct trace *t, struct lines *log, enum pixels pixels)
{
	char a[CALLLOG_LINE], b[CALLLOG_LINE];
	int use = 0, ok = 0, dropped = 0;

	CHECK(t->calls.n == log->n, "%d calls in the trace, %d in the client's log", t->calls.n, log->n);
	for (int i = 0; i < t->calls.n && i < log->n; i++) {
		structural(log->v[i], a, sizeof(a));
		if (strcmp(t->calls.v[i], a) != 0) {
			CHECK(0, "call %d differs:\n  client: %s\n  trace:  %s", i + 1, a, t->calls.v[i]);
			break;
		}
		if (!strstr(log->v[i], " | hash=")) {
			continue;
		}
		if (use >= t->nuses) {
			CHECK(0, "call %d: no buffer use in the trace", i + 1);
			break;
		}
		{
			struct buffer_use *u = &t->uses[use++];
			const char *hash = strstr(log->v[i], " | hash=") + 8;

			structural(u->line, b, sizeof(b));
			if (u->capture == HWCT_CAPTURE_OK) {
				ok++;
				CHECK(u->has_content && strcmp(u->content, hash) == 0,
					"call %d: content %s, the client's pixels hash to %s", i + 1,
					u->has_content ? u->content : "(none)", hash);
			} else if (u->capture == HWCT_CAPTURE_DROPPED) {
				dropped++;
				CHECK(!u->has_content, "call %d: a dropped capture has content", i + 1);
			}
			if (pixels == PIXELS_ALL) {
				CHECK(u->capture == HWCT_CAPTURE_OK, "call %d: capture %d", i + 1, u->capture);
			} else if (pixels == PIXELS_OFF) {
				CHECK(u->capture == HWCT_CAPTURE_OFF && !u->has_content, "call %d: capture %d",
					i + 1, u->capture);
			} else {
				CHECK(u->capture == HWCT_CAPTURE_OK || u->capture == HWCT_CAPTURE_DROPPED,
					"call %d: capture %d", i + 1, u->capture);
			}
		}
	}
	return pixels == PIXELS_SOME_DROPPED ? dropped : ok;
}

static void check_fences(struct trace *t)
{
	CHECK(t->nfence_refs > 0, "no fence referenced");
	for (int i = 0; i < t->nfence_refs; i++) {
		int found = -1;

		for (int k = 0; k < t->nfences; k++) {
			if (t->fences[k].id == t->fence_refs[i]) {
				found = k;
			}
		}
		CHECK(found >= 0, "fence %llu has no Fence record", (unsigned long long)t->fence_refs[i]);
		if (found >= 0) {
			CHECK(t->fences[found].status == HWCT_FENCE_SIGNALLED && t->fences[found].signalled &&
				t->fences[found].poll, "fence %llu: status %d, driver poll %d",
				(unsigned long long)t->fence_refs[i], t->fences[found].status, t->fences[found].poll);
		}
	}
}

/* The "# buffer" and "# callbacks" facts of the client against the trace. */
static void check_facts(struct trace *t, const char *facts)
{
	const char *p = facts;
	int hot = -1, refresh = -1, vsync = -1;

	while (p && *p) {
		unsigned long long ino;
		unsigned w, h, stride, offset;

		if (sscanf(p, "# buffer %llu %u %u %u %u", &ino, &w, &h, &stride, &offset) == 5) {
			for (int i = 0; i < t->nbuffers; i++) {
				if (t->buffer_ids[i] == ino) {
					CHECK(t->buffer_w[i] == w && t->buffer_h[i] == h &&
						t->buffer_stride[i] == stride && t->buffer_offset[i] == offset,
						"buffer %llu: %ux%u stride %u offset %u in the trace", ino,
						t->buffer_w[i], t->buffer_h[i], t->buffer_stride[i], t->buffer_offset[i]);
				}
			}
		}
		sscanf(p, "# callbacks %d %d %d", &hot, &refresh, &vsync);
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	CHECK(hot == 1 && t->hotplugs == 1, "hotplugs: client %d, trace %d", hot, t->hotplugs);
	CHECK(vsync == t->vsyncs, "vsync callbacks: client %d, trace %d", vsync, t->vsyncs);
}

/* Everything a complete session must show. */
static void check_full(const char *trace, const char *log, pid_t pid, enum pixels pixels, int frames)
{
	struct trace *t = calloc(1, sizeof(*t));
	struct lines calls;
	static char facts[65536];
	int n;

	load_log(log, &calls, facts, sizeof(facts));
	if (!load_trace(trace, t, pid)) {
		free(t);
		free_lines(&calls);
		return;
	}
	n = compare_calls(t, &calls, pixels);
	CHECK(t->seq_ok, "Call.seq is not 1, 2, 3, ...");
	CHECK(t->env && t->env_ok, "Environment missing or wrong");
	CHECK(t->displays >= 1 && t->display_ok >= 1, "Display record missing or wrong");
	CHECK(t->notes_internal >= 1, "no recorder-internal Note");
	CHECK(t->frame_ends == frames && t->frame_gaps == 0, "%d FrameEnds (gaps %d), %d frames",
		t->frame_ends, t->frame_gaps, frames);
	CHECK(t->frame_not_validated == 0, "%d frames not validated", t->frame_not_validated);
	CHECK(t->frame_flags_late == 0, "%d frames capture-late", t->frame_flags_late);
	CHECK(t->buffer_before_use, "a buffer was used before its Buffer record");
	CHECK(t->stats >= 1, "no CaptureStats");
	check_fences(t);
	check_facts(t, facts);
	if (pixels == PIXELS_ALL) {
		CHECK(n > 0 && t->deltas > 0, "%d captures, %d delta blobs", n, t->deltas);
		CHECK(t->blobs_dropped == 0, "%llu blobs dropped", (unsigned long long)t->blobs_dropped);
	} else if (pixels == PIXELS_SOME_DROPPED) {
		CHECK(n > 0, "no capture was dropped");
		CHECK(t->blobs_dropped == (uint64_t)n, "CaptureStats says %llu dropped, %d calls say so",
			(unsigned long long)t->blobs_dropped, n);
	} else {
		CHECK(t->blobs == 0, "%d blobs with pixels off", t->blobs);
	}
	trace_free(t);
	free(t);
	free_lines(&calls);
}

static int count_files(const char *dir)
{
	char cmd[600];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	p = popen(cmd, "r");
	if (p) {
		if (fscanf(p, "%d", &n) != 1) {
			n = -1;
		}
		pclose(p);
	}
	return n;
}

static void mkdir_in(const char *name)
{
	if (mkdir(path_in(name), 0755) < 0) {
		perror("mkdir");
		exit(2);
	}
}

/* ------------------------------------------------------------------ cases */

static const char *const wait_long = "HWCT_CAPTURE_WAIT_MS=5000";
/*
 * Sanitizer builds: the preloaded recorder comes before the runtime, and
 * both it and the fake define HMI (the client looks HMI up in the fake's
 * handle, so that is as intended). Leaks are still looked for: the
 * LD_PRELOAD path is leak-free too. Ignored by normal builds.
 */
static const char *const preload_asan =
	"ASAN_OPTIONS=verify_asan_link_order=0:detect_odr_violation=0:detect_leaks=1";

static void run_full(bool preload)
{
	char out[512], real[600], pre[600];
	const char *env[6] = { NULL };
	const char *module;
	struct run r;
	int n = 0;

	mkdir_in("out");
	snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", path_in("out"));
	env[n++] = out;
	env[n++] = wait_long;
	if (preload) {
		snprintf(pre, sizeof(pre), "LD_PRELOAD=%s", need_env("HWCT_TEST_RECORDER"));
		env[n++] = pre;
		env[n++] = preload_asan;
		module = need_env("HWCT_TEST_FAKE");
	} else {
		snprintf(real, sizeof(real), "HWCT_REAL_MODULE=%s", need_env("HWCT_TEST_FAKE"));
		env[n++] = real;
		module = need_env("HWCT_TEST_RECORDER");
	}
	r = run_client(module, path_in("log"), env, NULL, NULL, NULL);
	CHECK(r.status == 0, "client exit %d: %s", r.status, r.err);
	CHECK(count_lines(r.err) == 0, "the recorder printed: %s", r.err);
	check_full(trace_path(r.pid, 0, path_in("out")), path_in("log"), r.pid, PIXELS_ALL, FRAMES);
	CHECK(count_files(path_in("out")) == 1, "%d files in the output directory",
		count_files(path_in("out")));
	run_free(&r);
}

static void case_hal(void)
{
	run_full(false);
}

static void case_preload(void)
{
	run_full(true);
}

/* The baseline: the client straight on the fake, no recorder. */
static void baseline(struct lines *out)
{
	struct run r = run_client(need_env("HWCT_TEST_FAKE"), path_in("baseline.log"), NULL, NULL, NULL,
		NULL);

	CHECK(r.status == 0, "baseline client exit %d: %s", r.status, r.err);
	load_log(path_in("baseline.log"), out, NULL, 0);
	run_free(&r);
}

static void same_as_baseline(const char *log)
{
	struct lines base, got;

	baseline(&base);
	load_log(log, &got, NULL, 0);
	CHECK(base.n == got.n && base.n > 0, "%d calls, %d without the recorder", got.n, base.n);
	for (int i = 0; i < base.n && i < got.n; i++) {
		normalize(base.v[i]);
		normalize(got.v[i]);
		if (strcmp(base.v[i], got.v[i]) != 0) {
			CHECK(0, "call %d differs from the unrecorded run:\n  %s\n  %s", i + 1, base.v[i], got.v[i]);
			break;
		}
	}
	free_lines(&base);
	free_lines(&got);
}

/* Unwritable output: one log line, the module works as if unwrapped, no trace. */
static void case_broken_output(void)
{
	char real[600], pre[600];
	const char *hal_env[] = { "HWCT_OUTPUT=/nonexistent-hwct-dir/sub/", real, NULL };
	const char *pre_env[] = { "HWCT_OUTPUT=/proc/version/x.zst", pre,
		preload_asan, NULL };
	struct run r;

	snprintf(real, sizeof(real), "HWCT_REAL_MODULE=%s", need_env("HWCT_TEST_FAKE"));
	r = run_client(need_env("HWCT_TEST_RECORDER"), path_in("hal.log"), hal_env, NULL, NULL, NULL);
	CHECK(r.status == 0, "client exit %d", r.status);
	CHECK(count_lines(r.err) == 1 && strstr(r.err, "hwctrace") && strstr(r.err, "not recording"),
		"stderr: %s", r.err);
	same_as_baseline(path_in("hal.log"));
	run_free(&r);

	snprintf(pre, sizeof(pre), "LD_PRELOAD=%s", need_env("HWCT_TEST_RECORDER"));
	r = run_client(need_env("HWCT_TEST_FAKE"), path_in("pre.log"), pre_env, NULL, NULL, NULL);
	CHECK(r.status == 0, "client exit %d", r.status);
	CHECK(count_lines(r.err) == 1 && strstr(r.err, "not recording"), "stderr: %s", r.err);
	same_as_baseline(path_in("pre.log"));
	run_free(&r);
}

/* A malformed option: one log line, client unchanged, nothing written. */
static void case_broken_option(void)
{
	char out[512], real[600];
	const char *env[] = { out, real, "HWCT_PIXELS=2", NULL };
	struct run r;

	mkdir_in("out");
	snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", path_in("out"));
	snprintf(real, sizeof(real), "HWCT_REAL_MODULE=%s", need_env("HWCT_TEST_FAKE"));
	r = run_client(need_env("HWCT_TEST_RECORDER"), path_in("log"), env, NULL, NULL, NULL);
	CHECK(r.status == 0, "client exit %d", r.status);
	CHECK(count_lines(r.err) == 1 && strstr(r.err, "HWCT_PIXELS"), "stderr: %s", r.err);
	CHECK(count_files(path_in("out")) == 0, "files were written");
	same_as_baseline(path_in("log"));
	run_free(&r);
}

/* A budget far below one frame of pixels: captures dropped and counted, calls all there. */
static void case_budget(void)
{
	char out[512], real[600];
	const char *env[] = { out, real, wait_long, "HWCT_BUDGET_MB=1", NULL };
	struct run r;

	mkdir_in("out");
	snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", path_in("out"));
	snprintf(real, sizeof(real), "HWCT_REAL_MODULE=%s", need_env("HWCT_TEST_FAKE"));
	r = run_client(need_env("HWCT_TEST_RECORDER"), path_in("log"), env, NULL, NULL, NULL);
	CHECK(r.status == 0, "client exit %d: %s", r.status, r.err);
	check_full(trace_path(r.pid, 0, path_in("out")), path_in("log"), r.pid, PIXELS_SOME_DROPPED,
		FRAMES);
	run_free(&r);
}

static void case_pixels_off(void)
{
	char out[512], real[600];
	const char *env[] = { out, real, "HWCT_PIXELS=0", NULL };
	struct run r;

	mkdir_in("out");
	snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", path_in("out"));
	snprintf(real, sizeof(real), "HWCT_REAL_MODULE=%s", need_env("HWCT_TEST_FAKE"));
	r = run_client(need_env("HWCT_TEST_RECORDER"), path_in("log"), env, NULL, NULL, NULL);
	CHECK(r.status == 0, "client exit %d: %s", r.status, r.err);
	check_full(trace_path(r.pid, 0, path_in("out")), path_in("log"), r.pid, PIXELS_OFF, FRAMES);
	run_free(&r);
}

/*
 * A client that does other work between presentDisplay and getReleaseFences
 * (5 ms, far below the 50 ms after which the worker gives up waiting): every
 * FrameEnd must still follow its frame's getReleaseFences, which fills its
 * release fences. The worker, woken by the present to arm its captures, once
 * wrote the FrameEnd at once: it compared the present's dispatch time with a
 * clock read taken before it, and the unsigned difference wrapped.
 */
static void case_release_delay(void)
{
	char out[512], real[600];
	const char *env[] = { out, real, NULL };
	const char *args[] = { "--release-delay-us", "5000", NULL };
	struct run r;
	struct trace *t = calloc(1, sizeof(*t));

	CHECK(t != NULL, "out of memory");
	if (!t) {
		return;
	}
	mkdir_in("out");
	snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", path_in("out"));
	snprintf(real, sizeof(real), "HWCT_REAL_MODULE=%s", need_env("HWCT_TEST_FAKE"));
	r = run_client(need_env("HWCT_TEST_RECORDER"), path_in("log"), env, args, NULL, NULL);
	CHECK(r.status == 0, "client exit %d: %s", r.status, r.err);
	if (load_trace(trace_path(r.pid, 0, path_in("out")), t, r.pid)) {
		CHECK(t->frame_ends == FRAMES, "%d FrameEnds, %d frames", t->frame_ends, FRAMES);
		CHECK(t->frame_ends_before_release == 0, "%d of %d FrameEnds came before their frame's "
			"getReleaseFences", t->frame_ends_before_release, t->frame_ends);
		trace_free(t);
	}
	free(t);
	run_free(&r);
}

/* Plants, before the client runs, a symlink and a file under the names it would use. */
static void plant(pid_t pid)
{
	char target[600];
	int fd;

	snprintf(target, sizeof(target), "%s", path_in("outside.zst"));
	if (symlink(target, trace_path(pid, 0, path_in("out"))) < 0) {
		perror("symlink");
	}
	fd = open(trace_path(pid, 1, path_in("out")), O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0 || write(fd, "keep", 4) != 4) {
		perror("plant");
	}
	close(fd);
}

/* Names never leave HWCT_OUTPUT, never write through a symlink, never clobber a file. */
static void case_traversal(void)
{
	char out[512], real[600], linked[600];
	const char *env[] = { out, real, wait_long, NULL };
	const char *env2[] = { linked, real, NULL };
	struct stat st;
	char *kept;
	struct run r;

	mkdir_in("out");
	snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", path_in("out"));
	snprintf(real, sizeof(real), "HWCT_REAL_MODULE=%s", need_env("HWCT_TEST_FAKE"));
	r = run_client(need_env("HWCT_TEST_RECORDER"), path_in("log"), env, NULL, NULL, plant);
	CHECK(r.status == 0, "client exit %d: %s", r.status, r.err);
	CHECK(lstat(path_in("outside.zst"), &st) < 0, "wrote through the planted symlink");
	kept = read_file(trace_path(r.pid, 1, path_in("out")));
	CHECK(kept && strcmp(kept, "keep") == 0, "an existing file was overwritten");
	free(kept);
	check_full(trace_path(r.pid, 2, path_in("out")), path_in("log"), r.pid, PIXELS_ALL, FRAMES);
	CHECK(count_files(path_in("out")) == 3, "%d files in the output directory",
		count_files(path_in("out")));
	run_free(&r);

	/* an explicit file name that is a symlink is refused, not followed */
	if (symlink(path_in("outside2.zst"), path_in("out/link.zst")) < 0) {
		perror("symlink");
	}
	snprintf(linked, sizeof(linked), "HWCT_OUTPUT=%s", path_in("out/link.zst"));
	r = run_client(need_env("HWCT_TEST_RECORDER"), path_in("log2"), env2, NULL, NULL, NULL);
	CHECK(r.status == 0, "client exit %d", r.status);
	CHECK(count_lines(r.err) == 1, "stderr: %s", r.err);
	CHECK(lstat(path_in("outside2.zst"), &st) < 0, "wrote through the symlinked file name");
	run_free(&r);
}

static void case_max_frames(void)
{
	char out[512], real[600];
	const char *env[] = { out, real, wait_long, "HWCT_MAX_FRAMES=3", NULL };
	struct trace *t = calloc(1, sizeof(*t));
	struct run r;

	mkdir_in("out");
	snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", path_in("out"));
	snprintf(real, sizeof(real), "HWCT_REAL_MODULE=%s", need_env("HWCT_TEST_FAKE"));
	r = run_client(need_env("HWCT_TEST_RECORDER"), path_in("log"), env, NULL, NULL, NULL);
	CHECK(r.status == 0, "client exit %d: %s", r.status, r.err);
	if (load_trace(trace_path(r.pid, 0, path_in("out")), t, r.pid)) {
		CHECK(t->frame_ends == 3, "%d FrameEnds with HWCT_MAX_FRAMES=3", t->frame_ends);
		trace_free(t);
	}
	CHECK(count_files(path_in("out")) == 1, "a second trace was started");
	free(t);
	run_free(&r);
}

/*
 * A module that aborts in its 4th presentDisplay (hwcomposer.faulty.so)
 * kills the client with SIGABRT; the trace was finished on the way out
 * (load_trace checks its seek table) and holds the 3 frames before, and
 * the same with SIGSEGV in the 6th validateDisplay (5 frames).
 */
static void case_crash(void)
{
	static const struct {
		const char *fault;
		int signal, frames;
	} faults[] = {
		{ "FAKE_HWC2_FAULT=abort:presentDisplay:4", SIGABRT, 3 },
		{ "FAKE_HWC2_FAULT=crash:validateDisplay:6", SIGSEGV, 5 },
	};

	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
		char out[512], real[600], asan[512];
		const char *env[] = { out, real, wait_long, faults[i].fault, asan, NULL };
		struct trace *t = calloc(1, sizeof(*t));
		struct run r;
		char dir[32];

		snprintf(dir, sizeof(dir), "out-crash-%zu", i);
		mkdir_in(dir);
		snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", path_in(dir));
		snprintf(real, sizeof(real), "HWCT_REAL_MODULE=%s", need_env("HWCT_TEST_FAULTY"));
		/* in a sanitizer build ASan's own SIGSEGV handler would turn the crash into an abort */
		snprintf(asan, sizeof(asan), "ASAN_OPTIONS=%s%shandle_segv=0:handle_sigbus=0:handle_sigfpe=0",
			getenv("ASAN_OPTIONS") ? getenv("ASAN_OPTIONS") : "", getenv("ASAN_OPTIONS") ? ":" : "");
		r = run_client(need_env("HWCT_TEST_RECORDER"), path_in("log"), env, NULL, NULL, NULL);
		CHECK(r.signal == faults[i].signal, "%s: client exit %d, signal %d, expected signal %d: %s",
			faults[i].fault, r.status, r.signal, faults[i].signal, r.err);
		if (load_trace(trace_path(r.pid, 0, path_in(dir)), t, r.pid)) {
			CHECK(t->frame_ends == faults[i].frames, "%s: %d FrameEnds, expected %d", faults[i].fault,
				t->frame_ends, faults[i].frames);
			trace_free(t);
		}
		free(t);
		run_free(&r);
	}
}

/* The trace of a triggered session holds a contiguous run of the client's calls. */
static void check_window(const char *trace, pid_t pid, int min_frames, int max_frames)
{
	struct trace *t = calloc(1, sizeof(*t));
	struct lines calls;
	char a[CALLLOG_LINE];
	bool found = false;

	load_log(path_in("log"), &calls, NULL, 0);
	if (!load_trace(trace, t, pid)) {
		free(t);
		free_lines(&calls);
		return;
	}
	CHECK(t->frame_ends >= min_frames && t->frame_ends <= max_frames, "%d FrameEnds, expected %d..%d",
		t->frame_ends, min_frames, max_frames);
	CHECK(t->calls.n > 0 && t->env, "%d calls", t->calls.n);
	for (int k = 0; k + t->calls.n <= calls.n && !found; k++) {
		int i = 0;

		while (i < t->calls.n && strcmp(t->calls.v[i], structural(calls.v[k + i], a, sizeof(a))) == 0) {
			i++;
		}
		found = i == t->calls.n;
	}
	CHECK(found, "the trace's calls are not a run of the client's");
	trace_free(t);
	free(t);
	free_lines(&calls);
}

static void case_trigger_signal(void)
{
	char out[512], real[600];
	const char *env[] = { out, real, wait_long, "HWCT_TRIGGER=signal", NULL };
	const char *args[] = { "--signal-at", "2,6", NULL };
	struct run r;

	mkdir_in("out");
	snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", path_in("out"));
	snprintf(real, sizeof(real), "HWCT_REAL_MODULE=%s", need_env("HWCT_TEST_FAKE"));
	r = run_client(need_env("HWCT_TEST_RECORDER"), path_in("log"), env, args, NULL, NULL);
	CHECK(r.status == 0, "client exit %d: %s", r.status, r.err);
	check_window(trace_path(r.pid, 0, path_in("out")), r.pid, 3, 5);
	CHECK(count_files(path_in("out")) == 1, "%d traces", count_files(path_in("out")));
	run_free(&r);
}

static void case_trigger_control(void)
{
	char out[512], real[600], control[600];
	const char *env[] = { out, real, control, wait_long, NULL };
	const char *args[] = { "--control", path_in("control"), "--control-at", "2,6", NULL };
	struct run r;

	mkdir_in("out");
	snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", path_in("out"));
	snprintf(real, sizeof(real), "HWCT_REAL_MODULE=%s", need_env("HWCT_TEST_FAKE"));
	snprintf(control, sizeof(control), "HWCT_CONTROL=%s", path_in("control"));
	r = run_client(need_env("HWCT_TEST_RECORDER"), path_in("log"), env, args, NULL, NULL);
	CHECK(r.status == 0, "client exit %d: %s", r.status, r.err);
	check_window(trace_path(r.pid, 0, path_in("out")), r.pid, 3, 5);
	CHECK(count_files(path_in("out")) == 1, "%d traces", count_files(path_in("out")));
	run_free(&r);
}

/*
 * The hot path does no file I/O: under strace, no write to the trace comes
 * from the client's thread (its tid is its pid); they all come from the
 * writer's threads.
 */
static int case_no_file_io(void)
{
	char out[512], real[600], slog[600], line[4096];
	/* LeakSanitizer does not run under ptrace */
	const char *env[] = { out, real, wait_long, "ASAN_OPTIONS=detect_leaks=0", NULL };
	const char *wrapper[] = { "strace", "-f", "-qq", "-y", "-o", slog,
		"-e", "trace=write,pwrite64,writev,pwritev,pwritev2", NULL };
	int from_client = 0, from_others = 0;
	struct run r;
	FILE *f;

	if (system("strace -qq -o /dev/null true 2>/dev/null") != 0) {
		fprintf(stderr, "strace missing or not permitted: skipped\n");
		return 77;
	}
	mkdir_in("out");
	snprintf(out, sizeof(out), "HWCT_OUTPUT=%s", path_in("out"));
	snprintf(real, sizeof(real), "HWCT_REAL_MODULE=%s", need_env("HWCT_TEST_FAKE"));
	snprintf(slog, sizeof(slog), "%s", path_in("strace.log"));
	r = run_client(need_env("HWCT_TEST_RECORDER"), path_in("log"), env, NULL, wrapper, NULL);
	CHECK(r.status == 0, "client exit %d: %s", r.status, r.err);
	f = fopen(slog, "r");
	CHECK(f != NULL, "no strace log");
	while (f && fgets(line, sizeof(line), f)) {
		long tid;

		if (!strstr(line, ".zst>") || sscanf(line, "%ld", &tid) != 1) {
			continue;
		}
		if (tid == (long)r.pid) {
			from_client++;
			if (from_client == 1) {
				fprintf(stderr, "client thread wrote the trace: %s", line);
			}
		} else {
			from_others++;
		}
	}
	if (f) {
		fclose(f);
	}
	CHECK(from_client == 0, "%d trace writes from the client's thread", from_client);
	CHECK(from_others > 0, "no trace writes seen at all");
	run_free(&r);
	return 0;
}

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
	{ "hal", case_hal },
	{ "crash", case_crash },
	{ "preload", case_preload },
	{ "broken-output", case_broken_output },
	{ "broken-option", case_broken_option },
	{ "budget", case_budget },
	{ "pixels-off", case_pixels_off },
	{ "release-delay", case_release_delay },
	{ "traversal", case_traversal },
	{ "max-frames", case_max_frames },
	{ "trigger-signal", case_trigger_signal },
	{ "trigger-control", case_trigger_control },
};

int main(int argc, char **argv)
{
	int ret = 0;
	bool found = false;

	if (argc != 2) {
		fprintf(stderr, "usage: test-recorder CASE\n");
		return 2;
	}
	snprintf(workdir, sizeof(workdir), "/tmp/hwct-rec-XXXXXX");
	if (!mkdtemp(workdir)) {
		perror("mkdtemp");
		return 2;
	}
	if (strcmp(argv[1], "no-file-io") == 0) {
		found = true;
		ret = case_no_file_io();
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (strcmp(argv[1], cases[i].name) == 0) {
			found = true;
			cases[i].fn();
		}
	}
	if (!getenv("HWCT_TEST_KEEP")) {
		nftw(workdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	} else {
		fprintf(stderr, "kept %s\n", workdir);
	}
	if (!found) {
		fprintf(stderr, "test-recorder: no case %s\n", argv[1]);
		return 2;
	}
	if (ret == 77) {
		return 77;
	}
	return check_status();
}
