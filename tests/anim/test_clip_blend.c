/* Pose blending (src/anim/clip_blend.c): bad arguments leave `out` untouched; weights 0 and 1
 * give the inputs bit for bit; a 90 degree turn blended at 0.5 is the 45 degree turn and the
 * translation the midpoint; a mask scales the weight per joint; out may alias an input. */
#include "test_params.h"

static const float k_pi = 3.14159265358979f;

static void poses(ak_xform a[3], ak_xform b[3])
{
    for (int j = 0; j < 3; ++j) {
        a[j] = ak_xform_identity();
        b[j] = ak_xform_identity();
        a[j].translation = ak_vec3_make(0.0f, (float)j, 0.0f);
        b[j].translation = ak_vec3_make(2.0f, (float)j, -4.0f);
        b[j].rotation = ak_quat_from_axis_angle(ak_vec3_make(0, 1, 0), 0.5f * k_pi);
    }
}

static void blend_arguments_validity(void **state)
{
    (void)state;
    ak_xform a[3], b[3], out[3], before[3];
    poses(a, b);
    memset(out, 0x5a, sizeof out);
    memcpy(before, out, sizeof out);
    ak_pose_blend(NULL, b, 3, 0.5f, NULL, out);
    ak_pose_blend(a, NULL, 3, 0.5f, NULL, out);
    ak_pose_blend(a, b, 0, 0.5f, NULL, out);
    ak_pose_blend(a, b, -2, 0.5f, NULL, out);
    assert_memory_equal(out, before, sizeof out);
    ak_pose_blend(a, b, 3, 0.5f, NULL, NULL); /* no crash */
    /* a NaN weight is no weight: a exactly; beyond 1 is 1: b exactly */
    ak_pose_blend(a, b, 3, NAN, NULL, out);
    assert_memory_equal(out, a, sizeof out);
    ak_pose_blend(a, b, 3, 7.0f, NULL, out);
    assert_memory_equal(out, b, sizeof out);
    ak_pose_blend(a, b, 3, -1.0f, NULL, out);
    assert_memory_equal(out, a, sizeof out);
}

static void half_way_is_half_the_turn_and_the_midpoint(void **state)
{
    (void)state;
    ak_xform a[3], b[3], out[3];
    poses(a, b);
    ak_pose_blend(a, b, 3, 0.5f, NULL, out);
    const ak_quat q45 = ak_quat_from_axis_angle(ak_vec3_make(0, 1, 0), 0.25f * k_pi);
    for (int j = 0; j < 3; ++j) {
        AKT_NEAR(fabsf(ak_quat_dot(out[j].rotation, q45)), 1.0f, 1e-6);
        AKT_NEAR(out[j].translation.x, 1.0f, 1e-6);
        AKT_NEAR(out[j].translation.y, (float)j, 1e-6);
        AKT_NEAR(out[j].translation.z, -2.0f, 1e-6);
    }
    /* a quarter: 22.5 degrees and a quarter of the way */
    ak_pose_blend(a, b, 3, 0.25f, NULL, out);
    AKT_NEAR(ak_quat_angle(out[1].rotation), 0.125f * k_pi, 1e-5);
    AKT_NEAR(out[1].translation.z, -1.0f, 1e-6);
}

static void mask_scales_the_weight_per_joint(void **state)
{
    (void)state;
    ak_xform a[3], b[3], out[3];
    poses(a, b);
    const float mask[3] = {0.0f, 0.5f, 1.0f};
    ak_pose_blend(a, b, 3, 1.0f, mask, out);
    assert_memory_equal(&out[0], &a[0], sizeof out[0]);
    assert_memory_equal(&out[2], &b[2], sizeof out[2]);
    AKT_NEAR(out[1].translation.x, 1.0f, 1e-6);
    AKT_NEAR(ak_quat_angle(out[1].rotation), 0.25f * k_pi, 1e-5);
    /* out aliasing a gives the same as a separate buffer */
    ak_xform alias[3];
    memcpy(alias, a, sizeof alias);
    ak_pose_blend(alias, b, 3, 1.0f, mask, alias);
    assert_memory_equal(alias, out, sizeof out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(blend_arguments_validity),
        cmocka_unit_test(half_way_is_half_the_turn_and_the_midpoint),
        cmocka_unit_test(mask_scales_the_weight_per_joint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
