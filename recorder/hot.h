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
 * A cache line. Fields written by different threads sit on different lines
 * (_Alignas(REC_LINE)): a line written by the worker and read by a call
 * costs the call a transfer from the other core, each time.
 */
#define REC_LINE 64

#endif
