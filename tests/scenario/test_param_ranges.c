/* Issue 26: every float field of the params structs has one documented range (status.h's
 * ak_param_table), which the struct's _validate checks. For every table: the defaults pass;
 * every field set to NaN (unless NaN means "automatic"), +-inf, 1e20/-1e20 beyond its bounds,
 * and just outside each finite bound is refused with the field's name. The case:
 * retarget fade_time 1e20 (a signed overflow in the pin planner) is refused by
 * ak_retarget_validate, so by the CLI, the plugin, Python and JS alike. */
#include "test_util.h"

typedef struct table_case {
    const ak_param_table *(*table)(void);
    size_t size;
    void (*defaults)(void *out);
} table_case;

static void retarget_defaults(void *out)
{
    *(ak_retarget_params *)out = ak_retarget_defaults();
}
static void foot_ik_defaults(void *out)
{
    *(ak_foot_ik_params *)out = ak_foot_ik_defaults();
}
static void walker_defaults(void *out)
{
    *(ak_walker_params *)out = ak_walker_defaults();
}
static void controller_defaults(void *out)
{
    *(ak_controller_params *)out = ak_controller_defaults();
}
static void contact_defaults(void *out)
{
    *(ak_contact_params *)out = ak_contact_defaults();
}
static void reach_defaults(void *out)
{
    *(ak_reach_params *)out = ak_reach_defaults();
}
static void matcher_defaults(void *out)
{
    *(ak_matcher_params *)out = ak_matcher_defaults();
}

static void limb_ik_defaults(void *out)
{
    *(ak_limb_ik_params *)out = ak_limb_ik_defaults();
}
static void chain_ik_defaults(void *out)
{
    *(ak_chain_ik_params *)out = ak_chain_ik_defaults();
}
static void jacobian_ik_defaults(void *out)
{
    *(ak_jacobian_ik_params *)out = ak_jacobian_ik_defaults();
}
static void aim_ik_defaults(void *out)
{
    *(ak_aim_ik_params *)out = ak_aim_ik_defaults();
}
static void look_at_defaults(void *out)
{
    *(ak_look_at_params *)out = ak_look_at_defaults();
}
static void ik_any_defaults(void *out)
{
    *(ak_ik_any_params *)out = ak_ik_any_defaults();
}
static void terrain_defaults(void *out)
{
    *(ak_terrain_params *)out = ak_terrain_defaults();
}
static void walk_clip_defaults(void *out)
{
    *(ak_walk_clip_params *)out = ak_walk_clip_defaults();
}

static void body_defaults(void *out)
{
    *(ak_body_params *)out = ak_body_defaults();
}
static void compress_defaults(void *out)
{
    *(ak_compress_params *)out = ak_compress_defaults();
}
static void resample_defaults(void *out)
{
    *(ak_edit_resample_params *)out = ak_edit_resample_defaults();
}
static void units_defaults(void *out)
{
    *(ak_edit_units_params *)out = ak_edit_units_defaults();
}
static void concat_defaults(void *out)
{
    *(ak_edit_concat_params *)out = ak_edit_concat_defaults();
}
static void root_motion_defaults(void *out)
{
    *(ak_root_motion_params *)out = ak_root_motion_defaults();
}
static void gltf_defaults(void *out)
{
    *(ak_gltf_params *)out = ak_gltf_defaults();
}
static void gltf_clip_defaults(void *out)
{
    *(ak_gltf_clip_params *)out = ak_gltf_clip_defaults();
}
static void cycle_defaults(void *out)
{
    *(ak_cycle_params *)out = ak_cycle_defaults();
}
static void walk_motion_defaults(void *out)
{
    *(ak_walk_motion_params *)out = ak_walk_motion_defaults();
}
static void motion_db_defaults(void *out)
{
    *(ak_motion_db_params *)out = ak_motion_db_defaults();
}

static const table_case k_cases[] = {
    {ak_body_param_ranges, sizeof(ak_body_params), body_defaults},
    {ak_compress_param_ranges, sizeof(ak_compress_params), compress_defaults},
    {ak_edit_resample_param_ranges, sizeof(ak_edit_resample_params), resample_defaults},
    {ak_edit_units_param_ranges, sizeof(ak_edit_units_params), units_defaults},
    {ak_edit_concat_param_ranges, sizeof(ak_edit_concat_params), concat_defaults},
    {ak_root_motion_param_ranges, sizeof(ak_root_motion_params), root_motion_defaults},
    {ak_gltf_param_ranges, sizeof(ak_gltf_params), gltf_defaults},
    {ak_gltf_clip_param_ranges, sizeof(ak_gltf_clip_params), gltf_clip_defaults},
    {ak_cycle_param_ranges, sizeof(ak_cycle_params), cycle_defaults},
    {ak_walk_motion_param_ranges, sizeof(ak_walk_motion_params), walk_motion_defaults},
    {ak_motion_db_param_ranges, sizeof(ak_motion_db_params), motion_db_defaults},
    {ak_retarget_param_ranges, sizeof(ak_retarget_params), retarget_defaults},
    {ak_foot_ik_param_ranges, sizeof(ak_foot_ik_params), foot_ik_defaults},
    {ak_walker_param_ranges, sizeof(ak_walker_params), walker_defaults},
    {ak_controller_param_ranges, sizeof(ak_controller_params), controller_defaults},
    {ak_contact_param_ranges, sizeof(ak_contact_params), contact_defaults},
    {ak_reach_param_ranges, sizeof(ak_reach_params), reach_defaults},
    {ak_matcher_param_ranges, sizeof(ak_matcher_params), matcher_defaults},
    {ak_limb_ik_param_ranges, sizeof(ak_limb_ik_params), limb_ik_defaults},
    {ak_chain_ik_param_ranges, sizeof(ak_chain_ik_params), chain_ik_defaults},
    {ak_jacobian_ik_param_ranges, sizeof(ak_jacobian_ik_params), jacobian_ik_defaults},
    {ak_aim_ik_param_ranges, sizeof(ak_aim_ik_params), aim_ik_defaults},
    {ak_look_at_param_ranges, sizeof(ak_look_at_params), look_at_defaults},
    {ak_ik_any_param_ranges, sizeof(ak_ik_any_params), ik_any_defaults},
    {ak_terrain_param_ranges, sizeof(ak_terrain_params), terrain_defaults},
    {ak_walk_clip_param_ranges, sizeof(ak_walk_clip_params), walk_clip_defaults},
};

static void every_float_field_is_refused_outside_its_range(void **state)
{
    (void)state;
    int probes = 0;
    unsigned char *params = (unsigned char *)malloc(4096);
    assert_non_null(params);
    for (size_t c = 0; c < sizeof k_cases / sizeof k_cases[0]; ++c) {
        const ak_param_table *t = k_cases[c].table();
        assert_true(k_cases[c].size <= 4096);
        assert_true(t->count > 0);
        ak_error err;
        k_cases[c].defaults(params);
        if (ak_params_check(t, params, &err) != AK_OK)
            fail_msg("%s defaults refused: %s", t->params, err.message);
        for (int32_t i = 0; i < t->count; ++i) {
            const ak_param_range *r = &t->ranges[i];
            assert_true(r->offset + sizeof(float) <= k_cases[c].size);
            assert_true(r->lo <= r->hi && isfinite(r->lo) && isfinite(r->hi));
            assert_ptr_equal(ak_param_find(t, r->field), r);
            const float bad[] = {NAN,
                                 INFINITY,
                                 -INFINITY,
                                 1e20f > r->hi ? 1e20f : INFINITY,
                                 -1e20f < r->lo ? -1e20f : -INFINITY,
                                 nextafterf(r->hi, INFINITY) + fabsf(r->hi) * 1e-3f,
                                 nextafterf(r->lo, -INFINITY) - fabsf(r->lo) * 1e-3f};
            for (size_t b = 0; b < sizeof bad / sizeof bad[0]; ++b) {
                if (isnan(bad[b]) && r->nan_ok) continue;
                k_cases[c].defaults(params);
                memcpy(params + r->offset, &bad[b], sizeof(float));
                ++probes;
                if (ak_params_check(t, params, &err) != AK_ERR_INVALID_ARG)
                    fail_msg("%s.%s = %g accepted", t->params, r->field, (double)bad[b]);
                if (strncmp(err.message, r->field, strlen(r->field)) != 0)
                    fail_msg("%s.%s: message '%s' does not name the field", t->params, r->field,
                             err.message);
            }
            const float good[] = {r->lo, r->hi};
            for (size_t g = 0; g < 2; ++g) {
                k_cases[c].defaults(params);
                memcpy(params + r->offset, &good[g], sizeof(float));
                if (ak_params_check(t, params, &err) != AK_OK)
                    fail_msg("%s.%s = %g (a bound) refused: %s", t->params, r->field,
                             (double)good[g], err.message);
            }
        }
    }
    printf("%d out-of-range values refused over %zu tables\n", probes,
           sizeof k_cases / sizeof k_cases[0]);
    free(params);
}

/* The case through the real _validate: fade_time 1e20 and 1e7 are refused by name. */
static void retarget_fade_time_has_an_upper_bound(void **state)
{
    (void)state;
    static const char text[] = "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition "
                               "Yposition Zposition Zrotation Xrotation Yrotation\n End Site\n {\n"
                               "  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n"
                               "0 0 0 0 0 0\n";
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    assert_int_equal(ak_bvh_read_memory(text, sizeof text - 1, NULL, &s, &c, &err), AK_OK);
    ak_retarget_params p = ak_retarget_defaults();
    p.source = s;
    p.target = s;
    p.source_clip = c;
    const float fades[] = {1e20f, 1e7f, -1.0f, NAN};
    for (size_t i = 0; i < sizeof fades / sizeof fades[0]; ++i) {
        p.fade_time = fades[i];
        assert_int_equal(ak_retarget_validate(&p, &err), AK_ERR_INVALID_ARG);
        assert_non_null(strstr(err.message, "fade_time"));
    }
    ak_clip_destroy(c);
    ak_skeleton_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_float_field_is_refused_outside_its_range),
        cmocka_unit_test(retarget_fade_time_has_an_upper_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
