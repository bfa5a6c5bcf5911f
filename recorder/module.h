/*
 * The two ways in. (a) libhwc-record.so is itself an HWC2 module: its HMI
 * opens the real module named by HWCT_REAL_MODULE (Android property
 * vendor.hwctrace.real_module) and wraps the device it opens. (b) Under
 * LD_PRELOAD, preload.c catches the load of any other hwcomposer module and
 * patches that module's HMI in place so its open() wraps the devices it
 * opens. Both end in rec_device_wrap().
 */
#ifndef REC_MODULE_H
#define REC_MODULE_H

#include <hardware/hardware.h>

#include "hot.h"

/* Our own module descriptor (exported as HMI). */
extern REC_EXPORT struct hw_module_t HAL_MODULE_INFO_SYM;

/*
 * Makes module's methods->open wrap the composer devices it opens, by
 * pointing module->methods at a table of ours (the module's HMI is writable:
 * libhardware itself writes hmi->dso). Does nothing for our own module, for
 * modules other than "hwcomposer", or when module is patched already.
 * path names the module in the trace.
 */
void rec_module_patch(struct hw_module_t *module, const char *path);

/* dlopen() of the C library, past our interposer (preload.c). */
void *rec_real_dlopen(const char *path, int flags);

/*
 * Keeps libhwc-record.so mapped until the process ends (a later dlclose()
 * does not unload it): threads that called us carry a thread-exit
 * destructor of ours (event.c). Best effort; logs nothing.
 */
void rec_pin_self(void);

#endif
