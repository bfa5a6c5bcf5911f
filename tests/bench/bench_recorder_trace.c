/*
 * What the recorder wrote during a wrapper run (bench_recorder.h): calls,
 * frames, file size, and per layer how its setLayerBuffer calls were
 * captured, so that a pixels-on figure says what the recorder managed to do.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/reader.h>

#include "bench_recorder.h"

static const char *const status_names[6] = {
	"captured", "capture off", "dropped (budget)", "late", "unmappable", "synthetic",
};

static void add_buffer_call(struct bench_trace_summary *sum, const Hwct__Call *call)
{
	const Hwct__LayerBufferArgs *b = call->buffer;
	int32_t status = b->has_capture ? b->capture : 0;

	for (int i = 0; i < BENCH_TRACE_LAYERS; i++) {
		if (sum->layers[i].id == 0) {
			sum->layers[i].id = call->layer;
		}
		if (sum->layers[i].id == call->layer) {
			sum->layers[i].buffers++;
			if (status >= 0 && status < 6) {
				sum->layers[i].status[status]++;
			}
			return;
		}
	}
}

static int summarize(const char *path, struct bench_trace_summary *sum)
{
	struct hwct_error err;
	struct hwct_reader *r = hwct_reader_open(path, &err);
	const Hwct__CaptureStats *last = NULL;
	const Hwct__Record *rec;
	uint64_t late = 0, blobs = 0, records = 0;
	int ret;

	if (!r) {
		fprintf(stderr, "bench-recorder: %s\n", err.message);
		return -EINVAL;
	}
	while ((ret = hwct_reader_next(r, &rec)) == 1) {
		if (rec->kind_case == HWCT__RECORD__KIND_CALL) {
			sum->calls++;
			if (rec->call->function == HWC2_FUNCTION_SET_LAYER_BUFFER &&
					rec->call->args_case == HWCT__CALL__ARGS_BUFFER) {
				add_buffer_call(sum, rec->call);
			}
		} else if (rec->kind_case == HWCT__RECORD__KIND_FRAME_END) {
			sum->frames++;
		} else if (rec->kind_case == HWCT__RECORD__KIND_CAPTURE_STATS) {
			last = rec->capture_stats;
			late = last->frames_capture_late;
			blobs = last->blobs_dropped;
			records = last->records_dropped;
		}
	}
	if (ret < 0) {
		fprintf(stderr, "bench-recorder: %s\n", hwct_reader_error(r)->message);
	} else {
		sum->traces++;
		sum->bytes += hwct_reader_info(r)->file_size;
		sum->frames_late += late;
		sum->blobs_dropped += blobs;
		sum->records_dropped += records;
	}
	hwct_reader_destroy(r);
	return ret < 0 ? ret : 0;
}

int bench_trace_summarize(const char *dir, struct bench_trace_summary *sum)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];
	int ret = 0;

	if (!d) {
		fprintf(stderr, "bench-recorder: %s: %s\n", dir, strerror(errno));
		return -errno;
	}
	while (ret == 0 && (e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (strncmp(e->d_name, "hwctrace-", 9) != 0 || len < 4 || strcmp(e->d_name + len - 4, ".zst") != 0) {
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		ret = summarize(path, sum);
	}
	closedir(d);
	return ret;
}

void bench_trace_print(FILE *f, const struct bench_trace_summary *sum, const char *const *layer_names)
{
	fprintf(f, "  trace%s: %u file(s), %.1f MB, %llu calls, %llu frames; last CaptureStats: %llu frames "
		"capture late, %llu blobs dropped, %llu records dropped\n", sum->traces == 1 ? "" : "s",
		sum->traces, (double)sum->bytes / 1e6, (unsigned long long)sum->calls,
		(unsigned long long)sum->frames, (unsigned long long)sum->frames_late,
		(unsigned long long)sum->blobs_dropped, (unsigned long long)sum->records_dropped);
	for (int i = 0; i < BENCH_TRACE_LAYERS && sum->layers[i].id; i++) {
		fprintf(f, "  %s: %llu setLayerBuffer:", layer_names && layer_names[i] ? layer_names[i] : "layer",
			(unsigned long long)sum->layers[i].buffers);
		for (int k = 0; k < 6; k++) {
			if (sum->layers[i].status[k]) {
				fprintf(f, " %llu %s", (unsigned long long)sum->layers[i].status[k], status_names[k]);
			}
		}
		fprintf(f, "\n");
	}
}
