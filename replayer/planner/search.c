/*
 * The "search" planner: libliftoff's plane allocation (alloc.c,
 * docs/platform.md §2), a depth-first search over planes rather than
 * layers, because some drivers want the primary enabled before any other
 * plane.
 *
 * Planes usable on the CRTC are visited primary first, then from the top of
 * the stack down (board_plane_rank, descending; the primary is taken as the
 * bottom). At each plane the search tries every layer not yet placed that
 * the static check lets on it (plane_check) and that keeps the z-order,
 * then the client target ("composition layer"), then leaving the plane off.
 * Each try adds the plane to the configuration built so far and asks the
 * tester (one TEST_ONLY commit); refused branches are cut. When composition
 * cannot be avoided (client layers, a layer no plane takes, more layers
 * than planes) the client target is tried on the primary first.
 *
 * z-order: every client-composited layer sits in the client target, at its
 * plane's rank. A layer may go on a plane only if every overlapping layer
 * already placed (on a higher plane) is above it, and — unless the client
 * target is already above it — every overlapping layer above it is already
 * placed (one left for later would end up under it). A layer may go on the
 * primary only if nothing overlapping it is below it. Each complete
 * allocation is checked once more against the planes' ranks (order_holds).
 * Unlike libliftoff, which keeps the composition layer on the primary, the
 * client target may so go on any plane where the order allows it (then in a
 * format with alpha: it is transparent where nothing was composited).
 *
 * Score = layers on planes (the client target does not count). A result
 * must place every layer or use the client target, and may not use the
 * client target when every layer is placed. A branch is cut when even
 * filling every remaining plane could not beat the best score (checked
 * before each try, as the best may improve meanwhile). The
 * deadline (default 1 ms) is checked before each test; when it passes the
 * best allocation so far is kept.
 *
 * Why a layer is left to the client: its own reasons (client-requested,
 * import); else, when no plane passes the static check, the union of what
 * each plane refused; else, per plane that passes it: no-plane when the
 * result uses that plane, zpos when putting it there breaks the z-order,
 * test-failed when the tester refused it there, budget when the deadline
 * cut the search short.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plane_check.h"
#include "planner_private.h"

#define EMPTY (SIZE_MAX - 1)		/* alloc[]: the plane stays off */
#define TARGET PLAN_LAYER_CLIENT_TARGET	/* alloc[]: the client target */

#define REFUSED_TEST (1u << 0)
#define REFUSED_ZPOS (1u << 1)

#define TIMED_OUT 1			/* try(): the deadline passed, nothing tested */

struct search {
	const struct planner_options *opts;
	const struct board *board;
	const struct scene *scene;
	const struct board_tester *tester;
	struct plan *plan;

	size_t np, n;
	const struct board_plane **planes;	/* visiting order; planes[0] the primary when has_primary */
	int64_t *rank;				/* per plane: board_plane_rank */
	bool has_primary;
	uint32_t *static_bits;			/* [layer * np + plane]: plane_check */
	uint8_t *refused;			/* [layer * np + plane]: REFUSED_* seen */
	bool *candidate;			/* per layer: not client by its own reasons */
	size_t candidate_count, forced_count;
	bool must_compose;			/* composition cannot be avoided */

	size_t *alloc;				/* per plane: layer, TARGET or EMPTY */
	bool *placed;				/* per layer */
	struct plan_plane_state *states;	/* the candidate's planes, in visiting order */
	size_t state_count;
	bool has_target;
	struct plan_plane_state target;
	size_t target_plane;			/* its plane index, when has_target */

	size_t *best;				/* per plane, like alloc */
	int best_score;				/* -1 before the first valid allocation */
	bool target_accepted;			/* some test with the client target passed */
	bool oom;				/* keeping the best candidate failed */

	int64_t deadline;			/* planner_now_ns() limit; INT64_MAX none */

	int64_t *at;				/* order_holds scratch, per layer */
	bool *on_plane;				/* order_holds scratch, per layer */
};

static bool intersect(const struct search *s, size_t a, size_t b)
{
	return plane_check_layers_intersect(&s->scene->layers[a], &s->scene->layers[b]);
}

static bool is_primary_step(const struct search *s, size_t k)
{
	return k == 0 && s->has_primary;
}

/* Whether layer i may go on plane k given the planes visited before it. */
static bool order_allows(const struct search *s, size_t i, size_t k)
{
	if (is_primary_step(s, k)) {
		for (size_t j = 0; j < i; j++) {
			if (intersect(s, i, j)) {
				return false;
			}
		}
		return true;
	}
	for (size_t m = s->has_primary ? 1 : 0; m < k; m++) {
		size_t j = s->alloc[m];

		if (j == EMPTY || j == TARGET || !intersect(s, i, j)) {
			continue;
		}
		if (j < i || s->rank[m] <= s->rank[k]) {
			return false;
		}
	}
	if (s->has_target && s->rank[s->target_plane] > s->rank[k]) {
		return true;	/* what is left may still end up in the client target, above */
	}
	for (size_t j = i + 1; j < s->n; j++) {
		if (!s->placed[j] && intersect(s, i, j)) {
			return false;
		}
	}
	return true;
}

/*
 * The rank each layer ends up at under alloc (extra: layer extra_layer
 * moved onto plane extra_plane, when not SIZE_MAX); composited layers sit
 * at the client target's plane (without one, they constrain nothing).
 * Returns whether every overlapping pair keeps its order.
 */
static bool order_holds(const struct search *s, const size_t *alloc, size_t extra_layer,
	size_t extra_plane)
{
	int64_t target_rank = INT64_MIN;
	int64_t *at = s->at;
	bool *on_plane = s->on_plane;

	memset(on_plane, 0, s->n * sizeof(*on_plane));
	for (size_t k = 0; k < s->np; k++) {
		if (alloc[k] == TARGET) {
			target_rank = s->rank[k];
		} else if (alloc[k] != EMPTY) {
			at[alloc[k]] = s->rank[k];
			on_plane[alloc[k]] = true;
		}
	}
	if (extra_layer != SIZE_MAX) {
		at[extra_layer] = s->rank[extra_plane];
		on_plane[extra_layer] = true;
	}
	for (size_t i = 0; i < s->n; i++) {
		if (!on_plane[i]) {
			at[i] = target_rank;
		}
	}
	for (size_t i = 0; i < s->n; i++) {
		for (size_t j = i + 1; j < s->n; j++) {
			bool both_known = (on_plane[i] && on_plane[j]) || target_rank != INT64_MIN;

			if ((on_plane[i] || on_plane[j]) && both_known && intersect(s, i, j) &&
				at[i] >= at[j]) {
				return false;
			}
		}
	}
	return true;
}

static void leaf(struct search *s, int score, bool composited)
{
	size_t unplaced = s->candidate_count - (size_t)score + s->forced_count;

	if (unplaced > 0 && !composited) {
		return;		/* some layer would be shown by nobody */
	}
	if (unplaced == 0 && composited) {
		return;		/* composition when every layer has a plane */
	}
	if (score <= s->best_score || !order_holds(s, s->alloc, SIZE_MAX, 0)) {
		return;
	}
	s->best_score = score;
	memcpy(s->best, s->alloc, s->np * sizeof(*s->best));
	/* every placement on the way here passed its test: this is what to commit */
	{
		struct plan_candidate cand = {
			.count = s->state_count,
			.planes = s->states,
			.has_client_target = s->has_target,
			.client_target = s->target,
		};

		if (plan_keep_candidate(s->plan, &cand) < 0) {
			s->oom = true;
		}
	}
}

/* Tests the configuration built so far. Returns 0, the tester's error, or TIMED_OUT. */
static int try(struct search *s)
{
	struct plan_candidate cand = {
		.count = s->state_count,
		.planes = s->states,
		.has_client_target = s->has_target,
		.client_target = s->target,
	};

	if (s->deadline != INT64_MAX && planner_now_ns() >= s->deadline) {
		s->plan->timed_out = true;
		return TIMED_OUT;
	}
	return planner_test(s->tester, &cand, s->plan);
}

static int step(struct search *s, size_t k, int score, bool composited);

/*
 * Whether nothing from plane k on can beat the best: at most one layer per
 * remaining plane (planes_used of them taken by something else), at most
 * the layers left.
 */
static bool hopeless(const struct search *s, size_t k, int score, size_t planes_used)
{
	size_t remaining = s->np - k, unplaced = s->candidate_count - (size_t)score;

	remaining = remaining > planes_used ? remaining - planes_used : 0;
	return s->best_score >= 0 &&
		(size_t)s->best_score >= (size_t)score + (remaining < unplaced ? remaining : unplaced);
}

/* Layer i on plane k, then the planes below. */
static int branch_layer(struct search *s, size_t i, size_t k, int score, bool composited)
{
	int ret;

	plane_check_state(s->board, s->planes[k], s->scene, i, 0, &s->states[s->state_count++]);
	s->alloc[k] = i;
	s->placed[i] = true;
	ret = try(s);
	if (ret == 0) {
		ret = step(s, k + 1, score + 1, composited);
	} else if (board_tester_refused(ret)) {
		s->refused[i * s->np + k] |= REFUSED_TEST;
		ret = 0;
	} else if (ret == TIMED_OUT) {
		ret = 0;
	}
	s->placed[i] = false;
	s->alloc[k] = EMPTY;
	s->state_count--;
	return ret;
}

/* The client target on plane k, then the planes below. */
static int branch_target(struct search *s, size_t k, int score)
{
	int ret;

	if (hopeless(s, k, score, 1) ||
		!planner_client_target_state(s->board, s->planes[k], s->scene, s->opts,
			is_primary_step(s, k), &s->target)) {
		return 0;
	}
	s->has_target = true;
	s->target_plane = k;
	s->alloc[k] = TARGET;
	ret = try(s);
	if (ret == 0) {
		s->target_accepted = true;
		ret = step(s, k + 1, score, true);
	} else if (board_tester_refused(ret) || ret == TIMED_OUT) {
		ret = 0;
	}
	s->alloc[k] = EMPTY;
	s->has_target = false;
	return ret;
}

/* Every layer that may go on plane k, each followed by the planes below. */
static int branch_layers(struct search *s, size_t k, int score, bool composited)
{
	int ret;

	for (size_t o = 0; o < s->n; o++) {
		/* The primary takes the bottom layer first, the others the top one. */
		size_t i = is_primary_step(s, k) ? o : s->n - 1 - o;

		if (hopeless(s, k, score, 0)) {
			return 0;	/* the best improved meanwhile */
		}
		if (!s->candidate[i] || s->placed[i] || s->static_bits[i * s->np + k]) {
			continue;
		}
		if (!order_allows(s, i, k)) {
			s->refused[i * s->np + k] |= REFUSED_ZPOS;
			continue;
		}
		if ((ret = branch_layer(s, i, k, score, composited))) {
			return ret;
		}
		if (s->plan->timed_out) {
			return 0;
		}
	}
	return 0;
}

static int step(struct search *s, size_t k, int score, bool composited)
{
	size_t unplaced = s->candidate_count - (size_t)score;
	bool target_useful = !composited && s->n > 0 && (s->forced_count > 0 || unplaced > 0);
	bool target_first = target_useful && is_primary_step(s, k) && s->must_compose;
	int ret;

	if (s->plan->timed_out) {
		return 0;
	}
	if (k == s->np) {
		leaf(s, score, composited);
		return 0;
	}
	if (hopeless(s, k, score, 0)) {
		return 0;	/* cannot beat the best */
	}
	if (target_first && ((ret = branch_target(s, k, score)) || s->plan->timed_out)) {
		return ret;
	}
	if ((ret = branch_layers(s, k, score, composited)) || s->plan->timed_out) {
		return ret;
	}
	if (target_useful && !target_first &&
		((ret = branch_target(s, k, score)) || s->plan->timed_out)) {
		return ret;
	}
	if (hopeless(s, k, score, 1)) {
		return 0;
	}
	return step(s, k + 1, score, composited);
}

/* planes: the primary, then the other usable planes by descending rank (then id). */
static void order_planes(struct search *s)
{
	const struct board *board = s->board;
	const struct board_plane *primary = board_primary(board);

	if (primary) {
		s->planes[s->np++] = primary;
		s->has_primary = true;
	}
	for (size_t i = 0; i < board->plane_count; i++) {
		const struct board_plane *plane = &board->planes[i];
		size_t at;

		if (plane == primary || !board_plane_usable(board, plane)) {
			continue;
		}
		/* Insertion sort: a few dozen planes at most. */
		at = s->np;
		while (at > (s->has_primary ? 1u : 0u)) {
			const struct board_plane *prev = s->planes[at - 1];
			int64_t rp = board_plane_rank(prev), rq = board_plane_rank(plane);

			if (rp > rq || (rp == rq && prev->id > plane->id)) {
				break;
			}
			s->planes[at] = prev;
			at--;
		}
		s->planes[at] = plane;
		s->np++;
	}
	for (size_t k = 0; k < s->np; k++) {
		s->rank[k] = board_plane_rank(s->planes[k]);
		s->alloc[k] = EMPTY;
		s->best[k] = EMPTY;
	}
}

static void classify_layers(struct search *s)
{
	bool placeable;

	for (size_t i = 0; i < s->n; i++) {
		uint32_t own = plane_check_layer(&s->scene->layers[i]);

		s->candidate[i] = own == 0;
		if (own) {
			s->plan->layers[i].reasons = own;
			s->forced_count++;
			continue;
		}
		s->candidate_count++;
		placeable = false;
		for (size_t k = 0; k < s->np; k++) {
			s->static_bits[i * s->np + k] =
				plane_check(s->board, s->planes[k], s->scene, i, 0);
			placeable = placeable || s->static_bits[i * s->np + k] == 0;
		}
		s->must_compose = s->must_compose || !placeable;
	}
	s->must_compose = s->must_compose || s->forced_count > 0 || s->candidate_count > s->np;
}

/* Why candidate layer i, left to the client by the result, did not get a plane. */
static uint32_t explain(const struct search *s, size_t i)
{
	uint32_t all = 0, why = 0;
	bool any_ok = false;

	for (size_t k = 0; k < s->np; k++) {
		uint32_t bits = s->static_bits[i * s->np + k];
		uint8_t refused = s->refused[i * s->np + k];

		if (bits) {
			all |= bits;
			continue;
		}
		any_ok = true;
		if (s->best[k] != EMPTY) {
			why |= PLAN_REASON_NO_PLANE;
		} else if (!order_holds(s, s->best, i, k)) {
			why |= PLAN_REASON_ZPOS;
		} else if (refused & REFUSED_TEST) {
			why |= PLAN_REASON_TEST_FAILED;
		} else if (refused & REFUSED_ZPOS) {
			why |= PLAN_REASON_ZPOS;
		} else if (s->plan->timed_out) {
			why |= PLAN_REASON_BUDGET;
		} else {
			why |= PLAN_REASON_NO_PLANE;
		}
	}
	if (!any_ok) {
		return all ? all : PLAN_REASON_NO_PLANE;
	}
	return why;
}

static void write_plan(struct search *s)
{
	struct plan *plan = s->plan;
	const struct board_plane *primary = s->has_primary ? s->planes[0] : NULL;

	if (s->best_score < 0) {
		/* Nothing valid found: all client, the client target where it would go. */
		for (size_t k = 0; k < s->np; k++) {
			s->best[k] = EMPTY;
		}
		if (primary && (s->target_accepted || plan->timed_out)) {
			s->best[0] = TARGET;
		}
	}
	for (size_t k = 0; k < s->np; k++) {
		if (s->best[k] == TARGET) {
			plan->client_target_plane = s->planes[k]->id;
		} else if (s->best[k] != EMPTY) {
			plan->layers[s->best[k]].plane_id = s->planes[k]->id;
		}
	}
	for (size_t i = 0; i < s->n; i++) {
		if (s->candidate[i] && plan->layers[i].plane_id == 0) {
			plan->layers[i].reasons = explain(s, i);
		}
	}
	planner_finish(plan);
}

static int search_plan(const struct planner_options *opts, const struct board *board,
	const struct scene *scene, const struct board_tester *tester, struct plan *plan)
{
	size_t n = scene->layer_count, np = board->plane_count;
	size_t cells = (n ? n : 1) * (np ? np : 1);
	struct search s = {
		.opts = opts,
		.board = board,
		.scene = scene,
		.tester = tester,
		.plan = plan,
		.n = n,
		.best_score = -1,
		.deadline = INT64_MAX,
	};
	int64_t budget = opts->budget_ns ? opts->budget_ns : PLANNER_DEFAULT_BUDGET_NS;
	int ret = -ENOMEM;

	if (budget != INT64_MAX) {
		int64_t now = planner_now_ns();

		s.deadline = budget > INT64_MAX - now ? INT64_MAX - 1 : now + (budget > 0 ? budget : 0);
	}
	s.planes = calloc(np ? np : 1, sizeof(*s.planes));
	s.rank = calloc(np ? np : 1, sizeof(*s.rank));
	s.alloc = calloc(np ? np : 1, sizeof(*s.alloc));
	s.best = calloc(np ? np : 1, sizeof(*s.best));
	s.states = calloc(np ? np : 1, sizeof(*s.states));
	s.static_bits = calloc(cells, sizeof(*s.static_bits));
	s.refused = calloc(cells, sizeof(*s.refused));
	s.candidate = calloc(n ? n : 1, sizeof(*s.candidate));
	s.placed = calloc(n ? n : 1, sizeof(*s.placed));
	s.at = calloc(n ? n : 1, sizeof(*s.at));
	s.on_plane = calloc(n ? n : 1, sizeof(*s.on_plane));
	if (s.planes && s.rank && s.alloc && s.best && s.states && s.static_bits && s.refused &&
		s.candidate && s.placed && s.at && s.on_plane) {
		order_planes(&s);
		classify_layers(&s);
		ret = step(&s, 0, 0, false);
		if (ret == 0 && s.oom) {
			ret = -ENOMEM;
		}
		if (ret == 0) {
			write_plan(&s);
		}
	}
	free(s.on_plane);
	free(s.at);
	free(s.placed);
	free(s.candidate);
	free(s.refused);
	free(s.static_bits);
	free(s.states);
	free(s.best);
	free(s.alloc);
	free(s.rank);
	free(s.planes);
	return ret;
}

const struct planner_impl planner_search_impl = {
	.name = "search",
	.plan = search_plan,
};
