/* The plugin's retargeting entry points (src/plugin/plugin_retarget.c): rigs and clips made
 * from Unity arrays (round trips and refusals), the retarget params' defaults (the
 * library's) and each float field out of range refused with the library's reason, and a
 * whole-clip retarget and a live retargeter giving what ak_retarget_run / ak_retargeter_pose
 * give on the same rigs, mirrored into Unity's frame. Source: the built-in biped's walk;
 * target: a smaller biped (hips at 0.6 m instead of 0.795). */
#include "plugin_rig.h"

enum { MAXJ = 64 };

static void rigs(akpt_rig *src, akpt_rig *dst)
{
    akpt_rig_walk(src);
    ak_walk_clip_params small = ak_walk_clip_defaults();
    small.hip_height = 0.6f;
    small.stride_length = 1.0f;
    akpt_rig_walk_with(dst, &small);
}

/* The library's params for the plugin's defaults on these rigs: plugin rigs are in metres. */
static ak_retarget_params library_params(const akpt_rig *src, const akpt_rig *dst)
{
    ak_retarget_params lp = ak_retarget_defaults();
    lp.source = src->skeleton;
    lp.source_clip = src->clip;
    lp.target = dst->skeleton;
    lp.source_metres_per_unit = 1.0f;
    return lp;
}

/* Validity: the defaults are ak_retarget_defaults'; scale 0, -1, NaN and fade_time -1 are
 * refused by the clip retarget and the live retargeter with the library's reason naming the
 * field; missing outputs and handles of the wrong kind or destroyed are refused with which
 * input it was. */
static void retarget_params_validity(void **state)
{
    (void)state;
    akpt_rig src, dst;
    rigs(&src, &dst);
    const int32_t live0 = ak_plugin_live_handles();
    ak_plugin_retarget_params p;
    assert_int_equal(ak_plugin_retarget_defaults(NULL), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_retarget_defaults(&p), AK_OK);
    const ak_retarget_params d = ak_retarget_defaults();
    AKT_NEAR(p.scale, d.scale, 0);
    assert_true(isnan(p.floor_height) == isnan(d.floor_height));
    assert_int_equal(p.contacts, d.contacts);
    assert_int_equal(p.pin_hands, d.pin_hands);
    AKT_NEAR(p.fade_time, d.fade_time, 0);
    char err[256];
    ak_handle out = NULL;
    const struct {
        const char *name;
        float scale, fade_time;
    } bad[] = {{"scale", 0.0f, 0.1f},
               {"scale", -1.0f, 0.1f},
               {"scale", NAN, 0.1f},
               {"fade_time", 1.0f, -1.0f}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        ak_plugin_retarget_params q = p;
        q.scale = bad[i].scale;
        q.fade_time = bad[i].fade_time;
        assert_int_equal(
            ak_plugin_retarget_clip(src.s, src.c, dst.s, NULL, NULL, &q, &out, err, sizeof err),
            AK_ERR_INVALID_ARG);
        assert_null(out);
        if (strncmp(err, "retarget: ", 10) != 0 || !strstr(err, bad[i].name))
            fail_msg("clip, %s: '%s'", bad[i].name, err);
        assert_int_equal(
            ak_plugin_retargeter_create(src.s, dst.s, NULL, NULL, &q, &out, err, sizeof err),
            AK_ERR_INVALID_ARG);
        assert_null(out);
        if (strncmp(err, "retargeter: ", 12) != 0 || !strstr(err, bad[i].name))
            fail_msg("retargeter, %s: '%s'", bad[i].name, err);
    }
    assert_int_equal(
        ak_plugin_retarget_clip(src.s, src.c, dst.s, NULL, NULL, &p, NULL, err, sizeof err),
        AK_ERR_INVALID_ARG);
    assert_string_equal(err, "out_clip is required");
    assert_int_equal(
        ak_plugin_retargeter_create(src.s, dst.s, NULL, NULL, &p, NULL, err, sizeof err),
        AK_ERR_INVALID_ARG);
    assert_string_equal(err, "out_retargeter is required");
    assert_int_equal(
        ak_plugin_retarget_clip(src.c, src.c, dst.s, NULL, NULL, &p, &out, err, sizeof err),
        AK_PLUGIN_ERR_HANDLE);
    assert_string_equal(err, "retarget source: handle is a clip, not a skeleton");
    assert_int_equal(
        ak_plugin_retarget_clip(src.s, src.s, dst.s, NULL, NULL, &p, &out, err, sizeof err),
        AK_PLUGIN_ERR_HANDLE);
    assert_string_equal(err, "retarget clip: handle is a skeleton, not a clip");
    assert_int_equal(
        ak_plugin_retargeter_create(src.s, NULL, NULL, NULL, &p, &out, err, sizeof err),
        AK_PLUGIN_ERR_HANDLE);
    assert_string_equal(err, "retarget target: null skeleton handle");
    /* an override naming no joint */
    assert_int_equal(ak_plugin_retargeter_create(src.s, dst.s, NULL, "left_foot=NoSuchJoint", &p,
                                                 &out, err, sizeof err),
                     AK_ERR_NOT_FOUND);
    assert_non_null(strstr(err, "NoSuchJoint"));
    /* NULL params: the library's defaults */
    assert_int_equal(
        ak_plugin_retargeter_create(src.s, dst.s, NULL, NULL, NULL, &out, err, sizeof err), AK_OK);
    assert_int_equal(ak_plugin_destroy(out), AK_OK);
    assert_int_equal(ak_plugin_live_handles(), live0);
    akpt_rig_free(&src);
    akpt_rig_free(&dst);
}

/* The clip retarget (contacts pinned, floor at 0.05 m) is ak_retarget_run's clip: every frame
 * sampled from the new handle is the library clip's frame mirrored. */
static void clip_retarget_is_the_librarys(void **state)
{
    (void)state;
    akpt_rig src, dst;
    rigs(&src, &dst);
    ak_plugin_retarget_params p;
    ak_plugin_retarget_defaults(&p);
    p.floor_height = 0.05f;
    char err[256];
    ak_handle out;
    assert_int_equal(
        ak_plugin_retarget_clip(src.s, src.c, dst.s, NULL, NULL, &p, &out, err, sizeof err), AK_OK);
    ak_retarget_params lp = library_params(&src, &dst);
    lp.floor_height = 0.05f;
    ak_clip *lib = NULL;
    ak_retarget_info info;
    ak_error e;
    assert_int_equal(ak_retarget_run(&lp, &lib, &info, &e), AK_OK);
    ak_plugin_clip_info ci;
    assert_int_equal(ak_plugin_clip_info_get(out, &ci), AK_OK);
    assert_int_equal(ci.frame_count, lib->frame_count);
    AKT_NEAR(ci.frame_time, lib->frame_time, 0);
    assert_true(info.pinned_runs > 0); /* the pins ran: the path with IK is compared */
    const int32_t J = dst.joints;
    ak_plugin_xform pose[MAXJ];
    ak_xform want[MAXJ];
    for (int32_t f = 0; f < lib->frame_count; f += 5) {
        assert_int_equal(
            ak_plugin_clip_sample(out, dst.s, (float)f * lib->frame_time, AK_INTERP_STEP, pose, J),
            AK_OK);
        ak_clip_frame(lib, dst.skeleton, f, want);
        akpt_assert_mirrored(pose, want, J, 1e-5f, "retargeted frame");
    }
    ak_clip_destroy(lib);
    ak_plugin_destroy(out);
    akpt_rig_free(&src);
    akpt_rig_free(&dst);
}

/* The plugin's live retargeter from `src` onto `dst` at scale 1.2 (*rt) and the library's on
 * the same rigs (*lrt): the plugin's has no clip to pick a reference from. */
static void live_pair(const akpt_rig *src, const akpt_rig *dst, ak_handle *rt, ak_retargeter **lrt)
{
    ak_plugin_retarget_params p;
    ak_plugin_retarget_defaults(&p);
    p.scale = 1.2f;
    char err[256];
    assert_int_equal(
        ak_plugin_retargeter_create(src->s, dst->s, NULL, NULL, &p, rt, err, sizeof err), AK_OK);
    ak_retarget_params lp = library_params(src, dst);
    lp.scale = 1.2f;
    lp.source_clip = NULL;
    ak_error e;
    *lrt = NULL;
    assert_int_equal(ak_retargeter_create(&lp, lrt, &e), AK_OK);
}

/* The live retargeter (scale 1.2) gives ak_retargeter_pose's target pose for source poses
 * given in Unity's frame; short buffers and bad poses are refused. */
static void live_retargeter_is_the_librarys(void **state)
{
    (void)state;
    akpt_rig src, dst;
    rigs(&src, &dst);
    char err[256];
    ak_handle rt;
    ak_retargeter *lrt;
    live_pair(&src, &dst, &rt, &lrt);
    const int32_t JS = src.joints, JT = dst.joints;
    ak_xform slocal[MAXJ], tlocal[MAXJ];
    ak_plugin_xform uslocal[MAXJ], utlocal[MAXJ];
    for (int32_t f = 0; f < src.clip->frame_count; f += 4) {
        ak_clip_frame(src.clip, src.skeleton, f, slocal);
        for (int32_t j = 0; j < JS; ++j)
            uslocal[j] = akpt_to_unity(slocal[j]);
        assert_int_equal(ak_plugin_retargeter_pose(rt, uslocal, JS, utlocal, JT), AK_OK);
        assert_int_equal(ak_retargeter_pose(lrt, slocal, tlocal), AK_OK);
        akpt_assert_mirrored(utlocal, tlocal, JT, 1e-5f, "live pose");
    }
    assert_int_equal(ak_plugin_retargeter_pose(rt, uslocal, JS - 1, utlocal, JT),
                     AK_ERR_INVALID_ARG);
    ak_plugin_last_error(rt, err, sizeof err);
    assert_non_null(strstr(err, "source_local holds"));
    assert_int_equal(ak_plugin_retargeter_pose(rt, uslocal, JS, utlocal, JT - 1),
                     AK_ERR_INVALID_ARG);
    uslocal[2].rotation = (ak_quat){0, 0, 0, 0};
    assert_int_equal(ak_plugin_retargeter_pose(rt, uslocal, JS, utlocal, JT), AK_ERR_INVALID_ARG);
    ak_plugin_last_error(rt, err, sizeof err);
    assert_non_null(strstr(err, "source_local[2]"));
    /* the retargeter holds both skeletons */
    assert_int_equal(ak_plugin_destroy(src.s), AK_OK);
    assert_int_equal(ak_plugin_destroy(dst.s), AK_OK);
    uslocal[2].rotation = ak_quat_identity();
    assert_int_equal(ak_plugin_retargeter_pose(rt, uslocal, JS, utlocal, JT), AK_OK);
    assert_int_equal(ak_plugin_destroy(rt), AK_OK);
    assert_int_equal(ak_plugin_retargeter_pose(rt, uslocal, JS, utlocal, JT), AK_PLUGIN_ERR_HANDLE);
    ak_retargeter_destroy(lrt);
    ak_plugin_destroy(src.c);
    ak_plugin_destroy(dst.c);
    ak_skeleton_destroy(src.skeleton);
    ak_clip_destroy(src.clip);
    ak_skeleton_destroy(dst.skeleton);
    ak_clip_destroy(dst.clip);
}

/* The live retargeter onto the UE4 mannequin's shape (akpt_rig_cmu: `root` and the ik_foot and
 * ik_hand bones, each a copy of its foot or hand) keeps those bones on the retargeted feet and
 * hands, as ak_plugin_retarget_clip's clips have them (ak_retarget_run): CMU 02_01 retargeted
 * onto it at scale 1.2, every 4th frame's pose has each within 0.1 mm of its joint after FK
 * (float rounding; without the copies they stay where the rest pose has them under `root`, up to
 * 2.77 m from the feet and hands the clip's travel carries away), and every other joint is
 * ak_retargeter_pose's. */
static void live_retargeter_keeps_copy_bones_on_feet_and_hands(void **state)
{
    (void)state;
    akpt_rig src, dst;
    akpt_rig_cmu(&src, 0);
    akpt_rig_cmu(&dst, AKV_GROUND_ROOT | AKV_IK_BONES);
    ak_handle rt;
    ak_retargeter *lrt;
    live_pair(&src, &dst, &rt, &lrt);
    ak_error e;
    ak_copy_bones copies;
    assert_int_equal(ak_copy_bones_find(dst.skeleton, NULL, &copies, &e), AK_OK);
    assert_int_equal(copies.count, 5);
    const int32_t JS = src.joints, JT = dst.joints;
    ak_xform *slocal = (ak_xform *)malloc(sizeof(ak_xform) * ((size_t)JS + 3 * (size_t)JT));
    ak_plugin_xform *u = (ak_plugin_xform *)malloc(sizeof(ak_plugin_xform) * (size_t)(JS + JT));
    assert_true(slocal && u);
    ak_xform *tlocal = slocal + JS, *mine = tlocal + JT, *model = mine + JT;
    double worst = 0.0, worst_library = 0.0;
    for (int32_t f = 0; f < src.clip->frame_count; f += 4) {
        ak_clip_frame(src.clip, src.skeleton, f, slocal);
        for (int32_t j = 0; j < JS; ++j)
            u[j] = akpt_to_unity(slocal[j]);
        assert_int_equal(ak_plugin_retargeter_pose(rt, u, JS, u + JS, JT), AK_OK);
        for (int32_t j = 0; j < JT; ++j) { /* back into the library's frame */
            mine[j].rotation = akpt_mirror_rotation(u[JS + j].rotation);
            mine[j].translation = akpt_mirror_point(u[JS + j].position);
        }
        ak_fk(dst.skeleton, mine, model);
        worst = fmax(worst, akv_ik_bones_apart_pose(dst.skeleton, model));
        assert_int_equal(ak_retargeter_pose(lrt, slocal, tlocal), AK_OK);
        ak_fk(dst.skeleton, tlocal, model);
        worst_library = fmax(worst_library, akv_ik_bones_apart_pose(dst.skeleton, model));
        /* the body is the library retargeter's (the copies are leaves under `root`) */
        for (int32_t j = 0; j < JT; ++j) {
            int copy = 0;
            for (int32_t k = 0; k < copies.count; ++k)
                copy |= copies.bone[k] == j;
            if (!copy) akpt_assert_mirrored(&u[JS + j], &tlocal[j], 1, 1e-5f, "live pose");
        }
    }
    printf("UE4 shape retargeted live: ik bones at most %.2e m off their feet and hands "
           "(ak_retargeter_pose alone: %.3f m)\n",
           worst, worst_library);
    assert_true(worst <= 1e-4);
    free(slocal);
    free(u);
    ak_retargeter_destroy(lrt);
    ak_plugin_destroy(rt);
    akpt_rig_free(&src);
    akpt_rig_free(&dst);
}

/* A rig and a clip from arrays come back as given: names, parents, rest pose, and every
 * frame sampled at its own time (step interpolation). */
static void rigs_and_clips_from_arrays_round_trip(void **state)
{
    (void)state;
    akpt_rig r;
    akpt_rig_walk(&r);
    const int32_t J = r.joints;
    ak_plugin_skeleton_info si;
    assert_int_equal(ak_plugin_skeleton_info_get(r.s, &si), AK_OK);
    assert_int_equal(si.joint_count, J);
    int32_t parents[MAXJ];
    ak_plugin_xform rest[MAXJ], pose[MAXJ];
    assert_int_equal(ak_plugin_skeleton_parents(r.s, parents, J), AK_OK);
    assert_int_equal(ak_plugin_skeleton_rest_pose(r.s, rest, J), AK_OK);
    for (int32_t j = 0; j < J; ++j) {
        char name[64];
        assert_int_equal(ak_plugin_skeleton_joint_name(r.s, j, name, sizeof name), AK_OK);
        assert_string_equal(name, r.skeleton->names[j]);
        assert_int_equal(parents[j], r.skeleton->parents[j]);
    }
    akpt_assert_mirrored(rest, r.skeleton->rest_local, J, 0.0f, "rest pose");
    ak_xform want[MAXJ];
    for (int32_t f = 0; f < r.clip->frame_count; ++f) {
        assert_int_equal(
            ak_plugin_clip_sample(r.c, r.s, (float)f * r.clip->frame_time, AK_INTERP_STEP, pose, J),
            AK_OK);
        ak_clip_frame(r.clip, r.skeleton, f, want);
        akpt_assert_mirrored(pose, want, J, 1e-6f, "clip frame");
    }
    akpt_rig_free(&r);
}

/* Arrays that do not describe a rig or a clip are refused with the reason. */
static void bad_arrays_are_refused(void **state)
{
    (void)state;
    const char names[] = "Hips\0Spine\0";
    const int32_t parents[2] = {-1, 0};
    ak_plugin_xform rest[2] = {{{0, 0, 0, 1}, {0, 1, 0}}, {{0, 0, 0, 1}, {0, 0.2f, 0}}};
    char err[256];
    ak_handle s = NULL, c = NULL;
    assert_int_equal(
        ak_plugin_skeleton_create(0, names, sizeof names, parents, rest, &s, err, sizeof err),
        AK_ERR_INVALID_ARG);
    assert_string_equal(err, "skeleton: need 1..1024 joints with names, parents and rest poses");
    assert_int_equal(
        ak_plugin_skeleton_create(3, names, sizeof names - 1, parents, rest, &s, err, sizeof err),
        AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err, "names must be `count` NUL-ended strings"));
    rest[1].position.y = INFINITY;
    assert_int_equal(
        ak_plugin_skeleton_create(2, names, sizeof names, parents, rest, &s, err, sizeof err),
        AK_ERR_INVALID_ARG);
    assert_string_equal(err, "skeleton: a non-finite rest position");
    rest[1].position.y = 0.2f;
    const int32_t backwards[2] = {1, -1};
    assert_int_equal(
        ak_plugin_skeleton_create(2, names, sizeof names, backwards, rest, &s, err, sizeof err),
        AK_ERR_INVALID_ARG);
    assert_null(s);
    assert_int_equal(
        ak_plugin_skeleton_create(2, names, sizeof names, parents, rest, &s, err, sizeof err),
        AK_OK);
    ak_plugin_xform frames[4] = {rest[0], rest[1], rest[0], rest[1]};
    assert_int_equal(ak_plugin_clip_create(s, 2, 0.0f, 0, frames, 4, &c, err, sizeof err),
                     AK_ERR_INVALID_ARG);
    assert_string_equal(err, "clip: frame_time must be a finite number of seconds > 0");
    assert_int_equal(ak_plugin_clip_create(s, 2, 0.1f, 0, frames, 3, &c, err, sizeof err),
                     AK_ERR_INVALID_ARG);
    assert_string_equal(err, "clip: count is smaller than frame_count * joint_count");
    frames[3].rotation.w = NAN;
    assert_int_equal(ak_plugin_clip_create(s, 2, 0.1f, 0, frames, 4, &c, err, sizeof err),
                     AK_ERR_INVALID_ARG);
    assert_string_equal(err, "clip: a pose holds a non-finite number");
    assert_int_equal(ak_plugin_clip_create(NULL, 2, 0.1f, 0, frames, 4, &c, err, sizeof err),
                     AK_PLUGIN_ERR_HANDLE);
    assert_string_equal(err, "clip: skeleton handle is not valid");
    assert_null(c);
    assert_int_equal(ak_plugin_destroy(s), AK_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(retarget_params_validity),
        cmocka_unit_test(clip_retarget_is_the_librarys),
        cmocka_unit_test(live_retargeter_is_the_librarys),
        cmocka_unit_test(live_retargeter_keeps_copy_bones_on_feet_and_hands),
        cmocka_unit_test(rigs_and_clips_from_arrays_round_trip),
        cmocka_unit_test(bad_arrays_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
