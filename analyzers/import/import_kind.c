/* Telling an Android trace's kind from its bytes (import_kind.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "import_kind.h"

#define MAX_PACKETS 10000000u	/* packets looked at before the census stops */

/* The legacy Winscope magics this tool names (each trace kind's *FileProto MAGIC_NUMBER). */
static const struct {
	const char magic[9];
	enum imp_kind kind;
	const char *what;
} magics[] = {
	{ "LYRTRACE", IMP_LAYERS, "SurfaceFlinger layer trace" },
	{ "TNXTRACE", IMP_TRANSACTIONS, "SurfaceFlinger transaction trace" },
	{ "WINTRACE", IMP_OTHER, "window manager trace" },
	{ "IMCTRACE", IMP_OTHER, "input method clients trace" },
	{ "IMSTRACE", IMP_OTHER, "input method service trace" },
	{ "IMMTRACE", IMP_OTHER, "input method manager service trace" },
	{ "PROTOLOG", IMP_OTHER, "ProtoLog (window manager log)" },
	{ "TRNTRACE", IMP_OTHER, "shell transition trace" },
};

/* The TracePacket fields of Winscope data (Perfetto's trace_packet.proto extensions). */
static const struct {
	uint32_t field;
	const char *name;
} packet_fields[] = {
	{ 93, "surfaceflinger_layers_snapshot" },
	{ 94, "surfaceflinger_transactions" },
	{ 96, "shell_transition" },
	{ 97, "shell_handler_mappings" },
	{ 104, "protolog_message" },
	{ 105, "protolog_viewer_config" },
	{ 112, "winscope_extensions (IME, window manager, view capture, input)" },
};
#define PACKET_FIELDS (sizeof(packet_fields) / sizeof(packet_fields[0]))

const char *imp_kind_name(enum imp_kind kind)
{
	switch (kind) {
	case IMP_LAYERS:
		return "layer trace";
	case IMP_TRANSACTIONS:
		return "transaction trace";
	case IMP_OTHER:
		return "other Winscope trace";
	case IMP_UNKNOWN:
		break;
	}
	return "unknown";
}

static bool varint(const uint8_t *data, size_t end, size_t *pos, uint64_t *v)
{
	*v = 0;
	for (unsigned shift = 0; *pos < end && shift < 64; shift += 7) {
		uint8_t b = data[(*pos)++];

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			return true;
		}
	}
	return false;
}

/* Skips the value of a field of wire type `type` at *pos; false when it does not fit. */
static bool skip(const uint8_t *data, size_t end, size_t *pos, unsigned type)
{
	uint64_t v;

	switch (type) {
	case 0:
		return varint(data, end, pos, &v);
	case 1:
		if (end - *pos < 8) {
			return false;
		}
		*pos += 8;
		return true;
	case 2:
		if (!varint(data, end, pos, &v) || v > end - *pos) {
			return false;
		}
		*pos += (size_t)v;
		return true;
	case 5:
		if (end - *pos < 4) {
			return false;
		}
		*pos += 4;
		return true;
	default:
		return false;
	}
}

/* Adds the Winscope fields of the packet in data[pos, end) to counts. */
static void packet_census(const uint8_t *data, size_t pos, size_t end, uint64_t counts[PACKET_FIELDS])
{
	while (pos < end) {
		uint64_t key;

		bool whole;

		if (!varint(data, end, &pos, &key)) {
			return;
		}
		whole = skip(data, end, &pos, (unsigned)(key & 7));
		for (size_t i = 0; i < PACKET_FIELDS; i++) {
			if (key >> 3 == packet_fields[i].field) {
				counts[i]++;	/* a cut one too: the reader then names the damage */
			}
		}
		if (!whole) {
			return;
		}
	}
}

static bool classify_perfetto(const uint8_t *data, size_t size, struct imp_class *c)
{
	uint64_t counts[PACKET_FIELDS] = { 0 };
	size_t pos = 0, used;
	uint64_t any = 0;

	while (pos < size && c->packets < MAX_PACKETS) {
		uint64_t key, len;

		if (!varint(data, size, &pos, &key) || key != (1 << 3 | 2) || !varint(data, size, &pos, &len)) {
			break;
		}
		len = len > size - pos ? size - pos : len;	/* a cut last packet: what there is of it */
		packet_census(data, pos, pos + (size_t)len, counts);
		pos += (size_t)len;
		c->packets++;
	}
	for (size_t i = 0; i < PACKET_FIELDS; i++) {
		any += counts[i];
	}
	if (!any) {
		return false;
	}
	c->perfetto = true;
	if (counts[0]) {
		c->kind = IMP_LAYERS;
		c->entries = counts[0];
	} else if (counts[1]) {
		c->kind = IMP_TRANSACTIONS;
		c->entries = counts[1];
	} else {
		c->kind = IMP_OTHER;
	}
	used = (size_t)snprintf(c->what, sizeof(c->what), "%s (Perfetto, %" PRIu64 " packets:",
		c->kind == IMP_LAYERS ? "SurfaceFlinger layer trace" : c->kind == IMP_TRANSACTIONS ?
		"SurfaceFlinger transaction trace" : "a Perfetto trace with no SurfaceFlinger layers or transactions",
		c->packets);
	for (size_t i = 0; i < PACKET_FIELDS && used < sizeof(c->what); i++) {
		if (counts[i]) {
			used += (size_t)snprintf(c->what + used, sizeof(c->what) - used, " %" PRIu64 " %s (field %" PRIu32
				")", counts[i], packet_fields[i].name, packet_fields[i].field);
		}
	}
	if (used < sizeof(c->what)) {
		snprintf(c->what + used, sizeof(c->what) - used, ")");
	}
	return true;
}

void imp_classify(const uint8_t *data, size_t size, struct imp_class *c)
{
	*c = (struct imp_class){ .kind = IMP_UNKNOWN };
	snprintf(c->what, sizeof(c->what), "no Winscope magic and no Winscope Perfetto packets");
	if (size >= 9 && data[0] == 0x09) {
		char magic[9];
		bool letters = true;

		memcpy(magic, data + 1, 8);
		magic[8] = '\0';
		for (unsigned i = 0; i < 8; i++) {
			letters = letters && ((magic[i] >= 'A' && magic[i] <= 'Z') || (magic[i] >= 'a' && magic[i] <= 'z'));
		}
		if (letters) {
			c->kind = IMP_OTHER;
			snprintf(c->what, sizeof(c->what), "a Winscope file of an unknown kind (magic %s)", magic);
			for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++) {
				if (strcmp(magic, magics[i].magic) == 0) {
					c->kind = magics[i].kind;
					snprintf(c->what, sizeof(c->what), "%s (legacy, magic %s)", magics[i].what, magic);
				}
			}
			return;
		}
	}
	classify_perfetto(data, size, c);
}
