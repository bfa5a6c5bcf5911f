/*
 * Finding the traces in what a user gives `hwc-trace import`: a trace file,
 * a zip archive (a bugreport, a Winscope archive, archives inside it) read
 * in memory, or a folder (its files and the archives among them), and
 * choosing the one to import (docs/import.md).
 */
#ifndef HWCT_IMPORT_FIND_H
#define HWCT_IMPORT_FIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/error.h>

#include "archive.h"
#include "import_kind.h"

/* One file or archive entry looked at. */
struct imp_source {
	char *path;			/* owned: "IN", "IN > ENTRY", "DIR/FILE > ENTRY" */
	struct imp_class cls;
	bool generated;			/* a layer trace generated from transactions (by its name) */
	uint8_t *data;			/* owned, layer and transaction traces only (else NULL) */
	size_t size;			/* bytes */
};

struct imp_found {
	struct imp_source *sources;	/* owned, in the order found */
	size_t count;
	size_t cap;
	bool container;			/* IN was an archive or a folder (else a lone file) */
	uint64_t passed;		/* entries and files passed over by their names */
};

/* What to import: */
enum imp_pick {
	IMP_PICK_AUTO,			/* recorded layers, else generated layers, else transactions */
	IMP_PICK_LAYERS,		/* a recorded layer trace */
	IMP_PICK_GENERATED,		/* a layer trace generated from transactions */
	IMP_PICK_TRANSACTIONS,		/* a transaction trace */
	IMP_PICK_NAME,			/* the source whose path ends with a given name */
};

/*
 * Looks at in_path (a file, an archive or a folder) within lim (NULL: the
 * defaults) and fills f (call imp_found_finish() either way), reading at
 * most max_input bytes of a file. Returns 0 or -errno with *err naming the
 * file, the archive entry and the limit.
 */
int imp_find(const char *in_path, const struct arch_limits *lim, uint64_t max_input, struct imp_found *f,
	struct hwct_error *err);

/*
 * The source to import under pick (name: for IMP_PICK_NAME), or NULL when
 * none fits; *why is set to a static text saying why it was chosen.
 */
const struct imp_source *imp_choose(const struct imp_found *f, enum imp_pick pick, const char *name,
	const char **why);

/* Frees what f holds. */
void imp_found_finish(struct imp_found *f);

/* Whether a file or entry name is one a trace may have (.pb, .winscope, .perfetto-trace, ..., or under wmtrace/). */
bool imp_trace_name(const char *name);

#endif
