/*
 * A transaction trace turned into a layer trace in memory (tnx.h): the
 * bytes of a LayersTraceFileProto whose entries are the rebuilt state at
 * the chosen times, for the layer-trace importer.
 */
#ifndef HWCT_TNX_IMPORT_H
#define HWCT_TNX_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include <hwct/error.h>

#include "tnx.h"

struct tnx_options {
	const int64_t *at;		/* elapsed-time ns to write the state at, ascending; NULL: after every entry */
	size_t at_count;
	uint32_t width, height;		/* the display's size, 0: inferred (the largest buffer) */
	uint32_t max_layers;		/* most layers alive at once */
};

struct tnx_report {
	uint64_t entries;		/* transaction entries read */
	uint64_t transactions;		/* transactions in them */
	uint64_t written;		/* layer trace entries written */
	uint32_t width, height;		/* display size used */
	bool size_inferred;		/* from the largest buffer (else given) */
	bool perfetto;
	uint64_t packets;		/* Perfetto: packets */
	int64_t first_ns, last_ns;	/* elapsed time of the first and last entry */
	struct tnx_gaps gaps;
};

/*
 * Rebuilds the transaction trace in data (size bytes, borrowed; name for
 * messages) and writes the layer trace into *out (malloc'd, *out_size
 * bytes; the caller frees it). rep may be NULL. Returns 0 or -EINVAL /
 * -ENOMEM / -E2BIG with *err naming the input.
 */
int tnx_import(const uint8_t *data, size_t size, const char *name, const struct tnx_options *opts,
	uint8_t **out, size_t *out_size, struct tnx_report *rep, struct hwct_error *err);

#endif
