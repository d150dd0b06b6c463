/* The walk summary every surface prints (src/scenario/walk_summary.c): the figures in their
 * order, each equal to the measures fed frame by frame by hand (ak_walk_metrics_* as
 * walkmetrics.h documents them), the deepest point while planted never deeper than the
 * deepest in any phase, the source's figures only for the guide walker, and bad arguments. */
#include "test_util.h"
#include "walk_summary_keys.h"

#include "animkit/scenario.h"
#include "animkit/walkmetrics.h"

/* The value after "key": in a JSON line; fails when it is missing. */
static double json_value(const char *line, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *k = strstr(line, pat);
    if (!k) fail_msg("%s missing in %s", key, line);
    return strtod(k + strlen(pat), NULL);
}

/* The built-in walk over the hills, 4 m, every frame in both the summary and a hand-fed
 * ak_walk_metrics; the line names every figure in order and equals the hand-fed ones. */
static void summary_line_is_the_measures_of_every_frame(void **state)
{
    (void)state;
    ak_walk_scenario_params p = ak_walk_scenario_defaults();
    p.start[0] = -2.0f;
    p.start[1] = 0.0f;
    p.target[0] = 2.0f;
    p.target[1] = 0.0f;
    ak_walk_scene *scene = NULL;
    ak_error e;
    assert_int_equal(ak_walk_scene_create(&p, NULL, &scene, &e), AK_OK);
    ak_walk_summary sum;
    assert_int_equal(ak_walk_summary_begin(&sum, scene, &e), AK_OK);
    assert_true(sum.has_source);
    ak_walk_metrics hand, src;
    ak_walk_metrics_reset(&hand);
    const ak_humanoid *h = ak_walk_motion_humanoid(ak_walk_scene_motion(scene));
    const int32_t upper[2] = {h->joint[AK_HUM_LEFT_UPPER_LEG], h->joint[AK_HUM_RIGHT_UPPER_LEG]};
    const int32_t lower[2] = {h->joint[AK_HUM_LEFT_LOWER_LEG], h->joint[AK_HUM_RIGHT_LOWER_LEG]};
    const int32_t foot[2] = {h->joint[AK_HUM_LEFT_FOOT], h->joint[AK_HUM_RIGHT_FOOT]};
    ak_walk_metrics_set_legs(&hand, upper, lower, foot);
    assert_int_equal(ak_walk_metrics_source(ak_walk_scene_motion(scene), &src, &e), AK_OK);
    ak_walk_scene_info info;
    ak_walk_scene_get_info(scene, &info);
    ak_walker_state st;
    for (int32_t f = 0; f < info.max_frames; ++f) {
        ak_walk_summary_add(&sum, scene, f == 0);
        ak_walk_scene_get_origin_state(scene, &st);
        ak_walk_metrics_add(&hand, &st, ak_walk_scene_origin_pose(scene), info.hips,
                            f == 0 ? 0.0f : info.frame_time);
        if (st.stopped) break;
        assert_int_equal(ak_walk_scene_step(scene, &e), AK_OK);
    }
    char line[2048];
    assert_int_equal(ak_walk_summary_json(&sum, scene, line, sizeof line, &e), AK_OK);
    printf("%s\n", line);
    akt_check_walk_summary_keys(line);
    /* the built-in clip loops already: its start and stop are the walker's own, and said so */
    assert_non_null(strstr(line, "\"start\":\"procedural\",\"start_why\":\"procedural (captured "
                                 "starts and stops not looked for)\",\"stop\":\"procedural\""));
    assert_non_null(strstr(line, "\"arrived\":true"));
    assert_true(json_value(line, "frames") == (double)hand.frames);
    AKT_NEAR(json_value(line, "deepest_any_phase"), hand.deepest, 1e-5);
    AKT_NEAR(json_value(line, "deepest_planted"), hand.deepest_planted, 1e-5);
    AKT_NEAR(json_value(line, "skate"), hand.skate, 1e-5);
    AKT_NEAR(json_value(line, "max_skate"), hand.max_skate, 1e-5);
    AKT_NEAR(json_value(line, "hip_accel_min_g"), hand.hip_accel_min_g, 0.006);
    AKT_NEAR(json_value(line, "hip_accel_max_g"), hand.hip_accel_max_g, 0.006);
    AKT_NEAR(json_value(line, "knee_peak_deg"), AKT_DEG(hand.knee_peak), 0.06);
    AKT_NEAR(json_value(line, "source_hip_accel_min_g"), src.hip_accel_min_g, 0.006);
    AKT_NEAR(json_value(line, "source_knee_peak_deg"), AKT_DEG(src.knee_peak), 0.06);
    /* drag: the physics tables' figure (walk_physics.h within_bounds reads the same
     * ak_walk_metrics_drag_worst of the walk's measures against the source's) */
    ak_walk_drag drag;
    assert_int_equal(ak_walk_metrics_drag_worst(&hand, &src, &drag), AK_OK);
    printf("drag %.4f m/s (bound %.4f), frame %d, %s %s; source per point: left %.4f %.4f, right "
           "%.4f %.4f\n",
           (double)drag.speed, (double)drag.bound, (int)drag.frame, drag.side ? "right" : "left",
           drag.point ? "toe" : "heel", (double)src.drag[0][0], (double)src.drag[0][1],
           (double)src.drag[1][0], (double)src.drag[1][1]);
    AKT_NEAR(json_value(line, "drag_m_s"), drag.speed, 6e-4);
    AKT_NEAR(json_value(line, "source_drag_m_s"), drag.bound, 6e-4);
    assert_true(drag.frame > 0 && drag.speed > 0.0f);
    /* the built-in clip's bounds: its planted points move 0 (its worst skate under 0.1 mm/s,
     * the cycle's seam included: the root's loop end is the wrap step's cubic, rootmotion.c),
     * so each point's fastest that low is a touchdown's last frame or a lift-off's first, well
     * above the 1 cm/s floor (0.12-0.27 m/s) */
    printf("built-in source worst skate %.3g m/s\n", (double)src.max_skate);
    assert_true(src.max_skate < 1e-4f);
    for (int k = 0; k < 2; ++k)
        for (int p = 0; p < 2; ++p)
            assert_true(src.drag[k][p] > 10.0f * AK_WALK_DRAG_FLOOR);
    /* a planted point is a point in some phase: never deeper than the deepest of all */
    assert_true(hand.deepest_planted <= hand.deepest);
    /* a knee and a hip acceleration were measured at all */
    assert_true(hand.knee_peak > AKT_RAD(10.0f) && hand.hip_accel_max_g > 0.0f);
    /* too small a buffer: AK_ERR_LIMIT; NULLs refused */
    assert_int_equal(ak_walk_summary_json(&sum, scene, line, 40, &e), AK_ERR_LIMIT);
    assert_int_equal(ak_walk_summary_json(NULL, scene, line, sizeof line, &e), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_walk_summary_begin(&sum, NULL, &e), AK_ERR_INVALID_ARG);
    ak_walk_summary_add(NULL, scene, 0); /* no crash */
    ak_walk_scene_destroy(scene);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(summary_line_is_the_measures_of_every_frame),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
