/* A recorded composition type as a decision (decision.h). */
#include "decision.h"

#include <hardware/hwcomposer2.h>

int hwct_decision_on_device(int32_t composition)
{
	switch (composition) {
	case HWC2_COMPOSITION_CLIENT:
		return 0;
	case HWC2_COMPOSITION_DEVICE:
	case HWC2_COMPOSITION_SOLID_COLOR:
	case HWC2_COMPOSITION_CURSOR:
	case HWC2_COMPOSITION_SIDEBAND:
	case HWC2_COMPOSITION_DISPLAY_DECORATION:
		return 1;
	default:
		return -1;
	}
}
