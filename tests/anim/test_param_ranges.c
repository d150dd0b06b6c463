/* src/anim/param_ranges.c: the animation params' range tables, each through the struct's own
 * _validate where it takes only the params (compress, units), else through the table with the
 * other arguments' checks left to their own tests (resample, concat, root motion, body). The
 * defaults pass; NaN, +-inf, 1e20 past a bound and just past each bound are refused by name. */
#include "test_params.h"

static int32_t compress_validate(const void *p, ak_error *err)
{
    return ak_compress_validate((const ak_compress_params *)p, err);
}
static int32_t units_validate(const void *p, ak_error *err)
{
    return ak_edit_units_validate((const ak_edit_units_params *)p, err);
}
static int32_t table_validate(const void *p, ak_error *err)
{
    return p ? akt_table_check(p, err) : ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null params");
}

static void every_table_refuses_values_past_its_bounds(void **state)
{
    (void)state;
    int probes = 0;
    const ak_compress_params c = ak_compress_defaults();
    probes += akt_check_param_table(ak_compress_param_ranges(), &c, sizeof c, compress_validate);
    const ak_edit_units_params u = ak_edit_units_defaults();
    probes += akt_check_param_table(ak_edit_units_param_ranges(), &u, sizeof u, units_validate);
    const ak_edit_resample_params r = ak_edit_resample_defaults();
    probes += akt_check_param_table(ak_edit_resample_param_ranges(), &r, sizeof r, table_validate);
    const ak_edit_concat_params k = ak_edit_concat_defaults();
    probes += akt_check_param_table(ak_edit_concat_param_ranges(), &k, sizeof k, table_validate);
    const ak_root_motion_params m = ak_root_motion_defaults();
    probes += akt_check_param_table(ak_root_motion_param_ranges(), &m, sizeof m, table_validate);
    const ak_body_params b = ak_body_defaults();
    probes += akt_check_param_table(ak_body_param_ranges(), &b, sizeof b, table_validate);
    print_message("%d out-of-range values refused over 6 tables\n", probes);
    assert_true(probes >= 6 * 7);
}

/* Through the real _validate with its other arguments: a concat blend of NaN and a body
 * thickness past 4 are refused naming the field. */
static void validates_check_their_tables(void **state)
{
    (void)state;
    ak_skeleton *s = akt_line_skeleton(3, 1.0f);
    assert_non_null(s);
    ak_body_params b = ak_body_defaults();
    b.thickness = 5.0f;
    ak_body_mesh *mesh = NULL;
    ak_error err;
    assert_int_equal(ak_body_mesh_create(s, &b, &mesh, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "thickness"));
    assert_null(mesh);
    ak_skeleton_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_table_refuses_values_past_its_bounds),
        cmocka_unit_test(validates_check_their_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
