/*
 * REC_HOT marks the functions of the hot path (call.h): the compiler puts
 * them in .text.hot, which the linker places together. A call made after
 * the host touched megabytes (a composer draws between frames) finds the
 * recorder's code cold; grouped, it spans a few pages instead of a dozen
 * spread over the library, so fewer TLB misses (each a page walk, nested
 * under a hypervisor) and no lines shared with cold code.
 */
#ifndef REC_HOT_H
#define REC_HOT_H

#include <stdint.h>

#if defined(__GNUC__)
#define REC_HOT __attribute__((hot))
#else
#define REC_HOT
#endif

/*
 * REC_NO_IPA: a function the compiler neither inlines nor clones per
 * constant argument: a body shared by several generated wrappers
 * (gen-wrappers.py) stays one copy.
 */
#if defined(__clang__)
#define REC_NO_IPA __attribute__((noinline))
#elif defined(__GNUC__)
#define REC_NO_IPA __attribute__((noipa))
#else
#define REC_NO_IPA
#endif

/*
 * The recorder is compiled with hidden visibility (recorder/meson.build):
 * its functions bind inside the library, so the compiler may inline one
 * into another in the same file and reaches globals without the GOT.
 * REC_EXPORT marks the few symbols a host links to (libhwc-record.map
 * lists the same ones).
 */
#if defined(__GNUC__)
#define REC_EXPORT __attribute__((visibility("default")))
#else
#define REC_EXPORT
#endif

/*
 * A cache line. Fields written by different threads sit on different lines
 * (_Alignas(REC_LINE)): a line written by the worker and read by a call
 * costs the call a transfer from the other core, each time.
 */
#define REC_LINE 64

/*
 * REC_PREFETCH_CODE(fn): asks for the first line of function fn's code
 * without waiting for it (x86: a prefetch into the second-level cache, which
 * also fills the TLB that code and data share; arm64: an instruction preload
 * hint). The compilers drop __builtin_prefetch of a function's address, so
 * it is an instruction of its own. Elsewhere nothing.
 */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define REC_PREFETCH_CODE(fn) __asm__ volatile("prefetcht1 %0" : : "m"(*(const char *)(uintptr_t)(fn)))
#elif defined(__GNUC__) && defined(__aarch64__)
#define REC_PREFETCH_CODE(fn) __asm__ volatile("prfm plil2keep, %0" : : "Q"(*(const char *)(uintptr_t)(fn)))
#else
#define REC_PREFETCH_CODE(fn) ((void)(fn))
#endif

#endif
