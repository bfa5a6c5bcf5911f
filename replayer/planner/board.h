/*
 * The board model: one CRTC of an atomic-KMS device and the planes that can
 * be put on it, as the planners, the profile tester and every backend see
 * it. Filled from a drm_info JSON dump (board_json.c), or by the KMS device
 * from live properties through the construction helpers below, then
 * completed by the per-driver rules (board_rules.c) for what dumps do not
 * show.
 */
#ifndef HWCT_PLANNER_BOARD_H
#define HWCT_PLANNER_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hwct/error.h>

struct json_object;

/* DRM_PLANE_TYPE_* values (drm_mode.h, the "type" plane property). */
enum board_plane_type {
	BOARD_PLANE_OVERLAY = 0,
	BOARD_PLANE_PRIMARY = 1,
	BOARD_PLANE_CURSOR = 2,
};

/* The "rotation" property bits: DRM_MODE_ROTATE_* / DRM_MODE_REFLECT_* (drm_mode.h). */
#define BOARD_ROTATE_0 (1u << 0)
#define BOARD_ROTATE_90 (1u << 1)	/* counter-clockwise */
#define BOARD_ROTATE_180 (1u << 2)
#define BOARD_ROTATE_270 (1u << 3)
#define BOARD_REFLECT_X (1u << 4)
#define BOARD_REFLECT_Y (1u << 5)
#define BOARD_ROTATE_MASK (BOARD_ROTATE_0 | BOARD_ROTATE_90 | BOARD_ROTATE_180 | BOARD_ROTATE_270)
#define BOARD_REFLECT_MASK (BOARD_REFLECT_X | BOARD_REFLECT_Y)

/* Values of the "pixel blend mode" enum, as bits (names "None", "Pre-multiplied", "Coverage"). */
#define BOARD_BLEND_NONE (1u << 0)
#define BOARD_BLEND_PREMULTI (1u << 1)
#define BOARD_BLEND_COVERAGE (1u << 2)

/* drm_fourcc.h: fourcc_code() and the two special modifiers. */
#define BOARD_FOURCC(a, b, c, d) \
	((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | ((uint32_t)(d) << 24))
#define BOARD_MOD_LINEAR 0ull
#define BOARD_MOD_INVALID 0x00ffffffffffffffull	/* "implicit": the driver chooses */

/* DRM_MODE_CONNECTOR_WRITEBACK (drm_mode.h). */
#define BOARD_CONNECTOR_WRITEBACK 18

/* Limits of what a board may hold; the JSON loader refuses more. */
#define BOARD_MAX_PLANES 256
#define BOARD_MAX_FORMATS 1024		/* per plane */
#define BOARD_MAX_MODIFIERS 256		/* per format */
#define BOARD_MAX_CRTCS 32		/* possible_crtcs is a 32-bit mask */
#define BOARD_MAX_SIZE_HINTS 16		/* cursor SIZE_HINTS kept per plane */
#define BOARD_MAX_TEXT_LINES (1u << 20)	/* lines of a drm_info text profile */

/* One format of a plane and the modifiers it is scanned out with. */
struct board_format {
	uint32_t fourcc;		/* DRM_FORMAT_* */
	size_t modifier_count;
	uint64_t *modifiers;		/* owned; LINEAR only when the plane has no IN_FORMATS */
};

struct board_plane {
	uint32_t id;			/* KMS object id */
	enum board_plane_type type;
	uint32_t possible_crtcs;	/* bit per CRTC index */

	size_t format_count;
	struct board_format *formats;	/* owned */
	bool has_in_formats;		/* false: modifiers were implied (LINEAR) */
	size_t empty_modifier_count;	/* IN_FORMATS modifiers with no format under them */
	uint64_t *empty_modifiers;	/* owned; in IN_FORMATS order, each once */

	uint32_t rotations;		/* BOARD_ROTATE_* | BOARD_REFLECT_* accepted; ROTATE_0 when no property */
	bool has_rotation;		/* the "rotation" property exists */

	bool has_alpha;			/* the "alpha" property exists */
	uint64_t alpha_max;		/* its range maximum (0xffff in the uapi) */

	uint32_t blend_modes;		/* BOARD_BLEND_* of "pixel blend mode"; 0 = no property (pre-multiplied) */

	bool has_zpos;
	bool zpos_immutable;
	int64_t zpos_min, zpos_max;	/* property range, when has_zpos */
	int64_t zpos;			/* current (or the immutable) value, when has_zpos */

	bool has_scaling_filter;	/* the "SCALING_FILTER" property exists */

	size_t size_hint_count;		/* cursor "SIZE_HINTS" entries kept (at most BOARD_MAX_SIZE_HINTS) */
	uint16_t size_hints[BOARD_MAX_SIZE_HINTS][2];	/* width, height */

	/* Rules a dump does not show (board_apply_rules, then profile overrides). */
	bool can_scale;			/* SRC size may differ from CRTC size */
	bool solid_fill;		/* can show a solid colour without a buffer */
	bool cursor_size_limit;		/* cursor: CRTC size at most the board's cursor size */
};

/* Why a dump's device was the one read (board.device_pick). */
enum board_device_pick {
	BOARD_PICK_ONLY = 0,		/* the dump holds one device (or none is known) */
	BOARD_PICK_ASKED,		/* asked for by node or position */
	BOARD_PICK_DESKTOP,		/* the first with a connected desktop connector */
	BOARD_PICK_NON_DESKTOP,		/* none has one: the first with a connected non-desktop connector */
	BOARD_PICK_FIRST,		/* nothing connected anywhere: the first with a CRTC */
};

/* One device of a dump (a paste may hold several), as far as picking one needs. */
struct board_device {
	char *node;			/* "/dev/dri/card0"; owned, never NULL ("" unknown) */
	char *driver;			/* owned, never NULL ("" unknown) */
	uint32_t crtcs;			/* CRTCs listed; 0 for a render-only GPU (no display) */
	uint32_t connected;		/* connectors whose status is connected */
	uint32_t connected_non_desktop;	/* of those, marked "non-desktop" (a VR headset, a touch bar) */
};

struct board {
	char *name;			/* file or device the board came from; owned, never NULL */
	char *driver;			/* DRM driver name ("vkms"); owned, never NULL ("" unknown) */

	uint32_t crtc_id;		/* the one CRTC modelled */
	uint32_t crtc_index;		/* its index, for possible_crtcs */
	uint32_t width, height;		/* its mode, pixels; 0 unknown */
	bool mode_from_crtc_only;	/* the dump has no connector: the size is the CRTC's recorded mode */

	size_t crtc_count;		/* every CRTC of the device, by index */
	uint32_t crtc_ids[BOARD_MAX_CRTCS];

	uint32_t cursor_width, cursor_height;	/* DRM_CAP_CURSOR_*; 0 unknown */

	size_t plane_count;
	struct board_plane *planes;	/* owned; every plane of the device, in object-id order */

	bool has_writeback;		/* a writeback connector exists */
	size_t writeback_format_count;
	uint32_t *writeback_formats;	/* owned; WRITEBACK_PIXEL_FORMATS */

	/* Rules a dump does not show (board_apply_rules, then profile overrides). */
	bool primary_full_screen;	/* a visible primary must cover the whole CRTC */
	bool primary_required;		/* the primary must be on whenever the CRTC is */
	uint32_t max_active_planes;	/* at most this many planes on at once; 0 = no limit */
	bool addfb_checks_format;	/* ADDFB2 refuses a format + modifier no plane scans out */

	/* Where in the dump the board came from; no devices when not from a dump. */
	size_t device_count;
	struct board_device *devices;	/* owned; every device of the dump, in dump order */
	size_t device_index;		/* the device read, into devices */
	enum board_device_pick device_pick;	/* why that one */
};

/*
 * Creates an empty board named name (copied; NULL means ""). Returns NULL on
 * allocation failure. Free it with board_destroy.
 */
struct board *board_create(const char *name);

/* Frees board and everything it owns. Accepts NULL. */
void board_destroy(struct board *board);

/*
 * Which of count devices of a dump to read (board_device.c): asked (a node
 * such as "/dev/dri/card1" or its last part "card1", or a 1-based position
 * "2") when not NULL; else
 * the first with a connected desktop connector, as a compositor would
 * light; else the first with any connected connector; else the first with
 * a CRTC (not a render-only GPU); else the first.
 * Returns the index with *pick set, or -ENOENT when asked names no device
 * or count is 0.
 */
int board_pick_device(const struct board_device *devices, size_t count, const char *asked,
	enum board_device_pick *pick);

/*
 * Hands board the devices of its dump (count entries, the array and its
 * strings now owned by the board) and which was read, and why.
 */
void board_set_devices(struct board *board, struct board_device *devices, size_t count,
	size_t index, enum board_device_pick pick);

/* Frees count devices and the array. Accepts NULL. */
void board_devices_free(struct board_device *devices, size_t count);

/*
 * The devices as "1 /dev/dri/card0, 2 /dev/dri/card1" in out (size bytes,
 * cut to fit), for messages. Returns the length written.
 */
size_t board_device_list(const struct board_device *devices, size_t count, char *out,
	size_t size);

/* Why the device was read, as a phrase ("the first with a connected desktop connector"). */
const char *board_device_pick_reason(enum board_device_pick pick);

/* Replaces the driver name (copied). Returns 0 or -ENOMEM. */
int board_set_driver(struct board *board, const char *driver);

/*
 * Appends a plane with the given id and type, no formats, rotation ROTATE_0
 * only and no optional property. Returns the plane, owned by the board and
 * valid until the next board_add_plane, or NULL on allocation failure or
 * when the board already holds BOARD_MAX_PLANES planes.
 */
struct board_plane *board_add_plane(struct board *board, uint32_t id, enum board_plane_type type);

/*
 * Records that plane scans out fourcc with modifier (each pair once).
 * Returns 0, -ENOMEM, or -E2BIG past BOARD_MAX_FORMATS / BOARD_MAX_MODIFIERS.
 */
int board_plane_add_format(struct board_plane *plane, uint32_t fourcc, uint64_t modifier);

/*
 * Records that plane's IN_FORMATS lists modifier with no format under it
 * (each modifier once). Returns 0, -ENOMEM, or -E2BIG past
 * BOARD_MAX_MODIFIERS.
 */
int board_plane_add_empty_modifier(struct board_plane *plane, uint64_t modifier);

/* Appends a writeback format. Returns 0 or -ENOMEM. */
int board_add_writeback_format(struct board *board, uint32_t fourcc);

/*
 * Sets the rules a dump does not show from the per-driver table
 * (board_rules.c) for board->driver: primary_full_screen, primary_required,
 * max_active_planes and, per plane, can_scale (the driver's rule, or true
 * when the plane has SCALING_FILTER), solid_fill and cursor_size_limit.
 * Call it once the planes are in; overrides go after it.
 */
void board_apply_rules(struct board *board);

/*
 * Narrows live, a device shaped like dump (board_vkms.c), to what dump's
 * planes can do: plane i of live (object-id order) is dump's plane
 * dump_ids[i] (0: none, left as it is), for i < count; it keeps only the
 * formats that plane lists (any modifier), the rotations it offers, and
 * scaling and solid fill only where both have them; the board-wide rules
 * (primary full screen or required, active plane limit, cursor size) take
 * the stricter of the two. What vkms has not (zpos, alpha, blend modes)
 * stays absent.
 */
void board_constrain(struct board *live, const struct board *dump, const uint32_t *dump_ids, size_t count);

/* The plane with that object id, or NULL. */
const struct board_plane *board_find_plane(const struct board *board, uint32_t id);

/* The plane's entry for fourcc, or NULL. */
const struct board_format *board_plane_find_format(const struct board_plane *plane, uint32_t fourcc);

/*
 * Whether plane scans out fourcc with modifier. BOARD_MOD_INVALID (implicit
 * modifier) matches any listed format.
 */
bool board_plane_has_format(const struct board_plane *plane, uint32_t fourcc, uint64_t modifier);

/*
 * Whether any plane of the device (any CRTC) scans out fourcc with modifier:
 * what ADDFB2 checks on drivers that check (board.addfb_checks_format).
 */
bool board_any_plane_has_format(const struct board *board, uint32_t fourcc, uint64_t modifier);

/* Whether plane can be put on the board's CRTC. */
bool board_plane_usable(const struct board *board, const struct board_plane *plane);

/*
 * The plane's place in the stacking order, higher is nearer the viewer: the
 * zpos value when the plane has the property, else primary < overlays <
 * cursor, then by object id (the creation order, which drivers without
 * zpos such as vkms blend in).
 */
int64_t board_plane_rank(const struct board_plane *plane);

/* The first primary plane usable on the board's CRTC, or NULL. */
const struct board_plane *board_primary(const struct board *board);

/* "primary", "overlay", "cursor" or "unknown". */
const char *board_plane_type_name(enum board_plane_type type);

/*
 * Loads a board from a drm_info JSON dump (`drm_info -j`, a top-level object
 * keyed by device node). node names the node to use (or its 1-based
 * position); NULL picks one as board_pick_device does. The board is the
 * first CRTC that has a mode and drives no non-desktop connector (else the
 * first with a mode, else the first CRTC) and every plane of the device. A node object may carry an "hwctrace" object
 * of rule overrides, and so may each plane (replayer/planner/README.md).
 * Returns the board (free with board_destroy), or NULL with err filled
 * ("FILE: JSON.PATH: what"); err may be NULL.
 */
struct board *board_from_drm_info_json(const char *path, const char *node, struct hwct_error *err);

/* The same from size bytes of JSON in memory; name is used in messages. */
struct board *board_from_drm_info_buffer(const char *data, size_t size, const char *name,
	const char *node, struct hwct_error *err);

/* The same from a parsed tree (borrowed); name is used in messages. */
struct board *board_from_drm_info_object(struct json_object *root, const char *name,
	const char *node, struct hwct_error *err);

/*
 * Loads a board from plain `drm_info` output (the tree people paste;
 * board_text*.c), size bytes of data. The paste may be wrapped in a
 * Markdown code fence, indented, have CRLF line ends, tabs and trailing
 * spaces, and hold several devices: device picks one by its "Node:" path or
 * by its 1-based position ("2"); NULL picks one as board_pick_device does
 * (the first with a connected desktop connector). What a real driver may
 * leave out is tolerated: IN_FORMATS, a modifier's formats, connectors,
 * modes, a plane's CRTC list (no CRTC), unknown entries and properties.
 * A paste cut short is an error
 * naming the line and what was expected. Returns the board (free with
 * board_destroy), or NULL with err filled ("NAME: line N: what"); err may
 * be NULL.
 */
struct board *board_from_drm_info_text(const char *data, size_t size, const char *name,
	const char *device, struct hwct_error *err);

/*
 * Loads a board profile file, drm_info JSON or text as its content says
 * (JSON starts with '{'), at most the JSON_BYTES limit (hwct/limits.h). device as for
 * the two loaders (a node key for JSON). Returns the board or NULL with err
 * filled.
 */
struct board *board_from_file(const char *path, const char *device, struct hwct_error *err);

/* The same from size bytes in memory; name is used in messages. */
struct board *board_from_buffer(const char *data, size_t size, const char *name,
	const char *device, struct hwct_error *err);

/* The four-character code of fourcc ("AB24"), or "0x%08x" when not printable, in buf. Returns buf. */
const char *board_fourcc_name(uint32_t fourcc, char buf[12]);

/*
 * The board as a new JSON object (board_describe.c; free with
 * json_object_put): the dump's devices and which was read (null when not
 * from a dump), driver, CRTCs, the modelled CRTC and its mode, cursor
 * size, every plane (type, possible CRTCs, formats x modifiers, IN_FORMATS
 * modifiers with no format, zpos, rotation, alpha, blend modes, size
 * hints, assumed rules), writeback formats and the board's assumed rules.
 * Not the board's name.
 */
struct json_object *board_to_json(const struct board *board);

/* The same as text on f. */
void board_print(FILE *f, const struct board *board);

#endif
