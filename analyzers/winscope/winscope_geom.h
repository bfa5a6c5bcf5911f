/*
 * Where a layer lands: the display frame, source crop and transform
 * SurfaceFlinger sends to the composer, rebuilt from a LayerProto's
 * bounds, screen bounds and transforms (docs/winscope.md, "Geometry"); and
 * the dataspace names of ui/DebugUtils turned back into numbers.
 */
#ifndef HWCT_WINSCOPE_GEOM_H
#define HWCT_WINSCOPE_GEOM_H

#include <stdbool.h>
#include <stdint.h>

#include <hwct/frame.h>
#include <hwct/writer.h>

#include "winscope.pb-c.h"

/* x' = a x + c y + tx, y' = b x + d y + ty (ui::Transform's dsdx, dtdx, dsdy, dtdy). */
struct ws_matrix {
	double a, b, c, d, tx, ty;
};

struct ws_box {
	double left, top, right, bottom;
};

/* The display a layer stack is shown on. */
struct ws_view {
	struct ws_box viewport;		/* layer-stack space shown, non-empty */
	uint32_t width, height;		/* the display, pixels */
};

struct ws_placement {
	struct hwct_rect display_frame;	/* display pixels */
	struct hwct_frect source_crop;	/* buffer pixels (SOLID_COLOR: the frame's size) */
	int32_t transform;		/* HAL_TRANSFORM_* */
	bool axis_aligned;		/* false: no HWC2 transform can show it (SurfaceFlinger asks CLIENT) */
};

/*
 * Places layer l on view. buffer_w/h are the buffer's size (0 for a colour
 * layer). Uses hwc_frame, hwc_crop and hwc_transform when the trace has
 * them, else derives them. Returns false when nothing of it is on the
 * display (or its transform is degenerate).
 */
bool ws_place(const Winscope__LayerProto *l, const struct ws_view *view, uint32_t buffer_w, uint32_t buffer_h,
	struct ws_placement *out);

/* Whether the layer-to-display transform of l keeps rectangles rectangles. */
bool ws_axis_aligned(const Winscope__LayerProto *l);

/*
 * The HAL_DATASPACE_* that ui/DebugUtils' dataspaceDetails() prints as s
 * ("Default", "BT709 sRGB Full range", ...). Returns false (and 0) for a
 * text it does not know.
 */
bool ws_dataspace_parse(const char *s, int32_t *out);

#endif
