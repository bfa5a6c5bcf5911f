/*
 * SurfaceFlinger's layer hierarchy rebuilt from one entry: the z-ordered
 * traversal that decides the drawing order of a layer stack, and which
 * layers are hidden by policy (docs/winscope.md, "Z-order").
 */
#ifndef HWCT_WINSCOPE_TREE_H
#define HWCT_WINSCOPE_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "winscope.pb-c.h"

/* The layer SurfaceFlinger parents offscreen layers to in its dumps (INT32_MAX - 2). */
#define WS_OFFSCREEN_ROOT_ID 0x7ffffffd

struct ws_tree;

/*
 * Builds the hierarchy of count layers (borrowed; must outlive the tree).
 * Returns the tree or NULL (out of memory).
 */
struct ws_tree *ws_tree_create(Winscope__LayerProto *const *layers, size_t count);

/* Frees t. t may be NULL. */
void ws_tree_destroy(struct ws_tree *t);

/*
 * Writes to order (room for the tree's count) the indices of the layers on
 * layer stack `stack` in drawing order, bottom first; offscreen layers and
 * those in a hierarchy loop are left out. Returns how many.
 */
size_t ws_tree_zorder(struct ws_tree *t, uint32_t stack, size_t *order);

/*
 * How many layers repeat the id of an earlier layer of the entry (those are
 * left out of the drawing, with their subtrees); *id gets one such id.
 */
size_t ws_tree_duplicates(const struct ws_tree *t, int32_t *id);

/* Whether layer `index` is hidden by its own flags or a parent's or relative parent's. */
bool ws_tree_hidden(struct ws_tree *t, size_t index);

#endif
