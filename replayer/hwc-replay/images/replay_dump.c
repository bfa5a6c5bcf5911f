/*
 * --dump-images: each output frame as frame-NNNNNN.png, and for a checksum
 * mismatch against known-good results the -expected/-actual/-diff trio
 * (replay_session.h). Names are made here from frame numbers, never taken
 * from the trace; files go in only through the directory's descriptor
 * (common/safe_dir.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay_png.h"
#include "replay_session.h"
#include "safe_dir.h"

static int write_png(FILE *f, void *ctx)
{
	return replay_png_write(f, ctx);
}

static int dump(struct replay_session *s, const char *name, const struct comp_target *img)
{
	return safe_dir_write(s->dump_dir, name, write_png, (void *)img);
}

int replay_dump_frame(struct replay_session *s, uint64_t frame, const struct comp_target *img, char name[65])
{
	snprintf(name, 65, "frame-%06" PRIu64 ".png", frame);
	return dump(s, name, img);
}

/* Reads the expected picture images_dir/name (a name of ours, checked on load). Returns 0 or -errno. */
static int read_expected(const struct replay_expect *e, const char *name, struct comp_target *img)
{
	int dir = open(e->images_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd, ret;
	FILE *f;

	if (dir < 0) {
		return -errno;
	}
	fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ret = fd < 0 ? -errno : 0;
	close(dir);
	if (ret < 0) {
		return ret;
	}
	f = fdopen(fd, "rb");
	if (!f) {
		ret = -errno;
		close(fd);
		return ret;
	}
	ret = replay_png_read(f, img);
	fclose(f);
	return ret;
}

void replay_dump_mismatch(struct replay_session *s, const struct replay_expect_frame *expected,
	const struct comp_target *actual)
{
	struct comp_target want, diff = { 0 };
	char name[96];
	int ret;

	if (s->dump_dir < 0 || !expected || !expected->image[0] || !s->expect->images_dir ||
		s->trios >= REPLAY_MAX_TRIOS) {
		return;
	}
	s->trios++;
	ret = read_expected(s->expect, expected->image, &want);
	if (ret < 0) {
		replay_note(s->opts->quiet, "frame %" PRIu64 ": expected picture %s/%s: %s", expected->frame,
			s->expect->images_dir, expected->image, strerror(-ret));
		return;
	}
	ret = replay_image_diff(actual, &want, &diff);
	snprintf(name, sizeof(name), "frame-%06" PRIu64 "-expected.png", expected->frame);
	ret = ret ? ret : dump(s, name, &want);
	snprintf(name, sizeof(name), "frame-%06" PRIu64 "-actual.png", expected->frame);
	ret = ret ? ret : dump(s, name, actual);
	snprintf(name, sizeof(name), "frame-%06" PRIu64 "-diff.png", expected->frame);
	ret = ret ? ret : dump(s, name, &diff);
	if (ret < 0) {
		replay_note(s->opts->quiet, "frame %" PRIu64 ": mismatch pictures: %s", expected->frame,
			strerror(-ret));
	}
	free(want.data);
	free(diff.data);
}
