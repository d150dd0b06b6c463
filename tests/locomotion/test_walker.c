/* The walker with the built-in clip: the goals on hills and stairs, the error foot IK
 * removes, steering, the two-phase engine API, walking off the ground, arrival with idle. */
#include "walk_util.h"

static walk_source g_src;
static ak_terrain *g_hills, *g_stairs, *g_flat;

static int setup(void **state)
{
    (void)state;
    source_open(&g_src, NULL, 0, 0);
    ak_terrain_params p = ak_terrain_defaults();
    p.seed = 3;
    if (ak_terrain_create(&p, &g_hills, NULL) != AK_OK) return -1;
    p.kind = AK_TERRAIN_STAIRS;
    if (ak_terrain_create(&p, &g_stairs, NULL) != AK_OK) return -1;
    p.kind = AK_TERRAIN_FLAT;
    if (ak_terrain_create(&p, &g_flat, NULL) != AK_OK) return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    source_close(&g_src);
    ak_terrain_destroy(g_hills);
    ak_terrain_destroy(g_stairs);
    ak_terrain_destroy(g_flat);
    return 0;
}

static ak_walker_params params(float sx, float sz, float tx, float tz)
{
    ak_walker_params wp = ak_walker_defaults();
    wp.start = ak_vec3_make(sx, 0, sz);
    wp.target = ak_vec3_make(tx, 0, tz);
    return wp;
}

/* Normal motion: the same walk on flat ground, animation only. */
static walk_result reference(ak_walker_params wp)
{
    ak_ground flat = ak_terrain_ground(g_flat);
    wp.foot_ik = 0;
    return walk_run(&g_src, &flat, wp, 20.0f);
}

/* h: the largest ground height change over one step (stairs: the risers a step spans; hills:
 * the steepest slope over a step length). No per-frame jump beyond the flat walk's own largest
 * plus what the terrain may add. */
static void assert_goals(const walk_result *r, const walk_result *ref, const ak_walker_params *wp,
                         float h)
{
    const float dt = ak_walk_motion_clip(g_src.motion)->frame_time;
    assert_walk_goals(r, wp->arrival_radius);
    assert_true(r->m.max_tilt < AKT_RAD(5.0f));
    printf("  hip step %.4f <= %.4f, foot step %.4f <= %.4f\n", (double)r->m.max_hip_step,
           (double)(ref->m.max_hip_step + terrain_step(wp, h, dt, 0)), (double)r->m.max_foot_step,
           (double)(ref->m.max_foot_step + terrain_step(wp, h, dt, 1)));
    assert_true(r->m.max_hip_step <= ref->m.max_hip_step + terrain_step(wp, h, dt, 0));
    assert_true(r->m.max_foot_step <= ref->m.max_foot_step + terrain_step(wp, h, dt, 1));
}

static void builtin_walk_on_hills_meets_the_goals(void **state)
{
    (void)state;
    ak_ground g = ak_terrain_ground(g_hills);
    const ak_walker_params wp = params(-4, -3, 4, 3);
    const walk_result ref = reference(wp);
    const walk_result r = walk_run(&g_src, &g, wp, 20.0f);
    print_result("builtin hills (IK)", &r);
    print_result("builtin flat reference", &ref);
    ak_terrain_params tp = ak_terrain_defaults();
    tp.seed = 3;
    assert_goals(&r, &ref, &wp,
                 step_rise(g_hills, &tp, 0.5f * ak_walk_clip_defaults().stride_length));
    /* The hips are planned over the footholds (issue 21): they go down where a leg needs it,
     * early, and move within physics -- vertical acceleration (33 ms average) within
     * [min(source, -1 g) - 0.25 g, max(source, +1 g) + 0.5 g] -- rather than dropping by a
     * fixed amount when a leg runs out (the feet reaching is assert_walk_goals'). */
    ak_walk_metrics src;
    assert_int_equal(ak_walk_metrics_source(g_src.motion, &src, NULL), AK_OK);
    printf("  hips %.2f..%.2f g (source %.2f..%.2f)\n", (double)r.m.hip_accel_min_g,
           (double)r.m.hip_accel_max_g, (double)src.hip_accel_min_g, (double)src.hip_accel_max_g);
    assert_true(r.max_hip_drop > 0.0f);
    assert_true(r.m.hip_accel_min_g >= fminf(src.hip_accel_min_g, -1.0f) - 0.25f);
    assert_true(r.m.hip_accel_max_g <= fmaxf(src.hip_accel_max_g, 1.0f) + 0.5f);
}

static void builtin_walk_on_stairs_meets_the_goals(void **state)
{
    (void)state;
    ak_ground g = ak_terrain_ground(g_stairs);
    const ak_walker_params wp =
        params(-5, 0.4f, 5.5f, -0.3f); /* up five steps, landing, down five */
    const walk_result ref = reference(wp);
    const walk_result r = walk_run(&g_src, &g, wp, 20.0f);
    print_result("builtin stairs (IK)", &r);
    ak_terrain_params tp = ak_terrain_defaults();
    tp.kind = AK_TERRAIN_STAIRS;
    assert_goals(&r, &ref, &wp,
                 step_rise(g_stairs, &tp, 0.5f * ak_walk_clip_defaults().stride_length));
}

/* The same walks without foot IK show the error the IK removes. */
static void without_foot_ik_the_feet_miss_the_ground(void **state)
{
    (void)state;
    const ak_ground grounds[2] = {ak_terrain_ground(g_hills), ak_terrain_ground(g_stairs)};
    for (int i = 0; i < 2; ++i) {
        ak_walker_params wp = i == 0 ? params(-4, -3, 4, 3) : params(-5, 0.4f, 5.5f, -0.3f);
        const walk_result with = walk_run(&g_src, &grounds[i], wp, 20.0f);
        wp.foot_ik = 0;
        const walk_result without = walk_run(&g_src, &grounds[i], wp, 20.0f);
        print_result(i == 0 ? "builtin hills (no IK)" : "builtin stairs (no IK)", &without);
        const float err_with = fmaxf(with.m.max_penetration, with.m.max_float);
        const float err_without = fmaxf(without.m.max_penetration, without.m.max_float);
        assert_true(err_without > 0.05f);
        assert_true(err_without > 10.0f * err_with);
        if (i == 0)
            assert_true(without.m.max_tilt > AKT_RAD(5.0f) &&
                        with.m.max_tilt <
                            AKT_RAD(1.0f)); /* slopes tilt the ground under flat feet */
    }
}

/* Continuous steering turns every frame but never faster than the limit; both modes arrive,
 * and a sharp initial turn (target behind) is taken smoothly. */
static void steering_respects_the_turn_rate_limit(void **state)
{
    (void)state;
    ak_ground g = ak_terrain_ground(g_flat);
    for (int mode = 0; mode < 2; ++mode) {
        ak_walker_params wp = params(0, 0, 0, -5);
        wp.start_heading = 0.0f; /* facing +Z, target straight behind */
        wp.steer = mode == 0 ? AK_STEER_CYCLE : AK_STEER_CONTINUOUS;
        wp.turn_rate = 1.04719755f; /* 60 deg/s in rad/s */
        ak_walker *w = NULL;
        assert_int_equal(ak_walker_create(g_src.motion, &wp, &g, &w, NULL), AK_OK);
        const float dt = ak_walk_motion_clip(g_src.motion)->frame_time;
        ak_walker_state s;
        ak_walker_get_state(w, &s);
        float prev = s.guide_heading, max_rate = 0.0f;
        int f;
        for (f = 0; f < 1500; ++f) {
            assert_int_equal(ak_walker_step(w, dt, &g, NULL), AK_OK);
            ak_walker_get_state(w, &s);
            float d = s.guide_heading - prev;
            while (d > 3.14159265f)
                d -= 6.2831853f;
            while (d < -3.14159265f)
                d += 6.2831853f;
            if (fabsf(d) / dt > max_rate) max_rate = fabsf(d) / dt;
            prev = s.guide_heading;
            if (s.stopped) break;
        }
        printf("steer %s: arrived %d in %.2f s, path %.2f m, max guide turn %.1f deg/s\n",
               mode ? "continuous" : "cycle", (int)s.arrived, (double)s.time, (double)s.path_length,
               (double)(max_rate * 57.29578f));
        assert_true(s.arrived);
        assert_true(s.distance < 0.5f);
        assert_true(max_rate * 57.29578f <= 60.0f + 0.01f);
        assert_true(max_rate * 57.29578f > 50.0f); /* it did turn at the limit */
        ak_walker_destroy(w);
    }
}

/* The engine form (rays out, hits in) gives the same walk as the C ground callback. */
static void two_phase_rays_match_the_ground_callback(void **state)
{
    (void)state;
    ak_ground g = ak_terrain_ground(g_hills);
    ak_walker_params wp = params(-2, -2, 2, 1);
    wp.use_controller = 0; /* the engine owns the character controller */
    ak_walker *a = NULL, *b = NULL;
    assert_int_equal(ak_walker_create(g_src.motion, &wp, &g, &a, NULL), AK_OK);
    assert_int_equal(ak_walker_create(g_src.motion, &wp, &g, &b, NULL), AK_OK);
    const float dt = ak_walk_motion_clip(g_src.motion)->frame_time;
    const int32_t J = ak_walk_motion_skeleton(g_src.motion)->joint_count;
    for (int f = 0; f < 200; ++f) {
        assert_int_equal(ak_walker_step(a, dt, &g, NULL), AK_OK);
        ak_vec3 move;
        assert_int_equal(ak_walker_begin(b, dt, &move, NULL), AK_OK);
        ak_ground_ray rays[AK_WALKER_RAY_COUNT];
        ak_ground_hit hits[AK_WALKER_RAY_COUNT];
        assert_int_equal(ak_walker_ground_rays(b, rays, AK_WALKER_RAY_COUNT), AK_WALKER_RAY_COUNT);
        for (int i = 0; i < AK_WALKER_RAY_COUNT; ++i) {
            AKT_NEAR(rays[i].direction.y, -1.0f, 0);
            /* "the engine" casts: here, the terrain's own ray function */
            ak_ground_cast(&g, &rays[i], &hits[i]);
            assert_int_equal(hits[i].hit, 1);
        }
        assert_int_equal(ak_walker_finish(b, hits, AK_WALKER_RAY_COUNT, NULL), AK_OK);
        const ak_xform *wa = ak_walker_world_pose(a), *wb = ak_walker_world_pose(b);
        for (int32_t j = 0; j < J; ++j) {
            AKT_NEAR(wa[j].translation.x, wb[j].translation.x, 1e-5);
            AKT_NEAR(wa[j].translation.y, wb[j].translation.y, 1e-5);
            AKT_NEAR(wa[j].translation.z, wb[j].translation.z, 1e-5);
        }
    }
    ak_walker_destroy(a);
    ak_walker_destroy(b);
}

/* Walking off the edge of the terrain: the feet lose their ground, weights fade, nothing
 * jumps and nothing becomes NaN. */
static void walking_off_the_ground_fades_without_pops(void **state)
{
    (void)state;
    ak_terrain_params p = ak_terrain_defaults();
    p.kind = AK_TERRAIN_FLAT;
    p.size = 6.0f; /* ground ends at x = 3 */
    p.base_height = 0.1f;
    ak_terrain *t = NULL;
    assert_int_equal(ak_terrain_create(&p, &t, NULL), AK_OK);
    ak_ground g = ak_terrain_ground(t);
    ak_walker_params wp = params(0, 0, 8, 0);
    wp.use_controller = 0; /* the plain root-motion path walks on past the edge */
    const walk_result ref = reference(wp);
    const walk_result r = walk_run(&g_src, &g, wp, 5.0f);
    print_result("off the edge", &r);
    assert_true(r.last.position.x > 3.5f);
    assert_true(isfinite(r.last.sole[0].y) && isfinite(r.last.sole[1].y));
    /* Losing the ground fades the IK out: the frame moves stay the flat walk's, plus what a
     * fading foot offset (the 0.1 m the ground stood above zero) may add. */
    const float dt = ak_walk_motion_clip(g_src.motion)->frame_time;
    assert_true(r.m.max_foot_step <= ref.m.max_foot_step + terrain_step(&wp, 0.1f, dt, 1));
    assert_true(r.m.max_hip_step <= ref.m.max_hip_step + terrain_step(&wp, 0.1f, dt, 0));
    ak_terrain_destroy(t);
}

/* On arrival the walker crossfades into the idle clip and stops inside the radius. */
static void arrival_crossfades_into_idle_and_stops(void **state)
{
    (void)state;
    ak_walk_clip_params cp = ak_walk_clip_defaults();
    ak_clip *idle = NULL;
    assert_int_equal(ak_idle_clip_create(&cp, g_src.skeleton, &idle, NULL), AK_OK);
    ak_ground g = ak_terrain_ground(g_hills);
    ak_walker_params wp = params(1, 1, 3, 4);
    wp.idle_clip = idle;
    ak_walker *w = NULL;
    assert_int_equal(ak_walker_create(g_src.motion, &wp, &g, &w, NULL), AK_OK);
    const float dt = ak_walk_motion_clip(g_src.motion)->frame_time;
    ak_walker_state s;
    int stopped_at = -1;
    for (int f = 0; f < 1200; ++f) {
        assert_int_equal(ak_walker_step(w, dt, &g, NULL), AK_OK);
        ak_walker_get_state(w, &s);
        if (s.stopped && stopped_at < 0) stopped_at = f;
    }
    assert_true(stopped_at > 0);
    assert_true(s.stopped);
    AKT_NEAR(s.idle_weight, 1.0f, 0);
    assert_true(s.distance < 0.5f);
    /* Standing: both feet on the ground. */
    for (int k = 0; k < 2; ++k)
        AKT_NEAR(s.sole[k].y, s.sole_ground[k], 0.01);
    /* Setting the same target every frame (as an engine may) keeps it standing... */
    const ak_vec3 here = wp.target;
    for (int f = 0; f < 120; ++f) {
        ak_walker_set_target(w, here);
        assert_int_equal(ak_walker_step(w, dt, &g, NULL), AK_OK);
        ak_walker_get_state(w, &s);
        assert_true(s.arrived && s.stopped);
    }
    /* ...and a target 3 m away starts it walking again. */
    ak_walker_set_target(w, ak_vec3_make(here.x - 3.0f, here.y, here.z));
    for (int f = 0; f < 60; ++f)
        assert_int_equal(ak_walker_step(w, dt, &g, NULL), AK_OK);
    ak_walker_get_state(w, &s);
    assert_false(s.arrived);
    assert_false(s.stopped);
    ak_walker_destroy(w);
    ak_clip_destroy(idle);
}

/* A standing character given a target closer than the stop planner's reach (2.5 strides), in
 * any direction: it walks there and stands again. It used to stay at rate 0 for ever (the stop
 * committed before the walk had any speed: found by make soak), and, once moving, to stop a
 * step past a target beside or behind it (a committed stop does not steer). Every frame keeps
 * the contact goals: heel and toe within 5 mm while down, skate < 1 cm/s. */
static void a_near_target_from_standing_is_reached(void **state)
{
    (void)state;
    ak_ground g = ak_terrain_ground(g_hills);
    const float dt = ak_walk_motion_clip(g_src.motion)->frame_time;
    const int32_t hips = ak_walk_motion_humanoid(g_src.motion)->joint[AK_HUM_HIPS];
    const float dists[] = {0.4f, 0.9f, 1.5f, 2.5f};
    const float angles[] = {0.0f, 0.7853982f, 1.5707963f, 2.3561945f, 3.1415927f};
    for (size_t i = 0; i < 20; ++i) {
        const float dist = dists[i / 5], angle = angles[i % 5];
        ak_walker_params wp = params(1, 1, 1, 1.1f); /* stands at once */
        ak_walker *w = NULL;
        assert_int_equal(ak_walker_create(g_src.motion, &wp, &g, &w, NULL), AK_OK);
        ak_walker_state s;
        int f = 0;
        for (; f < 600; ++f) {
            assert_int_equal(ak_walker_step(w, dt, &g, NULL), AK_OK);
            ak_walker_get_state(w, &s);
            if (s.stopped) break;
        }
        assert_true(s.stopped);
        const float a = s.heading + angle;
        const ak_vec3 goal =
            ak_vec3_make(s.position.x + dist * sinf(a), 0, s.position.z + dist * cosf(a));
        ak_walker_set_target(w, goal);
        ak_walk_metrics m;
        ak_walk_metrics_reset(&m);
        /* At most: the start ramp, the distance at a tenth of walking pace, the stop. */
        const int limit = (int)((wp.start_time + dist / 0.1f + wp.stop_time + 2.0f) / dt);
        for (f = 0; f < limit; ++f) {
            assert_int_equal(ak_walker_step(w, dt, &g, NULL), AK_OK);
            ak_walker_get_state(w, &s);
            ak_walk_metrics_add(&m, &s, ak_walker_world_pose(w), hips, dt);
            if (s.stopped) break;
        }
        printf("near target %.1f m at %3.0f deg: stopped after %.2f s, %.3f m from it; heel "
               "%.1f/%.1f mm, toe %.1f/%.1f mm below/above; skate %.2f mm/s (worst %.2f, held "
               "worst %.2f); hip accel %.0f m/s^2\n",
               (double)dist, (double)(angle * 57.29578f), (double)((float)f * dt),
               (double)s.distance, (double)(1e3f * m.max_heel_penetration),
               (double)(1e3f * m.max_heel_float), (double)(1e3f * m.max_toe_penetration),
               (double)(1e3f * m.max_toe_float), (double)(1e3f * m.skate),
               (double)(1e3f * m.max_skate), (double)(1e3f * m.max_held_skate),
               (double)m.max_hip_accel);
        assert_true(s.stopped);
        assert_true(s.distance <= wp.arrival_radius);
        assert_true(m.max_penetration <= 0.005f && m.max_float <= 0.005f);
        assert_true(m.max_held_skate < 0.01f);
        assert_true(m.skate < 0.01f);
        ak_walker_destroy(w);
    }
}

/* A wall of boxes in the way: the controller keeps the capsule out of it. */
static void walker_does_not_walk_through_a_wall(void **state)
{
    (void)state;
    ak_ground g = ak_terrain_ground(g_flat);
    const ak_box wall = {{-3.0f, 0.0f, 2.0f}, {3.0f, 2.0f, 2.3f}};
    ak_walker_params wp = params(0, 0, 0.5f, 5);
    wp.boxes = &wall;
    wp.box_count = 1;
    const walk_result r = walk_run(&g_src, &g, wp, 6.0f);
    assert_false(r.last.arrived);
    assert_true(r.last.position.z <= 2.0f - wp.controller.radius + 1e-3f);
}

/* The one stance-at-time rule at the motion level: the nearest frame's flags, wrapping over
 * the cycle; the built-in clip's flags come from its construction (ak_walk_clip_contacts). */
static void stance_at_is_the_nearest_frame_and_wraps(void **state)
{
    (void)state;
    walk_source src;
    source_open(&src, NULL, 0, 0);
    const ak_clip *c = ak_walk_motion_clip(src.motion);
    const int32_t n = c->frame_count;
    const float dt = c->frame_time;
    for (int32_t s = 0; s < 2; ++s) {
        const uint8_t *flags = ak_walk_motion_contacts(src.motion, s);
        for (int32_t f = 0; f < n; ++f) {
            assert_int_equal(flags[f], src.stance[s * n + f]);
            assert_int_equal(ak_walk_motion_stance_at(src.motion, s, (float)f * dt), flags[f]);
            /* within half a frame either side, and three cycles later or earlier */
            assert_int_equal(ak_walk_motion_stance_at(src.motion, s, ((float)f + 0.4f) * dt),
                             flags[f]);
            assert_int_equal(ak_walk_motion_stance_at(src.motion, s, ((float)f - 0.4f) * dt),
                             flags[f]);
            assert_int_equal(ak_walk_motion_stance_at(src.motion, s, (float)(f + 3 * n) * dt),
                             flags[f]);
            assert_int_equal(ak_walk_motion_stance_at(src.motion, s, (float)(f - 3 * n) * dt),
                             flags[f]);
        }
    }
    assert_int_equal(ak_walk_motion_stance_at(src.motion, 2, 0.0f), 0);
    assert_int_equal(ak_walk_motion_stance_at(src.motion, 0, NAN), 0);
    assert_int_equal(ak_walk_motion_stance_at(NULL, 0, 0.0f), 0);
    source_close(&src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stance_at_is_the_nearest_frame_and_wraps),
        cmocka_unit_test(builtin_walk_on_hills_meets_the_goals),
        cmocka_unit_test(builtin_walk_on_stairs_meets_the_goals),
        cmocka_unit_test(without_foot_ik_the_feet_miss_the_ground),
        cmocka_unit_test(steering_respects_the_turn_rate_limit),
        cmocka_unit_test(two_phase_rays_match_the_ground_callback),
        cmocka_unit_test(walking_off_the_ground_fades_without_pops),
        cmocka_unit_test(arrival_crossfades_into_idle_and_stops),
        cmocka_unit_test(a_near_target_from_standing_is_reached),
        cmocka_unit_test(walker_does_not_walk_through_a_wall),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
