/* Bad input to the locomotion API gets a status and a reason, never a crash; odd but valid
 * clips (a run, a dance) still give a walker that steps without NaN. */
#include "walk_util.h"

static void walk_motion_rejects_what_it_cannot_use(void **state)
{
    (void)state;
    ak_error err;
    ak_walk_motion *m = NULL;
    /* Not a humanoid: two joints named A and B. */
    const char *names[2] = {"A", "B"};
    const int32_t parents[2] = {-1, 0};
    const ak_xform rest[2] = {{{0, 0, 0, 1}, {0, 1, 0}}, {{0, 0, 0, 1}, {0, -1, 0}}};
    ak_skeleton_desc d = {2, names, parents, rest, NULL, NULL};
    ak_skeleton *sk = NULL;
    assert_int_equal(ak_skeleton_create(&d, &sk, NULL), AK_OK);
    ak_clip *c = NULL;
    assert_int_equal(ak_clip_create(2, 10, 0.1f, NULL, &c, NULL), AK_OK);
    ak_walk_motion_params mp = ak_walk_motion_defaults();
    assert_int_equal(ak_walk_motion_validate(&mp, &err), AK_OK);
    /* Settings refused before anything is read: each with its reason. */
    mp.cycle_start = 5; /* and cycle_end -1: neither find, ready loop nor a range */
    assert_int_equal(ak_walk_motion_validate(&mp, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "cycle 5:-1"));
    assert_int_equal(ak_walk_motion_create(sk, c, &mp, &m, &err), AK_ERR_INVALID_ARG);
    assert_null(m);
    mp = ak_walk_motion_defaults();
    mp.min_cycle_time = 2.0f; /* above max 1.8 */
    assert_int_equal(ak_walk_motion_validate(&mp, &err), AK_ERR_INVALID_ARG);
    mp = ak_walk_motion_defaults();
    mp.contacts.height_off = 0.01f; /* below height_on */
    assert_int_equal(ak_walk_motion_validate(&mp, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "off >= on"));
    mp = ak_walk_motion_defaults();
    const uint8_t flags[10] = {1, 1, 1, 1, 0, 0, 0, 0, 1, 1};
    mp.stance_left = flags; /* one foot only */
    assert_int_equal(ak_walk_motion_validate(&mp, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_walk_motion_validate(NULL, &err), AK_ERR_INVALID_ARG);
    mp = ak_walk_motion_defaults();
    assert_int_equal(ak_walk_motion_create(sk, c, &mp, &m, &err), AK_ERR_NOT_FOUND);
    assert_null(m);
    assert_true(strlen(err.message) > 0);
    printf("non-humanoid: %s\n", err.message);
    ak_clip_destroy(c);
    ak_skeleton_destroy(sk);

    /* The built-in biped with bad cycles. */
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    assert_int_equal(ak_walk_clip_create(&wp, &sk, &c, NULL), AK_OK);
    mp.metres_per_unit = 1.0f;
    mp.cycle_start = 10;
    mp.cycle_end = 500; /* past the end */
    assert_int_equal(ak_walk_motion_create(sk, c, &mp, &m, &err), AK_ERR_INVALID_ARG);
    printf("bad cycle: %s\n", err.message);
    assert_non_null(strstr(err.message, "end < 66")); /* the built-in clip's 66 frames */
    mp.cycle_start = 0;
    mp.cycle_end = 0;
    c->loop = 0; /* "already loops" on a clip that does not */
    assert_int_equal(ak_walk_motion_create(sk, c, &mp, &m, &err), AK_ERR_INVALID_ARG);
    c->loop = 1;
    mp.cycle_start = mp.cycle_end = -1; /* find a 0.7-1.6 s cycle in a 1.1 s clip: too short */
    assert_int_equal(ak_walk_motion_create(sk, c, &mp, &m, &err), AK_ERR_NOT_FOUND);
    printf("too short: %s\n", err.message);
    assert_null(m);
    ak_clip_destroy(c);
    ak_skeleton_destroy(sk);
}

static void walker_rejects_bad_params_and_null_handles(void **state)
{
    (void)state;
    walk_source src;
    source_open(&src, NULL, 0, 0);
    ak_error err;
    ak_walker *w = NULL;
    ak_walker_params wp = ak_walker_defaults();
    wp.arrival_radius = 0.0f;
    assert_int_equal(ak_walker_create(src.motion, &wp, NULL, &w, &err), AK_ERR_INVALID_ARG);
    assert_null(w);
    wp = ak_walker_defaults();
    wp.target.x = NAN;
    assert_int_equal(ak_walker_create(src.motion, &wp, NULL, &w, &err), AK_ERR_INVALID_ARG);
    wp = ak_walker_defaults();
    wp.steer = 7;
    assert_int_equal(ak_walker_create(src.motion, &wp, NULL, &w, &err), AK_ERR_INVALID_ARG);
    wp = ak_walker_defaults();
    wp.foot.max_tilt = AKT_RAD(120.0f);
    assert_int_equal(ak_walker_create(src.motion, &wp, NULL, &w, &err), AK_ERR_INVALID_ARG);
    /* NULL handles and bad dt. */
    assert_int_equal(ak_walker_step(NULL, 0.01f, NULL, &err), AK_ERR_INVALID_ARG);
    wp = ak_walker_defaults();
    assert_int_equal(ak_walker_create(src.motion, &wp, NULL, &w, &err), AK_OK);
    assert_int_equal(ak_walker_step(w, -1.0f, NULL, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_walker_step(w, NAN, NULL, &err), AK_ERR_INVALID_ARG);
    ak_ground_hit hits[2];
    assert_int_equal(ak_walker_finish(w, hits, 2, &err), AK_ERR_INVALID_ARG);
    /* No ground at all: it still steps, feet fade to the animation, nothing is NaN. */
    for (int f = 0; f < 120; ++f)
        assert_int_equal(ak_walker_step(w, 1.0f / 60, NULL, &err), AK_OK);
    ak_walker_state s;
    ak_walker_get_state(w, &s);
    assert_true(isfinite(s.position.x) && isfinite(s.sole[0].y) && isfinite(s.hip_drop));
    ak_walker_get_state(NULL, &s);
    assert_null(ak_walker_world_pose(NULL));
    ak_walker_destroy(w);
    ak_walker_destroy(NULL);
    ak_walk_motion_destroy(NULL);
    ak_terrain_destroy(NULL);
    source_close(&src);
}

/* A run (flight phases) and a dance: cycles are found or refused cleanly, and when a walker
 * can be made its frames stay finite. */
/* Foot IK and reach carry their skeleton in their params (the shape of every solver): without
 * it, or with joints outside it, validate and run refuse with a reason and write nothing. */
static void foot_ik_and_reach_refuse_a_missing_skeleton(void **state)
{
    (void)state;
    ak_skeleton *sk = NULL;
    ak_clip *c = NULL;
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    assert_int_equal(ak_walk_clip_create(&wp, &sk, &c, NULL), AK_OK);
    ak_error err;
    ak_foot_ik_params fp = ak_foot_ik_defaults();
    assert_int_equal(ak_foot_ik_validate(&fp, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "skeleton"));
    fp.skeleton = sk;
    const char *legs[2][3] = {{"LeftUpLeg", "LeftLeg", "LeftFoot"},
                              {"RightUpLeg", "RightLeg", "RightFoot"}};
    for (int s = 0; s < 2; ++s) {
        fp.legs[s].upper = ak_skeleton_find(sk, legs[s][0]);
        fp.legs[s].lower = ak_skeleton_find(sk, legs[s][1]);
        fp.legs[s].foot = ak_skeleton_find(sk, legs[s][2]);
    }
    assert_int_equal(ak_foot_ik_validate(&fp, &err), AK_OK);
    fp.hips = sk->joint_count; /* one past the last joint */
    ak_foot_ik_state fs;
    ak_foot_ik_state_reset(&fs);
    ak_foot_ik_frame fr;
    memset(&fr, 0, sizeof fr);
    fr.dt = 1.0f / 60.0f;
    ak_xform pose[2] = {{{0, 0, 0, 1}, {0, 0, 0}}, {{0, 0, 0, 1}, {0, 0, 0}}};
    assert_int_equal(ak_foot_ik_run(&fp, &fs, &fr, pose, pose, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "hips"));
    assert_int_equal(fs.initialized, 0);

    ak_reach_params rp = ak_reach_defaults();
    ak_reach_state rs = {0, 0, 0};
    assert_int_equal(ak_reach_run(&rp, &rs, fr.dt, pose, pose, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "skeleton"));
    ak_clip_destroy(c);
    ak_skeleton_destroy(sk);
}

static void odd_clips_fail_cleanly_or_walk_finitely(void **state)
{
    (void)state;
    const char *names[2] = {"cmu_09_01_run.bvh", "cmu_05_06_dance.bvh"};
    ak_terrain_params tp = ak_terrain_defaults();
    ak_terrain *t = NULL;
    assert_int_equal(ak_terrain_create(&tp, &t, NULL), AK_OK);
    ak_ground g = ak_terrain_ground(t);
    for (int k = 0; k < 2; ++k) {
        char path[1024];
        akt_mocap_path(names[k], path, sizeof path);
        ak_skeleton *sk;
        ak_clip *c;
        ak_error err;
        assert_int_equal(ak_bvh_read_file(path, NULL, &sk, &c, &err), AK_OK);
        ak_walk_motion_params mp = ak_walk_motion_defaults();
        mp.min_cycle_time = 0.4f;
        ak_walk_motion *m = NULL;
        const int32_t st = ak_walk_motion_create(sk, c, &mp, &m, &err);
        printf("%s: %s%s\n", names[k],
               st == AK_OK ? "motion made" : "refused: ", st == AK_OK ? "" : err.message);
        if (st == AK_OK) {
            ak_walker_params wp = ak_walker_defaults();
            wp.start = ak_vec3_make(-2, 0, 0);
            wp.target = ak_vec3_make(2, 0, 1);
            ak_walker *w = NULL;
            assert_int_equal(ak_walker_create(m, &wp, &g, &w, &err), AK_OK);
            const ak_xform *world = ak_walker_world_pose(w);
            const int32_t J = ak_walk_motion_skeleton(m)->joint_count;
            for (int f = 0; f < 300; ++f) {
                assert_int_equal(ak_walker_step(w, ak_walk_motion_clip(m)->frame_time, &g, &err),
                                 AK_OK);
                for (int32_t j = 0; j < J; ++j)
                    assert_true(isfinite(world[j].translation.x) &&
                                isfinite(world[j].translation.y) && isfinite(world[j].rotation.w));
            }
            ak_walker_destroy(w);
        } else {
            assert_null(m);
            assert_true(strlen(err.message) > 0);
        }
        ak_walk_motion_destroy(m);
        ak_clip_destroy(c);
        ak_skeleton_destroy(sk);
    }
    ak_terrain_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(walk_motion_rejects_what_it_cannot_use),
        cmocka_unit_test(walker_rejects_bad_params_and_null_handles),
        cmocka_unit_test(foot_ik_and_reach_refuse_a_missing_skeleton),
        cmocka_unit_test(odd_clips_fail_cleanly_or_walk_finitely),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
