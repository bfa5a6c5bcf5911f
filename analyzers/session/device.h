/*
 * The scenarios' stand-in composer: a deterministic rule deciding which
 * layers the device scans out and which go to the client target, so traces
 * carry both kinds of decision (getChangedCompositionTypes).
 */
#ifndef SCENARIO_DEVICE_H
#define SCENARIO_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct device_rules {
	unsigned planes;		/* hardware planes, the client target's included */
	bool solid_color;		/* SOLID_COLOR layers can stay SOLID_COLOR */
	bool yuv;			/* planes scan out YUV buffers */
};

struct device_layer {
	int32_t requested;		/* HWC2_COMPOSITION_* the client set */
	bool yuv;			/* the buffer is a YUV format */
};

/*
 * Decides the composition type of each of count layers, given bottom to top
 * (ascending z), into types[]:
 * - CLIENT stays CLIENT; SOLID_COLOR becomes CLIENT unless rules->solid_color;
 *   a YUV buffer becomes CLIENT unless rules->yuv; unknown types become CLIENT;
 * - CLIENT layers are made one contiguous run from the bottom (the client
 *   target is one plane under the rest), growing it until the device layers
 *   plus the client target fit rules->planes.
 * Returns the number of layers whose type differs from the request.
 */
size_t device_decide(const struct device_rules *rules, const struct device_layer *layers, size_t count,
	int32_t *types);

/* Describes rules in one line (for the Environment record) into buf of size bytes. */
void device_describe(const struct device_rules *rules, char *buf, size_t size);

#endif
