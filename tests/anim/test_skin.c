/* Skinning job (LBS, DQS; SSE path and scalar twin). The generated body: test_body.c. */
#include "test_util.h"

#include "animkit/skin.h"
#include "animkit/walkclip.h"

enum { MAXJ = 8, MAXV = 257 };

typedef struct rig {
    int32_t joints;
    ak_xform model[MAXJ];
    float ibm[MAXJ * 16];
    ak_skin_joint palette[MAXJ];
} rig;

static void random_rig(akt_rng *r, rig *g, int32_t joints)
{
    g->joints = joints;
    for (int32_t j = 0; j < joints; ++j) {
        g->model[j].rotation = akt_random_quat(r);
        g->model[j].translation =
            ak_vec3_make(akt_uniform(r, -1, 1), akt_uniform(r, -1, 1), akt_uniform(r, -1, 1));
        ak_xform bind = {akt_random_quat(r),
                         {akt_uniform(r, -1, 1), akt_uniform(r, -1, 1), akt_uniform(r, -1, 1)}};
        ak_xform_to_mat4(ak_xform_inverse(bind), g->ibm + 16 * j);
    }
}

typedef struct verts {
    int32_t count, k;
    float pos[MAXV * 3], nrm[MAXV * 3];
    uint16_t joints[MAXV * AK_SKIN_MAX_INFLUENCES];
    float weights[MAXV * AK_SKIN_MAX_INFLUENCES];
} verts;

static void random_verts(akt_rng *r, verts *v, int32_t count, int32_t k, int32_t joints)
{
    v->count = count, v->k = k;
    for (int32_t i = 0; i < count * 3; ++i) {
        v->pos[i] = akt_uniform(r, -1, 1);
        v->nrm[i] = akt_uniform(r, -1, 1);
    }
    for (int32_t i = 0; i < count * k; ++i) {
        v->joints[i] = (uint16_t)(akt_next(r) % (uint64_t)joints);
        v->weights[i] = akt_uniform(r, 0.0f, 1.0f);
    }
    ak_skin_normalize_weights(v->weights, count, k);
}

static ak_skin_params params_for(rig *g, verts *v, int32_t method, float *out_p, float *out_n)
{
    ak_skin_params p = ak_skin_defaults();
    p.method = method;
    p.joint_count = g->joints;
    p.model_pose = g->model;
    p.inverse_bind = g->ibm;
    p.palette = g->palette;
    p.vertex_count = v->count;
    p.influences = v->k;
    p.joints = v->joints;
    p.weights = v->weights;
    p.positions = v->pos;
    p.normals = v->nrm;
    p.out_positions = out_p;
    p.out_normals = out_n;
    return p;
}

static float out_a[MAXV * 3 + 4], out_b[MAXV * 3 + 4], nrm_a[MAXV * 3 + 4], nrm_b[MAXV * 3 + 4];

/* A vertex bound to one bone: DQS and LBS are the same rigid transform (1e-6). */
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
            AKT_NEAR(out_a[i], out_b[i], 1e-6);
            AKT_NEAR(nrm_a[i], nrm_b[i], 1e-6);
        }
    }
    print_message("one bone: max |LBS - DQS| = %.3g\n", worst);
}

/* The SIMD kernels (the widest the CPU has: AVX2 + FMA where it can, use_simd 1; SSE, use_simd
 * 2) and the scalar twin agree for every influence count and every count of vertices left
 * over after the steps of four and eight, and the last vertex's store stays inside the buffer. */
static void skin_simd_matches_scalar(void **state)
{
    (void)state;
    akt_rng r = {0xabcdef01u};
    static rig g;
    static verts v;
    static const int32_t counts[] = {1, 3, 4, 5, 7, 8, 9, 13, 16, 17, 0};
    for (int32_t k = 1; k <= AK_SKIN_MAX_INFLUENCES; ++k)
        for (int c = 0; c < (int)(sizeof counts / sizeof counts[0]); ++c)
            for (int method = 0; method < 2; ++method) {
                const int32_t count = counts[c] ? counts[c] : 1 + (int32_t)(akt_next(&r) % 200);
                random_rig(&r, &g, MAXJ);
                random_verts(&r, &v, count, k, MAXJ);
                v.joints[(count - 1) * k] = 60000; /* clamped to the last joint by every path */
                out_a[3 * count] = nrm_a[3 * count] = 12345.0f; /* guards past the end */
                ak_skin_params b = params_for(&g, &v, method, out_b, nrm_b);
                b.use_simd = 0, b.check_influences = 0;
                assert_int_equal(ak_skin_run(&b, NULL), AK_OK);
                for (int simd = 1; simd <= 2; ++simd) { /* widest the CPU has; SSE only */
                    ak_skin_params a = params_for(&g, &v, method, out_a, nrm_a);
                    a.use_simd = simd, a.check_influences = 0;
                    assert_int_equal(ak_skin_run(&a, NULL), AK_OK);
                    for (int32_t i = 0; i < count * 3; ++i) {
                        AKT_NEAR(out_a[i], out_b[i], 2e-6);
                        AKT_NEAR(nrm_a[i], nrm_b[i], 2e-6);
                    }
                    assert_true(out_a[3 * count] == 12345.0f && nrm_a[3 * count] == 12345.0f);
                }
            }
}

/* A mesh whose outputs exceed 8 MiB takes the streaming stores (non-temporal, four or eight
 * vertices a step): same numbers as the scalar twin, both methods, both SIMD widths; an odd
 * count ends in the one-vertex path. */
static void skin_streamed_outputs_match_scalar(void **state)
{
    (void)state;
    enum { N = 400003, K = 4 };
    akt_rng r = {4242};
    static rig g;
    random_rig(&r, &g, MAXJ);
    float *pos = malloc(sizeof(float) * 3 * N), *nrm = malloc(sizeof(float) * 3 * N);
    float *w = malloc(sizeof(float) * K * N);
    uint16_t *jt = malloc(sizeof(uint16_t) * K * N);
    float *oa = malloc(sizeof(float) * 3 * N), *ob = malloc(sizeof(float) * 3 * N);
    float *na = malloc(sizeof(float) * 3 * N), *nb = malloc(sizeof(float) * 3 * N);
    for (int32_t i = 0; i < 3 * N; ++i)
        pos[i] = akt_uniform(&r, -1, 1), nrm[i] = akt_uniform(&r, -1, 1);
    for (int32_t i = 0; i < K * N; ++i)
        jt[i] = (uint16_t)(akt_next(&r) % MAXJ), w[i] = akt_uniform(&r, 0, 1);
    ak_skin_normalize_weights(w, N, K);
    for (int method = 0; method < 2; ++method) {
        ak_skin_params p = ak_skin_defaults();
        p.method = method, p.joint_count = g.joints, p.model_pose = g.model, p.inverse_bind = g.ibm;
        p.palette = g.palette, p.vertex_count = N, p.influences = K, p.joints = jt, p.weights = w;
        p.positions = pos, p.normals = nrm, p.out_positions = ob, p.out_normals = nb;
        p.use_simd = 0;
        assert_int_equal(ak_skin_run(&p, NULL), AK_OK);
        for (int simd = 1; simd <= 2; ++simd) {
            p.use_simd = simd, p.out_positions = oa, p.out_normals = na;
            assert_int_equal(ak_skin_run(&p, NULL), AK_OK);
            for (int32_t i = 0; i < 3 * N; ++i) {
                AKT_NEAR(oa[i], ob[i], 2e-6);
                AKT_NEAR(na[i], nb[i], 2e-6);
            }
        }
    }
    free(pos), free(nrm), free(w), free(jt), free(oa), free(ob), free(na), free(nb);
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
        for (int simd = 0; simd <= 2; ++simd) {
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
    p.use_simd = 3;
    assert_int_equal(ak_skin_validate(&p, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "use_simd 3"));
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
        cmocka_unit_test(skin_simd_matches_scalar),
        cmocka_unit_test(skin_streamed_outputs_match_scalar),
        cmocka_unit_test(skin_normals_are_unit),
        cmocka_unit_test(skin_twisted_limb_keeps_its_section_with_dqs),
        cmocka_unit_test(skin_validate_refuses_bad_input),
        cmocka_unit_test(skin_normalize_weights_sums_to_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
