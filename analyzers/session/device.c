/* The scenarios' composition rule (device.h). */
#include <stdio.h>

#include <hardware/hwcomposer2.h>

#include "device.h"

static bool needs_client(const struct device_rules *rules, const struct device_layer *l)
{
	switch (l->requested) {
	case HWC2_COMPOSITION_DEVICE:
	case HWC2_COMPOSITION_CURSOR:
		return l->yuv && !rules->yuv;
	case HWC2_COMPOSITION_SOLID_COLOR:
		return !rules->solid_color;
	default:
		return true;
	}
}

size_t device_decide(const struct device_rules *rules, const struct device_layer *layers, size_t count,
	int32_t *types)
{
	size_t client = 0, changed = 0;

	for (size_t i = 0; i < count; i++) {
		if (needs_client(rules, &layers[i])) {
			client = i + 1;
		}
	}
	/* device layers + one plane for the client target when there is one */
	while (client < count && count - client + (client ? 1 : 0) > rules->planes) {
		client++;
	}
	for (size_t i = 0; i < count; i++) {
		types[i] = i < client ? HWC2_COMPOSITION_CLIENT : layers[i].requested;
		if (types[i] != layers[i].requested) {
			changed++;
		}
	}
	return changed;
}

void device_describe(const struct device_rules *rules, char *buf, size_t size)
{
	snprintf(buf, size,
		"%u planes (client target included); SOLID_COLOR %s; YUV %s; CLIENT layers form one run "
		"from the bottom, grown until the rest fits",
		rules->planes, rules->solid_color ? "on a plane" : "to CLIENT",
		rules->yuv ? "on a plane" : "to CLIENT");
}
