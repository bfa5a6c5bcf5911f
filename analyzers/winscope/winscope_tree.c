/*
 * The z-order traversal of SurfaceFlinger's layer hierarchy (winscope_tree.h),
 * after frontend/LayerHierarchy:
 *
 * - every layer hangs under its parent, or under the root when it has none;
 *   a layer that is relative to another (is_relative_of / z_order_relative_of)
 *   is taken from under its parent and hung under that layer instead;
 * - the layers under one node are ordered by (layer stack, z, id);
 * - a node is drawn after its children with z < 0 and before those with
 *   z >= 0, recursively;
 * - the offscreen root's subtree, layers whose parent or relative parent is
 *   not in the entry, and loops are not drawn.
 */
#include <stdlib.h>

#include "winscope_tree.h"

#define FLAG_HIDDEN 0x01u	/* layer_state_t::eLayerHidden */
#define MAX_DEPTH 256		/* SurfaceFlinger aborts at 50 */

enum hidden_memo {
	HIDDEN_UNKNOWN,
	HIDDEN_BUSY,		/* being computed: a loop, taken as visible */
	HIDDEN_NO,
	HIDDEN_YES,
};

struct node {
	size_t parent;			/* index, SIZE_MAX none */
	size_t relative;		/* index of the relative parent, SIZE_MAX none */
	bool is_relative;		/* z-ordered under `relative` (or nowhere when it is missing) */
	size_t owner;			/* index whose children list holds it; count = the root; SIZE_MAX none */
	size_t first, children;		/* its run in tree->kids */
	enum hidden_memo hidden;
	bool visited;
};

struct ws_tree {
	Winscope__LayerProto *const *layers;
	size_t count;
	struct node *nodes;		/* count + 1: the root last */
	size_t *kids;			/* children of every node, grouped by owner, sorted */
	struct id_slot *ids;		/* sorted by id */
};

struct id_slot {
	int32_t id;
	size_t index;
};

static int compare_ids(const void *a, const void *b)
{
	const struct id_slot *x = a, *y = b;

	if (x->id != y->id) {
		return x->id < y->id ? -1 : 1;
	}
	return x->index < y->index ? -1 : x->index > y->index;
}

static size_t find(const struct ws_tree *t, int32_t id)
{
	size_t lo = 0, hi = t->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->ids[mid].id < id) {
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	/* duplicate ids: the first layer with it wins */
	return lo < t->count && t->ids[lo].id == id ? t->ids[lo].index : SIZE_MAX;
}

/* A child and its sort key (qsort has no context argument in C11). */
struct kid {
	size_t owner;
	uint32_t layer_stack;
	int32_t z, id;
	size_t index;
};

static int compare_kids(const void *a, const void *b)
{
	const struct kid *x = a, *y = b;

	if (x->owner != y->owner) {
		return x->owner < y->owner ? -1 : 1;
	}
	if (x->layer_stack != y->layer_stack) {
		return x->layer_stack < y->layer_stack ? -1 : 1;
	}
	if (x->z != y->z) {
		return x->z < y->z ? -1 : 1;
	}
	if (x->id != y->id) {
		return x->id < y->id ? -1 : 1;
	}
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Old traces have no is_relative_of: there z_order_relative_of >= 0 says it. */
static bool uses_is_relative_of(Winscope__LayerProto *const *layers, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		if (layers[i]->has_is_relative_of) {
			return true;
		}
	}
	return false;
}

static void link_nodes(struct ws_tree *t)
{
	bool new_style = uses_is_relative_of(t->layers, t->count);

	for (size_t i = 0; i < t->count; i++) {
		const Winscope__LayerProto *l = t->layers[i];
		struct node *n = &t->nodes[i];
		bool duplicate = find(t, l->id) != i;

		n->parent = n->relative = n->owner = SIZE_MAX;
		n->is_relative = new_style ? l->is_relative_of : l->z_order_relative_of >= 0;
		if (l->parent >= 0) {
			n->parent = find(t, l->parent);
		}
		if (n->is_relative) {
			n->relative = find(t, l->z_order_relative_of);
		}
		if (duplicate || l->id == WS_OFFSCREEN_ROOT_ID) {
			continue;	/* not drawn, nor its subtree */
		}
		if (n->is_relative) {
			n->owner = n->relative;		/* SIZE_MAX: relative to a missing layer, offscreen */
		} else if (l->parent < 0) {
			n->owner = t->count;		/* a root */
		} else {
			n->owner = n->parent;		/* SIZE_MAX: its parent is missing, offscreen */
		}
	}
}

struct ws_tree *ws_tree_create(Winscope__LayerProto *const *layers, size_t count)
{
	struct ws_tree *t = calloc(1, sizeof(*t));
	struct kid *kids;
	size_t n = 0;

	if (!t) {
		return NULL;
	}
	t->layers = layers;
	t->count = count;
	t->nodes = calloc(count + 1, sizeof(*t->nodes));
	t->kids = calloc(count ? count : 1, sizeof(*t->kids));
	t->ids = calloc(count ? count : 1, sizeof(*t->ids));
	if (!t->nodes || !t->kids || !t->ids) {
		ws_tree_destroy(t);
		return NULL;
	}
	for (size_t i = 0; i < count; i++) {
		t->ids[i] = (struct id_slot){ layers[i]->id, i };
	}
	qsort(t->ids, count, sizeof(*t->ids), compare_ids);
	link_nodes(t);
	kids = calloc(count ? count : 1, sizeof(*kids));
	if (!kids) {
		ws_tree_destroy(t);
		return NULL;
	}
	for (size_t i = 0; i < count; i++) {
		if (t->nodes[i].owner != SIZE_MAX) {
			kids[n++] = (struct kid){ t->nodes[i].owner, layers[i]->layer_stack, layers[i]->z,
				layers[i]->id, i };
		}
	}
	qsort(kids, n, sizeof(*kids), compare_kids);
	for (size_t k = 0; k < n; k++) {
		struct node *owner = &t->nodes[kids[k].owner];

		t->kids[k] = kids[k].index;
		if (!owner->children) {
			owner->first = k;
		}
		owner->children++;
	}
	free(kids);
	t->nodes[count].parent = t->nodes[count].relative = t->nodes[count].owner = SIZE_MAX;
	return t;
}

void ws_tree_destroy(struct ws_tree *t)
{
	if (!t) {
		return;
	}
	free(t->nodes);
	free(t->kids);
	free(t->ids);
	free(t);
}

struct walk {
	struct ws_tree *t;
	uint32_t stack;
	size_t *order;
	size_t count;
};

static void emit(struct walk *w, size_t index)
{
	if (index < w->t->count && w->t->layers[index]->layer_stack == w->stack) {
		w->order[w->count++] = index;
	}
}

static void traverse(struct walk *w, size_t index, unsigned depth)
{
	struct node *n = &w->t->nodes[index];
	bool self_pending = index < w->t->count;

	if (n->visited || depth > MAX_DEPTH) {
		return;		/* a loop, or deeper than any real hierarchy */
	}
	n->visited = true;
	for (size_t k = 0; k < n->children; k++) {
		size_t child = w->t->kids[n->first + k];

		if (self_pending && w->t->layers[child]->z >= 0) {
			emit(w, index);
			self_pending = false;
		}
		traverse(w, child, depth + 1);
	}
	if (self_pending) {
		emit(w, index);
	}
}

size_t ws_tree_zorder(struct ws_tree *t, uint32_t stack, size_t *order)
{
	struct walk w = { .t = t, .stack = stack, .order = order };

	for (size_t i = 0; i <= t->count; i++) {
		t->nodes[i].visited = false;
	}
	traverse(&w, t->count, 0);
	return w.count;
}

static bool hidden(struct ws_tree *t, size_t index, unsigned depth)
{
	struct node *n = &t->nodes[index];
	bool h;

	if (n->hidden == HIDDEN_BUSY || depth > MAX_DEPTH) {
		return false;
	}
	if (n->hidden != HIDDEN_UNKNOWN) {
		return n->hidden == HIDDEN_YES;
	}
	n->hidden = HIDDEN_BUSY;
	h = (t->layers[index]->flags & FLAG_HIDDEN) != 0;
	h = h || (n->parent != SIZE_MAX && hidden(t, n->parent, depth + 1));
	h = h || (n->is_relative && n->relative != SIZE_MAX && hidden(t, n->relative, depth + 1));
	n->hidden = h ? HIDDEN_YES : HIDDEN_NO;
	return h;
}

size_t ws_tree_duplicates(const struct ws_tree *t, int32_t *id)
{
	size_t n = 0;

	for (size_t i = 0; i < t->count; i++) {
		if (find(t, t->layers[i]->id) != i) {
			*id = t->layers[i]->id;
			n++;
		}
	}
	return n;
}

bool ws_tree_hidden(struct ws_tree *t, size_t index)
{
	return index < t->count && hidden(t, index, 0);
}
