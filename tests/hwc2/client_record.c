/*
 * hwc2_client record: the frames the recorder's VM test records
 * (tests/recorder-vm). --frames N (default 40) of --stack (default "mixed":
 * planes and a client target every frame) in gbm BOs, with a fresh vgem
 * fence as the acquire fence of every buffer, signalled as SurfaceFlinger's
 * producers and RenderEngine would see it: a layer that validated CLIENT
 * right after validate (RenderEngine waits for it before composing), a
 * DEVICE layer only after presentDisplay returned (so the flip, and with it
 * the present fence, waits for it). The client then waits for the present
 * fence and writes to --log, one line each, what the checker compares the
 * trace with:
 *
 *   layer Z ID
 *   buffer INODE FOURCC WIDTH HEIGHT STRIDE OFFSET MODIFIER DMABUF(0|1)
 *   validate N RET CHANGED            and per changed type: changed N LAYER TYPE
 *   requested N Z TYPE                the type layer Z had when validated
 *   content N Z INODE HASH            layer Z's buffer in frame N: XXH3-128 of its rows,
 *                                     width * 4 bytes each
 *   target N INODE HASH               the client target of frame N, same hash
 *   acquire N Z BEFORE AFTER TS       the signal ioctl ran between BEFORE and AFTER
 *   present N TS
 *   release N Z TS                    returned after frame N's present for layer Z
 *   frames COUNT
 *
 * Times are CLOCK_MONOTONIC ns; TS is what SYNC_IOC_FILE_INFO says (the
 * latest timestamp of the sync_file's fences), as the recorder reads it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <linux/sync_file.h>

#include "fence_wait.h"
#include "hwc2_client.h"
#include "vgem_fence.h"

#define MAX_SYNC_FENCES 8

/* One frame's acquire fences. */
struct hc_record_frame {
	uint32_t frame;
	struct vgem_fence v[VS_MAX_LAYERS];
	bool made[VS_MAX_LAYERS];	/* v[i] holds a fence (buffer layers only) */
	bool signalled[VS_MAX_LAYERS];
	int64_t before[VS_MAX_LAYERS], after[VS_MAX_LAYERS];	/* around the signal ioctl, ns */
	bool ok;
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The signal time of a signalled sync_file, as the recorder takes it; -1 when not signalled. */
static int64_t fence_time(int fd)
{
	struct sync_fence_info fences[MAX_SYNC_FENCES];
	struct sync_file_info info;
	int64_t t = -1;
	uint32_t n;

	memset(&info, 0, sizeof(info));
	if (fd < 0 || ioctl(fd, SYNC_IOC_FILE_INFO, &info) < 0 || info.status != 1 || !info.num_fences) {
		return -1;
	}
	n = info.num_fences < MAX_SYNC_FENCES ? info.num_fences : MAX_SYNC_FENCES;
	memset(&info, 0, sizeof(info));
	memset(fences, 0, sizeof(fences));
	info.num_fences = n;
	info.sync_fence_info = (uint64_t)(uintptr_t)fences;
	if (ioctl(fd, SYNC_IOC_FILE_INFO, &info) < 0) {
		return -1;
	}
	for (uint32_t i = 0; i < n; i++) {
		t = (int64_t)fences[i].timestamp_ns > t ? (int64_t)fences[i].timestamp_ns : t;
	}
	return t;
}

static unsigned long long inode(int fd)
{
	struct stat st;

	return fd >= 0 && fstat(fd, &st) == 0 ? (unsigned long long)st.st_ino : 0;
}

/* XXH3-128 of the image's plane 0 rows, width * 4 bytes each (the pixels, not the padding). */
static bool rows_hash(const struct scene_image *img, char hex[HWCT_HASH_HEX])
{
	size_t row = (size_t)img->width * 4;
	uint8_t *packed = malloc(row * img->height);
	struct hwct_hash h;

	if (!CHECK(packed != NULL, "out of memory")) {
		return false;
	}
	for (uint32_t y = 0; y < img->height; y++) {
		memcpy(packed + y * row, img->data + img->offset[0] + (size_t)y * img->stride[0], row);
	}
	h = hwct_hash_compute(packed, row * img->height);
	free(packed);
	hwct_hash_to_hex(&h, hex);
	return true;
}

/* A buffer as the log names it; false when it is no gbm BO (the test wants dma-bufs). */
static bool log_buffer(FILE *log, const struct hc_buffer *b, const char *what)
{
	char path[64], target[64];
	ssize_t n;
	bool dmabuf;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", b->fd);
	n = readlink(path, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	dmabuf = strncmp(target, "/dmabuf:", 8) == 0;
	fprintf(log, "buffer %llu %u %u %u %u %u %llu %d\n", inode(b->fd), b->tb.fourcc, b->tb.width,
		b->tb.height, b->tb.stride[0], b->tb.offset[0], (unsigned long long)b->tb.modifier, dmabuf);
	return CHECK(b->bo && dmabuf, "%s: not a gbm BO exported as a dma-buf (%s)", what, target);
}

static bool log_session(FILE *log, const struct hc_session *s)
{
	bool ok = true;

	for (size_t i = 0; i < s->count; i++) {
		fprintf(log, "layer %zu %llu\n", i, (unsigned long long)s->layers[i].id);
		for (size_t b = 0; b < 2; b++) {
			if (s->layers[i].bufs[b].fd >= 0) {
				ok = log_buffer(log, &s->layers[i].bufs[b], "a layer buffer") && ok;
			}
		}
	}
	for (size_t i = 0; i < HC_TARGETS; i++) {
		ok = log_buffer(log, &s->targets[i], "a client target") && ok;
	}
	return ok;
}

static void signal_one(struct hc_record_frame *r, size_t i)
{
	if (!r->made[i] || r->signalled[i]) {
		return;
	}
	r->before[i] = now_ns();
	r->ok = CHECK(vgem_fence_signal(&r->v[i]) == 0, "frame %u: VGEM_FENCE_SIGNAL", r->frame) && r->ok;
	r->after[i] = now_ns();
	r->signalled[i] = true;
}

/* The hook: what the client composes must have arrived before it reads it. */
static void after_validate(struct hc_session *s, const struct hc_frame *f, void *data)
{
	(void)f;
	for (size_t i = 0; i < s->count; i++) {
		if (s->layers[i].validated == HWC2_COMPOSITION_CLIENT) {
			signal_one(data, i);
		}
	}
}

/* Logs frame n after its present fence signalled. */
static bool log_frame(FILE *log, struct hc_session *s, const struct hc_frame *f,
	const struct hc_record_frame *r)
{
	uint32_t n = r->frame, releases = 0;
	char hex[HWCT_HASH_HEX];
	bool ok = true;

	fprintf(log, "validate %u %d %u\n", n, f->validate_ret, f->changed);
	for (uint32_t i = 0; i < f->changed; i++) {
		fprintf(log, "changed %u %llu %d\n", n, (unsigned long long)f->changed_layers[i],
			f->changed_types[i]);
	}
	fprintf(log, "present %u %lld\n", n, (long long)fence_time(f->present_fence));
	for (size_t i = 0; i < s->count; i++) {
		struct hc_layer *l = &s->layers[i];
		struct hc_buffer *shown = &l->bufs[n % 2], *prev = &l->bufs[(n + 1) % 2];

		fprintf(log, "requested %u %zu %d\n", n, i, f->requested[i]);
		if (r->made[i]) {
			fprintf(log, "acquire %u %zu %lld %lld %lld\n", n, i, (long long)r->before[i],
				(long long)r->after[i], (long long)fence_time(r->v[i].sync_file));
		}
		if (shown->fd >= 0 && rows_hash(&shown->cpu, hex)) {
			fprintf(log, "content %u %zu %llu %s\n", n, i, inode(shown->fd), hex);
		}
		/* set by this frame's getReleaseFences (cleared when the buffer was last written) */
		if (prev->release_fence >= 0) {
			ok = CHECK(hwct_fence_wait(prev->release_fence, HC_FENCE_MS) == 0,
				"frame %u: layer %zu: the release fence did not signal", n, i) && ok;
			fprintf(log, "release %u %zu %lld\n", n, i, (long long)fence_time(prev->release_fence));
			releases++;
		}
	}
	if (f->client_target && s->target_last >= 0 && rows_hash(&s->targets[s->target_last].cpu, hex)) {
		fprintf(log, "target %u %llu %s\n", n, inode(s->targets[s->target_last].fd), hex);
	}
	return CHECK(releases == f->releases && f->release_unexpected == 0,
		"frame %u: %u release fences, %u logged, %u unexpected", n, f->releases, releases,
		f->release_unexpected) && ok;
}

static bool record_frame(FILE *log, struct hc_session *s, const char *vgem, unsigned *client_first)
{
	struct hc_record_frame r = { .frame = s->frame, .ok = true };
	int acquire[VS_MAX_LAYERS];
	struct hc_frame f = { .present_fence = -1, .release_fence = -1 };
	char why[256];
	bool ok = true;

	for (size_t i = 0; i < VS_MAX_LAYERS; i++) {
		acquire[i] = -1;
	}
	for (size_t i = 0; ok && i < s->count; i++) {
		if (s->layers[i].spec->composition == HWC2_COMPOSITION_SOLID_COLOR) {
			continue;
		}
		r.made[i] = vgem_fence_make(&r.v[i], vgem, why, sizeof(why)) == 0;
		ok = CHECK(r.made[i], "vgem fence: %s", why);
		acquire[i] = r.v[i].sync_file;
	}
	s->after_validate = after_validate;
	s->hook_data = &r;
	ok = ok && hc_session_frame(s, acquire, &f);
	s->after_validate = NULL;
	for (size_t i = 0; i < VS_MAX_LAYERS; i++) {
		*client_first += r.signalled[i];
		signal_one(&r, i);	/* the DEVICE layers; every fence when the frame failed */
	}
	ok = ok && CHECK(hwct_fence_wait(f.present_fence, HC_FENCE_MS) == 0,
		"frame %u: the present fence did not signal", r.frame) && log_frame(log, s, &f, &r);
	hc_frame_finish(&f);
	for (size_t i = 0; i < VS_MAX_LAYERS; i++) {
		vgem_fence_finish(&r.v[i]);
	}
	return ok && r.ok;
}

bool hc_case_record(struct hc_module *m, const struct hc_options *o)
{
	const struct vs_stack *stack = vs_stack_find(o->stack ? o->stack : "mixed");
	unsigned frames = o->frames ? o->frames : 40, done = 0, client_first = 0;
	struct hc_alloc a;
	struct hc_session s = { 0 };
	char mode[32];
	double t0;
	FILE *log;
	bool ok;

	if (!CHECK(stack != NULL, "unknown stack %s", o->stack) ||
		!CHECK(o->log != NULL, "record needs --log FILE")) {
		return false;
	}
	log = fopen(o->log, "w");
	if (!CHECK(log != NULL, "%s: cannot write", o->log)) {
		return false;
	}
	snprintf(mode, sizeof(mode), "%dx%d@60", VS_WIDTH, VS_HEIGHT);
	setenv("HWCT_KMS_MODE", mode, 1);
	setenv("HWCT_KMS_READBACK", "0", 1);	/* readback would wait for the flip in presentDisplay */
	setenv("HWCT_KMS_PLANNER", "drmhwc", 1);
	setenv("HWCT_KMS_BUDGET_MS", "0", 1);
	hc_alloc_open(&a, o->device);
	ok = CHECK(a.gbm != NULL, "no gbm device on %s", o->device) && hc_module_open(m) &&
		hc_session_start(&s, m, &a, stack) && log_session(log, &s);
	t0 = hc_now_ms();
	for (unsigned i = 0; ok && i < frames; i++) {
		ok = record_frame(log, &s, o->vgem, &client_first);
		done += ok;
	}
	fprintf(log, "frames %u\n", done);
	printf("record: %u frames of %s in %.0f ms, %u acquire fences signalled after validate "
		"(CLIENT layers), the others after presentDisplay\n", done, stack->name,
		hc_now_ms() - t0, client_first);
	hc_session_finish(&s);
	hc_module_close(m);
	hc_alloc_close(&a);
	return CHECK(fclose(log) == 0, "%s: write error", o->log) && ok;
}
