/* The client's log (tests/hwc2/client_record.c): one fact per line. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rec_vm_check.h"

static int bad(const char *path, unsigned line, const char *text)
{
	fprintf(stderr, "%s:%u: cannot read \"%s\"\n", path, line, text);
	return -EINVAL;
}

struct rvc_buffer *rvc_log_buffer(struct rvc_log *log, uint64_t inode)
{
	for (size_t i = 0; i < log->buffer_count; i++) {
		if (log->buffers[i].inode == inode) {
			return &log->buffers[i];
		}
	}
	return NULL;
}

/* The frame and layer of "KIND N Z ...", NULL when out of range. */
static struct rvc_layer_log *layer_of(struct rvc_log *log, unsigned n, unsigned z)
{
	return n < RVC_MAX_FRAMES && z < RVC_MAX_LAYERS ? &log->frame[n].layers[z] : NULL;
}

static bool parse_line(struct rvc_log *log, const char *s)
{
	unsigned n, z, k;
	unsigned long long a, b, c;
	long long t0, t1, t2;
	int v;
	char hex[HWCT_HASH_HEX + 1];
	struct rvc_layer_log *l;
	struct rvc_frame_log *f;

	if (sscanf(s, "layer %u %llu", &z, &a) == 2) {
		if (z != log->layer_count || z >= RVC_MAX_LAYERS) {
			return false;
		}
		log->layer_ids[log->layer_count++] = a;
		return true;
	}
	if (strncmp(s, "buffer ", 7) == 0) {
		struct rvc_buffer *buf = &log->buffers[log->buffer_count];

		if (log->buffer_count == RVC_MAX_BUFFERS || sscanf(s, "buffer %llu %u %u %u %u %u %llu %d",
			&a, &buf->fourcc, &buf->width, &buf->height, &buf->stride, &buf->offset, &b, &v) != 8) {
			return false;
		}
		buf->inode = a;
		buf->modifier = b;
		buf->dmabuf = v != 0;
		log->buffer_count++;
		return true;
	}
	if (sscanf(s, "validate %u %d %u", &n, &v, &k) == 3 && n < RVC_MAX_FRAMES) {
		f = &log->frame[n];
		f->has_validate = true;
		f->validate_ret = v;
		f->changed = k;
		return k <= RVC_MAX_LAYERS;
	}
	if (sscanf(s, "changed %u %llu %d", &n, &a, &v) == 3 && n < RVC_MAX_FRAMES) {
		f = &log->frame[n];
		if (f->changed_logged == RVC_MAX_LAYERS) {
			return false;
		}
		f->changed_layers[f->changed_logged] = a;
		f->changed_types[f->changed_logged++] = v;
		return true;
	}
	if (sscanf(s, "requested %u %u %d", &n, &z, &v) == 3 && (l = layer_of(log, n, z))) {
		l->has_requested = true;
		l->requested = v;
		return true;
	}
	if (sscanf(s, "content %u %u %llu %33s", &n, &z, &a, hex) == 4 && (l = layer_of(log, n, z))) {
		l->has_content = true;
		l->inode = a;
		return hwct_hash_from_hex(&l->hash, hex);
	}
	if (sscanf(s, "target %u %llu %33s", &n, &a, hex) == 3 && n < RVC_MAX_FRAMES) {
		f = &log->frame[n];
		f->has_target = true;
		f->target_inode = a;
		return hwct_hash_from_hex(&f->target_hash, hex);
	}
	if (sscanf(s, "acquire %u %u %lld %lld %lld", &n, &z, &t0, &t1, &t2) == 5 &&
		(l = layer_of(log, n, z))) {
		l->has_acquire = true;
		l->before = t0;
		l->after = t1;
		l->acquire_ns = t2;
		return true;
	}
	if (sscanf(s, "present %u %lld", &n, &t0) == 2 && n < RVC_MAX_FRAMES) {
		log->frame[n].has_present = true;
		log->frame[n].present_ns = t0;
		return true;
	}
	if (sscanf(s, "release %u %u %lld", &n, &z, &t0) == 3 && (l = layer_of(log, n, z))) {
		l->has_release = true;
		l->release_ns = t0;
		return true;
	}
	if (sscanf(s, "frames %llu", &c) == 1 && c <= RVC_MAX_FRAMES) {
		log->has_frames = true;
		log->frames = (uint32_t)c;
		return true;
	}
	return false;
}

int rvc_log_read(struct rvc_log *log, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	unsigned number = 0;
	int ret = 0;

	memset(log, 0, sizeof(*log));
	log->frame = calloc(RVC_MAX_FRAMES, sizeof(*log->frame));
	if (!log->frame || !f) {
		fprintf(stderr, "%s: %s\n", path, f ? "out of memory" : strerror(errno));
		if (f) {
			fclose(f);
		}
		return -ENOENT;
	}
	while (ret == 0 && fgets(line, sizeof(line), f)) {
		number++;
		line[strcspn(line, "\n")] = '\0';
		if (!parse_line(log, line)) {
			ret = bad(path, number, line);
		}
	}
	fclose(f);
	if (ret == 0 && !log->has_frames) {
		fprintf(stderr, "%s: no \"frames\" line: the client did not finish\n", path);
		ret = -EINVAL;
	}
	return ret;
}

void rvc_log_finish(struct rvc_log *log)
{
	free(log->frame);
	memset(log, 0, sizeof(*log));
}
