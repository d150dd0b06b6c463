/* The plugin's core entry points (src/plugin/plugin.c): loading (metres_per_unit checked,
 * units detected, errors with the line), skeleton queries, sampling and FK — each the
 * library's call (ak_clip_read_file, ak_units_detect, ak_clip_sample, ak_fk,
 * ak_humanoid_find) on CMU 02_01 mirrored into Unity's frame — matrices with worked numbers,
 * the loop flag, and handle lifetime through ak_plugin_destroy. Worked numbers of the mirror
 * on a two-joint BVH stay in test_plugin_abi.c. */
#include "plugin_rig.h"

#include "../locomotion/studio_variants.h"

enum { MAXJ = 64 };

static const char k_two_joints[] = "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n"
                                   " CHANNELS 6 Xposition Yposition Zposition Zrotation "
                                   "Yrotation Xrotation\n JOINT Arm\n {\n  OFFSET 1 0 0\n"
                                   "  CHANNELS 3 Zrotation Yrotation Xrotation\n  End Site\n  {\n"
                                   "   OFFSET 0 1 0\n  }\n }\n}\nMOTION\nFrames: 2\n"
                                   "Frame Time: 0.5\n0 0 0 0 0 0 0 0 0\n1 2 3 0 90 0 0 0 0\n";

static int32_t load_text(const char *text, float mpu, ak_handle *s, ak_handle *c, char *err,
                         int32_t size)
{
    return ak_plugin_bvh_load_memory(text, (int32_t)strlen(text), mpu, 0, s, c, err, size);
}

/* Validity of the load arguments (the file's only float input): metres_per_unit 0 (detect)
 * and positive pass; negative, NaN and infinite are refused, and so is a scale that carries a
 * joint beyond float range; missing text or outputs, a negative size and a bad file too,
 * with the reason (and the line) in the buffer and both handles null. */
static void load_validity(void **state)
{
    (void)state;
    const int32_t live0 = ak_plugin_live_handles();
    char err[256];
    ak_handle s = NULL, c = NULL;
    assert_int_equal(load_text(k_two_joints, 0.0f, &s, &c, err, sizeof err), AK_OK);
    assert_string_equal(err, "");
    assert_int_equal(ak_plugin_live_handles(), live0 + 2);
    ak_plugin_destroy(s);
    ak_plugin_destroy(c);
    const float bad[] = {-1.0f, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        s = c = (ak_handle)(uintptr_t)1;
        assert_int_equal(load_text(k_two_joints, bad[i], &s, &c, err, sizeof err),
                         AK_ERR_INVALID_ARG);
        assert_null(s);
        assert_null(c);
        if (!strstr(err, "clip data: metres_per_unit must be finite and >= 0"))
            fail_msg("metres_per_unit %g: '%s'", (double)bad[i], err);
    }
    assert_int_equal(load_text(k_two_joints, 1e38f, &s, &c, err, sizeof err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err, "beyond float range"));
    assert_int_equal(ak_plugin_bvh_load_memory(k_two_joints, -1, 1.0f, 0, &s, &c, err, sizeof err),
                     AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err, "a size >= 0"));
    assert_int_equal(ak_plugin_bvh_load_memory(NULL, 10, 1.0f, 0, &s, &c, err, sizeof err),
                     AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_bvh_load(NULL, 1.0f, 0, &s, &c, err, sizeof err),
                     AK_ERR_INVALID_ARG);
    assert_string_equal(err, "(null path): path and both out handles are required "
                             "(AK_ERR_INVALID_ARG)");
    /* a frame line one value short: line 20 */
    char text[sizeof k_two_joints];
    memcpy(text, k_two_joints, sizeof text);
    char *last = strstr(text, "1 2 3 0 90 0 0 0 0");
    strcpy(last, "1 2 3 0 90 0 0 0\n");
    assert_int_equal(load_text(text, 1.0f, &s, &c, err, sizeof err), AK_ERR_PARSE);
    if (!strstr(err, "clip data: line 20: ")) fail_msg("%s", err);
    assert_int_equal(ak_plugin_live_handles(), live0);
}

/* CMU 02_01 in the plugin (units detected) and in the library (read, scaled by what the plugin
 * detected): the units are ak_units_detect's on the standing height, and skeleton queries,
 * samples at 13 times with every interpolation, looping and clamped, sample + FK and FK are
 * the library's mirrored. */
typedef struct cmu {
    akpt_rig r;
    ak_plugin_skeleton_info info;
} cmu;

static void cmu_load(cmu *x)
{
    char path[1024], err[256];
    akt_mocap_path("cmu_02_01_walk.bvh", path, sizeof path);
    assert_int_equal(ak_plugin_bvh_load(path, 0.0f, 0, &x->r.s, &x->r.c, err, sizeof err), AK_OK);
    assert_int_equal(ak_plugin_skeleton_info_get(x->r.s, &x->info), AK_OK);
    ak_error e;
    assert_int_equal(ak_clip_read_file(path, &x->r.skeleton, &x->r.clip, &e), AK_OK);
    const float standing = ak_clip_standing_height(x->r.clip, x->r.skeleton);
    float k = 0.0f;
    assert_int_equal((int32_t)ak_units_detect(standing, &k), x->info.units);
    AKT_NEAR(x->info.metres_per_unit, k, 0);
    AKT_NEAR(k, 0.056444f, 1e-6); /* CMU units (SPEC) */
    AKT_NEAR(x->info.standing_height, standing * k, 1e-4);
    ak_skeleton_scale(x->r.skeleton, k);
    ak_clip_scale(x->r.clip, k);
    ak_clip_prepare_cubic(x->r.clip);
    x->r.joints = x->r.skeleton->joint_count;
    assert_int_equal(x->info.joint_count, x->r.joints);
    assert_true(x->r.joints <= MAXJ);
}

static void skeleton_queries_are_the_librarys(void **state)
{
    (void)state;
    cmu x;
    cmu_load(&x);
    const int32_t J = x.r.joints;
    int32_t parents[MAXJ], joints[AK_HUM_SLOT_COUNT + 2];
    ak_plugin_xform rest[MAXJ];
    char name[AK_NAME_MAX], err[256];
    assert_int_equal(ak_plugin_skeleton_parents(x.r.s, parents, J), AK_OK);
    assert_memory_equal(parents, x.r.skeleton->parents, sizeof(int32_t) * (size_t)J);
    assert_int_equal(ak_plugin_skeleton_rest_pose(x.r.s, rest, J), AK_OK);
    akpt_assert_mirrored(rest, x.r.skeleton->rest_local, J, 0.0f, "rest pose");
    for (int32_t j = 0; j < J; ++j) {
        int32_t found = -1;
        assert_int_equal(ak_plugin_skeleton_joint_name(x.r.s, j, name, sizeof name), AK_OK);
        assert_string_equal(name, x.r.skeleton->names[j]);
        assert_int_equal(ak_plugin_skeleton_find(x.r.s, name, &found), AK_OK);
        assert_int_equal(found, ak_skeleton_find(x.r.skeleton, name));
    }
    ak_humanoid hum;
    ak_error e;
    assert_int_equal(ak_humanoid_find(x.r.skeleton, NULL, &hum, &e), AK_OK);
    assert_int_equal(ak_plugin_skeleton_humanoid(x.r.s, NULL, joints, AK_HUM_SLOT_COUNT + 2),
                     AK_OK);
    assert_memory_equal(joints, hum.joint, sizeof(int32_t) * AK_HUM_SLOT_COUNT);
    assert_int_equal(joints[AK_HUM_SLOT_COUNT], -1);
    /* refusals, each with its reason on the skeleton */
    int32_t found = 0;
    assert_int_equal(ak_plugin_skeleton_find(x.r.s, "NoSuchJoint", &found), AK_ERR_NOT_FOUND);
    assert_int_equal(found, -1);
    ak_plugin_last_error(x.r.s, err, sizeof err);
    assert_string_equal(err, "no joint named 'NoSuchJoint'");
    assert_int_equal(ak_plugin_skeleton_joint_name(x.r.s, J, name, sizeof name),
                     AK_ERR_INVALID_ARG);
    ak_plugin_last_error(x.r.s, err, sizeof err);
    char expect[64];
    snprintf(expect, sizeof expect, "joint %d out of range [0, %d)", (int)J, (int)J);
    assert_string_equal(err, expect);
    assert_int_equal(ak_plugin_skeleton_parents(x.r.s, parents, J - 1), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_skeleton_humanoid(x.r.s, NULL, joints, 20), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_skeleton_humanoid(x.r.s, "hips=Nope", joints, AK_HUM_SLOT_COUNT),
                     AK_ERR_NOT_FOUND);
    ak_plugin_last_error(x.r.s, err, sizeof err);
    assert_non_null(strstr(err, "Nope"));
    assert_int_equal(ak_plugin_skeleton_info_get(x.r.c, &x.info), AK_PLUGIN_ERR_HANDLE);
    akpt_rig_free(&x.r);
}

static void sampling_and_fk_are_the_librarys(void **state)
{
    (void)state;
    cmu x;
    cmu_load(&x);
    const int32_t J = x.r.joints;
    ak_plugin_clip_info ci;
    assert_int_equal(ak_plugin_clip_info_get(x.r.c, &ci), AK_OK);
    assert_int_equal(ci.frame_count, x.r.clip->frame_count);
    AKT_NEAR(ci.duration, ak_clip_duration(x.r.clip), 0);
    assert_int_equal(ci.loop, 0);
    ak_plugin_xform local[MAXJ], model[MAXJ], fk[MAXJ];
    ak_xform want[MAXJ], want_model[MAXJ];
    for (int loop = 0; loop < 2; ++loop) {
        assert_int_equal(ak_plugin_clip_set_loop(x.r.c, loop), AK_OK);
        x.r.clip->loop = loop;
        for (int k = 0; k < 13; ++k) {
            /* from before the start to past the end, between keys */
            const float t = -0.3f + (float)k * (ci.duration + 0.6f) / 12.0f;
            for (int32_t interp = AK_INTERP_STEP; interp <= AK_INTERP_CUBIC; ++interp) {
                assert_int_equal(ak_plugin_clip_sample(x.r.c, x.r.s, t, interp, local, J), AK_OK);
                ak_clip_sample(x.r.clip, x.r.skeleton, t, (ak_interp)interp, want);
                akpt_assert_mirrored(local, want, J, 1e-5f, "sample");
                assert_int_equal(ak_plugin_clip_sample_model(x.r.c, x.r.s, t, interp, model, J),
                                 AK_OK);
                ak_fk(x.r.skeleton, want, want_model);
                akpt_assert_mirrored(model, want_model, J, 1e-4f, "sample + FK");
                assert_int_equal(ak_plugin_fk(x.r.s, local, fk, J), AK_OK);
                akpt_assert_mirrored(fk, want_model, J, 1e-4f, "FK");
            }
        }
    }
    /* refusals: another skeleton, a non-finite time, interp 3, a short buffer, overlap */
    char err[256];
    ak_handle s2, c2;
    assert_int_equal(load_text(k_two_joints, 1.0f, &s2, &c2, err, sizeof err), AK_OK);
    assert_int_equal(ak_plugin_clip_sample(x.r.c, s2, 0.0f, 1, local, J), AK_ERR_INVALID_ARG);
    ak_plugin_last_error(x.r.c, err, sizeof err);
    assert_non_null(strstr(err, "not loaded together"));
    assert_int_equal(ak_plugin_clip_sample(x.r.c, x.r.s, NAN, 1, local, J), AK_ERR_INVALID_ARG);
    ak_plugin_last_error(x.r.c, err, sizeof err);
    assert_string_equal(err, "time is not finite");
    assert_int_equal(ak_plugin_clip_sample(x.r.c, x.r.s, 0.0f, 3, local, J), AK_ERR_INVALID_ARG);
    ak_plugin_last_error(x.r.c, err, sizeof err);
    assert_string_equal(err, "interp 3 is not 0, 1 or 2");
    assert_int_equal(ak_plugin_clip_sample_model(x.r.c, x.r.s, 0.0f, 1, model, J - 1),
                     AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_fk(x.r.s, local, local + 1, J), AK_ERR_INVALID_ARG);
    ak_plugin_last_error(x.r.s, err, sizeof err);
    assert_string_equal(err, "local and out_model overlap");
    ak_plugin_destroy(s2);
    ak_plugin_destroy(c2);
    akpt_rig_free(&x.r);
}

/* Matrices: a turn of +90 degrees about Y (x goes to -z) at (1, 2, 3), column-major as Unity
 * stores a Matrix4x4; the mirror is its own inverse. */
static void matrices_and_the_mirror_worked_numbers(void **state)
{
    (void)state;
    const float h = 0.70710678f;
    ak_plugin_xform x[2] = {{{0.0f, h, 0.0f, h}, {1.0f, 2.0f, 3.0f}},
                            {{0.0f, 0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 0.0f}}};
    ak_plugin_mat4 m[2];
    assert_int_equal(ak_plugin_xforms_to_matrices(x, m, 2), AK_OK);
    const float want[16] = {0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 2, 3, 1};
    for (int i = 0; i < 16; ++i)
        AKT_NEAR(m[0].m[i], want[i], 1e-6);
    for (int i = 0; i < 16; ++i)
        AKT_NEAR(m[1].m[i], i % 5 == 0 ? 1.0f : 0.0f, 0);
    assert_int_equal(ak_plugin_xforms_to_matrices(x, NULL, 1), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_xforms_to_matrices(x, m, -1), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_mirror_z(x, 1), AK_OK);
    AKT_NEAR(x[0].position.z, -3.0f, 0);
    AKT_NEAR(x[0].rotation.y, -h, 0);
    assert_int_equal(ak_plugin_mirror_z(x, 1), AK_OK);
    AKT_NEAR(x[0].position.z, 3.0f, 0);
    AKT_NEAR(x[0].rotation.y, h, 0);
    assert_int_equal(ak_plugin_mirror_z(NULL, 1), AK_ERR_INVALID_ARG);
}

/* ak_plugin_destroy: every handle once; twice, null and forged refused; last_error of a
 * destroyed handle says so; the live count returns to where it was. */
static void destroy_and_last_error(void **state)
{
    (void)state;
    const int32_t live0 = ak_plugin_live_handles();
    char err[256];
    ak_handle s, c;
    assert_int_equal(load_text(k_two_joints, 1.0f, &s, &c, err, sizeof err), AK_OK);
    assert_int_equal(ak_plugin_last_error(s, err, sizeof err), AK_OK);
    assert_string_equal(err, "");
    assert_int_equal(ak_plugin_destroy(c), AK_OK);
    assert_int_equal(ak_plugin_destroy(c), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_last_error(c, err, sizeof err), AK_PLUGIN_ERR_HANDLE);
    assert_string_equal(err, "clip handle was destroyed (use after destroy)");
    assert_int_equal(ak_plugin_clip_set_loop(c, 1), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_destroy(NULL), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_last_error(NULL, err, sizeof err), AK_PLUGIN_ERR_HANDLE);
    assert_string_equal(err, "null object handle");
    assert_int_equal(ak_plugin_last_error(s, NULL, 0), AK_OK); /* buffer may be NULL */
    assert_int_equal(ak_plugin_destroy(s), AK_OK);
    assert_int_equal(ak_plugin_live_handles(), live0);
    assert_int_equal(ak_plugin_abi_version(), AK_PLUGIN_ABI_VERSION);
}

/* The joint that carries the travel (issue 22): CMU 02_01's top joint Hips travels; its
 * still-top variant (joint_Root that never moves above Hips, the tests' generator) has Hips
 * (joint 1) under a still top, with the same reach in metres as the library measures on the
 * variant; a name is taken as it is; an unknown name is refused with it in the message, and a
 * skeleton of another joint count too. */
static void root_joint_is_the_librarys(void **state)
{
    (void)state;
    size_t size = 0;
    char *text = akv_text("cmu_02_01_walk.bvh", AKV_STILL_TOP, &size);
    ak_handle s = NULL, c = NULL, s0 = NULL, c0 = NULL;
    char err[256], why[256];
    assert_int_equal(ak_plugin_bvh_load_memory(text, (int32_t)size, 0.0f, 0, &s, &c, err, 256),
                     AK_OK);
    ak_plugin_root_joint_info info;
    assert_int_equal(ak_plugin_clip_root_joint(c, s, NULL, &info, why, sizeof why), AK_OK);
    printf("still-top variant: %s\n", why);
    assert_int_equal(info.joint, 1);
    assert_int_equal(info.top, 0);
    assert_int_equal(info.reason, AK_ROOT_JOINT_UNDER_STILL);
    assert_non_null(strstr(why, "Hips (the top joint joint_Root is still"));
    /* the library on the same text, scaled as the plugin loaded it */
    ak_skeleton *ls = NULL;
    ak_clip *lc = NULL;
    ak_error e;
    assert_int_equal(ak_bvh_read_memory(text, size, NULL, &ls, &lc, &e), AK_OK);
    ak_plugin_skeleton_info si;
    assert_int_equal(ak_plugin_skeleton_info_get(s, &si), AK_OK);
    ak_skeleton_scale(ls, si.metres_per_unit);
    ak_clip_scale(lc, si.metres_per_unit);
    ak_root_joint_report r;
    assert_int_equal(ak_root_joint_find(ls, lc, NULL, &r, &e), AK_OK);
    AKT_NEAR(info.travel, r.travel, 0);
    AKT_NEAR(info.top_travel, r.top_travel, 0);
    AKT_NEAR(info.height, r.height, 0);
    assert_true(info.travel > 0.25f * info.height && info.top_travel < 1e-3f * info.height);
    assert_int_equal(ak_plugin_clip_root_joint(c, s, "Hips", &info, NULL, 0), AK_OK);
    assert_int_equal(info.joint, 1);
    assert_int_equal(info.reason, AK_ROOT_JOINT_NAMED);
    assert_int_equal(ak_plugin_clip_root_joint(c, s, "NoSuchJoint", &info, why, sizeof why),
                     AK_ERR_NOT_FOUND);
    ak_plugin_last_error(c, err, sizeof err);
    assert_non_null(strstr(err, "no joint named 'NoSuchJoint' to carry the root motion"));
    /* the original: its top joint travels */
    char path[1024];
    akt_mocap_path("cmu_02_01_walk.bvh", path, sizeof path);
    assert_int_equal(ak_plugin_bvh_load(path, 0.0f, 0, &s0, &c0, err, sizeof err), AK_OK);
    assert_int_equal(ak_plugin_clip_root_joint(c0, s0, "", &info, why, sizeof why), AK_OK);
    assert_int_equal(info.joint, 0);
    assert_int_equal(info.reason, AK_ROOT_JOINT_TOP_TRAVELS);
    assert_int_equal(ak_plugin_clip_root_joint(c, s0, NULL, &info, NULL, 0), AK_ERR_INVALID_ARG);
    ak_plugin_last_error(c, err, sizeof err);
    assert_non_null(strstr(err, "not loaded together"));
    ak_plugin_destroy(s);
    ak_plugin_destroy(c);
    ak_plugin_destroy(s0);
    ak_plugin_destroy(c0);
    ak_skeleton_destroy(ls);
    ak_clip_destroy(lc);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(load_validity),
        cmocka_unit_test(skeleton_queries_are_the_librarys),
        cmocka_unit_test(sampling_and_fk_are_the_librarys),
        cmocka_unit_test(matrices_and_the_mirror_worked_numbers),
        cmocka_unit_test(destroy_and_last_error),
        cmocka_unit_test(root_joint_is_the_librarys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
