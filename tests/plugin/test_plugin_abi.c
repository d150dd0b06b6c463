/* The plugin ABI from C, against the real libanimkit_unity: handles (null, forged,
 * destroyed), the handedness conversion with worked numbers, BVH loading with units and
 * line-numbered errors, sampling/FK against the library run in its own frame, threads. */
#include "test_util.h"
#include "animkit/plugin.h"

#if !defined(_WIN32)
#include <pthread.h>
#endif

/* Two joints and an End Site, 2 frames. Root translates; child is 1 unit above; the root
 * turns +90 degrees about Y in frame 1 (right-handed: +X goes to -Z). */
static const char k_small_bvh[] =
    "HIERARCHY\n"
    "ROOT Hips\n"
    "{\n"
    "  OFFSET 0 0 0\n"
    "  CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n"
    "  JOINT Arm\n"
    "  {\n"
    "    OFFSET 1 0 0\n"
    "    CHANNELS 3 Zrotation Yrotation Xrotation\n"
    "    End Site\n"
    "    {\n"
    "      OFFSET 0 1 0\n"
    "    }\n"
    "  }\n"
    "}\n"
    "MOTION\n"
    "Frames: 2\n"
    "Frame Time: 0.5\n"
    "0 0 0 0 0 0 0 0 0\n"
    "1 2 3 0 90 0 0 0 0\n";

static void load_small(ak_handle *s, ak_handle *c)
{
    char err[256];
    int32_t st = ak_plugin_bvh_load_memory(k_small_bvh, (int32_t)strlen(k_small_bvh), 1.0f, 0, s, c,
                                           err, sizeof err);
    if (st != AK_OK) fail_msg("load failed: %s", err);
}

static void abi_version_matches_header(void **state)
{
    (void)state;
    assert_int_equal(ak_plugin_abi_version(), AK_PLUGIN_ABI_VERSION);
}

static void null_handle_is_an_error_on_every_call(void **state)
{
    (void)state;
    ak_plugin_xform x[4];
    ak_plugin_skeleton_info si;
    ak_plugin_clip_info ci;
    int32_t ints[32];
    char buf[128];
    assert_int_equal(ak_plugin_destroy(NULL), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_skeleton_info_get(NULL, &si), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_skeleton_joint_name(NULL, 0, buf, sizeof buf), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_skeleton_parents(NULL, ints, 32), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_skeleton_find(NULL, "Hips", ints), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_skeleton_rest_pose(NULL, x, 4), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_skeleton_humanoid(NULL, NULL, ints, 32), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_clip_info_get(NULL, &ci), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_clip_set_loop(NULL, 1), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_clip_sample(NULL, NULL, 0.0f, 1, x, 4), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_clip_sample_model(NULL, NULL, 0.0f, 1, x, 4), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_fk(NULL, x, x + 2, 2), AK_PLUGIN_ERR_HANDLE);
    ak_plugin_limb_ik_params lp;
    ak_plugin_look_at_params la;
    ak_plugin_ik_result r;
    ak_plugin_limb_ik_defaults(&lp);
    ak_plugin_look_at_defaults(&la);
    assert_int_equal(ak_plugin_limb_ik(NULL, &lp, x, x, 4, &r), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_look_at(NULL, ints, NULL, 1, &la, x, x, 4, &r),
                     AK_PLUGIN_ERR_HANDLE);
    ak_plugin_character_params cp;
    ak_plugin_character_info cinfo;
    ak_plugin_character_state cs;
    ak_plugin_ray rays[AK_PLUGIN_CHARACTER_MAX_RAYS];
    ak_plugin_ground_hit hits[AK_PLUGIN_CHARACTER_MAX_RAYS];
    ak_vec3 v = {0, 0, 0};
    ak_handle ch = (ak_handle)(uintptr_t)1;
    ak_plugin_character_defaults(&cp);
    assert_int_equal(ak_plugin_character_create(NULL, NULL, NULL, &cp, &ch, buf, sizeof buf),
                     AK_PLUGIN_ERR_HANDLE);
    assert_null(ch);
    assert_non_null(strstr(buf, "null skeleton handle"));
    assert_int_equal(ak_plugin_character_info_get(NULL, &cinfo), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_character_set_target(NULL, &v), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_character_begin(NULL, 0.1f, &v), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_character_set_position(NULL, &v), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(
        ak_plugin_character_ground_rays(NULL, rays, AK_PLUGIN_CHARACTER_MAX_RAYS, ints),
        AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_character_finish(NULL, hits, AK_PLUGIN_CHARACTER_MAX_RAYS),
                     AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_character_state_get(NULL, &cs), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_character_pose(NULL, x, x, 4), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_character_world_pose(NULL, x, 4), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_last_error(NULL, buf, sizeof buf), AK_PLUGIN_ERR_HANDLE);
    assert_non_null(strstr(buf, "null"));
    /* The text buffer is optional and a short one truncates. */
    assert_int_equal(ak_plugin_last_error(NULL, NULL, 0), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_last_error(NULL, buf, 3), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(strlen(buf), 2);
}

static void forged_handle_is_rejected_not_dereferenced(void **state)
{
    (void)state;
    char buf[160];
    ak_plugin_skeleton_info si;
    ak_handle forged = (ak_handle)(uintptr_t)0xdeadbeefu;
    assert_int_equal(ak_plugin_skeleton_info_get(forged, &si), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_last_error(forged, buf, sizeof buf), AK_PLUGIN_ERR_HANDLE);
    assert_non_null(strstr(buf, "never created"));
}

static void mirror_z_worked_numbers_both_ways(void **state)
{
    (void)state;
    /* +90 degrees about Y, right-handed: q = (0, sin45, 0, cos45). */
    const float s = 0.70710678f;
    ak_plugin_xform x = {{0.0f, s, 0.0f, s}, {1.0f, 2.0f, 3.0f}};
    assert_int_equal(ak_plugin_mirror_z(&x, 1), AK_OK);
    AKT_NEAR(x.position.x, 1.0f, 0);
    AKT_NEAR(x.position.y, 2.0f, 0);
    AKT_NEAR(x.position.z, -3.0f, 0);
    AKT_NEAR(x.rotation.x, 0.0f, 0);
    AKT_NEAR(x.rotation.y, -s, 0);
    AKT_NEAR(x.rotation.z, 0.0f, 0);
    AKT_NEAR(x.rotation.w, s, 0);
    /* In Unity's frame that is -90 degrees about Y: Unity's +X goes to +Z (the mirror of the
     * right-handed -Z). Same quaternion formula, mirrored vectors. */
    ak_vec3 v = ak_quat_rotate(x.rotation, ak_vec3_make(1, 0, 0));
    AKT_NEAR(v.x, 0.0f, 1e-6);
    AKT_NEAR(v.z, 1.0f, 1e-6);
    /* Back again: the mirror is its own inverse. */
    assert_int_equal(ak_plugin_mirror_z(&x, 1), AK_OK);
    AKT_NEAR(x.position.z, 3.0f, 0);
    AKT_NEAR(x.rotation.y, s, 0);
    AKT_NEAR(x.rotation.w, s, 0);
    assert_int_equal(ak_plugin_mirror_z(NULL, 1), AK_ERR_INVALID_ARG);
}

static void mirror_commutes_with_rotation_and_composition(void **state)
{
    (void)state;
    akt_rng rng = {0x1234567u};
    for (int i = 0; i < 1000; ++i) {
        ak_plugin_xform a = {
            akt_random_quat(&rng),
            {akt_uniform(&rng, -2, 2), akt_uniform(&rng, -2, 2), akt_uniform(&rng, -2, 2)}};
        ak_plugin_xform b = {
            akt_random_quat(&rng),
            {akt_uniform(&rng, -2, 2), akt_uniform(&rng, -2, 2), akt_uniform(&rng, -2, 2)}};
        ak_xform xa = {a.rotation, a.position}, xb = {b.rotation, b.position};
        ak_xform ab = ak_xform_mul(xa, xb);
        ak_plugin_xform m[3] = {a, b, {ab.rotation, ab.translation}};
        ak_plugin_mirror_z(m, 3);
        ak_xform ma = {m[0].rotation, m[0].position}, mb = {m[1].rotation, m[1].position};
        ak_xform mab = ak_xform_mul(ma, mb); /* composing in Unity's frame... */
        /* ...gives the mirror of composing in animkit's frame. */
        AKT_NEAR(mab.translation.x, m[2].position.x, 1e-5);
        AKT_NEAR(mab.translation.y, m[2].position.y, 1e-5);
        AKT_NEAR(mab.translation.z, m[2].position.z, 1e-5);
        AKT_NEAR(fabsf(ak_quat_dot(mab.rotation, m[2].rotation)), 1.0f, 1e-5);
    }
}

static void small_bvh_samples_in_unity_frame(void **state)
{
    (void)state;
    ak_handle s, c;
    load_small(&s, &c);
    ak_plugin_skeleton_info si;
    assert_int_equal(ak_plugin_skeleton_info_get(s, &si), AK_OK);
    assert_int_equal(si.joint_count, 3);
    AKT_NEAR(si.metres_per_unit, 1.0f, 0);
    char name[64];
    assert_int_equal(ak_plugin_skeleton_joint_name(s, 2, name, sizeof name), AK_OK);
    assert_string_equal(name, "Arm_end");
    int32_t parents[3];
    assert_int_equal(ak_plugin_skeleton_parents(s, parents, 3), AK_OK);
    assert_int_equal(parents[0], -1);
    assert_int_equal(parents[1], 0);
    assert_int_equal(parents[2], 1);
    int32_t j;
    assert_int_equal(ak_plugin_skeleton_find(s, "Arm", &j), AK_OK);
    assert_int_equal(j, 1);
    assert_int_equal(ak_plugin_skeleton_find(s, "Nope", &j), AK_ERR_NOT_FOUND);
    assert_int_equal(j, -1);

    ak_plugin_clip_info ci;
    assert_int_equal(ak_plugin_clip_info_get(c, &ci), AK_OK);
    assert_int_equal(ci.frame_count, 2);
    AKT_NEAR(ci.frame_time, 0.5f, 0);
    assert_int_equal(ci.loop, 0);

    /* Frame 1: root at (1,2,3) right-handed -> (1,2,-3) in Unity. Arm at root + R(+90 Y)(1,0,0)
     * = (1,2,3) + (0,0,-1) = (1,2,2) -> Unity (1,2,-2). Arm_end one unit above: (1,3,-2). */
    ak_plugin_xform w[3];
    assert_int_equal(ak_plugin_clip_sample_model(c, s, 0.5f, AK_INTERP_LINEAR, w, 3), AK_OK);
    AKT_NEAR(w[0].position.x, 1, 1e-6);
    AKT_NEAR(w[0].position.y, 2, 1e-6);
    AKT_NEAR(w[0].position.z, -3, 1e-6);
    AKT_NEAR(w[1].position.x, 1, 1e-6);
    AKT_NEAR(w[1].position.y, 2, 1e-6);
    AKT_NEAR(w[1].position.z, -2, 1e-6);
    AKT_NEAR(w[2].position.x, 1, 1e-6);
    AKT_NEAR(w[2].position.y, 3, 1e-6);
    AKT_NEAR(w[2].position.z, -2, 1e-6);
    /* Halfway (t = 0.25): root at (0.5,1,1.5) -> (0.5,1,-1.5), turned 45 degrees. */
    assert_int_equal(ak_plugin_clip_sample_model(c, s, 0.25f, AK_INTERP_LINEAR, w, 3), AK_OK);
    AKT_NEAR(w[0].position.z, -1.5f, 1e-6);
    AKT_NEAR(w[1].position.x, 0.5f + 0.70710678f, 1e-5);
    AKT_NEAR(w[1].position.z, -1.5f + 0.70710678f, 1e-5);

    /* Sample (local) + plugin FK == sample_world. */
    ak_plugin_xform l[3], w2[3];
    assert_int_equal(ak_plugin_clip_sample(c, s, 0.25f, AK_INTERP_LINEAR, l, 3), AK_OK);
    assert_int_equal(ak_plugin_fk(s, l, w2, 3), AK_OK);
    for (int k = 0; k < 3; ++k) {
        AKT_NEAR(w2[k].position.x, w[k].position.x, 1e-6);
        AKT_NEAR(w2[k].position.z, w[k].position.z, 1e-6);
    }
    /* Rest pose is mirrored too: the End Site offset (0,1,0) has no z; Arm's (1,0,0) neither. */
    assert_int_equal(ak_plugin_skeleton_rest_pose(s, l, 3), AK_OK);
    AKT_NEAR(l[1].position.x, 1, 0);
    AKT_NEAR(l[2].position.y, 1, 0);

    /* Buffers that are too short, bad interp, non-finite time: errors with text. */
    char buf[256];
    assert_int_equal(ak_plugin_clip_sample(c, s, 0.0f, 1, l, 2), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_last_error(c, buf, sizeof buf), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(buf, "3 joints"));
    assert_int_equal(ak_plugin_clip_sample(c, s, 0.0f, 7, l, 3), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_clip_sample(c, s, NAN, 1, l, 3), AK_ERR_INVALID_ARG);
    /* Handles of the wrong kind. */
    assert_int_equal(ak_plugin_clip_sample(s, c, 0.0f, 1, l, 3), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_clip_sample(c, c, 0.0f, 1, l, 3), AK_PLUGIN_ERR_HANDLE);
    ak_plugin_last_error(c, buf, sizeof buf);
    assert_non_null(strstr(buf, "not a skeleton"));
    assert_int_equal(ak_plugin_fk(s, l, l, 3), AK_ERR_INVALID_ARG); /* overlap */

    assert_int_equal(ak_plugin_destroy(c), AK_OK);
    assert_int_equal(ak_plugin_destroy(s), AK_OK);
}

static void use_after_destroy_is_reported(void **state)
{
    (void)state;
    int32_t live0 = ak_plugin_live_handles();
    ak_handle s, c;
    load_small(&s, &c);
    assert_int_equal(ak_plugin_live_handles(), live0 + 2);
    assert_int_equal(ak_plugin_destroy(s), AK_OK);
    ak_plugin_skeleton_info si;
    char buf[160];
    assert_int_equal(ak_plugin_skeleton_info_get(s, &si), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_last_error(s, buf, sizeof buf), AK_PLUGIN_ERR_HANDLE);
    assert_non_null(strstr(buf, "destroyed"));
    /* The clip survives and reports the dead skeleton on itself. */
    ak_plugin_xform w[3];
    assert_int_equal(ak_plugin_clip_sample_model(c, s, 0.0f, 1, w, 3), AK_PLUGIN_ERR_HANDLE);
    ak_plugin_last_error(c, buf, sizeof buf);
    assert_non_null(strstr(buf, "skeleton handle was destroyed"));
    assert_int_equal(ak_plugin_destroy(s), AK_PLUGIN_ERR_HANDLE); /* twice */
    /* A new object reusing the slot does not answer to the old handle. */
    ak_handle s2, c2;
    load_small(&s2, &c2);
    assert_ptr_not_equal(s2, s);
    assert_int_equal(ak_plugin_skeleton_info_get(s, &si), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_skeleton_info_get(s2, &si), AK_OK);
    ak_plugin_destroy(s2);
    ak_plugin_destroy(c2);
    ak_plugin_destroy(c);
    assert_int_equal(ak_plugin_live_handles(), live0);
}

static void bad_bvh_error_names_the_line(void **state)
{
    (void)state;
    char bad[sizeof k_small_bvh + 16];
    memcpy(bad, k_small_bvh, sizeof k_small_bvh);
    char *p = strstr(bad, "1 2 3 0 90");
    p[2] = 'x'; /* line 20: "1 x 3 0 90 ..." */
    ak_handle s = (ak_handle)(uintptr_t)1, c = (ak_handle)(uintptr_t)1;
    char err[256];
    int32_t st =
        ak_plugin_bvh_load_memory(bad, (int32_t)strlen(bad), 1.0f, 0, &s, &c, err, sizeof err);
    assert_int_equal(st, AK_ERR_PARSE);
    assert_null(s);
    assert_null(c);
    assert_non_null(strstr(err, "line 20"));
    st = ak_plugin_bvh_load("no/such/file.bvh", 0.0f, 1, &s, &c, err, sizeof err);
    assert_int_equal(st, AK_ERR_IO);
    assert_non_null(strstr(err, "no/such/file.bvh"));
    assert_int_equal(ak_plugin_bvh_load_memory(k_small_bvh, 10, -1.0f, 0, &s, &c, err, sizeof err),
                     AK_ERR_INVALID_ARG);
}

static void cmu_units_detected_and_world_matches_library(void **state)
{
    (void)state;
    char path[1024];
    akt_mocap_path("cmu_02_01_walk.bvh", path, sizeof path);
    ak_handle s, c;
    char err[256];
    assert_int_equal(ak_plugin_bvh_load(path, 0.0f, 1, &s, &c, err, sizeof err), AK_OK);
    ak_plugin_skeleton_info si;
    ak_plugin_skeleton_info_get(s, &si);
    assert_int_equal(si.units, AK_UNITS_CMU);
    AKT_NEAR(si.metres_per_unit, 0.056444f, 1e-6);
    /* A person in metres; the CMU rest pose has the legs splayed (frame 0 rotates them 21
     * degrees to stand), so it measures 1.42 m rather than a standing 1.7 m. */
    assert_in_range((int)(si.rest_height * 100), 130, 200);
    int32_t hum[AK_HUM_SLOT_COUNT];
    assert_int_equal(ak_plugin_skeleton_humanoid(s, NULL, hum, AK_HUM_SLOT_COUNT), AK_OK);
    int32_t j;
    ak_plugin_skeleton_find(s, "LeftFoot", &j);
    assert_int_equal(hum[AK_HUM_LEFT_FOOT], j);

    /* The library's own FK in its right-handed frame, file units, vs the plugin. */
    ak_skeleton *sk;
    ak_clip *clip;
    ak_error e;
    assert_int_equal(ak_bvh_read_file(path, NULL, &sk, &clip, &e), AK_OK);
    clip->loop = 1;
    const int32_t n = sk->joint_count;
    ak_xform *ref = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)n);
    ak_plugin_xform *w = (ak_plugin_xform *)malloc(sizeof(ak_plugin_xform) * (size_t)n);
    const float times[3] = {0.0f, 1.2345f, 2.5f};
    for (int i = 0; i < 3; ++i) {
        ak_clip_sample_fk_batch(clip, sk, &times[i], 1, AK_INTERP_CUBIC, ref);
        assert_int_equal(ak_plugin_clip_sample_model(c, s, times[i], AK_INTERP_CUBIC, w, n), AK_OK);
        for (int32_t k = 0; k < n; ++k) {
            const float m = 0.056444f;
            AKT_NEAR(w[k].position.x, ref[k].translation.x * m, 1e-4);
            AKT_NEAR(w[k].position.y, ref[k].translation.y * m, 1e-4);
            AKT_NEAR(w[k].position.z, -ref[k].translation.z * m, 1e-4);
            AKT_NEAR(w[k].rotation.x, -ref[k].rotation.x, 1e-5);
            AKT_NEAR(w[k].rotation.y, -ref[k].rotation.y, 1e-5);
            AKT_NEAR(w[k].rotation.z, ref[k].rotation.z, 1e-5);
            AKT_NEAR(w[k].rotation.w, ref[k].rotation.w, 1e-5);
        }
    }
    free(ref);
    free(w);
    ak_skeleton_destroy(sk);
    ak_clip_destroy(clip);
    ak_plugin_destroy(s);
    ak_plugin_destroy(c);
}

/* A leg: Upper at the origin, Mid 0.6 below, End 0.5 below Mid (SPEC worked numbers). */
static const char k_leg_bvh[] =
    "HIERARCHY\nROOT Upper\n{\n OFFSET 0 0 0\n"
    " CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n"
    " JOINT Mid\n {\n  OFFSET 0 -0.6 0\n  CHANNELS 3 Zrotation Yrotation Xrotation\n"
    "  JOINT End\n  {\n   OFFSET 0 -0.5 0\n   CHANNELS 3 Zrotation Yrotation Xrotation\n"
    "   End Site\n   {\n    OFFSET 0 0 0.1\n   }\n  }\n }\n}\n"
    "MOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0 0 0 0 0 0 0 0 0 0\n";

/* Angle abc in degrees. The cosine is clamped to [-1, 1]: for a straight limb it rounds to
 * -1 - 1e-7 as often as to -1 + 1e-7, and acosf of the former is NaN. */
static float angle_at(ak_vec3 a, ak_vec3 b, ak_vec3 c)
{
    ak_vec3 u = ak_vec3_sub(a, b), v = ak_vec3_sub(c, b);
    const float cosine = ak_vec3_dot(u, v) / (ak_vec3_length(u) * ak_vec3_length(v));
    return acosf(fmaxf(-1.0f, fminf(1.0f, cosine))) * 57.2957795f;
}

static void limb_ik_worked_numbers_in_unity_frame(void **state)
{
    (void)state;
    ak_handle s, c;
    char err[256];
    assert_int_equal(ak_plugin_bvh_load_memory(k_leg_bvh, (int32_t)strlen(k_leg_bvh), 1.0f, 0, &s,
                                               &c, err, sizeof err),
                     AK_OK);
    ak_plugin_limb_ik_params p;
    assert_int_equal(ak_plugin_limb_ik_defaults(&p), AK_OK);
    AKT_NEAR(p.weight, 1.0f, 0);
    AKT_NEAR(p.tolerance, 1e-4f, 0);
    AKT_NEAR(p.mid_axis.z, 1.0f, 0);
    assert_int_equal(p.use_pole, 0);
    p.upper = 0;
    p.middle = 1;
    p.end = 2;
    /* Target 0.9 below the upper joint; pole in front, +Z in Unity's frame. */
    p.target = ak_vec3_make(0.0f, -0.9f, 0.0f);
    p.use_pole = 1;
    p.pole = ak_vec3_make(0.0f, -0.5f, 1.0f);
    ak_plugin_xform local[4], world[4];
    assert_int_equal(ak_plugin_clip_sample(c, s, 0.0f, 1, local, 4), AK_OK);
    assert_int_equal(ak_plugin_fk(s, local, world, 4), AK_OK);
    ak_plugin_ik_result r;
    assert_int_equal(ak_plugin_limb_ik(s, &p, local, world, 4, &r), AK_OK);
    assert_int_equal(r.reached, 1);
    assert_int_equal(r.unreachable, 0);
    AKT_NEAR(world[2].position.x, 0.0f, 1e-4);
    AKT_NEAR(world[2].position.y, -0.9f, 1e-4);
    AKT_NEAR(world[2].position.z, 0.0f, 1e-4);
    AKT_NEAR(angle_at(world[0].position, world[1].position, world[2].position), 109.47f, 0.05);
    /* Upper-joint angle between the limb axis and the upper bone: 31.6 degrees. */
    AKT_NEAR(angle_at(world[1].position, world[0].position, world[2].position), 31.59f, 0.05);
    /* The knee went toward the pole: +Z in Unity's frame (a handedness slip sends it to -Z). */
    assert_true(world[1].position.z > 0.25f);
    /* world stayed FK of local. */
    ak_plugin_xform check[4];
    ak_plugin_fk(s, local, check, 4);
    for (int k = 0; k < 4; ++k) {
        AKT_NEAR(check[k].position.x, world[k].position.x, 1e-5);
        AKT_NEAR(check[k].position.y, world[k].position.y, 1e-5);
        AKT_NEAR(check[k].position.z, world[k].position.z, 1e-5);
    }
    /* Out of reach (d = 1.3 > 1.1): straight limb pointing at the target. */
    p.target = ak_vec3_make(0.0f, -1.0f, -0.7616f);
    assert_int_equal(ak_plugin_limb_ik(s, &p, local, world, 4, &r), AK_OK);
    assert_int_equal(r.unreachable, 1);
    AKT_NEAR(angle_at(world[0].position, world[1].position, world[2].position), 180.0f, 0.1);
    /* Bad joints: error with text on the skeleton, buffers untouched in Unity's frame. */
    p.upper = 2;
    p.middle = 1;
    p.end = 0;
    assert_int_equal(ak_plugin_limb_ik(s, &p, local, world, 4, &r), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_last_error(s, err, sizeof err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err, "limb IK"));
    AKT_NEAR(angle_at(world[0].position, world[1].position, world[2].position), 180.0f, 0.1);
    assert_int_equal(ak_plugin_limb_ik(c, &p, local, world, 4, &r), AK_PLUGIN_ERR_HANDLE);
    ak_plugin_destroy(s);
    ak_plugin_destroy(c);
}

static void look_at_points_the_chain_tip_at_the_target(void **state)
{
    (void)state;
    ak_handle s, c;
    load_small(&s, &c);
    ak_plugin_xform local[3], world[3];
    ak_plugin_clip_sample(c, s, 0.0f, AK_INTERP_LINEAR, local, 3);
    ak_plugin_fk(s, local, world, 3);
    ak_plugin_look_at_params p;
    assert_int_equal(ak_plugin_look_at_defaults(&p), AK_OK);
    AKT_NEAR(p.forward.z, -1.0f, 0);
    AKT_NEAR(p.up.y, 1.0f, 0);
    AKT_NEAR(p.weight, 1.0f, 0);
    const int32_t chain[2] = {0, 1};
    p.target = ak_vec3_make(3.0f, 1.0f, -2.0f);
    ak_plugin_ik_result r;
    assert_int_equal(ak_plugin_look_at(s, chain, NULL, 2, &p, local, world, 3, &r), AK_OK);
    /* The Arm's local forward (-Z in Unity's frame) now points from Arm to the target. */
    ak_vec3 f = ak_quat_rotate(world[1].rotation, p.forward);
    ak_vec3 d = ak_vec3_normalize_or(ak_vec3_sub(p.target, world[1].position), f);
    AKT_NEAR(ak_vec3_dot(f, d), 1.0f, 1e-4);
    assert_int_equal(r.reached, 1);
    const int32_t bad[2] = {1, 0};
    assert_int_equal(ak_plugin_look_at(s, bad, NULL, 2, &p, local, world, 3, &r),
                     AK_ERR_INVALID_ARG);
    char err[256];
    ak_plugin_last_error(s, err, sizeof err);
    assert_non_null(strstr(err, "look-at"));
    ak_plugin_destroy(s);
    ak_plugin_destroy(c);
}

/* The character in the two-phase form over a tilted plane computed here: y = 0.1 x, with
 * the engine side's "controller" simply following the displacement. */
static float plane_y(float x)
{
    return 0.1f * x;
}

static void character_walks_over_engine_ground(void **state)
{
    (void)state;
    char path[1024], err[256];
    akt_mocap_path("cmu_02_01_walk.bvh", path, sizeof path);
    int32_t live0 = ak_plugin_live_handles();
    ak_handle s, c, ch;
    assert_int_equal(ak_plugin_bvh_load(path, 0.0f, 1, &s, &c, err, sizeof err), AK_OK);
    ak_plugin_character_params p;
    assert_int_equal(ak_plugin_character_defaults(&p), AK_OK);
    AKT_NEAR(p.target.z, -5.0f, 0); /* C default (0,0,5), mirrored */
    assert_int_equal(p.face_target, 1);
    p.start = ak_vec3_make(0.0f, 0.0f, 0.0f);
    p.target = ak_vec3_make(4.0f, 0.0f, 0.0f); /* uphill along +X */
    p.use_controller = 0;
    assert_int_equal(ak_plugin_character_create(s, c, NULL, &p, &ch, err, sizeof err), AK_OK);
    /* The character holds its skeleton and clip: their handles can go now. */
    ak_plugin_destroy(s);
    ak_plugin_destroy(c);
    ak_vec3 pos = p.start;
    const float n_len = sqrtf(1.0f + 0.01f);
    ak_plugin_ground_hit hits[AK_PLUGIN_CHARACTER_MAX_RAYS];
    ak_plugin_ray rays[AK_PLUGIN_CHARACTER_MAX_RAYS];
    ak_plugin_character_state st;
    float worst = 0.0f;
    int frames = 0;
    for (; frames < 600; ++frames) {
        ak_vec3 move;
        assert_int_equal(ak_plugin_character_begin(ch, 1.0f / 60.0f, &move), AK_OK);
        pos.x += move.x;
        pos.z += move.z;
        pos.y = plane_y(pos.x);
        assert_int_equal(ak_plugin_character_set_position(ch, &pos), AK_OK);
        int32_t n = 0;
        assert_int_equal(
            ak_plugin_character_ground_rays(ch, rays, AK_PLUGIN_CHARACTER_MAX_RAYS, &n), AK_OK);
        assert_int_equal(n, 7); /* centre, both heels, both landings, both toes */
        for (int i = 0; i < n; ++i) {
            AKT_NEAR(rays[i].direction.y, -1.0f, 1e-6);
            const float gy = plane_y(rays[i].origin.x);
            hits[i].hit = rays[i].origin.y >= gy && rays[i].origin.y - gy <= rays[i].max_distance;
            hits[i].height = gy;
            hits[i].normal = ak_vec3_make(-0.1f / n_len, 1.0f / n_len, 0.0f);
        }
        assert_int_equal(ak_plugin_character_finish(ch, hits, n), AK_OK);
        assert_int_equal(ak_plugin_character_state_get(ch, &st), AK_OK);
        for (int k = 0; k < 2; ++k)
            if (st.stance[k]) {
                float e = fabsf(st.sole[k].y - plane_y(st.sole[k].x));
                if (e > worst) worst = e;
            }
        if (st.stopped) break;
    }
    assert_int_equal(st.arrived, 1);
    AKT_NEAR(pos.x, 4.0f, 0.5);
    AKT_NEAR(pos.z, 0.0f, 0.3);
    AKT_NEAR(worst, 0.0f, 0.03);
    /* Facing +X at the end, i.e. rotation * (0,0,-1) = +X. */
    AKT_NEAR(st.facing.x, 1.0f, 0.1);
    ak_plugin_xform local[64], model[64], world[64];
    ak_plugin_character_info info;
    assert_int_equal(ak_plugin_character_info_get(ch, &info), AK_OK);
    assert_true(info.joint_count <= 64);
    assert_int_equal(ak_plugin_character_pose(ch, local, model, 64), AK_OK);
    assert_int_equal(ak_plugin_character_world_pose(ch, world, 64), AK_OK);
    for (int32_t j = 0; j < info.joint_count; ++j) {
        ak_vec3 r = ak_vec3_add(ak_quat_rotate(st.rotation, model[j].position), st.position);
        AKT_NEAR(r.x, world[j].position.x, 1e-4);
        AKT_NEAR(r.y, world[j].position.y, 1e-4);
        AKT_NEAR(r.z, world[j].position.z, 1e-4);
    }
    /* Errors. */
    ak_vec3 move;
    assert_int_equal(ak_plugin_character_begin(ch, -1.0f, &move), AK_ERR_INVALID_ARG);
    int32_t nr = 0;
    assert_int_equal(ak_plugin_character_ground_rays(ch, rays, 2, &nr), AK_ERR_INVALID_ARG);
    assert_int_equal(nr, 7); /* says how many it needs */
    assert_int_equal(ak_plugin_character_finish(ch, hits, 3), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_character_pose(ch, local, model, 3), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_destroy(ch), AK_OK);
    assert_int_equal(ak_plugin_character_begin(ch, 0.1f, &move), AK_PLUGIN_ERR_HANDLE);
    ak_plugin_last_error(ch, err, sizeof err);
    assert_non_null(strstr(err, "character handle was destroyed"));
    assert_int_equal(ak_plugin_character_create(s, c, NULL, &p, &ch, err, sizeof err),
                     AK_PLUGIN_ERR_HANDLE);
    assert_null(ch);
    assert_non_null(strstr(err, "skeleton handle was destroyed"));
    assert_int_equal(ak_plugin_live_handles(), live0);
}

/* Standalone foot IK: a standing capture (louise, first seconds) on a slope falling 0.6 along +X.
 */
static float slope_y(float x)
{
    return -0.6f * x;
}

static void foot_ik_plants_a_standing_clip_on_a_slope(void **state)
{
    (void)state;
    char path[1024], err[256];
    akt_mocap_path("arena_louise_stand_walk_cycle.bvh", path, sizeof path);
    int32_t live0 = ak_plugin_live_handles();
    ak_handle s, c, f;
    assert_int_equal(ak_plugin_bvh_load(path, 0.0f, 0, &s, &c, err, sizeof err), AK_OK);
    ak_plugin_foot_ik_params p;
    assert_int_equal(ak_plugin_foot_ik_defaults(&p), AK_OK);
    AKT_NEAR(p.max_hip_drop, 0.45f, 0);
    AKT_NEAR(p.weight, 1.0f, 0);
    assert_int_equal(p.lock_feet, 1);
    assert_int_equal(ak_plugin_foot_ik_create(s, c, &p, &f, err, sizeof err), AK_OK);
    ak_plugin_skeleton_info si;
    ak_plugin_skeleton_info_get(s, &si);
    const int32_t n = si.joint_count;
    ak_plugin_xform local[64], model[64];
    assert_true(n <= 64);
    const ak_plugin_xform character = {{0, 0, 0, 1}, {0, 0, 0}};
    const float nl = sqrtf(1.0f + 0.36f);
    ak_plugin_ray rays[AK_PLUGIN_FOOT_IK_RAYS];
    ak_plugin_ground_hit hits[AK_PLUGIN_FOOT_IK_RAYS];
    ak_plugin_foot_ik_state st;
    float worst = 0.0f, drop = 0.0f;
    for (int i = 0; i < 180; ++i) {
        const float t = (float)i / 60.0f;
        assert_int_equal(ak_plugin_clip_sample(c, s, t, AK_INTERP_LINEAR, local, n), AK_OK);
        assert_int_equal(ak_plugin_fk(s, local, model, n), AK_OK);
        int32_t nr = 0;
        assert_int_equal(
            ak_plugin_foot_ik_rays(f, t, &character, model, n, rays, AK_PLUGIN_FOOT_IK_RAYS, &nr),
            AK_OK);
        assert_int_equal(nr, 2);
        for (int k = 0; k < nr; ++k) {
            const float gy = slope_y(rays[k].origin.x);
            hits[k].hit = rays[k].origin.y >= gy && rays[k].origin.y - gy <= rays[k].max_distance;
            hits[k].height = gy;
            hits[k].normal = ak_vec3_make(0.6f / nl, 1.0f / nl, 0.0f);
        }
        assert_int_equal(
            ak_plugin_foot_ik_apply(f, i ? 1.0f / 60.0f : 0.0f, hits, nr, local, model, n), AK_OK);
        assert_int_equal(ak_plugin_foot_ik_state_get(f, &st), AK_OK);
        if (i >= 90) { /* weights have faded in */
            for (int k = 0; k < 2; ++k)
                if (st.stance[k]) {
                    const float e = fabsf(st.sole[k].y - slope_y(st.sole[k].x));
                    if (e > worst) worst = e;
                }
            if (st.hip_drop > drop) drop = st.hip_drop;
        }
    }
    assert_true(st.stance[0] || st.stance[1]);
    AKT_NEAR(worst, 0.0f, 0.01);
    /* The soles stand at x = 0.04 and 0.17 m, so the ground under them is 2.3 and 10 cm below
     * the clip's floor. The lower leg straightens part of the way and the hips drop for the
     * rest: more than the 2.3 cm of the higher foot, less than the full 10 cm. (Measured:
     * 6.9 cm.) On a 0.2 slope (0.8 and 3.3 cm) the bent standing knees reach without a drop. */
    assert_true(drop > 0.03f && drop < 0.10f);
    /* model stayed FK of local. */
    ak_plugin_xform check[64];
    ak_plugin_fk(s, local, check, n);
    for (int32_t j = 0; j < n; ++j)
        AKT_NEAR(check[j].position.y, model[j].position.y, 1e-4);
    /* Heel and toe of the solved pose by the library's rule: the heel is the sole point the
     * solve reported; this rig has no toe joint (its ankles end in End Sites), so the toe is
     * the heel (rigs with toes: ComponentTestsRig.cs, 13-14 cm ahead). */
    ak_vec3 heel[2], toe[2];
    assert_int_equal(ak_plugin_foot_ik_contact_points(f, &character, model, n, heel, toe), AK_OK);
    for (int k = 0; k < 2; ++k) {
        AKT_NEAR(heel[k].x, st.sole[k].x, 1e-5);
        AKT_NEAR(heel[k].y, st.sole[k].y, 1e-5);
        AKT_NEAR(heel[k].z, st.sole[k].z, 1e-5);
        AKT_NEAR(toe[k].x, heel[k].x, 0);
        AKT_NEAR(toe[k].z, heel[k].z, 0);
    }
    assert_int_equal(ak_plugin_foot_ik_contact_points(f, &character, model, n, heel, NULL),
                     AK_ERR_INVALID_ARG);
    /* The caller's stance replaces the clip's until set back to -1. */
    assert_int_equal(ak_plugin_foot_ik_set_stance(f, 4, 0), AK_ERR_INVALID_ARG);
    ak_plugin_last_error(f, err, sizeof err);
    assert_non_null(strstr(err, "-1 (from the clip), 0 (swing) or AK_CONTACT_* bits 1..3"));
    assert_int_equal(ak_plugin_foot_ik_set_stance(f, 0, 1 /* heel */), AK_OK);
    int32_t nr = 0;
    assert_int_equal(
        ak_plugin_foot_ik_rays(f, 0.0f, &character, model, n, rays, AK_PLUGIN_FOOT_IK_RAYS, &nr),
        AK_OK);
    assert_int_equal(ak_plugin_foot_ik_apply(f, 1.0f / 60.0f, hits, nr, local, model, n), AK_OK);
    assert_int_equal(ak_plugin_foot_ik_state_get(f, &st), AK_OK);
    assert_int_equal(st.stance[0], 0);
    assert_int_equal(st.stance[1], 1);
    assert_int_equal(ak_plugin_foot_ik_set_stance(f, -1, -1), AK_OK);
    /* Phase order and arguments. */
    assert_int_equal(ak_plugin_foot_ik_apply(f, 0.1f, hits, 2, local, model, n), AK_ERR_STATE);
    assert_int_equal(ak_plugin_foot_ik_rays(f, 0.0f, &character, model, 3, rays, 2, NULL),
                     AK_ERR_INVALID_ARG);
    ak_plugin_destroy(s);
    ak_plugin_destroy(c);
    assert_int_equal(ak_plugin_foot_ik_state_get(f, &st), AK_OK); /* holds its skeleton */
    ak_plugin_destroy(f);
    assert_int_equal(ak_plugin_foot_ik_state_get(f, &st), AK_PLUGIN_ERR_HANDLE);
    ak_plugin_last_error(f, err, sizeof err);
    assert_non_null(strstr(err, "foot IK handle was destroyed"));
    assert_int_equal(ak_plugin_live_handles(), live0);
}

#if !defined(_WIN32)
static void *churn(void *arg)
{
    int *failures = (int *)arg;
    for (int i = 0; i < 200; ++i) {
        ak_handle s, c;
        char err[128];
        if (ak_plugin_bvh_load_memory(k_small_bvh, (int32_t)strlen(k_small_bvh), 1.0f, 1, &s, &c,
                                      err, sizeof err) != AK_OK) {
            ++*failures;
            continue;
        }
        ak_plugin_xform w[3];
        if (ak_plugin_clip_sample_model(c, s, 0.1f * (float)i, 2, w, 3) != AK_OK) ++*failures;
        if (ak_plugin_destroy(s) != AK_OK || ak_plugin_destroy(c) != AK_OK) ++*failures;
        if (ak_plugin_clip_info_get(c, NULL) != AK_PLUGIN_ERR_HANDLE) ++*failures;
    }
    return NULL;
}

/* Two characters sharing one skeleton and clip, stepped on two threads at once: each must
 * walk exactly as it does alone (same end position, bit for bit). */
typedef struct walk_job {
    ak_handle skeleton, clip;
    float target_x;
    ak_vec3 end;
    int failures;
} walk_job;

static void *walk_thread(void *arg)
{
    walk_job *job = (walk_job *)arg;
    ak_plugin_character_params p;
    ak_plugin_character_defaults(&p);
    p.target = ak_vec3_make(job->target_x, 0.0f, 3.0f);
    p.use_controller = 0;
    ak_handle ch;
    char err[256];
    if (ak_plugin_character_create(job->skeleton, job->clip, NULL, &p, &ch, err, sizeof err) !=
        AK_OK) {
        ++job->failures;
        return NULL;
    }
    ak_plugin_ray rays[AK_PLUGIN_CHARACTER_MAX_RAYS];
    ak_plugin_ground_hit hits[AK_PLUGIN_CHARACTER_MAX_RAYS];
    ak_vec3 pos = {0.0f, 0.0f, 0.0f};
    for (int f = 0; f < 240; ++f) {
        ak_vec3 move;
        int32_t n = 0;
        if (ak_plugin_character_begin(ch, 1.0f / 60.0f, &move) != AK_OK) ++job->failures;
        pos.x += move.x;
        pos.z += move.z;
        ak_plugin_character_set_position(ch, &pos);
        if (ak_plugin_character_ground_rays(ch, rays, AK_PLUGIN_CHARACTER_MAX_RAYS, &n) != AK_OK)
            ++job->failures;
        for (int i = 0; i < n; ++i) {
            hits[i].hit = 1;
            hits[i].height = 0.0f;
            hits[i].normal = ak_vec3_make(0.0f, 1.0f, 0.0f);
        }
        if (ak_plugin_character_finish(ch, hits, n) != AK_OK) ++job->failures;
    }
    job->end = pos;
    ak_plugin_destroy(ch);
    return NULL;
}

static void characters_step_in_parallel(void **state)
{
    (void)state;
    char path[1024], err[256];
    akt_mocap_path("cmu_02_01_walk.bvh", path, sizeof path);
    walk_job jobs[4];
    memset(jobs, 0, sizeof jobs);
    assert_int_equal(
        ak_plugin_bvh_load(path, 0.0f, 1, &jobs[0].skeleton, &jobs[0].clip, err, sizeof err),
        AK_OK);
    for (int i = 0; i < 4; ++i) {
        jobs[i].skeleton = jobs[0].skeleton;
        jobs[i].clip = jobs[0].clip;
        jobs[i].target_x = i % 2 ? 2.0f : -2.0f;
    }
    /* Alone first (jobs 0 and 1), then both at once on two threads (jobs 2 and 3). */
    walk_thread(&jobs[0]);
    walk_thread(&jobs[1]);
    pthread_t t[2];
    pthread_create(&t[0], NULL, walk_thread, &jobs[2]);
    pthread_create(&t[1], NULL, walk_thread, &jobs[3]);
    pthread_join(t[0], NULL);
    pthread_join(t[1], NULL);
    for (int i = 0; i < 4; ++i)
        assert_int_equal(jobs[i].failures, 0);
    assert_true(jobs[0].end.x < -0.5f && jobs[1].end.x > 0.5f); /* they went their ways */
    assert_memory_equal(&jobs[2].end, &jobs[0].end, sizeof(ak_vec3));
    assert_memory_equal(&jobs[3].end, &jobs[1].end, sizeof(ak_vec3));
    ak_plugin_destroy(jobs[0].skeleton);
    ak_plugin_destroy(jobs[0].clip);
}

static void handles_from_two_threads(void **state)
{
    (void)state;
    int32_t live0 = ak_plugin_live_handles();
    pthread_t t[2];
    int failures[2] = {0, 0};
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, churn, &failures[i]);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    assert_int_equal(failures[0] + failures[1], 0);
    assert_int_equal(ak_plugin_live_handles(), live0);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(abi_version_matches_header),
        cmocka_unit_test(null_handle_is_an_error_on_every_call),
        cmocka_unit_test(forged_handle_is_rejected_not_dereferenced),
        cmocka_unit_test(mirror_z_worked_numbers_both_ways),
        cmocka_unit_test(mirror_commutes_with_rotation_and_composition),
        cmocka_unit_test(small_bvh_samples_in_unity_frame),
        cmocka_unit_test(use_after_destroy_is_reported),
        cmocka_unit_test(bad_bvh_error_names_the_line),
        cmocka_unit_test(cmu_units_detected_and_world_matches_library),
        cmocka_unit_test(limb_ik_worked_numbers_in_unity_frame),
        cmocka_unit_test(look_at_points_the_chain_tip_at_the_target),
        cmocka_unit_test(character_walks_over_engine_ground),
        cmocka_unit_test(foot_ik_plants_a_standing_clip_on_a_slope),
#if !defined(_WIN32)
        cmocka_unit_test(handles_from_two_threads),
        cmocka_unit_test(characters_step_in_parallel),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
