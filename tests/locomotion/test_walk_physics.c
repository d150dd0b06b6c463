/* Planned hips (ak_walker_params.plan_hips, issue 21): the hips' vertical acceleration over
 * every frame (33 ms average) within the source's own envelope widened by physics, no lower
 * than min(source, -1 g) - 0.25 g and no higher than max(source, +1 g) + 0.5 g (nothing pulls a
 * walker down faster than gravity; legs push it up at about a g), and the peak knee flexion over
 * the whole walk at most max(source peak, 75 deg) + 25 deg; arrival within the radius, stopped.
 * Asserted for the built-in clip on the seeded hills (the demo's ground) and for CMU 02_01 on a
 * heightmap generated here that no other test walks (ridges and a bowl, 32 m, 1.5 m high).
 * Printed, OUT where a bound is not met, for every test capture and the built-in clip on flat,
 * hills, stairs, the tests' heightmap and the ridges: issue 21 is not done (stairs, the runs on
 * the steeper heightmap, the built-in start on flat ground at +1.74 g). */
#include "walk_util.h"

static ak_terrain *g_terrain[4];
static ak_terrain_params g_params[4];
static ak_terrain *g_ridges;

/* Ridges and a bowl (not walk_make_pgm's sine products). */
static double ridges_height(double x, double z)
{
    return 0.5 + 0.3 * sin(0.55 * x + 0.8) * sin(0.47 * z + 0.1) + 0.12 * cos(1.1 * x - 0.6 * z) +
           0.05 * sin(2.3 * z + 0.4 * x);
}

/* A 129 x 129 16-bit binary PGM of ridges_height, 32 m wide. */
static char *ridges_pgm(size_t *bytes)
{
    return walk_pgm_of(129, 16.0, ridges_height, bytes);
}

static int setup(void **state)
{
    (void)state;
    if (walk_terrains_create(g_terrain, g_params) != 0) return -1;
    size_t bytes;
    char *pgm = ridges_pgm(&bytes);
    const int32_t st = ak_terrain_read_pgm_memory(pgm, bytes, 32.0f, 1.5f, &g_ridges, NULL);
    free(pgm);
    return st == AK_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ak_terrain_destroy(g_ridges);
    return walk_terrains_destroy(g_terrain);
}

typedef struct physics_walk {
    ak_walk_metrics m, src;
    ak_walker_state last;
} physics_walk;

/* Walks 12 m (-6,0 -> 6,0) with planned hips, every frame measured with the legs set. */
static physics_walk physics_run(const walk_source *s, const ak_ground *ground)
{
    physics_walk r;
    memset(&r, 0, sizeof r);
    ak_error err;
    assert_int_equal(ak_walk_metrics_source(s->motion, &r.src, &err), AK_OK);
    ak_walker_params wp = ak_walker_defaults();
    wp.start = ak_vec3_make(-6.0f, 0.0f, 0.0f);
    wp.target = ak_vec3_make(6.0f, 0.0f, 0.0f);
    wp.plan_hips = 1;
    ak_walker *w = NULL;
    if (ak_walker_create(s->motion, &wp, ground, &w, &err) != AK_OK)
        fail_msg("walker: %s", err.message);
    const ak_humanoid *h = ak_walk_motion_humanoid(s->motion);
    const int32_t upper[2] = {h->joint[AK_HUM_LEFT_UPPER_LEG], h->joint[AK_HUM_RIGHT_UPPER_LEG]};
    const int32_t lower[2] = {h->joint[AK_HUM_LEFT_LOWER_LEG], h->joint[AK_HUM_RIGHT_LOWER_LEG]};
    const int32_t foot[2] = {h->joint[AK_HUM_LEFT_FOOT], h->joint[AK_HUM_RIGHT_FOOT]};
    ak_walk_metrics_reset(&r.m);
    ak_walk_metrics_set_legs(&r.m, upper, lower, foot);
    const float dt = ak_walk_motion_clip(s->motion)->frame_time;
    const int32_t hips = h->joint[AK_HUM_HIPS];
    for (int f = 0; f * dt < 30.0f; ++f) {
        assert_int_equal(ak_walker_step(w, f == 0 ? 0.0f : dt, ground, &err), AK_OK);
        ak_walker_get_state(w, &r.last);
        ak_walk_metrics_add(&r.m, &r.last, ak_walker_world_pose(w), hips, f == 0 ? 0.0f : dt);
        if (r.last.stopped) break;
    }
    ak_walker_destroy(w);
    return r;
}

/* The bounds from physics and the source (see the file comment). Returns whether all hold. */
static int within_bounds(const char *label, const physics_walk *r, float radius)
{
    const float lo = fminf(r->src.hip_accel_min_g, -1.0f) - 0.25f;
    const float hi = fmaxf(r->src.hip_accel_max_g, 1.0f) + 0.5f;
    const float knee = fmaxf(r->src.knee_peak_deg, 75.0f) + 25.0f;
    const int ok = r->m.hip_accel_min_g >= lo && r->m.hip_accel_max_g <= hi &&
                   r->m.knee_peak_deg <= knee && r->last.stopped && r->last.distance <= radius;
    printf(
        "%-28s hips %.2f..%.2f g (bounds %.2f..%.2f, source %.2f..%.2f), knee peak %.1f "
        "(bound %.1f), deepest any phase %.1f mm (frame %d, %s %s, %s), stopped %d at %.3f m%s\n",
        label, (double)r->m.hip_accel_min_g, (double)r->m.hip_accel_max_g, (double)lo, (double)hi,
        (double)r->src.hip_accel_min_g, (double)r->src.hip_accel_max_g, (double)r->m.knee_peak_deg,
        (double)knee, 1e3 * (double)r->m.deepest, r->m.deepest_frame,
        r->m.deepest_side ? "right" : "left",
        r->m.deepest_point == 0   ? "heel"
        : r->m.deepest_point == 1 ? "toe"
                                  : "ankle",
        r->m.deepest_stance ? "planted" : "swing", (int)r->last.stopped, (double)r->last.distance,
        ok ? "" : "  OUT");
    return ok;
}

static void builtin_hips_within_physics_on_hills(void **state)
{
    (void)state;
    walk_source src;
    source_open(&src, NULL, 0, 0);
    const ak_ground g = ak_terrain_ground(g_terrain[1]);
    const physics_walk r = physics_run(&src, &g);
    assert_true(within_bounds("built-in hills", &r, 0.3f));
    source_close(&src);
}

static void cmu_walk_hips_within_physics_on_a_new_heightmap(void **state)
{
    (void)state;
    walk_source src;
    source_open(&src, "cmu_02_01_walk.bvh", -1, -1);
    const ak_ground g = ak_terrain_ground(g_ridges);
    const physics_walk r = physics_run(&src, &g);
    assert_true(within_bounds("cmu_02_01_walk ridges", &r, 0.3f));
    source_close(&src);
}

/* Every other capture and ground: printed (what is not yet within the bounds, OUT). */
static void every_capture_and_ground_is_measured(void **state)
{
    (void)state;
    for (size_t i = 0; i <= AKT_LOCOMOTION_CLIPS; ++i) {
        walk_source src;
        const char *name = i < AKT_LOCOMOTION_CLIPS ? akt_locomotion_clips[i] : NULL;
        source_open(&src, name, name ? -1 : 0, name ? -1 : 0);
        for (int t = 0; t < 5; ++t) {
            const ak_ground g = ak_terrain_ground(t < 4 ? g_terrain[t] : g_ridges);
            const physics_walk r = physics_run(&src, &g);
            char label[96];
            snprintf(label, sizeof label, "%s %s", name ? name : "built-in",
                     t < 4 ? walk_terrain_name(t) : "ridges");
            (void)within_bounds(label, &r, 0.3f);
            assert_true(r.m.frames > 0);
        }
        source_close(&src);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builtin_hips_within_physics_on_hills),
        cmocka_unit_test(cmu_walk_hips_within_physics_on_a_new_heightmap),
        cmocka_unit_test(every_capture_and_ground_is_measured),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
