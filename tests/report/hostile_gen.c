/*
 * Writes a trace whose every free-text field tries to inject markup or
 * script into a page that shows it: the Environment strings, its extra
 * key-values, the display name, the writer name and the Note; quotes,
 * "</script>", event-handler attributes, a very long string, invalid UTF-8.
 * The browser test (report_test.js) checks that the report of it shows
 * these strings as text and runs none of them.
 *
 * usage: hostile-gen OUT.zst
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <system/graphics.h>

#include "scenario.h"
#include "session.h"

#define LONG_SIZE 200000

static const char *const attacks[] = {
	"</script><script>window.__hwctPwned = 1</script>",
	"<img src=x onerror=\"window.__hwctPwned = 2\">",
	"\"'><svg onload=window.__hwctPwned=3>",
	"&lt;b&gt;entity&amp;text&#x3c;",
	"<!-- <script>window.__hwctPwned = 4</script> -->",
	"\u2028\u2029 line separators \\u003c",
	"invalid \xff\xfe utf-8 \xc0\xaf",
};

int main(int argc, char **argv)
{
	struct hwct_writer_options wo;
	Hwct__Environment env = HWCT__ENVIRONMENT__INIT;
	Hwct__KeyValue kv[2] = { HWCT__KEY_VALUE__INIT, HWCT__KEY_VALUE__INIT };
	Hwct__KeyValue *kvs[2] = { &kv[0], &kv[1] };
	struct session_config cfg = {
		.name = "hostile</script><script>window.__hwctPwned = 5</script>",
		.width = 320,
		.height = 240,
		.vsync_period_ns = 16666667,
		.dpi = 160000,
		.device = { .planes = 2, .solid_color = false, .yuv = false },
		.environment = &env,
		.display_name = attacks[1],
		.note = attacks[0],
	};
	struct session_layer_props props = {
		.composition = HWC2_COMPOSITION_DEVICE,
		.blend = HWC2_BLEND_MODE_PREMULTIPLIED,
		.plane_alpha = 1.0f,
		.dataspace = HAL_DATASPACE_V0_SRGB,
	};
	struct session_layer *layers[3];
	struct hwct_writer *w;
	struct session *s;
	char *long_text;
	int ret = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s OUT.zst\n", argv[0]);
		return 2;
	}
	long_text = malloc(LONG_SIZE + 1);
	if (!long_text) {
		return 1;
	}
	for (size_t i = 0; i < LONG_SIZE; i++) {
		long_text[i] = "<b>\"x'&"[i % 7];
	}
	long_text[LONG_SIZE] = '\0';
	env.source = (char *)attacks[0];
	env.host = (char *)attacks[1];
	env.process = (char *)attacks[2];
	env.kernel = (char *)attacks[3];
	env.machine = (char *)attacks[4];
	env.android_fingerprint = long_text;
	env.mesa_version = (char *)attacks[5];
	env.libdrm_version = (char *)attacks[6];
	env.hwc2_module = (char *)attacks[2];
	kv[0].key = (char *)attacks[0];
	kv[0].value = (char *)attacks[1];
	kv[1].key = (char *)"long";
	kv[1].value = long_text;
	env.n_extra = 2;
	env.extra = kvs;
	scenario_writer_options(&wo);
	wo.writer_name = attacks[2];
	w = hwct_writer_create(argv[1], &wo);
	if (!w) {
		perror(argv[1]);
		free(long_text);
		return 1;
	}
	s = session_create(w, &cfg);
	for (size_t i = 0; s && i < 3; i++) {
		struct pattern_image *img = pattern_image_create(PATTERN_RGBA8888, 160, 120);

		props.z = (int32_t)i + 1;
		props.display_frame = (struct hwct_rect){ (int32_t)i * 60, (int32_t)i * 40, (int32_t)i * 60 + 160,
			(int32_t)i * 40 + 120 };
		props.source_crop = (struct hwct_frect){ 0.0f, 0.0f, 160.0f, 120.0f };
		if (!img) {
			ret = -ENOMEM;
			break;
		}
		pattern_fill(img, (struct hwct_rect){ 0, 0, 160, 120 }, pattern_rgba((uint8_t)(80 * i), 200, 90, 255));
		layers[i] = session_layer_create(s, attacks[i], &props, img);
		if (!layers[i]) {
			pattern_image_destroy(img);
			ret = -errno;
			break;
		}
	}
	for (uint32_t f = 0; s && ret == 0 && f < 4; f++) {
		for (size_t i = 0; i < 3 && ret == 0; i++) {
			ret = session_layer_queue(layers[i], NULL, 0);
		}
		ret = ret ? ret : session_frame(s);
	}
	if (!s) {
		ret = -errno;
	} else {
		int end = session_destroy(s);

		ret = ret ? ret : end;
	}
	if (hwct_writer_close(w) < 0 && ret == 0) {
		ret = -EIO;
	}
	free(long_text);
	if (ret < 0) {
		fprintf(stderr, "hostile-gen: %s\n", strerror(-ret));
		return 1;
	}
	return 0;
}
