/*
 * One frame's files (extract.h): the layers' decoded buffers through the
 * replayer's frame-to-scene converter, the client target, the stack
 * composed by the pixman compositor, and frame.json describing them. File
 * names are made here from numbers, never taken from the trace.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>
#include <hwct/frame.h>
#include <hwct/hwc2_names.h>

#include "fourcc.h"
#include "json_int.h"
#include "compositor.h"
#include "extract.h"
#include "frame_scene.h"
#include "safe_dir.h"

#define EXTRACT_CACHE_BYTES (512u << 20)

static int write_png(FILE *f, void *ctx)
{
	return extract_png_write(f, ctx);
}

static int write_json(FILE *f, void *ctx)
{
	const char *s = json_object_to_json_string_ext(ctx, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		JSON_C_TO_STRING_NOSLASHESCAPE);

	return fprintf(f, "%s\n", s) < 0 ? -EIO : 0;
}

/* json-c objects; a NULL value (out of memory) makes the result fail later. */
static void put(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

static struct json_object *rect(const struct hwct_rect *r)
{
	struct json_object *a = json_object_new_array();
	int32_t v[] = { r->left, r->top, r->right, r->bottom };

	for (size_t i = 0; i < 4; i++) {
		json_object_array_add(a, json_object_new_int(v[i]));
	}
	return a;
}

static struct json_object *frect(const struct hwct_frect *r)
{
	struct json_object *a = json_object_new_array();
	float v[] = { r->left, r->top, r->right, r->bottom };

	for (size_t i = 0; i < 4; i++) {
		json_object_array_add(a, isfinite(v[i]) ? json_object_new_double(v[i]) : NULL);
	}
	return a;
}

static struct json_object *name_or_number(const char *name, int32_t v)
{
	return name ? json_object_new_string(name) : json_object_new_int(v);
}

/* The buffer's facts: id, size, formats, content, capture. */
static void describe_buffer(struct json_object *o, const struct hwct_buffer_ref *b)
{
	char hex[HWCT_HASH_HEX], fourcc[5];
	uint32_t drm = frame_scene_fourcc(b->info);

	put(o, "buffer", hwct_json_u64(b->buffer));
	put(o, "width", b->info ? json_object_new_int64(b->info->width) : NULL);
	put(o, "height", b->info ? json_object_new_int64(b->info->height) : NULL);
	put(o, "hal_format", b->info ? name_or_number(hwct_hwc2_pixel_format_name(b->info->hal_format),
		b->info->hal_format) : NULL);
	put(o, "drm_format", drm ? json_object_new_string(extract_fourcc_name(drm, fourcc)) : NULL);
	put(o, "content", b->has_content ? json_object_new_string(hwct_hash_to_hex(&b->content, hex)) : NULL);
	put(o, "capture", name_or_number(hwct_capture_status_name(b->capture), b->capture));
}

/* Converts and writes one image; says why not in o ("file" null, "skipped"). */
static void write_image(int dirfd, const char *name, const struct scene_image *img, struct json_object *o,
	struct extract_result *out)
{
	struct extract_rgba rgba;
	char fourcc[5], why[160];
	int ret = extract_to_rgba(img, &rgba);

	if (ret == -ENOTSUP) {
		snprintf(why, sizeof(why), "format %s is not converted to PNG", extract_fourcc_name(img->fourcc, fourcc));
	} else if (ret < 0) {
		snprintf(why, sizeof(why), "content does not fit its layout (%s)", strerror(-ret));
	} else if ((ret = safe_dir_write(dirfd, name, write_png, &rgba)) < 0) {
		snprintf(why, sizeof(why), "writing %s: %s", name, strerror(-ret));
		fprintf(stderr, "hwc-trace: error: %s\n", why);
		out->failures++;
	}
	free(rgba.pixels);
	if (ret < 0) {
		put(o, "file", NULL);
		put(o, "skipped", json_object_new_string(why));
		return;
	}
	put(o, "file", json_object_new_string(name));
	put(o, "skipped", NULL);
	out->files++;
}

static struct json_object *layer_entry(int dirfd, const struct hwct_layer *l, const struct scene_layer *s,
	struct extract_result *out)
{
	struct json_object *o = json_object_new_object();
	char name[96];

	put(o, "id", hwct_json_u64(l->id));
	put(o, "z", json_object_new_int(l->z));
	put(o, "requested", name_or_number(hwct_hwc2_composition_name(l->requested), l->requested));
	put(o, "final", name_or_number(hwct_hwc2_composition_name(l->final), l->final));
	describe_buffer(o, &l->buffer);
	put(o, "display_frame", rect(&l->display_frame));
	put(o, "source_crop", frect(&l->source_crop));
	put(o, "transform", json_object_new_int(l->transform));
	put(o, "blend", name_or_number(hwct_hwc2_blend_mode_name(l->blend), l->blend));
	put(o, "plane_alpha", json_object_new_double(isfinite(l->plane_alpha) ? l->plane_alpha : 0.0));
	put(o, "color", json_object_new_int64(l->color));
	snprintf(name, sizeof(name), "layer-%d-%" PRIu64 ".png", l->z, l->id);
	if (s->image) {
		write_image(dirfd, name, s->image, o, out);
	} else {
		put(o, "file", NULL);
		put(o, "skipped", json_object_new_string(l->requested == HWC2_COMPOSITION_SOLID_COLOR ?
			"solid colour: no buffer" : !l->buffer.buffer ? "no buffer" : !l->buffer.has_content ?
			"content not captured" : !l->buffer.info ? "no Buffer record (layout unknown)" :
			"content not in the trace, or a format without a known layout"));
	}
	return o;
}

static struct json_object *client_target_entry(struct hwct_reader *r, int dirfd, const struct hwct_frame *f,
	struct extract_result *out, int *error)
{
	const struct hwct_buffer_ref *b = &f->client_target;
	struct json_object *o;
	struct scene_image img = { 0 };
	struct hwct_blob_data blob = { 0 };
	int ret;

	if (!f->has_client_target) {
		return NULL;
	}
	o = json_object_new_object();
	describe_buffer(o, b);
	put(o, "dataspace", json_object_new_int(f->client_target_dataspace));
	img.fourcc = frame_scene_fourcc(b->info);
	img.width = b->info ? b->info->width : 0;
	img.height = b->info ? b->info->height : 0;
	img.modifier = DRM_FORMAT_MOD_LINEAR;
	if (!b->has_content || !b->info || !img.fourcc || !frame_scene_layout(&img)) {
		put(o, "file", NULL);
		put(o, "skipped", json_object_new_string(!b->has_content ? "content not captured" :
			"layout or format unknown"));
		return o;
	}
	ret = hwct_reader_picture(r, b->info, &b->content, &blob);
	if (ret < 0) {
		put(o, "file", NULL);
		put(o, "skipped", json_object_new_string(ret == -ENOENT ? "content not in the trace" : "unreadable"));
		*error = ret == -ENOENT ? 0 : ret;
		return o;
	}
	img.data = blob.data;
	img.size = blob.size;
	write_image(dirfd, "client-target.png", &img, o, out);
	free(blob.data);
	return o;
}

/* Whether the pixman compositor takes the layer (compositor.h lists what it reads). */
static bool composable(const struct scene_layer *l)
{
	static const uint32_t formats[] = { DRM_FORMAT_ABGR8888, DRM_FORMAT_XBGR8888, DRM_FORMAT_ARGB8888,
		DRM_FORMAT_XRGB8888, DRM_FORMAT_RGB565, DRM_FORMAT_NV12 };
	const struct hwct_frect *c = &l->crop;
	bool known = false;

	if (isnan(l->alpha) || l->transform < 0 || l->transform > 7 || l->blend < 0 || l->blend > 3) {
		return false;
	}
	if (l->composition == HWC2_COMPOSITION_SOLID_COLOR) {
		return true;
	}
	for (size_t i = 0; l->image && i < sizeof(formats) / sizeof(formats[0]); i++) {
		known = known || l->image->fourcc == formats[i];
	}
	return known && isfinite(c->left) && isfinite(c->top) && isfinite(c->right) && isfinite(c->bottom) &&
		c->right > c->left && c->bottom > c->top;
}

static struct json_object *preview(int dirfd, const struct scene *scene, struct extract_result *out)
{
	struct json_object *o = json_object_new_object(), *left_out = json_object_new_array();
	const struct scene_layer **layers = calloc(scene->layer_count ? scene->layer_count : 1, sizeof(*layers));
	struct extract_rgba rgba = { scene->width, scene->height, NULL };
	struct comp_target target = { DRM_FORMAT_ABGR8888, scene->width, scene->height, scene->width * 4, NULL };
	struct compositor *c = compositor_create("pixman");
	size_t n = 0;
	int ret = -ENOMEM;

	for (size_t i = 0; layers && i < scene->layer_count; i++) {
		if (composable(&scene->layers[i])) {
			layers[n++] = &scene->layers[i];
		} else {
			json_object_array_add(left_out, hwct_json_u64(scene->layers[i].id));
		}
	}
	rgba.pixels = target.data = malloc((size_t)target.stride * target.height);
	if (layers && c && target.data) {
		/* over opaque black: the result is opaque, premultiplied or not */
		ret = compositor_compose(c, scene, layers, n, 0xff000000u, &target);
	}
	if (ret == 0) {
		ret = safe_dir_write(dirfd, "preview.png", write_png, &rgba);
	}
	put(o, "file", ret == 0 ? json_object_new_string("preview.png") : NULL);
	put(o, "compositor", json_object_new_string("pixman"));
	put(o, "background", json_object_new_string("#000000"));
	put(o, "left_out", left_out);
	if (ret < 0) {
		fprintf(stderr, "hwc-trace: error: preview.png: %s\n", strerror(-ret));
		put(o, "error", json_object_new_string(strerror(-ret)));
		out->failures++;
	} else {
		out->files++;
	}
	compositor_destroy(c);
	free(target.data);
	free(layers);
	return o;
}

static struct json_object *frame_report(const struct hwct_frame *f)
{
	struct json_object *o = json_object_new_object();

	put(o, "frame", hwct_json_u64(f->frame));
	put(o, "display", hwct_json_u64(f->display));
	put(o, "display_frame", hwct_json_u64(f->display_frame));
	put(o, "t_ns", hwct_json_u64(f->t_ns));
	put(o, "width", f->width > 0 ? json_object_new_int(f->width) : NULL);
	put(o, "height", f->height > 0 ? json_object_new_int(f->height) : NULL);
	put(o, "validated", json_object_new_boolean(f->validated));
	return o;
}

static int fail_read(struct hwct_reader *r, struct extract_result *out, int ret)
{
	if (hwct_reader_error(r)) {
		out->error = *hwct_reader_error(r);
	} else {
		hwct_error_set(&out->error, ret, hwct_reader_name(r), UINT64_MAX, "%s", strerror(-ret));
	}
	return ret;
}

int extract_frame(struct hwct_reader *r, uint64_t frame, int dirfd, struct extract_result *out)
{
	struct hwct_frame_iter *it = hwct_frame_iter_create(r);
	struct frame_scene *fs = frame_scene_create(r, EXTRACT_CACHE_BYTES);
	const struct hwct_frame *f = NULL;
	struct json_object *layers, *ct;
	struct scene scene;
	unsigned missing;
	int ret = it && fs ? hwct_frame_iter_seek(it, frame) : -ENOMEM, error = 0;

	*out = (struct extract_result){ 0 };
	if (ret == 0) {
		ret = hwct_frame_iter_next(it, &f);
		ret = ret == 0 || (ret > 0 && f->frame != frame) ? -ERANGE : ret < 0 ? ret : 0;
	}
	if (ret == 0) {
		ret = frame_scene_build(fs, f, &scene, &missing);
	}
	if (ret < 0) {
		if (ret != -ERANGE && ret != -ENOMEM) {
			fail_read(r, out, ret);
		}
		goto out;
	}
	out->report = frame_report(f);
	layers = json_object_new_array();
	for (size_t i = 0; i < f->layer_count; i++) {
		json_object_array_add(layers, layer_entry(dirfd, &f->layers[i], &scene.layers[i], out));
	}
	put(out->report, "layers", layers);
	ct = client_target_entry(r, dirfd, f, out, &error);
	put(out->report, "client_target", ct);
	if (error < 0) {
		ret = fail_read(r, out, error);
		goto out;
	}
	if (scene.width && scene.height) {
		put(out->report, "preview", preview(dirfd, &scene, out));
	} else {
		put(out->report, "preview", NULL);
	}
	ret = safe_dir_write(dirfd, "frame.json", write_json, out->report);
	if (ret < 0) {
		fprintf(stderr, "hwc-trace: error: frame.json: %s\n", strerror(-ret));
		out->failures++;
		ret = 0;
	} else {
		out->files++;
	}
out:
	frame_scene_destroy(fs);
	hwct_frame_iter_destroy(it);
	return ret;
}
