/* The scenario registry and the fixed writer options (scenario.h). */
#include <errno.h>
#include <string.h>

#include <hwct/format.h>

#include "scenarios.h"

#define STR_(x) #x
#define STR(x) STR_(x)

struct scenario_impl {
	const char *name;
	uint32_t default_frames;
	int (*write)(struct hwct_writer *w, const struct scenario_options *opts);
};

static const struct scenario_impl scenarios[] = {
	{ "home", 120, scenario_home },
	{ "video", 120, scenario_video },
};

static const char *const names[] = { "home", "video", NULL };

const char *const *scenario_names(void)
{
	return names;
}

static const struct scenario_impl *find(const char *name)
{
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		if (strcmp(scenarios[i].name, name) == 0) {
			return &scenarios[i];
		}
	}
	return NULL;
}

uint32_t scenario_default_frames(const char *name)
{
	const struct scenario_impl *impl = find(name);

	return impl ? impl->default_frames : 0;
}

void scenario_writer_options(struct hwct_writer_options *opts)
{
	hwct_writer_options_init(opts);
	/* no version of hwctrace itself: it would change the content on every release */
	opts->writer_name = "hwct-scenario (format " STR(HWCT_FORMAT_MAJOR) "." STR(HWCT_FORMAT_MINOR) ")";
	opts->record_level = 9;
	opts->pixel_level = 9;		/* also picks the predictors (predictor_choose) */
	opts->pixel_hash_log = 0;	/* level 9's own */
	opts->keyframe_interval = 30;
	opts->frame_target = 32u << 20;	/* blob frames cut only with record frames */
	opts->memory_budget = 1u << 30;	/* never reached: where frames are cut must not depend on timing */
	opts->workers = 2;
	opts->pixels = true;
}

int scenario_write(struct hwct_writer *w, const char *name, const struct scenario_options *opts)
{
	const struct scenario_impl *impl = find(name);
	struct scenario_options o = { 0 };

	if (!impl) {
		return -ENOENT;
	}
	if (opts) {
		o = *opts;
	}
	o.frames = o.frames ? o.frames : impl->default_frames;
	o.width = o.width ? o.width : 540;
	o.height = o.height ? o.height : 1200;
	return impl->write(w, &o);
}

int scenario_write_file(const char *path, const char *name, const struct scenario_options *opts)
{
	struct hwct_writer_options wo;
	struct hwct_writer *w;
	int ret;

	if (!find(name)) {
		return -ENOENT;
	}
	scenario_writer_options(&wo);
	w = hwct_writer_create(path, &wo);
	if (!w) {
		return -errno;
	}
	ret = scenario_write(w, name, opts);
	if (ret < 0) {
		hwct_writer_close(w);
		return ret;
	}
	return hwct_writer_close(w);
}
