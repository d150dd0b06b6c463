/* The plugin's range checks (src/plugin/plugin_ranges.c), compiled into this test with the
 * handle table and called directly: a params struct's float fields against their own bounds
 * or the library's range table (one source of truth), coordinates within 1e6 m, poses with
 * finite non-zero rotations, the *_create opening and closing, and engine ground hits mirrored
 * into animkit's frame with unusable hits dropped. */
#include "test_util.h"

#include "plugin/plugin_internal.h"

#include <stddef.h>

/* A params struct of the shape the ABI files check: two own ranges, one from the library's
 * limb IK table (weight in [0, 1]). */
typedef struct probe_params {
    float distance; /* [0, 10] */
    int32_t flag;
    float coord;  /* [-AKP_MAX_COORD, AKP_MAX_COORD] */
    float weight; /* ak_limb_ik_param_ranges' weight */
} probe_params;

static const akp_range k_probe_ranges[] = {
    {"distance", offsetof(probe_params, distance), 0.0f, 10.0f, NULL, NULL},
    {"coord", offsetof(probe_params, coord), -AKP_MAX_COORD, AKP_MAX_COORD, NULL, NULL},
    {"weight", offsetof(probe_params, weight), 0.0f, 0.0f, ak_limb_ik_param_ranges, "weight"},
};
enum { PROBE_RANGES = sizeof k_probe_ranges / sizeof k_probe_ranges[0] };

static probe_params probe_defaults(void)
{
    probe_params p = {1.0f, 7, 0.0f, 1.0f};
    return p;
}

static int32_t check(const probe_params *p, char *why, size_t size)
{
    return akp_check_ranges(p, k_probe_ranges, PROBE_RANGES, why, size);
}

/* Validity: the defaults and every bound pass; NaN, +-inf and just past each bound are refused
 * with "NAME = V: must be in [LO, HI]"; the library row's bounds are the library's. */
static void range_validity_each_field_at_and_past_its_bounds(void **state)
{
    (void)state;
    char why[160] = "";
    probe_params p = probe_defaults();
    assert_int_equal(check(&p, why, sizeof why), AK_OK);
    const ak_param_range *lib = ak_param_find(ak_limb_ik_param_ranges(), "weight");
    assert_non_null(lib);
    for (int i = 0; i < PROBE_RANGES; ++i) {
        const akp_range *r = &k_probe_ranges[i];
        const float lo = r->table ? lib->lo : r->lo, hi = r->table ? lib->hi : r->hi;
        const float good[] = {lo, hi, 0.5f * (lo + hi)};
        const float bad[] = {NAN, INFINITY, -INFINITY, nextafterf(hi, INFINITY),
                             nextafterf(lo, -INFINITY)};
        for (size_t g = 0; g < 3; ++g) {
            p = probe_defaults();
            memcpy((char *)&p + r->offset, &good[g], sizeof(float));
            if (check(&p, why, sizeof why) != AK_OK)
                fail_msg("%s = %g refused: %s", r->name, (double)good[g], why);
        }
        for (size_t b = 0; b < 5; ++b) {
            p = probe_defaults();
            memcpy((char *)&p + r->offset, &bad[b], sizeof(float));
            why[0] = '\0';
            assert_int_equal(check(&p, why, sizeof why), AK_ERR_INVALID_ARG);
            char expect[160];
            snprintf(expect, sizeof expect, "%s = %g: must be in [%g, %g]", r->name, (double)bad[b],
                     (double)lo, (double)hi);
            assert_string_equal(why, expect);
        }
    }
    /* the first failing field in table order is the one named */
    p = probe_defaults();
    p.distance = -1.0f;
    p.weight = 2.0f;
    check(&p, why, sizeof why);
    assert_string_equal(why, "distance = -1: must be in [0, 10]");
}

/* A row naming a library field that the table lacks refuses every value (lo 1 > hi 0), so a
 * renamed library field cannot silently lift the check. */
static void a_missing_library_row_refuses_everything(void **state)
{
    (void)state;
    const akp_range row = {"weight", offsetof(probe_params, weight), 0.0f,
                           0.0f,     ak_limb_ik_param_ranges,        "no_such_field"};
    probe_params p = probe_defaults();
    char why[160];
    assert_int_equal(akp_check_ranges(&p, &row, 1, why, sizeof why), AK_ERR_INVALID_ARG);
    assert_string_equal(why, "weight = 1: must be in [1, 0]");
}

static void coordinates_within_a_million_metres(void **state)
{
    (void)state;
    assert_true(akp_coord_ok(ak_vec3_make(1e6f, -1e6f, 0.0f)));
    assert_false(akp_coord_ok(ak_vec3_make(nextafterf(1e6f, INFINITY), 0.0f, 0.0f)));
    assert_false(akp_coord_ok(ak_vec3_make(0.0f, 0.0f, -1.5e6f)));
    assert_false(akp_coord_ok(ak_vec3_make(0.0f, NAN, 0.0f)));
    assert_false(akp_coord_ok(ak_vec3_make(INFINITY, 0.0f, 0.0f)));
}

static void free_object(akp_object *obj)
{
    (void)obj;
}

/* akp_check_coord, akp_check_joint_buffer and akp_check_pose record on the owner's handle. */
static void coords_buffers_and_poses_are_checked_with_messages(void **state)
{
    (void)state;
    akp_object owner = {AKP_KIND_SKELETON, 0, free_object, NULL};
    const ak_handle h = akp_register(&owner);
    assert_non_null(h);
    char text[AKP_ERROR_MAX];
    const ak_vec3 far = ak_vec3_make(2e6f, 0.0f, 0.0f);
    assert_int_equal(akp_check_coord(&owner, &far, "target"), AK_ERR_INVALID_ARG);
    akp_last_error(h, text, (int32_t)sizeof text);
    assert_non_null(strstr(text, "target = (2e+06, 0, 0): must be finite and within 1e+06 m"));
    assert_int_equal(akp_check_coord(&owner, NULL, "target"), AK_ERR_INVALID_ARG);
    akp_last_error(h, text, (int32_t)sizeof text);
    assert_string_equal(text, "target is null");
    const ak_vec3 near = ak_vec3_make(1.0f, 2.0f, 3.0f);
    assert_int_equal(akp_check_coord(&owner, &near, "target"), AK_OK);

    ak_plugin_xform pose[3];
    for (int j = 0; j < 3; ++j) {
        pose[j].rotation = ak_quat_identity();
        pose[j].position = ak_vec3_make(0.0f, (float)j, 0.0f);
    }
    assert_int_equal(akp_check_pose(&owner, pose, 3, 3, "local"), AK_OK);
    assert_int_equal(akp_check_pose(&owner, pose, 2, 3, "local"), AK_ERR_INVALID_ARG);
    akp_last_error(h, text, (int32_t)sizeof text);
    assert_string_equal(text, "local holds 2 entries, the skeleton has 3 joints");
    assert_int_equal(akp_check_pose(&owner, NULL, 3, 3, "model"), AK_ERR_INVALID_ARG);
    akp_last_error(h, text, (int32_t)sizeof text);
    assert_string_equal(text, "model is null");
    pose[1].rotation = (ak_quat){0.0f, 0.0f, 0.0f, 0.0f}; /* zero quaternion */
    assert_int_equal(akp_check_pose(&owner, pose, 3, 3, "local"), AK_ERR_INVALID_ARG);
    akp_last_error(h, text, (int32_t)sizeof text);
    assert_non_null(strstr(text, "local[1]: position beyond"));
    pose[1].rotation = ak_quat_identity();
    pose[2].position.y = NAN;
    assert_int_equal(akp_check_pose(&owner, pose, 3, 3, "local"), AK_ERR_INVALID_ARG);
    akp_last_error(h, text, (int32_t)sizeof text);
    assert_non_null(strstr(text, "local[2]"));
    /* a rotation of any finite non-zero length is accepted (normalised later) */
    pose[2].position.y = 2.0f;
    pose[0].rotation = (ak_quat){0.0f, 0.0f, 0.0f, 1000.0f};
    assert_int_equal(akp_check_pose(&owner, pose, 3, 3, "local"), AK_OK);
    assert_int_equal(akp_unregister(h), AK_OK);
}

/* The create opening: NULL params or out give the `required` text; a bad field gives
 * "WHAT: NAME = V: must be in [LO, HI]"; *out and the buffer are cleared first. */
static void create_begin_and_fail_write_the_callers_buffer(void **state)
{
    (void)state;
    char buffer[96] = "stale";
    ak_handle out = (ak_handle)(uintptr_t)0x1234;
    probe_params p = probe_defaults();
    assert_int_equal(akp_create_begin(&p, k_probe_ranges, PROBE_RANGES, "probe", "params needed",
                                      &out, buffer, (int32_t)sizeof buffer),
                     AK_OK);
    assert_null(out);
    assert_string_equal(buffer, "");
    assert_int_equal(akp_create_begin(NULL, k_probe_ranges, PROBE_RANGES, "probe", "params needed",
                                      &out, buffer, (int32_t)sizeof buffer),
                     AK_ERR_INVALID_ARG);
    assert_string_equal(buffer, "params needed");
    p.coord = 3e6f;
    assert_int_equal(akp_create_begin(&p, k_probe_ranges, PROBE_RANGES, "probe", "params needed",
                                      &out, buffer, (int32_t)sizeof buffer),
                     AK_ERR_INVALID_ARG);
    assert_string_equal(buffer, "probe: coord = 3e+06: must be in [-1e+06, 1e+06]");
    /* a null buffer is allowed */
    assert_int_equal(
        akp_create_begin(&p, k_probe_ranges, PROBE_RANGES, "probe", "params needed", &out, NULL, 0),
        AK_ERR_INVALID_ARG);
    assert_int_equal(akp_create_fail(buffer, 12, "walker", "too long a reason", AK_ERR_LIMIT),
                     AK_ERR_LIMIT);
    assert_string_equal(buffer, "walker: too");
}

/* akp_create_acquire describes a bad handle into the buffer; akp_create_register hands out
 * a live handle. */
static void create_acquire_and_register(void **state)
{
    (void)state;
    akp_object obj = {AKP_KIND_CLIP, 0, free_object, NULL};
    ak_handle h = NULL;
    char buffer[160];
    assert_int_equal(akp_create_register(&obj, &h, buffer, (int32_t)sizeof buffer), AK_OK);
    assert_non_null(h);
    akp_object *got = NULL;
    assert_int_equal(
        akp_create_acquire(h, AKP_KIND_CLIP, &got, "character", buffer, (int32_t)sizeof buffer),
        AK_OK);
    assert_ptr_equal(got, &obj);
    akp_release(got);
    assert_int_equal(
        akp_create_acquire(h, AKP_KIND_SKELETON, &got, "character", buffer, (int32_t)sizeof buffer),
        AK_PLUGIN_ERR_HANDLE);
    assert_string_equal(buffer, "character: handle is a clip, not a skeleton");
    assert_int_equal(akp_unregister(h), AK_OK);
    assert_int_equal(
        akp_create_acquire(h, AKP_KIND_CLIP, &got, "foot IK", buffer, (int32_t)sizeof buffer),
        AK_PLUGIN_ERR_HANDLE);
    assert_string_equal(buffer, "foot IK: clip handle was destroyed (use after destroy)");
}

/* Hits come in Unity's frame: the normal's z is mirrored; a hit with a height beyond 1e6 m,
 * a non-finite normal or a zero normal is no hit. */
static void ground_hits_are_mirrored_and_bad_ones_dropped(void **state)
{
    (void)state;
    ak_plugin_ground_hit in[5];
    memset(in, 0, sizeof in);
    for (int i = 0; i < 5; ++i) {
        in[i].hit = 1;
        in[i].height = 0.25f;
        in[i].normal = ak_vec3_make(0.0f, 0.8f, 0.6f);
    }
    in[1].height = 2e6f;
    in[2].normal.x = NAN;
    in[3].normal = ak_vec3_make(0.0f, 0.0f, 0.0f);
    in[4].hit = 7; /* any non-zero is a hit */
    ak_ground_hit g[5];
    akp_hits_in(in, g, 5);
    assert_int_equal(g[0].hit, 1);
    AKT_NEAR(g[0].height, 0.25f, 0.0f);
    AKT_NEAR(g[0].normal.y, 0.8f, 0.0f);
    AKT_NEAR(g[0].normal.z, -0.6f, 0.0f);
    assert_int_equal(g[1].hit, 0);
    assert_int_equal(g[2].hit, 0);
    assert_int_equal(g[3].hit, 0);
    assert_int_equal(g[4].hit, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(range_validity_each_field_at_and_past_its_bounds),
        cmocka_unit_test(a_missing_library_row_refuses_everything),
        cmocka_unit_test(coordinates_within_a_million_metres),
        cmocka_unit_test(coords_buffers_and_poses_are_checked_with_messages),
        cmocka_unit_test(create_begin_and_fail_write_the_callers_buffer),
        cmocka_unit_test(create_acquire_and_register),
        cmocka_unit_test(ground_hits_are_mirrored_and_bad_ones_dropped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
