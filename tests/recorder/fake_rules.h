/*
 * The fake HWC2 module's optional decision rule and display size, for
 * replays that must decide as a recording did (the round trip of the
 * reference traces, tests/recorder/roundtrip.sh):
 *
 *   FAKE_HWC2_RULES="planes=N,solid-color=0|1,yuv=0|1"
 *	validate decides with the scenarios' device rule (analyzers/session/
 *	device.h) instead of "plane alpha < 1 goes to CLIENT", and makes no
 *	requests and gives release fences for replaced buffers only (as the
 *	scenarios' device);
 *   FAKE_HWC2_SIZE="WxH"
 *	the display's mode instead of FAKE_WIDTH x FAKE_HEIGHT.
 *
 * Both are read at open; malformed values are ignored with a message.
 */
#ifndef HWCT_TEST_FAKE_RULES_H
#define HWCT_TEST_FAKE_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "device.h"

struct fake_rules {
	bool on;			/* FAKE_HWC2_RULES was given */
	struct device_rules rules;
	uint32_t width, height;		/* the display's mode */
};

/* Fills r from the environment (defaults: off, FAKE_WIDTH x FAKE_HEIGHT). */
void fake_rules_read(struct fake_rules *r);

#endif
