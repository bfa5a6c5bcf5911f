/*
 * Perfetto traces (Android 13 and later record layer traces this way):
 * Trace { repeated TracePacket packet = 1 }, each packet one record of some
 * data source; the layer snapshots are TracePacket field 93
 * (surfaceflinger_layers_snapshot, a LayersSnapshotProto), whose fields
 * have the numbers and meaning of LayersTraceProto's (docs/winscope.md).
 * Every other packet is skipped and counted.
 */
#ifndef HWCT_WINSCOPE_PERFETTO_H
#define HWCT_WINSCOPE_PERFETTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "winscope_read.h"
#include "winscope_wire.h"

#define WS_PERFETTO_PACKET 1		/* Trace.packet */
#define WS_PERFETTO_LAYERS 93		/* TracePacket.surfaceflinger_layers_snapshot */

/*
 * Whether data (borrowed) looks like a Perfetto trace holding layer
 * snapshots: its top level is packets (field 1, length-delimited) and one of
 * them has field 93 (of any wire type). Tolerant: a truncated or damaged tail
 * does not hide the packets before it, so that ws_perfetto_walk() can name
 * the damage.
 */
bool ws_perfetto_detect(const uint8_t *data, size_t size);

/*
 * Walks the packets of wk's input, adding every snapshot's bytes to t as an
 * entry (*cap: t's capacity, as ws_trace_add()) and counting the packets
 * that hold none in t->packets_skipped. Returns 0 or -EINVAL / -ENOMEM with
 * wk->err naming the packet and offset.
 */
int ws_perfetto_walk(struct ws_trace *t, struct ws_walker *wk, size_t *cap);

#endif
