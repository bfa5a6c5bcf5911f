/*
 * The checks of the HWC2 VM tests (hwc2_client CASE...). Each case opens
 * the device with the environment it needs (hwcomposer.kms.so reads it at
 * open: HWCT_KMS_MODE, HWCT_KMS_READBACK, HWCT_KMS_PLANNER, ...), runs
 * frames as SurfaceFlinger would and closes it again.
 *
 *   api      the entry points besides the frame cycle: configs, attributes, bad
 *            parameters, NOT_VALIDATED, power, vsync, refresh, color transform, dump
 *   stack    rgba5: all DEVICE with overlays, all CLIENT ("no-plane") without; the
 *            writeback checksum equals the pixman reference's either way
 *   refuse   scaled, rotated and NV12 layers become CLIENT with scaling, rotation and
 *            format in the dump; the output against the reference (drmhwc and search)
 *   frames   N frames (default 100) of "mixed" (planes + client target every frame):
 *            every frame against the reference, vsync callbacks, no fd leak
 *   fences   a vgem fence held on a layer holds the flip (present fence) back; release
 *            fences are the next frame's present fence
 *   run      --stack S --frames N [--check-fds]: the cycle only, for any module
 *
 * Readback tolerances (writeback vs the pixman reference of the whole stack): opaque
 * stacks exact; translucent pixels blended by vkms (16 bits) vs pixman (8 bits): 1 level.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "fds_open.h"
#include "fence_wait.h"
#include "hwc2_client.h"
#include "vgem_fence.h"

#define TOL_BLEND 1
#define HELD_MS 200

static void set_env(const char *readback, const char *planner)
{
	char mode[32];

	snprintf(mode, sizeof(mode), "%dx%d@60", VS_WIDTH, VS_HEIGHT);
	setenv("HWCT_KMS_MODE", mode, 1);
	setenv("HWCT_KMS_READBACK", readback, 1);
	setenv("HWCT_KMS_PLANNER", planner, 1);
	setenv("HWCT_KMS_BUDGET_MS", "0", 1);	/* no budget: TEST_ONLY commits are slow under TCG */
}

/* The readback of the last frame against the reference of f; tol < 0: same checksum. */
static bool check_readback(struct hc_module *m, const struct hc_frame *f, int tol, const char *what)
{
	struct hwct_hwc2_kms_frame rb;
	struct comp_target ref, got;
	struct hwct_hash want, have;
	struct vs_diff d;
	int ret;

	if (!m->last_frame) {
		return true;	/* another module: nothing to read back */
	}
	ret = m->last_frame(m->dev, 1, &rb);
	if (!CHECK(ret == 0 && rb.pixels, "%s: no readback (%d)", what, ret) ||
		!CHECK(vs_reference(&f->scene, &ref) == 0, "%s: reference", what)) {
		free(rb.pixels);
		return false;
	}
	got = (struct comp_target){ .fourcc = rb.fourcc, .width = rb.width, .height = rb.height,
		.stride = rb.stride, .data = rb.pixels };
	d = vs_compare(&got, &ref);
	want = scene_frame_checksum(ref.fourcc, ref.width, ref.height, ref.stride, ref.data);
	hwct_hash_from_bytes(&have, rb.checksum, sizeof(rb.checksum));
	free(rb.pixels);
	free(ref.data);
	if (tol < 0) {
		char a[HWCT_HASH_HEX], b[HWCT_HASH_HEX];

		printf("%s: writeback checksum %s, reference %s\n", what, hwct_hash_to_hex(&have, a),
			hwct_hash_to_hex(&want, b));
		return CHECK(hwct_hash_equal(&have, &want), "%s: checksum differs (max %u at %u,%u)",
			what, d.max, d.x, d.y);
	}
	return CHECK(d.max <= (unsigned)tol, "%s: max difference %u at (%u,%u) > %d", what, d.max,
		d.x, d.y, tol);
}

/* Opens the device and a session of stack; false after reporting (then close what opened). */
static bool begin(struct hc_module *m, struct hc_alloc *a, struct hc_session *s, const char *stack,
	const struct hc_options *o)
{
	hc_alloc_open(a, o->device);
	return hc_module_open(m) && hc_session_start(s, m, a, vs_stack_find(stack));
}

static void end(struct hc_module *m, struct hc_alloc *a, struct hc_session *s)
{
	hc_session_finish(s);
	hc_module_close(m);
	hc_alloc_close(a);
}

/* Prints the dump's plan lines; returns the dump (free it). */
static char *show_dump(struct hc_module *m, const char *what)
{
	char *text = hc_module_dump(m);
	char *line, *save = NULL, *copy = text ? strdup(text) : NULL;

	for (line = copy ? strtok_r(copy, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "plan:", 5) == 0 || strncmp(line, "layer ", 6) == 0 ||
			strncmp(line, "client target:", 14) == 0) {
			printf("%s: %s\n", what, line);
		}
	}
	free(copy);
	return text;
}

/* Whether the dump line of layer id says client with reason. */
static bool dump_says(const char *dump, hwc2_layer_t id, const char *reason)
{
	char key[64], line[512];
	const char *p, *e;
	size_t n;

	snprintf(key, sizeof(key), "\nlayer %llu:", (unsigned long long)id);
	p = dump ? strstr(dump, key) : NULL;
	if (!p) {
		return false;
	}
	p++;
	e = strchr(p, '\n');
	n = e ? (size_t)(e - p) : strlen(p);
	n = n < sizeof(line) - 1 ? n : sizeof(line) - 1;
	memcpy(line, p, n);
	line[n] = '\0';
	return strstr(line, "client (") && strstr(line, reason);
}

bool hc_case_stack(struct hc_module *m, const struct hc_options *o)
{
	struct hc_alloc a;
	struct hc_session s = { 0 };
	struct hc_frame f;
	bool ok;
	char *dump;

	set_env("1", "drmhwc");
	ok = begin(m, &a, &s, "rgba5", o);
	for (int i = 0; ok && i < 3; i++) {
		char what[64];

		snprintf(what, sizeof(what), "stack frame %d", i);
		ok = hc_session_frame(&s, NULL, &f);
		if (ok && o->expect_overlays > 0) {
			ok = CHECK(f.validate_ret == HWC2_ERROR_NONE && f.client == 0,
				"%s: %u changes, %u client layers: expected all DEVICE", what, f.changed, f.client);
		} else if (ok) {
			ok = CHECK(f.client == s.count && f.client_target, "%s: %u of %zu layers CLIENT",
				what, f.client, s.count);
		}
		ok = ok && check_readback(m, &f, -1, what);
		hc_frame_finish(&f);
	}
	dump = ok ? show_dump(m, "stack") : NULL;
	for (size_t i = 0; ok && o->expect_overlays == 0 && i < s.count; i++) {
		ok = CHECK(dump_says(dump, s.layers[i].id, "no-plane"), "stack: layer %zu is not "
			"client for no-plane", i);
	}
	free(dump);
	end(m, &a, &s);
	return ok;
}

bool hc_case_refuse(struct hc_module *m, const struct hc_options *o)
{
	static const char *const planners[] = { "drmhwc", "search" };
	static const char *const reasons[] = { NULL, "scaling", "rotation", "format", NULL };
	bool ok = true;

	for (size_t p = 0; ok && p < 2; p++) {
		struct hc_alloc a;
		struct hc_session s = { 0 };
		struct hc_frame f;
		char what[64];
		char *dump;

		set_env("1", planners[p]);
		snprintf(what, sizeof(what), "refuse %s", planners[p]);
		ok = begin(m, &a, &s, "refuse", o) && hc_session_frame(&s, NULL, &f);
		if (ok) {
			printf("%s: %u changed types, %u client layers\n", what, f.changed, f.client);
			for (size_t i = 1; i <= 3; i++) {
				ok = CHECK(s.layers[i].validated == HWC2_COMPOSITION_CLIENT,
					"%s: layer %zu is %d, not CLIENT", what, i, s.layers[i].validated) && ok;
			}
			ok = check_readback(m, &f, TOL_BLEND, what) && ok;
			hc_frame_finish(&f);
			dump = show_dump(m, what);
			for (size_t i = 1; m->last_frame && i <= 3; i++) {
				ok = CHECK(dump_says(dump, s.layers[i].id, reasons[i]),
					"%s: layer %zu: no \"%s\" in the dump", what, i, reasons[i]) && ok;
			}
			free(dump);
		}
		end(m, &a, &s);
	}
	return ok;
}

bool hc_case_frames(struct hc_module *m, const struct hc_options *o)
{
	struct hc_alloc a;
	struct hc_session s = { 0 };
	struct hc_frame f;
	unsigned frames = o->frames ? o->frames : 100, vsyncs;
	int fds_open, fds_warm = -1, fds_end, fds_closed;
	double t0;
	bool ok;
	char *dump;

	set_env("1", "drmhwc");
	hc_alloc_open(&a, o->device);
	fds_open = test_count_open_fds();
	if (o->check_fds) {
		hc_print_fds("before open");
	}
	ok = hc_module_open(m) && hc_session_start(&s, m, &a, vs_stack_find("mixed"));
	ok = ok && CHECK(m->fn.set_vsync_enabled(m->dev, 0, HWC2_VSYNC_ENABLE) == HWC2_ERROR_NONE,
		"setVsyncEnabled");
	t0 = hc_now_ms();
	for (unsigned i = 0; ok && i < frames; i++) {
		char what[64];

		snprintf(what, sizeof(what), "frames: frame %u", i);
		ok = hc_session_frame(&s, NULL, &f) &&
			CHECK(f.client_target && f.release_unexpected == 0,
				"%s: client target %d, %u unexpected release fences", what, f.client_target,
				f.release_unexpected) &&
			CHECK(hwct_fence_wait(f.present_fence, HC_FENCE_MS) == 0, "%s: present fence", what) &&
			check_readback(m, &f, TOL_BLEND, what);
		hc_frame_finish(&f);
		if (i == 2) {
			fds_warm = test_count_open_fds();
		}
	}
	fds_end = test_count_open_fds();
	pthread_mutex_lock(&m->lock);
	vsyncs = m->vsyncs;
	ok = CHECK(!m->vsync_backwards, "a vsync timestamp went backwards") && ok;
	pthread_mutex_unlock(&m->lock);
	printf("frames: %u frames in %.0f ms, %u vsync callbacks, fds: %d open, %d after frame 2, "
		"%d after frame %u\n", frames, hc_now_ms() - t0, vsyncs, fds_open, fds_warm, fds_end, frames);
	ok = CHECK(vsyncs > 0, "no vsync callback") && ok;
	if (m->dev) {
		m->fn.set_vsync_enabled(m->dev, 0, HWC2_VSYNC_DISABLE);
		dump = show_dump(m, "frames");
		ok = CHECK(!m->last_frame || (dump && strstr(dump, "(composed here 0)")),
			"frames: the module composed frames itself") && ok;
		free(dump);
	}
	hc_session_finish(&s);
	hc_module_close(m);
	fds_closed = test_count_open_fds();
	if (fds_closed != fds_open) {
		hc_print_fds("after close");
	}
	hc_alloc_close(&a);
	printf("frames: fds after close %d (before open %d)\n", fds_closed, fds_open);
	ok = CHECK(fds_end == fds_warm, "fd leak: %d fds after frame 2, %d after frame %u", fds_warm,
		fds_end, frames) && ok;
	return CHECK(fds_closed == fds_open, "fd leak: %d fds before open, %d after close", fds_open,
		fds_closed) && ok;
}

/* Frame 2 of rgba5 with layer 2 waiting on a held vgem fence. */
static bool held_frame(struct hc_module *m, struct hc_session *s, const char *vgem)
{
	struct vgem_fence v;
	struct hc_frame f;
	int acquire[VS_MAX_LAYERS];
	char why[256];
	double t0;
	bool ok;

	if (!CHECK(vgem_fence_make(&v, vgem, why, sizeof(why)) == 0, "vgem fence: %s", why)) {
		vgem_fence_finish(&v);
		return false;
	}
	for (size_t i = 0; i < VS_MAX_LAYERS; i++) {
		acquire[i] = i == 2 ? v.sync_file : -1;
	}
	ok = hc_session_frame(s, acquire, &f);
	if (ok) {
		ok = CHECK(f.present_fence >= 0 && hwct_fence_wait(f.present_fence, HELD_MS) == -ETIME,
			"the present fence signalled while the layer's acquire fence was held") &&
			CHECK(f.releases == s->count && f.release_unexpected == 0,
				"%u release fences (%u unexpected), expected %zu", f.releases,
				f.release_unexpected, s->count) &&
			CHECK(hwct_fence_wait(f.release_fence, 0) == -ETIME,
				"a release fence signalled before this frame was presented");
		printf("fences: present and release fences unsignalled %d ms into a held acquire fence\n",
			HELD_MS);
		t0 = hc_now_ms();
		ok = CHECK(vgem_fence_signal(&v) == 0, "VGEM_FENCE_SIGNAL") &&
			CHECK(hwct_fence_wait(f.release_fence, HC_FENCE_MS) == 0,
				"the release fence did not signal after the acquire fence") &&
			CHECK(hwct_fence_wait(f.present_fence, 0) == 0,
				"a release fence signalled before the present fence of the next frame") && ok;
		printf("fences: released %.1f ms after the vgem signal, with the present fence\n",
			hc_now_ms() - t0);
	}
	hc_frame_finish(&f);
	vgem_fence_finish(&v);
	return ok;
}

bool hc_case_fences(struct hc_module *m, const struct hc_options *o)
{
	struct hc_alloc a;
	struct hc_session s = { 0 };
	struct hc_frame f;
	bool ok;

	set_env("0", "drmhwc");	/* readback would wait for the held frame inside presentDisplay */
	ok = begin(m, &a, &s, "rgba5", o);
	for (int i = 0; ok && i < 2; i++) {
		ok = hc_session_frame(&s, NULL, &f) &&
			CHECK(f.client == 0, "fences: frame %d: %u client layers", i, f.client) &&
			CHECK(hwct_fence_wait(f.present_fence, HC_FENCE_MS) == 0,
				"fences: frame %d: the present fence did not signal", i) &&
			CHECK(f.releases == (i ? s.count : 0), "fences: frame %d: %u release fences", i,
				f.releases);
		hc_frame_finish(&f);
	}
	ok = ok && held_frame(m, &s, o->vgem);
	if (ok) {
		ok = hc_session_frame(&s, NULL, &f) &&
			CHECK(hwct_fence_wait(f.present_fence, HC_FENCE_MS) == 0,
				"fences: the frame after: the present fence did not signal");
		hc_frame_finish(&f);
	}
	end(m, &a, &s);
	return ok;
}

bool hc_case_run(struct hc_module *m, const struct hc_options *o)
{
	const struct vs_stack *stack = vs_stack_find(o->stack ? o->stack : "mixed");
	unsigned frames = o->frames ? o->frames : 100;
	struct hc_alloc a;
	struct hc_session s = { 0 };
	struct hc_frame f;
	int fds_warm = -1, fds_end;
	bool ok;

	if (!CHECK(stack != NULL, "unknown stack %s", o->stack)) {
		return false;
	}
	hc_alloc_open(&a, o->device);
	ok = hc_module_open(m) && hc_session_start(&s, m, &a, stack);
	for (unsigned i = 0; ok && i < frames; i++) {
		ok = hc_session_frame(&s, NULL, &f);
		printf("run %s: frame %u: %s, %u changed, %u client, %u release fences\n", stack->name, i,
			f.validate_ret == HWC2_ERROR_NONE ? "NONE" : "HAS_CHANGES", f.changed, f.client,
			f.releases);
		hc_frame_finish(&f);
		if (i == 2) {
			fds_warm = test_count_open_fds();
		}
	}
	fds_end = test_count_open_fds();
	end(m, &a, &s);
	if (o->check_fds && frames > 3) {
		ok = CHECK(fds_end == fds_warm, "fd leak: %d fds after frame 2, %d after frame %u",
			fds_warm, fds_end, frames) && ok;
	}
	return ok;
}
