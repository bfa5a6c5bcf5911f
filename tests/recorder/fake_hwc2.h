/* What the fake HWC2 module (fake_hwc2.c) reports, shared with the tests. */
#ifndef HWCT_TEST_FAKE_HWC2_H
#define HWCT_TEST_FAKE_HWC2_H

#define FAKE_DISPLAY 0x100000001ull		/* needs 64 bits */
#define FAKE_WIDTH 1080
#define FAKE_HEIGHT 2400
#define FAKE_VSYNC_PERIOD 16666666		/* ns, 60 Hz */
#define FAKE_NAME "fake-panel"
#define FAKE_DUMP "fake hwc2: 1 display\n"
#define FAKE_VENDOR_DESCRIPTOR 100		/* a descriptor the recorder does not know */

#endif
