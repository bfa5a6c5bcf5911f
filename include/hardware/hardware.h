/*
 * Android HAL module loading ABI (libhardware <hardware/hardware.h>).
 *
 * Written for hwctrace from the public AOSP definitions, for binary
 * compatibility only: the type, field and macro names and all numbers match
 * AOSP, the text is our own. Layouts are checked by tests/abi/layout_test.c
 * (docs/platform.md §1.1-1.2).
 */
#ifndef HWCT_COMPAT_HARDWARE_HARDWARE_H
#define HWCT_COMPAT_HARDWARE_HARDWARE_H

#include <stdint.h>

#include <cutils/native_handle.h>
#include <system/graphics.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Four characters packed big-end first into a uint32_t tag. */
#define MAKE_TAG_CONSTANT(a, b, c, d) \
	(((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))

#define HARDWARE_MODULE_TAG MAKE_TAG_CONSTANT('H', 'W', 'M', 'T')	/* 0x48574d54 */
#define HARDWARE_DEVICE_TAG MAKE_TAG_CONSTANT('H', 'W', 'D', 'T')	/* 0x48574454 */

/* 16-bit version word: major in bits 15..8, minor in bits 7..0. */
#define HARDWARE_MAKE_API_VERSION(maj, min) \
	((((maj) & 0xff) << 8) | ((min) & 0xff))
/* 32-bit version word: major 31..24, minor 23..16, header version 15..0. */
#define HARDWARE_MAKE_API_VERSION_2(maj, min, hdr) \
	((((maj) & 0xff) << 24) | (((min) & 0xff) << 16) | ((hdr) & 0xffff))
#define HARDWARE_API_VERSION_2_MAJ_MIN_MASK 0xffff0000
#define HARDWARE_API_VERSION_2_HEADER_MASK 0x0000ffff

#define HARDWARE_HAL_API_VERSION HARDWARE_MAKE_API_VERSION(1, 0)
#define HARDWARE_MODULE_API_VERSION(maj, min) HARDWARE_MAKE_API_VERSION(maj, min)
#define HARDWARE_MODULE_API_VERSION_2(maj, min, hdr) HARDWARE_MAKE_API_VERSION_2(maj, min, hdr)
#define HARDWARE_DEVICE_API_VERSION(maj, min) HARDWARE_MAKE_API_VERSION(maj, min)
#define HARDWARE_DEVICE_API_VERSION_2(maj, min, hdr) HARDWARE_MAKE_API_VERSION_2(maj, min, hdr)

struct hw_module_t;
struct hw_module_methods_t;
struct hw_device_t;

/*
 * The exported module descriptor. A module .so exports one of these under the
 * symbol HAL_MODULE_INFO_SYM ("HMI"); the loader checks tag and id.
 * LP64: 248 bytes, methods at 32. ILP32: 128 bytes, methods at 20.
 */
typedef struct hw_module_t {
	uint32_t tag;			/* HARDWARE_MODULE_TAG */
	uint16_t module_api_version;	/* HARDWARE_MODULE_API_VERSION() of the module */
	uint16_t hal_api_version;	/* HARDWARE_HAL_API_VERSION */
	const char *id;			/* e.g. HWC_HARDWARE_MODULE_ID, borrowed static string */
	const char *name;		/* human-readable, borrowed static string */
	const char *author;		/* borrowed static string */
	struct hw_module_methods_t *methods;	/* never NULL in a valid module */
	void *dso;			/* dlopen() handle, filled in by the loader */
#if defined(__LP64__)
	uint64_t reserved[32 - 7];	/* padding to 32 machine words, zero */
#else
	uint32_t reserved[32 - 7];
#endif
} hw_module_t;

/*
 * AOSP also #defines version_major/version_minor as aliases of the two
 * version fields; they are left out here because such macros would rename
 * any identifier of that name in every file that includes this header.
 */

typedef struct hw_module_methods_t {
	/*
	 * Opens device `id` of `module`. On success returns 0 and stores a
	 * device the caller owns (release it with device->close). Returns a
	 * negative errno on failure.
	 */
	int (*open)(const struct hw_module_t *module, const char *id,
		struct hw_device_t **device);
} hw_module_methods_t;

/*
 * Header every HAL device struct begins with.
 * LP64: 120 bytes, close at 112. ILP32: 64 bytes, close at 60.
 */
typedef struct hw_device_t {
	uint32_t tag;			/* HARDWARE_DEVICE_TAG */
	uint32_t version;		/* device API version, e.g. HWC_DEVICE_API_VERSION_2_0 */
	struct hw_module_t *module;	/* module that opened this device, borrowed */
#if defined(__LP64__)
	uint64_t reserved[12];		/* zero */
#else
	uint32_t reserved[12];
#endif
	/* Frees the device; returns 0 or a negative errno. */
	int (*close)(struct hw_device_t *device);
} hw_device_t;

/* Cast used when passing a typed device pointer-pointer to methods->open(). */
#define TO_HW_DEVICE_T_OPEN(x) ((struct hw_device_t **)(x))

/* The module descriptor's symbol name, and the same as a string for dlsym(). */
#define HAL_MODULE_INFO_SYM HMI
#define HAL_MODULE_INFO_SYM_AS_STR "HMI"

/*
 * Android's libhardware loader entry points. hwctrace does not implement
 * them; they exist on the device. Return 0 and store a borrowed module
 * pointer on success, a negative errno otherwise.
 */
int hw_get_module(const char *id, const struct hw_module_t **module);
int hw_get_module_by_class(const char *class_id, const char *inst,
	const struct hw_module_t **module);

#ifdef __cplusplus
}
#endif

#endif
