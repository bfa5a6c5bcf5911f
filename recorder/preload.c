/*
 * LD_PRELOAD entry: interposes dlopen() (and libhardware's hw_get_module*()
 * where libhardware exists) to catch the load of an HWC2 module, and patches
 * the loaded module's HMI so that its open() wraps the device
 * (rec_module_patch). dlsym() is not interposed: the module's own HMI is
 * what the client finds, only its methods table changes, so every way of
 * reaching HMI (dlsym on the handle, hw_get_module, a static reference)
 * gets the wrapping.
 *
 * Limits (recorder/README.md): a bare file name passed to dlopen() is
 * searched as if libhwc-record.so had called dlopen (the caller's RUNPATH
 * is not used); on Android, linker namespaces are chosen by the caller's
 * address, so prefer the HAL-wrapper module there.
 */
#define _GNU_SOURCE	/* RTLD_NEXT, RTLD_NODELETE, dladdr(): GNU/bionic extensions, this file only */
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include <hardware/hwcomposer2.h>

#include "module.h"

typedef void *(*dlopen_fn)(const char *, int);
typedef int (*get_module_fn)(const char *, const struct hw_module_t **);
typedef int (*get_module_by_class_fn)(const char *, const char *, const struct hw_module_t **);

/* The next definition of name after ours, or NULL. */
static void *next_symbol(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

void *rec_real_dlopen(const char *path, int flags)
{
	static _Atomic(dlopen_fn) cached;
	dlopen_fn real = atomic_load(&cached);

	if (!real) {
		void *sym = next_symbol("dlopen");

		memcpy(&real, &sym, sizeof(real));	/* object to function pointer, as POSIX allows */
		atomic_store(&cached, real);
	}
	return real ? real(path, flags) : NULL;
}

void rec_pin_self(void)
{
	static const char here;	/* an address in this library (HMI may be interposed) */
	Dl_info info;

	if (dladdr(&here, &info) && info.dli_fname) {
		/* the handle is kept on purpose: RTLD_NODELETE makes the unload never happen */
		(void)rec_real_dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
	}
}

/* "hwcomposer.<anything>.so", whatever directory it is in. */
static bool is_hwc_module_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	return strncmp(base, "hwcomposer.", 11) == 0 && len > 14 && strcmp(base + len - 3, ".so") == 0;
}

REC_EXPORT void *dlopen(const char *path, int flags)
{
	void *handle = rec_real_dlopen(path, flags);

	if (handle && path && is_hwc_module_name(path)) {
		rec_module_patch(dlsym(handle, HAL_MODULE_INFO_SYM_AS_STR), path);
	}
	return handle;
}

/* The file a module was loaded from, for the trace. */
static const char *module_file(const struct hw_module_t *module)
{
	Dl_info info;

	return dladdr(module, &info) && info.dli_fname ? info.dli_fname : "(hw_get_module)";
}

REC_EXPORT int hw_get_module(const char *id, const struct hw_module_t **module)
{
	void *sym = next_symbol("hw_get_module");
	get_module_fn real;
	int ret;

	if (!sym) {
		return -ENOENT;	/* no libhardware in this process */
	}
	memcpy(&real, &sym, sizeof(real));
	ret = real(id, module);
	if (ret == 0 && module && *module && id && strcmp(id, HWC_HARDWARE_MODULE_ID) == 0) {
		rec_module_patch((struct hw_module_t *)*module, module_file(*module));
	}
	return ret;
}

REC_EXPORT int hw_get_module_by_class(const char *class_id, const char *inst, const struct hw_module_t **module)
{
	void *sym = next_symbol("hw_get_module_by_class");
	get_module_by_class_fn real;
	int ret;

	if (!sym) {
		return -ENOENT;
	}
	memcpy(&real, &sym, sizeof(real));
	ret = real(class_id, inst, module);
	if (ret == 0 && module && *module && class_id &&
			strcmp(class_id, HWC_HARDWARE_MODULE_ID) == 0) {
		rec_module_patch((struct hw_module_t *)*module, module_file(*module));
	}
	return ret;
}

#ifdef __ANDROID__
/* libhardware loads vendor modules with android_load_sphal_library -> android_dlopen_ext. */
REC_EXPORT void *android_dlopen_ext(const char *path, int flags, const void *extinfo);
REC_EXPORT void *android_dlopen_ext(const char *path, int flags, const void *extinfo)
{
	typedef void *(*dlopen_ext_fn)(const char *, int, const void *);
	void *sym = next_symbol("android_dlopen_ext");
	dlopen_ext_fn real;
	void *handle;

	if (!sym) {
		return NULL;
	}
	memcpy(&real, &sym, sizeof(real));
	handle = real(path, flags, extinfo);
	if (handle && path && is_hwc_module_name(path)) {
		rec_module_patch(dlsym(handle, HAL_MODULE_INFO_SYM_AS_STR), path);
	}
	return handle;
}
#endif
