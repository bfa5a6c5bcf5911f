/* The client's log and the trace, for the robustness tests (testlib.h). */
#include <stdlib.h>
#include <string.h>

#include <hwct/format.h>
#include <hwct/reader.h>

#include "calllog.h"
#include "testlib.h"

static bool push(char ***v, size_t *n, size_t *cap, char *line)
{
	if (*n == *cap) {
		char **more = realloc(*v, (*cap ? *cap * 2 : 1024) * sizeof(**v));

		if (!more) {
			return false;
		}
		*v = more;
		*cap = *cap ? *cap * 2 : 1024;
	}
	(*v)[(*n)++] = line;
	return true;
}

bool test_log_load(struct test_log *log, const char *path)
{
	size_t call_cap = 0, fact_cap = 0;
	char *p;

	*log = (struct test_log){ 0 };
	log->text = test_read_file(path, NULL);
	if (!log->text) {
		CHECK(0, "no client log %s", path);
		return false;
	}
	for (p = log->text; *p;) {
		char *end = strchr(p, '\n');
		bool ok;

		if (end) {
			*end = '\0';
		}
		ok = p[0] == '#' ? push(&log->facts, &log->fact_count, &fact_cap, p) :
			push(&log->calls, &log->call_count, &call_cap, p);
		if (!ok) {
			CHECK(0, "out of memory");
			return false;
		}
		if (!end) {
			break;
		}
		p = end + 1;
	}
	return true;
}

const char *test_log_fact(const struct test_log *log, const char *name)
{
	size_t len = strlen(name);

	for (size_t i = log->fact_count; i-- > 0;) {
		const char *f = log->facts[i];

		if (strncmp(f, "# ", 2) == 0 && strncmp(f + 2, name, len) == 0 &&
				(f[2 + len] == ' ' || f[2 + len] == '\0')) {
			return f[2 + len] ? f + 3 + len : f + 2 + len;
		}
	}
	return NULL;
}

void test_log_finish(struct test_log *log)
{
	free(log->calls);
	free(log->facts);
	free(log->text);
	*log = (struct test_log){ 0 };
}

static void take(struct test_trace *t, const Hwct__Record *rec)
{
	t->records++;
	switch (rec->kind_case) {
	case HWCT__RECORD__KIND_CALL: {
		const Hwct__Call *c = rec->call;

		t->calls++;
		t->call_errors += c->error != 0;
		if (c->args_case == HWCT__CALL__ARGS_BUFFER && c->buffer->has_capture) {
			t->captures_ok += c->buffer->capture == HWCT_CAPTURE_OK;
			t->captures_dropped += c->buffer->capture == HWCT_CAPTURE_DROPPED;
			t->captures_late += c->buffer->capture == HWCT_CAPTURE_LATE;
		}
		break;
	}
	case HWCT__RECORD__KIND_FRAME_END:
		t->frame_ends++;
		t->frame_ends_late += (rec->frame_end->flags & HWCT_FRAME_CAPTURE_LATE) != 0;
		break;
	case HWCT__RECORD__KIND_CAPTURE_STATS:
		t->stats = true;
		t->blobs_dropped = rec->capture_stats->blobs_dropped;
		t->records_dropped = rec->capture_stats->records_dropped;
		t->has_fds = rec->capture_stats->has_fd_budget;
		t->fd_budget = rec->capture_stats->fd_budget;
		t->fds_held_peak = rec->capture_stats->fds_held_peak;
		t->captures_no_fd = rec->capture_stats->captures_no_fd;
		t->fences_unwatched = rec->capture_stats->fences_unwatched;
		t->has_wakes = rec->capture_stats->has_worker_wakes;
		t->worker_wakes = rec->capture_stats->worker_wakes;
		break;
	case HWCT__RECORD__KIND_FENCE:
		t->fences++;
		t->fences_unwatched_seen += rec->fence->status == HWCT_FENCE_UNWATCHED;
		break;
	default:
		break;
	}
}

bool test_trace_scan(const char *path, struct test_trace *out,
	void (*on_call)(const Hwct__Call *call, void *data), void *data)
{
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);
	const Hwct__Record *rec;
	int ret;

	*out = (struct test_trace){ 0 };
	if (!r) {
		CHECK(0, "cannot open %s: %s", path, err.message);
		return false;
	}
	out->closed = hwct_reader_info(r)->has_seek_table;
	while ((ret = hwct_reader_next(r, &rec)) > 0) {
		take(out, rec);
		if (on_call && rec->kind_case == HWCT__RECORD__KIND_CALL) {
			on_call(rec->call, data);
		}
	}
	CHECK(ret == 0, "%s: %s", path, hwct_reader_error(r) ? hwct_reader_error(r)->message : "?");
	hwct_reader_destroy(r);
	return ret == 0;
}

struct call_check {
	const struct test_log *log;
	size_t next;
	bool reported;
};

static void check_call(const Hwct__Call *c, void *data)
{
	struct call_check *k = data;
	struct calllog_line l;
	const char *want;
	size_t i = k->next++;

	if (i >= k->log->call_count || k->reported) {
		return;
	}
	calllog_begin(&l, c->function, c->has_display, c->display, c->has_layer, c->layer, c->error);
	want = k->log->calls[i];
	if (strncmp(want, l.s, l.n) != 0 || (want[l.n] != ' ' && want[l.n] != '\0')) {
		CHECK(0, "call %zu differs:\n  client: %s\n  trace:  %s", i + 1, want, l.s);
		k->reported = true;
	}
}

void test_check_calls(const char *trace, const struct test_log *log, struct test_trace *out)
{
	struct call_check k = { .log = log };

	if (test_trace_scan(trace, out, check_call, &k)) {
		CHECK(out->calls == log->call_count, "%llu calls in the trace, %zu in the client's log",
			(unsigned long long)out->calls, log->call_count);
	}
}
