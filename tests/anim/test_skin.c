/* Skinning job (LBS, DQS) through ak_skin_run. The SSE kernels against their scalar twins:
 * test_skin_simd.c; the generated body: test_body.c. */
#include "skin_rig.h"

#include "animkit/walkclip.h"

static float out_a[MAXV * 3 + 4], out_b[MAXV * 3 + 4], nrm_a[MAXV * 3 + 4], nrm_b[MAXV * 3 + 4];

/* A vertex bound to one bone: DQS and LBS are the same rigid transform, to float rounding:
 * positions within 2e-6 (the rig's coordinates, bind and model transforms of +-1 applied to
 * vertices of +-1, pass through magnitudes up to 4, where a float's last bit is 4.8e-7; the two
 * paths round differently by a few bits: 1.07e-6 where the CPU has AVX2 and FMA and the
 * kernels fuse their multiply-adds), unit normals within 1e-6. */
static void skin_dqs_equals_lbs_for_one_bone(void **state)
{
    (void)state;
    akt_rng r = {0x5eed1234u};
    static rig g;
    static verts v;
    double worst = 0.0;
    for (int trial = 0; trial < 50; ++trial) {
        random_rig(&r, &g, MAXJ);
        random_verts(&r, &v, 64, 4, MAXJ);
        for (int32_t i = 0; i < v.count; ++i) { /* all weight on one joint, rest 0 */
            v.weights[4 * i] = 1.0f;
            v.weights[4 * i + 1] = v.weights[4 * i + 2] = v.weights[4 * i + 3] = 0.0f;
        }
        ak_skin_params a = params_for(&g, &v, AK_SKIN_LINEAR, out_a, nrm_a);
        ak_skin_params b = params_for(&g, &v, AK_SKIN_DUAL_QUAT, out_b, nrm_b);
        assert_int_equal(ak_skin_run(&a, NULL), AK_OK);
        assert_int_equal(ak_skin_run(&b, NULL), AK_OK);
        for (int32_t i = 0; i < v.count * 3; ++i) {
            const double d = fabs((double)out_a[i] - out_b[i]);
            if (d > worst) worst = d;
            AKT_NEAR(out_a[i], out_b[i], 2e-6);
            AKT_NEAR(nrm_a[i], nrm_b[i], 1e-6);
        }
    }
    print_message("one bone: max |LBS - DQS| = %.3g\n", worst);
}

/* Output normals are unit for any weights, both methods, both paths. */
static void skin_normals_are_unit(void **state)
{
    (void)state;
    akt_rng r = {77};
    static rig g;
    static verts v;
    random_rig(&r, &g, MAXJ);
    random_verts(&r, &v, MAXV, AK_SKIN_MAX_INFLUENCES, MAXJ);
    for (int method = 0; method < 2; ++method)
        for (int simd = 0; simd <= 3; ++simd) {
            ak_skin_params p = params_for(&g, &v, method, out_a, nrm_a);
            p.use_simd = simd;
            assert_int_equal(ak_skin_run(&p, NULL), AK_OK);
            for (int32_t i = 0; i < v.count; ++i) {
                const float *n = nrm_a + 3 * i;
                AKT_NEAR(sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), 1.0, 1e-5);
            }
        }
}

/* Shoelace area of ring `ring` (sides points) of a skinned cylinder, projected on the YZ plane. */
static double ring_area(const float *pos, int32_t ring, int32_t sides)
{
    double a = 0.0;
    for (int32_t i = 0; i < sides; ++i) {
        const float *p = pos + 3 * (ring * sides + i),
                    *q = pos + 3 * (ring * sides + (i + 1) % sides);
        a += (double)p[1] * q[2] - (double)q[1] * p[2];
    }
    return 0.5 * fabs(a);
}

/* A limb (cylinder along X, radius 0.1 m, length 1 m) on two joints, the weight moving from
 * the upper to the lower joint over the middle 40 %; the lower joint twisted 180 degrees
 * about the limb's axis. DQS keeps every cross-section's area within 5 % of rest; LBS
 * collapses the middle one (0.5 I + 0.5 R(180) maps the section onto its centre). */
static void skin_twisted_limb_keeps_its_section_with_dqs(void **state)
{
    (void)state;
    enum { RINGS = 41, SIDES = 32, NV = RINGS * SIDES };
    static float pos[NV * 3], out[NV * 3], w[NV * 2];
    static uint16_t jt[NV * 2];
    for (int32_t k = 0; k < RINGS; ++k)
        for (int32_t i = 0; i < SIDES; ++i) {
            const int32_t v = k * SIDES + i;
            const float x = (float)k / (RINGS - 1), th = 2.0f * 3.14159265f * i / SIDES;
            pos[3 * v] = x, pos[3 * v + 1] = 0.1f * cosf(th), pos[3 * v + 2] = 0.1f * sinf(th);
            float w1 = (x - 0.3f) / 0.4f;
            w1 = w1 < 0.0f ? 0.0f : (w1 > 1.0f ? 1.0f : w1);
            jt[2 * v] = 0, jt[2 * v + 1] = 1, w[2 * v] = 1.0f - w1, w[2 * v + 1] = w1;
        }
    ak_xform model[2] = {ak_xform_identity(), ak_xform_identity()};
    model[1].translation = ak_vec3_make(0.5f, 0, 0);
    float ibm[32];
    ak_xform_to_mat4(ak_xform_inverse(model[0]), ibm);
    ak_xform_to_mat4(ak_xform_inverse(model[1]), ibm + 16);
    model[1].rotation = ak_quat_from_axis_angle(ak_vec3_make(1, 0, 0), 3.14159265f);
    ak_skin_joint pal[2];
    const double rest = ring_area(pos, 0, SIDES);
    double worst[2] = {1e9, 1e9};
    for (int method = 0; method < 2; ++method) {
        ak_skin_params p = ak_skin_defaults();
        p.method = method, p.joint_count = 2, p.model_pose = model, p.inverse_bind = ibm;
        p.palette = pal, p.vertex_count = NV, p.influences = 2, p.joints = jt, p.weights = w;
        p.positions = pos, p.out_positions = out;
        assert_int_equal(ak_skin_run(&p, NULL), AK_OK);
        for (int32_t k = 0; k < RINGS; ++k) {
            const double ratio = ring_area(out, k, SIDES) / rest;
            if (ratio < worst[method]) worst[method] = ratio;
        }
    }
    print_message("180 deg twist, smallest section / rest: LBS %.4f, DQS %.4f\n", worst[0],
                  worst[1]);
    assert_true(worst[1] > 0.95);
    assert_true(worst[0] < 0.05); /* LBS collapses the middle section */
}

static void skin_validate_refuses_bad_input(void **state)
{
    (void)state;
    akt_rng r = {9};
    static rig g;
    static verts v;
    random_rig(&r, &g, 4);
    random_verts(&r, &v, 16, 4, 4);
    ak_error err;
    ak_skin_params p = params_for(&g, &v, AK_SKIN_LINEAR, out_a, nrm_a);
    assert_int_equal(ak_skin_validate(&p, &err), AK_OK);
    v.joints[4 * 3 + 2] = 4; /* one past the last joint */
    assert_int_equal(ak_skin_run(&p, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "vertex 3 influence 2: joint 4 out of range"));
    v.joints[4 * 3 + 2] = 1;
    const float keep = v.weights[5];
    v.weights[5] = -0.1f;
    assert_int_equal(ak_skin_validate(&p, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "negative"));
    v.weights[5] = NAN;
    assert_int_equal(ak_skin_validate(&p, &err), AK_ERR_INVALID_ARG);
    v.weights[5] = keep + 0.01f; /* sum 1.01 */
    assert_int_equal(ak_skin_validate(&p, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "vertex 1: weights sum to"));
    v.weights[5] = keep;
    p.influences = 0;
    assert_int_equal(ak_skin_validate(&p, &err), AK_ERR_INVALID_ARG);
    p.influences = 9;
    assert_int_equal(ak_skin_validate(&p, &err), AK_ERR_INVALID_ARG);
    p.influences = 4;
    p.method = 2;
    assert_int_equal(ak_skin_validate(&p, &err), AK_ERR_INVALID_ARG);
    p.method = AK_SKIN_DUAL_QUAT;
    p.use_simd = 4;
    assert_int_equal(ak_skin_validate(&p, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "use_simd 4"));
    p.use_simd = 3;
    assert_int_equal(ak_skin_validate(&p, &err), AK_OK);
    p.use_simd = 2;
    assert_int_equal(ak_skin_validate(&p, &err), AK_OK);
    p.out_positions = v.pos;
    assert_int_equal(ak_skin_validate(&p, &err), AK_ERR_INVALID_ARG);
    p.out_positions = out_a;
    g.ibm[5] = INFINITY;
    assert_int_equal(ak_skin_validate(&p, &err), AK_ERR_INVALID_ARG);
    p.palette = NULL;
    assert_int_equal(ak_skin_validate(&p, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_skin_validate(NULL, &err), AK_ERR_INVALID_ARG);
}

static void skin_normalize_weights_sums_to_one(void **state)
{
    (void)state;
    float w[12] = {2, 2, 0, 0, 0, 0, 0, 0, 0.25f, 0.25f, 0.25f, 0.25f};
    assert_int_equal(ak_skin_normalize_weights(w, 3, 4), 2);
    AKT_NEAR(w[0], 0.5, 1e-7);
    AKT_NEAR(w[1], 0.5, 1e-7);
    AKT_NEAR(w[4], 1.0, 0); /* all zero: the first influence takes it */
    AKT_NEAR(w[5] + w[6] + w[7], 0.0, 0);
    AKT_NEAR(w[8], 0.25, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(skin_dqs_equals_lbs_for_one_bone),
        cmocka_unit_test(skin_normals_are_unit),
        cmocka_unit_test(skin_twisted_limb_keeps_its_section_with_dqs),
        cmocka_unit_test(skin_validate_refuses_bad_input),
        cmocka_unit_test(skin_normalize_weights_sums_to_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
