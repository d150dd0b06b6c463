/* read(write(x)) reproduces x: world positions of every joint in every frame agree to
 * 1e-5 of the standing height, in all six rotation orders, for real files and a
 * synthetic one; the writer keeps Euler angles continuous across frames. */
#include "bvh_test_util.h"

static const ak_rot_order k_orders[6] = {AK_ORDER_XYZ, AK_ORDER_XZY, AK_ORDER_YXZ,
                                         AK_ORDER_YZX, AK_ORDER_ZXY, AK_ORDER_ZYX};

/* Writes in every order, reads back, compares world positions and the structure. */
static void round_trip_all_orders(const char *label, const ak_skeleton *s, const ak_clip *c)
{
    const double height = standing_height(s, c);
    for (int o = 0; o < 6; ++o) {
        char *text = NULL;
        size_t size = 0;
        ak_error err;
        int32_t st = ak_bvh_write_memory(s, c, k_orders[o], &text, &size, &err);
        if (st) fail_msg("%s: write failed: %s", label, err.message);
        assert_int_equal(strlen(text), size);
        ak_skeleton *s2 = NULL;
        ak_clip *c2 = NULL;
        st = ak_bvh_read_memory(text, size, NULL, &s2, &c2, &err);
        if (st)
            fail_msg("%s %s: re-read failed at line %d: %s", label, ak_rot_order_name(k_orders[o]),
                     (int)err.line, err.message);
        assert_int_equal(s2->joint_count, s->joint_count);
        for (int32_t j = 0; j < s->joint_count; ++j) {
            assert_string_equal(s2->names[j], s->names[j]);
            assert_int_equal(s2->parents[j], s->parents[j]);
            assert_int_equal(s2->is_end_site[j], s->is_end_site[j]);
            assert_int_equal(c2->joint_track[j] >= 0, c->joint_track[j] >= 0);
        }
        assert_int_equal(c2->frame_count, c->frame_count);
        assert_true(c2->frame_time == c->frame_time);
        double d = max_world_distance(s, c, s2, c2);
        printf("  %-34s %s  worst %.3g  rel %.3g\n", label, ak_rot_order_name(k_orders[o]), d,
               d / height);
        assert_true(d / height < 1e-5);
        ak_skeleton_destroy(s2);
        ak_clip_destroy(c2);
        ak_free(text);
    }
}

static void round_trip_file(const char *name)
{
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    if (ak_bvh_read_file(mocap_path(name), NULL, &s, &c, &err))
        fail_msg("%s:%d: %s", name, (int)err.line, err.message);
    round_trip_all_orders(name, s, c);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

static void bvh_round_trip_cmu_dance_all_orders(void **state)
{
    (void)state;
    round_trip_file("cmu_05_06_dance.bvh");
}

static void bvh_round_trip_louise_gimbal_all_orders(void **state)
{
    (void)state;
    round_trip_file("arena_louise_stand_walk_cycle.bvh");
}

static void bvh_round_trip_reactidle_positions_and_mixed_orders(void **state)
{
    (void)state;
    round_trip_file("reactidle_003_genuine_idle.bvh");
}

/* A synthetic arm: random rotations on every joint, a moving root, a translation track on
 * a middle joint, an End Site. */
static void bvh_round_trip_synthetic_random_rotations(void **state)
{
    (void)state;
    const char *names[] = {"root", "spine", "arm", "hand", "hand_end", "leg"};
    const int32_t parents[] = {-1, 0, 1, 2, 3, 0};
    const uint8_t end_site[] = {0, 0, 0, 0, 1, 0};
    ak_xform rest[6];
    for (int j = 0; j < 6; ++j) {
        rest[j].rotation = ak_quat_identity();
        rest[j].translation = ak_vec3_make(0.1f * (float)j, 1.0f, -0.25f * (float)j);
    }
    ak_skeleton_desc desc = {6, names, parents, rest, NULL, end_site};
    ak_skeleton *s = NULL;
    assert_int_equal(ak_skeleton_create(&desc, &s, NULL), AK_OK);
    const uint8_t has_tr[] = {1, 0, 1, 0, 0, 0};
    ak_clip *c = NULL;
    assert_int_equal(ak_clip_create(6, 200, 1.0f / 30.0f, has_tr, &c, NULL), AK_OK);
    srand(1234);
    for (int32_t f = 0; f < c->frame_count; ++f) {
        for (int32_t j = 0; j < 6; ++j) {
            ak_quat q = {(float)rand() / RAND_MAX - 0.5f, (float)rand() / RAND_MAX - 0.5f,
                         (float)rand() / RAND_MAX - 0.5f, (float)rand() / RAND_MAX - 0.5f};
            c->rotations[f * 6 + j] = ak_quat_normalize(q);
        }
        for (int32_t t = 0; t < c->track_count; ++t)
            c->translations[f * c->track_count + t] =
                ak_vec3_make(sinf(0.1f * f), 1.0f + 0.5f * cosf(0.07f * f), 0.01f * f);
    }
    /* One key exactly at gimbal lock for every order's middle axis. */
    c->rotations[7] = ak_quat_from_euler(ak_vec3_make(0.3f, 1.5707964f, 0.2f), AK_ORDER_XYZ);
    c->rotations[8] = ak_quat_from_euler(ak_vec3_make(1.5707964f, 0.3f, 0.2f), AK_ORDER_YXZ);
    ak_clip_finalize(c);
    round_trip_all_orders("synthetic (random keys)", s, c);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

/* Two roots, a position-only root, one- and two-rotation joints, an interleaved 6-channel
 * joint and a leaf JOINT without End Site: the writer normalises them to 3/6 channels and
 * the motion survives in every order. */
static void bvh_round_trip_two_roots_and_partial_channels(void **state)
{
    (void)state;
    const char *text =
        "HIERARCHY\nROOT a:root\n{\n OFFSET 1 2 3\n CHANNELS 3 Xposition Yposition Zposition\n"
        " JOINT a.knee\n {\n  OFFSET 0 -1 0\n  CHANNELS 2 Zrotation Xrotation\n  End Site\n  {\n   "
        "OFFSET 0 -1 0\n  }\n }\n"
        " JOINT a-spine\n {\n  OFFSET 0 1 0\n  CHANNELS 1 Yrotation\n  JOINT a head\n  {\n   "
        "OFFSET 0 1 0\n"
        "   CHANNELS 6 Yrotation Zposition Xrotation Yposition Xposition Zrotation\n  }\n }\n}\n"
        "ROOT b\n{\n OFFSET 5 0 0\n CHANNELS 3 Zrotation Yrotation Xrotation\n End Site\n {\n  "
        "OFFSET 0 0 2\n }\n}\n"
        "MOTION\nFrames: 3\nFrame Time: 0.25\n"
        "10 20 30  90 45  90  10 7 20 8 9 30  1 2 3\n"
        "11 21 31  -60 170  -135  -170 7 80 8 9 -100  100 -80 200\n"
        "12 22 32  530 -45  359  0 6 0 9 9 0  -190 89 5\n";
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    read_text_ok(text, &s, &c);
    assert_int_equal(s->joint_count, 7);
    assert_int_equal(s->parents[5], -1);
    round_trip_all_orders("two roots, partial channels", s, c);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

/* A joint spinning about Y by 720 degrees over 97 frames: the written Y angle climbs
 * steadily instead of wrapping back at +-180 degrees. */
static void bvh_writer_keeps_euler_angles_continuous(void **state)
{
    (void)state;
    const char *text =
        "HIERARCHY\nROOT spin\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n"
        " End Site\n {\n  OFFSET 1 0 0\n }\n}\nMOTION\nFrames: 97\nFrame Time: 0.1\n";
    char *buf = (char *)malloc(8192);
    size_t len = strlen(text);
    memcpy(buf, text, len);
    for (int f = 0; f < 97; ++f)
        len += (size_t)sprintf(buf + len, "5 10 %d\n", f * 720 / 96);
    buf[len] = '\0';
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    read_text_ok(buf, &s, &c);
    char *out = NULL;
    assert_int_equal(ak_bvh_write_memory(s, c, AK_ORDER_ZXY, &out, NULL, NULL), AK_OK);
    const char *motion = strstr(out, "Frame Time:");
    assert_non_null(motion);
    motion = strchr(motion, '\n') + 1;
    double prev_y = -1.0;
    for (int f = 0; f < 97; ++f) {
        double z, x, y;
        assert_int_equal(sscanf(motion, "%lf %lf %lf", &z, &x, &y), 3);
        assert_true(fabs(z - 5.0) < 1e-3);
        assert_true(fabs(x - 10.0) < 1e-3);
        assert_true(fabs(y - f * 720 / 96) < 1e-3);
        assert_true(y >= prev_y);
        prev_y = y;
        motion = strchr(motion, '\n') + 1;
    }
    assert_true(prev_y > 719.0);
    ak_free(out);
    free(buf);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

static void bvh_writer_rejects_bad_input(void **state)
{
    (void)state;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    read_text_ok("HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation Zrotation\n}\n"
                 "MOTION\nFrames: 1\nFrame Time: 0.1\n1 2 3\n",
                 &s, &c);
    char *out = NULL;
    ak_error err;
    assert_int_equal(ak_bvh_write_memory(s, c, (ak_rot_order)6, &out, NULL, &err),
                     AK_ERR_INVALID_ARG);
    assert_null(out);
    assert_int_equal(ak_bvh_write_memory(NULL, c, AK_ORDER_XYZ, &out, NULL, &err),
                     AK_ERR_INVALID_ARG);
    c->rotations[0].x = NAN;
    assert_int_equal(ak_bvh_write_memory(s, c, AK_ORDER_XYZ, &out, NULL, &err), AK_ERR_INVALID_ARG);
    assert_null(out);
    c->rotations[0] = ak_quat_identity();
    assert_int_equal(ak_bvh_write_file("no-such-dir/x/out.bvh", s, c, AK_ORDER_XYZ, &err),
                     AK_ERR_IO);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bvh_round_trip_cmu_dance_all_orders),
        cmocka_unit_test(bvh_round_trip_louise_gimbal_all_orders),
        cmocka_unit_test(bvh_round_trip_reactidle_positions_and_mixed_orders),
        cmocka_unit_test(bvh_round_trip_synthetic_random_rotations),
        cmocka_unit_test(bvh_round_trip_two_roots_and_partial_channels),
        cmocka_unit_test(bvh_writer_keeps_euler_angles_continuous),
        cmocka_unit_test(bvh_writer_rejects_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
