/* Quaternion, Euler and transform maths. */
#include "test_util.h"

static ak_quat axis_q(int axis, float angle)
{
    ak_vec3 a = {axis == 0, axis == 1, axis == 2};
    return ak_quat_from_axis_angle(a, angle);
}

/* from_euler(order) must equal the product of axis rotations in listed order. */
static void euler_composes_in_listed_order(void **state)
{
    (void)state;
    static const int axes[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                   {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    akt_rng rng = {0x1234567u};
    for (int o = 0; o < 6; ++o) {
        for (int i = 0; i < 200; ++i) {
            float a[3] = {akt_uniform(&rng, -3.1f, 3.1f), akt_uniform(&rng, -3.1f, 3.1f),
                          akt_uniform(&rng, -3.1f, 3.1f)};
            ak_quat q = ak_quat_from_euler(ak_vec3_make(a[0], a[1], a[2]), (ak_rot_order)o);
            const int *ax = axes[o];
            ak_quat ref =
                ak_quat_mul(axis_q(ax[0], a[ax[0]]),
                            ak_quat_mul(axis_q(ax[1], a[ax[1]]), axis_q(ax[2], a[ax[2]])));
            AKT_NEAR(fabsf(ak_quat_dot(q, ref)), 1.0f, 1e-5f);
        }
    }
}

/* to_euler(from_euler(x)) reproduces the rotation for all 6 orders, including angles far
 * outside +-180 degrees and near gimbal lock. */
static void euler_round_trip_all_orders(void **state)
{
    (void)state;
    akt_rng rng = {0xfeedbeefu};
    for (int o = 0; o < 6; ++o) {
        for (int i = 0; i < 2000; ++i) {
            ak_vec3 e = {akt_uniform(&rng, -9.3f, 9.3f), akt_uniform(&rng, -9.3f, 9.3f),
                         akt_uniform(&rng, -9.3f, 9.3f)};
            if (i % 10 == 0) { /* middle angle at +-90 degrees: gimbal lock */
                static const int mid[6] = {1, 2, 0, 2, 0, 1};
                float *m = mid[o] == 0 ? &e.x : mid[o] == 1 ? &e.y : &e.z;
                *m = (i % 20 == 0) ? 1.5707963f : -1.5707963f;
            }
            ak_quat q = ak_quat_from_euler(e, (ak_rot_order)o);
            ak_vec3 back = ak_quat_to_euler(q, (ak_rot_order)o);
            ak_quat q2 = ak_quat_from_euler(back, (ak_rot_order)o);
            AKT_NEAR(fabsf(ak_quat_dot(q, q2)), 1.0f, 2e-6f);
            /* the middle angle is in [-pi/2, pi/2] */
            ak_vec3 v = ak_quat_rotate(q, ak_vec3_make(0.3f, -0.5f, 0.8f));
            ak_vec3 v2 = ak_quat_rotate(q2, ak_vec3_make(0.3f, -0.5f, 0.8f));
            AKT_NEAR(v.x, v2.x, 1e-4f);
            AKT_NEAR(v.y, v2.y, 1e-4f);
            AKT_NEAR(v.z, v2.z, 1e-4f);
        }
    }
}

/* Different orders give different rotations for the same angles, and each order is the
 * reverse-composition of its mirror: XYZ(a,b,c) = inverse of ZYX(-a,-b,-c). */
static void euler_orders_relate_by_inverse(void **state)
{
    (void)state;
    static const int mirror[6] = {5, 3, 4, 1, 2, 0}; /* XYZ<->ZYX, XZY<->YZX, YXZ<->ZXY */
    akt_rng rng = {99};
    for (int o = 0; o < 6; ++o) {
        for (int i = 0; i < 100; ++i) {
            ak_vec3 e = {akt_uniform(&rng, -3, 3), akt_uniform(&rng, -3, 3),
                         akt_uniform(&rng, -3, 3)};
            ak_quat a = ak_quat_from_euler(e, (ak_rot_order)o);
            ak_quat b = ak_quat_from_euler(ak_vec3_scale(e, -1.0f), (ak_rot_order)mirror[o]);
            AKT_NEAR(fabsf(ak_quat_dot(a, ak_quat_conjugate(b))), 1.0f, 1e-5f);
        }
    }
    /* ZYX 90 deg about Z then X: a known vector. R = Rz(90) Rx(90): x-axis stays -> y. */
    ak_quat q = ak_quat_from_euler(ak_vec3_make(1.5707964f, 0, 1.5707964f), AK_ORDER_ZYX);
    ak_vec3 v = ak_quat_rotate(q, ak_vec3_make(0, 1, 0)); /* Rx: y->z, Rz: z stays */
    AKT_NEAR(v.x, 0.0f, 1e-6f);
    AKT_NEAR(v.y, 0.0f, 1e-6f);
    AKT_NEAR(v.z, 1.0f, 1e-6f);
    ak_rot_order parsed;
    assert_int_equal(ak_rot_order_parse("zxy", &parsed), 0);
    assert_int_equal(parsed, AK_ORDER_ZXY);
    assert_int_equal(ak_rot_order_parse("ZZY", &parsed), -1);
    assert_string_equal(ak_rot_order_name(AK_ORDER_YZX), "YZX");
}

static void slerp_hits_endpoints_and_midpoint(void **state)
{
    (void)state;
    ak_quat a = ak_quat_identity();
    ak_quat b = ak_quat_from_axis_angle(ak_vec3_make(0, 1, 0), 2.0f);
    ak_quat m = ak_quat_slerp(a, b, 0.5f);
    AKT_NEAR(ak_quat_angle(m), 1.0f, 1e-6f);
    AKT_NEAR(ak_quat_dot(ak_quat_slerp(a, b, 0.0f), a), 1.0f, 1e-7f);
    AKT_NEAR(ak_quat_dot(ak_quat_slerp(a, b, 1.0f), b), 1.0f, 1e-7f);
    /* b and -b are the same rotation: slerp takes the short way either way */
    ak_quat nb = {-b.x, -b.y, -b.z, -b.w};
    AKT_NEAR(ak_quat_angle(ak_quat_slerp(a, nb, 0.5f)), 1.0f, 1e-6f);
}

static void from_to_maps_directions(void **state)
{
    (void)state;
    akt_rng rng = {7};
    for (int i = 0; i < 500; ++i) {
        ak_vec3 f = {akt_uniform(&rng, -1, 1), akt_uniform(&rng, -1, 1), akt_uniform(&rng, -1, 1)};
        ak_vec3 t = {akt_uniform(&rng, -1, 1), akt_uniform(&rng, -1, 1), akt_uniform(&rng, -1, 1)};
        if (i == 0) t = ak_vec3_scale(f, -2.0f); /* opposite */
        ak_quat q = ak_quat_from_to(f, t);
        ak_vec3 r = ak_quat_rotate(q, ak_vec3_normalize_or(f, f));
        ak_vec3 tn = ak_vec3_normalize_or(t, t);
        AKT_NEAR(r.x, tn.x, 2e-4f);
        AKT_NEAR(r.y, tn.y, 2e-4f);
        AKT_NEAR(r.z, tn.z, 2e-4f);
    }
    /* degenerate input gives identity, never NaN */
    ak_quat z = ak_quat_from_to(ak_vec3_make(0, 0, 0), ak_vec3_make(1, 0, 0));
    AKT_NEAR(z.w, 1.0f, 0.0f);
}

static void xform_inverse_and_compose(void **state)
{
    (void)state;
    akt_rng rng = {11};
    for (int i = 0; i < 200; ++i) {
        ak_xform a = {
            akt_random_quat(&rng),
            {akt_uniform(&rng, -5, 5), akt_uniform(&rng, -5, 5), akt_uniform(&rng, -5, 5)}};
        ak_xform b = {
            akt_random_quat(&rng),
            {akt_uniform(&rng, -5, 5), akt_uniform(&rng, -5, 5), akt_uniform(&rng, -5, 5)}};
        ak_vec3 p = {akt_uniform(&rng, -2, 2), akt_uniform(&rng, -2, 2), akt_uniform(&rng, -2, 2)};
        ak_vec3 p1 = ak_xform_point(ak_xform_mul(a, b), p);
        ak_vec3 p2 = ak_xform_point(a, ak_xform_point(b, p));
        AKT_NEAR(p1.x, p2.x, 1e-4f);
        AKT_NEAR(p1.y, p2.y, 1e-4f);
        AKT_NEAR(p1.z, p2.z, 1e-4f);
        ak_vec3 back = ak_xform_point(ak_xform_inverse(a), ak_xform_point(a, p));
        AKT_NEAR(back.x, p.x, 1e-4f);
        AKT_NEAR(back.y, p.y, 1e-4f);
        AKT_NEAR(back.z, p.z, 1e-4f);
        float m[16];
        ak_xform_to_mat4(a, m);
        ak_vec3 pm = {m[0] * p.x + m[4] * p.y + m[8] * p.z + m[12],
                      m[1] * p.x + m[5] * p.y + m[9] * p.z + m[13],
                      m[2] * p.x + m[6] * p.y + m[10] * p.z + m[14]};
        ak_vec3 pa = ak_xform_point(a, p);
        AKT_NEAR(pm.x, pa.x, 1e-4f);
        AKT_NEAR(pm.y, pa.y, 1e-4f);
        AKT_NEAR(pm.z, pa.z, 1e-4f);
    }
}

static void normalize_never_returns_nan(void **state)
{
    (void)state;
    ak_quat zero = {0, 0, 0, 0};
    ak_quat inf = {INFINITY, 0, 0, 1};
    ak_quat n1 = ak_quat_normalize(zero), n2 = ak_quat_normalize(inf);
    assert_true(n1.w == 1.0f && n2.w == 1.0f);
    ak_vec3 fb = ak_vec3_normalize_or(ak_vec3_make(0, 0, 0), ak_vec3_make(0, 1, 0));
    assert_true(fb.y == 1.0f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(euler_composes_in_listed_order),
        cmocka_unit_test(euler_round_trip_all_orders),
        cmocka_unit_test(euler_orders_relate_by_inverse),
        cmocka_unit_test(slerp_hits_endpoints_and_midpoint),
        cmocka_unit_test(from_to_maps_directions),
        cmocka_unit_test(xform_inverse_and_compose),
        cmocka_unit_test(normalize_never_returns_nan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
