/* The locomotion range tables (src/locomotion/param_ranges.c): each table's shape (one entry
 * per field, inside its struct, finite ordered bounds), the defaults pass, and the documented
 * bounds (rates from 1e-3/s, the walker's turn rate 1e-3 .. 1e5 deg/s in rad/s, its start
 * heading NaN = "face the target", the built-in walk's hip height below 0.91 m). */
#include "test_params.h"

static void every_table_has_its_shape_and_the_defaults_pass(void **state)
{
    (void)state;
    ak_error err;
    const ak_foot_ik_params foot = ak_foot_ik_defaults();
    const ak_walker_params walker = ak_walker_defaults();
    const ak_controller_params ctl = ak_controller_defaults();
    const ak_contact_params contact = ak_contact_defaults();
    const ak_reach_params reach = ak_reach_defaults();
    const ak_terrain_params terrain = ak_terrain_defaults();
    const ak_walk_clip_params clip = ak_walk_clip_defaults();
    akt_check_table_shape(ak_foot_ik_param_ranges(), "ak_foot_ik_params", sizeof foot);
    akt_check_table_shape(ak_walker_param_ranges(), "ak_walker_params", sizeof walker);
    akt_check_table_shape(ak_controller_param_ranges(), "ak_controller_params", sizeof ctl);
    akt_check_table_shape(ak_contact_param_ranges(), "ak_contact_params", sizeof contact);
    akt_check_table_shape(ak_reach_param_ranges(), "ak_reach_params", sizeof reach);
    akt_check_table_shape(ak_terrain_param_ranges(), "ak_terrain_params", sizeof terrain);
    akt_check_table_shape(ak_walk_clip_param_ranges(), "ak_walk_clip_params", sizeof clip);
    assert_int_equal(ak_params_check(ak_foot_ik_param_ranges(), &foot, &err), AK_OK);
    assert_int_equal(ak_params_check(ak_walker_param_ranges(), &walker, &err), AK_OK);
    assert_int_equal(ak_params_check(ak_controller_param_ranges(), &ctl, &err), AK_OK);
    assert_int_equal(ak_params_check(ak_contact_param_ranges(), &contact, &err), AK_OK);
    assert_int_equal(ak_params_check(ak_reach_param_ranges(), &reach, &err), AK_OK);
    assert_int_equal(ak_params_check(ak_terrain_param_ranges(), &terrain, &err), AK_OK);
    assert_int_equal(ak_params_check(ak_walk_clip_param_ranges(), &clip, &err), AK_OK);
}

static void documented_bounds(void **state)
{
    (void)state;
    const ak_param_table *w = ak_walker_param_ranges();
    akt_expect_range(w, "turn_rate", 1.745e-5f, 1745.33f, 0);
    akt_expect_range(w, "start_heading", -1e6f, 1e6f, 1);
    akt_expect_range(w, "start.x", -1e6f, 1e6f, 0);
    /* 1e-3 deg/s and 1e5 deg/s in rad/s, to the digits the table writes */
    AKT_NEAR(ak_param_find(w, "turn_rate")->lo, 1e-3 * 3.14159265358979 / 180.0,
             5e-9); /* 4 digits */
    AKT_NEAR(ak_param_find(w, "turn_rate")->hi, 1e5 * 3.14159265358979 / 180.0, 0.01);
    const ak_param_table *f = ak_foot_ik_param_ranges();
    akt_expect_range(f, "weight", 0.0f, 1.0f, 0);
    akt_expect_range(f, "hip_drop_rate", 1e-3f, 1e3f, 0);
    akt_expect_range(f, "pole_distance", -100.0f, 100.0f, 0);
    const ak_param_table *k = ak_contact_param_ranges();
    akt_expect_range(k, "height_on", 1e-6f, 10.0f, 0);
    akt_expect_range(k, "body_speed_fraction", 0.0f, 10.0f, 0);
    akt_expect_range(ak_reach_param_ranges(), "fade_rate", 1e-3f, 1e4f, 0);
    akt_expect_range(ak_terrain_param_ranges(), "step_height", 1e-3f, 0.5f, 0);
    akt_expect_range(ak_walk_clip_param_ranges(), "hip_height", 0.4f, 0.91f, 0);
    akt_expect_range(ak_walk_clip_param_ranges(), "duty_factor", 0.5f, 0.8f, 0);
    akt_expect_range(ak_controller_param_ranges(), "radius", 1e-3f, 10.0f, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_table_has_its_shape_and_the_defaults_pass),
        cmocka_unit_test(documented_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
