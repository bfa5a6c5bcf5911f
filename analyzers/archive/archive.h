/*
 * Zip archives read in memory (libzip): bugreports and Winscope archives
 * are opened where they lie, never extracted, and every entry that is read
 * is bounded (docs/import.md). Archives inside archives are opened in turn,
 * up to a nesting depth. Entry names are only names: a `../x` or `/x` entry
 * is looked at like any other and nothing is ever written under its name.
 */
#ifndef HWCT_ARCHIVE_H
#define HWCT_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/error.h>

struct arch_limits {
	uint64_t max_entry_bytes;	/* largest entry read, decompressed bytes */
	uint64_t max_total_bytes;	/* all entries read together (nested archives included), bytes */
	uint64_t max_entries;		/* entries of all archives together */
	unsigned max_depth;		/* archives opened one inside another: 1 = the outer one alone */
};

/* One entry of an archive, as the visitor sees it. */
struct arch_entry {
	const char *path;		/* "OUTER > INNER.zip > NAME": the chain, for messages */
	const char *name;		/* the entry's name inside its archive, verbatim */
	uint64_t size;			/* the decompressed size its archive claims, bytes */
	unsigned depth;			/* 1: an entry of the outer archive */
};

struct arch_visitor {
	/*
	 * Whether to read e: 1 read it, 0 pass over it, <0 stop the walk
	 * with that code (err filled by the callee). Entries named *.zip
	 * are read without asking, to look inside.
	 */
	int (*want)(const struct arch_entry *e, void *user);
	/*
	 * e's bytes (*data, size bytes, malloc'd). The callee may keep them
	 * by setting *data to NULL (it then owns them); otherwise they are
	 * freed on return. Returns 0 or <0 to stop the walk.
	 */
	int (*take)(const struct arch_entry *e, uint8_t **data, size_t size, void *user);
	void *user;
};

/* Fills l with the defaults: 1 GiB an entry, 4 GiB in all, 100000 entries, 4 archives deep. */
void arch_limits_init(struct arch_limits *l);

/* Whether data (size bytes, borrowed) starts like a zip archive (a local header or an empty archive's end record). */
bool arch_is_zip(const uint8_t *data, size_t size);

/*
 * Walks the zip archive in data (size bytes, borrowed; name used in
 * messages), calling v for each file entry (directories are passed over)
 * and opening entries that are zip archives themselves. Returns 0, a
 * visitor's code, or -errno with *err naming the archive chain, the entry
 * and the limit: -EINVAL a damaged archive (truncated, no central
 * directory, an entry that does not decompress to its declared size),
 * -EFBIG an entry or the total past the limits, -E2BIG too many entries,
 * -ELOOP archives nested deeper than the limit, -ENOMEM.
 */
int arch_walk(const uint8_t *data, size_t size, const char *name, const struct arch_limits *lim,
	const struct arch_visitor *v, struct hwct_error *err);

#endif
