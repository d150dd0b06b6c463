/* The matcher's range table (src/matching/param_ranges.c): its shape (one entry per field,
 * inside the struct, finite ordered bounds), the defaults pass, and the documented bounds
 * (the start heading NaN = "face the target", the turn rate up to 1e5 deg/s in rad/s). */
#include "test_params.h"

static void the_table_has_its_shape_and_the_defaults_pass(void **state)
{
    (void)state;
    ak_error err;
    const ak_matcher_params d = ak_matcher_defaults();
    const ak_param_table *t = ak_matcher_param_ranges();
    akt_check_table_shape(t, "ak_matcher_params", sizeof d);
    assert_int_equal(ak_params_check(t, &d, &err), AK_OK);
}

static void documented_bounds(void **state)
{
    (void)state;
    const ak_param_table *t = ak_matcher_param_ranges();
    akt_expect_range(t, "start.z", -1e6f, 1e6f, 0);
    akt_expect_range(t, "target.x", -1e6f, 1e6f, 0);
    akt_expect_range(t, "start_heading", -1e6f, 1e6f, 1);
    akt_expect_range(t, "walk_speed", 1e-2f, 20.0f, 0);
    akt_expect_range(t, "turn_rate", 0.0f, 1745.33f, 0);
    AKT_NEAR(ak_param_find(t, "turn_rate")->hi, 1e5 * 3.14159265358979 / 180.0, 0.01);
    akt_expect_range(t, "transition_cost", 0.0f, 1e6f, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_table_has_its_shape_and_the_defaults_pass),
        cmocka_unit_test(documented_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
