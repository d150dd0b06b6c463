/* src/io/bvh_write.c: the BVH writer (ak_bvh_write_memory/_file and the frame-by-frame stream
 * akbvh_stream_*). Its API takes no params struct: the first case is the validity of its
 * arguments (every rotation order written, everything else refused with a reason, nothing
 * returned). Then the text of a one-joint clip worked by hand, and round trips:
 * read(write(x)) reproduces x, world positions of every joint in every frame agreeing to 1e-5
 * of the standing height, in all six rotation orders, for real files and a synthetic one; the
 * writer keeps Euler angles continuous across frames. */
#include "test_util.h"
#include "bvh_test_util.h"
#include "io/bvh_internal.h"
#include "io/file.h"

static const ak_rot_order k_orders[6] = {AK_ORDER_XYZ, AK_ORDER_XZY, AK_ORDER_YXZ,
                                         AK_ORDER_YZX, AK_ORDER_ZXY, AK_ORDER_ZYX};

/* A root "hip" (translation track) with a child "knee" and an End Site, 2 frames. */
static void make_leg(ak_skeleton **s, ak_clip **c)
{
    const char *names[] = {"hip", "knee", "knee_end"};
    const int32_t parents[] = {-1, 0, 1};
    const uint8_t end_site[] = {0, 0, 1};
    ak_xform rest[3];
    for (int j = 0; j < 3; ++j) {
        rest[j].rotation = ak_quat_identity();
        rest[j].translation = ak_vec3_make(0.0f, j ? -0.5f : 1.0f, 0.0f);
    }
    ak_skeleton_desc desc = {3, names, parents, rest, NULL, end_site};
    assert_int_equal(ak_skeleton_create(&desc, s, NULL), AK_OK);
    const uint8_t has_tr[] = {1, 0, 0};
    assert_int_equal(ak_clip_create(3, 2, 0.25f, has_tr, c, NULL), AK_OK);
    for (int32_t k = 0; k < 6; ++k)
        (*c)->rotations[k] = ak_quat_identity();
    (*c)->translations[0] = ak_vec3_make(1.0f, 2.0f, 3.0f);
    (*c)->translations[1] = ak_vec3_make(1.5f, 2.0f, 3.0f);
    ak_clip_finalize(*c);
}

/* ak_bvh_write_memory refuses with `status` and a message holding `needle`; *out stays NULL. */
static void expect_write_refused(const ak_skeleton *s, const ak_clip *c, int order, int32_t status,
                                 const char *needle)
{
    char *out = (char *)&out;
    size_t size = 99;
    ak_error err;
    const int32_t st = ak_bvh_write_memory(s, c, (ak_rot_order)order, &out, &size, &err);
    if (st != status || !strstr(err.message, needle))
        fail_msg("got %s '%s', want %s with '%s'", ak_status_name(st), err.message,
                 ak_status_name(status), needle);
    assert_null(out);
}

/* Every rotation order is written (its CHANNELS line in the order's letters); an unknown
 * order, a missing or mismatched clip, a zero frame time, names BVH cannot hold, non-finite
 * offsets and keys are refused with the reason; the stream refuses the same order and frame
 * time, a zero quaternion and an empty motion. */
static void bvh_write_arguments_validity(void **state)
{
    (void)state;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    make_leg(&s, &c);
    for (int o = 0; o < 6; ++o) {
        char *out = NULL;
        assert_int_equal(ak_bvh_write_memory(s, c, k_orders[o], &out, NULL, NULL), AK_OK);
        const char *name = ak_rot_order_name(k_orders[o]);
        char want[80];
        snprintf(want, sizeof want, "CHANNELS 3 %crotation %crotation %crotation\n", name[0],
                 name[1], name[2]);
        if (!strstr(out, want)) fail_msg("%s: no '%s' in\n%s", name, want, out);
        ak_free(out);
    }
    expect_write_refused(s, c, 6, AK_ERR_INVALID_ARG, "unknown rotation order 6");
    expect_write_refused(s, c, -1, AK_ERR_INVALID_ARG, "unknown rotation order -1");
    expect_write_refused(NULL, c, 0, AK_ERR_INVALID_ARG, "null skeleton or clip");
    expect_write_refused(s, NULL, 0, AK_ERR_INVALID_ARG, "null skeleton or clip");
    ak_clip *one = NULL;
    assert_int_equal(ak_clip_create(1, 1, 0.1f, NULL, &one, NULL), AK_OK);
    expect_write_refused(s, one, 0, AK_ERR_INVALID_ARG, "clip has 1 joints, skeleton 3");
    ak_clip_destroy(one);
    c->frame_time = 0.0f;
    expect_write_refused(s, c, 0, AK_ERR_INVALID_ARG, "positive frame time");
    c->frame_time = 0.25f;
    static const char *const unwritable[] = {"knee{", " knee", "knee\t", "kn\001ee"};
    char keep[AK_NAME_MAX];
    memcpy(keep, s->names[1], sizeof keep);
    for (size_t i = 0; i < sizeof unwritable / sizeof unwritable[0]; ++i) {
        snprintf(s->names[1], AK_NAME_MAX, "%s", unwritable[i]);
        expect_write_refused(s, c, 0, AK_ERR_INVALID_ARG, "joint 1's name cannot be written");
    }
    snprintf(s->names[1], AK_NAME_MAX, "hip");
    expect_write_refused(s, c, 0, AK_ERR_INVALID_ARG, "duplicate joint name 'hip'");
    memcpy(s->names[1], keep, sizeof keep);
    s->rest_local[2].translation.y = INFINITY;
    expect_write_refused(s, c, 0, AK_ERR_INVALID_ARG, "joint 'knee_end' has a non-finite offset");
    s->rest_local[2].translation.y = -0.5f;
    c->rotations[4].x = NAN;
    expect_write_refused(s, c, 0, AK_ERR_INVALID_ARG, "non-finite rotation key");
    c->rotations[4] = ak_quat_identity();
    c->translations[1].z = -INFINITY;
    expect_write_refused(s, c, 0, AK_ERR_INVALID_ARG, "non-finite translation key");
    c->translations[1].z = 3.0f;
    ak_error err;
    assert_int_equal(ak_bvh_write_file("no-such-dir/x/out.bvh", s, c, AK_ORDER_XYZ, &err),
                     AK_ERR_IO);

    char path[700];
    snprintf(path, sizeof path, "%.600s/tests/bvh_write_validity.bvh",
             getenv("AK_BUILD_DIR") ? getenv("AK_BUILD_DIR") : ".");
    akio_atomic out;
    akbvh_stream *w = (akbvh_stream *)&out;
    assert_int_equal(akio_atomic_open(&out, path, &err), AK_OK);
    assert_int_equal(akbvh_stream_begin(&out, s, NULL, (ak_rot_order)7, 0.1f, &w, &err),
                     AK_ERR_INVALID_ARG);
    assert_null(w);
    assert_non_null(strstr(err.message, "unknown rotation order 7"));
    assert_int_equal(akbvh_stream_begin(&out, s, NULL, AK_ORDER_XYZ, 0.0f, &w, &err),
                     AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "frame time must be finite and > 0"));
    assert_int_equal(akbvh_stream_begin(&out, s, NULL, AK_ORDER_XYZ, 0.1f, &w, &err), AK_OK);
    ak_xform pose[3] = {ak_xform_identity(), ak_xform_identity(), ak_xform_identity()};
    pose[1].rotation.w = 0.0f;
    assert_int_equal(akbvh_stream_frame(w, pose, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "frame 0: joint 1 has a non-finite or zero pose"));
    assert_int_equal(akbvh_stream_end(w, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "at least one frame"));
    akio_atomic_abort(&out);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

/* The text of the leg worked by hand: the hierarchy with the End Site as a block, six
 * channels on the tracked root only, the frame time, and a knee turned 90 degrees about X
 * written as (Z, X, Y) = (0, 90, 0) in ZXY, the root's keys as given. */
static void bvh_write_text_of_a_leg(void **state)
{
    (void)state;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    make_leg(&s, &c);
    c->rotations[3 + 1] = ak_quat_from_axis_angle(ak_vec3_make(1, 0, 0), 1.5707963f);
    ak_clip_finalize(c);
    char *out = NULL;
    size_t size = 0;
    assert_int_equal(ak_bvh_write_memory(s, c, AK_ORDER_ZXY, &out, &size, NULL), AK_OK);
    assert_int_equal(strlen(out), size);
    static const char *const in_order[] = {
        "HIERARCHY\nROOT hip\n",
        "OFFSET 0 1 0\n",
        "CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n",
        "JOINT knee\n",
        "OFFSET 0 -0.5 0\n",
        "CHANNELS 3 Zrotation Xrotation Yrotation\n",
        "End Site\n",
        "OFFSET 0 -0.5 0\n",
        "MOTION\nFrames: 2\nFrame Time: 0.25\n"};
    const char *at = out;
    for (size_t i = 0; i < sizeof in_order / sizeof in_order[0]; ++i) {
        const char *next = strstr(at, in_order[i]);
        if (!next) fail_msg("'%s' missing or out of order in\n%s", in_order[i], out);
        at = next + strlen(in_order[i]);
    }
    double v[2][9];
    for (int f = 0; f < 2; ++f) {
        assert_int_equal(sscanf(at, "%lf %lf %lf %lf %lf %lf %lf %lf %lf", &v[f][0], &v[f][1],
                                &v[f][2], &v[f][3], &v[f][4], &v[f][5], &v[f][6], &v[f][7],
                                &v[f][8]),
                         9);
        at = strchr(at, '\n') + 1;
    }
    assert_string_equal(at, ""); /* two motion lines, nothing after them */
    const double want[2][9] = {{1, 2, 3, 0, 0, 0, 0, 0, 0}, {1.5, 2, 3, 0, 0, 0, 0, 90, 0}};
    for (int f = 0; f < 2; ++f)
        for (int k = 0; k < 9; ++k)
            AKT_NEAR(v[f][k], want[f][k], 1e-4); /* 9 digits of a float angle */
    ak_free(out);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bvh_write_arguments_validity),
        cmocka_unit_test(bvh_write_text_of_a_leg),
        cmocka_unit_test(bvh_round_trip_cmu_dance_all_orders),
        cmocka_unit_test(bvh_round_trip_louise_gimbal_all_orders),
        cmocka_unit_test(bvh_round_trip_reactidle_positions_and_mixed_orders),
        cmocka_unit_test(bvh_round_trip_synthetic_random_rotations),
        cmocka_unit_test(bvh_round_trip_two_roots_and_partial_channels),
        cmocka_unit_test(bvh_writer_keeps_euler_angles_continuous),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
