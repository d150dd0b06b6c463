/* Retarget params and the retargeter's map (src/retarget/retarget_map.c), on two small
 * bipeds of the same shape, the target's legs twice as long: ak_retarget_params refused field
 * by field (the range table, NULLs, a clip of another rig, one foot's stance flags, overrides
 * naming a missing joint, a given map with an index out of range or without a leg); then the
 * map's worked numbers: leg ratio 2, scale = ratio x user scale, every target joint driven by
 * its namesake. (The params cases moved here from test_retarget.c.) */
#include "test_params.h"

enum { J = 7, FRAMES = 3 };
static ak_skeleton *g_src, *g_dst, *g_other;
static ak_clip *g_c, *g_other_clip;

/* The 7-joint biped with legs of two `leg` bones, hips 0.1 m above their length. */
static ak_skeleton *biped(float leg, int32_t joints)
{
    return akt_biped7(2.0f * leg + 0.1f, leg, joints);
}

static int setup(void **state)
{
    (void)state;
    ak_error err;
    g_src = biped(0.45f, J);
    g_dst = biped(0.9f, J);
    g_other = biped(0.45f, 4); /* hips and a left leg only */
    assert_int_equal(ak_clip_create(J, FRAMES, 0.1f, NULL, &g_c, &err), AK_OK);
    for (int f = 0; f < FRAMES; ++f) {
        for (int j = 0; j < J; ++j)
            g_c->rotations[f * J + j] = ak_quat_identity();
        g_c->rotations[f * J + 1] = ak_quat_from_axis_angle(ak_vec3_make(1, 0, 0), 0.2f * (float)f);
        g_c->translations[f] = ak_vec3_make(0.0f, 1.0f, 0.3f * (float)f);
    }
    ak_clip_finalize(g_c);
    assert_int_equal(ak_clip_create(4, FRAMES, 0.1f, NULL, &g_other_clip, &err), AK_OK);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    ak_clip_destroy(g_other_clip);
    ak_clip_destroy(g_c);
    ak_skeleton_destroy(g_other);
    ak_skeleton_destroy(g_dst);
    ak_skeleton_destroy(g_src);
    return 0;
}

static ak_retarget_params valid_params(void)
{
    ak_retarget_params p = ak_retarget_defaults();
    p.source = g_src;
    p.source_clip = g_c;
    p.target = g_dst;
    return p;
}

static int32_t validate(const void *params, ak_error *err)
{
    return ak_retarget_validate((const ak_retarget_params *)params, err);
}

static int32_t create(const void *params, ak_error *err)
{
    ak_retargeter *r = NULL;
    const int32_t st = ak_retargeter_create((const ak_retarget_params *)params, &r, err);
    if (st != AK_OK) assert_null(r);
    ak_retargeter_destroy(r);
    return st;
}

static void retarget_params_validity(void **state)
{
    (void)state;
    const ak_retarget_params ok = valid_params();
    const ak_param_table *t = ak_retarget_param_ranges();
    assert_true(akt_check_param_table(t, &ok, sizeof ok, validate) > 0);
    assert_true(akt_check_param_table(t, &ok, sizeof ok, create) > 0);
    ak_retarget_params p = ok;
    p.source = NULL;
    akt_expect_refused(create, &p, AK_ERR_INVALID_ARG, "source", "source NULL");
    p = ok;
    p.target = NULL;
    akt_expect_refused(create, &p, AK_ERR_INVALID_ARG, "target", "target NULL");
    p = ok;
    p.source_clip = g_other_clip; /* 4 joints on a 7-joint source */
    akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, NULL, "clip of another rig");
    p = ok;
    static const uint8_t flags[FRAMES] = {1, 1, 0};
    p.stance_left = flags;
    akt_expect_refused(validate, &p, AK_ERR_INVALID_ARG, "stance", "one foot's flags");
    p.stance_right = flags;
    akt_expect_refused(validate, &p, AK_OK, NULL, "both feet's flags");
    p = ok;
    p.target_overrides = "left_foot=NoSuchJoint";
    akt_expect_refused(create, &p, AK_ERR_NOT_FOUND, "NoSuchJoint", "missing override joint");
    p = ok;
    p.target = g_other; /* no right leg: the map misses it */
    akt_expect_refused(create, &p, AK_ERR_NOT_FOUND, "right", "target without a right leg");
    ak_humanoid map;
    ak_error err;
    assert_int_equal(ak_humanoid_find(g_dst, NULL, &map, &err), AK_OK);
    p = ok;
    p.target_map = &map;
    akt_expect_refused(create, &p, AK_OK, NULL, "a given map");
    map.joint[AK_HUM_LEFT_FOOT] = 99;
    akt_expect_refused(create, &p, AK_ERR_INVALID_ARG, NULL, "map index out of range");
    map.joint[AK_HUM_LEFT_FOOT] = -1;
    akt_expect_refused(create, &p, AK_ERR_INVALID_ARG, NULL, "map without a left foot");
}

/* Legs of 0.9 m against 0.45 m: ratio 2; a user scale of 1.5 makes 3. Every target joint has
 * its namesake as source. */
static void the_map_scales_by_the_leg_ratio(void **state)
{
    (void)state;
    ak_retarget_params p = valid_params();
    ak_retargeter *r = NULL;
    ak_error err;
    assert_int_equal(ak_retargeter_create(&p, &r, &err), AK_OK);
    ak_retarget_info info;
    ak_retargeter_get_info(r, &info);
    AKT_NEAR(info.leg_ratio, 2.0f, 1e-6);
    AKT_NEAR(info.scale, 2.0f, 1e-6);
    AKT_NEAR(info.heading_offset, 0.0f, 1e-6);
    for (int32_t j = 0; j < J; ++j)
        assert_int_equal(ak_retargeter_source_joint(r, j), j);
    assert_int_equal(ak_retargeter_source_joint(r, J), -1);
    assert_int_equal(ak_retargeter_source_joint(r, -1), -1);
    ak_retargeter_destroy(r);
    p.scale = 1.5f;
    assert_int_equal(ak_retargeter_create(&p, &r, &err), AK_OK);
    ak_retargeter_get_info(r, &info);
    AKT_NEAR(info.scale, 3.0f, 1e-6);
    ak_retargeter_destroy(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(retarget_params_validity),
        cmocka_unit_test(the_map_scales_by_the_leg_ratio),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
