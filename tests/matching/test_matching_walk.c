/* The motion-matching walker on real captures: a database of CMU subject 2's two walks and
 * run reaches targets ahead, to the side and behind over flat ground, hills and a PGM
 * heightmap; it stops standing, stance feet do not skate and stay on the ground, and the
 * transitions are no harsher than the captures themselves. */
#include "match_util.h"

AKT_DB_FIXTURE(akt_subject2, AKT_SUBJECT2_COUNT)
static float g_rate_warp; /* matcher rate_warp for the walks (0: the default, off) */

/* The largest angular acceleration in the source captures themselves, sampled at the
 * database's rate (every other 120 Hz key, from frame 1: frame 0 is CMU's T-pose). */
static float source_max_accel(float dt)
{
    float worst = 0.0f;
    for (int i = 0; i < AKT_SUBJECT2_COUNT; ++i) {
        const ak_clip *c = g_src.clip[i];
        const int32_t J = c->joint_count;
        const int32_t n = (int32_t)((ak_clip_duration(c) - c->frame_time) / dt) + 1;
        ak_quat *rot = (ak_quat *)malloc(sizeof(ak_quat) * (size_t)n * J);
        ak_xform *pose = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J);
        assert_non_null(rot);
        assert_non_null(pose);
        for (int32_t f = 0; f < n; ++f) {
            ak_clip_sample(c, g_src.sk[i], c->frame_time + (float)f * dt, AK_INTERP_LINEAR, pose);
            for (int32_t j = 0; j < J; ++j)
                rot[(size_t)f * J + j] = pose[j].rotation;
        }
        const float a = akt_max_angular_accel(rot, n, J, dt, NULL, NULL);
        if (a > worst) worst = a;
        free(rot);
        free(pose);
    }
    return worst;
}

typedef struct walk_result {
    ak_walker_state last;
    ak_walk_metrics m;
    float max_accel;    /* the animation matching plays (inertialized, before foot IK) */
    float max_accel_ik; /* the final pose, after foot IK (what a user sees) */
    int32_t worst_joint, worst_frame, worst_joint_ik;
    int32_t frames, transitions, unlocks;
} walk_result;

static walk_result walk(const ak_ground *ground, ak_vec3 start, float heading, ak_vec3 target)
{
    walk_result r;
    memset(&r, 0, sizeof r);
    ak_matcher_params p = ak_matcher_defaults();
    p.start = start;
    p.start_heading = heading;
    p.target = target;
    p.rate_warp = g_rate_warp;
    ak_matcher *m = NULL;
    ak_error err;
    assert_int_equal(ak_matcher_create(g_db, &p, ground, &m, &err), AK_OK);
    ak_motion_db_info info;
    ak_motion_db_get_info(g_db, &info);
    const float dt = info.frame_time;
    const int32_t J = info.joint_count, max_frames = (int32_t)(40.0f / dt);
    const int32_t hips = ak_motion_db_humanoid(g_db)->joint[AK_HUM_HIPS];
    ak_quat *rot = (ak_quat *)malloc(sizeof(ak_quat) * (size_t)J * max_frames * 2);
    assert_non_null(rot);
    ak_quat *rot_ik = rot + (size_t)J * max_frames;
    ak_walk_metrics_reset(&r.m);
    int32_t f = 0, prev_frame = -1, prev_transitions = 0;
    for (; f < max_frames; ++f) {
        assert_int_equal(ak_matcher_step(m, f == 0 ? 0.0f : dt, ground, &err), AK_OK);
        /* a jump never lands within exclude_time of where its take was playing */
        ak_matcher_info ji;
        ak_matcher_get_info(m, &ji);
        if (ji.transitions != prev_transitions && prev_frame >= 0 && !ji.standing) {
            int32_t c0, c1;
            float t0, t1;
            ak_motion_db_frame_source(g_db, prev_frame, &c0, &t0);
            ak_motion_db_frame_source(g_db, ji.frame, &c1, &t1);
            /* (one frame of playback may separate the search from the check) */
            assert_true(c0 != c1 || fabsf(t1 - t0) > p.exclude_time - 1.5f * dt);
        }
        prev_transitions = ji.transitions;
        prev_frame = ji.frame;
        assert_true(ji.rate >= 1.0f - g_rate_warp - 1e-6f && ji.rate <= 1.0f + g_rate_warp + 1e-6f);
        ak_matcher_get_state(m, &r.last);
        const ak_xform *local = ak_matcher_local_pose(m), *anim = ak_matcher_anim_pose(m);
        for (int32_t j = 0; j < J; ++j) {
            /* the root with its world heading, the other joints as animated */
            rot[(size_t)f * J + j] = j == 0 ? local[0].rotation : anim[j].rotation;
            rot_ik[(size_t)f * J + j] = local[j].rotation;
        }
        /* Every frame counts, the stop included. */
        ak_walk_metrics_add(&r.m, &r.last, ak_matcher_world_pose(m), hips, f == 0 ? 0.0f : dt);
        if (r.last.stopped && r.last.arrived) break;
    }
    r.frames = f + 1;
    r.max_accel = akt_max_angular_accel(rot, r.frames, J, dt, &r.worst_joint, &r.worst_frame);
    r.max_accel_ik = akt_max_angular_accel(rot_ik, r.frames, J, dt, &r.worst_joint_ik, NULL);
    ak_matcher_info mi;
    ak_matcher_get_info(m, &mi);
    r.transitions = mi.transitions;
    r.unlocks = mi.unlocks;
    free(rot);
    ak_matcher_destroy(m);
    return r;
}

/* Targets 6 m away: straight ahead, 90 degrees to the right and behind the start facing. */
static void walk_three_directions(const ak_ground *ground, const char *name)
{
    ak_motion_db_info info;
    ak_motion_db_get_info(g_db, &info);
    const float src_accel = source_max_accel(info.frame_time);
    const float dirs[3] = {0.0f, 90.0f, 180.0f};
    for (int i = 0; i < 3; ++i) {
        const float a = dirs[i] * 3.14159265f / 180.0f;
        const ak_vec3 start = ak_vec3_make(-1.0f, 0.0f, -1.0f);
        const ak_vec3 target =
            ak_vec3_make(start.x - 6.0f * sinf(a), 0.0f, start.z + 6.0f * cosf(a));
        const walk_result r = walk(ground, start, 0.0f, target);
        const ak_skeleton *sk = ak_motion_db_skeleton(g_db);
        printf("%s %3.0f deg: arrived %d at %.3f m in %.2f s, stopped %d, skate %.4f m/s (held "
               "%.4f), "
               "penetration %.4f float %.4f m, transitions %d (%.1f/s), unlocks %d, max angular "
               "accel %.0f "
               "rad/s^2 (%s, t=%.2f s) vs captures %.0f (%.2fx); after foot IK %.0f (%s, %.2fx)\n",
               name, (double)dirs[i], r.last.arrived, (double)r.last.distance, (double)r.last.time,
               r.last.stopped, (double)r.m.skate, (double)r.m.held_skate,
               (double)r.m.max_penetration, (double)r.m.max_float, r.transitions,
               (double)(r.transitions / r.last.time), (int)r.unlocks, (double)r.max_accel,
               sk->names[r.worst_joint], (double)(r.worst_frame * info.frame_time),
               (double)src_accel, (double)(r.max_accel / src_accel), (double)r.max_accel_ik,
               sk->names[r.worst_joint_ik], (double)(r.max_accel_ik / src_accel));
        assert_true(r.last.arrived);
        assert_true(r.last.stopped);
        assert_true(r.last.stance[0] && r.last.stance[1]); /* standing on both feet */
        assert_true(r.last.distance <= 0.3f);
        /* the held point; every heel and toe the database has down is test_match_physics.c's */
        assert_true(r.m.held_skate < 0.01f);
        assert_true(r.m.max_penetration <= 0.005f);
        assert_true(r.m.max_float <= 0.005f);
        assert_true(r.max_accel <= 1.5f * src_accel);
        assert_true(r.max_accel_ik <= 1.5f * src_accel); /* what a user sees */
    }
}

/* Flat ground for a walk (the caller destroys it). */
static ak_terrain *flat_terrain(void)
{
    ak_terrain_params tp = ak_terrain_defaults();
    tp.kind = AK_TERRAIN_FLAT;
    ak_terrain *t = NULL;
    assert_int_equal(ak_terrain_create(&tp, &t, NULL), AK_OK);
    return t;
}

static void matching_walks_on_flat_ground(void **state)
{
    (void)state;
    ak_terrain *t = flat_terrain();
    const ak_ground g = ak_terrain_ground(t);
    walk_three_directions(&g, "flat");
    ak_terrain_destroy(t);
}

static void matching_walks_on_hills(void **state)
{
    (void)state;
    ak_terrain_params tp = ak_terrain_defaults();
    tp.seed = 3;
    ak_terrain *t = NULL;
    assert_int_equal(ak_terrain_create(&tp, &t, NULL), AK_OK);
    const ak_ground g = ak_terrain_ground(t);
    walk_three_directions(&g, "hills");
    ak_terrain_destroy(t);
}

/* A 65x65 binary PGM of two crossing waves: 1.2 m over 40 m, steepest about 10 degrees. */
static void matching_walks_on_a_heightmap(void **state)
{
    (void)state;
    ak_terrain *t = akt_waves_terrain(40.0f, 1.2f);
    const ak_ground g = ak_terrain_ground(t);
    walk_three_directions(&g, "heightmap");
    ak_terrain_destroy(t);
}

/* Playback-rate warping (up to 10 % faster or slower to meet the wanted speed): the same
 * walks on flat ground still arrive, stop standing, keep planted feet planted and stay within
 * the smoothness bound; the rate never leaves 1 +- 0.1. */
static void rate_warping_keeps_the_walks_sound(void **state)
{
    (void)state;
    ak_terrain *t = flat_terrain();
    const ak_ground g = ak_terrain_ground(t);
    g_rate_warp = 0.1f;
    walk_three_directions(&g, "flat, rate warp 0.1");
    g_rate_warp = 0.0f;
    ak_terrain_destroy(t);
}

/* Already at the target: it stays standing where it is, through a target set every frame. */
static void a_target_inside_the_radius_keeps_it_standing(void **state)
{
    (void)state;
    ak_terrain *t = flat_terrain();
    const ak_ground g = ak_terrain_ground(t);
    ak_matcher_params p = ak_matcher_defaults();
    p.start = ak_vec3_make(1, 0, 1);
    p.target = ak_vec3_make(1.1f, 0, 1.1f);
    ak_matcher *m = NULL;
    assert_int_equal(ak_matcher_create(g_db, &p, &g, &m, NULL), AK_OK);
    ak_walker_state s;
    ak_matcher_info mi;
    for (int f = 0; f < 120; ++f) {
        ak_matcher_set_target(m, p.target);
        assert_int_equal(ak_matcher_step(m, 1.0f / 60.0f, &g, NULL), AK_OK);
    }
    ak_matcher_get_state(m, &s);
    ak_matcher_get_info(m, &mi);
    assert_true(s.arrived && s.stopped);
    assert_int_equal(mi.transitions, 0);
    AKT_NEAR(s.position.x, 1.0, 1e-6);
    AKT_NEAR(s.position.z, 1.0, 1e-6);
    /* a target outside the radius sets it walking */
    ak_matcher_set_target(m, ak_vec3_make(1, 0, 4));
    for (int f = 0; f < 60; ++f)
        assert_int_equal(ak_matcher_step(m, 1.0f / 60.0f, &g, NULL), AK_OK);
    ak_matcher_get_state(m, &s);
    assert_false(s.arrived);
    assert_true(s.position.z > 1.3f);
    ak_matcher_destroy(m);
    ak_terrain_destroy(t);
}

/* Subject 2 never turns on the spot; the OptiTrack capture of Louise (another rig) does: she
 * stands, turns about 150 degrees in 1.3 s within 0.1 m, takes a few steps (then mounts a
 * bicycle at 8.2 s, left out). A database of her first 8 s turns on the spot for a target
 * behind: facing it (within 45 degrees) before the character has moved 0.3 m, then walks
 * there, arrives within the 0.3 m radius and stops standing. */
static void a_capture_that_turns_on_the_spot_turns_before_walking(void **state)
{
    (void)state;
    char path[1200];
    ak_skeleton *sk = NULL;
    ak_clip *clip = NULL;
    ak_error err;
    assert_int_equal(
        ak_bvh_read_file(akt_mocap_path("arena_louise_stand_walk_cycle.bvh", path, sizeof path),
                         NULL, &sk, &clip, &err),
        AK_OK);
    ak_motion_db_clip src = {clip, 0, 800, 0, "louise"};
    ak_motion_db_params dp = ak_motion_db_defaults();
    ak_motion_db *db = NULL;
    assert_int_equal(ak_motion_db_create(sk, &src, 1, &dp, &db, &err), AK_OK);
    ak_terrain *t = flat_terrain();
    const ak_ground g = ak_terrain_ground(t);
    ak_matcher_params p = ak_matcher_defaults();
    p.start = ak_vec3_make(0, 0, 0);
    p.start_heading = 0.0f;
    p.target = ak_vec3_make(0, 0, -1.2f); /* behind */
    ak_matcher *m = NULL;
    assert_int_equal(ak_matcher_create(db, &p, &g, &m, &err), AK_OK);
    ak_walker_state s;
    float faced_at = -1.0f;
    for (int f = 0; f < 20 * 60; ++f) {
        assert_int_equal(ak_matcher_step(m, f == 0 ? 0.0f : 1.0f / 60.0f, &g, &err), AK_OK);
        ak_matcher_get_state(m, &s);
        const float off = fabsf(remainderf(s.heading - 3.14159265f, 2.0f * 3.14159265f));
        if (faced_at < 0.0f && off < 0.25f * 3.14159265f)
            faced_at = sqrtf(s.position.x * s.position.x + s.position.z * s.position.z);
        if (s.arrived && s.stopped) break;
    }
    printf("turned to face the target after %.2f m; arrived at %.3f m in %.2f s\n",
           (double)faced_at, (double)s.distance, (double)s.time);
    assert_true(faced_at >= 0.0f && faced_at <= 0.3f);
    assert_true(s.arrived && s.stopped);
    assert_true(s.distance <= 0.3f);
    ak_matcher_destroy(m);
    ak_terrain_destroy(t);
    ak_motion_db_destroy(db);
    ak_clip_destroy(clip);
    ak_skeleton_destroy(sk);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matching_walks_on_flat_ground),
        cmocka_unit_test(matching_walks_on_hills),
        cmocka_unit_test(matching_walks_on_a_heightmap),
        cmocka_unit_test(rate_warping_keeps_the_walks_sound),
        cmocka_unit_test(a_target_inside_the_radius_keeps_it_standing),
        cmocka_unit_test(a_capture_that_turns_on_the_spot_turns_before_walking),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
