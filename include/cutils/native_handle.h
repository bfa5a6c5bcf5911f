/*
 * Android native_handle_t (libcutils <cutils/native_handle.h>): the
 * fd-and-int bundle gralloc buffers and sideband streams travel in.
 *
 * Written for hwctrace from the public AOSP definitions, for binary
 * compatibility only: names and layout match AOSP, the text is our own.
 * Only the type is provided; libcutils' native_handle_*() functions are not.
 */
#ifndef HWCT_COMPAT_CUTILS_NATIVE_HANDLE_H
#define HWCT_COMPAT_CUTILS_NATIVE_HANDLE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Upper bounds libcutils enforces on numFds and numInts. */
#define NATIVE_HANDLE_MAX_FDS 1024
#define NATIVE_HANDLE_MAX_INTS 1024

/*
 * A 12-byte header followed by numFds file descriptors and then numInts
 * opaque ints (data[0 .. numFds) are fds, data[numFds .. numFds+numInts) the
 * ints). AOSP declares data as a zero-length array; a C11 flexible array
 * member has the same layout. Because of it, embed a native_handle_t in
 * another struct only by pointer (ISO C forbids it as a non-final member).
 */
typedef struct native_handle {
	int version;	/* sizeof(native_handle_t), i.e. 12 */
	int numFds;	/* number of fds at data[0] */
	int numInts;	/* number of ints after the fds */
	int data[];	/* numFds + numInts entries */
} native_handle_t;

/* A gralloc buffer as HWC2 sees it; the handle is owned by the caller. */
typedef const native_handle_t *buffer_handle_t;

#ifdef __cplusplus
}
#endif

#endif
