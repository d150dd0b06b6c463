/* Issue 26: a long session. A walk of 100,000 s reported time_s 96,544.8 (a float sum of
 * 1/120 s steps) and a planted foot skated 0.143 m/s 1.7e5 m from the origin (float world
 * coordinates step by 1.6 cm there). Both are tested without a day of frames: the clock starts
 * late (ak_walker_set_clock) and the walk starts far away. */
#include "locomotion/internal.h"
#include "walk_util.h"

#include <math.h>

#define FAR_X  170000.0 /* m: where the campaign's walk had drifted to */
#define WALK_S 12.0     /* s of walking measured per run */

static int32_t flat_height(void *user, float x, float z, ak_ground_hit *out)
{
    (void)user;
    (void)x;
    (void)z;
    out->hit = 1;
    out->height = 0.0f;
    out->normal = ak_vec3_make(0.0f, 1.0f, 0.0f);
    return 1;
}

typedef struct run_result {
    double skate_sum, skate_max; /* m/s of a planted sole, from double world positions */
    int skate_n, frames, shifts;
    double x[2000], z[2000]; /* root, world (origin + walker coordinates), per frame */
    double elapsed;
    float time;
} run_result;

/* Walks from `start_x` 30 m along +x with the clock starting at `clock`. rebase > 0: the
 * origin moves by whole metres whenever the guide is more than `rebase` m from it. */
static void walk(const walk_source *src, double start_x, double clock, double rebase, run_result *r)
{
    memset(r, 0, sizeof *r);
    const ak_ground ground = {flat_height, NULL, NULL};
    ak_walker_params wp = ak_walker_defaults();
    wp.start = ak_vec3_make((float)start_x, 0.0f, 0.0f);
    wp.target = ak_vec3_make((float)(start_x + 30.0), 0.0f, 0.0f);
    ak_walker *w = NULL;
    ak_error err;
    assert_int_equal(ak_walker_create(src->motion, &wp, &ground, &w, &err), AK_OK);
    ak_walker_set_clock(w, clock);
    const float dt = 1.0f / 120.0f;
    double origin = 0.0, prev[2][2];
    int prev_stance[2] = {0, 0};
    for (int f = 0; f < (int)(WALK_S * 120.0) && f < 2000; ++f) {
        if (rebase > 0.0) {
            ak_walker_state s;
            ak_walker_get_state(w, &s);
            if (fabs((double)s.position.x) > rebase) {
                const float shift = floorf(s.position.x);
                assert_int_equal(ak_walker_shift_origin(w, ak_vec3_make(shift, 0.0f, 0.0f), &err),
                                 AK_OK);
                origin += (double)shift;
                ++r->shifts;
            }
        }
        assert_int_equal(ak_walker_step(w, f == 0 ? 0.0f : dt, &ground, &err), AK_OK);
        ak_walker_state s;
        ak_walker_get_state(w, &s);
        r->x[f] = origin + (double)ak_walker_world_pose(w)[0].translation.x;
        r->z[f] = (double)ak_walker_world_pose(w)[0].translation.z;
        for (int k = 0; k < 2; ++k) {
            const double px = origin + (double)s.sole[k].x, pz = (double)s.sole[k].z;
            if (s.stance[k] && prev_stance[k]) {
                const double v = hypot(px - prev[k][0], pz - prev[k][1]) / (double)dt;
                r->skate_sum += v;
                r->skate_n += 1;
                if (v > r->skate_max) r->skate_max = v;
            }
            prev[k][0] = px;
            prev[k][1] = pz;
            prev_stance[k] = s.stance[k];
        }
        r->frames = f + 1;
        r->elapsed = s.elapsed;
        r->time = s.time;
    }
    ak_walker_destroy(w);
}

/* The built-in stairs seen from a walker whose origin sits at (origin, 0) of the world, as
 * the walk scene does (walk_scene_origin.c): world x = walker x + origin, in double. */
typedef struct moved_stairs {
    const ak_terrain *terrain;
    double origin;
} moved_stairs;

static int32_t moved_stairs_height(void *user, float x, float z, ak_ground_hit *out)
{
    const moved_stairs *g = (const moved_stairs *)user;
    const ak_ground t = ak_terrain_ground(g->terrain);
    return ak_ground_query(&t, (float)((double)x + g->origin), z, out);
}

static int32_t moved_stairs_cast(void *user, const ak_ground_ray *ray, ak_ground_hit *out)
{
    const moved_stairs *g = (const moved_stairs *)user;
    const ak_ground t = ak_terrain_ground(g->terrain);
    ak_ground_ray r = *ray;
    r.origin.x = (float)((double)r.origin.x + g->origin);
    return ak_ground_cast(&t, &r, out);
}

/* The CMU walk over the built-in stairs, -6 to 6 m along x; rebase > 0: the origin moves by
 * whole metres whenever the character is more than `rebase` m from it. Root x (world) per
 * frame into x[], returns the frames walked. */
static int stairs_walk(const walk_source *src, const ak_terrain *terrain, double rebase, double *x,
                       int *shifts)
{
    moved_stairs g = {terrain, 0.0};
    const ak_ground ground = {moved_stairs_height, moved_stairs_cast, &g};
    ak_walker_params wp = ak_walker_defaults();
    wp.start = ak_vec3_make(-6.0f, 0.0f, 0.0f);
    wp.target = ak_vec3_make(6.0f, 0.0f, 0.0f);
    ak_walker *w = NULL;
    ak_error err;
    assert_int_equal(ak_walker_create(src->motion, &wp, &ground, &w, &err), AK_OK);
    const float dt = 1.0f / 120.0f;
    int f = 0;
    *shifts = 0;
    for (; f < 2000; ++f) {
        ak_walker_state s;
        ak_walker_get_state(w, &s);
        if (rebase > 0.0 && fabs((double)s.position.x) > rebase) {
            const float shift = s.position.x > 0.0f ? floorf(s.position.x) : ceilf(s.position.x);
            assert_int_equal(ak_walker_shift_origin(w, ak_vec3_make(shift, 0.0f, 0.0f), &err),
                             AK_OK);
            g.origin += (double)shift;
            ++*shifts;
        }
        assert_int_equal(ak_walker_step(w, f == 0 ? 0.0f : dt, &ground, &err), AK_OK);
        x[f] = g.origin + (double)ak_walker_world_pose(w)[0].translation.x;
    }
    ak_walker_destroy(w);
    return f;
}

/* On stairs the walker also remembers where it scanned the treads ahead, where a heel's
 * queries came onto its tread and the landing it planned: world points that move with the
 * origin too. Moved every metre, the walk over the stairs is the walk with the origin kept:
 * every frame's root within 1 mm (a stale tread point misreads the risers by metres). */
static void moving_origin_on_stairs_is_the_same_walk(void **state)
{
    (void)state;
    walk_source src;
    source_open(&src, "cmu_02_01_walk.bvh", -1, -1);
    ak_terrain_params tp = ak_terrain_defaults();
    tp.kind = AK_TERRAIN_STAIRS;
    ak_terrain *terrain = NULL;
    assert_int_equal(ak_terrain_create(&tp, &terrain, NULL), AK_OK);
    static double kept[2000], moved[2000];
    int shifts0 = 0, shifts = 0;
    const int n = stairs_walk(&src, terrain, 0.0, kept, &shifts0);
    assert_int_equal(stairs_walk(&src, terrain, 1.0, moved, &shifts), n);
    double worst = 0.0;
    int worst_f = 0;
    for (int f = 0; f < n; ++f)
        if (fabs(moved[f] - kept[f]) > worst) {
            worst = fabs(moved[f] - kept[f]);
            worst_f = f;
        }
    printf("stairs, origin moved %d times: root x worst %.3g m off the kept-origin walk (frame "
           "%d of %d; there %.3f m)\n",
           shifts, worst, worst_f, n, kept[worst_f]);
    assert_true(shifts >= 8);
    assert_true(worst < 1e-3);
    ak_terrain_destroy(terrain);
    source_close(&src);
}

static double mean_skate(const run_result *r)
{
    return r->skate_n ? r->skate_sum / r->skate_n : 0.0;
}

static walk_source g_src;
static run_result g_home, g_far, g_rebased;

static int setup(void **state)
{
    (void)state;
    source_open(&g_src, NULL, -1, -1);
    walk(&g_src, 0.0, 0.0, 0.0, &g_home);
    walk(&g_src, FAR_X, 99990.0, 0.0, &g_far);
    walk(&g_src, FAR_X, 99990.0, 2.0, &g_rebased);
    printf("planted skate, mean / worst frame: at the origin %.3f / %.3f mm/s; at %.0f m %.1f / "
           "%.1f mm/s; there with the origin moved %d times %.3f / %.3f mm/s\n",
           1e3 * mean_skate(&g_home), 1e3 * g_home.skate_max, FAR_X, 1e3 * mean_skate(&g_far),
           1e3 * g_far.skate_max, g_rebased.shifts, 1e3 * mean_skate(&g_rebased),
           1e3 * g_rebased.skate_max);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    source_close(&g_src);
    return 0;
}

/* The clock: 99,990 s + 1,439 steps of 1/120 s. A float sum read 96,544.8 s after 100,000. */
static void clock_reads_true_after_a_day(void **state)
{
    (void)state;
    const double expected = 99990.0 + (double)(g_far.frames - 1) * (double)(1.0f / 120.0f);
    printf("elapsed %.6f s (expected %.6f), time (float) %.4f\n", g_far.elapsed, expected,
           (double)g_far.time);
    assert_true(fabs(g_far.elapsed - expected) < 1e-6);
    /* the float field is the same time rounded to float: its step is 2^-7 s at 1e5 s */
    assert_true(fabs((double)g_far.time - expected) <= 0.5 * ldexp(1.0, -7));
}

/* Far from the origin with the origin moved: a planted foot holds under 1 mm/s (the issue's
 * bound for a day of walking), as it does at home. */
static void moving_origin_keeps_planted_feet_still_far_away(void **state)
{
    (void)state;
    assert_true(g_rebased.shifts >= 5);
    assert_true(g_rebased.skate_n > 500);
    assert_true(mean_skate(&g_rebased) < 1e-3);
    assert_true(mean_skate(&g_home) < 1e-3);
}

/* The walk with the origin moved is the walk at home, shifted: every frame's root within
 * 1 mm of it (float coordinates within a few metres of their origin step by < 1 um). */
static void moving_origin_walk_is_the_home_walk(void **state)
{
    (void)state;
    assert_int_equal(g_rebased.frames, g_home.frames);
    double worst = 0.0;
    for (int f = 0; f < g_home.frames; ++f) {
        const double d = hypot(g_rebased.x[f] - FAR_X - g_home.x[f], g_rebased.z[f] - g_home.z[f]);
        if (d > worst) worst = d;
    }
    printf("root, rebased walk at %.0f m vs the walk at the origin: worst %.3g m over %d frames\n",
           FAR_X, worst, g_home.frames);
    assert_true(worst < 1e-3);
}

static void origin_shift_refuses_bad_values(void **state)
{
    (void)state;
    ak_walker_params wp = ak_walker_defaults();
    wp.target = ak_vec3_make(5.0f, 0.0f, 0.0f);
    ak_walker *w = NULL;
    ak_error err;
    assert_int_equal(ak_walker_create(g_src.motion, &wp, NULL, &w, &err), AK_OK);
    assert_int_equal(ak_walker_shift_origin(w, ak_vec3_make(NAN, 0.0f, 0.0f), &err),
                     AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "origin shift"));
    assert_int_equal(ak_walker_shift_origin(w, ak_vec3_make(1.0f, 2.0f, 0.0f), &err),
                     AK_ERR_INVALID_ARG);
    assert_int_equal(ak_walker_shift_origin(w, ak_vec3_make(1e30f, 0.0f, 0.0f), &err),
                     AK_ERR_INVALID_ARG);
    assert_int_equal(ak_walker_shift_origin(NULL, ak_vec3_make(1.0f, 0.0f, 0.0f), &err),
                     AK_ERR_INVALID_ARG);
    ak_walker_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clock_reads_true_after_a_day),
        cmocka_unit_test(moving_origin_keeps_planted_feet_still_far_away),
        cmocka_unit_test(moving_origin_walk_is_the_home_walk),
        cmocka_unit_test(moving_origin_on_stairs_is_the_same_walk),
        cmocka_unit_test(origin_shift_refuses_bad_values),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
