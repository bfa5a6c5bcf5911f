/* Reading recorded arguments for the Call encoder (encode.h). */
#include <stdlib.h>
#include <string.h>

#include "encode.h"

void *enc_alloc(struct enc_scratch *s, size_t count, size_t size)
{
	void *p;

	if (s->n == ENC_SCRATCH_MAX || !count) {
		return NULL;
	}
	p = calloc(count, size);
	if (p) {
		s->ptrs[s->n++] = p;
	}
	return p;
}

void enc_scratch_free(struct enc_scratch *s)
{
	for (int i = 0; i < s->n; i++) {
		free(s->ptrs[i]);
	}
	s->n = 0;
}

static const struct rec_arg no_arg;

const struct rec_arg *enc_arg(const struct rec_event *ev, int i)
{
	return i >= 0 && i < ev->nargs ? &ev->args[i] : &no_arg;
}

bool enc_has(const struct rec_event *ev, int i)
{
	const struct rec_arg *a = enc_arg(ev, i);

	return a->kind != REC_ARG_NONE && a->present;
}

int64_t enc_ival(const struct rec_event *ev, int i)
{
	const struct rec_arg *a = enc_arg(ev, i);

	switch (a->kind) {
	case REC_ARG_INT:
		return a->v.i;
	case REC_ARG_COUNT:
		return a->v.count.out;
	case REC_ARG_FLOAT:
		return (int64_t)a->v.f;
	default:
		return 0;
	}
}

float enc_fval(const struct rec_event *ev, int i)
{
	const struct rec_arg *a = enc_arg(ev, i);

	return a->kind == REC_ARG_FLOAT ? (float)a->v.f : (float)enc_ival(ev, i);
}

/* The bytes of a BYTES argument when it holds exactly size bytes. */
const void *enc_bytes(const struct rec_event *ev, int i, size_t size)
{
	const struct rec_arg *a = enc_arg(ev, i);

	return a->kind == REC_ARG_BYTES && a->present && a->count == size ? rec_arg_data(ev, a) : NULL;
}

/* Elements of an ARRAY argument as int64 (signed per `sign`); *n = 0 when absent. */
int64_t *enc_elems(struct enc_scratch *s, const struct rec_event *ev, int i, bool sign, size_t *n)
{
	const struct rec_arg *a = enc_arg(ev, i);
	const uint8_t *p;
	int64_t *out;

	*n = 0;
	if (a->kind != REC_ARG_ARRAY || !a->count || !(out = enc_alloc(s, a->count, sizeof(*out)))) {
		return NULL;
	}
	p = rec_arg_data(ev, a);
	for (uint32_t k = 0; k < a->count; k++, p += a->elem_size) {
		switch (a->elem_size) {
		case 1:
			out[k] = sign ? (int8_t)*p : *p;
			break;
		case 2: {
			uint16_t v;

			memcpy(&v, p, 2);
			out[k] = sign ? (int16_t)v : v;
			break;
		}
		case 4: {
			uint32_t v;

			memcpy(&v, p, 4);
			out[k] = sign ? (int64_t)(int32_t)v : (int64_t)v;
			break;
		}
		case 8:
			memcpy(&out[k], p, 8);
			break;
		default:
			return NULL;
		}
	}
	*n = a->count;
	return out;
}

uint64_t *enc_elems_u64(struct enc_scratch *s, const struct rec_event *ev, int i, size_t *n)
{
	return (uint64_t *)enc_elems(s, ev, i, false, n);
}

int32_t *enc_elems_i32(struct enc_scratch *s, const struct rec_event *ev, int i, size_t *n)
{
	int64_t *v = enc_elems(s, ev, i, true, n);
	int32_t *out = *n ? enc_alloc(s, *n, sizeof(*out)) : NULL;

	for (size_t k = 0; out && k < *n; k++) {
		out[k] = (int32_t)v[k];
	}
	if (!out) {
		*n = 0;
	}
	return out;
}

/* Raw bytes of an ARRAY argument. */
ProtobufCBinaryData enc_array_bytes(const struct rec_event *ev, int i)
{
	const struct rec_arg *a = enc_arg(ev, i);

	if (a->kind != REC_ARG_ARRAY || !a->count) {
		return (ProtobufCBinaryData){ 0, NULL };
	}
	return (ProtobufCBinaryData){ (size_t)a->count * a->elem_size, (uint8_t *)rec_arg_data(ev, a) };
}

/* A NUL-terminated, valid UTF-8 copy of a char ARRAY argument ('?' for anything else). */
char *enc_text(struct enc_scratch *s, const struct rec_event *ev, int i)
{
	const struct rec_arg *a = enc_arg(ev, i);
	const uint8_t *p;
	char *out;

	if (a->kind != REC_ARG_ARRAY || a->elem_size != 1) {
		return NULL;
	}
	out = enc_alloc(s, (size_t)a->count + 1, 1);
	if (!out) {
		return a->count ? NULL : "";
	}
	p = rec_arg_data(ev, a);
	for (uint32_t k = 0; k < a->count && p[k]; k++) {
		bool plain = (p[k] >= 0x20 && p[k] < 0x7f) || p[k] == '\n' || p[k] == '\t';

		out[k] = plain ? (char)p[k] : '?';
	}
	return out;
}

uint64_t enc_fence_id(const struct rec_event *ev, int i)
{
	const struct rec_arg *a = enc_arg(ev, i);

	return a->kind == REC_ARG_FENCE ? a->v.fence.id : 0;
}

Hwct__Region *enc_region(struct enc_scratch *s, const struct rec_event *ev, int i)
{
	const struct rec_arg *a = enc_arg(ev, i);
	Hwct__Region *r;
	Hwct__Rect *rects, **ptrs;
	const hwc_rect_t *src;

	if (a->kind != REC_ARG_REGION || !(r = enc_alloc(s, 1, sizeof(*r)))) {
		return NULL;
	}
	hwct__region__init(r);
	if (!a->count) {
		return r;
	}
	rects = enc_alloc(s, a->count, sizeof(*rects));
	ptrs = enc_alloc(s, a->count, sizeof(*ptrs));
	if (!rects || !ptrs) {
		return r;
	}
	src = rec_arg_data(ev, a);
	for (uint32_t k = 0; k < a->count; k++) {
		hwct__rect__init(&rects[k]);
		rects[k].has_left = rects[k].has_top = rects[k].has_right = rects[k].has_bottom = true;
		rects[k].left = src[k].left;
		rects[k].top = src[k].top;
		rects[k].right = src[k].right;
		rects[k].bottom = src[k].bottom;
		ptrs[k] = &rects[k];
	}
	r->n_rects = a->count;
	r->rects = ptrs;
	return r;
}

/* All family messages, one of which a call uses. */

/* Outputs whose pointer was NULL or that the call did not write are left out. */
bool enc_out_ok(const struct rec_event *ev, int i)
{
	return enc_has(ev, i) && ev->error == HWC2_ERROR_NONE;
}
