/* Motion matching through the plugin ABI, as an engine drives it: a database from three BVH
 * loads of CMU subject 2 (metres at load), its blob saved and loaded back, a matcher walking
 * in Unity's frame on a flat floor with the engine's two phases (no library controller), and
 * the error paths. */
#include "test_util.h"

#include "animkit/plugin.h"

static void load(const char *name, ak_handle *sk, ak_handle *clip)
{
    char path[1200], err[256];
    akt_mocap_path(name, path, sizeof path);
    assert_int_equal(ak_plugin_bvh_load(path, 0.056444f, 0, sk, clip, err, sizeof err), AK_OK);
}

/* One engine frame on the plane y = 0: move by the wanted displacement, cast the rays. */
static void engine_frame(ak_handle m, float dt)
{
    ak_vec3 move;
    ak_plugin_ray rays[AK_PLUGIN_CHARACTER_MAX_RAYS];
    ak_plugin_ground_hit hits[AK_PLUGIN_CHARACTER_MAX_RAYS];
    int32_t n = 0;
    assert_int_equal(ak_plugin_matcher_begin(m, dt, &move), AK_OK);
    assert_int_equal(ak_plugin_matcher_ground_rays(m, rays, AK_PLUGIN_CHARACTER_MAX_RAYS, &n),
                     AK_OK);
    assert_int_equal(n, AK_MATCHER_RAY_COUNT); /* centre, soles, toes, landings */
    for (int i = 0; i < n; ++i) {
        hits[i].hit = 1;
        hits[i].height = 0.0f;
        hits[i].normal = ak_vec3_make(0, 1, 0);
    }
    assert_int_equal(ak_plugin_matcher_finish(m, hits, n), AK_OK);
}

static void plugin_matcher_walks_to_a_target_in_unitys_frame(void **state)
{
    (void)state;
    ak_handle sk[3], clips[3];
    load("cmu_02_01_walk.bvh", &sk[0], &clips[0]);
    load("locomotion/cmu_02_02_walk.bvh", &sk[1], &clips[1]);
    load("locomotion/cmu_02_03_run.bvh", &sk[2], &clips[2]);
    char err[256];
    ak_handle db = NULL, back = NULL;
    assert_int_equal(ak_plugin_motion_db_create(sk[0], clips, 3, NULL, &db, err, sizeof err),
                     AK_OK);
    ak_plugin_motion_db_info info;
    assert_int_equal(ak_plugin_motion_db_info_get(db, &info), AK_OK);
    assert_int_equal(info.joint_count, 38);
    assert_true(info.candidate_count > 100);
    /* the blob through a file */
    char path[1200];
    const char *b = getenv("AK_BUILD_DIR");
    snprintf(path, sizeof path, "%s/plugin_subject2.akmdb", b ? b : ".");
    assert_int_equal(ak_plugin_motion_db_save(db, path), AK_OK);
    assert_int_equal(ak_plugin_motion_db_load(path, &back, err, sizeof err), AK_OK);
    remove(path);
    ak_plugin_motion_db_info info2;
    assert_int_equal(ak_plugin_motion_db_info_get(back, &info2), AK_OK);
    assert_memory_equal(&info, &info2, sizeof info);
    /* walk from the origin to (2, 0, -4) (Unity: -Z is the BVH's forward) on the loaded copy */
    ak_plugin_matcher_params p;
    assert_int_equal(ak_plugin_matcher_defaults(&p), AK_OK);
    p.target = ak_vec3_make(2.0f, 0.0f, -4.0f);
    ak_handle m = NULL;
    assert_int_equal(ak_plugin_matcher_create(back, &p, &m, err, sizeof err), AK_OK);
    /* the matcher keeps the database alive */
    assert_int_equal(ak_plugin_destroy(back), AK_OK);
    ak_plugin_matcher_state s;
    int f = 0;
    for (; f < 60 * 20; ++f) {
        engine_frame(m, 1.0f / 60.0f);
        assert_int_equal(ak_plugin_matcher_state_get(m, &s), AK_OK);
        if (s.stopped) break;
    }
    const float dx = s.position.x - 2.0f, dz = s.position.z + 4.0f;
    printf("stopped after %.2f s at %.3f m from the target, %d transitions\n", (double)s.time,
           (double)sqrtf(dx * dx + dz * dz), (int)s.transitions);
    assert_true(s.arrived && s.stopped);
    assert_true(sqrtf(dx * dx + dz * dz) <= p.arrival_radius);
    assert_true(s.transitions > 0);
    for (int k = 0; k < 2; ++k)
        assert_true(fabsf(s.sole[k].y) < 0.005f); /* both soles on the floor */
    /* The walk's measures over every frame stepped, beside the database's own: on the flat
     * floor no point below it (issue 21's 5 mm), the knee within max(source, 75) + 25 degrees;
     * the source's hips accelerate both ways. The skate (every heel and toe the database has
     * down and on the ground, held or not): issue 21's 1 cm/s on average (3.2 mm/s) and at its
     * worst no faster than the database's own worst (0.11 m/s against subject 2's 0.2785 m/s,
     * measured in test_match_physics.c's subject 2 rows), since a foot whose stance waits stays
     * where it stands (matcher.c touchdown_hold; before, transitions' landings slid on). */
    ak_plugin_walk_summary sum;
    assert_int_equal(ak_plugin_matcher_summary_get(m, &sum), AK_OK);
    assert_int_equal(ak_plugin_matcher_summary_get(m, NULL), AK_ERR_INVALID_ARG);
    printf("matcher summary: %d frames, deepest %.5f m, skate %.5f m/s (worst %.5f), hips "
           "%.2f..%.2f g (source %.2f..%.2f), knee %.1f deg (source %.1f), drag %.4f m/s (source "
           "%.4f)\n",
           (int)sum.frames, (double)sum.deepest_any_phase, (double)sum.skate, (double)sum.max_skate,
           (double)sum.hip_accel_min_g, (double)sum.hip_accel_max_g,
           (double)sum.source_hip_accel_min_g, (double)sum.source_hip_accel_max_g,
           (double)sum.knee_peak_deg, (double)sum.source_knee_peak_deg, (double)sum.drag_m_s,
           (double)sum.source_drag_m_s);
    assert_int_equal(sum.frames, f + 1);
    assert_true(sum.deepest_planted <= sum.deepest_any_phase && sum.deepest_any_phase <= 0.005f);
    assert_true(sum.skate > 0.0f && sum.skate < 0.01f);
    assert_true(isfinite(sum.max_skate) && sum.max_skate >= sum.skate && sum.max_skate <= 0.2785f);
    assert_true(sum.source_hip_accel_min_g < 0.0f && sum.source_hip_accel_max_g > 0.0f);
    assert_true(sum.knee_peak_deg > 0.0f &&
                sum.knee_peak_deg <= fmaxf(sum.source_knee_peak_deg, 75.0f) + 25.0f);
    /* drag: measured, against a bound from the database (its fastest for that point that low,
     * at least 1 cm/s); the matcher's drag is still out on most rows of test_match_physics.c
     * (k_drag_out), so printed, not bounded here */
    assert_true(isfinite(sum.drag_m_s) && sum.drag_m_s > 0.0f &&
                sum.source_drag_m_s >= AK_WALK_DRAG_FLOOR);
    ak_plugin_xform local[64], model[64];
    assert_int_equal(ak_plugin_matcher_pose(m, local, model, 64), AK_OK);
    assert_int_equal(ak_plugin_matcher_pose(m, local, model, 10), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_matcher_begin(m, 0.0f, &(ak_vec3){0, 0, 0}), AK_ERR_INVALID_ARG);
    char dt_err[128];
    ak_plugin_last_error(m, dt_err, sizeof dt_err);
    assert_string_equal(dt_err, "dt = 0: must be in (0, 10] seconds"); /* as the character says */
    assert_int_equal(ak_plugin_destroy(m), AK_OK);
    assert_int_equal(ak_plugin_destroy(db), AK_OK);
    for (int i = 0; i < 3; ++i) {
        ak_plugin_destroy(sk[i]);
        ak_plugin_destroy(clips[i]);
    }
    assert_int_equal(ak_plugin_live_handles(), 0);
}

static void plugin_matching_refuses_bad_handles_and_blobs(void **state)
{
    (void)state;
    char err[256];
    ak_handle db = NULL, m = NULL;
    const ak_handle none[1] = {NULL};
    assert_int_equal(ak_plugin_motion_db_create(NULL, none, 1, NULL, &db, err, sizeof err),
                     AK_PLUGIN_ERR_HANDLE);
    assert_null(db);
    assert_true(strlen(err) > 0);
    const char junk[40] = "not a motion database at all";
    assert_int_equal(ak_plugin_motion_db_load_memory(junk, sizeof junk, &db, err, sizeof err),
                     AK_ERR_PARSE);
    assert_non_null(strstr(err, "magic"));
    ak_plugin_matcher_params p;
    ak_plugin_matcher_defaults(&p);
    assert_int_equal(ak_plugin_matcher_create(NULL, &p, &m, err, sizeof err), AK_PLUGIN_ERR_HANDLE);
    assert_int_equal(ak_plugin_matcher_begin(NULL, 0.1f, &(ak_vec3){0, 0, 0}),
                     AK_PLUGIN_ERR_HANDLE);
    /* floats: out-of-range parameters and coordinates are refused with a message; garbage
     * hits count as no ground and the outputs stay finite */
    ak_handle sk, clip;
    {
        char path[1200];
        akt_mocap_path("locomotion/cmu_02_02_walk.bvh", path, sizeof path);
        assert_int_equal(ak_plugin_bvh_load(path, 0.056444f, 0, &sk, &clip, err, sizeof err),
                         AK_OK);
    }
    assert_int_equal(ak_plugin_motion_db_create(sk, &clip, 1, NULL, &db, err, sizeof err), AK_OK);
    const float bad[4] = {NAN, INFINITY, 1e30f, -1.0f};
    for (int i = 0; i < 4; ++i) {
        ak_plugin_matcher_defaults(&p);
        p.walk_speed = bad[i];
        assert_int_equal(ak_plugin_matcher_create(db, &p, &m, err, sizeof err), AK_ERR_INVALID_ARG);
        assert_non_null(strstr(err, "walk_speed"));
    }
    ak_plugin_matcher_defaults(&p);
    assert_int_equal(ak_plugin_matcher_create(db, &p, &m, err, sizeof err), AK_OK);
    const ak_vec3 far = {1e30f, 0, 0}, nan3 = {NAN, 0, 0};
    assert_int_equal(ak_plugin_matcher_set_target(m, &far), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_plugin_matcher_set_position(m, &nan3), AK_ERR_INVALID_ARG);
    ak_vec3 move;
    ak_plugin_ray rays[AK_PLUGIN_CHARACTER_MAX_RAYS];
    ak_plugin_ground_hit hits[AK_PLUGIN_CHARACTER_MAX_RAYS];
    for (int f = 0; f < 30; ++f) {
        int32_t n = 0;
        assert_int_equal(ak_plugin_matcher_begin(m, 1.0f / 60.0f, &move), AK_OK);
        assert_int_equal(ak_plugin_matcher_ground_rays(m, rays, AK_PLUGIN_CHARACTER_MAX_RAYS, &n),
                         AK_OK);
        for (int i = 0; i < n; ++i) {
            hits[i].hit = 1;
            hits[i].height = i == 1 ? NAN : 1e30f;
            hits[i].normal = ak_vec3_make(0, i == 2 ? NAN : 1, 0);
        }
        assert_int_equal(ak_plugin_matcher_finish(m, hits, n), AK_OK);
    }
    ak_plugin_xform pose[64];
    assert_int_equal(ak_plugin_matcher_pose(m, pose, NULL, 64), AK_OK);
    for (int j = 0; j < 38; ++j)
        assert_true(isfinite(pose[j].position.x) && isfinite(pose[j].position.y) &&
                    isfinite(pose[j].position.z) && isfinite(pose[j].rotation.w));
    ak_plugin_destroy(m);
    ak_plugin_destroy(db);
    ak_plugin_destroy(sk);
    ak_plugin_destroy(clip);
    assert_int_equal(ak_plugin_live_handles(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plugin_matcher_walks_to_a_target_in_unitys_frame),
        cmocka_unit_test(plugin_matching_refuses_bad_handles_and_blobs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
