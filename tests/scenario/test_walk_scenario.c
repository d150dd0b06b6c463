/* The walk scenario (src/scenario/walk_scenario.c): its table's defaults are the documented
 * ones, the rules between flags, and URL and flags giving one scenario. The scene it builds:
 * test_walk_scene.c (guide walker) and test_walk_scene_match.c (steer match). */
#include "test_util.h"

#include "animkit/scenario.h"

static void defaults_are_the_documented_ones(void **state)
{
    (void)state;
    const ak_walk_scenario_params s = ak_walk_scenario_defaults();
    assert_string_equal(s.clip, "");
    assert_string_equal(s.idle, "");
    assert_string_equal(s.heightmap, "");
    assert_int_equal(s.cycle[0], -1);
    assert_int_equal(s.cycle[1], -1);
    assert_true(s.scale == 0.0f);
    assert_int_equal(s.terrain, AK_WALK_TERRAIN_HILLS);
    assert_true(s.size == 40.0f && s.height == 3.0f);
    assert_int_equal(s.seed, 1);
    assert_true(s.start[0] == -6.0f && s.start[1] == -4.0f);
    assert_true(s.target[0] == 6.0f && s.target[1] == 4.0f);
    assert_true(s.max_time == 0.0f); /* follows the walk (walk_scene_internal.h) */
    assert_int_equal(s.steer, AK_STEER_CYCLE);
    assert_true(s.turn_rate_deg == 90.0f && s.arrival == 0.3f);
    assert_int_equal(s.foot_ik, 1);
    assert_int_equal(ak_walk_scenario_validate(&s, NULL), AK_OK);
}

static void rules_between_flags(void **state)
{
    (void)state;
    ak_error e;
    ak_walk_scenario_params s = ak_walk_scenario_defaults();
    s.cycle[0] = 3;
    s.cycle[1] = 9;
    assert_int_equal(ak_walk_scenario_validate(&s, &e), AK_ERR_INVALID_ARG);
    assert_string_equal(e.message, "--cycle needs --clip");
    snprintf(s.clip, sizeof s.clip, "walk.bvh");
    assert_int_equal(ak_walk_scenario_validate(&s, &e), AK_OK);
    s.cycle[1] = 3; /* empty cycle */
    assert_int_equal(ak_walk_scenario_validate(&s, &e), AK_ERR_INVALID_ARG);
    s = ak_walk_scenario_defaults();
    s.size = 10.0f;
    assert_int_equal(ak_walk_scenario_validate(&s, &e), AK_ERR_INVALID_ARG);
    snprintf(s.heightmap, sizeof s.heightmap, "hm.pgm");
    assert_int_equal(ak_walk_scenario_validate(&s, &e), AK_OK);
    s = ak_walk_scenario_defaults();
    s.steer = 3;
    assert_int_equal(ak_walk_scenario_validate(&s, &e), AK_ERR_INVALID_ARG);
    /* Several clips (a motion database) or a library are for motion matching only. */
    s = ak_walk_scenario_defaults();
    snprintf(s.clip, sizeof s.clip, "a.bvh\nb.bvh");
    assert_int_equal(ak_walk_scenario_validate(&s, &e), AK_ERR_INVALID_ARG);
    assert_string_equal(e.message, "several --clip files or --library need --steer match");
    s.steer = AK_WALK_STEER_MATCH;
    assert_int_equal(ak_walk_scenario_validate(&s, &e), AK_OK);
    snprintf(s.idle, sizeof s.idle, "idle.bvh");
    assert_int_equal(ak_walk_scenario_validate(&s, &e), AK_ERR_INVALID_ARG);
    s = ak_walk_scenario_defaults();
    snprintf(s.library, sizeof s.library, "clips/");
    assert_int_equal(ak_walk_scenario_validate(&s, &e), AK_ERR_INVALID_ARG);
    s.steer = AK_WALK_STEER_MATCH;
    assert_int_equal(ak_walk_scenario_validate(&s, &e), AK_OK);
    s.library[0] = '\0'; /* matching needs clips */
    assert_int_equal(ak_walk_scenario_validate(&s, &e), AK_ERR_INVALID_ARG);
    assert_string_equal(e.message,
                        "--steer match needs --clip FILE.bvh (repeatable) or --library DIR");
    s = ak_walk_scenario_defaults();
    s.arrival = -1.0f;
    assert_int_equal(ak_walk_scenario_validate(&s, &e), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "arrival"));
}

/* The web page's URL and the CLI's flags describe the same scenario. */
static void url_and_flags_give_the_same_scenario(void **state)
{
    (void)state;
    ak_walk_scenario_params a = ak_walk_scenario_defaults(), b = ak_walk_scenario_defaults();
    const char *argv[] = {"walk",
                          "--terrain",
                          "stairs",
                          "--start",
                          "-2,1",
                          "--target",
                          "5,0",
                          "--steer",
                          "continuous",
                          "--no-foot-ik",
                          "--max-time",
                          "12.5",
                          "--no-captured-transitions"};
    const ak_flag_table *tables[1] = {ak_walk_scenario_flags()};
    void *params[1] = {&a};
    ak_flags_result r;
    ak_error e;
    assert_int_equal(ak_flags_parse_args(tables, params, 1, 13, argv, 0, &r, &e), AK_OK);
    assert_int_equal(ak_flags_parse_query(ak_walk_scenario_flags(), &b,
                                          "terrain=stairs&start=-2%2C1&target=5,0&steer=continuous"
                                          "&no-foot-ik&max-time=12.5&no-captured-transitions",
                                          &r, &e),
                     AK_OK);
    assert_memory_equal(&a, &b, sizeof a);
    assert_int_equal(a.terrain, AK_WALK_TERRAIN_STAIRS);
    assert_int_equal(a.steer, AK_STEER_CONTINUOUS);
    assert_int_equal(a.foot_ik, 0);
    assert_int_equal(a.captured_transitions, 0);
    assert_int_equal(ak_walk_scenario_defaults().captured_transitions, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_are_the_documented_ones),
        cmocka_unit_test(rules_between_flags),
        cmocka_unit_test(url_and_flags_give_the_same_scenario),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
