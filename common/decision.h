/*
 * How a composition type recorded at the HWC2 boundary counts against a
 * replay's plan: the one rule hwc-replay's totals (recorded_agreement) and
 * hwc-trace diff's agreement report both apply (docs/results.md).
 */
#ifndef HWCT_COMMON_DECISION_H
#define HWCT_COMMON_DECISION_H

#include <stdint.h>

/*
 * 1 when composition (an HWC2_COMPOSITION_* value) means the device composed
 * the layer (DEVICE, SOLID_COLOR, CURSOR, SIDEBAND, DISPLAY_DECORATION), 0 for
 * CLIENT, -1 when it is no decision (INVALID, or a value HWC2 does not name).
 */
int hwct_decision_on_device(int32_t composition);

#endif
