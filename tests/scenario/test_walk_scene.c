/* The walk scene (src/scenario/walk_scene.c): what ak_walk_scenario_params describes, built
 * once — terrain, the built-in or a file's walk, the walk motion and the guide walker — placed
 * at the start and stepped; its refusals name the flag or file. Steer match (the database and
 * the matcher): test_walk_scene_match.c. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "test_util.h"

#include "animkit/scenario.h"
#include "locomotion/studio_variants.h"
#include "scene_walk_util.h"

#include <unistd.h>

/* What ak_walk_scene_create gives for `s`: the status, the scene NULL on a refusal, and the
 * message in e. */
static int32_t create(const ak_walk_scenario_params *s, ak_error *e)
{
    ak_walk_scene *scene = (ak_walk_scene *)(uintptr_t)1;
    const int32_t st = ak_walk_scene_create(s, NULL, &scene, e);
    if (st != AK_OK && scene) fail_msg("a refused scene is not NULL");
    ak_walk_scene_destroy(scene);
    return st;
}

/* Validity: every scenario ak_walk_scenario_validate refuses, create refuses with the same
 * status and message before building anything (a flag out of its range, a rule between
 * flags); a valid one whose start or target lies off the terrain is refused naming the flag
 * and the terrain's span; no output and no scenario are refused. */
static void walk_scene_validity(void **state)
{
    (void)state;
    ak_walk_scenario_params bad[5];
    for (int i = 0; i < 5; ++i)
        bad[i] = ak_walk_scenario_defaults();
    bad[0].turn_rate_deg = 0.0f;
    bad[1].arrival = -1.0f;
    bad[2].cycle[0] = 3; /* --cycle needs --clip */
    bad[2].cycle[1] = 9;
    bad[3].size = 10.0f;                                       /* --size needs --heightmap */
    snprintf(bad[4].clip, sizeof bad[4].clip, "a.bvh\nb.bvh"); /* several clips: match only */
    for (int i = 0; i < 5; ++i) {
        ak_error v, e;
        const int32_t want = ak_walk_scenario_validate(&bad[i], &v);
        assert_int_equal(want, AK_ERR_INVALID_ARG);
        assert_int_equal(create(&bad[i], &e), want);
        assert_string_equal(e.message, v.message);
    }
    ak_walk_scenario_params s = ak_walk_scenario_defaults();
    s.terrain = AK_WALK_TERRAIN_FLAT;
    s.start[0] = -30.0f;
    ak_error e;
    assert_int_equal(create(&s, &e), AK_ERR_INVALID_ARG);
    assert_string_equal(e.message, "--start -30,-4 is outside the ground (x and z span -20..20 m)");
    assert_int_equal(ak_walk_scene_create(&s, NULL, NULL, &e), AK_ERR_INVALID_ARG);
    assert_string_equal(e.message, "null output");
    /* the accessors take a NULL scene */
    assert_null(ak_walk_scene_walker(NULL));
    assert_null(ak_walk_scene_motion(NULL));
    assert_null(ak_walk_scene_skeleton(NULL));
    assert_int_equal(ak_walk_scene_step(NULL, &e), AK_ERR_INVALID_ARG);
    ak_walk_scene_destroy(NULL);
}

static void builtin_scene_is_placed_and_steps(void **state)
{
    (void)state;
    ak_walk_scenario_params s = ak_walk_scenario_defaults();
    s.terrain = AK_WALK_TERRAIN_FLAT;
    s.max_time = 2.0f;
    ak_walk_scene *scene = NULL;
    ak_error e;
    assert_int_equal(ak_walk_scene_create(&s, NULL, &scene, &e), AK_OK);
    ak_walk_scene_info info;
    ak_walk_scene_get_info(scene, &info);
    assert_string_equal(info.clip_label, "built-in walk");
    assert_int_equal(info.frame, 1); /* placed: the first step, dt 0 */
    /* The built-in walk runs at its default 60 frames per second. */
    AKT_NEAR(info.frame_time, 1.0 / 60.0, 1e-7);
    assert_int_equal(info.max_frames, (int32_t)ceilf(2.0f / info.frame_time) + 1);
    const ak_skeleton *sk = ak_walk_scene_skeleton(scene);
    assert_non_null(sk);
    assert_true(info.hips >= 0 && info.hips < sk->joint_count);
    ak_walker_state st;
    ak_walker_get_state(ak_walk_scene_walker(scene), &st);
    /* Placed at the start on flat ground (y 0), facing the target. */
    AKT_NEAR(st.position.x, -6.0, 1e-4);
    AKT_NEAR(st.position.z, -4.0, 1e-4);
    AKT_NEAR(st.position.y, 0.0, 1e-4);
    AKT_NEAR(st.distance, sqrt(12.0 * 12.0 + 8.0 * 8.0), 1e-3);
    for (int i = 0; i < 30; ++i)
        assert_int_equal(ak_walk_scene_step(scene, &e), AK_OK);
    ak_walk_scene_get_info(scene, &info);
    assert_int_equal(info.frame, 31);
    ak_walker_get_state(ak_walk_scene_walker(scene), &st);
    AKT_NEAR(st.time, 30.0 * info.frame_time, 1e-4);
    assert_true(st.distance < sqrt(12.0 * 12.0 + 8.0 * 8.0)); /* it walked toward the target */
    ak_walk_scene_reset(scene);
    ak_walk_scene_get_info(scene, &info);
    assert_int_equal(info.frame, 1);
    ak_walker_get_state(ak_walk_scene_walker(scene), &st);
    AKT_NEAR(st.position.x, -6.0, 1e-4);
    ak_walk_scene_destroy(scene);
}

/* max_frames of the scenario s (its frame time in *frame_time) and its walk motion's speed. */
static int32_t frames_of(const ak_walk_scenario_params *s, float *frame_time, float *speed)
{
    ak_walk_scene *scene = NULL;
    ak_error e;
    if (ak_walk_scene_create(s, NULL, &scene, &e) != AK_OK) fail_msg("%s", e.message);
    ak_walk_scene_info info;
    ak_walk_scene_get_info(scene, &info);
    ak_walk_motion_info mi;
    ak_walk_motion_get_info(ak_walk_scene_motion(scene), &mi);
    *frame_time = info.frame_time;
    *speed = mi.speed;
    ak_walk_scene_destroy(scene);
    return info.max_frames;
}

/* The time limit follows the walk: max_time 0 (the default) is twice the straight route from
 * start to target at the walk motion's own speed, at least 60 s; a max_time given is kept.
 * A fixed 60 s gave up on walks their own speed could not finish: assimp-testmodels'
 * Boxing_Toes (a 0.24 m/s shuffle) on the default route (14.4 m) up the stairs stopped 1.48 m
 * short at 60 s and arrives at 66.4 s. */
static void default_time_limit_follows_the_walk(void **state)
{
    (void)state;
    ak_walk_scenario_params s = ak_walk_scenario_defaults();
    assert_true(s.max_time == 0.0f);
    s.terrain = AK_WALK_TERRAIN_FLAT;
    float dt = 0.0f, speed = 0.0f;
    /* the built-in walk on the default route: 2 x 14.42 m at its speed is under 60 s */
    int32_t frames = frames_of(&s, &dt, &speed);
    const double route = sqrt(12.0 * 12.0 + 8.0 * 8.0);
    printf("built-in: %.3f m/s, the default route %.2f m: %.1f s\n", (double)speed, route,
           2.0 * route / (double)speed);
    assert_true(2.0 * route / (double)speed < 60.0);
    assert_int_equal(frames, (int32_t)ceil(60.0 / (double)dt) + 1);
    /* corner to corner of the flat ground (53.74 m): past 60 s, as the walk's own speed says */
    s.start[0] = s.start[1] = -19.0f;
    s.target[0] = s.target[1] = 19.0f;
    frames = frames_of(&s, &dt, &speed);
    const double t = 2.0 * sqrt(2.0 * 38.0 * 38.0) / (double)speed;
    printf("built-in corner to corner: %.1f s, %d frames\n", t, (int)frames);
    assert_true(t > 60.0);
    assert_int_equal(frames, (int32_t)ceil(t / (double)dt) + 1);
    /* given, it is kept, 60 included */
    s.max_time = 60.0f;
    assert_int_equal(frames_of(&s, &dt, &speed), (int32_t)ceil(60.0 / (double)dt) + 1);
    s.max_time = 2.0f;
    assert_int_equal(frames_of(&s, &dt, &speed), (int32_t)ceil(2.0 / (double)dt) + 1);
    ak_walk_summary sum;
    ak_walker_state last; /* its default time limit: no max_time given */
    if (!akt_walk_assimp("Boxing_Toes.bvh", AK_WALK_STEER_CYCLE, AK_WALK_TERRAIN_STAIRS, 1, &sum,
                         &last)) {
        skip();
        return;
    }
    printf("Boxing_Toes stairs: stopped %d at %.2f s, %.3f m from the target\n", (int)last.stopped,
           (double)last.time, (double)last.distance);
    assert_true(last.stopped && last.distance <= 0.3f);
    assert_true(last.time > 60.0f);
}

/* --start-heading (the table's start_heading_deg, degrees): both walkers start facing it, 180
 * here with the target straight ahead along +Z, i.e. behind the character; by default they
 * face the target. --no-captured-transitions with --steer match is refused (the matcher has no
 * procedural start or stop to choose). */
static void start_heading_faces_both_walkers_and_captured_transitions_need_the_guide(void **state)
{
    (void)state;
    char path[1024];
    for (int match = 0; match < 2; ++match)
        for (int given = 0; given < 2; ++given) {
            ak_walk_scenario_params s = ak_walk_scenario_defaults();
            AKT_NEAR(s.start_heading_deg, AK_WALK_FACE_TARGET, 0.0);
            ak_error e;
            ak_flags_result fr;
            assert_int_equal(
                ak_flags_parse_query(ak_walk_scenario_flags(), &s,
                                     given ? "terrain=flat&start=0,0&target=0,4&start-heading=180"
                                           : "terrain=flat&start=0,0&target=0,4",
                                     &fr, &e),
                AK_OK);
            if (match) {
                s.steer = AK_WALK_STEER_MATCH;
                snprintf(s.clip, sizeof s.clip, "%s",
                         akt_mocap_path("cmu_02_01_walk.bvh", path, sizeof path));
            }
            ak_walk_scene *scene = NULL;
            assert_int_equal(ak_walk_scene_create(&s, NULL, &scene, &e), AK_OK);
            ak_walker_state st;
            ak_walk_scene_get_state(scene, &st);
            /* the guide walker adds its cycle's own small yaw (under 10 degrees) */
            const double want = given ? 3.14159265 : 0.0;
            const double off = fabs(remainder(st.heading - want, 2.0 * 3.14159265));
            printf("%s, %s: heading %.1f deg\n", match ? "match" : "guide",
                   given ? "--start-heading 180" : "default", st.heading * 57.29578);
            assert_true(off < (match ? 1e-3 : 0.17));
            ak_walk_scene_destroy(scene);
        }
    ak_walk_scenario_params s = ak_walk_scenario_defaults();
    s.steer = AK_WALK_STEER_MATCH;
    snprintf(s.clip, sizeof s.clip, "a.bvh");
    s.captured_transitions = 0;
    ak_error e;
    assert_int_equal(ak_walk_scenario_validate(&s, &e), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "--no-captured-transitions is for the guide walker"));
    s.start_heading_deg = 400.0f;
    s.captured_transitions = 1;
    assert_int_equal(ak_walk_scenario_validate(&s, &e), AK_ERR_INVALID_ARG);
}

static void errors_name_the_file(void **state)
{
    (void)state;
    ak_walk_scene *scene = (ak_walk_scene *)&scene;
    ak_error e;
    ak_walk_scenario_params s = ak_walk_scenario_defaults();
    snprintf(s.clip, sizeof s.clip, "no/such/walk.bvh");
    assert_int_equal(ak_walk_scene_create(&s, NULL, &scene, &e), AK_ERR_IO);
    assert_null(scene);
    assert_true(strncmp(e.message, "no/such/walk.bvh: ", 18) == 0);
    s = ak_walk_scenario_defaults();
    snprintf(s.heightmap, sizeof s.heightmap, "no/such/hills.pgm");
    assert_int_equal(ak_walk_scene_create(&s, NULL, &scene, &e), AK_ERR_IO);
    assert_true(strncmp(e.message, "no/such/hills.pgm: ", 19) == 0);
    s = ak_walk_scenario_defaults();
    s.turn_rate_deg = 0.0f;
    assert_int_equal(ak_walk_scene_create(&s, NULL, &scene, &e), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_walk_scene_create(NULL, NULL, &scene, &e), AK_ERR_INVALID_ARG);
}

/* The scene of `s` (created or failed), stepped `frames` times: the hips' world position then
 * in *hips. Returns create's status. */
static int32_t walk_hips(const ak_walk_scenario_params *s, int32_t frames, ak_vec3 *hips,
                         ak_error *e)
{
    ak_walk_scene *scene = NULL;
    const int32_t st = ak_walk_scene_create(s, NULL, &scene, e);
    if (st != AK_OK) return st;
    for (int32_t f = 0; f < frames; ++f)
        assert_int_equal(ak_walk_scene_step(scene, e), AK_OK);
    ak_walk_scene_info info;
    ak_walk_scene_get_info(scene, &info);
    *hips = ak_walk_scene_world_pose(scene)[info.hips].translation;
    ak_walk_scene_destroy(scene);
    return st;
}

/* The scenario's up (issue 22: --up on `animkit walk`, Walker(up=...), the web page's up=): a
 * Z-up copy of CMU 02_01 (the variant generator's AKV_Z_UP, written to a file) walks as its
 * original does, read turned by the measure (auto, the default) or by AK_UP_Z; its hips after
 * 240 frames within 1e-5 of the 1.43 m height of the original's (the file's text rounds
 * positions to 1.3e-6 m, and the walker's root-motion sums over the frames carry that on).
 * AK_UP_Y keeps the file's axes: the rig lies along +Z, its height along Y is no person's, and
 * no walking is found in it. */
static void scene_reads_a_z_up_clip_by_the_scenario_up(void **state)
{
    (void)state;
    char dir[1100], path[1200];
    snprintf(dir, sizeof dir, "%s/tests/scene_zup_XXXXXX", getenv("AK_BUILD_DIR"));
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/walk_z_up.bvh", dir);
    akv_write("cmu_02_01_walk.bvh", AKV_Z_UP, path);
    ak_walk_scenario_params s = ak_walk_scenario_defaults();
    s.terrain = AK_WALK_TERRAIN_FLAT;
    char original[1024];
    akt_mocap_path("cmu_02_01_walk.bvh", original, sizeof original);
    snprintf(s.clip, sizeof s.clip, "%s", original);
    ak_vec3 want, got;
    ak_error e;
    assert_int_equal(walk_hips(&s, 240, &want, &e), AK_OK);
    snprintf(s.clip, sizeof s.clip, "%s", path);
    for (int32_t up = AK_UP_AUTO; up <= AK_UP_Z; ++up) {
        s.up = up;
        const int32_t st = walk_hips(&s, 240, &got, &e);
        print_message("up %d: %s, hips (%.6f, %.6f, %.6f) against (%.6f, %.6f, %.6f)\n", (int)up,
                      st == AK_OK ? "walks" : e.message, (double)got.x, (double)got.y,
                      (double)got.z, (double)want.x, (double)want.y, (double)want.z);
        if (up == AK_UP_Y) {
            assert_int_equal(st, AK_ERR_NOT_FOUND);
            assert_non_null(strstr(e.message, "no walking found"));
            continue;
        }
        assert_int_equal(st, AK_OK);
        assert_true(ak_vec3_length(ak_vec3_sub(got, want)) <= 1e-5f * 1.43f);
    }
    s.up = 3; /* not an ak_up_axis: refused by the scenario's check, naming the flag */
    assert_int_equal(walk_hips(&s, 0, &got, &e), AK_ERR_INVALID_ARG);
    print_message("up 3: %s\n", e.message);
    assert_non_null(strstr(e.message, "up"));
    remove(path);
    rmdir(dir);
}

/* A crowd range steps scenes [begin, end) like stepping each in turn, and refuses a bad
 * range or a null scene by index. */
static void scene_range_steps_like_each_scene_in_turn(void **state)
{
    (void)state;
    ak_walk_scenario_params s = ak_walk_scenario_defaults();
    s.terrain = AK_WALK_TERRAIN_FLAT;
    s.max_time = 2.0f;
    ak_walk_scene *a[3], *b[3];
    ak_error e;
    for (int k = 0; k < 3; ++k) {
        assert_int_equal(ak_walk_scene_create(&s, NULL, &a[k], &e), AK_OK);
        assert_int_equal(ak_walk_scene_create(&s, NULL, &b[k], &e), AK_OK);
        const ak_vec3 target = {(float)k - 1.0f, 0.0f, 3.0f};
        ak_walk_scene_set_target(a[k], target);
        ak_walk_scene_set_target(b[k], target);
    }
    for (int f = 0; f < 20; ++f) {
        for (int k = 0; k < 3; ++k)
            assert_int_equal(ak_walk_scene_step(a[k], &e), AK_OK);
        assert_int_equal(ak_walk_scene_step_range(b, 0, 1, &e), AK_OK);
        assert_int_equal(ak_walk_scene_step_range(b, 1, 3, &e), AK_OK);
    }
    const int32_t joints = ak_walk_scene_skeleton(a[0])->joint_count;
    for (int k = 0; k < 3; ++k)
        assert_memory_equal(ak_walk_scene_world_pose(a[k]), ak_walk_scene_world_pose(b[k]),
                            sizeof(ak_xform) * (size_t)joints);
    assert_int_equal(ak_walk_scene_step_range(b, 2, 1, &e), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "0 <= begin <= end (got 2, 1)"));
    assert_int_equal(ak_walk_scene_step_range(NULL, 0, 1, &e), AK_ERR_INVALID_ARG);
    ak_walk_scene *holes[2] = {b[0], NULL};
    assert_int_equal(ak_walk_scene_step_range(holes, 0, 2, &e), AK_ERR_INVALID_ARG);
    assert_string_equal(e.message, "scene 1: null scene");
    assert_int_equal(ak_walk_scene_step_range(b, 1, 1, &e), AK_OK); /* empty: nothing to do */
    for (int k = 0; k < 3; ++k) {
        ak_walk_scene_destroy(a[k]);
        ak_walk_scene_destroy(b[k]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(walk_scene_validity),
        cmocka_unit_test(builtin_scene_is_placed_and_steps),
        cmocka_unit_test(default_time_limit_follows_the_walk),
        cmocka_unit_test(start_heading_faces_both_walkers_and_captured_transitions_need_the_guide),
        cmocka_unit_test(errors_name_the_file),
        cmocka_unit_test(scene_range_steps_like_each_scene_in_turn),
        cmocka_unit_test(scene_reads_a_z_up_clip_by_the_scenario_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
