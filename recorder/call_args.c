/* Argument helpers of the generated wrappers (call.h): copies by value, fds dup'd. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "call.h"
#include "device.h"
#include "fds.h"
#include "handle_cache.h"

#define MAX_ARRAY_ELEMENTS 65536u	/* longer arrays are cut (extra_failed) */

/* A dup for the call: on its thread's credits when it has a pool (fds.h). */
static REC_HOT int32_t call_dup(struct rec_call *c, int fd)
{
	return c->pool ? rec_fds_dup_credit(rec_event_pool_fds(c->pool), fd) : rec_fds_dup(fd);
}

/* ------------------------------------------------------------------ inputs */

static REC_HOT struct rec_arg *arg(struct rec_call *c, unsigned i, uint8_t kind)
{
	struct rec_arg *a;

	if (!c->ev || i >= REC_MAX_ARGS) {
		return NULL;
	}
	if (i >= c->ev->nargs) {
		rec_event_arg_grow(c->ev, i + 1);
	}
	a = &c->ev->args[i];
	a->kind = kind;
	a->present = true;
	return a;
}

REC_HOT void rec_arg_display(struct rec_call *c, unsigned i, hwc2_display_t display)
{
	c->has_display = true;
	c->display = display;
	rec_arg_int(c, i, (int64_t)display);
}

REC_HOT void rec_arg_layer(struct rec_call *c, unsigned i, hwc2_layer_t layer)
{
	c->has_layer = true;
	c->layer = layer;
	rec_arg_int(c, i, (int64_t)layer);
}

REC_HOT void rec_arg_int(struct rec_call *c, unsigned i, int64_t v)
{
	struct rec_arg *a = arg(c, i, REC_ARG_INT);

	if (a) {
		a->v.i = v;
	}
}

REC_HOT void rec_arg_float(struct rec_call *c, unsigned i, double v)
{
	struct rec_arg *a = arg(c, i, REC_ARG_FLOAT);

	if (a) {
		a->v.f = v;
	}
}

REC_HOT void rec_arg_pointer(struct rec_call *c, unsigned i, bool present)
{
	struct rec_arg *a = arg(c, i, REC_ARG_POINTER);

	if (a) {
		a->present = present;
	}
}

REC_HOT void rec_arg_bytes(struct rec_call *c, unsigned i, const void *p, size_t size)
{
	struct rec_arg *a = arg(c, i, REC_ARG_BYTES);
	void *dst;

	if (!a) {
		return;
	}
	a->present = p != NULL;
	if (p && (dst = rec_event_extra(c->ev, size, &a->off))) {
		memcpy(dst, p, size);
		a->count = (uint32_t)size;
	} else {
		a->present = false;
	}
}

REC_HOT void rec_arg_region(struct rec_call *c, unsigned i, hwc_region_t region)
{
	struct rec_arg *a = arg(c, i, REC_ARG_REGION);
	size_t n = region.rects ? region.numRects : 0;
	void *dst;

	if (!a) {
		return;
	}
	if (n > MAX_ARRAY_ELEMENTS) {
		n = MAX_ARRAY_ELEMENTS;
		c->ev->extra_failed = true;
	}
	a->count = 0;
	if (n && (dst = rec_event_extra(c->ev, n * sizeof(hwc_rect_t), &a->off))) {
		memcpy(dst, region.rects, n * sizeof(hwc_rect_t));
		a->count = (uint32_t)n;
	}
}

void rec_arg_handle(struct rec_call *c, unsigned i, buffer_handle_t handle)
{
	struct rec_arg *a = arg(c, i, REC_ARG_HANDLE);
	struct rec_handle *h;
	int32_t words = 0;

	if (!a) {
		return;
	}
	a->present = false;
	if (!handle || !c->keep) {
		return;
	}
	if (handle->version == (int)sizeof(native_handle_t) && handle->numFds >= 0 &&
			handle->numInts >= 0 && handle->numFds <= NATIVE_HANDLE_MAX_FDS &&
			handle->numInts <= NATIVE_HANDLE_MAX_INTS) {
		words = handle->numFds + handle->numInts;
		words = words < REC_HANDLE_MAX_WORDS ? words : REC_HANDLE_MAX_WORDS;
	}
	h = rec_event_extra(c->ev, sizeof(*h) + (size_t)words * sizeof(int32_t), &a->off);
	if (!h) {
		return;
	}
	a->present = true;
	h->num_fds = words ? handle->numFds : 0;
	h->num_ints = words ? handle->numInts : 0;
	h->words = words;
	h->ident = (uint64_t)(uintptr_t)handle;
	memcpy(h->data, handle->data, (size_t)words * sizeof(int32_t));
	h->fd = -1;
	h->ino = 0;
	h->kept = NULL;
	h->kept_exact = false;
	if (h->num_fds <= 0) {
		return;
	}
	/* a buffer seen before: no dup here, the worker checks the kept one (handle_cache.h) */
	h->kept = c->dev ? rec_handle_cache_get(&c->dev->handles, handle, words, &h->kept_exact) : NULL;
	if (!h->kept) {
		h->fd = call_dup(c, handle->data[0]);
	}
	if (!h->kept && h->fd < 0) {
		struct stat st;

		/* no dup (fd budget spent): the capture is dropped, the buffer keeps its identity */
		h->ino = fstat(handle->data[0], &st) == 0 ? (uint64_t)st.st_ino : 0;
	}
}

void rec_arg_handle_id(struct rec_call *c, unsigned i, const native_handle_t *handle)
{
	struct stat st;
	int64_t id = 0;

	if (c->keep && handle && handle->version == (int)sizeof(native_handle_t) &&
			handle->numFds > 0 && fstat(handle->data[0], &st) == 0) {
		id = (int64_t)st.st_ino;
	}
	rec_arg_int(c, i, id);
}

void rec_arg_fence_in(struct rec_call *c, unsigned i, int32_t fd)
{
	struct rec_arg *a = arg(c, i, REC_ARG_FENCE);

	if (!a) {
		return;
	}
	a->v.fence.id = fd >= 0 ? atomic_fetch_add(&c->rec->next_fence_id, 1) + 1 : 0;
	a->v.fence.fd = c->keep ? call_dup(c, fd) : -1;
}

REC_HOT void rec_arg_in_array(struct rec_call *c, unsigned i, const void *p, size_t elem_size, uint64_t n)
{
	struct rec_arg *a = arg(c, i, REC_ARG_ARRAY);
	void *dst;

	if (!a) {
		return;
	}
	a->present = p != NULL;
	a->elem_size = (uint16_t)elem_size;
	a->count = 0;
	if (n > MAX_ARRAY_ELEMENTS) {
		n = MAX_ARRAY_ELEMENTS;
		c->ev->extra_failed = true;
	}
	if (p && n && (dst = rec_event_extra(c->ev, (size_t)n * elem_size, &a->off))) {
		memcpy(dst, p, (size_t)n * elem_size);
		a->count = (uint32_t)n;
	}
}

uint64_t rec_sum_u32(const uint32_t *sizes, uint32_t count)
{
	uint64_t sum = 0;

	for (uint32_t k = 0; sizes && k < count && k < MAX_ARRAY_ELEMENTS; k++) {
		sum += sizes[k];
	}
	return sum;
}

/* ------------------------------------------------------------ counts */

static int64_t read_count(const void *p, size_t size)
{
	if (size == sizeof(uint32_t)) {
		uint32_t v;

		memcpy(&v, p, sizeof(v));
		return v;
	}
	if (size == sizeof(uint64_t)) {
		int64_t v;

		memcpy(&v, p, sizeof(v));
		return v;
	}
	return 0;
}

REC_HOT void rec_arg_count_in(struct rec_call *c, unsigned i, const void *p, size_t size)
{
	struct rec_arg *a = arg(c, i, REC_ARG_COUNT);

	if (a) {
		a->present = p != NULL;
		a->v.count.in = p ? read_count(p, size) : -1;
		a->v.count.out = a->v.count.in;
	}
}

REC_HOT void rec_arg_count_out(struct rec_call *c, unsigned i, const void *p, size_t size)
{
	if (c->ev && i < c->ev->nargs && c->ev->args[i].kind == REC_ARG_COUNT && p) {
		c->ev->args[i].v.count.out = read_count(p, size);
	}
}

/* ----------------------------------------------------------- outputs */

REC_HOT void rec_arg_out_i64(struct rec_call *c, unsigned i, const void *p, int64_t v)
{
	struct rec_arg *a = arg(c, i, REC_ARG_INT);

	if (a) {
		a->present = p != NULL;
		a->v.i = v;
	}
}

REC_HOT void rec_arg_out_float(struct rec_call *c, unsigned i, const float *p)
{
	struct rec_arg *a = arg(c, i, REC_ARG_FLOAT);

	if (a) {
		a->present = p != NULL;
		a->v.f = p ? *p : 0.0;
	}
}

/* Elements a count-then-fill call wrote: min(capacity in, count out). */
static uint64_t filled(const struct rec_call *c, unsigned count_i)
{
	const struct rec_arg *n;
	int64_t k;

	if (count_i >= c->ev->nargs) {
		return 0;
	}
	n = &c->ev->args[count_i];
	if (n->kind != REC_ARG_COUNT || n->v.count.in < 0) {
		return 0;
	}
	k = n->v.count.out < n->v.count.in ? n->v.count.out : n->v.count.in;
	return k > 0 ? (uint64_t)k : 0;
}

REC_HOT void rec_arg_out_array(struct rec_call *c, unsigned i, const void *p, size_t elem_size, unsigned count_i)
{
	if (c->ev) {
		rec_arg_in_array(c, i, p, elem_size, p ? filled(c, count_i) : 0);
	}
}

void rec_arg_out_array_fixed(struct rec_call *c, unsigned i, const void *p, size_t elem_size, uint64_t n)
{
	rec_arg_in_array(c, i, p, elem_size, n);
}

void rec_arg_fence_out(struct rec_call *c, unsigned i, const int32_t *fd)
{
	struct rec_arg *a = arg(c, i, REC_ARG_FENCE);

	if (!a) {
		return;
	}
	a->present = fd != NULL;
	a->v.fence.id = 0;
	a->v.fence.fd = -1;
	if (fd && *fd >= 0 && c->ev->error == HWC2_ERROR_NONE) {
		a->v.fence.id = atomic_fetch_add(&c->rec->next_fence_id, 1) + 1;
		a->v.fence.fd = c->keep ? call_dup(c, *fd) : -1;
	}
}

void rec_arg_fences_out(struct rec_call *c, unsigned i, const int32_t *fds, unsigned count_i)
{
	struct rec_arg *a = arg(c, i, REC_ARG_FENCES);
	uint64_t n;
	struct rec_fence *f;

	if (!a) {
		return;
	}
	a->present = fds != NULL;
	a->count = 0;
	n = fds && c->ev->error == HWC2_ERROR_NONE ? filled(c, count_i) : 0;
	if (!n || !(f = rec_event_extra(c->ev, (size_t)n * sizeof(*f), &a->off))) {
		return;
	}
	a->count = (uint32_t)n;
	for (uint64_t k = 0; k < n; k++) {
		f[k].id = fds[k] >= 0 ? atomic_fetch_add(&c->rec->next_fence_id, 1) + 1 : 0;
		f[k].fd = c->keep ? call_dup(c, fds[k]) : -1;
	}
}

/* Capacities before the call: arg i holds int32_t in[4] then out[4]. */
void rec_arg_samples_in(struct rec_call *c, unsigned i, const int32_t sizes[4])
{
	int32_t both[8] = { 0 };

	if (sizes) {
		memcpy(both, sizes, 4 * sizeof(int32_t));
	}
	rec_arg_bytes(c, i, sizes ? both : NULL, sizeof(both));
}

/* The histograms, flattened (component 0 first) into arg i; sizes out into arg i - 1. */
void rec_arg_samples_out(struct rec_call *c, unsigned i, const int32_t sizes[4],
	uint64_t *const samples[4])
{
	struct rec_arg *s;
	int32_t both[8];
	uint64_t total = 0, n[4] = { 0 };
	uint64_t *dst;
	struct rec_arg *a;

	if (!c->ev || i == 0 || i >= REC_MAX_ARGS) {
		return;
	}
	a = arg(c, i, REC_ARG_ARRAY);
	s = &c->ev->args[i - 1];
	a->present = samples != NULL;
	a->elem_size = sizeof(uint64_t);
	a->count = 0;
	if (s->kind != REC_ARG_BYTES || !s->present || !sizes || s->count != sizeof(both)) {
		return;
	}
	memcpy(both, rec_arg_data(c->ev, s), sizeof(both));
	for (int k = 0; k < 4; k++) {
		both[4 + k] = sizes[k];
		if (samples && samples[k] && both[k] > 0 && sizes[k] > 0) {
			n[k] = (uint64_t)(sizes[k] < both[k] ? sizes[k] : both[k]);
			total += n[k];
		}
	}
	memcpy(c->ev->extra + s->off, both, sizeof(both));
	if (!total || total > MAX_ARRAY_ELEMENTS ||
			!(dst = rec_event_extra(c->ev, total * sizeof(uint64_t), &a->off))) {
		return;
	}
	for (int k = 0; k < 4; k++) {
		if (n[k] > 0) {	/* a component without samples may have a NULL array */
			memcpy(dst, samples[k], n[k] * sizeof(uint64_t));
			dst += n[k];
		}
	}
	a->count = (uint32_t)total;
}
