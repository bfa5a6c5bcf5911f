/* hwc-trace dump: every record, in order, with the values the test wrote. */
#define _GNU_SOURCE	/* F_GETPIPE_SZ */
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hardware/hwcomposer2.h>
#include <hwct/hash.h>

#include "tests.h"

#include "testjson.h"

static void hex(char *out, const uint8_t *data, size_t size)
{
	for (size_t i = 0; i < size; i++) {
		snprintf(out + 2 * i, 3, "%02x", data[i]);
	}
}

/* The record's message in its line: {"kind": NAME, NAME: {...}}. */
static struct json_object *body(struct json_object *line)
{
	const char *kind = tj_str(line, "kind");
	struct json_object *b = kind ? tj_get(line, kind) : NULL;

	CHECK_MSG(b && json_object_is_type(b, json_type_object), "no \"%s\" object", kind);
	CHECK_EQ_U64(json_object_object_length(line), 2);
	return b;
}

/* The line is the JSON form of record rec: its kind and identity. */
static void check_identity(struct json_object *line, const Hwct__Record *rec)
{
	const char *kind = tj_str(line, "kind");
	struct json_object *obj = body(line);
	char h[2 * HWCT_HASH_BYTES + 1];

	CHECK_MSG(kind && strcmp(kind, kind_name(rec->kind_case)) == 0, "kind %s, expected %s", kind,
		kind_name(rec->kind_case));
	switch (rec->kind_case) {
	case HWCT__RECORD__KIND_CALL:
		CHECK_EQ_U64(tj_u64(obj, "seq"), rec->call->seq);
		break;
	case HWCT__RECORD__KIND_FRAME_END:
		CHECK_EQ_U64(tj_u64(obj, "frame"), rec->frame_end->frame);
		break;
	case HWCT__RECORD__KIND_KEYFRAME:
		CHECK_EQ_U64(tj_u64(obj, "frame"), rec->keyframe->frame);
		break;
	case HWCT__RECORD__KIND_FENCE:
		CHECK_EQ_U64(tj_u64(obj, "id"), rec->fence->id);
		break;
	case HWCT__RECORD__KIND_BLOB:
		hex(h, rec->blob->hash.data, rec->blob->hash.len);
		CHECK(strcmp(tj_str(obj, "hash"), h) == 0);
		break;
	default:
		break;
	}
}

/* The line of a record the generator wrote holds what it wrote. */
static void check_written(struct json_object *line, const struct gen_item *item)
{
	struct json_object *obj = body(line);
	uint8_t bytes[HWCT_HASH_BYTES];
	char h[2 * HWCT_HASH_BYTES + 1];
	const char *name;

	CHECK(strcmp(tj_str(line, "kind"), kind_name(item->kind)) == 0);
	if (item->kind == HWCT__RECORD__KIND_FENCE || item->kind == HWCT__RECORD__KIND_BUFFER ||
		item->kind == HWCT__RECORD__KIND_DISPLAY) {
		CHECK_EQ_U64(tj_u64(obj, "id"), item->key);
	}
	if (item->kind == HWCT__RECORD__KIND_FRAME_END) {
		CHECK_EQ_U64(tj_u64(obj, "frame"), item->key);
		CHECK_EQ_U64(tj_u64(obj, "display"), item->key % 2);
		CHECK_EQ_U64(tj_u64(obj, "display_frame"), item->key / 2);
	}
	if (item->kind != HWCT__RECORD__KIND_CALL) {
		return;
	}
	CHECK_EQ_U64(tj_u64(obj, "seq"), item->key);
	CHECK_EQ_U64(json_object_get_int(tj_get(obj, "function")), (uint64_t)item->function);
	name = gen_function_name(item->function);
	CHECK_MSG(name ? tj_str(obj, "function_name") && strcmp(tj_str(obj, "function_name"), name) == 0 :
		tj_has(obj, "function_name") && !tj_get(obj, "function_name"), "call %" PRIu64, item->key);
	CHECK_EQ_U64(tj_u64(obj, "display"), item->display);
	CHECK(tj_has(obj, "layer") == item->has_layer);
	if (item->has_layer) {
		CHECK_EQ_U64(tj_u64(obj, "layer"), item->layer);
	}
	if (item->function == HWC2_FUNCTION_SET_LAYER_BUFFER) {
		CHECK_EQ_U64(tj_u64(obj, "buffer.buffer"), item->buffer);
		CHECK_EQ_U64(tj_u64(obj, "buffer.fence"), item->fence);
		CHECK(tj_has(tj_get(obj, "buffer"), "content") == item->has_content);
		if (item->has_content) {
			hwct_hash_to_bytes(&item->content, bytes);
			hex(h, bytes, sizeof(bytes));
			CHECK(strcmp(tj_str(obj, "buffer.content"), h) == 0);
		}
	}
}

/* Values of the special encodings: big integers, long and short bytes, escapes. */
static void check_encodings(struct json_object *line)
{
	const char *kind = tj_str(line, "kind");
	struct json_object *obj = body(line);
	char big[32];

	snprintf(big, sizeof(big), "%llu", (unsigned long long)GEN_BIG_U64);
	if (strcmp(kind, "environment") == 0) {
		CHECK(strcmp(tj_str(obj, "clock_monotonic_ns"), big) == 0);
		CHECK(tj_is_int(obj, "pid"));
	} else if (strcmp(kind, "display") == 0) {
		CHECK_EQ_U64(tj_u64(obj, "identification.bytes"), GEN_EDID_SIZE);
	} else if (strcmp(kind, "buffer") == 0) {
		CHECK(tj_is_int(obj, "modifier"));
		CHECK_EQ_U64(tj_u64(obj, "modifier"), GEN_SAFE_U64);
	} else if (strcmp(kind, "capture_stats") == 0) {
		CHECK(tj_is_int(obj, "blobs_dropped"));
		CHECK_EQ_U64(tj_u64(obj, "blobs_dropped"), GEN_SAFE_U64);
		CHECK(strcmp(tj_str(obj, "bytes_queued_peak"), big) == 0);
	} else if (strcmp(kind, "note") == 0) {
		CHECK(strcmp(tj_str(obj, "text"), GEN_NOTE_TEXT) == 0);
	} else if (tj_get(obj, "identification.data")) {
		CHECK(strcmp(tj_str(obj, "identification.data"), "a0a1a2a3a4a5a6a7a8a9") == 0);
	}
}

/* Runs dump with args and checks its lines against records[first..] of the file and the written items. */
static void check_dump(struct fixture *fx, const char *const *args, const struct model_record *const *records,
	const size_t *expect, size_t expect_count, bool no_blob_data)
{
	struct test_run run;
	size_t n, item = 0;
	char **lines;

	fixture_run(fx, &run, args);
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	CHECK(run.err[0] == 0);
	n = test_lines(run.out, &lines);
	CHECK_EQ_U64(n, expect_count);
	for (size_t i = 0; i < n; i++) {
		struct json_object *obj = tj_parse_object(lines[i]);
		const Hwct__Record *rec = records[expect[i]]->rec;

		check_identity(obj, rec);
		check_encodings(obj);
		if (rec->kind_case == HWCT__RECORD__KIND_BLOB) {
			size_t stored = rec->blob->data.len;

			CHECK(tj_has(body(obj), "data") == !no_blob_data);
			if (!no_blob_data && stored > 64) {
				CHECK_EQ_U64(tj_u64(obj, "blob.data.bytes"), stored);
			} else if (!no_blob_data) {
				CHECK_EQ_U64(strlen(tj_str(obj, "blob.data")), 2 * stored);
			}
			CHECK_EQ_U64(tj_u64(obj, "blob.size"), rec->blob->size);
		} else if (rec->kind_case != HWCT__RECORD__KIND_KEYFRAME) {
			/* the written records, in order: find the next one of this range */
			while (item < fx->gen.count && !(fx->gen.items[item].kind == rec->kind_case &&
				fx->gen.items[item].key == record_key(rec))) {
				item++;
			}
			CHECK_MSG(item < fx->gen.count, "line %zu is no written record", i);
			check_written(obj, &fx->gen.items[item++]);
		}
		json_object_put(obj);
	}
	free(lines);
	test_run_finish(&run);
}

static int dump_all(struct fixture *fx, bool no_blob_data)
{
	const char *args[] = { "dump", "--json", fx->trace, no_blob_data ? "--no-blob-data" : NULL, NULL };
	const struct model_record **records;
	size_t n = model_records(&fx->model, &records), written = 0;
	size_t *all = malloc(n * sizeof(*all));

	CHECK(all);
	for (size_t i = 0; i < n; i++) {
		all[i] = i;
		written += records[i]->rec->kind_case != HWCT__RECORD__KIND_BLOB &&
			records[i]->rec->kind_case != HWCT__RECORD__KIND_KEYFRAME;
	}
	CHECK_EQ_U64(written, fx->gen.count);
	check_dump(fx, args, records, all, n, no_blob_data);
	free(all);
	free(records);
	return 0;
}

int test_dump_json(struct fixture *fx)
{
	fixture_trace(fx, FIXTURE_FRAMES);
	return dump_all(fx, false);
}

int test_dump_json_no_blob_data(struct fixture *fx)
{
	fixture_trace(fx, FIXTURE_FRAMES);
	return dump_all(fx, true);
}

int test_dump_records(struct fixture *fx)
{
	const char *args[] = { "dump", "--json", "--records", "call,frame_end", NULL, NULL };
	const char *bad[] = { "dump", "--records", "call,nonsense", NULL, NULL };
	struct test_run run;
	size_t n, calls = 0, ends = 0;
	char **lines;

	fixture_trace(fx, FIXTURE_FRAMES);
	args[4] = bad[3] = fx->trace;
	fixture_run(fx, &run, args);
	CHECK_EQ_U64(run.status, 0);
	n = test_lines(run.out, &lines);
	for (size_t i = 0; i < n; i++) {
		struct json_object *obj = tj_parse_object(lines[i]);

		calls += strcmp(tj_str(obj, "kind"), "call") == 0;
		ends += strcmp(tj_str(obj, "kind"), "frame_end") == 0;
		json_object_put(obj);
	}
	CHECK_EQ_U64(n, calls + ends);
	CHECK_EQ_U64(calls, fx->gen.by_kind[HWCT__RECORD__KIND_CALL]);
	CHECK_EQ_U64(ends, fx->gen.frames);
	free(lines);
	test_run_finish(&run);
	fixture_run(fx, &run, bad);
	CHECK_EQ_U64(run.status, 2);
	CHECK(test_contains(run.err, "nonsense"));
	test_run_finish(&run);
	return 0;
}

/* Lines of `dump` text that start with prefix and contain needle (NULL: any). */
static size_t count_lines(char **lines, size_t n, const char *prefix, const char *needle)
{
	size_t count = 0;

	for (size_t i = 0; i < n; i++) {
		count += strncmp(lines[i], prefix, strlen(prefix)) == 0 && (!needle || strstr(lines[i], needle));
	}
	return count;
}

int test_dump_frames(struct fixture *fx, const char *range, uint64_t first, uint64_t last)
{
	const char *args[] = { "dump", "--json", "--frames", range, NULL, NULL };
	const char *text_args[] = { "dump", "--frames", range, NULL, NULL };
	const struct model_record **records;
	size_t n, count = 0, gen_count = 0;
	uint64_t *frames;
	size_t *expect, lines_count;
	struct test_run run;
	char **lines;

	fixture_trace(fx, FIXTURE_FRAMES);
	args[4] = text_args[3] = fx->trace;
	n = model_records(&fx->model, &records);
	frames = calloc(n, sizeof(*frames));
	expect = calloc(n, sizeof(*expect));
	CHECK(frames && expect);
	record_frames(records, n, frames);
	for (size_t i = 0; i < n; i++) {
		if (frames[i] >= first && frames[i] <= last) {
			expect[count++] = i;
		}
	}
	for (size_t i = 0; i < fx->gen.count; i++) {
		gen_count += fx->gen.items[i].frame >= first && fx->gen.items[i].frame <= last;
	}
	check_dump(fx, args, records, expect, count, false);
	/* the written records of the range are all among them */
	for (size_t i = 0, seen = 0; i <= count; i++) {
		if (i == count) {
			CHECK_EQ_U64(seen, gen_count);
			break;
		}
		seen += records[expect[i]]->rec->kind_case != HWCT__RECORD__KIND_BLOB &&
			records[expect[i]]->rec->kind_case != HWCT__RECORD__KIND_KEYFRAME;
	}
	CHECK(first > FIXTURE_FRAMES || gen_count > 0);
	/* text: one line per record, FrameEnds of the range only */
	fixture_run(fx, &run, text_args);
	CHECK_EQ_U64(run.status, 0);
	lines_count = test_lines(run.out, &lines);
	CHECK_EQ_U64(lines_count, count);
	for (size_t i = 0; i < lines_count; i++) {
		const Hwct__Record *rec = records[expect[i]]->rec;

		if (rec->kind_case == HWCT__RECORD__KIND_FRAME_END) {
			char head[64];

			snprintf(head, sizeof(head), "=== frame %" PRIu64 " ", rec->frame_end->frame);
			CHECK_MSG(strncmp(lines[i], head, strlen(head)) == 0, "line %zu: %s", i, lines[i]);
		}
		if (rec->kind_case == HWCT__RECORD__KIND_CALL) {
			char head[64];

			snprintf(head, sizeof(head), "#%" PRIu64 " ", rec->call->seq);
			CHECK_MSG(strncmp(lines[i], head, strlen(head)) == 0, "line %zu: %s", i, lines[i]);
		}
	}
	free(lines);
	test_run_finish(&run);
	free(frames);
	free(expect);
	free(records);
	return 0;
}

int test_dump_text(struct fixture *fx)
{
	const char *args[] = { "dump", NULL, NULL };
	const struct model_record **records;
	size_t n, total, keyframes = 0, changes = 0;
	struct test_run run;
	char **lines;

	fixture_trace(fx, FIXTURE_FRAMES);
	args[1] = fx->trace;
	total = model_records(&fx->model, &records);
	for (size_t i = 0; i < total; i++) {
		keyframes += records[i]->rec->kind_case == HWCT__RECORD__KIND_KEYFRAME;
	}
	for (unsigned k = 0; k < fx->gen.frames; k++) {
		changes += k % 2 == 0 && (k / 2) % 2 == 1;	/* display 0, odd display frame */
	}
	fixture_run(fx, &run, args);
	CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
	n = test_lines(run.out, &lines);
	CHECK_EQ_U64(n, total);
	CHECK_EQ_U64(count_lines(lines, n, "#", NULL), fx->gen.by_kind[HWCT__RECORD__KIND_CALL]);
	CHECK_EQ_U64(count_lines(lines, n, "#", " setLayerBuffer(display=0, layer=10) buffer=10"),
		(fx->gen.frames + 1) / 2);
	CHECK_EQ_U64(count_lines(lines, n, "#", " validateDisplay(display=0)"), (fx->gen.frames + 1) / 2);
	CHECK_EQ_U64(count_lines(lines, n, "#", "-> HAS_CHANGES"), changes);
	CHECK_EQ_U64(count_lines(lines, n, "#", " setLayerCompositionType(display=0, layer=10) value=DEVICE"),
		(fx->gen.frames + 1) / 2);
	CHECK_EQ_U64(count_lines(lines, n, "=== frame ", NULL), fx->gen.frames);
	CHECK_EQ_U64(count_lines(lines, n, "keyframe ", NULL), keyframes);
	CHECK_EQ_U64(count_lines(lines, n, "blob ", NULL), fx->gen.blob_count);
	CHECK_EQ_U64(count_lines(lines, n, "fence ", " kind=PRESENT"), fx->gen.frames);
	CHECK_EQ_U64(count_lines(lines, n, "callback ", " descriptor=VSYNC"), fx->gen.frames);
	CHECK_EQ_U64(count_lines(lines, n, "environment ", GEN_FINGERPRINT), 1);
	CHECK_EQ_U64(count_lines(lines, n, "note ", NULL), 1);
	free(lines);
	free(records);
	test_run_finish(&run);
	return 0;
}

int test_dump_truncated(struct fixture *fx)
{
	const char *args[] = { "dump", NULL, NULL };
	const struct model_frame **data;
	const char *path = test_path("cut.zst");
	size_t n, lines_count, kept = 0;
	struct test_run run;
	char **lines;

	fixture_trace(fx, FIXTURE_FRAMES);
	n = model_data_frames(&fx->model, &data);
	CHECK(n >= 4);
	test_write_file(path, fx->model.data, (size_t)(data[3]->offset + 9));
	for (size_t i = 0; i < 3; i++) {
		kept += data[i]->record_count;
	}
	args[1] = path;
	fixture_run(fx, &run, args);
	/* an unfinished trace: every complete record printed, a warning naming it, exit 0 */
	CHECK_EQ_U64(run.status, 0);
	lines_count = test_lines(run.out, &lines);
	CHECK_EQ_U64(lines_count, kept);
	CHECK_MSG(test_contains(run.err, "warning") && test_contains(run.err, "did not finish"), "stderr: %s",
		run.err);
	CHECK(test_contains(run.err, path));
	free(lines);
	free(data);
	test_run_finish(&run);
	return 0;
}

/*
 * --frames from past the trace's frames (0 to N-1, and N: the records after
 * the last FrameEnd): a usage error naming the frames there are; a range
 * running past the end is only cut there.
 */
int test_dump_frames_past_end(struct fixture *fx)
{
	const char *args[] = { "dump", "--frames", "40-50", NULL, NULL };
	const char *tail[] = { "dump", "--frames", "10-50", NULL, NULL };
	char expect[160];
	struct test_run run;

	fixture_trace(fx, FIXTURE_FRAMES);
	args[3] = tail[3] = fx->trace;
	fixture_run(fx, &run, args);
	CHECK_EQ_U64(run.status, 2);
	CHECK(run.out_size == 0);
	snprintf(expect, sizeof(expect), "has %d frames (0 to %d, then the records after the last FrameEnd "
		"as frame %d), none from 40", FIXTURE_FRAMES, FIXTURE_FRAMES - 1, FIXTURE_FRAMES);
	CHECK_MSG(test_contains(run.err, expect), "stderr: %s", run.err);
	test_run_finish(&run);
	fixture_run(fx, &run, tail);
	CHECK_EQ_U64(run.status, 0);
	CHECK(test_contains(run.out, "=== frame 11 "));
	test_run_finish(&run);
	return 0;
}

/*
 * `hwc-trace dump | head -c 4096`: the reader takes one chunk and goes away
 * while the dump still has output to write (its whole output is checked to
 * exceed what the pipe, the chunk read and the tool's 64 KiB stdout buffer
 * hold, so the write after the close must fail with EPIPE). The tool stops
 * quietly with exit 0. EPIPE_FRAMES keeps the trace small: the test runs in
 * well under a second even under sanitizers.
 */
#define EPIPE_FRAMES 400
#define EPIPE_STDOUT_BUFFER 65536

int test_dump_epipe(struct fixture *fx)
{
	const char *args[] = { "dump", NULL, NULL };
	char buf[4096];
	int out[2], status, err, pipe_size;
	const char *err_path = test_path("epipe-err");
	struct test_run full;
	size_t err_size;
	uint8_t *err_text;
	pid_t pid;

	fixture_trace(fx, EPIPE_FRAMES);
	args[1] = fx->trace;
	fixture_run(fx, &full, args);
	CHECK_EQ_U64(full.status, 0);
	CHECK(pipe(out) == 0);
	pipe_size = fcntl(out[1], F_GETPIPE_SZ);
	CHECK(pipe_size > 0);
	CHECK_MSG(full.out_size > (size_t)pipe_size + sizeof(buf) + EPIPE_STDOUT_BUFFER,
		"the dump writes %zu bytes: too few to meet a closed pipe (pipe %d bytes)",
		full.out_size, pipe_size);
	test_run_finish(&full);
	err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(err >= 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		dup2(out[1], STDOUT_FILENO);
		dup2(err, STDERR_FILENO);
		close(out[0]);
		close(out[1]);
		execl(fx->tool, fx->tool, "dump", fx->trace, (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	close(err);
	CHECK(read(out[0], buf, sizeof(buf)) > 0);	/* like `| head -c 4096` */
	close(out[0]);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status 0x%x", status);
	err_text = test_read_file(err_path, &err_size);
	CHECK_MSG(err_size == 0, "stderr: %s", (char *)err_text);
	free(err_text);
	return 0;
}
