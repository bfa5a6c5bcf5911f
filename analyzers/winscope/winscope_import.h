/*
 * What an import writes besides the frames: the session's configuration,
 * the Environment record (where the trace came from, the device dump it
 * carries) and the Note saying what was recorded and what synthesized.
 */
#ifndef HWCT_WINSCOPE_IMPORT_H
#define HWCT_WINSCOPE_IMPORT_H

#include "session.h"
#include "winscope.h"
#include "winscope_read.h"
#include "winscope_stack.h"

#define WS_META_EXTRA 16
#define WS_VSYNC_PERIOD_NS 16666667u	/* not in layer traces: 60 Hz assumed */

struct ws_meta {
	struct session_config config;	/* points into the rest */
	Hwct__Environment env;
	Hwct__KeyValue extra[WS_META_EXTRA];
	Hwct__KeyValue *extra_ptrs[WS_META_EXTRA];
	char *strings[WS_META_EXTRA + 2];	/* owned: the values, the source, the note */
};

/*
 * Fills m for the import of t (input `name`) on display d. Returns 0 or
 * -ENOMEM; m can be finished either way.
 */
int ws_meta_init(struct ws_meta *m, const struct ws_trace *t, const struct ws_display *d,
	const struct winscope_report *rep, const struct ws_stack *stacks, const char *name, const char *origin_note);

/* Frees the strings of m. */
void ws_meta_finish(struct ws_meta *m);

#endif
