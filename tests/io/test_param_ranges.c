/* src/io/param_ranges.c: the glTF writer's and the glTF clip reader's range tables through
 * their _validate: the defaults pass; NaN, +-inf, 1e20 past a bound and just past each bound
 * are refused naming the field. */
#include "test_params.h"

static int32_t gltf_validate(const void *p, ak_error *err)
{
    return ak_gltf_validate((const ak_gltf_params *)p, err);
}
static int32_t gltf_clip_validate(const void *p, ak_error *err)
{
    return ak_gltf_clip_validate((const ak_gltf_clip_params *)p, err);
}

static void gltf_tables_refuse_values_past_their_bounds(void **state)
{
    (void)state;
    const ak_gltf_params g = ak_gltf_defaults();
    int probes = akt_check_param_table(ak_gltf_param_ranges(), &g, sizeof g, gltf_validate);
    const ak_gltf_clip_params c = ak_gltf_clip_defaults();
    probes += akt_check_param_table(ak_gltf_clip_param_ranges(), &c, sizeof c, gltf_clip_validate);
    print_message("%d out-of-range values refused over 2 tables\n", probes);
    assert_true(probes >= 3 * 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gltf_tables_refuse_values_past_their_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
