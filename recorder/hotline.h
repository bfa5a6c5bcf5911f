/*
 * The process-wide pointers every wrapped call reads first: the recorder,
 * the pool of the thread that called last, and the registry of wrapped
 * devices, on two adjacent cache lines of one page. A composer's first call
 * of a frame finds them cold; kept as separate globals they were four lines
 * on two pages, read one after the other (the recorder before its
 * `recording`, the registry before each device), where these two lines are
 * asked for together and each pointer they hold then leads to its own line
 * (recorder/README.md, "What each call class costs, and why").
 */
#ifndef REC_HOTLINE_H
#define REC_HOTLINE_H

#include <stdatomic.h>

#include "hot.h"

#define REC_MAX_DEVICES 6	/* wrapped devices open at once (keys[] fills the first line) */

struct recorder;
struct rec_event_pool;
struct rec_device;

struct rec_hotline {
	/* line 0 */
	_Atomic(struct recorder *) recorder;	/* recorder.c, rec_get(); NULL before the first device */
	_Atomic(struct rec_event_pool *) hint;	/* event.c: the pool of the thread that called last */
	_Atomic(const void *) keys[REC_MAX_DEVICES];	/* device.c: the hwc2_device_t of devices[i], NULL free */
	/* line 1 */
	_Alignas(REC_LINE) _Atomic(struct rec_device *) devices[REC_MAX_DEVICES];	/* device.c, owned there */
	atomic_uint info_needed;	/* display slots in REC_INFO_NEEDED (recorder.h); 0: a call looks at none */
};

/* The one of the process (hotline.c); zero-initialised. */
extern struct rec_hotline rec_hotline;

#endif
