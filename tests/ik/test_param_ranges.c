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

/* Just outside each row's bounds (and NaN, infinity), every field of the limb and aim tables
 * is refused by the solver's own _validate with the field named: the solvers check the
 * table's bounds inline and walk the table only for the message, so a bound tightened in the
 * table and not in the solver would show here. */
static int32_t limb_validate_fn(const void *p, ak_error *err)
{
    return ak_limb_ik_validate((const ak_limb_ik_params *)p, err);
}
static int32_t aim_validate_fn(const void *p, ak_error *err)
{
    return ak_aim_ik_validate((const ak_aim_ik_params *)p, err);
}

static void probe_rows(const ak_param_table *t, const void *good, size_t size, akt_validate_fn fn)
{
    unsigned char buf[512];
    assert_true(size <= sizeof buf);
    ak_error err;
    memcpy(buf, good, size);
    assert_int_equal(fn(buf, &err), AK_OK);
    for (int32_t i = 0; i < t->count; ++i) {
        const ak_param_range *r = &t->ranges[i];
        const float bad[] = {nextafterf(r->hi, INFINITY), nextafterf(r->lo, -INFINITY), NAN,
                             INFINITY, -INFINITY};
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; ++b) {
            memcpy(buf, good, size);
            memcpy(buf + r->offset, &bad[b], sizeof(float));
            if (fn(buf, &err) != AK_ERR_INVALID_ARG)
                fail_msg("%s.%s = %.9g accepted by _validate", t->params, r->field, (double)bad[b]);
            /* a NaN or infinity may be caught first by a finiteness check naming the vector */
            if (b < 2 && strncmp(err.message, r->field, strlen(r->field)) != 0)
                fail_msg("%s.%s = %.9g: message '%s'", t->params, r->field, (double)bad[b],
                         err.message);
        }
        const float edge[] = {r->lo, r->hi};
        for (size_t g = 0; g < 2; ++g) {
            memcpy(buf, good, size);
            memcpy(buf + r->offset, &edge[g], sizeof(float));
            /* a bound may break another rule (a zero mid_axis, a zero forward): only the
             * range itself is asserted, by the message */
            if (fn(buf, &err) != AK_OK && strncmp(err.message, r->field, strlen(r->field)) == 0)
                fail_msg("%s.%s = %g (a bound) refused: %s", t->params, r->field, (double)edge[g],
                         err.message);
        }
    }
}

static void solvers_refuse_each_row_outside_its_table_bounds(void **state)
{
    (void)state;
    ak_skeleton *sk = akt_line_skeleton(3, 1.0f);
    assert_non_null(sk);
    ak_limb_ik_params limb = ak_limb_ik_defaults();
    limb.skeleton = sk;
    limb.upper = 0;
    limb.middle = 1;
    limb.end = 2;
    limb.soft_limit = 0.5f;
    probe_rows(ak_limb_ik_param_ranges(), &limb, sizeof limb, limb_validate_fn);
    ak_aim_ik_params aim = ak_aim_ik_defaults();
    aim.skeleton = sk;
    aim.joint = 1;
    aim.clamp_weight = 0.5f;
    probe_rows(ak_aim_ik_param_ranges(), &aim, sizeof aim, aim_validate_fn);
    ak_skeleton_destroy(sk);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_table_has_its_shape_and_the_defaults_pass),
        cmocka_unit_test(documented_bounds),
        cmocka_unit_test(solvers_refuse_each_row_outside_its_table_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
