/* The IK range tables (src/ik/param_ranges.c): each table's shape (one entry per field, inside
 * its struct, finite ordered bounds) and the documented bounds of ik.h: positions within 1e6
 * of the origin, tolerances a fraction of the chain (aim, look-at: radians up to pi), weights
 * 0..1, the limb's soft limit below 1, DLS damping up to 10, step up to pi. The defaults pass
 * every table (the per-solver tests probe each field through the solver's own _validate). */
#include "test_params.h"

#define PI_F 3.14159265f

static void every_table_has_its_shape_and_the_defaults_pass(void **state)
{
    (void)state;
    ak_error err;
    const ak_limb_ik_params limb = ak_limb_ik_defaults();
    const ak_chain_ik_params chain = ak_chain_ik_defaults();
    const ak_jacobian_ik_params jac = ak_jacobian_ik_defaults();
    const ak_aim_ik_params aim = ak_aim_ik_defaults();
    const ak_look_at_params look = ak_look_at_defaults();
    const ak_ik_any_params any = ak_ik_any_defaults();
    akt_check_table_shape(ak_limb_ik_param_ranges(), "ak_limb_ik_params", sizeof limb);
    akt_check_table_shape(ak_chain_ik_param_ranges(), "ak_chain_ik_params", sizeof chain);
    akt_check_table_shape(ak_jacobian_ik_param_ranges(), "ak_jacobian_ik_params", sizeof jac);
    akt_check_table_shape(ak_aim_ik_param_ranges(), "ak_aim_ik_params", sizeof aim);
    akt_check_table_shape(ak_look_at_param_ranges(), "ak_look_at_params", sizeof look);
    akt_check_table_shape(ak_ik_any_param_ranges(), "ak_ik_any_params", sizeof any);
    assert_int_equal(ak_params_check(ak_limb_ik_param_ranges(), &limb, &err), AK_OK);
    assert_int_equal(ak_params_check(ak_chain_ik_param_ranges(), &chain, &err), AK_OK);
    assert_int_equal(ak_params_check(ak_jacobian_ik_param_ranges(), &jac, &err), AK_OK);
    assert_int_equal(ak_params_check(ak_aim_ik_param_ranges(), &aim, &err), AK_OK);
    assert_int_equal(ak_params_check(ak_look_at_param_ranges(), &look, &err), AK_OK);
    assert_int_equal(ak_params_check(ak_ik_any_param_ranges(), &any, &err), AK_OK);
}

static void documented_bounds(void **state)
{
    (void)state;
    const ak_param_table *limb = ak_limb_ik_param_ranges();
    akt_expect_range(limb, "target.x", -1e6f, 1e6f, 0);
    akt_expect_range(limb, "mid_axis.z", -1e6f, 1e6f, 0);
    akt_expect_range(limb, "soft_limit", 0.0f, 0.999f, 0);
    akt_expect_range(limb, "tolerance", 0.0f, 1.0f, 0);
    akt_expect_range(limb, "weight", 0.0f, 1.0f, 0);
    const ak_param_table *chain = ak_chain_ik_param_ranges();
    assert_int_equal(chain->count, 5); /* target x, y, z, tolerance, weight */
    akt_expect_range(chain, "target.y", -1e6f, 1e6f, 0);
    const ak_param_table *jac = ak_jacobian_ik_param_ranges();
    akt_expect_range(jac, "damping", 0.0f, 10.0f, 0);
    akt_expect_range(jac, "max_step", 0.0f, PI_F, 0);
    const ak_param_table *aim = ak_aim_ik_param_ranges();
    akt_expect_range(aim, "up_model.y", -1e6f, 1e6f, 0);
    akt_expect_range(aim, "tolerance", 0.0f, PI_F, 0);
    akt_expect_range(aim, "clamp_weight", 0.0f, 1.0f, 0);
    assert_null(ak_param_find(limb, "no_such_field"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_table_has_its_shape_and_the_defaults_pass),
        cmocka_unit_test(documented_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
