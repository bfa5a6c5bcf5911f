/* Reading the fake module's rule and size (fake_rules.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_hwc2.h"
#include "fake_rules.h"

/* "key=N" items of list into the rules; false on anything else. */
static bool parse_rules(const char *list, struct device_rules *out)
{
	char copy[128], *save = NULL;

	if (strlen(list) >= sizeof(copy)) {
		return false;
	}
	strcpy(copy, list);
	*out = (struct device_rules){ .planes = 4 };
	for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		unsigned v;
		char key[32];

		if (sscanf(item, "%31[a-z-]=%u", key, &v) != 2) {
			return false;
		}
		if (strcmp(key, "planes") == 0 && v > 0) {
			out->planes = v;
		} else if (strcmp(key, "solid-color") == 0 && v <= 1) {
			out->solid_color = v;
		} else if (strcmp(key, "yuv") == 0 && v <= 1) {
			out->yuv = v;
		} else {
			return false;
		}
	}
	return true;
}

void fake_rules_read(struct fake_rules *r)
{
	const char *rules = getenv("FAKE_HWC2_RULES"), *size = getenv("FAKE_HWC2_SIZE");
	unsigned w, h;
	char end;

	*r = (struct fake_rules){ .width = FAKE_WIDTH, .height = FAKE_HEIGHT };
	if (rules && *rules) {
		r->on = parse_rules(rules, &r->rules);
		if (!r->on) {
			fprintf(stderr, "fake_hwc2: FAKE_HWC2_RULES=\"%s\" ignored (planes=N,solid-color=0|1,yuv=0|1)\n",
				rules);
		}
	}
	if (size && *size) {
		if (sscanf(size, "%ux%u%c", &w, &h, &end) == 2 && w > 0 && h > 0 && w <= 16384 && h <= 16384) {
			r->width = w;
			r->height = h;
		} else {
			fprintf(stderr, "fake_hwc2: FAKE_HWC2_SIZE=\"%s\" ignored (WxH)\n", size);
		}
	}
}
