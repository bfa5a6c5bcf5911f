/* The scenarios, one file each, behind scenario_write() (scenario.c). */
#ifndef SCENARIO_SCENARIOS_H
#define SCENARIO_SCENARIOS_H

#include <hwct/writer.h>

#include "scenario.h"

/*
 * Each writes its session into w; opts has frames, width and height set.
 * Returns 0, -EINVAL for a size it cannot lay out, or -errno.
 */
int scenario_home(struct hwct_writer *w, const struct scenario_options *opts);
int scenario_video(struct hwct_writer *w, const struct scenario_options *opts);

#endif
