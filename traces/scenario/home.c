/*
 * Scenario "home": a launcher over a wallpaper with the system bars.
 *
 * Layers, bottom to top: wallpaper (opaque, drawn once), launcher app
 * (premultiplied; a spinner redrawn every frame and a feed list flung once
 * every 120 frames), a toast that fades in and out (created and destroyed;
 * with it the stack outgrows the device's planes and the two lowest layers
 * go to the client target), status bar (its clock ticks once a second),
 * navigation bar (static). Every frame the app queues a buffer with
 * partial damage, so blobs are deltas.
 */
#include <errno.h>
#include <stdio.h>

#include <hardware/hwcomposer2.h>
#include <system/graphics.h>

#include "scenarios.h"
#include "session.h"

#define CYCLE 120		/* frames between repeats of the scripted events */
#define FLING_START 20
#define FLING_FRAMES 40
#define TOAST_START 45
#define TOAST_FRAMES 30
#define TOAST_FADE 6
#define CLOCK_PHASE 45		/* the clock starts 45 frames into a second */

struct home {
	struct session *s;
	uint32_t w, h;
	int32_t ts;			/* text scale */
	int32_t status_h, nav_h;
	struct session_layer *wallpaper, *app, *status, *nav, *toast;
	struct hwct_rect spinner;	/* in the app */
	struct hwct_rect list;		/* the feed's viewport in the app */
	struct hwct_rect clock;		/* in the status bar */
	struct pattern_image *strip;	/* the feed drawn at the current scroll position */
	int32_t row_h;
	uint32_t scroll;		/* pixels the feed has moved */
	uint32_t second;
};

static struct session_layer_props props_for(int32_t z, struct hwct_rect frame, const struct pattern_image *img,
	int32_t blend)
{
	return (struct session_layer_props){
		.composition = HWC2_COMPOSITION_DEVICE,
		.z = z,
		.display_frame = frame,
		.source_crop = { 0.0f, 0.0f, (float)img->width, (float)img->height },
		.transform = 0,
		.blend = blend,
		.plane_alpha = 1.0f,
		.dataspace = HAL_DATASPACE_V0_SRGB,
	};
}

static void draw_wallpaper(struct pattern_image *img)
{
	int32_t w = (int32_t)img->width, h = (int32_t)img->height;

	pattern_gradient(img, (struct hwct_rect){ 0, 0, w, h }, pattern_rgba(20, 30, 90, 255),
		pattern_rgba(150, 80, 140, 255), true);
	pattern_disc(img, w * 3 / 4, h / 4, w / 8, pattern_rgba(250, 210, 120, 255));
	/* two hills: parabolas, the far one lighter */
	for (int32_t x = 0; x < w; x++) {
		int32_t d1 = x - w / 4, d2 = x - w * 3 / 4;
		int32_t top1 = h * 11 / 20 + d1 * d1 / (w * 2 / 3 > 0 ? w * 2 / 3 : 1);
		int32_t top2 = h * 13 / 20 + d2 * d2 / (w > 0 ? w : 1);

		pattern_gradient(img, (struct hwct_rect){ x, top1, x + 1, h }, pattern_rgba(70, 140, 90, 255),
			pattern_rgba(30, 70, 50, 255), true);
		pattern_gradient(img, (struct hwct_rect){ x, top2, x + 1, h }, pattern_rgba(40, 110, 60, 255),
			pattern_rgba(10, 40, 25, 255), true);
	}
	pattern_markers(img, (struct hwct_rect){ 0, 0, w, h }, w / 20 > 4 ? w / 20 : 4);
}

/* One row of the feed (row index r, any) drawn at y of the strip. */
static void draw_row(struct home *hm, int32_t y, uint32_t r)
{
	struct pattern_image *img = hm->strip;
	int32_t w = (int32_t)img->width, ts = hm->ts, pad = 4 * ts;
	uint32_t hue = pattern_hash(r, 7);

	pattern_fill(img, (struct hwct_rect){ 0, y, w, y + hm->row_h }, pattern_premul(pattern_rgba(250, 250, 252, 240)));
	pattern_disc(img, pad + 8 * ts, y + hm->row_h / 2, 8 * ts,
		pattern_premul(pattern_rgba((uint8_t)(60 + hue % 160), (uint8_t)(60 + hue / 7 % 160),
			(uint8_t)(60 + hue / 49 % 160), 255)));
	pattern_words(img, 2 * pad + 16 * ts, y + pad, w - 3 * pad - 16 * ts, (uint32_t)ts, r * 2,
		pattern_rgba(30, 30, 36, 255));
	pattern_words(img, 2 * pad + 16 * ts, y + pad + 9 * ts, (w - 3 * pad - 16 * ts) * 2 / 3, 1, r * 2 + 1,
		pattern_rgba(110, 110, 120, 255));
	pattern_fill(img, (struct hwct_rect){ pad, y + hm->row_h - 1, w - pad, y + hm->row_h },
		pattern_rgba(210, 210, 216, 255));
}

/* Redraws the feed viewport of the app at the current scroll position. */
static void draw_list(struct home *hm)
{
	struct pattern_image *app = hm->app->image;
	int32_t off = (int32_t)(hm->scroll % (uint32_t)hm->row_h), first = (int32_t)(hm->scroll / (uint32_t)hm->row_h);
	int32_t rows = (int32_t)hm->strip->height / hm->row_h;
	size_t row_bytes = (size_t)(hm->list.right - hm->list.left) * 4;

	for (int32_t i = 0; i < rows; i++) {
		draw_row(hm, i * hm->row_h, (uint32_t)(first + i));
	}
	for (int32_t y = hm->list.top; y < hm->list.bottom; y++) {
		const uint8_t *src = hm->strip->data + (size_t)(y - hm->list.top + off) * hm->strip->stride;
		uint8_t *dst = app->data + (size_t)y * app->stride + (size_t)hm->list.left * 4;

		for (size_t i = 0; i < row_bytes; i++) {
			dst[i] = src[i];
		}
	}
}

/* Eight dots in a ring, the bright one advancing a step a frame. */
static void draw_spinner(struct home *hm, uint32_t frame)
{
	static const int32_t ring[8][2] = { { 0, -3 }, { 2, -2 }, { 3, 0 }, { 2, 2 }, { 0, 3 }, { -2, 2 },
		{ -3, 0 }, { -2, -2 } };
	struct hwct_rect r = hm->spinner;
	int32_t cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2, u = (r.right - r.left) / 8;

	pattern_fill(hm->app->image, r, pattern_premul(pattern_rgba(250, 250, 252, 240)));
	for (int32_t i = 0; i < 8; i++) {
		uint8_t v = i == (int32_t)(frame % 8) ? 40 : 190;

		pattern_disc(hm->app->image, cx + ring[i][0] * u, cy + ring[i][1] * u, u > 1 ? u - 1 : 1,
			pattern_rgba(v, v, (uint8_t)(v + 20 > 255 ? 255 : v + 20), 255));
	}
}

static void draw_app(struct home *hm)
{
	struct pattern_image *img = hm->app->image;
	int32_t w = (int32_t)hm->w, h = (int32_t)hm->h, ts = hm->ts;
	int32_t card_top = h * 9 / 20, card_bottom = h - hm->nav_h - 4 * ts;
	int32_t icon = w / 8;

	/* the time widget and four icons on the transparent home screen */
	pattern_text(img, w / 10, h / 8, (uint32_t)(4 * ts), "12:34", pattern_rgba(255, 255, 255, 255));
	pattern_text(img, w / 10, h / 8 + 34 * ts, (uint32_t)ts, "TUESDAY 14 MAY", pattern_rgba(235, 235, 240, 255));
	for (int32_t i = 0; i < 4; i++) {
		int32_t x = w / 10 + i * (w * 8 / 10 - icon) / 3, y = h * 9 / 25;
		uint32_t c = pattern_hash((uint32_t)i, 3);

		pattern_fill(img, (struct hwct_rect){ x, y, x + icon, y + icon },
			pattern_rgba((uint8_t)(c % 200 + 40), (uint8_t)(c / 200 % 200 + 40), (uint8_t)(c / 40000 % 200 + 40), 255));
		pattern_disc(img, x + icon / 2, y + icon / 2, icon / 4, pattern_rgba(255, 255, 255, 255));
	}
	/* the feed card: a header with a spinner, then the list */
	pattern_fill(img, (struct hwct_rect){ 4 * ts, card_top, w - 4 * ts, card_bottom },
		pattern_premul(pattern_rgba(250, 250, 252, 240)));
	pattern_text(img, 12 * ts, card_top + 8 * ts, (uint32_t)(2 * ts), "FEED", pattern_rgba(30, 30, 36, 255));
	hm->spinner = (struct hwct_rect){ w - 36 * ts, card_top + 4 * ts, w - 12 * ts, card_top + 28 * ts };
	hm->list = (struct hwct_rect){ 8 * ts, card_top + 32 * ts, w - 8 * ts, card_bottom - 4 * ts };
}

static void draw_status(struct home *hm)
{
	struct pattern_image *img = hm->status->image;
	char text[16];
	uint32_t t = 12 * 3600 + 34 * 60 + 56 + hm->second;

	pattern_fill(img, hm->clock, pattern_premul(pattern_rgba(0, 0, 0, 96)));
	snprintf(text, sizeof(text), "%02u:%02u:%02u", t / 3600 % 24, t / 60 % 60, t % 60);
	pattern_text(img, hm->clock.left, hm->clock.top, (uint32_t)hm->ts, text, pattern_rgba(255, 255, 255, 255));
}

static void draw_status_static(struct home *hm)
{
	struct pattern_image *img = hm->status->image;
	int32_t w = (int32_t)img->width, ts = hm->ts, y = (hm->status_h - 7 * ts) / 2;
	uint32_t white = pattern_rgba(255, 255, 255, 255);

	pattern_fill(img, (struct hwct_rect){ 0, 0, w, hm->status_h }, pattern_premul(pattern_rgba(0, 0, 0, 96)));
	hm->clock = (struct hwct_rect){ 8 * ts, y, 8 * ts + 8 * 6 * ts, y + 7 * ts };
	pattern_text(img, w - 34 * ts - 4 * 6 * ts, y, (uint32_t)ts, "100%", pattern_rgba(255, 255, 255, 255));
	/* signal bars and a battery */
	for (int32_t i = 0; i < 4; i++) {
		pattern_fill(img, (struct hwct_rect){ w - 58 * ts - 24 * ts + i * 4 * ts, y + (6 - 2 * i) * ts,
			w - 58 * ts - 24 * ts + i * 4 * ts + 3 * ts, y + 7 * ts }, pattern_rgba(255, 255, 255, 255));
	}
	pattern_fill(img, (struct hwct_rect){ w - 26 * ts, y, w - 8 * ts, y + 7 * ts }, white);
	pattern_fill(img, (struct hwct_rect){ w - 8 * ts, y + 2 * ts, w - 6 * ts, y + 5 * ts }, white);
	draw_status(hm);
}

static void draw_nav(struct home *hm)
{
	struct pattern_image *img = hm->nav->image;
	int32_t w = (int32_t)img->width, h = (int32_t)img->height, s = h / 4;
	uint32_t white = pattern_premul(pattern_rgba(255, 255, 255, 230));

	pattern_fill(img, (struct hwct_rect){ 0, 0, w, h }, pattern_premul(pattern_rgba(0, 0, 0, 160)));
	/* back: a triangle pointing left */
	for (int32_t y = -s; y <= s; y++) {
		int32_t half = s - (y < 0 ? -y : y);

		pattern_fill(img, (struct hwct_rect){ w / 4 - half, h / 2 + y, w / 4 + 1, h / 2 + y + 1 }, white);
	}
	pattern_disc(img, w / 2, h / 2, s, white);
	pattern_fill(img, (struct hwct_rect){ w * 3 / 4 - s, h / 2 - s, w * 3 / 4 + s, h / 2 + s }, white);
}

static struct session_layer *make_layer(struct home *hm, const char *name, int32_t z, struct hwct_rect frame,
	int32_t blend)
{
	struct pattern_image *img = pattern_image_create(PATTERN_RGBA8888, (uint32_t)(frame.right - frame.left),
		(uint32_t)(frame.bottom - frame.top));
	struct session_layer_props p;
	struct session_layer *l;

	if (!img) {
		return NULL;
	}
	p = props_for(z, frame, img, blend);
	l = session_layer_create(hm->s, name, &p, img);
	if (!l) {
		pattern_image_destroy(img);
	}
	return l;
}

static int toast_step(struct home *hm, uint32_t c)
{
	int32_t w = (int32_t)hm->w, h = (int32_t)hm->h, ts = hm->ts;
	uint32_t k = c - TOAST_START;

	if (c == TOAST_START) {
		int32_t tw = w * 3 / 4, th = 28 * ts, left = (w - tw) / 2, top = h - hm->nav_h - 3 * th;
		struct pattern_image *img;

		hm->toast = make_layer(hm, "toast", 3, (struct hwct_rect){ left, top, left + tw, top + th },
			HWC2_BLEND_MODE_PREMULTIPLIED);
		if (!hm->toast) {
			return -errno;
		}
		img = hm->toast->image;
		pattern_fill(img, (struct hwct_rect){ 0, 0, tw, th }, pattern_premul(pattern_rgba(50, 50, 56, 230)));
		pattern_text(img, 8 * ts, (th - 7 * ts) / 2, (uint32_t)ts, "SCREENSHOT SAVED",
			pattern_rgba(255, 255, 255, 255));
		if (session_layer_queue(hm->toast, NULL, 0) < 0) {
			return -ENOMEM;
		}
	}
	if (!hm->toast) {
		return 0;
	}
	if (k >= TOAST_FRAMES) {
		session_layer_destroy(hm->s, hm->toast);
		hm->toast = NULL;
		return 0;
	}
	/* fade in and out in steps of 1/TOAST_FADE */
	if (k < TOAST_FADE) {
		hm->toast->props.plane_alpha = (float)(k + 1) / (float)TOAST_FADE;
	} else if (k >= TOAST_FRAMES - TOAST_FADE) {
		hm->toast->props.plane_alpha = (float)(TOAST_FRAMES - k) / (float)TOAST_FADE;
	} else {
		hm->toast->props.plane_alpha = 1.0f;
	}
	return 0;
}

/* What the apps do before display frame f is composed. */
static int step(struct home *hm, uint32_t f)
{
	uint32_t c = f % CYCLE;
	int ret = 0;

	if (f == 0) {
		ret = ret ? ret : session_layer_queue(hm->wallpaper, NULL, 0);
		ret = ret ? ret : session_layer_queue(hm->app, NULL, 0);
		ret = ret ? ret : session_layer_queue(hm->status, NULL, 0);
		ret = ret ? ret : session_layer_queue(hm->nav, NULL, 0);
		return ret;
	}
	/* the app: its spinner every frame, the feed while flung (decelerating) */
	draw_spinner(hm, f);
	ret = session_layer_queue(hm->app, &hm->spinner, 1);
	if (ret == 0 && c >= FLING_START && c < FLING_START + FLING_FRAMES) {
		uint32_t v = (uint32_t)hm->ts * (FLING_START + FLING_FRAMES - c) * 12 / FLING_FRAMES;

		if (v) {
			hm->scroll += v;
			draw_list(hm);
			ret = session_layer_queue(hm->app, &hm->list, 1);
		}
	}
	if (ret == 0 && (f + CLOCK_PHASE) % 60 == 0) {
		hm->second++;
		draw_status(hm);
		ret = session_layer_queue(hm->status, &hm->clock, 1);
	}
	if (ret == 0 && c >= TOAST_START) {
		ret = toast_step(hm, c);
	}
	return ret;
}

static int setup(struct home *hm)
{
	int32_t w = (int32_t)hm->w, h = (int32_t)hm->h;
	struct pattern_image *wall = pattern_image_create(PATTERN_RGBA8888, hm->w, hm->h);
	struct session_layer_props p;

	if (!wall) {
		return -errno;
	}
	draw_wallpaper(wall);
	p = props_for(1, (struct hwct_rect){ 0, 0, w, h }, wall, HWC2_BLEND_MODE_NONE);
	hm->wallpaper = session_layer_create(hm->s, "wallpaper", &p, wall);
	if (!hm->wallpaper) {
		pattern_image_destroy(wall);
		return -errno;
	}
	hm->app = make_layer(hm, "launcher", 2, (struct hwct_rect){ 0, 0, w, h }, HWC2_BLEND_MODE_PREMULTIPLIED);
	hm->status = make_layer(hm, "status-bar", 4, (struct hwct_rect){ 0, 0, w, hm->status_h },
		HWC2_BLEND_MODE_PREMULTIPLIED);
	hm->nav = make_layer(hm, "navigation-bar", 5, (struct hwct_rect){ 0, h - hm->nav_h, w, h },
		HWC2_BLEND_MODE_PREMULTIPLIED);
	if (!hm->app || !hm->status || !hm->nav) {
		return -errno;
	}
	draw_app(hm);
	draw_status_static(hm);
	draw_nav(hm);
	hm->row_h = 24 * hm->ts;
	hm->strip = pattern_image_create(PATTERN_RGBA8888, (uint32_t)(hm->list.right - hm->list.left),
		(uint32_t)((hm->list.bottom - hm->list.top) / hm->row_h + 2) * (uint32_t)hm->row_h);
	if (!hm->strip) {
		return -errno;
	}
	draw_list(hm);
	return 0;
}

int scenario_home(struct hwct_writer *w, const struct scenario_options *opts)
{
	struct session_config cfg = {
		.name = "home",
		.width = opts->width,
		.height = opts->height,
		.vsync_period_ns = 16666667,
		.dpi = (int32_t)(opts->width * 420000 / 1080),
		.device = { .planes = 4, .solid_color = false, .yuv = true },
		.note = "Home screen: wallpaper, launcher with a spinner and a flung feed, a fading toast, "
			"status bar with a ticking clock, navigation bar.",
	};
	struct home hm = { .w = opts->width, .h = opts->height };
	int ret;

	if (opts->width < 120 || opts->height < 240 || opts->width > 4096 || opts->height > 4096) {
		return -EINVAL;
	}
	hm.ts = (int32_t)opts->width / 270 > 1 ? (int32_t)opts->width / 270 : 1;
	hm.status_h = 24 * hm.ts;
	hm.nav_h = 36 * hm.ts;
	hm.s = session_create(w, &cfg);
	if (!hm.s) {
		return -errno;
	}
	ret = setup(&hm);
	for (uint32_t f = 0; f < opts->frames && ret == 0; f++) {
		ret = step(&hm, f);
		ret = ret ? ret : session_frame(hm.s);
	}
	pattern_image_destroy(hm.strip);
	if (ret == 0) {
		return session_destroy(hm.s);
	}
	session_destroy(hm.s);
	return ret;
}
