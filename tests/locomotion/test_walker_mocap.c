/* The walker with real mocap (CMU walks in CMU units): cycles given and found, goals on hills
 * and stairs, and the error foot IK removes. */
#include "walk_util.h"

static ak_terrain *g_hills, *g_stairs, *g_flat;

static int setup(void **state)
{
    (void)state;
    ak_terrain_params p = ak_terrain_defaults();
    p.seed = 5;
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
    ak_terrain_destroy(g_hills);
    ak_terrain_destroy(g_stairs);
    ak_terrain_destroy(g_flat);
    return 0;
}

static void check_clip(const char *name, int a, int b)
{
    walk_source src;
    source_open(&src, name, a, b);
    ak_walk_motion_info info;
    ak_walk_motion_get_info(src.motion, &info);
    printf("%s: units %s (%.6f m/unit), cycle %d:%d (%.3f s), stride %.2f m, speed %.2f m/s, sole "
           "%.3f/%.3f m, "
           "seam pose error %.4f rad\n",
           name, ak_units_name((ak_units)info.units), (double)info.metres_per_unit,
           (int)info.cycle_start, (int)info.cycle_end, (double)info.cycle_time,
           (double)info.stride_length, (double)info.speed, (double)info.sole_height[0],
           (double)info.sole_height[1], (double)info.pose_error);
    AKT_NEAR(info.metres_per_unit, 0.056444, 1e-4); /* CMU units detected */
    assert_true(info.stride_length > 0.9f && info.stride_length < 1.8f);
    ak_ground flat = ak_terrain_ground(g_flat);
    const ak_ground grounds[2] = {ak_terrain_ground(g_hills), ak_terrain_ground(g_stairs)};
    ak_walker_params wp = ak_walker_defaults();
    wp.start = ak_vec3_make(-4.0f, 0, 0.3f);
    wp.target = ak_vec3_make(4.0f, 0, -0.2f);
    wp.foot_ik = 0;
    const walk_result ref = walk_run(&src, &flat, wp, 15.0f);
    for (int i = 0; i < 2; ++i) {
        wp.foot_ik = 1;
        const walk_result r = walk_run(&src, &grounds[i], wp, 15.0f);
        wp.foot_ik = 0;
        const walk_result raw = walk_run(&src, &grounds[i], wp, 15.0f);
        char label[96];
        snprintf(label, sizeof label, "%s %s IK", name, i == 0 ? "hills" : "stairs");
        print_result(label, &r);
        snprintf(label, sizeof label, "%s %s no IK", name, i == 0 ? "hills" : "stairs");
        print_result(label, &raw);
        assert_walk_goals(&r, wp.arrival_radius);
        assert_true(r.m.max_tilt < AKT_RAD(5.0f));
        ak_terrain_params tp = ak_terrain_defaults();
        tp.kind = i == 0 ? AK_TERRAIN_HILLS : AK_TERRAIN_STAIRS;
        const float h = step_rise(i == 0 ? g_hills : g_stairs, &tp, 0.5f * info.stride_length);
        const float dt = ak_walk_motion_clip(src.motion)->frame_time;
        assert_true(r.m.max_foot_step <= ref.m.max_foot_step + terrain_step(&wp, h, dt, 1));
        assert_true(r.m.max_hip_step <= ref.m.max_hip_step + terrain_step(&wp, h, dt, 0));
        /* Without foot IK the same walk misses the ground by far more. */
        assert_true(fmaxf(raw.m.max_penetration, raw.m.max_float) > 0.05f);
    }
    source_close(&src);
}

static void cmu_02_01_walk_with_its_known_cycle_meets_the_goals(void **state)
{
    (void)state;
    check_clip("cmu_02_01_walk.bvh", 104, 236);
}

static void cmu_07_01_walk_with_its_known_cycle_meets_the_goals(void **state)
{
    (void)state;
    check_clip("cmu_07_01_walk.bvh", 79, 208);
}

static void cmu_16_11_veer_left_with_a_found_cycle_meets_the_goals(void **state)
{
    (void)state;
    check_clip("cmu_16_11_walk_veer_left.bvh", -1, -1);
}

/* The cycle finder on 02_01 finds one whole stride: 132 frames (1.10 s) is the known loop. */
static void cycle_finder_finds_one_stride_of_02_01(void **state)
{
    (void)state;
    walk_source src;
    source_open(&src, "cmu_02_01_walk.bvh", -1, -1);
    ak_walk_motion_info info;
    ak_walk_motion_get_info(src.motion, &info);
    printf("found cycle %d:%d (%d frames), pose error %.4f rad, velocity error %.3f rad/s\n",
           (int)info.cycle_start, (int)info.cycle_end, (int)(info.cycle_end - info.cycle_start),
           (double)info.pose_error, (double)info.velocity_error);
    const int len = info.cycle_end - info.cycle_start;
    assert_true(len >= 126 && len <= 138);
    assert_true(info.pose_error < 0.05f); /* mean per-joint mismatch under 3 degrees */
    /* Stance fractions of a walk: each foot down a bit more than half the time. */
    printf("stance fractions (heel or toe down): %.2f %.2f\n", (double)info.stance_fraction[0],
           (double)info.stance_fraction[1]);
    for (int s = 0; s < 2; ++s)
        assert_true(info.stance_fraction[s] > 0.3f && info.stance_fraction[s] < 0.8f);
    source_close(&src);
}

/* The seam of a cut cycle is hidden: stepping from the last frame into the first turns no
 * joint more than the clip's own largest frame-to-frame step, and the root-motion speed across
 * the wrap matches the speed inside the cycle. */
static void cut_cycles_loop_without_a_seam_pop(void **state)
{
    (void)state;
    const char *names[3] = {"cmu_02_01_walk.bvh", "cmu_07_01_walk.bvh",
                            "cmu_16_11_walk_veer_left.bvh"};
    const int cycles[3][2] = {{104, 236}, {79, 208}, {-1, -1}};
    for (int k = 0; k < 3; ++k) {
        walk_source src;
        source_open(&src, names[k], cycles[k][0], cycles[k][1]);
        const ak_clip *c = ak_walk_motion_clip(src.motion);
        const int32_t J = c->joint_count, n = c->frame_count;
        float inner = 0.0f, wrap = 0.0f;
        for (int32_t f = 0; f < n; ++f) {
            const int32_t g = (f + 1) % n;
            float step = 0.0f;
            for (int32_t j = 1; j < J; ++j) {
                float d = fabsf(
                    ak_quat_dot(c->rotations[(size_t)f * J + j], c->rotations[(size_t)g * J + j]));
                d = d > 1.0f ? 1.0f : d;
                const float a = 2.0f * acosf(d);
                if (a > step) step = a;
            }
            if (g == 0)
                wrap = step;
            else if (step > inner)
                inner = step;
        }
        const ak_root_motion *rm = ak_walk_motion_root(src.motion);
        const float ft = c->frame_time;
        ak_vec3 d_wrap, d_in;
        ak_root_motion_delta(rm, ft * (float)(n - 1), ft * (float)n, &d_wrap, NULL);
        ak_root_motion_delta(rm, ft * (float)(n - 2), ft * (float)(n - 1), &d_in, NULL);
        printf("%s: largest joint step inside the cycle %.4f rad, across the seam %.4f rad; root "
               "step %.4f vs %.4f m\n",
               names[k], (double)inner, (double)wrap, (double)ak_vec3_length(d_wrap),
               (double)ak_vec3_length(d_in));
        assert_true(wrap <= inner);
        AKT_NEAR(ak_vec3_length(d_wrap), ak_vec3_length(d_in), 0.3f * ak_vec3_length(d_in));
        source_close(&src);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cmu_02_01_walk_with_its_known_cycle_meets_the_goals),
        cmocka_unit_test(cmu_07_01_walk_with_its_known_cycle_meets_the_goals),
        cmocka_unit_test(cmu_16_11_veer_left_with_a_found_cycle_meets_the_goals),
        cmocka_unit_test(cycle_finder_finds_one_stride_of_02_01),
        cmocka_unit_test(cut_cycles_loop_without_a_seam_pop),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
