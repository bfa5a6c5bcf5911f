/* The implementation tables, each defined in its impl's file. */
#ifndef HWCT_COMP_IMPLS_H
#define HWCT_COMP_IMPLS_H

#include "hwct_config.h"
#include "compositor.h"

/* pixman.c: the CPU reference. */
extern const struct compositor_impl comp_pixman_impl;

#if HWCT_HAVE_GL
/* gl.c: EGL + GLES2. */
extern const struct compositor_impl comp_gl_impl;
#endif

#endif
