/*
 * Scenario "video": a 16:9 video played in portrait, letterboxed.
 *
 * Layers, bottom to top: a black SOLID_COLOR layer over the whole display
 * (the letterbox bars; the device has no solid-colour planes, so it goes to
 * the client target), the video (NV12, a new decoded frame every display
 * frame, 320x180 visible in a 320x192 buffer, scaled to the display width),
 * and the player UI (RGBA, premultiplied, plane alpha 0.8 fading to 0.5
 * once; its seek bar moves every 15 frames, its clock once a second).
 */
#include <errno.h>
#include <stdio.h>

#include <hardware/hwcomposer2.h>
#include <system/graphics.h>

#include "scenarios.h"
#include "session.h"

#define VIDEO_W 320
#define VIDEO_H 180
#define VIDEO_CODED_H 192	/* decoders align to 16 rows */
#define FADE_START 60
#define FADE_FRAMES 24
#define DURATION_S 120		/* length of the clip the seek bar shows */

struct video {
	struct session *s;
	uint32_t w, h;
	int32_t ts;
	struct session_layer *bars, *video, *ui;
	struct hwct_rect frame;		/* where the video lands on the display */
	struct hwct_rect seek;		/* seek bar, in the UI */
	struct hwct_rect clock;		/* elapsed time, in the UI */
};

/* A test card that moves: a panning ramp, a bouncing ball, a frame counter, corner markers. */
static void draw_video(struct pattern_image *img, uint32_t f)
{
	char text[16];
	int32_t bx = 40 + (int32_t)((f * 3) % 240), by = (int32_t)((f * 2) % 120);

	for (int32_t y = 0; y < VIDEO_H; y++) {
		for (int32_t x = 0; x < VIDEO_W; x++) {
			int32_t t = (x + 2 * (int32_t)f) % 512, v = t < 256 ? t : 511 - t;

			pattern_put(img, x, y, pattern_rgba((uint8_t)(40 + v / 2), (uint8_t)(y * 200 / VIDEO_H),
				(uint8_t)(255 - v / 2), 255));
		}
	}
	by = 30 + (by < 60 ? by : 120 - by) * 2;
	pattern_disc(img, bx, by, 18, pattern_rgba(245, 245, 245, 255));
	snprintf(text, sizeof(text), "F %04u", f);
	pattern_text(img, VIDEO_W / 2 - 18 * 2, 8, 2, text, pattern_rgba(255, 255, 255, 255));
	pattern_markers(img, (struct hwct_rect){ 0, 0, VIDEO_W, VIDEO_H }, 12);
}

static void draw_seek(struct video *v, uint32_t f)
{
	struct pattern_image *img = v->ui->image;
	struct hwct_rect r = v->seek;
	int32_t t = v->ts, left = r.left + 4 * t, total = r.right - 4 * t - left;
	int32_t done = (int32_t)(f * (uint32_t)total / (DURATION_S * 60));
	int32_t mid = (r.top + r.bottom) / 2;

	/* the knob stays inside the rect, so the rect is the damage */
	pattern_fill(img, r, 0);
	pattern_fill(img, (struct hwct_rect){ left, mid - t, left + total, mid + t },
		pattern_premul(pattern_rgba(200, 200, 200, 160)));
	pattern_fill(img, (struct hwct_rect){ left, mid - t, left + done, mid + t }, pattern_rgba(230, 30, 40, 255));
	pattern_disc(img, left + done, mid, 4 * t, pattern_rgba(230, 30, 40, 255));
}

static void draw_clock(struct video *v, uint32_t f)
{
	char text[32];
	uint32_t s = f / 60;

	snprintf(text, sizeof(text), "%u:%02u / %u:%02u", s / 60, s % 60, DURATION_S / 60, DURATION_S % 60);
	pattern_fill(v->ui->image, v->clock, 0);
	pattern_text(v->ui->image, v->clock.left, v->clock.top, (uint32_t)v->ts, text, pattern_rgba(255, 255, 255, 255));
}

static void draw_ui(struct video *v)
{
	struct pattern_image *img = v->ui->image;
	int32_t w = (int32_t)v->w, ts = v->ts, below = v->frame.bottom + 8 * ts;

	/* title bar at the top: back arrow and title */
	pattern_fill(img, (struct hwct_rect){ 0, 0, w, 40 * ts }, pattern_premul(pattern_rgba(0, 0, 0, 120)));
	pattern_text(img, 8 * ts, 16 * ts, (uint32_t)ts, "< SAMPLE CLIP - TEST CARD", pattern_rgba(255, 255, 255, 255));
	/* controls under the picture: play/pause, seek bar, time */
	pattern_fill(img, (struct hwct_rect){ 12 * ts, below, 16 * ts, below + 16 * ts }, pattern_rgba(255, 255, 255, 255));
	pattern_fill(img, (struct hwct_rect){ 20 * ts, below, 24 * ts, below + 16 * ts }, pattern_rgba(255, 255, 255, 255));
	v->seek = (struct hwct_rect){ 32 * ts, below, w - 12 * ts, below + 16 * ts };
	v->clock = (struct hwct_rect){ 32 * ts, below + 20 * ts, 32 * ts + 13 * 6 * ts, below + 27 * ts };
	draw_seek(v, 0);
	draw_clock(v, 0);
}

static int setup(struct video *v)
{
	int32_t w = (int32_t)v->w, h = (int32_t)v->h;
	int32_t vh = (w * VIDEO_H / VIDEO_W) & ~1, top = (h - vh) / 2;
	struct pattern_image *vid = pattern_image_create(PATTERN_NV12, VIDEO_W, VIDEO_CODED_H);
	struct pattern_image *ui = pattern_image_create(PATTERN_RGBA8888, v->w, v->h);
	struct session_layer_props bars = {
		.composition = HWC2_COMPOSITION_SOLID_COLOR,
		.z = 1,
		.display_frame = { 0, 0, w, h },
		.source_crop = { 0.0f, 0.0f, (float)w, (float)h },
		.blend = HWC2_BLEND_MODE_NONE,
		.plane_alpha = 1.0f,
		.dataspace = HAL_DATASPACE_V0_SRGB,
		.color = pattern_rgba(0, 0, 0, 255),
	};
	struct session_layer_props video = bars, overlay = bars;

	if (!vid || !ui) {
		pattern_image_destroy(vid);
		pattern_image_destroy(ui);
		return -ENOMEM;
	}
	v->frame = (struct hwct_rect){ 0, top, w, top + vh };
	video.composition = HWC2_COMPOSITION_DEVICE;
	video.z = 2;
	video.display_frame = v->frame;
	video.source_crop = (struct hwct_frect){ 0.0f, 0.0f, (float)VIDEO_W, (float)VIDEO_H };
	video.dataspace = HAL_DATASPACE_V0_BT709;
	video.color = 0;
	overlay.composition = HWC2_COMPOSITION_DEVICE;
	overlay.z = 3;
	overlay.blend = HWC2_BLEND_MODE_PREMULTIPLIED;
	overlay.plane_alpha = 0.8f;
	overlay.color = 0;
	v->bars = session_layer_create(v->s, "letterbox", &bars, NULL);
	v->video = v->bars ? session_layer_create(v->s, "video", &video, vid) : NULL;
	if (!v->video) {
		pattern_image_destroy(vid);
		pattern_image_destroy(ui);
		return -errno;
	}
	v->ui = session_layer_create(v->s, "player-ui", &overlay, ui);
	if (!v->ui) {
		pattern_image_destroy(ui);
		return -errno;
	}
	draw_ui(v);
	return 0;
}

static int step(struct video *v, uint32_t f)
{
	int ret;

	draw_video(v->video->image, f);
	ret = session_layer_queue(v->video, NULL, 0);
	if (ret == 0 && f == 0) {
		return session_layer_queue(v->ui, NULL, 0);
	}
	if (ret == 0 && f % 60 == 0) {
		draw_clock(v, f);
		ret = session_layer_queue(v->ui, &v->clock, 1);
	}
	if (ret == 0 && f % 15 == 0) {
		draw_seek(v, f);
		ret = session_layer_queue(v->ui, &v->seek, 1);
	}
	if (f >= FADE_START && f <= FADE_START + FADE_FRAMES) {
		/* 0.8 down to 0.5 */
		v->ui->props.plane_alpha = (float)(800 - (int32_t)(f - FADE_START) * 300 / FADE_FRAMES) / 1000.0f;
	}
	return ret;
}

int scenario_video(struct hwct_writer *w, const struct scenario_options *opts)
{
	struct session_config cfg = {
		.name = "video",
		.width = opts->width,
		.height = opts->height,
		.vsync_period_ns = 16666667,
		.dpi = (int32_t)(opts->width * 420000 / 1080),
		.device = { .planes = 4, .solid_color = false, .yuv = true },
		.note = "Video player in portrait: black SOLID_COLOR letterbox, NV12 video scaled from 320x180, "
			"player UI at plane alpha 0.8 fading to 0.5.",
	};
	struct video v = { .w = opts->width, .h = opts->height };
	int ret;

	if (opts->width < 160 || opts->height < 240 || opts->width > 4096 || opts->height > 4096) {
		return -EINVAL;
	}
	v.ts = (int32_t)opts->width / 270 > 1 ? (int32_t)opts->width / 270 : 1;
	v.s = session_create(w, &cfg);
	if (!v.s) {
		return -errno;
	}
	ret = setup(&v);
	for (uint32_t f = 0; f < opts->frames && ret == 0; f++) {
		ret = step(&v, f);
		ret = ret ? ret : session_frame(v.s);
	}
	if (ret == 0) {
		return session_destroy(v.s);
	}
	session_destroy(v.s);
	return ret;
}
