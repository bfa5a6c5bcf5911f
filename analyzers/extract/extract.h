/*
 * `hwc-trace extract`: one display frame's buffers as PNG files, a composed
 * preview and a frame.json, in a directory written only through its
 * descriptor (common/safe_dir.h, which also opens it). extract_image.c
 * converts and encodes images, extract_frame.c does the frame,
 * cmd_extract.c the command.
 * Built with libpng and json-c (HWCT_HAVE_EXTRACT).
 */
#ifndef HWCT_ANALYZERS_EXTRACT_H
#define HWCT_ANALYZERS_EXTRACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hwct/error.h>
#include <hwct/reader.h>

#include "scene.h"

struct json_object;

/* An 8-bit RGBA picture, rows of width * 4 bytes, straight as stored. */
struct extract_rgba {
	uint32_t width, height;
	uint8_t *pixels;		/* owned, free() */
};

/*
 * Converts img to RGBA8: ABGR8888/XBGR8888 (Android RGBA/RGBX), ARGB8888/
 * XRGB8888 (BGRA/BGRX), BGR888, RGB888, RGB565 and NV12 (BT.601 limited
 * range, as the compositors read it). X bytes become 255; alpha is copied,
 * premultiplied or not as the buffer held it. Returns 0, -ENOTSUP for
 * another format, -EINVAL when the data is smaller than the layout, or
 * -ENOMEM.
 */
int extract_to_rgba(const struct scene_image *img, struct extract_rgba *out);

/* Writes img as an 8-bit RGBA PNG. Returns 0 or -EIO. */
int extract_png_write(FILE *f, const struct extract_rgba *img);

/* The four characters of a DRM fourcc ("AB24") into buf[5]; "????" for 0. */
const char *extract_fourcc_name(uint32_t fourcc, char buf[5]);


struct extract_result {
	unsigned files;			/* files written (PNG and frame.json) */
	unsigned failures;		/* images that could not be made or written (said on stderr) */
	struct json_object *report;	/* frame.json's content, owned (json_object_put) */
	struct hwct_error error;	/* a read error (file and offset), code 0 none */
};

/*
 * Extracts FrameEnd.frame `frame` of r into dirfd: layer-<z>-<id>.png per
 * layer with content, client-target.png when captured, preview.png (the
 * whole stack composed by pixman) and frame.json. Returns 0 (see
 * out->failures), -ERANGE when there is no such frame, or -errno (read
 * error in out->error, or -ENOMEM).
 */
int extract_frame(struct hwct_reader *r, uint64_t frame, int dirfd, struct extract_result *out);

#endif
