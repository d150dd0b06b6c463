/* The walk scene's steer match (src/scenario/walk_scene_match.c): every --clip and every .bvh
 * of --library read (one skeleton), the motion database and the matcher built, the label that
 * says how many clips were left out; refusals name the file. */
#include "test_util.h"

#include "animkit/edit.h"
#include "animkit/scenario.h"

/* Validity: steer match needs clips (a --clip or a --library), takes no --cycle or --idle and
 * no --no-captured-transitions, each refused by the scene before any file is read with the
 * rule in the message; the same scenario with a clip passes. */
static void match_scene_validity(void **state)
{
    (void)state;
    char path[1024];
    akt_mocap_path("cmu_02_01_walk.bvh", path, sizeof path);
    ak_walk_scenario_params s = ak_walk_scenario_defaults();
    s.steer = AK_WALK_STEER_MATCH;
    ak_walk_scene *scene = NULL;
    ak_error e;
    assert_int_equal(ak_walk_scene_create(&s, NULL, &scene, &e), AK_ERR_INVALID_ARG);
    assert_string_equal(e.message,
                        "--steer match needs --clip FILE.bvh (repeatable) or --library DIR");
    assert_null(scene);
    const struct {
        const char *what, *message;
    } rules[] = {{"cycle", "--cycle"}, {"idle", "--idle"}, {"transitions", "--no-captured"}};
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; ++i) {
        s = ak_walk_scenario_defaults();
        s.steer = AK_WALK_STEER_MATCH;
        snprintf(s.clip, sizeof s.clip, "%s", path);
        if (i == 0) {
            s.cycle[0] = 0;
            s.cycle[1] = 100;
        } else if (i == 1) {
            snprintf(s.idle, sizeof s.idle, "%.500s", path);
        } else {
            s.captured_transitions = 0;
        }
        assert_int_equal(ak_walk_scene_create(&s, NULL, &scene, &e), AK_ERR_INVALID_ARG);
        if (!strstr(e.message, rules[i].message)) fail_msg("%s: '%s'", rules[i].what, e.message);
        assert_null(scene);
    }
}

/* Steer match: the scene reads the clips, builds the database and the matcher, and its
 * character accessors are the matcher's. */
static void match_scene_builds_the_database_and_steps_the_matcher(void **state)
{
    (void)state;
    ak_walk_scenario_params s = ak_walk_scenario_defaults();
    s.steer = AK_WALK_STEER_MATCH;
    s.terrain = AK_WALK_TERRAIN_STAIRS;
    s.max_time = 3.0f;
    char path[1024];
    snprintf(s.clip, sizeof s.clip, "%s\n",
             akt_mocap_path("cmu_02_01_walk.bvh", path, sizeof path));
    akt_mocap_path("locomotion/cmu_02_02_walk.bvh", path, sizeof path);
    strncat(s.clip, path, sizeof s.clip - strlen(s.clip) - 1);
    ak_walk_scene *scene = NULL;
    ak_error e;
    assert_int_equal(ak_walk_scene_create(&s, NULL, &scene, &e), AK_OK);
    assert_null(ak_walk_scene_walker(scene));
    assert_null(ak_walk_scene_motion(scene));
    ak_matcher *m = ak_walk_scene_matcher(scene);
    assert_non_null(m);
    const ak_motion_db *db = ak_walk_scene_motion_db(scene);
    ak_motion_db_info dbi;
    ak_motion_db_get_info(db, &dbi);
    assert_int_equal(dbi.clip_count, 2);
    assert_string_equal(ak_motion_db_clip_name(db, 1), "cmu_02_02_walk.bvh");
    ak_walk_scene_info info;
    ak_walk_scene_get_info(scene, &info);
    assert_string_equal(info.clip_label, "motion database of 2 clips");
    assert_int_equal(info.frame, 1);
    AKT_NEAR(info.frame_time, dbi.frame_time, 0.0);
    assert_int_equal(info.max_frames, (int32_t)ceilf(3.0f / info.frame_time) + 1);
    /* The database's skeleton (CMU, 38 joints, metres) and its hips. */
    assert_ptr_equal(ak_walk_scene_skeleton(scene), ak_motion_db_skeleton(db));
    assert_int_equal(ak_walk_scene_skeleton(scene)->joint_count, 38);
    assert_int_equal(info.hips, ak_motion_db_humanoid(db)->joint[AK_HUM_HIPS]);
    ak_walker_state st;
    ak_walk_scene_get_state(scene, &st);
    AKT_NEAR(st.position.x, -6.0, 1e-4);
    AKT_NEAR(st.position.z, -4.0, 1e-4);
    assert_ptr_equal(ak_walk_scene_world_pose(scene), ak_matcher_world_pose(m));
    assert_ptr_equal(ak_walk_scene_local_pose(scene), ak_matcher_local_pose(m));
    for (int i = 0; i < 60; ++i)
        assert_int_equal(ak_walk_scene_step(scene, &e), AK_OK);
    ak_walk_scene_get_state(scene, &st);
    AKT_NEAR(st.time, 60.0 * info.frame_time, 1e-4);
    /* One second toward a target 14.4 m away at walking speeds (0.7-2.4 m/s in the data). */
    const double start_distance = sqrt(12.0 * 12.0 + 8.0 * 8.0);
    assert_true(st.distance < start_distance - 0.3 && st.distance > start_distance - 2.5);
    ak_matcher_info mi;
    ak_matcher_get_info(m, &mi);
    assert_true(mi.searches >= 1);
    /* A new target goes to the matcher; reset places it at the start again. */
    ak_walk_scene_set_target(scene, ak_vec3_make(-6.0f, 0.0f, 4.0f));
    ak_walk_scene_step(scene, &e);
    ak_walk_scene_get_state(scene, &st);
    AKT_NEAR(st.distance, hypot(st.position.x + 6.0, st.position.z - 4.0), 1e-4);
    ak_walk_scene_reset(scene);
    ak_walk_scene_get_info(scene, &info);
    assert_int_equal(info.frame, 1);
    ak_walk_scene_get_state(scene, &st);
    AKT_NEAR(st.position.x, -6.0, 1e-4);
    AKT_NEAR(st.position.z, -4.0, 1e-4);
    ak_walk_scene_destroy(scene);
    s.target[0] = 25.0f; /* the 40 m terrain spans -20..20 */
    assert_int_equal(ak_walk_scene_create(&s, NULL, &scene, &e), AK_ERR_INVALID_ARG);
    assert_string_equal(e.message, "--target 25,4 is outside the ground (x and z span -20..20 m)");
}

/* Steer match errors: a clip of another skeleton, a folder with no .bvh, a missing folder. */
static void match_scene_errors_name_the_file(void **state)
{
    (void)state;
    ak_walk_scenario_params s = ak_walk_scenario_defaults();
    s.steer = AK_WALK_STEER_MATCH;
    char a[1024], b[1024];
    akt_mocap_path("cmu_02_01_walk.bvh", a, sizeof a);
    akt_mocap_path("reactidle_003_genuine_idle.bvh", b, sizeof b);
    snprintf(s.clip, sizeof s.clip, "%s\n%s", a, b);
    ak_walk_scene *scene = NULL;
    ak_error e;
    assert_int_equal(ak_walk_scene_create(&s, NULL, &scene, &e), AK_ERR_INVALID_ARG);
    assert_null(scene);
    assert_non_null(strstr(e.message, "reactidle_003_genuine_idle.bvh has 26 joints but"));
    s.clip[0] = '\0';
    /* tests/data holds folders only: no .bvh of its own. */
    *strrchr(a, '/') = '\0';
    *strrchr(a, '/') = '\0';
    snprintf(s.library, sizeof s.library, "%.500s", a);
    assert_int_equal(ak_walk_scene_create(&s, NULL, &scene, &e), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "no .bvh file in the --library folder"));
    strncat(s.library, "/no-such-folder", sizeof s.library - strlen(s.library) - 1);
    assert_int_equal(ak_walk_scene_create(&s, NULL, &scene, &e), AK_ERR_IO);
    assert_non_null(strstr(e.message, "no-such-folder: cannot read folder: "));
}

/* A clip with no 1 s between cuts (here 0.66 s of 02_01, written to the build folder) has no
 * candidate: the label every surface shows counts it as left out, and every frame comes from
 * the other clip. (CMU 07_01 was such a clip until isolated glitch keys were repaired.) */
static void match_scene_label_counts_the_clips_left_out(void **state)
{
    (void)state;
    ak_walk_scenario_params s = ak_walk_scenario_defaults();
    s.steer = AK_WALK_STEER_MATCH;
    s.terrain = AK_WALK_TERRAIN_FLAT;
    char a[1024], b[1200];
    akt_mocap_path("cmu_02_01_walk.bvh", a, sizeof a);
    const char *bd = getenv("AK_BUILD_DIR");
    snprintf(b, sizeof b, "%.1000s/short_02_01.bvh", bd ? bd : ".");
    ak_skeleton *sk = NULL;
    ak_clip *full = NULL, *cut = NULL;
    ak_error e;
    assert_int_equal(ak_bvh_read_file(a, NULL, &sk, &full, &e), AK_OK);
    ak_edit_trim_params tp = ak_edit_trim_defaults();
    tp.first = 1;
    tp.last = 80;
    assert_int_equal(ak_edit_trim_run(&tp, full, &cut, &e), AK_OK);
    assert_int_equal(ak_bvh_write_file(b, sk, cut, AK_ORDER_ZXY, &e), AK_OK);
    ak_clip_destroy(cut);
    ak_clip_destroy(full);
    ak_skeleton_destroy(sk);
    snprintf(s.clip, sizeof s.clip, "%s\n%s", a, b);
    ak_walk_scene *scene = NULL;
    assert_int_equal(ak_walk_scene_create(&s, NULL, &scene, &e), AK_OK);
    ak_walk_scene_info info;
    ak_walk_scene_get_info(scene, &info);
    assert_string_equal(info.clip_label,
                        "motion database of 2 clips (1 left out: no 1 s between capture glitches)");
    const ak_motion_db *db = ak_walk_scene_motion_db(scene);
    ak_motion_db_info dbi;
    ak_motion_db_get_info(db, &dbi);
    int32_t clip = -1;
    float t;
    ak_motion_db_frame_source(db, dbi.frame_count - 1, &clip, &t);
    assert_int_equal(clip, 0);
    ak_walk_scene_destroy(scene);
}

/* The scene of one clip with steer match on the CLI's defaults: its status, and the message. */
static int32_t match_scene_of(const char *path, ak_error *e)
{
    ak_walk_scenario_params s = ak_walk_scenario_defaults();
    s.steer = AK_WALK_STEER_MATCH;
    s.terrain = AK_WALK_TERRAIN_FLAT;
    snprintf(s.clip, sizeof s.clip, "%s", path);
    ak_walk_scene *scene = NULL;
    const int32_t st = ak_walk_scene_create(&s, NULL, &scene, e);
    if (st != AK_OK) assert_null(scene);
    ak_walk_scene_destroy(scene);
    return st;
}

/* A database none of whose pieces walks by the guide walker's rule (ak_cycle_find) is refused
 * before a step, AK_ERR_NOT_FOUND as the guide refuses such a clip, with what was measured: the
 * idle (38.2 s standing), the dance and Louise's capture (she stands, turns and takes two short
 * steps: the guide refuses her too). A 1.05 s run (09_02: one step of each foot) walks. */
static void a_database_that_does_not_walk_is_refused(void **state)
{
    (void)state;
    char path[1024];
    ak_error e;
    assert_int_equal(
        match_scene_of(akt_mocap_path("reactidle_003_genuine_idle.bvh", path, sizeof path), &e),
        AK_ERR_NOT_FOUND);
    printf("%s\n", e.message);
    assert_string_equal(e.message,
                        "motion database: reactidle_003_genuine_idle.bvh: none of its 1 pieces "
                        "(38.2 s kept; the fastest travel over 1 s 0.04 m/s) holds a 0.45-1.80 s "
                        "stretch with one step of each foot going one way: no walking found");
    assert_int_equal(match_scene_of(akt_mocap_path("cmu_05_06_dance.bvh", path, sizeof path), &e),
                     AK_ERR_NOT_FOUND);
    assert_non_null(strstr(e.message, "motion database: cmu_05_06_dance.bvh: none of its 1 "));
    assert_int_equal(
        match_scene_of(akt_mocap_path("arena_louise_stand_walk_cycle.bvh", path, sizeof path), &e),
        AK_ERR_NOT_FOUND);
    assert_int_equal(
        match_scene_of(akt_mocap_path("locomotion/cmu_09_02_run.bvh", path, sizeof path), &e),
        AK_OK);
}

/* The default time limit (max_time 0) follows the matcher's walk: twice the straight route at
 * the speed it asks for far from the target (ak_matcher_params.walk_speed, 1.4 m/s) within the
 * database's fastest, at least 60 s: 60 s for the default route (14.42 m), and corner to corner
 * of the flat ground (53.74 m) more; a max_time given is kept. */
static void match_scene_time_limit_follows_its_walk(void **state)
{
    (void)state;
    ak_walk_scenario_params s = ak_walk_scenario_defaults();
    s.steer = AK_WALK_STEER_MATCH;
    s.terrain = AK_WALK_TERRAIN_FLAT;
    char path[1024];
    snprintf(s.clip, sizeof s.clip, "%s", akt_mocap_path("cmu_02_01_walk.bvh", path, sizeof path));
    for (int k = 0; k < 3; ++k) {
        if (k > 0) {
            s.start[0] = s.start[1] = -19.0f;
            s.target[0] = s.target[1] = 19.0f;
        }
        if (k == 2) s.max_time = 60.0f;
        ak_walk_scene *scene = NULL;
        ak_error e;
        assert_int_equal(ak_walk_scene_create(&s, NULL, &scene, &e), AK_OK);
        ak_motion_db_info dbi;
        ak_motion_db_get_info(ak_walk_scene_motion_db(scene), &dbi);
        ak_walk_scene_info info;
        ak_walk_scene_get_info(scene, &info);
        const double speed = fmin(1.4, (double)dbi.max_speed);
        const double route = k == 0 ? sqrt(12.0 * 12.0 + 8.0 * 8.0) : sqrt(2.0 * 38.0 * 38.0);
        const double t = k == 2 ? 60.0 : fmax(2.0 * route / speed, 60.0);
        printf("route %.2f m at %.3f m/s (database's fastest %.3f): %.1f s, %d frames\n", route,
               speed, (double)dbi.max_speed, t, (int)info.max_frames);
        assert_true(k != 1 || t > 60.0);
        assert_int_equal(info.max_frames, (int32_t)ceil(t / (double)info.frame_time) + 1);
        ak_walk_scene_destroy(scene);
    }
}

/* Debian assimp-testmodels' CMU 01_01 (make deps; AK_ASSIMP_BVH_DIR names another folder):
 * standing broad jumps with turning steps between. Its jumps are left out (db.c off_floor); the
 * turning steps left (5 pieces, 8.6 s) hold no walk, and the matcher crept 5.5 m of the
 * route's 14.1 m in 60 s. Now refused, naming the clip, its pieces and its fastest travel over
 * 1 s (the candidates' trajectory at +1 s: 0.38 m/s, a turning step). The guide walker walks
 * the source (a cycle over a jump): the rule runs on what the database keeps. */
static void a_capture_of_jumps_and_turns_is_refused(void **state)
{
    (void)state;
    char path[1024];
    if (!akt_assimp_bvh("01_01.bvh", path, sizeof path)) {
        skip();
        return;
    }
    ak_error e;
    assert_int_equal(match_scene_of(path, &e), AK_ERR_NOT_FOUND);
    printf("%s\n", e.message);
    assert_string_equal(e.message,
                        "motion database: 01_01.bvh: none of its 5 pieces (8.6 s kept; the "
                        "fastest travel over 1 s 0.38 m/s) holds a 0.45-1.80 s stretch with one "
                        "step of each foot going one way: no walking found");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(match_scene_validity),
        cmocka_unit_test(match_scene_builds_the_database_and_steps_the_matcher),
        cmocka_unit_test(match_scene_errors_name_the_file),
        cmocka_unit_test(match_scene_label_counts_the_clips_left_out),
        cmocka_unit_test(a_database_that_does_not_walk_is_refused),
        cmocka_unit_test(a_capture_of_jumps_and_turns_is_refused),
        cmocka_unit_test(match_scene_time_limit_follows_its_walk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
