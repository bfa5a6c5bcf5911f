/*
 * Scenario library: synthetic HWC2 sessions written as hwctrace traces, the
 * sources of the reference traces in traces/ (traces/README.md) and of
 * benchmark inputs. Everything a scenario writes is a function of its name
 * and options: two runs give the same records (the FileHeader's creation
 * time aside).
 */
#ifndef SCENARIO_H
#define SCENARIO_H

#include <stdint.h>

#include <hwct/writer.h>

struct scenario_options {
	uint32_t frames;		/* display frames; 0 = the scenario's default */
	uint32_t width, height;		/* display mode in pixels; 0 = 540 x 1200 */
};

/* The scenario names, NULL-terminated; static storage. */
const char *const *scenario_names(void);

/* The default frame count of a scenario, 0 when there is no such scenario. */
uint32_t scenario_default_frames(const char *name);

/*
 * Fills opts with the writer options every scenario trace is written with:
 * fixed, so that what is written depends on nothing else.
 */
void scenario_writer_options(struct hwct_writer_options *opts);

/*
 * Writes scenario `name` into w (borrowed; the caller closes it). opts may
 * be NULL for the defaults. Returns 0, -ENOENT for an unknown name, -EINVAL
 * for a size the scenario cannot lay out, or another -errno.
 */
int scenario_write(struct hwct_writer *w, const char *name, const struct scenario_options *opts);

/* Creates path with scenario_writer_options(), writes the scenario and closes it. Returns 0 or -errno. */
int scenario_write_file(const char *path, const char *name, const struct scenario_options *opts);

#endif
