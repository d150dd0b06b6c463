/* The offline retarget (src/retarget/retarget_run.c): the built-in biped's walk (whose exact
 * foot contacts ak_walk_clip_contacts gives) onto a smaller biped (hips 0.6 m instead of
 * 0.795). Its params are checked before anything runs; without contacts every frame is the
 * live retargeter's pose; with the walk's own stance flags every heel-down run becomes one
 * pin, the pinned ankle stands still over its run (no skate) at the mapped source height, the
 * IK leaves it within its tolerance, and every output frame keeps the target's bone lengths
 * with unit rotations. Rig pairs from capture files: test_retarget.c. */
#include "test_params.h"

typedef struct pair {
    ak_walk_clip_params src_params;
    ak_skeleton *src, *dst;
    ak_clip *clip, *dst_clip;
    uint8_t *left, *right; /* the walk's exact contacts */
} pair;

static pair g;

static int setup(void **state)
{
    (void)state;
    ak_error e;
    g.src_params = ak_walk_clip_defaults();
    ak_walk_clip_params small = ak_walk_clip_defaults();
    small.hip_height = 0.6f;
    small.stride_length = 1.0f;
    if (ak_walk_clip_create(&g.src_params, &g.src, &g.clip, &e) != AK_OK) return -1;
    if (ak_walk_clip_create(&small, &g.dst, &g.dst_clip, &e) != AK_OK) return -1;
    const size_t n = (size_t)g.clip->frame_count;
    g.left = (uint8_t *)malloc(n);
    g.right = (uint8_t *)malloc(n);
    if (!g.left || !g.right) return -1;
    return ak_walk_clip_contacts(&g.src_params, g.clip, g.left, g.right, &e) == AK_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ak_skeleton_destroy(g.src);
    ak_skeleton_destroy(g.dst);
    ak_clip_destroy(g.clip);
    ak_clip_destroy(g.dst_clip);
    free(g.left);
    free(g.right);
    return 0;
}

static ak_retarget_params params(void)
{
    ak_retarget_params p = ak_retarget_defaults();
    p.source = g.src;
    p.source_clip = g.clip;
    p.target = g.dst;
    p.source_metres_per_unit = 1.0f;
    return p;
}

static int32_t run(const void *p, ak_error *err)
{
    ak_clip *out = (ak_clip *)(uintptr_t)1;
    const int32_t st = ak_retarget_run((const ak_retarget_params *)p, &out, NULL, err);
    if (st != AK_OK && out) fail_msg("a refused run gave a clip");
    ak_clip_destroy(out);
    return st;
}

/* Validity: the defaults run; NULL params and every float field out of its range are refused
 * by ak_retarget_run before it runs (each bound passes the table); no output, no clip and a
 * reference frame past the clip are refused with the reason. */
static void retarget_run_params_validity(void **state)
{
    (void)state;
    const ak_retarget_params ok = params();
    assert_true(akt_check_param_table(ak_retarget_param_ranges(), &ok, sizeof ok, run) > 0);
    ak_error e;
    ak_clip *out = NULL;
    assert_int_equal(ak_retarget_run(&ok, NULL, NULL, &e), AK_ERR_INVALID_ARG);
    assert_string_equal(e.message, "null output");
    ak_retarget_params p = ok;
    p.source_clip = NULL;
    assert_int_equal(ak_retarget_run(&p, &out, NULL, &e), AK_ERR_INVALID_ARG);
    assert_string_equal(e.message, "retarget needs a source clip");
    assert_null(out);
    p = ok;
    p.reference_frame = g.clip->frame_count;
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "reference_frame", "reference_frame");
    p = ok;
    p.stance_left = g.left; /* one foot's flags only */
    akt_expect_refused(run, &p, AK_ERR_INVALID_ARG, "stance", "one foot's flags");
}

/* Contacts off: the output clip is the live retargeter's pose of every frame (same frame count,
 * time and loop; one translation track, on the hips). */
static void without_contacts_every_frame_is_the_retargeters(void **state)
{
    (void)state;
    ak_retarget_params p = params();
    p.contacts = 0;
    ak_clip *out = NULL;
    ak_retarget_info info;
    ak_error e;
    assert_int_equal(ak_retarget_run(&p, &out, &info, &e), AK_OK);
    assert_int_equal(out->frame_count, g.clip->frame_count);
    AKT_NEAR(out->frame_time, g.clip->frame_time, 0);
    assert_int_equal(out->loop, g.clip->loop);
    assert_int_equal(out->track_count, 1);
    assert_int_equal(info.pinned_runs, 0);
    AKT_NEAR(info.max_pin_error, 0.0f, 0);
    assert_int_equal(info.reference_frame, -1); /* the biped's zero pose stands */
    ak_retargeter *rt = NULL;
    assert_int_equal(ak_retargeter_create(&p, &rt, &e), AK_OK);
    const int32_t JS = g.src->joint_count, JT = g.dst->joint_count;
    ak_xform *src = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)(JS + 2 * JT));
    ak_xform *want = src + JS, *got = want + JT;
    for (int32_t f = 0; f < out->frame_count; ++f) {
        ak_clip_frame(g.clip, g.src, f, src);
        assert_int_equal(ak_retargeter_pose(rt, src, want), AK_OK);
        ak_clip_frame(out, g.dst, f, got);
        for (int32_t j = 0; j < JT; ++j) {
            AKT_NEAR(fabsf(ak_quat_dot(got[j].rotation, want[j].rotation)), 1.0f, 1e-6);
            AKT_NEAR(ak_vec3_length(ak_vec3_sub(got[j].translation, want[j].translation)), 0.0f,
                     1e-6);
        }
    }
    free(src);
    ak_retargeter_destroy(rt);
    ak_clip_destroy(out);
}

/* Stance runs of a flag array (heel bit): how many, and frames in them. */
static int32_t runs_of(const uint8_t *flags, int32_t n, int32_t *frames)
{
    int32_t runs = 0;
    *frames = 0;
    for (int32_t f = 0; f < n; ++f) {
        const int on = (flags[f] & AK_CONTACT_HEEL) != 0;
        *frames += on;
        runs += on && (f == 0 || !(flags[f - 1] & AK_CONTACT_HEEL));
    }
    return runs;
}

/* Contacts from the walk's exact flags (fade 0.1 s): one pin per heel-down run of each foot;
 * within a run the target ankle does not skate (its horizontal path spans under 1 mm: the
 * limb IK's tolerance, 1e-4 of the leg, is 0.1 mm); every frame keeps the target's bone
 * lengths (1e-5 m) and unit rotations. */
static void stance_feet_are_pinned_and_bones_kept(void **state)
{
    (void)state;
    ak_retarget_params p = params();
    p.stance_left = g.left;
    p.stance_right = g.right;
    ak_clip *out = NULL;
    ak_retarget_info info;
    ak_error e;
    assert_int_equal(ak_retarget_run(&p, &out, &info, &e), AK_OK);
    const int32_t n = out->frame_count, JT = g.dst->joint_count;
    int32_t frames_l, frames_r;
    const int32_t runs = runs_of(g.left, n, &frames_l) + runs_of(g.right, n, &frames_r);
    assert_true(runs >= 2);
    assert_int_equal(info.pinned_runs, runs);
    assert_int_equal(info.stance_frames[0], frames_l);
    assert_int_equal(info.stance_frames[1], frames_r);
    assert_int_equal(info.stance_frames[2], 0); /* hands not pinned */
    ak_humanoid m;
    assert_int_equal(ak_humanoid_find(g.dst, NULL, &m, &e), AK_OK);
    const float leg = g.dst->bone_lengths[m.joint[AK_HUM_LEFT_LOWER_LEG]] +
                      g.dst->bone_lengths[m.joint[AK_HUM_LEFT_FOOT]];
    assert_true(info.max_pin_error <= 1e-4f * leg + 1e-6f);
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)JT * 2), *world = local + JT;
    const uint8_t *flags[2] = {g.left, g.right};
    const int32_t ankle[2] = {m.joint[AK_HUM_LEFT_FOOT], m.joint[AK_HUM_RIGHT_FOOT]};
    ak_vec3 lo[2], hi[2];
    for (int32_t f = 0; f < n; ++f) {
        ak_clip_frame(out, g.dst, f, local);
        ak_fk(g.dst, local, world);
        for (int32_t j = 0; j < JT; ++j) {
            AKT_NEAR(ak_quat_dot(local[j].rotation, local[j].rotation), 1.0f, 1e-5);
            const int32_t par = g.dst->parents[j];
            if (par < 0 || j == m.joint[AK_HUM_HIPS]) continue;
            const float len =
                ak_vec3_length(ak_vec3_sub(world[j].translation, world[par].translation));
            AKT_NEAR(len, g.dst->bone_lengths[j], 1e-5);
        }
        for (int s = 0; s < 2; ++s) {
            const int on = (flags[s][f] & AK_CONTACT_HEEL) != 0;
            const int starts = on && (f == 0 || !(flags[s][f - 1] & AK_CONTACT_HEEL));
            const ak_vec3 a = world[ankle[s]].translation;
            if (starts) lo[s] = hi[s] = a;
            if (!on) continue;
            lo[s] = ak_vec3_make(fminf(lo[s].x, a.x), 0.0f, fminf(lo[s].z, a.z));
            hi[s] = ak_vec3_make(fmaxf(hi[s].x, a.x), 0.0f, fmaxf(hi[s].z, a.z));
            if (!(hi[s].x - lo[s].x <= 1e-3f && hi[s].z - lo[s].z <= 1e-3f))
                fail_msg("frame %d: the %s ankle skates %.4f x %.4f m", (int)f,
                         s ? "right" : "left", (double)(hi[s].x - lo[s].x),
                         (double)(hi[s].z - lo[s].z));
        }
    }
    free(local);
    ak_clip_destroy(out);
}

/* floor_height given: the info reports it as the target floor; over each foot's heel-down
 * frames the ankle never comes below its sole height above that floor (the sole would be in
 * the floor; 1 mm of rounding), and its highest is the mapped source ankle's (a pin takes the
 * goal's height; 1 mm). */
static void a_given_floor_is_where_the_soles_stand(void **state)
{
    (void)state;
    ak_retarget_params p = params();
    p.stance_left = g.left;
    p.stance_right = g.right;
    p.floor_height = 0.05f;
    ak_clip *out = NULL;
    ak_retarget_info info;
    ak_error e;
    assert_int_equal(ak_retarget_run(&p, &out, &info, &e), AK_OK);
    AKT_NEAR(info.target_floor, 0.05f, 1e-6); /* float rounding through the map */
    ak_humanoid m;
    assert_int_equal(ak_humanoid_find(g.dst, NULL, &m, &e), AK_OK);
    const int32_t JT = g.dst->joint_count;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)JT * 2), *world = local + JT;
    const uint8_t *flags[2] = {g.left, g.right};
    const int32_t ankle[2] = {m.joint[AK_HUM_LEFT_FOOT], m.joint[AK_HUM_RIGHT_FOOT]};
    float lowest[2] = {INFINITY, INFINITY};
    for (int32_t f = 0; f < out->frame_count; ++f) {
        ak_clip_frame(out, g.dst, f, local);
        ak_fk(g.dst, local, world);
        for (int s = 0; s < 2; ++s)
            if (flags[s][f] & AK_CONTACT_HEEL)
                lowest[s] = fminf(lowest[s], world[ankle[s]].translation.y - info.target_floor);
    }
    for (int s = 0; s < 2; ++s) {
        assert_true(lowest[s] >= info.target_sole - 1e-3f);
        AKT_NEAR(info.stance_foot_height[s], info.source_stance_foot_height[s], 1e-3);
        assert_true(info.stance_foot_height[s] >= lowest[s]);
    }
    free(local);
    ak_clip_destroy(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(retarget_run_params_validity),
        cmocka_unit_test(without_contacts_every_frame_is_the_retargeters),
        cmocka_unit_test(stance_feet_are_pinned_and_bones_kept),
        cmocka_unit_test(a_given_floor_is_where_the_soles_stand),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
