/*
 * Facts about a layer-trace fixture, read straight from the protobuf wire
 * format (LayersTraceFileProto field 2 entries; LayersTraceProto 3 layers,
 * 7 displays; LayersProto 1 layer; LayerProto 35 hwc_composition_type;
 * DisplayProto 4 size, 7 is_virtual; or a Perfetto trace: Trace 1 packets,
 * TracePacket 93 a LayersSnapshotProto, numbered as LayersTraceProto):
 * independent of analyzers/winscope,
 * so the tests check the importer against the file, not against itself.
 */
#ifndef HWCT_TESTS_WINSCOPE_FIXTURE_H
#define HWCT_TESTS_WINSCOPE_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FIXTURE_MAX_DECIDED 256
#define FIXTURE_MAX_DISPLAYS 16

struct fixture_entry {
	size_t key_offset;		/* the entry's field key in the file */
	size_t offset, size;		/* its message bytes */
	size_t layers_key;		/* offset of its `layers` field key, 0 none */
	size_t decided_count;		/* layers carrying hwc_composition_type */
	size_t duplicates;		/* layers whose id an earlier layer of the entry has */
	bool lists_first;		/* it lists the first physical display (or no display at all) */
	int32_t decided[FIXTURE_MAX_DECIDED];
};

struct fixture {
	uint8_t *data;
	size_t size;
	struct fixture_entry *entries;
	size_t count;
	int32_t width, height;		/* first physical display, 0 unknown */
	int32_t root_width, root_height;	/* largest root-layer bounds from the origin, within 8192 */
	bool perfetto;			/* a Perfetto trace; entries are its layer snapshots */
	/* the displays (DisplayProto.id) the entries list, in order of appearance */
	uint64_t display_ids[FIXTURE_MAX_DISPLAYS];
	bool display_virtual[FIXTURE_MAX_DISPLAYS];
	size_t display_entries[FIXTURE_MAX_DISPLAYS];	/* entries listing it */
	size_t display_count;
	size_t first_physical;		/* index in display_ids; 0 when none is physical */
	size_t packets;			/* Perfetto: packets */
};

/* Loads and parses path; exits the test on failure. */
void fixture_load(struct fixture *f, const char *path);

void fixture_finish(struct fixture *f);

#endif
