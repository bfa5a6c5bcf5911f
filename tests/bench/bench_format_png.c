/*
 * bench-format's "png" metric (bench.h): stored pixel bytes held against
 * the PNG of the same images, encoded by libpng in the same run at its
 * default settings (goal <= 0.9 of it):
 *
 *  - the real screenshot: one payload, stored alone; the published PNG's
 *    file size is printed beside libpng's (the smaller is the baseline);
 *  - a UI-like sequence on that screenshot as wallpaper: a status-bar clock
 *    changing every frame, a notification card every 10 frames, the
 *    wallpaper scrolled once (a full-screen change), handed to the writer
 *    with their damage as the recorder does (deltas); baseline: the PNG of
 *    every full frame stored plus the PNG of every damaged rect.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hwct/format.h>
#include <hwct/writer.h>

#include "bench.h"
#include "hwct_bench_config.h"

#if HWCT_BENCH_HAVE_PNG
#include <png.h>

/* Bytes of the PNG of the w x h rect at (x, y) of an RGBA image of the given stride; 0 on failure. */
static size_t png_bytes(const uint8_t *rgba, uint32_t stride, uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
	png_image img;
	size_t cap = (size_t)w * h * 4 + (1u << 20), size = cap;
	void *mem = malloc(cap);

	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	img.width = w;
	img.height = h;
	img.format = PNG_FORMAT_RGBA;
	if (!mem || !png_image_write_to_memory(&img, mem, &size, 0, rgba + (size_t)y * stride + (size_t)x * 4,
			(png_int_32)stride, NULL)) {
		size = 0;
	}
	free(mem);
	return size;
}

/* The UI-like sequence's frame f into img (a copy of the wallpaper is in wall); its damage into rects. */
static size_t draw_frame(uint8_t *img, const struct bench_pixels *wall, uint32_t f, uint32_t frames,
	struct hwct_rect *rects, bool *full)
{
	uint32_t w = wall->width, h = wall->height, stride = w * 4;
	uint32_t scroll = f >= frames / 2 ? h / 8 : 0;
	size_t n = 0;

	*full = f == 0 || f == frames / 2;
	if (*full) {
		for (uint32_t y = 0; y < h; y++) {
			memcpy(img + (size_t)y * stride, wall->data + (size_t)((y + scroll) % h) * stride, stride);
		}
	}
	/* the clock: digits as white strokes whose places change every frame */
	if (h > 100 && w > 260) {
		struct hwct_rect clock = { 40, 24, 260, 84 };

		for (int32_t y = clock.top; y < clock.bottom; y++) {
			uint8_t *row = img + (size_t)y * stride;

			memcpy(row + clock.left * 4, wall->data + (size_t)((y + scroll) % h) * stride + clock.left * 4,
				(size_t)(clock.right - clock.left) * 4);
			for (int32_t x = clock.left; x < clock.right; x++) {
				uint32_t digit = (uint32_t)(x - clock.left) / 44, d = (f / (digit + 1) + digit * 3) % 10;
				uint32_t cx = (uint32_t)(x - clock.left) % 44, cy = (uint32_t)(y - clock.top);

				if ((cx < 6 && d % 2) || (cx > 30 && cx < 36 && d % 3) || (cy < 6 && d > 4) ||
						(cy > 26 && cy < 32 && d != 7) || (cy > 52 && d % 4 != 1)) {
					memset(row + (size_t)x * 4, 0xff, 3);
				}
			}
		}
		rects[n++] = clock;
	}
	/* a notification card, new every 10 frames: translucent grey with lines of "text" */
	if (f % 10 == 0 && h > 700) {
		struct hwct_rect card = { 24, 300, (int32_t)w - 24, 620 };

		for (int32_t y = card.top; y < card.bottom; y++) {
			uint8_t *row = img + (size_t)y * stride;
			const uint8_t *src = wall->data + (size_t)((y + scroll) % h) * stride;
			bool text = (y - card.top) % 40 > 12 && (y - card.top) % 40 < 28;

			for (int32_t x = card.left; x < card.right; x++) {
				uint8_t *p = row + (size_t)x * 4;
				bool ink = text && ((x * 7 + y / 40 * 13 + (int32_t)f) % 23) < 11 && x < card.right - 200;

				for (int c = 0; c < 3; c++) {
					p[c] = ink ? 30 : (uint8_t)((src[x * 4 + c] + 3u * 230u) / 4u);
				}
				p[3] = 255;
			}
		}
		rects[n++] = card;
	}
	return n;
}

void bench_png_sequence_bytes(const struct bench_pixels *px, const char *path, uint32_t frames, uint64_t *stored,
	size_t *png_out)
{
	size_t size = (size_t)px->width * px->height * 4, png = 0;
	uint32_t stride = px->width * 4;
	uint8_t *img = malloc(size);
	struct hwct_hash prev = { 0 }, hash;
	struct hwct_writer_options opts;
	struct hwct_writer *w;

	bench_writer_options(&opts);
	w = hwct_writer_create(path, &opts);

	if (!img || !w) {
		fprintf(stderr, "bench-format: png sequence: %s\n", strerror(errno ? errno : ENOMEM));
		exit(1);
	}
	for (uint32_t f = 0; f < frames; f++) {
		struct hwct_rect rects[4];
		bool full;
		size_t n = draw_frame(img, px, f, frames, rects, &full);
		struct hwct_blob_desc d = { .data = img, .size = size, .kind = HWCT_BLOB_PIXELS, .width = px->width,
			.height = px->height, .stride = stride, .bpp = 4 };

		if (full) {
			png += png_bytes(img, stride, 0, 0, px->width, px->height);
		} else {
			d.base = &prev;
			d.damage = rects;
			d.damage_count = n;
			for (size_t i = 0; i < n; i++) {
				png += png_bytes(img, stride, (uint32_t)rects[i].left, (uint32_t)rects[i].top,
					(uint32_t)(rects[i].right - rects[i].left), (uint32_t)(rects[i].bottom - rects[i].top));
			}
		}
		if (hwct_writer_add_blob(w, &d, HWCT_BLOB_WAIT, &hash) < 0) {
			fprintf(stderr, "bench-format: png sequence: add_blob failed\n");
			exit(1);
		}
		prev = hash;
	}
	if (hwct_writer_close(w) < 0 || bench_blob_frame_bytes(path, stored) < 0) {
		fprintf(stderr, "bench-format: png sequence: the trace could not be written or read\n");
		exit(1);
	}
	*png_out = png;
	free(img);
}

void bench_png_screenshot_bytes(const struct bench_pixels *px, const char *path, uint64_t *stored, size_t *png)
{
	size_t size = (size_t)px->width * px->height * 4;
	struct hwct_blob_desc d = { .data = px->data, .size = size, .kind = HWCT_BLOB_PIXELS, .width = px->width,
		.height = px->height, .stride = px->width * 4, .bpp = 4 };
	struct hwct_writer_options opts;
	struct hwct_writer *w;

	bench_writer_options(&opts);
	w = hwct_writer_create(path, &opts);
	*png = png_bytes(px->data, px->width * 4, 0, 0, px->width, px->height);
	if (!w || !*png || hwct_writer_add_blob(w, &d, HWCT_BLOB_WAIT, NULL) < 0 || hwct_writer_close(w) < 0 ||
			bench_blob_frame_bytes(path, stored) < 0) {
		fprintf(stderr, "bench-format: png: could not encode or store the picture\n");
		exit(1);
	}
}

void bench_png(const struct bench_pixels *px, const char *png_path, const char *path, bool quick)
{
	struct stat st;
	size_t published = png_path && stat(png_path, &st) == 0 && !quick ? (size_t)st.st_size : 0;
	size_t encoded, base, png;
	uint32_t frames = quick ? 6 : 60;
	uint64_t stored;

	bench_png_screenshot_bytes(px, path, &stored, &encoded);
	base = published && published < encoded ? published : encoded;
	bench_report("stored bytes, one screenshot vs PNG", (double)stored / 1e6, (double)base / 1e6, "MB",
		(double)stored / (double)base, 0.9, false);
	printf("  %s; libpng default encoding %.3f MB, published file %s%.3f MB%s; the smaller is the baseline\n",
		px->source, encoded / 1e6, published ? "" : "(n/a) ", published / 1e6, published ? "" : "");
	bench_png_sequence_bytes(px, path, frames, &stored, &png);
	bench_report("stored bytes, UI-like sequence with damage vs PNG", (double)stored / 1e6, (double)png / 1e6, "MB",
		(double)stored / (double)png, 0.9, false);
	printf("  %u frames: 2 full (first, wallpaper scrolled), %u with damage (clock every frame, a card "
		"every 10); baseline: libpng of each full frame and of each damaged rect\n", frames, frames - 2);
}
#else
void bench_png_sequence_bytes(const struct bench_pixels *px, const char *path, uint32_t frames, uint64_t *stored,
	size_t *png)
{
	(void)px;
	(void)path;
	(void)frames;
	*stored = 0;
	*png = 0;
}

void bench_png_screenshot_bytes(const struct bench_pixels *px, const char *path, uint64_t *stored, size_t *png)
{
	(void)px;
	(void)path;
	*stored = 0;
	*png = 0;
}

void bench_png(const struct bench_pixels *px, const char *png_path, const char *path, bool quick)
{
	(void)px;
	(void)png_path;
	(void)path;
	(void)quick;
	printf("stored bytes vs PNG: n/a (built without libpng)\n");
}
#endif
