/*
 * Internals of the Call encoder (encode_call.c: the frame path; encode_query.c:
 * queries and composer 2.2-2.4 extras; encode_util.c: reading event arguments).
 */
#ifndef REC_ENCODE_H
#define REC_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/hash.h>
#include <hwct/hwctrace.pb-c.h>

#include "event.h"

#define ENC_SCRATCH_MAX 32

/* Allocations of one record, freed together. */
struct enc_scratch {
	void *ptrs[ENC_SCRATCH_MAX];
	int n;
};

struct enc_families {
	Hwct__LayerBufferArgs buffer;
	Hwct__RectArgs rect;
	Hwct__Rect r;
	Hwct__FRectArgs frect;
	Hwct__FRect fr;
	Hwct__RegionArgs region;
	Hwct__ValueArgs value;
	Hwct__FloatArgs float_value;
	Hwct__ColorArgs color;
	Hwct__Color c8;
	Hwct__FloatColor cf;
	Hwct__MatrixArgs matrix;
	Hwct__ValidateArgs validate;
	Hwct__ChangedTypesArgs changed;
	Hwct__RequestsArgs requests;
	Hwct__PresentArgs present;
	Hwct__ReleaseFencesArgs release;
	Hwct__AttributeArgs attribute;
	Hwct__ListArgs list;
	Hwct__TextArgs text;
	Hwct__CursorArgs cursor;
	Hwct__ClientTargetArgs client_target;
	Hwct__ColorModeArgs color_mode;
	Hwct__MetadataArgs metadata;
	Hwct__GenericMetadataArgs generic;
	Hwct__HdrArgs hdr;
	Hwct__HdrCapabilities hdr_caps;
	Hwct__ActiveConfigArgs active;
	Hwct__VirtualDisplayArgs virtual_display;
	Hwct__IdentificationArgs identification;
	Hwct__SamplingArgs sampling;
	Hwct__ReadbackArgs readback;
	Hwct__CallbackArgs callback;
	Hwct__OpaqueArgs opaque;
	uint8_t hash[HWCT_HASH_BYTES];
};

/* ------------------------------------------------------------ encode_util.c */
/* count elements of size bytes, zeroed; NULL when out of memory or full */
void *enc_alloc(struct enc_scratch *s, size_t count, size_t size);
void enc_scratch_free(struct enc_scratch *s);
/* argument i of ev (an empty one when out of range) */
const struct rec_arg *enc_arg(const struct rec_event *ev, int i);
/* argument i was recorded and its pointer was non-NULL */
bool enc_has(const struct rec_event *ev, int i);
/* an output the call wrote: recorded, non-NULL, and the call succeeded */
bool enc_out_ok(const struct rec_event *ev, int i);
int64_t enc_ival(const struct rec_event *ev, int i);
float enc_fval(const struct rec_event *ev, int i);
/* the bytes of a BYTES argument holding exactly size bytes, else NULL */
const void *enc_bytes(const struct rec_event *ev, int i, size_t size);
/* the elements of an ARRAY argument as int64 (sign-extended when sign), *n = 0 when absent */
int64_t *enc_elems(struct enc_scratch *s, const struct rec_event *ev, int i, bool sign, size_t *n);
uint64_t *enc_elems_u64(struct enc_scratch *s, const struct rec_event *ev, int i, size_t *n);
int32_t *enc_elems_i32(struct enc_scratch *s, const struct rec_event *ev, int i, size_t *n);
/* the raw bytes of an ARRAY argument (borrowed from ev) */
ProtobufCBinaryData enc_array_bytes(const struct rec_event *ev, int i);
/* a char ARRAY as a NUL-terminated string of printable ASCII, '\n' and '\t' ('?' for others) */
char *enc_text(struct enc_scratch *s, const struct rec_event *ev, int i);
/* Fence.id of a FENCE argument, 0 none */
uint64_t enc_fence_id(const struct rec_event *ev, int i);
/* a REGION argument as a message, NULL when absent */
Hwct__Region *enc_region(struct enc_scratch *s, const struct rec_event *ev, int i);

/* ----------------------------------------------------------- encode_query.c */
/* Fills call->args for the functions encode_call.c leaves to it (unset for the rest). */
void enc_query_args(Hwct__Call *call, struct enc_families *f, struct enc_scratch *s,
	const struct rec_event *ev);

#endif
