/*
 * What an Android trace file holds, told from its bytes: a legacy Winscope
 * file (fixed64 magic of 8 letters in field 1: "LYRTRACE" layers,
 * "TNXTRACE" transactions, others named), or a Perfetto trace whose
 * packets carry Winscope data (TracePacket field 93 layer snapshots, 94
 * transactions; 96, 97, 104, 105, 112 other Winscope data, counted and
 * named). docs/import.md lists the numbers.
 */
#ifndef HWCT_IMPORT_KIND_H
#define HWCT_IMPORT_KIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum imp_kind {
	IMP_UNKNOWN,			/* none of the below: maybe a lone layer dump (no magic) */
	IMP_LAYERS,			/* a SurfaceFlinger layer trace */
	IMP_TRANSACTIONS,		/* a SurfaceFlinger transaction trace */
	IMP_OTHER,			/* another Winscope trace: what names it */
};

struct imp_class {
	enum imp_kind kind;
	bool perfetto;			/* a Perfetto trace (else legacy or unknown) */
	uint64_t packets;		/* Perfetto: packets read */
	uint64_t entries;		/* layer snapshots / transaction entries found */
	char what[256];			/* "SurfaceFlinger layer trace (legacy, magic LYRTRACE)", ... */
};

/* Classifies data (size bytes, borrowed) into *c. Never fails: damage shows as IMP_UNKNOWN or as far as it reads. */
void imp_classify(const uint8_t *data, size_t size, struct imp_class *c);

/* "layer trace", "transaction trace", "other Winscope trace", "unknown": static text. */
const char *imp_kind_name(enum imp_kind kind);

#endif
