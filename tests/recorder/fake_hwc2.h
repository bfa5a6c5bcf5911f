/* What the fake HWC2 module (fake_hwc2.c) reports, shared with the tests. */
#ifndef HWCT_TEST_FAKE_HWC2_H
#define HWCT_TEST_FAKE_HWC2_H

#define FAKE_DISPLAY 0x100000001ull		/* needs 64 bits */
#define FAKE_WIDTH 1080
#define FAKE_HEIGHT 2400
#define FAKE_VSYNC_PERIOD 16666666		/* ns, 60 Hz */
#define FAKE_NAME "fake-panel"
#define FAKE_DUMP "fake hwc2: 1 display\n"
#define FAKE_FOURCC_NV12 0x3231564eu		/* DRM_FORMAT_NV12 */
#define FAKE_VENDOR_DESCRIPTOR 100		/* a descriptor the recorder does not know */

/* FAKE_HWC2_MODE=displays: a second physical display, hotplugged after the first, and one virtual display. */
#define FAKE_DISPLAY_2 0x100000002ull
#define FAKE_WIDTH_2 1920
#define FAKE_HEIGHT_2 1080
#define FAKE_NAME_2 "fake-hdmi"
#define FAKE_VIRTUAL_DISPLAY 0x200000001ull	/* what createVirtualDisplay returns */

/* What getFunction leaves out with FAKE_HWC2_MODE=null-functions (an initializer). */
#define FAKE_NULL_FUNCTIONS { \
	HWC2_FUNCTION_GET_CLIENT_TARGET_PROPERTY, \
	HWC2_FUNCTION_GET_DISPLAY_CAPABILITIES, \
	HWC2_FUNCTION_GET_DISPLAY_CONNECTION_TYPE, \
	HWC2_FUNCTION_GET_DOZE_SUPPORT, \
	HWC2_FUNCTION_GET_HDR_CAPABILITIES, \
	HWC2_FUNCTION_GET_RENDER_INTENTS, \
	HWC2_FUNCTION_SET_CURSOR_POSITION, \
	HWC2_FUNCTION_SET_LAYER_COLOR, \
	FAKE_VENDOR_DESCRIPTOR, \
}

#endif
