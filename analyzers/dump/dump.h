/* Record printers of `hwc-trace dump`. */
#ifndef HWCT_ANALYZERS_DUMP_H
#define HWCT_ANALYZERS_DUMP_H

#include <stdbool.h>
#include <stdio.h>

#include <hwct/hwctrace.pb-c.h>

struct dump_options {
	bool verbose;		/* every field of Keyframes, full hashes and strings */
	bool no_blob_data;	/* leave out Blob.data */
};

/* Prints one record as one line of text (Keyframes more with verbose). */
void dump_text_record(FILE *f, const Hwct__Record *rec, const struct dump_options *opts);

/*
 * Prints one record as one JSON object on one line: {"kind": NAME, NAME:
 * {fields}}, NAME being the Record field ("call", "frame_end", ...).
 * Returns 0 or -ENOMEM.
 */
int dump_json_record(FILE *f, const Hwct__Record *rec, const struct dump_options *opts);

#endif
