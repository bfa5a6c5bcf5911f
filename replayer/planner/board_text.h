/*
 * The drm_info text loader's internals (board_text*.c): the paste as a tree
 * of entries, one per line, and the reader of that tree into a board. Not
 * for other modules: they use board.h.
 */
#ifndef HWCT_PLANNER_BOARD_TEXT_H
#define HWCT_PLANNER_BOARD_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"

#define BTEXT_NONE ((size_t)-1)

/* One line of the tree: its text after the branch mark, its children. */
struct btext_node {
	const char *text;		/* borrowed from the tree's buffer; no trailing space */
	size_t line;			/* 1-based line number in the paste */
	size_t first_child, last_child, next;	/* node indices or BTEXT_NONE */
	size_t child_count;
};

/* A whole paste: every device ("Node: ..." line) is a root. */
struct btext_tree {
	char *buf;			/* owned copy of the paste, cut into lines */
	struct btext_node *nodes;	/* owned */
	size_t count;
	size_t roots[BOARD_MAX_CRTCS];	/* devices, in paste order */
	size_t root_count;
	size_t last_line;		/* the paste's last tree line */
	size_t open_line;		/* the last line when the text stops without a line end, else 0 */
};

/*
 * Builds the tree of size bytes of data (name for messages). Lines without
 * a branch mark before the first "Node:" line (prose, a code fence) are
 * skipped; after a device's tree is complete, so are lines until the next
 * "Node:". Returns 0, or a negative errno with err filled ("NAME: line N:
 * what"); free the tree with btext_tree_free either way.
 */
int btext_tree_build(struct btext_tree *tree, const char *data, size_t size, const char *name,
	struct hwct_error *err);

/* Frees what the tree owns (not tree itself). */
void btext_tree_free(struct btext_tree *tree);

/*
 * The first child of node whose text starts with prefix (exactly equal when
 * exact), or NULL.
 */
const struct btext_node *btext_child(const struct btext_tree *tree, const struct btext_node *node,
	const char *prefix, bool exact);

/* The node at index i, or NULL for BTEXT_NONE. */
const struct btext_node *btext_at(const struct btext_tree *tree, size_t i);

/* Whether the connector entry conn says "Status: connected". */
bool btext_connected(const struct btext_tree *tree, const struct btext_node *conn);

/* Whether the connector entry conn has the property "non-desktop" = 1. */
bool btext_non_desktop(const struct btext_tree *tree, const struct btext_node *conn);

/* Reads the device at root into a new board (board_text.c). Returns it or NULL with err filled. */
struct board *btext_read_device(const struct btext_tree *tree, const struct btext_node *root,
	const char *name, struct hwct_error *err);

#endif
