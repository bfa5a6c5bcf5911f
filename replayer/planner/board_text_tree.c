/*
 * drm_info's text output as a tree (board_text.h). drm_info prints one
 * entry per line, each after a branch mark ("├───" when more siblings
 * follow, "└───" for the last one) indented by "│   " or "    " per level;
 * a device starts with an unmarked "Node: PATH" line. The depth of a line
 * is found from the column of its mark against the columns of the entries
 * still open, so a paste indented as a whole (a forum quote, a Markdown
 * code block) or with tabs for spaces reads the same. Because "├" promises
 * another sibling, a paste cut short is seen: some open entry still expects
 * one when the text ends.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/limits.h>

#include "board_text.h"

#define MAX_DEPTH 64

/* An entry whose children are still being read. */
struct open_entry {
	size_t node;			/* BTEXT_NONE: not yet a node (the device line) */
	long col;			/* column of its own mark */
	long child_col;			/* column of its children's marks; -1 none yet */
	bool more;			/* its last child had "├": another must follow */
};

struct builder {
	struct btext_tree *tree;
	const char *name;
	struct hwct_error *err;
	struct open_entry stack[MAX_DEPTH];
	size_t depth;			/* 0: outside any device */
	bool device_done;		/* the current device's tree ended (prose may follow) */
};

static int fail(struct builder *b, int code, size_t line, const char *what, const char *detail)
{
	return hwct_error_set(b->err, code, b->name, UINT64_MAX, "line %zu: %s%s", line, what,
		detail ? detail : "");
}

/* The entry path "A > B > C" of the open stack, for messages. */
static void open_path(const struct builder *b, size_t upto, char *out, size_t size)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < upto && i < b->depth; i++) {
		const struct btext_node *n = btext_at(b->tree, b->stack[i].node);
		int w;

		if (!n) {
			continue;
		}
		w = snprintf(out + used, size - used, "%s'%.40s'", used ? " > " : "", n->text);
		if (w < 0 || (size_t)w >= size - used) {
			return;
		}
		used += (size_t)w;
	}
}

/* Closes open entries down to depth keep; an entry still expecting a sibling is an error. */
static int close_to(struct builder *b, size_t keep, size_t line, bool at_end)
{
	for (size_t i = b->depth; i > keep; i--) {
		const struct open_entry *e = &b->stack[i - 1];

		if (e->more) {
			char path[256], what[400];
			const struct btext_node *last = btext_at(b->tree,
				b->tree->nodes[e->node].last_child);

			open_path(b, i, path, sizeof(path));
			snprintf(what, sizeof(what), "%s %s: expected another entry after line %zu "
				"(it is marked \"├───\")", at_end ? "the paste ends inside" :
				"the indentation closes", path, last ? last->line : line);
			return fail(b, -EINVAL, line, what, at_end ? " (paste cut short?)" : NULL);
		}
	}
	b->depth = keep;
	return 0;
}

static size_t add_node(struct builder *b, const char *text, size_t line)
{
	struct btext_tree *t = b->tree;
	size_t i = t->count++;

	t->nodes[i] = (struct btext_node){ .text = text, .line = line, .first_child = BTEXT_NONE,
		.last_child = BTEXT_NONE, .next = BTEXT_NONE };
	return i;
}

static void link_child(struct btext_tree *t, size_t parent, size_t child)
{
	struct btext_node *p = &t->nodes[parent];

	if (p->last_child == BTEXT_NONE) {
		p->first_child = child;
	} else {
		t->nodes[p->last_child].next = child;
	}
	p->last_child = child;
	p->child_count++;
}

static bool starts(const unsigned char *p, const char *s)
{
	return strncmp((const char *)p, s, strlen(s)) == 0;
}

/*
 * Splits line into its indentation column, branch mark (0 none, 1 "├",
 * 2 "└") and text. Tabs advance to the next multiple of 4 columns, the
 * width of one drm_info level.
 */
static const char *split_line(char *line, long *col, int *mark)
{
	const unsigned char *p = (const unsigned char *)line;
	long c = 0;

	*mark = 0;
	for (;;) {
		if (*p == ' ') {
			c++, p++;
		} else if (*p == '\t') {
			c = (c / 4 + 1) * 4, p++;
		} else if (starts(p, "\xc2\xa0")) {	/* no-break space, as forums paste */
			c++, p += 2;
		} else if (starts(p, "\xe2\x94\x82")) {	/* │ */
			c++, p += 3;
		} else if (starts(p, "\xe2\x94\x9c") || starts(p, "\xe2\x94\x94")) {	/* ├ └ */
			*mark = p[2] == 0x9c ? 1 : 2;
			p += 3;
			while (starts(p, "\xe2\x94\x80")) {	/* ─ */
				p += 3;
			}
			break;
		} else {
			break;
		}
	}
	*col = c;
	return (const char *)p;
}

/* Removes trailing white space (and a CR) in place. */
static void rstrip(char *s, size_t len)
{
	while (len > 0 && strchr(" \t\r\v\f", s[len - 1])) {
		s[--len] = '\0';
	}
	/* A no-break space at the end. */
	while (len >= 2 && (unsigned char)s[len - 2] == 0xc2 && (unsigned char)s[len - 1] == 0xa0) {
		len -= 2;
		s[len] = '\0';
		while (len > 0 && strchr(" \t\r", s[len - 1])) {
			s[--len] = '\0';
		}
	}
}

static int start_device(struct builder *b, const char *text, size_t line, long col)
{
	struct btext_tree *t = b->tree;
	int ret;

	if ((ret = close_to(b, 0, line, false))) {
		return ret;
	}
	if (t->root_count >= sizeof(t->roots) / sizeof(t->roots[0])) {
		return fail(b, -E2BIG, line, "too many devices in one paste", NULL);
	}
	t->roots[t->root_count++] = add_node(b, text, line);
	/* The device's children have their marks in the column of its "N". */
	b->stack[0] = (struct open_entry){ .node = t->roots[t->root_count - 1], .col = col - 1,
		.child_col = -1 };
	b->depth = 1;
	b->device_done = false;
	t->last_line = line;
	return 0;
}

static int add_entry(struct builder *b, const char *text, size_t line, long col, int mark)
{
	struct open_entry *parent = NULL;
	size_t keep = 0, node;
	int ret;

	for (size_t i = b->depth; i > 0; i--) {
		struct open_entry *e = &b->stack[i - 1];

		if (e->child_col == col || (e->child_col < 0 && col > e->col)) {
			parent = e;
			keep = i;
			break;
		}
	}
	if (!parent) {
		return fail(b, -EINVAL, line, "indentation matches no open entry: expected a "
			"sibling or child of the line above", NULL);
	}
	if ((ret = close_to(b, keep, line, false))) {
		return ret;
	}
	if (parent->child_col >= 0 && !parent->more) {
		return fail(b, -EINVAL, line, "entry after the last one (\"└───\") of its list", NULL);
	}
	if (*text == '\0') {
		return fail(b, -EINVAL, line, "expected text after the branch mark", NULL);
	}
	if (b->depth >= MAX_DEPTH) {
		return fail(b, -E2BIG, line, "nested too deep", NULL);
	}
	node = add_node(b, text, line);
	link_child(b->tree, parent->node, node);
	parent->child_col = col;
	parent->more = mark == 1;
	b->stack[b->depth++] = (struct open_entry){ .node = node, .col = col, .child_col = -1 };
	b->tree->last_line = line;
	return 0;
}

static bool all_closed(const struct builder *b)
{
	for (size_t i = 0; i < b->depth; i++) {
		if (b->stack[i].more) {
			return false;
		}
	}
	return true;
}

static int read_line(struct builder *b, char *line, size_t number)
{
	long col;
	int mark;
	const char *text = split_line(line, &col, &mark);

	if (mark == 0 && strncmp(text, "Node:", 5) == 0) {
		return start_device(b, text, number, col);
	}
	if (mark == 0) {
		if (*text == '\0' || b->depth == 0 || b->device_done) {
			return 0;
		}
		if (all_closed(b)) {
			/* The device's tree is complete: whatever follows is not part of it. */
			b->device_done = true;
			return 0;
		}
		return fail(b, -EINVAL, number, "expected a tree entry (\"├───\" or \"└───\")",
			" inside a device whose tree is not complete");
	}
	if (b->depth == 0 || b->device_done) {
		return fail(b, -EINVAL, number, "tree entry outside a device: expected a "
			"\"Node: /dev/dri/...\" line before it", NULL);
	}
	return add_entry(b, text, number, col, mark);
}

int btext_tree_build(struct btext_tree *tree, const char *data, size_t size, const char *name,
	struct hwct_error *err)
{
	struct builder b = { .tree = tree, .name = name, .err = err };
	size_t lines = 1, number = 0;
	char *p;
	int ret;

	memset(tree, 0, sizeof(*tree));
	hwct_error_clear(err);
	if (size > hwct_limits()->json_bytes) {
		return hwct_error_set(err, -EFBIG, name, UINT64_MAX, "%zu bytes exceed the limit of %llu "
			"(HWCT_LIMIT_JSON_BYTES)", size, (unsigned long long)hwct_limits()->json_bytes);
	}
	if (memchr(data, '\0', size)) {
		return hwct_error_set(err, -EINVAL, name, (uint64_t)((const char *)memchr(data, '\0',
			size) - data), "NUL byte in a text profile");
	}
	for (size_t i = 0; i < size; i++) {
		lines += data[i] == '\n';
	}
	if (lines > BOARD_MAX_TEXT_LINES) {
		return hwct_error_set(err, -EFBIG, name, UINT64_MAX, "%zu lines, at most %u", lines,
			BOARD_MAX_TEXT_LINES);
	}
	tree->buf = malloc(size + 1);
	tree->nodes = malloc(lines * sizeof(*tree->nodes));
	if (!tree->buf || !tree->nodes) {
		return hwct_error_set(err, -ENOMEM, name, UINT64_MAX, "out of memory");
	}
	memcpy(tree->buf, data, size);
	tree->buf[size] = '\0';
	p = tree->buf;
	/* A UTF-8 byte order mark. */
	if (starts((const unsigned char *)p, "\xef\xbb\xbf")) {
		p += 3;
	}
	while (p) {
		char *nl = strchr(p, '\n');

		if (nl) {
			*nl = '\0';
		}
		number++;
		rstrip(p, strlen(p));
		if ((ret = read_line(&b, p, number))) {
			return ret;
		}
		p = nl ? nl + 1 : NULL;
	}
	/* drm_info ends every line: text stopping mid-line may be a paste cut short. */
	if (size > 0 && data[size - 1] != '\n') {
		tree->open_line = number;
	}
	if (tree->root_count == 0) {
		return hwct_error_set(err, -EINVAL, name, UINT64_MAX, "line %zu: no \"Node: ...\" "
			"line: not drm_info output", number);
	}
	/* drm_info prints a device's driver and objects under its node line. */
	if (tree->nodes[tree->roots[tree->root_count - 1]].child_count == 0) {
		const struct btext_node *root = &tree->nodes[tree->roots[tree->root_count - 1]];

		return hwct_error_set(err, -EINVAL, name, UINT64_MAX, "line %zu: nothing under "
			"\"%.40s\" (paste cut short?)", root->line, root->text);
	}
	if (!b.device_done) {
		return close_to(&b, 0, tree->last_line, true);
	}
	return 0;
}

void btext_tree_free(struct btext_tree *tree)
{
	free(tree->buf);
	free(tree->nodes);
	memset(tree, 0, sizeof(*tree));
}

const struct btext_node *btext_at(const struct btext_tree *tree, size_t i)
{
	return i == BTEXT_NONE || i >= tree->count ? NULL : &tree->nodes[i];
}

const struct btext_node *btext_child(const struct btext_tree *tree, const struct btext_node *node,
	const char *prefix, bool exact)
{
	size_t len = strlen(prefix);

	if (!node) {
		return NULL;
	}
	for (const struct btext_node *c = btext_at(tree, node->first_child); c;
		c = btext_at(tree, c->next)) {
		if (exact ? strcmp(c->text, prefix) == 0 : strncmp(c->text, prefix, len) == 0) {
			return c;
		}
	}
	return NULL;
}
