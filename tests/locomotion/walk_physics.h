/* Issue 21's physics bounds over a whole walk, for both walkers' tables (test_walk_physics.c,
 * tests/matching/test_match_physics.c): every frame measured (ak_walk_metrics), the frame,
 * point and phase of each extreme kept, the bounds from physics and the source, and the table
 * of rows still out (each with its measured reason; a listed row that holds fails the test,
 * so the table only shrinks). */
#ifndef AK_TEST_WALK_PHYSICS_H
#define AK_TEST_WALK_PHYSICS_H

#include "walk_util.h"
#include "locomotion/internal.h" /* ak_walk_points_floor */

/* Ridges and a bowl (not walk_make_pgm's sine products): the heightmap no other test walks. */
static inline double walk_ridges_height(double x, double z)
{
    return 0.5 + 0.3 * sin(0.55 * x + 0.8) * sin(0.47 * z + 0.1) + 0.12 * cos(1.1 * x - 0.6 * z) +
           0.05 * sin(2.3 * z + 0.4 * x);
}

/* A 129 x 129 16-bit heightmap of walk_ridges_height, 32 m wide, 1.5 m high. */
static inline ak_terrain *walk_ridges_terrain(void)
{
    size_t bytes;
    char *pgm = walk_pgm_of(129, 16.0, walk_ridges_height, &bytes);
    ak_terrain *t = NULL;
    const int32_t st = ak_terrain_read_pgm_memory(pgm, bytes, 32.0f, 1.5f, &t, NULL);
    free(pgm);
    return st == AK_OK ? t : NULL;
}

/* Frames measured at most (30 s at 120 fps). */
#define PHYS_MAX_FRAMES 3601

/* A worst per-frame move (m, 3D) and where: frame, side (0 left), point (0 heel, 1 toe),
 * whether that foot was planted at the frame's end. */
typedef struct phys_move {
    float move;
    int frame, side, point, stance;
} phys_move;

typedef struct physics_walk {
    ak_walk_metrics m, src;
    ak_walker_state last;
    char phase[PHYS_MAX_FRAMES]; /* per frame: s start, w walk, p stop, i standing */
    int frames;
    int hip_min_frame, hip_max_frame, knee_frame; /* where each extreme was reached */
    int skate_frame;                              /* the worst skate's frame */
    /* The worst per-frame move of a heel (sole point) or toe within PHYS_DOWN of the ground
     * under it (or below it) at both ends of the frame: any such point, held or not (on_ground,
     * printed), and one whose foot's stance begins at the frame's end (landing, asserted);
     * the source's own worst (source_ground_move); the walk's frame time. */
    phys_move on_ground, landing;
    float src_ground_move, dt;
    ak_vec3 prev_point[2][2]; /* [side][heel, toe] last frame */
    int prev_down[2][2];      /* 1 when that point was within PHYS_DOWN of its ground */
    int prev_stance[2];
    /* Hover (physics_hover): the horizontal speed (m/s) of each heel or toe the source has
     * down in both frames of a pair while the walker's point is at most PHYS_HOVER_HIGH above
     * its ground at both ends and more than AK_WALK_SKATE_HEIGHT above it at either: the pairs
     * the skate measure leaves out. [0]: start and walk, [1]: stop and standing. Their sums and
     * counts, the worst pair (move: m/s; stance: whether the walker had that foot planted) and
     * its height above the ground at the frame's end; the skate's pairs of each part (sums and
     * counts, ak_walk_metrics' by frame), which the hover's mean of that part includes. Each
     * part is held to the bounds on its own: hover_walk_why and hover_why (set by the caller,
     * NULL: asserted) the traced reason a row's hover is still out walking ([0]) and at the
     * stop ([1]). */
    double hover_sum[2], skate_part_sum[2];
    int hover_n[2], skate_part_n[2];
    phys_move hover[2];
    float hover_height[2];
    const char *hover_walk_why, *hover_why;
    float prev_height[2][2]; /* [side][heel, toe] above its ground last frame (NaN: none) */
    /* Toe held up (physics_hover): the highest a toe the source stands on (its toe alone down,
     * in both frames of a pair) is above its ground, whatever the walker does with it (held in
     * place, carried along or lifted: a person sees a foot the source stands on in the air
     * either way), any part of the walk (move: m above the ground; 0: none over
     * PHYS_HOVER_HIGH). The ground a toe stands on is the highest under its forefoot near the
     * toe (physics_toe_support): a toe just past a stair's edge rests on the edge, not on the
     * tread below. toe_ground (set by the caller: the walk's ground; NULL: the ground under
     * the toe point alone). toe_up_now: frames in a row each toe has been so (its current
     * run); toe_held_run: the run the worst frame belongs to, in frames, to its last frame.
     * toe_held_still: the same held in place (moving under issue 21's planted 1 cm/s: a lock
     * held in the air), the measure's figure until it counted any motion; a row listed for a
     * toe carried or lifted (PHYS_TOE_MOVING) still asserts it. */
    phys_move toe_held_up, toe_held_still;
    int toe_up_now[2], toe_held_run;
    const ak_ground *toe_ground;
    /* Support (physics_support): frames where the source has a foot down (not in flight) and
     * neither walker foot has a heel or toe within AK_WALK_SKATE_HEIGHT of its ground (a hop
     * the source does not make); their count ([0] start and walk, [1] stop, [2] standing), the
     * first such frame of each part (-1: none) and the longest run of them in a row with the
     * frame it ends on. support_stop (set by the caller): the stop's frames are asserted too
     * (the matcher's: its stop holds the stand frame, both feet down); support_why (set by the
     * caller, NULL: asserted) the traced reason a row's support is still out. */
    int unsupported[3], unsupported_first[3], unsupported_run, unsupported_run_end, run_now;
    int support_stop;
    const char *support_why;
    int32_t prev_source[2]; /* the source's contact bits last frame */
    /* Drag: the library's measure (ak_walk_metrics.drag of m, of src the source's own per
     * point, ak_walk_metrics_drag_worst; walkmetrics.h): a heel or toe within
     * AK_WALK_DRAG_HEIGHT of its ground at both ends of a frame moving faster than the source
     * ever moves that point that low, at least AK_WALK_DRAG_FLOOR. A row's drag still out has
     * its traced reason in the including test's table (physics_drag_known). */
} physics_walk;

/* A row whose drag (ak_walk_metrics.drag) is still out: its label and the traced reason. */
typedef struct drag_out {
    const char *label;
    const char *why;
} drag_out;

/* The reason the including test lists for row `label`'s drag being out (its k_drag_out), or
 * NULL: the row's drag is asserted. Each test that includes this header defines it. */
static const char *physics_drag_known(const char *label);
/* The same for a toe held up (physics_walk.toe_held_up over PHYS_HOVER_HIGH; k_toe_held_out). */
static const char *physics_toe_held_known(const char *label);

/* The reason listed for `label` in table[0..n), or NULL. */
static inline const char *drag_listed(const drag_out *table, size_t n, const char *label)
{
    for (size_t k = 0; k < n; ++k)
        if (strcmp(table[k].label, label) == 0) return table[k].why;
    return NULL;
}

/* A listed reason that begins with PHYS_AT_BOUND marks a row whose figure sits on its bound:
 * out in one of the suite's builds, within in the other (the sanitizer build's scalar paths
 * and the SSE build round differently). Such a row may be within without failing the table's
 * "listed but within" check; it still prints which. Every other listed row must be out. */
#define PHYS_AT_BOUND "at its bound, out in one build: "
static inline int physics_at_bound(const char *why)
{
    return why && strncmp(why, PHYS_AT_BOUND, sizeof PHYS_AT_BOUND - 1) == 0;
}

/* A listed toe-held-up reason that begins with PHYS_TOE_MOVING marks a row out only since the
 * measure counts a toe whatever its speed (physics_walk.toe_held_up): its toe is carried or
 * lifted, not held in place in the air, and the row still asserts the held-in-place figure
 * (toe_held_still) as before. */
#define PHYS_TOE_MOVING "carried or lifted, not held in place: "
static inline int physics_toe_moving(const char *why)
{
    return why && strncmp(why, PHYS_TOE_MOVING, sizeof PHYS_TOE_MOVING - 1) == 0;
}

/* Height above its ground within which a heel or toe counts as on the ground. */
#define PHYS_DOWN 0.01f
/* m/s: the fastest a landing foot's heel or toe may move within PHYS_DOWN of the ground in
 * its landing frame, where the source's own worst is less. A landing foot decelerates to 0;
 * the captures' heels and toes on their floor move at most 4-14 mm a frame (0.5-1.7 m/s at
 * 120 fps, 36 mm at 07_01's), the walkers' landings at most 1.8 m/s; the matcher's pop at a
 * transition that began a stance (0.24 m in a frame, 14.5 m/s, matcher.c cancel_offset)
 * and its stops' 3.6-7.3 m/s are not believable. */
#define PHYS_LAND_SPEED 2.0f

/* Books the move of each heel and toe on the ground at both ends of frame f. */
static inline void physics_ground_moves(physics_walk *r, const ak_walker_state *s, int f)
{
    for (int k = 0; k < 2; ++k)
        for (int p = 0; p < 2; ++p) {
            const ak_vec3 at = p ? s->toe[k] : s->sole[k];
            const float g = p ? s->toe_ground[k] : s->sole_ground[k];
            const int down = isfinite(g) && at.y - g <= PHYS_DOWN;
            if (down && r->prev_down[k][p] && f > 0) {
                const ak_vec3 q = r->prev_point[k][p];
                const float dx = at.x - q.x, dy = at.y - q.y, dz = at.z - q.z;
                const float move = sqrtf(dx * dx + dy * dy + dz * dz);
                const phys_move w = {move, f, k, p, s->stance[k]};
                if (move > r->on_ground.move) r->on_ground = w;
                if (s->stance[k] && !r->prev_stance[k] && move > r->landing.move) r->landing = w;
            }
            r->prev_point[k][p] = at;
            r->prev_down[k][p] = down;
        }
}

/* The source's own worst per-frame move (m, 3D) of a heel or toe on its floor at both ends of
 * the frame, over one run of `frames` frames: pts holds each frame's heel (sole point) and
 * toe of both feet, [frame][foot][heel, toe], travel included; a point is on its floor within
 * PHYS_DOWN of its lowest over the run (the capture's floor, ak_walk_points_floor). */
static inline float source_ground_move(const ak_vec3 *pts, int32_t frames)
{
    float floor[4], worst = 0.0f;
    ak_walk_points_floor(pts, frames, floor);
    for (int32_t f = 1; f < frames; ++f)
        for (int i = 0; i < 4; ++i) {
            const ak_vec3 a = pts[4 * (f - 1) + i], b = pts[4 * f + i];
            if (a.y - floor[i] > PHYS_DOWN || b.y - floor[i] > PHYS_DOWN) continue;
            const float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
            worst = fmaxf(worst, sqrtf(dx * dx + dy * dy + dz * dz));
        }
    return worst;
}

/* m: the top of the hover band above the skate measure's AK_WALK_SKATE_HEIGHT: a point the
 * source plants that the walker keeps this close over the ground is a foot held just off it,
 * not a step (a swing's toe clears the ground by more within a frame or two). */
#define PHYS_HOVER_HIGH 0.05f

/* m: the part of the heel->toe segment next to the toe whose ground can hold the toe up (the
 * toe point lies 1-2 cm inside the shoe's tip; a forefoot resting on a stair's edge that close). */
#define PHYS_TOE_REST 0.03f

/* The ground that supports a toe at `toe` of a foot whose heel (sole point) is at `heel`: the
 * highest of `under` (the ground under the toe point) and `ground` under the last PHYS_TOE_REST
 * of the heel->toe segment (1 cm apart). Over a flat tread it is the tread: a toe held up over
 * it is still read as up. */
static inline float physics_toe_support(const ak_ground *ground, ak_vec3 heel, ak_vec3 toe,
                                        float under)
{
    const float dx = heel.x - toe.x, dz = heel.z - toe.z, len = sqrtf(dx * dx + dz * dz);
    if (!ground || !(len > 1e-3f)) return under;
    float g = under;
    for (int i = 0; i <= 3; ++i) {
        const float t = fminf(PHYS_TOE_REST * (float)i / 3.0f, len) / len;
        ak_ground_hit hit;
        if (ak_ground_query(ground, toe.x + dx * t, toe.z + dz * t, &hit) && hit.height > g)
            g = hit.height;
    }
    return g;
}

/* Books frame f's hover pairs (`phase` as physics_add's): each heel and toe the source has
 * down (its contact bits) at both ends of the frame, the walker's point at most PHYS_HOVER_HIGH
 * above its ground at both ends and more than AK_WALK_SKATE_HEIGHT above it at either (the
 * skate measure counts the rest): its horizontal speed, which should be a planted point's. */
static inline void physics_hover(physics_walk *r, const ak_walker_state *s, int f, float dt,
                                 char phase)
{
    static const int32_t bit[2] = {AK_CONTACT_HEEL, AK_CONTACT_TOE};
    const int part = phase == 'p' || phase == 'i';
    for (int k = 0; k < 2; ++k) {
        for (int p = 0; p < 2; ++p) {
            const ak_vec3 at = p ? s->toe[k] : s->sole[k];
            const float g = p ? s->toe_ground[k] : s->sole_ground[k];
            const float h = isfinite(g) ? at.y - g : NAN, was = r->prev_height[k][p];
            const int both = (s->source_contact[k] & bit[p]) && (r->prev_source[k] & bit[p]);
            if (f > 0 && dt > 0.0f && both && h <= PHYS_HOVER_HIGH && was <= PHYS_HOVER_HIGH &&
                (h > AK_WALK_SKATE_HEIGHT || was > AK_WALK_SKATE_HEIGHT)) {
                const ak_vec3 q = r->prev_point[k][p];
                const float dx = at.x - q.x, dz = at.z - q.z;
                const float v = sqrtf(dx * dx + dz * dz) / dt;
                r->hover_sum[part] += v;
                ++r->hover_n[part];
                if (v > r->hover[part].move) {
                    const phys_move w = {v, f, k, p, s->stance[k]};
                    r->hover[part] = w;
                    r->hover_height[part] = h;
                }
            }
            const int toe_alone =
                p && (s->source_contact[k] & (AK_CONTACT_HEEL | AK_CONTACT_TOE)) == AK_CONTACT_TOE;
            float up = 0.0f;
            if (f > 0 && dt > 0.0f && toe_alone && (r->prev_source[k] & AK_CONTACT_TOE) &&
                h > PHYS_HOVER_HIGH)
                up = at.y - physics_toe_support(r->toe_ground, s->sole[k], at, g);
            if (p) {
                const int n = r->toe_up_now[k] = up > PHYS_HOVER_HIGH ? r->toe_up_now[k] + 1 : 0;
                const phys_move w = {up, f, k, p, s->stance[k]};
                if (n && up > r->toe_held_up.move) r->toe_held_up = w;
                const ak_vec3 q = r->prev_point[k][p];
                const float dx = at.x - q.x, dz = at.z - q.z;
                if (n && up > r->toe_held_still.move && sqrtf(dx * dx + dz * dz) < 0.01f * dt)
                    r->toe_held_still = w;
                /* the worst frame's run, while it goes on */
                if (n && r->toe_held_up.side == k && r->toe_held_up.frame > f - n)
                    r->toe_held_run = n;
            }
            r->prev_height[k][p] = h;
        }
        r->prev_source[k] = s->source_contact[k];
    }
}

/* Books frame f's support (physics_support's fields above): the source stands on a foot while
 * the walker has both feet off the ground. */
static inline void physics_support(physics_walk *r, const ak_walker_state *s, int f, char phase)
{
    const int part = phase == 'i' ? 2 : phase == 'p';
    int any_down = 0;
    for (int k = 0; k < 2; ++k)
        for (int p = 0; p < 2; ++p) {
            const float y = p ? s->toe[k].y : s->sole[k].y;
            const float g = p ? s->toe_ground[k] : s->sole_ground[k];
            any_down |= !isfinite(g) || y - g <= AK_WALK_SKATE_HEIGHT;
        }
    const int off = (s->source_contact[0] | s->source_contact[1]) != 0 && !any_down;
    if (off) {
        if (!r->unsupported[part]++) r->unsupported_first[part] = f;
        if (++r->run_now > r->unsupported_run) {
            r->unsupported_run = r->run_now;
            r->unsupported_run_end = f;
        }
    } else {
        r->run_now = 0;
    }
}

/* The hover pairs' count, and their mean horizontal speed (m/s; 0 with none), over the
 * parts [from, to] (0 start and walk, 1 stop and standing). */
static inline int physics_hover_count(const physics_walk *r, int from, int to)
{
    int n = 0;
    for (int i = from; i <= to; ++i)
        n += r->hover_n[i];
    return n;
}

static inline float physics_hover_mean(const physics_walk *r, int from, int to)
{
    double sum = 0.0;
    for (int i = from; i <= to; ++i)
        sum += r->hover_sum[i];
    const int n = physics_hover_count(r, from, to);
    return n ? (float)(sum / n) : 0.0f;
}

/* The worst hover pair of the whole walk. */
static inline const phys_move *physics_hover_worst(const physics_walk *r, float *height)
{
    const int i = r->hover[1].move > r->hover[0].move;
    *height = r->hover_height[i];
    return &r->hover[i];
}

/* Part `part`'s planted mean (m/s; 0 with no pair): its skate pairs and its hover pairs
 * together, what the source plants up to PHYS_HOVER_HIGH up. */
static inline float physics_band_mean(const physics_walk *r, int part)
{
    const double n = (double)r->skate_part_n[part] + r->hover_n[part];
    return n > 0.0 ? (float)((r->skate_part_sum[part] + r->hover_sum[part]) / n) : 0.0f;
}

/* Adds one frame (state and world pose of either walker, `phase` as above). */
static inline void physics_add(physics_walk *r, const ak_xform *world, int32_t hips, float dt,
                               char phase)
{
    const float lo = r->m.hip_accel_min_g, hi = r->m.hip_accel_max_g, knee = r->m.knee_peak;
    const float worst = r->m.max_skate;
    const int f = r->frames;
    const double skate_sum = r->m.skate_sum;
    const int32_t skate_n = r->m.skate_n;
    const int part = phase == 'p' || phase == 'i';
    if (dt > 0.0f) r->dt = dt;
    ak_walk_metrics_add(&r->m, &r->last, world, hips, dt);
    r->skate_part_sum[part] += r->m.skate_sum - skate_sum;
    r->skate_part_n[part] += r->m.skate_n - skate_n;
    if (f == 0)
        r->unsupported_first[0] = r->unsupported_first[1] = r->unsupported_first[2] =
            r->unsupported_run_end = -1;
    physics_hover(r, &r->last, f, dt, phase);
    physics_support(r, &r->last, f, phase);
    physics_ground_moves(r, &r->last, f);
    if (r->m.hip_accel_min_g < lo) r->hip_min_frame = f;
    if (r->m.hip_accel_max_g > hi) r->hip_max_frame = f;
    if (r->m.knee_peak > knee) r->knee_frame = f;
    if (r->m.max_skate > worst) r->skate_frame = f;
    if (f < PHYS_MAX_FRAMES) r->phase[f] = phase;
    r->frames = f + 1;
}

static inline char phase_at(const physics_walk *r, int f)
{
    return f >= 0 && f < r->frames && f < PHYS_MAX_FRAMES ? r->phase[f] : '?';
}

static inline const char *phase_name(char c)
{
    return c == 's' ? "start" : c == 'w' ? "walk" : c == 'p' ? "stop" : "standing";
}

static inline const char *point_name(int32_t point)
{
    return point == 0 ? "heel" : point == 1 ? "toe" : "ankle";
}

/* The bounds (physics and the source): no point more than 5 mm below the ground in
 * any frame, skate (what the source plants, held or not) under 1 cm/s on average and at its
 * worst no faster than the source's own worst (skate_worst_bound), the hips' vertical
 * acceleration within
 * [min(source, -1 g) - 0.25 g, max(source, +1 g) + 0.5 g], the peak knee at most
 * max(source peak, 75 deg) + 25 deg, stopped within `radius` on both feet, and a landing
 * point that moves in its landing frame on the ground (r->landing) at most as far as the
 * source's own worst point on its floor (src_ground_move) or PHYS_LAND_SPEED in a frame,
 * whichever is farther; the same skate bounds for the points the source plants 1-5 cm up,
 * walking and at the stop each (physics_hover; r->hover_walk_why, r->hover_why: known out), and
 * no frame with both feet off the ground while the
 * source stands (physics_support; r->support_why: known out), and no heel or toe within 5 mm
 * of its ground moving faster than the source moves that point that low (ak_walk_metrics.drag;
 * physics_drag_known: known out), nor a toe the source stands on alone more than
 * PHYS_HOVER_HIGH up, held in place or not (toe_held_up; physics_toe_held_known: known out;
 * one listed as PHYS_TOE_MOVING not held in place either: toe_held_still). Prints the row, the
 * worst moves on the ground, the hover, the support and, for each bound not met, the figure with
 * its frame, point and phase. Returns whether all hold. */
static inline int within_bounds_but(const char *label, const physics_walk *r, float radius,
                                    const char *skate_why);

static inline int within_bounds(const char *label, const physics_walk *r, float radius)
{
    return within_bounds_but(label, r, radius, NULL);
}

/* m/s: the most a walk's worst skate pair may reach: the source's own worst measured the same
 * way (ak_walk_metrics_source, ak_motion_db_source_metrics: every heel and toe its contacts
 * have down on its own floor in both frames of a pair), or issue 21's 1 cm/s where the source
 * is skate-free (the built-in clip's worst is 0.01 mm/s). */
static inline float skate_worst_bound(const ak_walk_metrics *src)
{
    return fmaxf(src->max_skate, 0.01f);
}

/* within_bounds, where skate_why (not NULL) is the traced reason the row's skate (mean or worst)
 * is still out (issue 21 not done for it): then only the skate may be out, and a skate within
 * both bounds fails the row (take it out of the table). */
static inline int within_bounds_but(const char *label, const physics_walk *r, float radius,
                                    const char *skate_why)
{
    const ak_walk_metrics *m = &r->m;
    const float lo = fminf(r->src.hip_accel_min_g, -1.0f) - 0.25f;
    const float hi = fmaxf(r->src.hip_accel_max_g, 1.0f) + 0.5f;
    const float knee = fmaxf(r->src.knee_peak, AKT_RAD(75.0f)) + AKT_RAD(25.0f);
    /* skate: each heel or toe the source has down and on the ground in both frames of a pair,
     * held or not (ak_walk_metrics): its mean under issue 21's 1 cm/s; its worst pair at most
     * the source's own worst (skate_worst_bound) */
    const float skate = 0.01f, skate_worst = skate_worst_bound(&r->src);
    const int deep_ok = m->deepest <= 0.005f;
    const int skate_ok = m->skate < skate, worst_ok = m->max_skate <= skate_worst;
    const int skate_in = (skate_ok && worst_ok) != (skate_why != NULL);
    const int hip_lo_ok = m->hip_accel_min_g >= lo, hip_hi_ok = m->hip_accel_max_g <= hi;
    const int knee_ok = m->knee_peak <= knee;
    const int stop_ok =
        r->last.stopped && r->last.distance <= radius && r->last.stance[0] && r->last.stance[1];
    const float land = fmaxf(r->src_ground_move, PHYS_LAND_SPEED * r->dt);
    const int land_ok = r->landing.move <= land;
    /* hover: the same points 1-5 cm up (physics_hover), the same bounds, walking (start and
     * walk) and at the stop (stop and standing) each: the mean over the skate's pairs and the
     * hover's together (what the source plants, up to 5 cm up) under 1 cm/s, every hover pair
     * at most the source's own worst skate */
    const int hover_n = physics_hover_count(r, 0, 1);
    const double planted_n = (double)m->skate_n + hover_n;
    const float band_mean =
        planted_n > 0.0 ? (float)((m->skate_sum + r->hover_sum[0] + r->hover_sum[1]) / planted_n)
                        : 0.0f;
    float hover_height;
    const phys_move *hv = physics_hover_worst(r, &hover_height);
    const float walk_mean = physics_band_mean(r, 0), stop_mean = physics_band_mean(r, 1);
    const int walk_hover_ok = walk_mean < skate && r->hover[0].move <= skate_worst;
    const int stop_hover_ok = stop_mean < skate && r->hover[1].move <= skate_worst;
    const int hover_in =
        walk_hover_ok != (r->hover_walk_why != NULL) && stop_hover_ok != (r->hover_why != NULL);
    /* support (physics_support): standing, and at the matcher's stop (support_stop: it holds
     * the stand frame), the source stands on both feet flat on its floor, so its own count is
     * none and the walker's must be none too. Walking (and the guide walker's stop, the clip's
     * own last steps) the source's contact bits keep a point down up to its lift-off height
     * (ak_contact_params.height_off, 4.5 cm) while its foot may be over 1 cm up, so its own
     * count there is not none: printed, not asserted. */
    const int support_n = r->unsupported[2] + (r->support_stop ? r->unsupported[1] : 0);
    const int support_ok = support_n == 0;
    const int support_in =
        support_ok != (r->support_why != NULL) || (support_ok && physics_at_bound(r->support_why));
    /* drag (ak_walk_metrics_drag_worst): every heel and toe within 5 mm of its ground at both ends
     * of a frame no faster than the source ever moves that point that low */
    ak_walk_drag dg;
    ak_walk_metrics_drag_worst(m, &r->src, &dg);
    const int drag_ok = dg.speed <= dg.bound;
    const char *drag_why = physics_drag_known(label);
    const int drag_in = drag_ok != (drag_why != NULL) || (drag_ok && physics_at_bound(drag_why));
    /* a toe the source stands on alone more than PHYS_HOVER_HIGH over its ground, held in
     * place or not (physics_hover's toe_held_up): none; a row listed as carried or lifted
     * (PHYS_TOE_MOVING) none held in place (toe_held_still) */
    const int toe_ok = r->toe_held_up.move <= PHYS_HOVER_HIGH;
    const char *toe_why = physics_toe_held_known(label);
    const int still_ok = !physics_toe_moving(toe_why) || r->toe_held_still.move <= PHYS_HOVER_HIGH;
    const int toe_in = toe_ok != (toe_why != NULL) && still_ok;
    const int ok = deep_ok && skate_in && hip_lo_ok && hip_hi_ok && knee_ok && stop_ok && land_ok &&
                   hover_in && support_in && drag_in && toe_in;
    printf("%-36s deepest %.1f mm, skate %.2f (worst %.2f; source %.2f, worst %.2f) mm/s, hips "
           "%.2f..%.2f g "
           "(bounds %.2f..%.2f), knee %.1f (bound %.1f), drag %.2f m/s (bound %.2f), stopped %d "
           "at %.3f m, feet %d%d%s\n",
           label, 1e3 * (double)m->deepest, 1e3 * (double)m->skate, 1e3 * (double)m->max_skate,
           1e3 * (double)r->src.skate, 1e3 * (double)r->src.max_skate, (double)m->hip_accel_min_g,
           (double)m->hip_accel_max_g, (double)lo, (double)hi, AKT_DEG(m->knee_peak), AKT_DEG(knee),
           (double)dg.speed, (double)dg.bound, (int)r->last.stopped, (double)r->last.distance,
           (int)r->last.stance[0], (int)r->last.stance[1], ok ? "" : "  OUT");
    if (!drag_ok || drag_why)
        printf("    drag (within 5 mm of the ground, the source's worst that low): %.2f m/s (bound "
               "%.2f; %.5f against %.5f), frame %d, %s %s, %s, %s%s%s\n",
               (double)dg.speed, (double)dg.bound, (double)dg.speed, (double)dg.bound,
               (int)dg.frame, dg.side ? "right" : "left", point_name(dg.point),
               dg.stance ? "planted" : "swinging", phase_name(phase_at(r, dg.frame)),
               drag_ok && physics_at_bound(drag_why) ? ": within in this build, listed "
               : drag_ok && drag_why ? ": now within its bound, take the row out of its drag table"
               : drag_why            ? ", known out (issue 21): "
                                     : ": OUT",
               drag_why && (!drag_ok || physics_at_bound(drag_why)) ? drag_why : "");
    if (!toe_ok || toe_why)
        printf("    toe held up (the source stands on it alone): %.1f mm (bound %.0f), frame %d, "
               "%s toe, %d frames in a row, %s%s%s\n",
               1e3 * (double)r->toe_held_up.move, 1e3 * (double)PHYS_HOVER_HIGH,
               r->toe_held_up.frame, r->toe_held_up.side ? "right" : "left", r->toe_held_run,
               phase_name(phase_at(r, r->toe_held_up.frame)),
               toe_ok && toe_why ? ": now within its bound, take the row out of its table"
               : !still_ok       ? ", held in place: OUT, listed as "
               : toe_why         ? ", known out (issue 21): "
                                 : ": OUT",
               !toe_ok && toe_why ? toe_why : "");
    if (!still_ok)
        printf("    toe held in place up: %.1f mm (bound %.0f), frame %d, %s toe: OUT\n",
               1e3 * (double)r->toe_held_still.move, 1e3 * (double)PHYS_HOVER_HIGH,
               r->toe_held_still.frame, r->toe_held_still.side ? "right" : "left");
    const phys_move *g = &r->on_ground, *l = &r->landing;
    printf(
        "    on the ground (either end within 1 cm): worst move %.1f mm a frame, frame %d, %s %s, "
        "%s, %s; landing: %.1f mm (%.2f m/s, bound %.1f mm), frame %d, %s %s, %s\n",
        1e3 * (double)g->move, g->frame, g->side ? "right" : "left", point_name(g->point),
        g->stance ? "planted" : "swinging", phase_name(phase_at(r, g->frame)),
        1e3 * (double)l->move, (double)(l->move / r->dt), 1e3 * (double)land, l->frame,
        l->side ? "right" : "left", point_name(l->point), phase_name(phase_at(r, l->frame)));
    printf("    hover (source down, 1-5 cm up): %d pairs, %.2f mm/s (walk %d, %.2f; stop %d, "
           "%.2f), with the skate's %.2f mm/s (bound %.2f); worst %.2f mm/s (bound %.2f), frame "
           "%d, %s %s %.1f mm up, %s, %s\n",
           hover_n, 1e3 * (double)physics_hover_mean(r, 0, 1), r->hover_n[0],
           1e3 * (double)physics_hover_mean(r, 0, 0), r->hover_n[1],
           1e3 * (double)physics_hover_mean(r, 1, 1), 1e3 * (double)band_mean, 1e3 * (double)skate,
           1e3 * (double)hv->move, 1e3 * (double)skate_worst, hv->frame,
           hv->side ? "right" : "left", point_name(hv->point), 1e3 * (double)hover_height,
           hv->stance ? "planted" : "swinging", phase_name(phase_at(r, hv->frame)));
    printf("    support (source down, both feet over 1 cm up): %d frames asserted (bound 0); stop "
           "%d, first %d; standing %d; start and walk %d, first %d; longest run %d frames to "
           "frame %d\n",
           support_n, r->unsupported[1], r->unsupported_first[1], r->unsupported[2],
           r->unsupported[0], r->unsupported_first[0], r->unsupported_run, r->unsupported_run_end);
    if (physics_at_bound(r->support_why) && support_ok)
        printf("    support within in this build, listed %s\n", r->support_why);
    else if (r->support_why && support_ok)
        printf("    support now within its bound: take the row out of the support table\n");
    else if (r->support_why)
        printf("    support known out (issue 21): %s\n", r->support_why);
    else if (!support_ok)
        printf("    support out: %d frames with both feet over 1 cm up while the source stands\n",
               support_n);
    for (int part = 0; part < 2; ++part) {
        const char *why = part ? r->hover_why : r->hover_walk_why;
        const int in = part ? stop_hover_ok : walk_hover_ok;
        const phys_move *w = &r->hover[part];
        printf("    hover %s: %.2f mm/s with the skate's (bound %.2f), worst %.2f mm/s (bound "
               "%.2f), frame %d, %s %s %.1f mm up, %s%s%s\n",
               part ? "at the stop" : "walking", 1e3 * (double)physics_band_mean(r, part),
               1e3 * (double)skate, 1e3 * (double)w->move, 1e3 * (double)skate_worst, w->frame,
               w->side ? "right" : "left", point_name(w->point),
               1e3 * (double)r->hover_height[part], w->stance ? "planted" : "swinging",
               in && why ? ": now within its bounds, take the row out of its hover table"
               : why     ? ", known out (issue 21): "
               : in      ? ""
                         : ": OUT",
               !in && why ? why : "");
    }
    if (!land_ok)
        printf("    a landing point moved %.1f mm in a frame on the ground (bound %.1f: the "
               "source's %.1f, %.1f m/s): frame %d, %s %s, %s\n",
               1e3 * (double)l->move, 1e3 * (double)land, 1e3 * (double)r->src_ground_move,
               (double)PHYS_LAND_SPEED, l->frame, l->side ? "right" : "left", point_name(l->point),
               phase_name(phase_at(r, l->frame)));
    if (!deep_ok)
        printf("    %.1f mm below the ground (bound 5): frame %d, %s %s, %s, %s\n",
               1e3 * (double)m->deepest, m->deepest_frame, m->deepest_side ? "right" : "left",
               point_name(m->deepest_point), m->deepest_stance ? "planted" : "swinging",
               phase_name(phase_at(r, m->deepest_frame)));
    if (!skate_ok)
        printf("    skate %.2f mm/s mean (bound %.2f)\n", 1e3 * (double)m->skate,
               1e3 * (double)skate);
    if (skate_why && skate_ok && worst_ok)
        printf("    skate now within its bounds: take the row out of the skate table\n");
    else if (skate_why)
        printf("    skate known out (issue 21): %s\n", skate_why);
    if (!worst_ok)
        printf("    skate %.2f mm/s at its worst (bound %.2f, the source's worst): frame %d, %s\n",
               1e3 * (double)m->max_skate, 1e3 * (double)skate_worst, r->skate_frame,
               phase_name(phase_at(r, r->skate_frame)));
    if (!hip_lo_ok)
        printf("    hips %.2f g (bound %.2f): frame %d, hips, %s\n", (double)m->hip_accel_min_g,
               (double)lo, r->hip_min_frame, phase_name(phase_at(r, r->hip_min_frame)));
    if (!hip_hi_ok)
        printf("    hips %.2f g (bound %.2f): frame %d, hips, %s\n", (double)m->hip_accel_max_g,
               (double)hi, r->hip_max_frame, phase_name(phase_at(r, r->hip_max_frame)));
    if (!knee_ok)
        printf("    knee %.1f deg (bound %.1f): frame %d, knee, %s\n", AKT_DEG(m->knee_peak),
               AKT_DEG(knee), r->knee_frame, phase_name(phase_at(r, r->knee_frame)));
    if (!stop_ok)
        printf("    stop: stopped %d, %.3f m from the target (bound %.2f), feet down %d/%d\n",
               (int)r->last.stopped, (double)r->last.distance, (double)radius,
               (int)r->last.stance[0], (int)r->last.stance[1]);
    return ok;
}

/* A row still out of the bounds (issue 21 not done for it): its source (a clip, a database;
 * NULL: the built-in clip), its ground, and why (the measured figures). */
typedef struct known_out {
    const char *source;
    const char *ground;
    const char *why;
} known_out;

/* The reason listed for (source, ground) in table[0..n), or NULL. */
static inline const char *known_reason(const known_out *table, size_t n, const char *source,
                                       const char *ground)
{
    for (size_t k = 0; k < n; ++k) {
        const known_out *e = &table[k];
        if (strcmp(e->ground, ground) == 0 &&
            ((e->source == NULL && source == NULL) ||
             (e->source && source && strcmp(e->source, source) == 0)))
            return e->why;
    }
    return NULL;
}

/* The counts of a table run. */
typedef struct physics_tally {
    int rows, out, known, stale;
} physics_tally;

/* Books one row: within the bounds, known out (prints the reason), newly out, or listed but
 * within (prints that it must leave the table). */
static inline void physics_tally_row(physics_tally *t, int ok, const char *why)
{
    ++t->rows;
    if (!ok && why) {
        ++t->known;
        printf("    known (issue 21): %s\n", why);
    } else if (!ok) {
        ++t->out;
    } else if (why) {
        ++t->stale;
        printf("    now within the bounds: take it out of k_known_out\n");
    }
}

/* Prints the tally and asserts no row newly out and no listed row within the bounds. */
static inline void physics_tally_check(const physics_tally *t)
{
    printf("%d rows: %d within the bounds, %d known out, %d newly out, %d listed but within\n",
           t->rows, t->rows - t->known - t->out, t->known, t->out, t->stale);
    assert_int_equal(t->out, 0);
    /* The table only shrinks: a listed row that now holds must leave it. */
    assert_int_equal(t->stale, 0);
}

#endif
