/*
 * The input side: finds the entries of a layer trace and unpacks them.
 * Four shapes are accepted: a Perfetto trace whose packets carry layer
 * snapshots (winscope_perfetto.h), a LayersTraceFileProto (magic "LYRTRACE"
 * in field 1, entries in field 2), a lone LayersTraceProto (a dump), and a
 * lone LayersProto (the layers of a dump without the entry around them).
 */
#ifndef HWCT_WINSCOPE_READ_H
#define HWCT_WINSCOPE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/error.h>

#include "winscope.h"
#include "winscope.pb-c.h"

/* 'LYRT' | 'RACE' << 32: the fixed64 in field 1 of LayersTraceFileProto */
#define WS_MAGIC 0x454341525452594cull

enum ws_shape {
	WS_SHAPE_FILE,			/* LayersTraceFileProto */
	WS_SHAPE_ENTRY,			/* a LayersTraceProto alone */
	WS_SHAPE_LAYERS,		/* a LayersProto alone */
	WS_SHAPE_PERFETTO,		/* a Perfetto trace: entries are LayersSnapshotProto */
};

struct ws_entry {
	uint64_t offset;		/* byte offset of the entry's message in the input */
	size_t size;			/* its length in bytes */
	Winscope__LayersTraceProto *msg;	/* owned; never NULL after ws_trace_read() */
	bool shell;			/* msg was made around a lone LayersProto */
};

struct ws_trace {
	enum ws_shape shape;
	struct ws_entry *entries;	/* owned */
	size_t count;
	bool has_real_offset;
	uint64_t real_to_elapsed_ns;	/* LayersTraceFileProto field 3 */
	uint64_t packets;		/* Perfetto: packets in the trace */
	uint64_t packets_skipped;	/* Perfetto: packets without a layer snapshot */
};

/*
 * Appends an entry of size bytes at offset to t, growing t->entries (*cap
 * entries allocated). Returns 0, or -ENOMEM / -EINVAL (too many entries)
 * with err naming `name`.
 */
int ws_trace_add(struct ws_trace *t, size_t *cap, uint64_t offset, uint64_t size, const char *name,
	struct hwct_error *err);

/*
 * Parses data (borrowed) into t: walks the file wrapper by hand, then
 * unpacks every entry and checks the limits of opts. Returns 0, or -EINVAL
 * / -ENOMEM with err naming `name`, the offset and the entry. t is empty
 * after a failure.
 */
int ws_trace_read(struct ws_trace *t, const uint8_t *data, size_t size, const char *name,
	const struct winscope_options *opts, struct hwct_error *err);

/* Frees what t holds. */
void ws_trace_finish(struct ws_trace *t);

#endif
