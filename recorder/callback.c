/* registerCallback and the callback trampolines' hot path (callback.h). */
#include <stdlib.h>

#include "callback.h"
#include "device.h"
#include "hotline.h"
#include "hwc2_wrappers.h"

int32_t rec_register_callback(struct rec_call *c, HWC2_PFN_REGISTER_CALLBACK real,
	hwc2_device_t *device, int32_t descriptor, hwc2_callback_data_t data,
	hwc2_function_pointer_t pointer)
{
	struct rec_device *d = c->dev;
	struct rec_callback *cb;

	/* unregistering, or a callback whose prototype we do not know: as is */
	if (!pointer || !d || descriptor <= 0 || descriptor > REC_CALLBACK_MAX ||
			!rec_trampolines[descriptor]) {
		return real(device, descriptor, data, pointer);
	}
	cb = calloc(1, sizeof(*cb));
	if (!cb) {
		atomic_fetch_add(&c->rec->events_dropped, 1);
		return real(device, descriptor, data, pointer);
	}
	cb->dev = d;
	cb->descriptor = descriptor;
	cb->data = data;
	cb->fn = pointer;
	cb->next = atomic_load(&d->callbacks);
	while (!atomic_compare_exchange_weak(&d->callbacks, &cb->next, cb)) {
	}
	return real(device, descriptor, cb, rec_trampolines[descriptor]);
}

hwc2_function_pointer_t rec_callback_begin(struct rec_call *c, hwc2_callback_data_t data,
	int32_t descriptor, unsigned nargs)
{
	const struct rec_callback *cb = data;
	struct recorder *r = rec_get();

	c->rec = r;
	c->dev = cb->dev;
	c->ev = NULL;
	c->keep = false;
	c->pool = NULL;
	c->wake = false;
	c->tracing = false;
	c->function = descriptor;
	c->has_display = c->has_layer = false;
	c->display = c->layer = 0;
	c->t_enter = rec_now_ns();
	if (!r) {
		return cb->fn;
	}
	/* hotplugs always reach the worker: it keeps the connected displays for later sessions */
	if (atomic_load(&r->recording) || descriptor == HWC2_CALLBACK_HOTPLUG) {
		rec_inflight_enter(r, c);
		c->ev = rec_event_take(c->pool, REC_EV_CALLBACK, descriptor, nargs, &c->wake);
		if (c->ev) {
			c->keep = true;
			c->ev->t_enter = c->ev->t_exit = c->t_enter;
			c->ev->tid = rec_tid();
		} else {
			atomic_fetch_add(&r->events_dropped, 1);
			rec_inflight_leave(r, c);
		}
	}
	return cb->fn;
}

void rec_callback_end(struct rec_call *c)
{
	struct recorder *r = c->rec;
	struct rec_event *ev = c->ev;

	if (r && c->has_display && c->function == HWC2_CALLBACK_HOTPLUG && ev &&
			ev->args[REC_CBARG_HOTPLUG_CONNECTION].kind == REC_ARG_INT) {
		struct rec_display_slot *s = rec_display_slot(r, c->display);

		int now = ev->args[REC_CBARG_HOTPLUG_CONNECTION].v.i == HWC2_CONNECTION_CONNECTED ?
			REC_INFO_NEEDED : REC_INFO_NONE;
		int was;

		/* the facts are read on the next call for that display (display_query.h) */
		was = atomic_exchange(&s->info, now);
		if (now == REC_INFO_NEEDED && was != REC_INFO_NEEDED) {
			atomic_fetch_add(&rec_hotline.info_needed, 1);
		} else if (now != REC_INFO_NEEDED && was == REC_INFO_NEEDED) {
			atomic_fetch_sub(&rec_hotline.info_needed, 1);
		}
	}
	if (!ev) {
		return;
	}
	ev->has_display = c->has_display;
	ev->display = c->display;
	rec_queue_push(&r->queue, ev);
	rec_inflight_leave(r, c);
}

hwc2_callback_data_t rec_callback_data(hwc2_callback_data_t data)
{
	return ((const struct rec_callback *)data)->data;
}

void rec_callback_free_all(struct rec_callback *list)
{
	while (list) {
		struct rec_callback *next = list->next;

		free(list);
		list = next;
	}
}
