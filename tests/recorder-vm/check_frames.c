/*
 * The frame model of the trace against the client's log, frame by frame:
 * the decisions, every buffer (identity, layout, pixels) and every fence.
 *
 * What is asserted of the fence times, and why it holds on vkms:
 * - every time is the kernel's (SYNC_IOC_FILE_INFO), the value the client
 *   read itself from the same fence: equal, to the nanosecond;
 * - acquire (vgem): signalled inside the client's VGEM_FENCE_SIGNAL ioctl, so
 *   between the times the client took around it, and after the fence crossed
 *   the boundary (the client signals after setLayerBuffer returned);
 * - present: strictly increasing: each commit completes on a later vblank
 *   than the one before. vkms dates a flip by the nominal time of the vblank
 *   whose timer handler sent it, which under TCG may run late, so the date is
 *   at most one vsync period earlier than the handler, which runs after the
 *   flip was armed, which is after the last DEVICE acquire fence signalled,
 *   which is after presentDisplay returned: present + period > presentDisplay
 *   return and > every acquire of the frame. Frame 0 is exempt: its commit
 *   lights the CRTC and vkms's flush runs before the CRTC's vblank is on, so
 *   the event goes out at once with the vblank time saved when the CRTC last
 *   went off (seconds before the call);
 * - release: hwcomposer.kms.so hands out its present fence as every release
 *   fence, so a release fence's time is its frame's present fence's time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>

#include "rec_vm_check.h"

#define DEFAULT_PERIOD_NS 16666667

struct frame_ctx {
	struct hwct_reader *r;
	const struct rvc_trace *t;
	struct rvc_log *log;
	struct rvc_summary *sum;
	const struct hwct_frame *f;
	const struct rvc_frame_log *fl;
	const struct rvc_trace_frame *tf;
	uint64_t n;
	int64_t period_ns;
	int64_t present_ns;		/* this frame's present fence, -1 unknown */
};

/*
 * The pixels of a captured buffer against the client's hash of its rows:
 * the stored content is the packed picture (docs/format.md section 3.3),
 * whatever the buffer's stride, so its content hash is that hash too.
 */
static void check_pixels(struct frame_ctx *c, const struct hwct_buffer_ref *ref,
	const struct rvc_buffer *b, const struct hwct_hash *want, const char *what)
{
	struct hwct_blob_data blob = { 0 };
	size_t row = (size_t)b->width * 4;
	struct hwct_hash got;
	int ret = hwct_reader_blob(c->r, &ref->content, &blob);

	if (!CHECK(ret == 0, "%s: content blob: %s", what, strerror(-ret)) ||
		!CHECK(blob.width == b->width && blob.height == b->height && blob.stride == row &&
			blob.bpp == 4 && blob.size == row * b->height,
			"%s: blob %ux%u stride %u bpp %u, %zu bytes; the buffer is %ux%u (packed rows of %zu "
			"bytes; its stride %u)", what, blob.width, blob.height, blob.stride, blob.bpp, blob.size,
			b->width, b->height, row, b->stride)) {
		free(blob.data);
		return;
	}
	got = hwct_hash_compute(blob.data, blob.size);
	CHECK(hwct_hash_equal(&got, want), "%s: the captured pixels are not what the client wrote", what);
	CHECK(hwct_hash_equal(&ref->content, want), "%s: the content hash is not the hash of the picture", what);
	c->sum->blobs_checked++;
	c->sum->pixel_bytes += blob.size;
	free(blob.data);
}

/* A layer's buffer or the client target: which dma-buf, its layout, its capture. */
static void check_buffer(struct frame_ctx *c, const struct hwct_buffer_ref *ref, uint64_t inode,
	const struct hwct_hash *hash, const char *what, const char *late_why)
{
	struct rvc_buffer *b = rvc_log_buffer(c->log, inode);
	const Hwct__Buffer *i = ref->info;

	if (!CHECK(ref->buffer == inode, "%s: buffer %llu, the client showed dma-buf inode %llu",
		what, (unsigned long long)ref->buffer, (unsigned long long)inode) ||
		!CHECK(b && b->dmabuf, "%s: inode %llu is no dma-buf of the client's", what,
			(unsigned long long)inode)) {
		return;
	}
	b->seen = true;
	if (CHECK(i != NULL, "%s: no Buffer record", what)) {
		CHECK(i->allocator && strcmp(i->allocator, "hwct-test") == 0 && i->width == b->width &&
			i->height == b->height && i->drm_format == b->fourcc && i->has_modifier &&
			i->modifier == b->modifier && i->n_planes >= 1 && i->planes[0]->stride == b->stride &&
			i->planes[0]->offset == b->offset,
			"%s: Buffer %s %ux%u %.4s modifier %llx stride %u offset %u; the client allocated "
			"%ux%u %.4s modifier %llx stride %u offset %u", what,
			i->allocator ? i->allocator : "(none)", i->width, i->height, (const char *)&i->drm_format,
			(unsigned long long)i->modifier, i->n_planes ? i->planes[0]->stride : 0,
			i->n_planes ? i->planes[0]->offset : 0, b->width, b->height, (const char *)&b->fourcc,
			(unsigned long long)b->modifier, b->stride, b->offset);
	}
	if (CHECK(ref->capture == HWCT_CAPTURE_OK && ref->has_content, "%s: capture status %d%s",
		what, ref->capture, ref->capture == HWCT_CAPTURE_LATE ? late_why : "")) {
		c->sum->captures_ok++;
		check_pixels(c, ref, b, hash, what);
	}
}

/* The Fence record of id: kind, signalled, the kernel's time (not poll's) from driver. */
static const struct rvc_fence *check_fence(struct frame_ctx *c, uint64_t id, int32_t kind,
	const char *driver, int64_t logged_ns, const char *what)
{
	const struct rvc_fence *x = rvc_trace_fence(c->t, id);

	if (!CHECK(id != 0 && x, "%s: fence %llu has no Fence record", what, (unsigned long long)id) ||
		!CHECK(x->kind == kind && x->status == HWCT_FENCE_SIGNALLED && x->has_signal,
			"%s: fence %llu: kind %d status %d, %s", what, (unsigned long long)id, x->kind,
			x->status, x->has_signal ? "signalled" : "no signal time") ||
		!CHECK(strcmp(x->driver, driver) == 0, "%s: fence %llu from \"%s\", not %s", what,
			(unsigned long long)id, x->driver, driver)) {
		return NULL;
	}
	CHECK((int64_t)x->signal_ns == logged_ns, "%s: fence %llu signalled at %llu, the kernel told "
		"the client %lld", what, (unsigned long long)id, (unsigned long long)x->signal_ns,
		(long long)logged_ns);
	return x;
}

static void check_present(struct frame_ctx *c, int64_t *prev_ns)
{
	const struct rvc_fence *p = check_fence(c, c->f->present.id, HWCT_FENCE_PRESENT, "vkms",
		c->fl->present_ns, "present fence");
	int64_t ret_ns = (int64_t)c->tf->present_exit_ns;

	CHECK(c->tf->has_present && c->tf->present_fence == c->f->present.id,
		"frame %llu: the presentDisplay call returned fence %llu, the frame has %llu",
		(unsigned long long)c->n, (unsigned long long)c->tf->present_fence,
		(unsigned long long)c->f->present.id);
	if (!p) {
		return;
	}
	c->present_ns = (int64_t)p->signal_ns;
	CHECK(p->created_ns == c->tf->present_exit_ns, "frame %llu: the present fence crossed at %llu, "
		"presentDisplay returned at %lld", (unsigned long long)c->n,
		(unsigned long long)p->created_ns, (long long)ret_ns);
	if (c->n == 0) {
		c->sum->first_present_lead_ns = (int64_t)c->tf->present_enter_ns - c->present_ns;
	} else {
		int64_t gap = c->present_ns - *prev_ns;

		CHECK(gap > 0, "frame %llu: present fence at %lld, not after frame %llu's (%lld)",
			(unsigned long long)c->n, (long long)c->present_ns, (unsigned long long)c->n - 1,
			(long long)*prev_ns);
		CHECK(c->present_ns + c->period_ns > ret_ns, "frame %llu: present fence %lld ns "
			"before presentDisplay returned: more than a vsync period", (unsigned long long)c->n,
			(long long)(ret_ns - c->present_ns));
		c->sum->present_before_return += c->present_ns < ret_ns;
	}
	if (c->n > 1) {	/* the intervals from frame 1 on: frame 0's date is older than its frame */
		int64_t gap = c->present_ns - *prev_ns;

		c->sum->present_gaps++;
		c->sum->present_gap_min_ns = gap < c->sum->present_gap_min_ns ? gap : c->sum->present_gap_min_ns;
		c->sum->present_gap_max_ns = gap > c->sum->present_gap_max_ns ? gap : c->sum->present_gap_max_ns;
		c->sum->present_gap_sum_ns += gap;
	}
	*prev_ns = c->present_ns;
	c->sum->presents++;
}

static void check_layer_fences(struct frame_ctx *c, size_t z, int64_t *latest_device_ns)
{
	const struct hwct_layer *l = &c->f->layers[z];
	const struct rvc_layer_log *ll = &c->fl->layers[z];
	const struct rvc_fence *x;
	char what[96];

	snprintf(what, sizeof(what), "frame %llu layer %zu acquire", (unsigned long long)c->n, z);
	if (!ll->has_acquire) {
		CHECK(l->buffer.acquire.id == 0, "%s: a fence the client did not pass", what);
	} else if ((x = check_fence(c, l->buffer.acquire.id, HWCT_FENCE_ACQUIRE, "vgem", ll->acquire_ns,
		what))) {
		int64_t s = (int64_t)x->signal_ns;

		c->sum->acquires++;
		CHECK(s >= ll->before && s <= ll->after, "%s: signalled at %lld, outside the client's "
			"signal ioctl (%lld..%lld)", what, (long long)s, (long long)ll->before,
			(long long)ll->after);
		CHECK(s >= (int64_t)x->created_ns, "%s: signalled %lld ns before it crossed the boundary",
			what, (long long)((int64_t)x->created_ns - s));
		if (c->n > 0 && c->present_ns >= 0) {
			CHECK(s < c->present_ns + c->period_ns, "%s: signalled %lld ns after the frame's "
				"present fence: more than a vsync period", what, (long long)(s - c->present_ns));
			c->sum->acquire_after_present += s > c->present_ns;
		}
		if (l->final == HWC2_COMPOSITION_DEVICE && s > *latest_device_ns) {
			*latest_device_ns = s;
		}
	}
	snprintf(what, sizeof(what), "frame %llu layer %zu release", (unsigned long long)c->n, z);
	if (!ll->has_release) {
		CHECK(l->release.id == 0, "%s: a release fence the client did not get", what);
	} else if ((x = check_fence(c, l->release.id, HWCT_FENCE_RELEASE, "vkms", ll->release_ns, what))) {
		c->sum->releases++;
		CHECK((int64_t)x->signal_ns == c->present_ns, "%s: signalled at %llu, the present "
			"fence it is a copy of at %lld", what, (unsigned long long)x->signal_ns,
			(long long)c->present_ns);
	}
}

/* validate's changed types as recorded (the calls) and as the frame model applies them. */
static void check_decisions(struct frame_ctx *c)
{
	const struct rvc_trace_frame *tf = c->tf;
	const struct rvc_frame_log *fl = c->fl;
	uint32_t changed = tf->has_changed ? tf->changed : 0;
	unsigned long long n = c->n;

	CHECK(tf->has_validate && fl->has_validate && tf->validate_error == fl->validate_ret &&
		c->f->validate_error == fl->validate_ret && tf->num_types == fl->changed,
		"frame %llu: validateDisplay recorded %d with %u types, the client got %d with %u", n,
		tf->validate_error, tf->num_types, fl->validate_ret, fl->changed);
	if (CHECK(changed == fl->changed_logged, "frame %llu: %u changed types recorded, the client "
		"got %u", n, changed, fl->changed_logged)) {
		for (uint32_t i = 0; i < changed; i++) {
			CHECK(tf->changed_layers[i] == fl->changed_layers[i] &&
				tf->changed_types[i] == fl->changed_types[i], "frame %llu: changed type %u: "
				"layer %llu -> %d recorded, layer %llu -> %d returned", n, i,
				(unsigned long long)tf->changed_layers[i], tf->changed_types[i],
				(unsigned long long)fl->changed_layers[i], fl->changed_types[i]);
		}
		c->sum->changed += changed;
	}
	for (size_t z = 0; z < c->f->layer_count && z < c->log->layer_count; z++) {
		const struct hwct_layer *l = &c->f->layers[z];
		int32_t want = fl->layers[z].requested;

		for (uint32_t i = 0; i < fl->changed_logged; i++) {
			want = fl->changed_layers[i] == l->id ? fl->changed_types[i] : want;
		}
		CHECK(l->id == c->log->layer_ids[z] && fl->layers[z].has_requested &&
			l->requested == fl->layers[z].requested && l->final == want,
			"frame %llu: layer z %zu: id %llu, requested %d, final %d; the client's layer %llu "
			"had %d, validated %d", n, z, (unsigned long long)l->id, l->requested, l->final,
			(unsigned long long)c->log->layer_ids[z], fl->layers[z].requested, want);
	}
}

/*
 * Why layer z's capture of this frame may be late, from the times both sides
 * logged: the recorder arms it when validateDisplay returns and gives its
 * acquire fence 2 s (or HWCT_CAPTURE_WAIT_MS, if longer); a release fence
 * that signalled before the copy ended makes it late too.
 */
static void late_why(const struct frame_ctx *c, size_t z, char *out, size_t size)
{
	const struct rvc_layer_log *l = &c->fl->layers[z];
	const struct rvc_layer_log *next = c->n + 1 < c->log->frames ? &c->log->frame[c->n + 1].layers[z] : NULL;
	int64_t armed = c->tf->has_validate ? (int64_t)c->tf->validate_exit_ns : -1;
	int len = snprintf(out, size, " (late):");

	if (l->has_acquire && l->acquire_ns >= 0 && armed >= 0) {
		len += snprintf(out + len, size - (size_t)len, " acquire fence signalled %.1f ms after "
			"validateDisplay returned (the recorder gives it 2 s or HWCT_CAPTURE_WAIT_MS);",
			(double)(l->acquire_ns - armed) / 1e6);
	} else {
		len += snprintf(out + len, size - (size_t)len, " no acquire fence time logged;");
	}
	if (next && next->has_release && next->release_ns >= 0 && l->has_acquire && l->acquire_ns >= 0) {
		snprintf(out + len, size - (size_t)len, " release fence signalled %.1f ms after the acquire "
			"fence (returned after frame %llu's present)",
			(double)(next->release_ns - l->acquire_ns) / 1e6, (unsigned long long)c->n + 1);
	} else {
		snprintf(out + len, size - (size_t)len, " no release fence logged for it");
	}
}

static void check_frame(struct frame_ctx *c, int64_t *prev_present_ns)
{
	const struct hwct_frame *f = c->f;
	int64_t latest_device_ns = INT64_MIN;
	char what[96], why[320];

	CHECK(f->frame == c->n && f->display == 0 && f->validated && f->present_error == 0 &&
		f->flags == 0, "frame %llu: FrameEnd %llu display %llu, validated %d, present error %d, "
		"flags 0x%x", (unsigned long long)c->n, (unsigned long long)f->frame,
		(unsigned long long)f->display, f->validated, f->present_error, f->flags);
	if (!CHECK(f->layer_count == c->log->layer_count, "frame %llu: %zu layers, the client has %zu",
		(unsigned long long)c->n, f->layer_count, c->log->layer_count)) {
		return;
	}
	c->sum->layers += f->layer_count;
	check_decisions(c);
	for (size_t z = 0; z < f->layer_count; z++) {
		snprintf(what, sizeof(what), "frame %llu layer %zu", (unsigned long long)c->n, z);
		if (c->fl->layers[z].has_content) {
			late_why(c, z, why, sizeof(why));
			if (c->tf->has_validate && c->fl->layers[z].has_acquire && c->fl->layers[z].acquire_ns >= 0 &&
					c->fl->layers[z].acquire_ns - (int64_t)c->tf->validate_exit_ns >
					c->sum->armed_to_acquire_max_ns) {
				c->sum->armed_to_acquire_max_ns = c->fl->layers[z].acquire_ns -
					(int64_t)c->tf->validate_exit_ns;
				c->sum->armed_to_acquire_frame = c->n;
			}
			check_buffer(c, &f->layers[z].buffer, c->fl->layers[z].inode, &c->fl->layers[z].hash, what,
				why);
		} else {
			CHECK(f->layers[z].buffer.buffer == 0, "%s: a buffer on a layer without", what);
		}
	}
	snprintf(what, sizeof(what), "frame %llu client target", (unsigned long long)c->n);
	if (CHECK(f->has_client_target == c->fl->has_target, "%s: recorded %d, set %d", what,
		f->has_client_target, c->fl->has_target) && f->has_client_target) {
		check_buffer(c, &f->client_target, c->fl->target_inode, &c->fl->target_hash, what,
			" (late: a client target is released by the next frame's present fence)");
	}
	check_present(c, prev_present_ns);
	for (size_t z = 0; z < f->layer_count; z++) {
		check_layer_fences(c, z, &latest_device_ns);
	}
	if (c->n > 0 && c->present_ns >= 0 && latest_device_ns != INT64_MIN) {
		int64_t d = c->present_ns - latest_device_ns;

		c->sum->acquire_to_flip_max_ns = d > c->sum->acquire_to_flip_max_ns ? d :
			c->sum->acquire_to_flip_max_ns;
	}
}

int rvc_check_frames(struct hwct_reader *r, const struct rvc_trace *t, struct rvc_log *log,
	struct rvc_summary *sum)
{
	struct hwct_frame_iter *it;
	const struct hwct_frame *f;
	int64_t prev_present_ns = -1;
	int ret = hwct_reader_rewind(r);

	memset(sum, 0, sizeof(*sum));
	sum->present_gap_min_ns = INT64_MAX;
	it = ret == 0 ? hwct_frame_iter_create(r) : NULL;
	if (!it) {
		fprintf(stderr, "frame iterator: %s\n", strerror(ret ? -ret : errno));
		return ret ? ret : -errno;
	}
	while ((ret = hwct_frame_iter_next(it, &f)) == 1) {
		struct frame_ctx c = { .r = r, .t = t, .log = log, .sum = sum, .f = f, .n = sum->frames,
			.present_ns = -1 };

		sum->frames++;
		if (!CHECK(c.n < log->frames && c.n < RVC_MAX_FRAMES, "frame %llu: the client "
			"presented %u frames", (unsigned long long)c.n, log->frames)) {
			continue;
		}
		c.fl = &log->frame[c.n];
		c.tf = &t->frame[c.n];
		c.period_ns = f->vsync_period_ns > 0 ? f->vsync_period_ns : DEFAULT_PERIOD_NS;
		check_frame(&c, &prev_present_ns);
	}
	hwct_frame_iter_destroy(it);
	if (ret < 0) {
		fprintf(stderr, "%s\n", hwct_reader_error(r) ? hwct_reader_error(r)->message : strerror(-ret));
		return ret;
	}
	return 0;
}
