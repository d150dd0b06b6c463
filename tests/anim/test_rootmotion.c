/* Root motion: deltas over intervals and loops, in-place poses, a hand-made clip with known
 * numbers, the built-in walk and a mocap cycle. */
#include "test_util.h"

/* A one-joint looping clip of 4 frames, 1 s apart: the root at x = 0,1,2,3 turning 10 degrees
 * per frame about +Y. */
static void make_turning_clip(ak_skeleton **sk, ak_clip **clip)
{
    const char *names[1] = {"Hips"};
    const int32_t parents[1] = {-1};
    ak_xform rest = {{0, 0, 0, 1}, {0, 1, 0}};
    ak_skeleton_desc d = {1, names, parents, &rest, NULL, NULL};
    assert_int_equal(ak_skeleton_create(&d, sk, NULL), AK_OK);
    assert_int_equal(ak_clip_create(1, 4, 1.0f, NULL, clip, NULL), AK_OK);
    (*clip)->loop = 1;
    for (int f = 0; f < 4; ++f) {
        (*clip)->rotations[f] = ak_quat_yaw(0.17453293f * (float)f);
        (*clip)->translations[f] = ak_vec3_make((float)f, 1.0f + 0.1f * (float)f, 0.0f);
    }
    ak_clip_finalize(*clip);
}

static void root_motion_delta_is_in_the_character_frame(void **state)
{
    (void)state;
    ak_skeleton *sk;
    ak_clip *c;
    make_turning_clip(&sk, &c);
    ak_root_motion *rm = NULL;
    ak_root_motion_params p = ak_root_motion_defaults();
    assert_int_equal(ak_root_motion_create(sk, c, &p, &rm, NULL), AK_OK);
    ak_vec3 d;
    float dh;
    /* Frame 1 -> 2: world +1 in x; the character at frame 1 faces 10 degrees off +Z toward
     * +X, so in its frame the step is yaw(-10 deg) (1,0,0) = (cos 10, 0, sin 10). */
    ak_root_motion_delta(rm, 1.0f, 2.0f, &d, &dh);
    const float a = 0.17453293f;
    AKT_NEAR(d.x, cosf(a), 1e-5);
    AKT_NEAR(d.z, sinf(a), 1e-5);
    AKT_NEAR(d.y, 0.0f, 0);
    AKT_NEAR(dh, a, 1e-6);
    /* Half a frame: linear. */
    ak_root_motion_delta(rm, 1.0f, 1.5f, &d, NULL);
    AKT_NEAR(d.x, 0.5f * cosf(a), 1e-5);
    ak_root_motion_destroy(rm);
    ak_clip_destroy(c);
    ak_skeleton_destroy(sk);
}

/* A looping clip of 66 frames whose root travels 1.3 m per loop while it sways 2.5 cm sideways
 * and yaws 0.07 rad (the built-in walk's shape): the root at t = duration, which no key holds, is
 * the first key carried by the travel. The wrap step's cubic gives it within 3e-8 m; the mean of
 * the wrap's two neighbouring steps was 1.0e-5 m off, a planted heel moving 0.6 mm/s across the
 * seam (worked in double precision: x(66) - x(65) = 2.2251e-3, the cubic 2.2251e-3, the mean
 * 2.2150e-3). */
static void loop_end_follows_a_periodic_sway(void **state)
{
    (void)state;
    const char *names[1] = {"Hips"};
    const int32_t parents[1] = {-1};
    ak_xform rest = {{0, 0, 0, 1}, {0, 1, 0}};
    ak_skeleton_desc d = {1, names, parents, &rest, NULL, NULL};
    ak_skeleton *sk;
    ak_clip *c;
    const int n = 66;
    assert_int_equal(ak_skeleton_create(&d, &sk, NULL), AK_OK);
    assert_int_equal(ak_clip_create(1, n, 1.1f / (float)n, NULL, &c, NULL), AK_OK);
    c->loop = 1;
    for (int f = 0; f < n; ++f) {
        const double phi = (double)f / n;
        c->rotations[f] = ak_quat_yaw((float)(0.07 * cos(2.0 * 3.14159265358979 * phi)));
        c->translations[f] = ak_vec3_make(
            (float)(0.025 * sin(2.0 * 3.14159265358979 * (phi - 0.05))), 0.9f, (float)(1.3 * phi));
    }
    ak_clip_finalize(c);
    ak_root_motion *rm = NULL;
    ak_root_motion_params p = ak_root_motion_defaults();
    assert_int_equal(ak_root_motion_create(sk, c, &p, &rm, NULL), AK_OK);
    ak_vec3 a, b;
    float ha, hb;
    ak_root_motion_at(rm, 0.0f, &a, &ha);
    ak_root_motion_at(rm, ak_root_motion_duration(rm), &b, &hb);
    printf("loop end off the first key: x %.3g m, z %.3g m, heading %.3g rad\n",
           (double)(b.x - a.x), (double)(b.z - a.z - 1.3f), (double)(hb - ha));
    AKT_NEAR(b.x, a.x, 1e-6);
    AKT_NEAR(b.z, a.z + 1.3f, 2e-6);
    AKT_NEAR(hb, ha, 1e-6);
    ak_root_motion_destroy(rm);
    ak_clip_destroy(c);
    ak_skeleton_destroy(sk);
}

/* The sum of per-frame deltas over a whole loop (each applied in the character's frame,
 * the character turning as it goes) equals the loop displacement, and a delta spanning three
 * loops equals three loops chained. */
static void per_frame_deltas_sum_to_the_loop_displacement(void **state)
{
    (void)state;
    ak_skeleton *sk;
    ak_clip *c;
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    assert_int_equal(ak_walk_clip_create(&wp, &sk, &c, NULL), AK_OK);
    ak_root_motion *rm = NULL;
    ak_root_motion_params p = ak_root_motion_defaults();
    assert_int_equal(ak_root_motion_create(sk, c, &p, &rm, NULL), AK_OK);
    ak_vec3 loop;
    float loop_h;
    ak_root_motion_loop(rm, &loop, &loop_h);
    /* The built-in walk: one stride per cycle, seen from the pelvis at frame 0, which is
     * yawed pelvis_yaw (4 degrees) off the line of travel. */
    AKT_NEAR(ak_vec3_length(loop), wp.stride_length, 1e-3);
    AKT_NEAR(atan2f(loop.x, loop.z), wp.pelvis_yaw, 2e-3);
    AKT_NEAR(loop_h, 0.0f, 1e-5);
    const float T = ak_clip_duration(c);
    for (int start = 0; start < 3; ++start) {
        /* Any start phase, steps not aligned with frames, across the wrap. */
        const float t0 = 0.37f * (float)start;
        const int steps = 97;
        ak_vec3 pos = {0, 0, 0};
        float head = 0.0f;
        for (int i = 0; i < steps; ++i) {
            ak_vec3 d;
            float dh;
            ak_root_motion_delta(rm, t0 + T * (float)i / steps, t0 + T * (float)(i + 1) / steps, &d,
                                 &dh);
            pos = ak_vec3_add(pos, ak_quat_rotate(ak_quat_yaw(head), d));
            head += dh;
        }
        ak_vec3 whole;
        ak_root_motion_delta(rm, t0, t0 + T, &whole, NULL);
        AKT_NEAR(pos.x, whole.x, 1e-4);
        AKT_NEAR(pos.z, whole.z, 1e-4);
        AKT_NEAR(ak_vec3_length(whole), ak_vec3_length(loop), 1e-3);
        AKT_NEAR(head, 0.0f, 1e-4);
    }
    ak_vec3 three;
    ak_root_motion_delta(rm, 0.2f, 0.2f + 3.0f * T, &three, NULL);
    AKT_NEAR(ak_vec3_length(three), 3.0f * ak_vec3_length(loop), 5e-3);
    ak_root_motion_destroy(rm);
    ak_clip_destroy(c);
    ak_skeleton_destroy(sk);
}

/* A looping clip that turns 30 degrees per loop: after three loops the heading is 90 deg and
 * the position follows the turned loops (an equilateral-ish polygon), computed by hand. */
static void turning_loops_chain_in_the_turned_frame(void **state)
{
    (void)state;
    ak_skeleton *sk;
    ak_clip *c;
    make_turning_clip(&sk, &c);
    ak_root_motion_params p = ak_root_motion_defaults();
    p.has_loop_end = 1;
    p.loop_end_position = ak_vec3_make(4.0f, 0, 0);
    p.loop_end_heading = 0.17453293f * 3.0f; /* loop end = 30 degrees */
    ak_root_motion *rm = NULL;
    assert_int_equal(ak_root_motion_create(sk, c, &p, &rm, NULL), AK_OK);
    ak_vec3 pos;
    float h;
    ak_root_motion_at(rm, 12.0f, &pos, &h); /* three loops of 4 s */
    AKT_NEAR(h, 3.0f * 0.5235988f, 1e-5);
    /* Loop vector in the start frame (heading 0): (4,0,0); the k-th loop is turned by 30k deg. */
    float ex = 0, ez = 0;
    for (int k = 0; k < 3; ++k) {
        const float a = 0.5235988f * (float)k;
        ex += 4.0f * cosf(a);
        ez += -4.0f * sinf(a);
    }
    AKT_NEAR(pos.x, ex, 1e-4);
    AKT_NEAR(pos.z, ez, 1e-4);
    ak_root_motion_destroy(rm);
    ak_clip_destroy(c);
    ak_skeleton_destroy(sk);
}

/* In place + character transform puts every joint back where the clip had it; the in-place
 * root has no horizontal travel and faces +Z, and keeps its height. */
static void in_place_pose_recombines_to_the_clip(void **state)
{
    (void)state;
    ak_skeleton *sk;
    ak_clip *c;
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    wp.pelvis_yaw = AKT_RAD(12.0f); /* make the heading wiggle visible */
    assert_int_equal(ak_walk_clip_create(&wp, &sk, &c, NULL), AK_OK);
    ak_root_motion *rm = NULL;
    ak_root_motion_params p = ak_root_motion_defaults();
    assert_int_equal(ak_root_motion_create(sk, c, &p, &rm, NULL), AK_OK);
    const int32_t J = sk->joint_count;
    ak_xform *a = malloc(sizeof(ak_xform) * (size_t)J * 4);
    ak_xform *wa = a + J, *b = a + 2 * J, *wb = a + 3 * J;
    for (int f = 0; f < c->frame_count; f += 5) {
        const float t = (float)f * c->frame_time;
        ak_clip_frame(c, sk, f, a);
        ak_fk(sk, a, wa);
        ak_clip_frame(c, sk, f, b);
        ak_root_motion_make_in_place(rm, t, b);
        AKT_NEAR(b[0].translation.x, 0.0f, 0);
        AKT_NEAR(b[0].translation.z, 0.0f, 0);
        AKT_NEAR(b[0].translation.y, a[0].translation.y, 1e-6);
        AKT_NEAR(ak_heading_of(b[0].rotation, ak_vec3_make(0, 0, 1)), 0.0f, 1e-5);
        b[0] = ak_xform_mul(ak_root_motion_character(rm, t), b[0]);
        ak_fk(sk, b, wb);
        for (int32_t j = 0; j < J; ++j) {
            AKT_NEAR(wa[j].translation.x, wb[j].translation.x, 1e-5);
            AKT_NEAR(wa[j].translation.y, wb[j].translation.y, 1e-5);
            AKT_NEAR(wa[j].translation.z, wb[j].translation.z, 1e-5);
        }
    }
    free(a);
    ak_root_motion_destroy(rm);
    ak_clip_destroy(c);
    ak_skeleton_destroy(sk);
}

/* The mocap cycle 104:236 of 02_01: the loop displacement is the root's travel between the
 * two frames in the source (23.3 CMU units per PROVENANCE), in metres. */
static void mocap_cycle_loop_equals_the_source_travel(void **state)
{
    (void)state;
    char path[1024];
    akt_mocap_path("cmu_02_01_walk.bvh", path, sizeof path);
    ak_skeleton *sk;
    ak_clip *c;
    ak_error err;
    assert_int_equal(ak_bvh_read_file(path, NULL, &sk, &c, &err), AK_OK);
    const ak_vec3 p0 = c->translations[(size_t)104 * c->track_count];
    const ak_vec3 p1 = c->translations[(size_t)236 * c->track_count];
    const float travel =
        sqrtf((p1.x - p0.x) * (p1.x - p0.x) + (p1.z - p0.z) * (p1.z - p0.z)) * 0.056444f;
    ak_walk_motion_params mp = ak_walk_motion_defaults();
    mp.cycle_start = 104;
    mp.cycle_end = 236;
    ak_walk_motion *m = NULL;
    assert_int_equal(ak_walk_motion_create(sk, c, &mp, &m, &err), AK_OK);
    ak_vec3 loop;
    float dh;
    ak_root_motion_loop(ak_walk_motion_root(m), &loop, &dh);
    printf("02_01 cycle 104:236: travel %.4f m, loop %.4f m, heading change %.5f rad\n",
           (double)travel, (double)ak_vec3_length(loop), (double)dh);
    AKT_NEAR(ak_vec3_length(loop), travel, 1e-4);
    AKT_NEAR(travel, 23.3f * 0.056444f, 0.02);
    AKT_NEAR(dh, 0.0f, 1e-5); /* the cycle is made heading-neutral */
    /* Summing per-frame deltas over the loop gives the same vector. */
    const ak_root_motion *rm = ak_walk_motion_root(m);
    const float ft = ak_walk_motion_clip(m)->frame_time;
    ak_vec3 pos = {0, 0, 0};
    float head = 0.0f;
    for (int f = 0; f < 132; ++f) {
        ak_vec3 d;
        float h;
        ak_root_motion_delta(rm, ft * (float)f, ft * (float)(f + 1), &d, &h);
        pos = ak_vec3_add(pos, ak_quat_rotate(ak_quat_yaw(head), d));
        head += h;
    }
    AKT_NEAR(pos.x, loop.x, 1e-4);
    AKT_NEAR(pos.z, loop.z, 1e-4);
    ak_walk_motion_destroy(m);
    ak_clip_destroy(c);
    ak_skeleton_destroy(sk);
}

static void root_motion_rejects_bad_input(void **state)
{
    (void)state;
    ak_skeleton *sk;
    ak_clip *c;
    make_turning_clip(&sk, &c);
    ak_root_motion *rm = NULL;
    ak_root_motion_params p = ak_root_motion_defaults();
    p.root_joint = 3;
    ak_error err;
    assert_int_equal(ak_root_motion_create(sk, c, &p, &rm, &err), AK_ERR_INVALID_ARG);
    assert_null(rm);
    p = ak_root_motion_defaults();
    p.forward_axis = ak_vec3_make(0, 1, 0);
    assert_int_equal(ak_root_motion_create(sk, c, &p, &rm, &err), AK_ERR_INVALID_ARG);
    /* NULL handles are harmless. */
    ak_vec3 d;
    float h;
    ak_root_motion_delta(NULL, 0, 1, &d, &h);
    AKT_NEAR(d.x + d.y + d.z + h, 0.0f, 0);
    ak_clip_destroy(c);
    ak_skeleton_destroy(sk);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(root_motion_delta_is_in_the_character_frame),
        cmocka_unit_test(per_frame_deltas_sum_to_the_loop_displacement),
        cmocka_unit_test(loop_end_follows_a_periodic_sway),
        cmocka_unit_test(turning_loops_chain_in_the_turned_frame),
        cmocka_unit_test(in_place_pose_recombines_to_the_clip),
        cmocka_unit_test(mocap_cycle_loop_equals_the_source_travel),
        cmocka_unit_test(root_motion_rejects_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
