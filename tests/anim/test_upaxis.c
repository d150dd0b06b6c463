/* The up axis (issue 22: "Z-up rigs where the file says so"; a BVH file has no up field, so it
 * is measured, clip.h): a Z-up copy of every shipped capture is read back turned to Y-up with a
 * warning, its world positions the original's to 1e-4 m in every frame; AK_UP_Y keeps the
 * file's axes; the shipped captures and assimp's stand along +Y; a capture lying on a Y-up floor
 * (the body along +Z, travelling along it) is kept, and what the measure cannot tell (lying still,
 * or rolling across its axis) is taken as standing, which AK_UP_Y overrides. */
#include "test_util.h"

#include "../locomotion/studio_variants.h"

static const char *const k_captures[] = {
    "cmu_02_01_walk.bvh",
    "cmu_07_01_walk.bvh",
    "cmu_09_01_run.bvh",
    "cmu_16_11_walk_veer_left.bvh",
    "cmu_05_06_dance.bvh",
    "reactidle_003_genuine_idle.bvh",
    "arena_louise_stand_walk_cycle.bvh",
    "locomotion/cmu_02_02_walk.bvh",
    "locomotion/cmu_02_03_run.bvh",
    "locomotion/cmu_07_04_slow_walk.bvh",
    "locomotion/cmu_09_02_run.bvh",
};
#define CAPTURES (sizeof k_captures / sizeof k_captures[0])

static ak_up_report measure(const ak_skeleton *s, const ak_clip *c)
{
    ak_up_report r;
    assert_int_equal(ak_clip_up_measure(s, c, &r), AK_OK);
    return r;
}

/* Validity first: an up value out of ak_up_axis, NULL and mismatched arguments. */
static void up_arguments_are_checked(void **state)
{
    (void)state;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    akv_make("cmu_02_01_walk.bvh", 0u, &s, &c);
    ak_up_report r;
    assert_int_equal(ak_clip_up_apply(s, c, 3, &r), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_clip_up_apply(s, c, -1, &r), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_clip_up_apply(NULL, c, AK_UP_AUTO, &r), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_clip_up_measure(s, NULL, &r), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_clip_up_measure(s, c, NULL), AK_ERR_INVALID_ARG);
    ak_bvh_read_params p = ak_bvh_read_defaults();
    assert_int_equal(p.up, AK_UP_AUTO);
    ak_error err;
    p.up = 3;
    assert_int_equal(ak_bvh_read_validate(&p, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "up = 3"));
    char text[128];
    ak_up_describe(NULL, text, sizeof text);
    assert_string_equal(text, "");
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

/* Every shipped capture (walks, runs, a dance, an idle, the Arena rig in centimetres) and
 * assimp's three test files stand along +Y: nothing is turned, nothing said. */
static void shipped_captures_stand_along_y(void **state)
{
    (void)state;
    for (size_t i = 0; i < CAPTURES; ++i) {
        ak_skeleton *s = NULL;
        ak_clip *c = NULL;
        akv_make(k_captures[i], 0u, &s, &c);
        const ak_up_report r = measure(s, c);
        print_message("%-36s body (%+.3f %+.3f %+.3f) length %.3g, hips extent %.3g/%.3g/%.3g\n",
                      k_captures[i], (double)r.body.x, (double)r.body.y, (double)r.body.z,
                      (double)r.body_length, (double)r.hips_extent.x, (double)r.hips_extent.y,
                      (double)r.hips_extent.z);
        assert_int_equal(r.reason, AK_UP_REASON_STANDS_Y);
        assert_int_equal(r.up, AK_UP_Y);
        ak_skeleton_destroy(s);
        ak_clip_destroy(c);
    }
    static const char *const assimp[] = {"01_01.bvh", "01_03.bvh", "Boxing_Toes.bvh"};
    for (size_t i = 0; i < 3; ++i) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", akt_assimp_dir(), assimp[i]);
        ak_skeleton *s = NULL;
        ak_clip *c = NULL;
        ak_error err;
        if (ak_bvh_read_file(path, NULL, &s, &c, &err) != AK_OK) {
            print_message("%s: not installed (assimp-testmodels), skipped\n", assimp[i]);
            continue;
        }
        assert_null(strstr(err.message, "+Z"));
        assert_int_equal(measure(s, c).reason, AK_UP_REASON_STANDS_Y);
        ak_skeleton_destroy(s);
        ak_clip_destroy(c);
    }
}

/* The clip-file reader from memory (ak_clip_read_memory_up, the web page's loadClip `up`) reads
 * the Z-up text as ak_bvh_read_memory with the same up: AK_UP_Y keeps its axes (sk, ck), to the
 * bit; AK_UP_Z and AK_UP_AUTO (measured, with the warning) turn it to the original (so, co) to
 * 1e-4 m. */
static void same_through_memory_up(const char *text, size_t size, const ak_skeleton *sk,
                                   const ak_clip *ck, const ak_skeleton *so, const ak_clip *co)
{
    static const int32_t ups[] = {AK_UP_Y, AK_UP_Z, AK_UP_AUTO};
    float mpu = 1.0f;
    ak_units_detect(ak_clip_standing_height(co, so), &mpu);
    for (size_t u = 0; u < 3; ++u) {
        ak_skeleton *s = NULL;
        ak_clip *c = NULL;
        ak_error err;
        assert_int_equal(
            ak_clip_read_memory_up((const uint8_t *)text, size, NULL, ups[u], &s, &c, &err), AK_OK);
        if (ups[u] == AK_UP_Y) {
            assert_string_equal(err.message, "");
            assert_int_equal(c->frame_count, ck->frame_count);
            assert_memory_equal(c->rotations, ck->rotations,
                                sizeof(ak_quat) * (size_t)c->frame_count * (size_t)c->joint_count);
            assert_true(akt_max_joint_distance(sk, ck, s, c, NULL, NULL) == 0.0);
        } else {
            if (ups[u] == AK_UP_AUTO) assert_non_null(strstr(err.message, "+Z"));
            assert_true(akt_max_joint_distance(so, co, s, c, NULL, NULL) * mpu <= 1e-4);
        }
        ak_skeleton_destroy(s);
        ak_clip_destroy(c);
    }
}

/* The Z-up copy of each capture (studio_variants.h: turned +90 degrees about X, offsets, keys
 * and the root's travel) is read back standing along +Y, said in the reader's warning, and
 * every joint is where the original has it to 1e-4 m in every frame (the BVH text's rounding:
 * measured below 1e-5 m). With AK_UP_Y the file's axes are kept: the original's positions
 * turned by +90 degrees about X. */
static void z_up_copies_read_back_as_the_original(void **state)
{
    (void)state;
    const ak_quat r = {0.70710678f, 0.0f, 0.0f, 0.70710678f};
    for (size_t i = 0; i < CAPTURES; ++i) {
        ak_skeleton *so = NULL, *sv = NULL, *sk = NULL;
        ak_clip *co = NULL, *cv = NULL, *ck = NULL;
        akv_make(k_captures[i], 0u, &so, &co);
        akv_make(k_captures[i], AKV_Z_UP, &sv, &cv); /* asserts the warning */
        float mpu = 1.0f;
        ak_units_detect(ak_clip_standing_height(co, so), &mpu);
        const double d = akt_max_joint_distance(so, co, sv, cv, NULL, NULL) * mpu;
        /* The file's axes kept: the original turned. */
        size_t size = 0;
        char *text = akv_text(k_captures[i], AKV_Z_UP, &size);
        ak_bvh_read_params p = ak_bvh_read_defaults();
        p.up = AK_UP_Y;
        ak_error err;
        assert_int_equal(ak_bvh_read_memory(text, size, &p, &sk, &ck, &err), AK_OK);
        assert_string_equal(err.message, "");
        same_through_memory_up(text, size, sk, ck, so, co);
        free(text);
        const ak_up_report kept = measure(sk, ck);
        assert_int_equal(kept.reason, AK_UP_REASON_STANDS_Z);
        ak_clip *turned = ak_clip_clone(co);
        assert_non_null(turned);
        for (int32_t f = 0; f < turned->frame_count; ++f) {
            ak_quat *q = &turned->rotations[(size_t)f * turned->joint_count];
            *q = ak_quat_mul(r, *q);
            if (turned->joint_track[0] >= 0) {
                ak_vec3 *t = &turned->translations[(size_t)f * turned->track_count +
                                                   (size_t)turned->joint_track[0]];
                *t = ak_quat_rotate(r, *t);
            }
        }
        const double dk = akt_max_joint_distance(so, turned, sk, ck, NULL, NULL) * mpu;
        print_message("%-36s Z-up copy: worst joint %.2g m from the original read as Z-up, "
                      "%.2g m from the original turned with --up y\n",
                      k_captures[i], d, dk);
        assert_true(d <= 1e-4);
        assert_true(dk <= 1e-4);
        ak_clip_destroy(turned);
        ak_skeleton_destroy(so);
        ak_clip_destroy(co);
        ak_skeleton_destroy(sv);
        ak_clip_destroy(cv);
        ak_skeleton_destroy(sk);
        ak_clip_destroy(ck);
    }
}

/* CMU 02_01 on a Y-up floor lying down: the whole body turned +90 degrees about X around the
 * hips (head along +Z), the hips' path kept on the floor's plane (turning it too would make the
 * travel vertical: that is a Z-up file, not a capture of someone lying down), first turned
 * about Y so it travels along `along` (+Z: along the body; +X: across it). */
static void lying_copy(ak_skeleton *s, ak_clip *c, ak_vec3 along)
{
    ak_xform first[128], last[128], m0[128], m1[128];
    assert_true(s->joint_count <= 128);
    ak_clip_frame(c, s, 0, first);
    ak_fk(s, first, m0);
    ak_clip_frame(c, s, c->frame_count - 1, last);
    ak_fk(s, last, m1);
    const ak_vec3 d = ak_vec3_sub(m1[0].translation, m0[0].translation);
    const float yaw = atan2f(along.x, along.z) - atan2f(d.x, d.z);
    const ak_quat y = ak_quat_from_axis_angle(ak_vec3_make(0, 1, 0), yaw);
    const ak_quat lie = ak_quat_from_axis_angle(ak_vec3_make(1, 0, 0), 1.5707963f);
    assert_int_equal(s->parents[0], -1);
    assert_true(c->joint_track[0] >= 0);
    for (int32_t f = 0; f < c->frame_count; ++f) {
        ak_quat *q = &c->rotations[(size_t)f * c->joint_count];
        ak_vec3 *t = &c->translations[(size_t)f * c->track_count + (size_t)c->joint_track[0]];
        *q = ak_quat_mul(lie, ak_quat_mul(y, *q));
        *t = ak_quat_rotate(y, *t);
    }
    ak_clip_finalize(c);
}

/* Read a lying copy back (written as BVH text); the reader's warning in *msg. */
static void read_lying(ak_vec3 along, int32_t up, ak_skeleton **so, ak_clip **co, ak_skeleton **sr,
                       ak_clip **cr, char *msg, size_t size)
{
    akv_make("cmu_02_01_walk.bvh", 0u, so, co);
    lying_copy(*so, *co, along);
    char *text = NULL;
    size_t n = 0;
    ak_error err;
    assert_int_equal(ak_bvh_write_memory(*so, *co, AK_ORDER_ZYX, &text, &n, &err), AK_OK);
    ak_bvh_read_params p = ak_bvh_read_defaults();
    p.up = up;
    assert_int_equal(ak_bvh_read_memory(text, n, &p, sr, cr, &err), AK_OK);
    ak_free(text);
    snprintf(msg, size, "%s", err.message);
}

/* Frees read_lying's two copies. */
static void free_lying(ak_skeleton *so, ak_clip *co, ak_skeleton *sr, ak_clip *cr)
{
    ak_skeleton_destroy(so);
    ak_clip_destroy(co);
    ak_skeleton_destroy(sr);
    ak_clip_destroy(cr);
}

/* A capture lying on the floor along +Z and travelling along its body (3.3 m, against 0.07 m of
 * extent along Y) is kept as read, with a warning that says why and how to stand it up. */
static void a_capture_lying_along_its_travel_is_not_turned(void **state)
{
    (void)state;
    ak_skeleton *so, *sr;
    ak_clip *co, *cr;
    char msg[256];
    read_lying(ak_vec3_make(0, 0, 1), AK_UP_AUTO, &so, &co, &sr, &cr, msg, sizeof msg);
    const ak_up_report r = measure(so, co);
    print_message("lying along its travel: body (%+.3f %+.3f %+.3f), hips extent %.3g/%.3g/%.3g; "
                  "'%s'\n",
                  (double)r.body.x, (double)r.body.y, (double)r.body.z, (double)r.hips_extent.x,
                  (double)r.hips_extent.y, (double)r.hips_extent.z, msg);
    assert_true(r.body.z > 0.9f);
    assert_int_equal(r.reason, AK_UP_REASON_LIES_ALONG_Z);
    assert_non_null(strstr(msg, "the rig lies along +Z and its hips travel "));
    assert_non_null(strstr(msg, "--up z to stand it up"));
    const float h = ak_skeleton_rest_height(so);
    assert_true(akt_max_joint_distance(so, co, sr, cr, NULL, NULL) <= 1e-5 * h);
    free_lying(so, co, sr, cr);
}

/* What the measure cannot tell: lying along +Z while rolling across the body (the hips' path
 * along X says nothing of Y against Z) is taken as a Z-up file and turned, said in the warning;
 * AK_UP_Y keeps it as it lies, silently. */
static void lying_across_its_travel_is_taken_as_z_up_unless_told(void **state)
{
    (void)state;
    ak_skeleton *so, *sr;
    ak_clip *co, *cr;
    char msg[256];
    read_lying(ak_vec3_make(1, 0, 0), AK_UP_AUTO, &so, &co, &sr, &cr, msg, sizeof msg);
    assert_int_equal(measure(so, co).reason, AK_UP_REASON_STANDS_Z);
    assert_non_null(strstr(msg, "the rig stands along +Z: read as Z-up"));
    assert_true(measure(sr, cr).body.y > 0.9f);
    free_lying(so, co, sr, cr);
    read_lying(ak_vec3_make(1, 0, 0), AK_UP_Y, &so, &co, &sr, &cr, msg, sizeof msg);
    assert_string_equal(msg, "");
    const float h = ak_skeleton_rest_height(so);
    assert_true(akt_max_joint_distance(so, co, sr, cr, NULL, NULL) <= 1e-5 * h);
    free_lying(so, co, sr, cr);
}

/* A rig without a humanoid map is not measured: the file's axes, no warning. */
static void a_rig_without_head_and_feet_is_kept(void **state)
{
    (void)state;
    static const char text[] = "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition "
                               "Yposition Zposition Zrotation Yrotation Xrotation\nJOINT b\n{\n"
                               "OFFSET 0 0 1\nCHANNELS 3 Zrotation Yrotation Xrotation\nEnd Site\n"
                               "{\nOFFSET 0 0 1\n}\n}\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n"
                               "0 0 0 0 0 0 0 0 0\n1 0 0 0 0 0 0 0 0\n";
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    assert_int_equal(ak_bvh_read_memory(text, sizeof text - 1, NULL, &s, &c, &err), AK_OK);
    assert_string_equal(err.message, "");
    assert_int_equal(measure(s, c).reason, AK_UP_REASON_NO_HUMANOID);
    assert_true(s->rest_local[1].translation.z == 1.0f);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(up_arguments_are_checked),
        cmocka_unit_test(shipped_captures_stand_along_y),
        cmocka_unit_test(z_up_copies_read_back_as_the_original),
        cmocka_unit_test(a_capture_lying_along_its_travel_is_not_turned),
        cmocka_unit_test(lying_across_its_travel_is_taken_as_z_up_unless_told),
        cmocka_unit_test(a_rig_without_head_and_feet_is_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
