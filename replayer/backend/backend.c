/* Backend helpers shared by every impl (backend.h). */
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>

#include "backend.h"
#include "fourcc.h"

int backend_present(struct backend *b, const struct scene *scene, bool want_image,
	struct backend_result *out)
{
	*out = (struct backend_result){ .plan_ns = -1, .compose_ns = -1, .commit_ns = -1, .present_ns = -1 };
	return b->impl->present(b, scene, want_image, out);
}

void backend_destroy(struct backend *b)
{
	if (b) {
		b->impl->destroy(b);
	}
}

void backend_result_finish(struct backend_result *r)
{
	plan_destroy(r->plan);
	free(r->image.data);
	*r = (struct backend_result){ 0 };
}

struct hwct_hash backend_checksum(const struct comp_target *img)
{
	return scene_frame_checksum(img->fourcc, img->width, img->height, img->stride, img->data);
}

static uint64_t clipped_area(const struct scene *scene, const struct scene_layer *l)
{
	int64_t left = l->frame.left < 0 ? 0 : l->frame.left;
	int64_t top = l->frame.top < 0 ? 0 : l->frame.top;
	int64_t right = l->frame.right > (int64_t)scene->width ? (int64_t)scene->width : l->frame.right;
	int64_t bottom = l->frame.bottom > (int64_t)scene->height ? (int64_t)scene->height : l->frame.bottom;

	return right > left && bottom > top ? (uint64_t)((right - left) * (bottom - top)) : 0;
}

double backend_efficiency(const struct scene *scene, const struct plan *plan)
{
	uint64_t total = 0, client = 0;

	if (!plan) {
		return 0.0;
	}
	for (size_t i = 0; i < scene->layer_count && i < plan->layer_count; i++) {
		uint64_t area = clipped_area(scene, &scene->layers[i]);

		total += area;
		client += plan_layer_is_client(&plan->layers[i]) ? area : 0;
	}
	return total ? 1.0 - (double)client / (double)total : 1.0;
}
